"""The ISO-BMFF box walker: nesting, 64-bit and open-ended sizes, lies, and bounded work."""

from __future__ import annotations

import pytest

from mediaparts.formats._isobmff import (
    MAX_BOXES,
    boxes,
    brands,
    find_box,
    largest_extent,
    track_handlers,
)
from mediaparts.formats._reader import ByteWindow


def _box(kind: bytes, payload: bytes = b"") -> bytes:
    return (8 + len(payload)).to_bytes(4, "big") + kind + payload


def _probe(data: bytes) -> ByteWindow:
    return ByteWindow(data, len(data))


def _track(handler: bytes) -> bytes:
    # hdlr is a FullBox: version/flags, pre_defined, then the handler type (ISO 14496-12 8.4.3).
    hdlr = _box(b"hdlr", b"\0" * 8 + handler + b"\0" * 12)
    return _box(b"trak", _box(b"tkhd", b"\0" * 84) + _box(b"mdia", _box(b"mdhd") + hdlr))


def test_boxes_walks_siblings_in_order() -> None:
    """Each sibling comes with its type, payload start and end."""
    data = _box(b"ftyp", b"isom") + _box(b"free") + _box(b"mdat", b"xyz")
    assert list(boxes(_probe(data), 0, len(data))) == [
        (b"ftyp", 8, 12),
        (b"free", 20, 20),
        (b"mdat", 28, 31),
    ]


def test_find_box_reaches_a_nested_box() -> None:
    """find_box returns a child's payload span, so walks nest: moov/trak/mdia/hdlr."""
    data = _box(b"ftyp", b"isom") + _box(b"moov", _box(b"mvhd", b"\0" * 100) + _track(b"soun"))
    probe = _probe(data)
    moov = find_box(probe, 0, len(data), b"moov")
    assert moov is not None
    trak = find_box(probe, *moov, b"trak")
    assert trak is not None
    mdia = find_box(probe, *trak, b"mdia")
    assert mdia is not None
    assert find_box(probe, *mdia, b"hdlr") is not None
    assert find_box(probe, *moov, b"udta") is None


def test_track_handlers_lists_every_track() -> None:
    """The handler types of all tracks in `moov` are read."""
    data = _box(b"ftyp", b"isom") + _box(b"moov", _track(b"vide") + _track(b"soun"))
    assert track_handlers(_probe(data)) == {b"vide", b"soun"}


def test_track_handlers_without_moov_is_empty() -> None:
    """A file with no `moov` has no tracks to report."""
    data = _box(b"ftyp", b"isom") + _box(b"mdat", b"\0" * 16)
    assert track_handlers(_probe(data)) == set()


def test_boxes_reads_a_64_bit_largesize() -> None:
    """Size 1 means a 64-bit size follows the type, and the payload starts after it."""
    payload = b"abcd"
    data = (1).to_bytes(4, "big") + b"mdat" + (16 + len(payload)).to_bytes(8, "big") + payload
    data += _box(b"free")
    assert list(boxes(_probe(data), 0, len(data))) == [(b"mdat", 16, 20), (b"free", 28, 28)]


def test_boxes_size_zero_runs_to_the_parent_end() -> None:
    """Size 0 means the box runs to the end of its parent (the last box of a file)."""
    data = _box(b"ftyp", b"isom") + (0).to_bytes(4, "big") + b"mdat" + b"\0" * 40
    assert list(boxes(_probe(data), 0, len(data)))[-1] == (b"mdat", 20, len(data))


def test_find_box_clamps_an_overlong_box_to_its_parent() -> None:
    """A box claiming more than its parent holds is cut at the parent's end."""
    data = _box(b"moov", (1000).to_bytes(4, "big") + b"mvhd" + b"\0" * 8)
    probe = _probe(data)
    found = list(boxes(probe, 8, len(data)))
    assert found == [(b"mvhd", 16, 1008)]  # what the box declares, for the caller to judge
    assert find_box(probe, 8, len(data), b"mvhd") == (16, len(data))


