"""ByteWindow, the bounded reader: the shared prefix, bounded reads beyond it, the read budget."""

from __future__ import annotations

import pytest

from mediaparts.formats._reader import EXTRA_BUDGET, PREFIX_SIZE, ByteWindow


class Source:
    """An input of `size` bytes (byte i is i % 251) that records the reads made past the head."""

    def __init__(self, size: int) -> None:
        self.data = bytes(i % 251 for i in range(size))
        self.reads: list[tuple[int, int]] = []

    def read_at(self, offset: int, length: int) -> bytes:
        self.reads.append((offset, length))
        return self.data[offset : offset + length]

    def probe(self, known_size: bool = True) -> ByteWindow:
        size = len(self.data) if known_size else None
        return ByteWindow(self.data[:PREFIX_SIZE], size, self.read_at)


@pytest.mark.parametrize(
    ("head", "size", "truncated"),
    [
        (b"abc", None, False),  # a short stream: the head is all there is
        (bytes(PREFIX_SIZE), None, True),  # a full prefix of a stream may go on
        (b"abc", 3, False),
        (b"abc", 10, True),
    ],
)
def test_probe_truncated(head: bytes, size: int | None, truncated: bool) -> None:
    """truncated says whether the input may continue past the head."""
    assert ByteWindow(head, size).truncated is truncated


@pytest.mark.parametrize(("offset", "length"), [(-1, 4), (0, 0), (5, -2)])
def test_probe_at_refuses_empty_or_negative_ranges(offset: int, length: int) -> None:
    """A negative offset or a non-positive length gives no bytes and reads nothing."""
    source = Source(PREFIX_SIZE * 2)
    assert source.probe().at(offset, length) == b""
    assert source.reads == []


def test_probe_at_past_the_end_is_empty() -> None:
    """An offset at or past the known size gives no bytes and reads nothing."""
    source = Source(PREFIX_SIZE + 10)
    assert source.probe().at(PREFIX_SIZE + 10, 4) == b""
    assert source.reads == []


def test_probe_at_reads_beyond_the_prefix_up_to_the_end() -> None:
    """A read past the prefix goes to read_at, clipped to the input's size."""
    source = Source(PREFIX_SIZE + 10)
    assert source.probe().at(PREFIX_SIZE + 4, 100) == source.data[PREFIX_SIZE + 4 :]
    assert source.reads == [(PREFIX_SIZE + 4, 6)]


def test_probe_at_stops_reading_once_the_budget_is_spent() -> None:
    """Reads beyond the prefix share one budget; after it, only prefix bytes come back."""
    source = Source(PREFIX_SIZE + EXTRA_BUDGET * 2)
    probe = source.probe(known_size=False)
    assert len(probe.at(PREFIX_SIZE, EXTRA_BUDGET)) == EXTRA_BUDGET
    assert probe.at(PREFIX_SIZE * 2, 16) == b""  # spent: nothing past the prefix
    assert probe.at(PREFIX_SIZE - 4, 16) == source.data[PREFIX_SIZE - 4 : PREFIX_SIZE]
    assert source.reads == [(PREFIX_SIZE, EXTRA_BUDGET)]
