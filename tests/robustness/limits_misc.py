"""Limits cases for the public boundary: batch result paths that are not regular files (a
FIFO that would block for ever, /dev/zero that never ends) and batch ids no UTF-8 line can
carry. Each must be refused with a `MediaError`, at once.

Hooked into `limits_corpus` (`misc(large)` in both sets, `CHILD_BUILDERS` updated): the FIFO
must exist on the child's side, and the ids are Python strings, so the child builds them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.robustness.limits_harness import Case

__all__ = ["CHILD_BUILDERS", "misc"]


def _fifo(workdir: Path) -> str:
    path = workdir / "results.jsonl"
    os.mkfifo(path)
    return str(path)


CHILD_BUILDERS: dict[str, Callable[[Path], Any]] = {
    "batch-results-fifo": _fifo,
    "batch-results-zero": lambda _: "/dev/zero",
    # A lone surrogate: what os.fsdecode makes of a file name that is not UTF-8.
    "batch-id-surrogate": lambda _: [("ok", "hello"), ("req-\ud800", "hello")],
    "batch-ids-surrogate-late": lambda _: (
        [(f"q-{i}", "hi") for i in range(2000)] + [("\udcff", "hi")]
    ),
}


def misc(large: bool) -> Iterator[Case]:
    """The boundary's cases; the CI set has each once, the large set a longer batch."""
    for name in ("batch-results-fifo", "batch-results-zero"):
        yield Case(
            f"{name}/read_batch_results", "read_batch_results", build=name, refused=True, ci=True
        )
    yield Case(
        "batch-id-surrogate/write_batch",
        "write_batch",
        build="batch-id-surrogate",
        refused=True,
        ci=True,
    )
    if large:
        yield Case(
            "batch-ids-surrogate-late/write_batch", "write_batch",
            build="batch-ids-surrogate-late", refused=True,
        )  # fmt: skip
