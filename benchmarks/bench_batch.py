"""Batch files (issue 16): memory flat in the number of requests, and the writing rate.

1. Peak memory: `mp.write_batch` of 100,000 small image conversations against the same run
   with 1,000, each in a fresh child process (peak RSS: the writing process's own, VmHWM;
   the largest of its worker processes, `resource.getrusage(RUSAGE_CHILDREN)`, which counts
   the pages a worker shares with the writer it was forked from). Target: at most 1.2×.
2. Rate: `mp.write_batch` of N image conversations (rendered, wrapped, written to files)
   against `mp.normalize_many` of the same N images, both on every core. Target: batch
   writing at least 0.9× normalize_many's rate, so its time at most 1/0.9 = 1.11× (issue 16).

Run alone: `python benchmarks/run.py --only batch`; the child is this file with `--child`.
"""

from __future__ import annotations

import io
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from harness import ROOT, Row

import mediaparts as mp

SMALL, LARGE = 1_000, 100_000
RATE_N = 5_000
PROVIDER, MODEL = "openai", "gpt-4o"


def small_image(i: int) -> bytes:
    """A small PNG (64x48), a little different for each `i` (so nothing is shared by value)."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (64, 48), (i % 256, (i // 256) % 256, 90)).save(out, "PNG")
    return out.getvalue()


def conversations(count: int) -> Iterator[tuple[str, list[mp.Message]]]:
    """`count` small image conversations, made as they are asked for."""
    images = [small_image(i) for i in range(64)]
    for i in range(count):
        yield (
            f"req-{i:06d}",
            [
                mp.System("Answer in one short sentence."),
                mp.User([f"What colour is image {i}?", mp.part(images[i % 64])]),
            ],
        )


def _own_peak() -> int:
    """This process's peak RSS in KiB: Linux's VmHWM, which starts afresh at exec (ru_maxrss
    keeps the high-water mark of the process that forked us, here the benchmark runner)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _child(count: int, out: str) -> None:
    """Write `count` conversations' batch files to `out`; print the peaks as JSON (KiB)."""
    files = mp.write_batch(conversations(count), PROVIDER, out, model=MODEL)
    own = _own_peak()
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({"self": own, "workers": workers, "files": len(files)}))


def _peak(count: int) -> dict[str, int]:
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child", str(count), out],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
    result: dict[str, int] = json.loads(done.stdout.splitlines()[-1])
    return result


def memory_rows() -> list[Row]:
    small, large = _peak(SMALL), _peak(LARGE)
    note = (
        f"{LARGE:,} vs {SMALL:,} 64x48 PNG conversations for {PROVIDER} "
        f"({large['files']} file(s) vs {small['files']}); peak RSS of the writing process; its "
        f"largest worker: {large['workers'] / 1024:.0f} vs {small['workers'] / 1024:.0f} MiB"
    )
    return [
        Row(
            f"write_batch peak memory, {LARGE:,} vs {SMALL:,} image conversations",
            large["self"] / 1024,
            small["self"] / 1024,
            f"{SMALL:,} conversations",
            unit="MiB",
            target="≤ 1.2× (issue 16)",
            goal=("≤", 1.2),
            note=note,
        ),
        Row(
            f"write_batch worker peak memory, {LARGE:,} vs {SMALL:,}",
            large["workers"] / 1024,
            small["workers"] / 1024,
            f"{SMALL:,} conversations",
            unit="MiB",
            target="≤ 1.2× (issue 16)",
            goal=("≤", 1.2),
        ),
    ]


def _best(fn: object, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def rate_rows(count: int = RATE_N) -> list[Row]:
    images = [small_image(i) for i in range(64)]
    parts = [mp.part(images[i % 64]) for i in range(count)]

    def normalize_all() -> None:
        mp.normalize_many(parts, PROVIDER, model=MODEL)

    def write_all() -> None:
        with tempfile.TemporaryDirectory() as out:
            mp.write_batch(conversations(count), PROVIDER, out, model=MODEL)

    normalize_all()  # warm both (worker start-up, imports)
    write_all()
    ours, base = _best(write_all), _best(normalize_all)
    return [
        Row(
            f"write_batch of {count:,} image conversations",
            ours,
            base,
            f"normalize_many of the {count:,} images",
            target="≤ 1.11× (rate ≥ 0.9× normalize_many's, issue 16)",
            goal=("≤", 1 / 0.9),
            note=f"{count / ours:,.0f} vs {count / base:,.0f} per second; best of 3, all cores",
        )
    ]


EXTRA = """\
`mp.write_batch` reads its input lazily and keeps at most a few chunks per worker in flight,
so the writing process holds those chunks, the buffered file and a 64-bit digest of each id
(to refuse a repeated one), never the lines or conversations. The rows above are one run of
`python benchmarks/run.py --only batch`: the peak resident memory of the writing process and of
its largest worker, each run in a fresh child process, and the writing rate against
`mp.normalize_many` of the same images (which does less: no rendering, no JSON, no file).
"""


def run() -> tuple[list[Row], str]:
    return memory_rows() + rate_rows(), EXTRA


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(int(sys.argv[2]), sys.argv[3])
    else:
        from harness import table

        rows, _ = run()
        print(table(rows))
