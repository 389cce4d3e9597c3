"""`import mediaparts` in a fresh interpreter: wall time, what it pulls in, and the peers' imports.

The time is measured inside a fresh interpreter (`perf_counter` around the import statement,
median of several processes), so interpreter start-up is not counted; `-X importtime` then
names the heaviest packages. The peers' imports are timed the same way in the peer
environment.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time

from harness import ROOT, Row, peer_python

_ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
_HEAVY = ("PIL", "httpx", "pydantic", "anyio", "asyncio", "filetype", "pybase64")


def _import_seconds(python: str, module: str, env: dict[str, str] | None) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    done = subprocess.run([python, "-c", code], env=env, capture_output=True, text=True, check=True)
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
