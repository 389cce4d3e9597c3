"""Kill a process that is waiting on a renderer child, and watch what becomes of the child."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["orphan_survives"]

_ROOT = Path(__file__).resolve().parents[1]


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def orphan_survives(code: str, grace: float = 5.0) -> bool:
    """Run `code` in a helper Python, wait until it has a child busy for a second, SIGKILL the
    helper, and return whether that child is still running `grace` seconds later."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(_ROOT / "src"), str(_ROOT)])}
    helper = subprocess.Popen([sys.executable, "-c", code], env=env)
    try:
        end = time.monotonic() + 60
        children: list[int] = []
        while not children and time.monotonic() < end and helper.poll() is None:
            time.sleep(0.05)
            children = _children(helper.pid)
        assert children, "the helper started no child"
        time.sleep(1.0)  # the child is at work now, past its start
    finally:
        helper.send_signal(signal.SIGKILL)
        helper.wait()
    end = time.monotonic() + grace
    while time.monotonic() < end:
        if not any(_alive(child) for child in children):
            return False
        time.sleep(0.05)
    for child in children:  # leave nothing behind, whatever the outcome
        if _alive(child):
            os.kill(child, signal.SIGKILL)
    return True