@pytest.mark.parametrize(
    "data",
    [
        b"\0\0\0\x10mo",  # header cut short
        (4).to_bytes(4, "big") + b"free" + b"\0" * 8,  # a size smaller than its own header
        (1).to_bytes(4, "big") + b"mdat" + (8).to_bytes(8, "big"),  # largesize below 16
        (1).to_bytes(4, "big") + b"mdat\0\0",  # largesize cut short
    ],
)
def test_boxes_stops_at_an_impossible_header(data: bytes) -> None:
    """A cut or impossible header ends the walk instead of raising or looping."""
    assert list(boxes(_probe(data), 0, len(data))) == []


def test_boxes_visits_at_most_max_boxes() -> None:
    """Thousands of empty boxes cost MAX_BOXES steps, not thousands."""
    data = _box(b"free") * 10_000
    assert len(list(boxes(_probe(data), 0, len(data)))) == MAX_BOXES


def test_boxes_reads_beyond_the_head_only_through_the_probe_budget() -> None:
    """A walk over a file held elsewhere asks only for headers, within the probe's budget."""
    huge = 1 << 40
    reads: list[tuple[int, int]] = []

    def read_at(offset: int, length: int) -> bytes:
        reads.append((offset, length))
        return _box(b"free")[:length]

    head = (1 << 20).to_bytes(4, "big") + b"mdat" + b"\0" * 65528
    found = list(boxes(ByteWindow(head, huge, read_at), 0, huge))
    assert len(found) <= MAX_BOXES
    assert all(length <= 16 for _, length in reads)


def test_brands_reads_major_and_compatible_without_padding() -> None:
    """The major and compatible brands are read, "M4A " and "M4A\\0" alike as M4A."""
    head = _box(b"ftyp", b"M4A \0\0\0\0isomM4A\0mp42")
    assert brands(head) == (b"M4A", frozenset({b"isom", b"M4A", b"mp42"}))


@pytest.mark.parametrize(
    "head",
    [b"", _box(b"moov", b"\0" * 8), (11).to_bytes(4, "big") + b"ftypiso"],
)
def test_brands_of_no_ftyp_box_is_none(head: bytes) -> None:
    """Bytes that do not open with an `ftyp` box large enough for a brand have no brands."""
    assert brands(head) is None


def test_brands_of_a_cut_ftyp_box_are_empty() -> None:
    """An `ftyp` box cut inside the prefix still counts; its missing brands read as empty."""
    assert brands(b"\0\0\0\x14ftyp") == (b"", frozenset())


def _heif(*extents: tuple[int, int], before: bytes = b"") -> bytes:
    ispes = b"".join(
        _box(b"ispe", b"\0" * 4 + w.to_bytes(4, "big") + h.to_bytes(4, "big")) for w, h in extents
    )
    ipco = _box(b"ipco", _box(b"colr", b"nclx" + b"\0" * 7) + ispes)
    meta = _box(b"meta", b"\0" * 4 + _box(b"hdlr", b"\0" * 8 + b"pict") + _box(b"iprp", ipco))
    return _box(b"ftyp", b"heic\0\0\0\0mif1") + before + meta + _box(b"mdat", b"ispe" * 8)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (_heif((4032, 3024)), (4032, 3024)),
        (_heif((320, 240), (4032, 3024), (512, 512)), (4032, 3024)),  # thumbnail, primary, tile
        (_heif((64, 64), before=_box(b"mdat", b"ispe" * 4)), (64, 64)),  # media data first
        (_heif(), None),
        (_box(b"ftyp", b"heic") + _box(b"mdat", b"\0" * 4 + b"ispe" + b"\0" * 12), None),
    ],
)
def test_largest_extent_reads_meta_iprp_ipco_ispe(
    data: bytes, expected: tuple[int, int] | None
) -> None:
    """The largest `ispe` property in meta/iprp/ipco is the size; media data is never read."""
    assert largest_extent(_probe(data)) == expected


def test_largest_extent_skips_a_cut_ispe() -> None:
    """An `ispe` too short to hold a width and a height is not a size."""
    data = _heif((10, 10)).replace(b"\0\0\0\x14ispe", b"\0\0\0\x0cispe", 1)
    assert largest_extent(_probe(data)) is None
