"""Run in the peer environment: detect each file's type with filetype, puremagic and libmagic.

Reads a JSON job on stdin, {"files": [...], "repeat": n}, and prints JSON: for each detector
its version, the answer for every file (None when it has none) and the median time per file.
Files are read into memory first, so only detection is timed (as for mediaparts).
"""

from __future__ import annotations

import contextlib
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from importlib.metadata import version


def detectors() -> dict[str, tuple[str, Callable[[bytes], str | None]]]:
    found: dict[str, tuple[str, Callable[[bytes], str | None]]] = {}
    try:
        import filetype

        def by_filetype(data: bytes) -> str | None:
            kind = filetype.guess(data)
            return kind.mime if kind else None

        found["filetype"] = (version("filetype"), by_filetype)
    except ImportError:
        pass
    try:
        import puremagic

        def by_puremagic(data: bytes) -> str | None:
            try:
                return puremagic.from_string(data, mime=True) or None
            except puremagic.PureError:
                return None

        found["puremagic"] = (version("puremagic"), by_puremagic)
    except ImportError:
        pass
    try:
        import magic

        libmagic = magic.Magic(mime=True)  # one handle, reused: the fast way to call it

        def by_libmagic(data: bytes) -> str | None:
            return libmagic.from_buffer(data) or None

        found["libmagic"] = (f"python-magic {version('python-magic')}", by_libmagic)
    except ImportError:
        pass
    return found


def main() -> None:
    job = json.load(sys.stdin)
    blobs = []
    for name in job["files"]:
        with open(name, "rb") as f:
            blobs.append(f.read())
    out = {}
    for name, (ver, detect) in detectors().items():
        answers = []
        for data in blobs:
            try:
                answers.append(detect(data))
            except Exception as exc:  # a crash is a wrong answer, not a failed benchmark
                answers.append(f"error: {type(exc).__name__}")
        times = []
        for _ in range(job["repeat"]):
            gc.collect()
            start = time.perf_counter()
            for data in blobs:
                with contextlib.suppress(Exception):  # counted as wrong above
                    detect(data)
            times.append((time.perf_counter() - start) / len(blobs))
        out[name] = {"version": ver, "answers": answers, "per_file": statistics.median(times)}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
