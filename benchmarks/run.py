"""Benchmarks for mediaparts, side by side with its peers and the obvious way.

    python benchmarks/run.py                      # print the tables (about 5-8 minutes)
    python benchmarks/run.py --write              # also rewrite docs/performance.md
    python benchmarks/run.py --only base64,fetch  # some sections (see --help for the names)

Set-up, once (the peers live in their own environment, so their dependencies never mix
with mediaparts'; without it their rows say "not installed"):

    python -m venv .venv && .venv/bin/pip install -e ".[heif]"   # mediaparts (or your venv)
    python3 -m venv .venv-peers
    .venv-peers/bin/pip install filetype puremagic python-magic pillow \
        "pydantic-ai-slim[anthropic,openai]" "openai<3" "anthropic<2" instructor llm \
        llm-anthropic llama-index-core llama-index-llms-anthropic llama-index-llms-openai \
        litellm langchain-core langchain-openai langchain-anthropic
    # libmagic itself comes from the system (Debian/Ubuntu: apt-get install libmagic1).
    # "openai<3": llm and llama-index-llms-openai need openai 2 while the newest
    # pydantic-ai-slim[openai] needs openai 3; named, pip picks the last pydantic-ai that takes
    # openai 2 at once, instead of backtracking through other packages for many minutes.
    # "anthropic<2": that pydantic-ai and llama-index-llms-anthropic call anthropic's message
    # param types, which anthropic 2 made unions ("Cannot instantiate typing.Union").

Environment: MEDIAPARTS_PEER_PYTHON (default .venv-peers/bin/python in the repository root),
MEDIAPARTS_CORPUS (default ../shared/corpus from the repository root; detection is skipped
without it),
MEDIAPARTS_BENCH_CACHE (where generated images are kept between runs; default the temp dir).
The convert section needs the [av] extra and the `ffmpeg` command on PATH (skipped without);
the ray section needs the [ray] extra (skipped without).

Every row is a ratio against a baseline measured in the same run, on the same data, so the
numbers travel between machines better than absolute times do. Timings are medians of
several `time.perf_counter` runs after a warm-up.
"""

from __future__ import annotations

import argparse
import base64
import datetime
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from harness import ROOT, Row, median_time, peak_added, peer_python, table

import mediaparts as mp

SETUP = """\
python3 -m venv .venv-peers
.venv-peers/bin/pip install filetype puremagic python-magic pillow \\
    "pydantic-ai-slim[anthropic,openai]" "openai<3" "anthropic<2" instructor llm \\
    llm-anthropic llama-index-core llama-index-llms-anthropic llama-index-llms-openai \\
    litellm langchain-core langchain-openai langchain-anthropic
PYTHONPATH=src python benchmarks/run.py --write   # in an environment with mediaparts' deps
"""


