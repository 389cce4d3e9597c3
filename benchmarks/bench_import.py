"""`import mediaparts` in a fresh interpreter: wall time, what it pulls in, and the peers' imports.

The time is measured inside a fresh interpreter (`perf_counter` around the import statement,
median of several processes), so interpreter start-up is not counted; `-X importtime` then
names the heaviest packages. The peers' imports are timed the same way in the peer
environment.

The floor of any library built on pydantic is `_FLOOR`: importing pydantic and building and
using one small model, timed the same way. mediaparts is measured against it twice, from a
copy of `src/mediaparts` in a temporary folder, so that no `__pycache__` of the checkout
counts: with its bytecode written by a first run (an installed package), and with none,
under PYTHONDONTWRITEBYTECODE=1 (an editable install where that variable is set, as on the
machines that run the tests: every module is compiled on every import). pydantic's own
bytecode is cached in both, as an installed package's is.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import ROOT, Row, peer_python

_ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
_HEAVY = ("PIL", "httpx", "pydantic", "anyio", "asyncio", "filetype", "pybase64")


# The floor: import pydantic, build one frozen model of a few typed fields, validate once.
_FLOOR = """\
from pydantic import BaseModel, ConfigDict

class Floor(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    size: int
    tags: list[str] = []

Floor(name="floor", size=1, tags=["a"])
"""


def _import_seconds(python: str, module: str, env: dict[str, str] | None) -> float:
    return _exec_seconds(python, f"import {module}", env)


def _exec_seconds(python: str, code: str, env: dict[str, str] | None) -> float:
    """Seconds `code` takes in a fresh interpreter, timed inside it (start-up left out)."""
    timed = f"import time\nt = time.perf_counter()\nexec({code!r})\nprint(time.perf_counter() - t)"
    done = subprocess.run(
        [python, "-c", timed], env=env, capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def import_cost(python: str, module: str, repeat: int, env: dict[str, str] | None = None) -> float:
    """Median seconds `import module` takes in a fresh interpreter (timed inside it)."""
    _import_seconds(python, module, env)  # warm the disk cache and write the .pyc files
    return statistics.median(_import_seconds(python, module, env) for _ in range(repeat))


def startup(python: str, repeat: int) -> float:
    """Median wall time of `python -c pass`: what every command pays before importing."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([python, "-c", "pass"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def against_floor(repeat: int) -> list[Row]:
    """`import mediaparts` against `_FLOOR`, with and without cached bytecode (alternating)."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "mediaparts"
        ignore = shutil.ignore_patterns("__pycache__")
        shutil.copytree(ROOT / "src" / "mediaparts", copy, ignore=ignore)
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        base.pop("PYTHONPYCACHEPREFIX", None)
        cached = {**base, "PYTHONPATH": folder}
        uncached = {**cached, "PYTHONDONTWRITEBYTECODE": "1"}
        _import_seconds(sys.executable, "mediaparts", cached)  # writes the copy's bytecode
        _exec_seconds(sys.executable, _FLOOR, base)  # warms the disk cache
        for env, how, goal in (
            (cached, "bytecode cached", ("≤", 1.15)),
            (uncached, "no bytecode: PYTHONDONTWRITEBYTECODE=1, no __pycache__", None),
        ):
            if env is uncached:  # a fresh copy: no bytecode of the cached runs left
                shutil.rmtree(copy)
                shutil.copytree(ROOT / "src" / "mediaparts", copy, ignore=ignore)
            ours, floor = [], []
            for _ in range(repeat):
                ours.append(_import_seconds(sys.executable, "mediaparts", env))
                floor.append(_exec_seconds(sys.executable, _FLOOR, base))
            rows.append(
                Row(
                    f"import mediaparts vs the pydantic floor ({how})",
                    statistics.median(ours),
                    statistics.median(floor),
                    "import pydantic, build and validate one model",
                    target="≤ 1.15× the floor" if goal else "as small as it honestly can be",
                    goal=goal,
                    note="fresh interpreters, timed inside them, alternating, medians; the "
                    "floor's model: 3 typed fields, frozen (bench_import._FLOOR)",
                )
            )
    return rows


def heaviest(count: int = 6) -> list[tuple[str, float]]:
    """The packages (cumulative, own imports included) that cost `import mediaparts` the most."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import mediaparts"],
        env=_ENV,
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, float] = {}
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+\d+ \|\s+(\d+) \| *(\S+)$", line)
        # A package's own line carries everything it imported (each is imported only once).
        if match and "." not in match[2] and match[2] != "mediaparts":
            found[match[2]] = max(found.get(match[2], 0.0), int(match[1]) / 1e6)
    return sorted(found.items(), key=lambda kv: -kv[1])[:count]


def loaded_at_import() -> list[str]:
    code = f"import sys, mediaparts; print(','.join(m for m in {_HEAVY!r} if m in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", code], env=_ENV, capture_output=True, text=True, check=True
    )
    return [m for m in done.stdout.strip().split(",") if m]


_PEERS = {
    "pydantic-ai": "pydantic_ai",
    "instructor": "instructor",
    "llama-index": "llama_index.core",
    "llm": "llm",
}


def run(repeat: int = 9) -> list[Row]:
    ours = import_cost(sys.executable, "mediaparts", repeat, _ENV)
    bare = startup(sys.executable, repeat)
    loaded = loaded_at_import()
    top = ", ".join(f"{name} {cost * 1e3:.0f} ms" for name, cost in heaviest())
    rows = [
        Row(
            "import mediaparts (fresh interpreter, timed inside it)",
            ours,
            bare,
            "python -c pass, start-up alone",
            target="< 150 ms; Pillow and httpx not imported",
            goal=("<", 0.150),
            goal_on="ours",
            note=f"imported at import time: {', '.join(loaded) or 'none of ' + '/'.join(_HEAVY)}"
            f"; -X importtime, cumulative under mediaparts: {top}",
        )
    ]
    rows.extend(against_floor(repeat))
    python = peer_python()
    for peer, module in _PEERS.items():
        label = f"import mediaparts vs import {module} ({peer})"
        try:
            if python is None:
                raise FileNotFoundError(python)
            cost = import_cost(python, module, max(3, repeat // 3))
        except (FileNotFoundError, subprocess.CalledProcessError):
            rows.append(Row(label, ours, 0.0, "", note=f"{peer}: not installed"))
            continue
        rows.append(
            Row(
                label,
                ours,
                cost,
                f"import {module}",
                note="for reference; the peer measured in the peer environment",
            )
        )
    return rows
