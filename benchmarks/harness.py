"""What every benchmark module shares: rows with targets, timing, the peer environment, inputs.

A `Row` is one line of docs/performance.md: mediaparts' number, a baseline measured in the same
run, their ratio, and the target that ratio is held to.
"""

from __future__ import annotations

import gc
import json
import operator
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

_OPS = {"≤": operator.le, "<": operator.lt, "≥": operator.ge, ">": operator.gt}


@dataclass
class Row:
    """One benchmark: ours against a baseline, with an optional goal on the ratio (or on ours).

    `goal` is `(op, value)`, checked against `ratio`; with `goal_on="ours"` it is checked
    against `ours` in `unit` (for absolute targets such as the import time).
    """

    name: str
    ours: float
    baseline: float
    baseline_name: str
    unit: str = "s"
    target: str = ""
    goal: tuple[str, float] | None = None
    goal_on: str = "ratio"
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.ours / self.baseline if self.baseline else float("nan")

    @property
    def met(self) -> bool | None:
        if self.goal is None:
            return None
        op, value = self.goal
        measured = self.ratio if self.goal_on == "ratio" else self.ours
        return bool(_OPS[op](measured, value))


def _amount(value: float, unit: str) -> str:
    if unit == "s":
        if value >= 1:
            return f"{value:.2f} s"
        if value >= 1e-3:
            return f"{value * 1e3:.1f} ms"
        return f"{value * 1e6:.1f} µs"
    return f"{value:.2f} {unit}"


def table(rows: list[Row]) -> str:
    """Render rows as a Markdown table."""
    lines = [
        "| benchmark | mediaparts | baseline | ratio | target | met | notes |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        met = {None: "—", True: "yes", False: "**no**"}[r.met]
        base = f"{_amount(r.baseline, r.unit)} ({r.baseline_name})" if r.baseline_name else "—"
        ratio = f"{r.ratio:.3f}×" if r.baseline else "—"
        note = r.note.replace("|", "\\|")
        lines.append(
            f"| {r.name} | {_amount(r.ours, r.unit)} | {base} | {ratio} | {r.target or '—'} "
            f"| {met} | {note} |"
        )
    return "\n".join(lines)


def median_time(fn: Callable[[], object], repeat: int = 7, warmup: int = 1) -> float:
    """Median wall time of `fn` over `repeat` runs, after `warmup` runs."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peak_added(fn: Callable[[], object]) -> int:
    """Bytes of peak memory `fn` adds, as traced by tracemalloc."""
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    result = fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del result
    return peak - base


def cache_dir() -> Path:
    """Where generated inputs are kept between runs (they take seconds to make)."""
    path = Path(os.environ.get("MEDIAPARTS_BENCH_CACHE", Path(tempfile.gettempdir())))
    path = path / "mediaparts-bench-v1"
    path.mkdir(parents=True, exist_ok=True)
    return path


def cached(name: str, make: Callable[[], bytes]) -> bytes:
    """Return the bytes of a generated input, making and caching them on the first call."""
    path = cache_dir() / name
    if not path.exists():
        data = make()
        tmp = path.with_suffix(path.suffix + ".part")
        tmp.write_bytes(data)
        tmp.replace(path)
    return path.read_bytes()


# --- the peer environment ----------------------------------------------------------------------

# Beside the project, ignored by git (.gitignore), so the peers never mix with our dependencies.
DEFAULT_PEER_PYTHON = ROOT / ".venv-peers" / "bin" / "python"


def peer_python() -> str | None:
    """The peer environment's interpreter ($MEDIAPARTS_PEER_PYTHON), or None when absent."""
    candidate = Path(os.environ.get("MEDIAPARTS_PEER_PYTHON", DEFAULT_PEER_PYTHON))
    return str(candidate) if candidate.is_file() else None


class PeerUnavailable(Exception):
    """The peer environment is missing, or a peer script failed there."""


def run_peer(script: str, payload: dict[str, Any], timeout: float = 600) -> dict[str, Any]:
    """Run `peers/<script>` in the peer environment with a JSON job on stdin; return its JSON.

    Raises:
        PeerUnavailable: No peer environment, or the script failed (its stderr is included).
    """
    python = peer_python()
    if python is None:
        raise PeerUnavailable("peer environment not installed")
    done = subprocess.run(
        [python, str(HERE / "peers" / script)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        raise PeerUnavailable(f"{script} failed: {done.stderr.strip()[-800:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result
