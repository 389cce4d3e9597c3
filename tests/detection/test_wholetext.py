"""Judging a whole upload as text: the sniffer's rules, in flat memory."""

from __future__ import annotations

import tracemalloc

import pytest

from mediaparts.detection import text_to_the_end

SIZE = 16 << 20


@pytest.mark.parametrize(
    "data",
    [
        ("caf\xe9 " * (SIZE // 5)).encode("latin-1"),
        b"\xef\xbb\xbf" + b"hello world " * (SIZE // 12),
        "\ufeff".encode("utf-16-le") + "hello ".encode("utf-16-le") * (SIZE // 12),
    ],
    ids=["latin-1", "utf-8-with-mark", "utf-16-with-mark"],
)
def test_text_to_the_end_reads_in_windows_without_copying_the_whole(data: bytes) -> None:
    """A 16 MiB text upload is judged with a few MiB of memory, not another copy of it."""
    tracemalloc.start()
    try:
        assert text_to_the_end(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < SIZE // 2


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("hello ".encode("utf-16-le") * 100, True),
        ("hello ".encode("utf-16-be") * 100, True),
        ("hello ".encode("utf-16-le") * 100 + b"\x00\xd8" * 400, False),
    ],
    ids=["le", "be", "le-then-binary"],
)
def test_text_to_the_end_utf16_without_mark_by_the_sniffers_rule(
    data: bytes, expected: bool
) -> None:
    """UTF-16 without a mark takes the byte order the sniffer found; binary after it is not text."""
    assert text_to_the_end(data) is expected
