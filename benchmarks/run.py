"""Benchmarks for mediaparts, run by hand; results go to docs/performance.md.

    python benchmarks/run.py            # print the table
    python benchmarks/run.py --write    # also rewrite docs/performance.md

Every row is a ratio against a baseline measured in the same run, on the same data, so the
numbers travel between machines better than absolute times do.
"""

from __future__ import annotations

import argparse
import base64
import datetime
import gc
import os
import platform
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import mediaparts as mp  # noqa: E402  (the path above makes the checkout importable)


@dataclass
class Row:
    name: str
    ours: float
    baseline: float
    baseline_name: str
    unit: str
    target: str

    @property
    def ratio(self) -> float:
        return self.ours / self.baseline


def median_time(fn: Callable[[], object], repeat: int = 7) -> float:
    """Median wall time of `fn` over `repeat` runs, after one warm-up run."""
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


def bench_base64(size: int) -> list[Row]:
    raw = os.urandom(size)
    part = mp.FilePart.from_bytes(raw, media_type="application/octet-stream")
    ours = median_time(part.to_base64)
    stdlib = median_time(lambda: base64.b64encode(raw).decode())
    mem_ours = peak_added(part.to_base64)
    mem_std = peak_added(lambda: base64.b64encode(raw).decode())
    mb = size // 2**20
    return [
        Row(f"to_base64 of {mb} MiB", ours, stdlib, "base64.b64encode().decode()", "s", "≤ 0.6×"),
        Row(
            f"to_base64 peak memory added, {mb} MiB",
            mem_ours / size,
            mem_std / size,
            "the same for the standard library",
            "× input",
            "≤ 1.5× input",
        ),
    ]


def bench_detect_path(size: int) -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.mp4"
        chunk = os.urandom(2**20)
        with path.open("wb") as f:
            f.write(b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom")
            for _ in range(size // len(chunk)):
                f.write(chunk)

        def read_all() -> bytes:
            return path.read_bytes()

        ours = median_time(lambda: mp.detect(path), repeat=21)
        baseline = median_time(read_all, repeat=5)
    mb = size // 2**20
    return [Row(f"detect() by path, {mb} MiB file", ours, baseline, "reading it", "s", "≤ 0.02×")]


def bench_fit_anthropic() -> list[Row]:
    """mp.normalize of a 24 MP JPEG for Anthropic against the naive Pillow pipeline."""
    from bench_imaging import naive, photo  # beside this file

    data = photo()
    part = mp.ImagePart.from_bytes(data)
    fitted = mp.normalize(part, "anthropic")
    size = (fitted.width or 0, fitted.height or 0)
    ours = median_time(lambda: mp.normalize(part, "anthropic"), repeat=5)
    baseline = median_time(lambda: naive(data, size), repeat=5)
    return [
        Row(
            f"normalize a 6000x4000 JPEG for anthropic (to {size[0]}x{size[1]})",
            ours,
            baseline,
            "open+load, exif_transpose, LANCZOS, save q=85",
            "s",
            "≤ 0.6×",
        )
    ]


def table(rows: list[Row]) -> str:
    lines = [
        "| benchmark | mediaparts | baseline | ratio | target |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        if r.unit == "s":
            ours, base = f"{r.ours * 1e3:.3f} ms", f"{r.baseline * 1e3:.3f} ms ({r.baseline_name})"
        else:
            ours, base = f"{r.ours:.2f} {r.unit}", f"{r.baseline:.2f} {r.unit} ({r.baseline_name})"
        lines.append(f"| {r.name} | {ours} | {base} | {r.ratio:.3f}× | {r.target} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite docs/performance.md")
    parser.add_argument("--base64-mib", type=int, default=64)
    parser.add_argument("--detect-mib", type=int, default=256)
    args = parser.parse_args()
    rows = (
        bench_base64(args.base64_mib * 2**20)
        + bench_detect_path(args.detect_mib * 2**20)
        + bench_fit_anthropic()
    )
    import pybase64

    header = (
        f"Measured {datetime.date.today().isoformat()} on {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, "
        f"mediaparts {mp.__version__}, pybase64 {pybase64.__version__} "
        f"({pybase64.get_version()})."
    )
    text = f"{header}\n\n{table(rows)}\n"
    print(text)
    if args.write:
        doc = ROOT / "docs" / "performance.md"
        doc.write_text(
            "# Performance\n\n"
            "Run by hand with `python benchmarks/run.py --write`, which rewrites this page. "
            "Each ratio compares mediaparts with a baseline measured in the same run on the "
            "same data; timings are medians of several runs.\n\n" + text
        )


if __name__ == "__main__":
    main()