def bench_base64(size: int) -> list[Row]:
    raw = os.urandom(size)
    part = mp.FilePart.from_bytes(raw, media_type="application/octet-stream")
    ours = median_time(part.to_base64)
    stdlib = median_time(lambda: base64.b64encode(raw).decode())
    mem_ours = peak_added(part.to_base64)
    mem_std = peak_added(lambda: base64.b64encode(raw).decode())
    uri = median_time(part.to_data_uri)
    header = "data:application/octet-stream;base64,"
    mem_uri = peak_added(part.to_data_uri)
    mem_joined = peak_added(lambda: header + part.to_base64())
    mb = size // 2**20
    return [
        Row(
            f"to_base64 of {mb} MiB",
            ours,
            stdlib,
            "base64.b64encode().decode()",
            target="≤ 0.6×",
            goal=("≤", 0.6),
        ),
        Row(
            f"to_base64 peak memory added, {mb} MiB",
            mem_ours / size,
            mem_std / size,
            "the same for the standard library",
            unit="× input",
            target="≤ 1.5× input",
            goal=("≤", 1.5),
            goal_on="ours",
        ),
        Row(
            f"to_data_uri of {mb} MiB",
            uri,
            ours,
            "to_base64 of the same bytes",
            target="≤ 1.15× (issue 30: the base64 written once)",
            goal=("≤", 1.15),
        ),
        Row(
            f"to_data_uri peak memory added, {mb} MiB",
            mem_uri / size,
            mem_joined / size,
            "the header + to_base64() joined",
            unit="× input",
            target="≤ 1.5× input (issue 30)",
            goal=("≤", 1.5),
            goal_on="ours",
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
        ours = median_time(lambda: mp.detect(path), repeat=21)
        baseline = median_time(path.read_bytes, repeat=5)
    mb = size // 2**20
    return [
        Row(
            f"detect() by path, {mb} MiB file",
            ours,
            baseline,
            "reading it",
            target="≤ 0.02×",
            goal=("≤", 0.02),
        )
    ]


def _version(dist: str) -> str:
    try:
        return version(dist)
    except PackageNotFoundError:
        return "not installed"


def _peer_python_version(python: str) -> str:
    """The peer interpreter's version, as "Python X.Y.Z" (its path is this machine's)."""
    done = subprocess.run(
        [python, "-c", "import platform; print(platform.python_version())"],
        capture_output=True,
        text=True,
        check=False,
    )
    return f"Python {done.stdout.strip() or 'unknown'}"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    from PIL import features

    libs = ", ".join(
        f"{d} {_version(d)}" for d in ("pillow", "pillow-heif", "pybase64", "httpx", "pydantic")
    )
    turbo = features.version("libjpeg_turbo") or "no"
    peers = peer_python()
    peer_env = (
        f"peers in their own environment, {_peer_python_version(peers)}"
        if peers
        else "peer environment not installed"
    )
    return (
        f"Measured {datetime.date.today().isoformat()} on {cpu} ({platform.machine()}, "
        f"{os.cpu_count()} cores, {platform.system()} {platform.release()}), "
        f"Python {platform.python_version()}, mediaparts {mp.__version__}; {libs}; "
        f"libjpeg-turbo {turbo}; {peer_env}."
    )


def _sections(args: argparse.Namespace) -> dict[str, Callable[[], tuple[list[Row], str]]]:
    import bench_batch
    import bench_convert
    import bench_count
    import bench_detection
    import bench_fetch
    import bench_import
    import bench_normalize
    import bench_office
    import bench_pdf
    import bench_peer_requests
    import bench_peers
    import bench_ray
    import bench_render
    import bench_streams
    import bench_svg
    import bench_uploads
    import bench_video

    def rows_only(fn: Callable[[], list[Row]]) -> Callable[[], tuple[list[Row], str]]:
        return lambda: (fn(), "")

    return {
        "detection": lambda: bench_detection.run(repeat=args.repeat_detection),
        "base64": rows_only(lambda: bench_base64(args.base64_mib * 2**20)),
        "detect-path": rows_only(lambda: bench_detect_path(args.detect_mib * 2**20)),
        "normalize": rows_only(bench_normalize.normalize_rows),
        "peers": lambda: bench_peers.run(),
        "peers-requests": lambda: bench_peer_requests.run(
            bench_peer_requests.Sizes(args.requests_messages, args.requests_photo),
            repeat=args.repeat_requests,
        ),
        "fetch": rows_only(lambda: bench_fetch.run(counts=(40, 100), latency=0.15)),
        "many": rows_only(
            lambda: bench_normalize.normalize_many_rows(args.many, repeat=args.repeat_many)
        ),
        "import": rows_only(bench_import.run),
        "count": rows_only(bench_count.run),
        "render": rows_only(bench_render.run),
        "streams": rows_only(bench_streams.run),
        "office": rows_only(bench_office.run),
        "pdf": rows_only(bench_pdf.run),
        "video": rows_only(bench_video.run),
        "convert": rows_only(bench_convert.run),
        "svg": rows_only(bench_svg.run),
        "batch": bench_batch.run,
        "uploads": rows_only(bench_uploads.run),
        "ray": rows_only(lambda: bench_ray.run(args.ray_images)),
    }


SECTION_NAMES = (
    "detection",
    "base64",
    "detect-path",
    "normalize",
    "peers",
    "fetch",
    "many",
    "import",
    "count",
    "render",
    "peers-requests",
    "streams",
    "office",
    "pdf",
    "video",
    "convert",
    "svg",
    "batch",
    "uploads",
    "ray",
)

_TITLES = {
    "detection": "Detection accuracy",
    "peers": "Photo to a content block: what each library sends",
    "peers-requests": "Photos in a conversation: what each library sends on every render",
    "batch": "Batch files",
}


def _pixels(text: str) -> tuple[int, int]:
    """Parse "WxH" into (W, H)."""
    width, _, height = text.partition("x")
    try:
        return int(width), int(height)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WxH, such as 4032x3024, not {text!r}") from None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite docs/performance.md")
    parser.add_argument(
        "--only",
        default=",".join(SECTION_NAMES),
        help=f"comma-separated sections to run, from: {', '.join(SECTION_NAMES)}",
    )
    parser.add_argument("--base64-mib", type=int, default=64)
    parser.add_argument("--detect-mib", type=int, default=256)
    parser.add_argument("--many", type=int, default=500, help="images for normalize_many")
    parser.add_argument("--repeat-many", type=int, default=3)
    parser.add_argument("--repeat-detection", type=int, default=15)
    parser.add_argument("--ray-images", type=int, default=160, help="images for the Ray rows")
    parser.add_argument(
        "--requests-messages", type=int, default=1000, help="text messages for peers-requests"
    )
    parser.add_argument("--repeat-requests", type=int, default=7)
    parser.add_argument(
        "--requests-photo",
        type=_pixels,
        default=(4032, 3024),
        metavar="WxH",
        help="the size of the photos for peers-requests (as stored, sideways)",
    )
    args = parser.parse_args()
    chosen = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = sorted(set(chosen) - set(SECTION_NAMES))
    if unknown:
        parser.error(f"unknown sections {unknown}; choose from {', '.join(SECTION_NAMES)}")
    sections = _sections(args)
    rows: list[Row] = []
    extras: list[str] = []
    started = time.perf_counter()
    for name in SECTION_NAMES:
        if name not in chosen:
            continue
        begun = time.perf_counter()
        print(f"[{name}] running…", file=sys.stderr, flush=True)
        found, extra = sections[name]()
        print(f"[{name}] {time.perf_counter() - begun:.0f} s", file=sys.stderr, flush=True)
        rows += found
        if extra:
            extras.append(f"## {_TITLES[name]}\n\n{extra}")
    elapsed = time.perf_counter() - started
    missed = [r.name for r in rows if r.met is False]
    summary = (
        "Targets missed in this run: " + "; ".join(missed) + "."
        if missed
        else "Every target with a goal is met in this run."
    )
    ran = "all sections" if len(chosen) == len(SECTION_NAMES) else "sections " + ", ".join(chosen)
    text = (
        f"{machine()} Ran {ran} in {elapsed / 60:.1f} minutes.\n\n"
        f"## Results\n\n{table(rows)}\n\n{summary}\n\n" + "\n".join(extras)
    )
    print(text)
    if args.write:
        doc = ROOT / "docs" / "performance.md"
        doc.write_text(
            "# Performance\n\n"
            "Generated by `python benchmarks/run.py --write`; do not edit by hand. Each ratio is "
            "mediaparts' time (or memory) over a baseline measured in the same run on the same "
            "data (below 1× is better, except where the target says otherwise); timings are "
            "medians of several runs after a warm-up. “met” checks the target; rows without "
            "one are for reference.\n\n"
            "Set-up: the peers (filetype, puremagic, libmagic, pydantic-ai, instructor, "
            "llama-index, llm, litellm, langchain) are installed in their own environment and "
            "run there as subprocesses; without it their rows say “not installed”.\n\n"
            f"```sh\n{SETUP}```\n\n{text}"
        )
        print(f"wrote {doc.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
