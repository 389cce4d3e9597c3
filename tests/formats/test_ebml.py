"""The EBML element walker: variable-size integers, nesting, unknown sizes, lies, bounded work."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mediaparts.formats._ebml import (
    AUDIO_TRACK,
    CLUSTER,
    EBML_HEADER,
    EBML_UNKNOWN_SIZE,
    INFO,
    MAX_ELEMENTS,
    SEGMENT,
    VIDEO_TRACK,
    element,
    elements,
    read_vint,
    track_types,
)
from mediaparts.formats._reader import ByteWindow

_TRACKS, _TRACK_ENTRY, _TRACK_TYPE = 0x1654AE6B, 0xAE, 0x83
_UNKNOWN_SIZE = b"\x01\xff\xff\xff\xff\xff\xff\xff"


def _id(ident: int) -> bytes:
    return ident.to_bytes((ident.bit_length() + 7) // 8, "big")


def _el(ident: int, body: bytes = b"") -> bytes:
    """An element with its size written in 8 bytes, as muxers that patch sizes later do."""
    return _id(ident) + (0x01 << 56 | len(body)).to_bytes(8, "big") + body


def _probe(data: bytes) -> ByteWindow:
    return ByteWindow(data, len(data))


def _tracks(*types: int) -> bytes:
    entries = b"".join(_el(_TRACK_ENTRY, _el(_TRACK_TYPE, bytes([t]))) for t in types)
    return _el(_TRACKS, entries)


@pytest.mark.parametrize(
    ("data", "keep_marker", "expected"),
    [
        (b"\x81", False, (1, 1)),
        (b"\x40\x02", False, (2, 2)),
        (b"\x10\x00\x00\x05", False, (5, 4)),
        (b"\x01\x00\x00\x00\x00\x00\x01\x00", False, (256, 8)),
        (b"\xff", False, (EBML_UNKNOWN_SIZE, 1)),
        (b"\x7f\xff", False, (EBML_UNKNOWN_SIZE, 2)),
        (_UNKNOWN_SIZE, False, (EBML_UNKNOWN_SIZE, 8)),
        (b"\x1a\x45\xdf\xa3", True, (EBML_HEADER, 4)),
        (b"\xa3", True, (0xA3, 1)),
        (b"\x00\x81", False, None),  # a length over 8 bytes
        (b"\x40", False, None),  # cut short
        (b"", False, None),
    ],
)
def test_read_vint_reads_lengths_markers_and_unknown(
    data: bytes, keep_marker: bool, expected: tuple[int, int] | None
) -> None:
    """The leading zeros give the length; IDs keep their marker; all ones is unknown."""
    assert read_vint(data, 0, keep_marker=keep_marker) == expected


def test_element_reads_id_body_start_and_size() -> None:
    """An element header gives its ID, where its body starts and the size it declares."""
    assert element(b"\x1a\x45\xdf\xa3\x84abcd", 0) == (EBML_HEADER, 5, 4)
    assert element(b"\x1a\x45\xdf", 0) is None


def test_elements_walks_siblings_and_nests() -> None:
    """Siblings come in order, and a body's span walks its children."""
    info = _el(INFO, _el(0x4489, b"\x41\x20\x00\x00"))
    data = _el(SEGMENT, info + _tracks(VIDEO_TRACK))
    ((ident, body, size, end),) = list(elements(_probe(data), 0, len(data)))
    assert (ident, size, end) == (SEGMENT, len(data) - body, len(data))
    children = [child[0] for child in elements(_probe(data), body, end)]
    assert children == [INFO, _TRACKS]


def test_elements_clamp_an_overlong_body_to_the_parent() -> None:
    """A child claiming more than its parent holds ends at the parent's end."""
    data = _el(SEGMENT, _id(INFO) + (0x01 << 56 | 1000).to_bytes(8, "big") + b"\0" * 4)
    _, body, _, end = next(elements(_probe(data), 0, len(data)))
    ((ident, child_body, size, child_end),) = list(elements(_probe(data), body, end))
    assert (ident, size, child_end) == (INFO, 1000, len(data))
    assert child_body == body + 12


def test_elements_unknown_size_runs_to_the_parent_end_and_ends_the_walk() -> None:
    """An element of unknown size (a live stream's Cluster) runs to its parent's end."""
    data = _el(INFO) + _id(CLUSTER) + _UNKNOWN_SIZE + b"\0" * 30 + _el(INFO)
    found = list(elements(_probe(data), 0, len(data)))
    assert [(ident, size, end) for ident, _, size, end in found] == [
        (INFO, 0, 12),
        (CLUSTER, EBML_UNKNOWN_SIZE, len(data)),
    ]


def test_elements_visits_at_most_the_limit() -> None:
    """A hundred thousand empty elements cost MAX_ELEMENTS steps."""
    data = b"\xec\x80" * 100_000  # Void elements of size 0
    assert len(list(elements(_probe(data), 0, len(data)))) == MAX_ELEMENTS
    assert len(list(elements(_probe(data), 0, len(data), limit=3))) == 3


@given(st.binary(max_size=512))
def test_elements_never_raises_on_any_bytes(data: bytes) -> None:
    """Any bytes walk without an exception, within the bounds given."""
    for _, body, size, end in elements(_probe(data), 0, len(data)):
        assert body <= end + 16 and end <= len(data)
        assert size == EBML_UNKNOWN_SIZE or size >= 0


@pytest.mark.parametrize(
    ("types", "expected"),
    [
        ((AUDIO_TRACK,), {AUDIO_TRACK}),
        ((VIDEO_TRACK, AUDIO_TRACK), {VIDEO_TRACK, AUDIO_TRACK}),
        ((), set()),
    ],
)
def test_track_types_reads_every_track_entry(types: tuple[int, ...], expected: set[int]) -> None:
    """The TrackType of every TrackEntry in the first Tracks element is read."""
    body = _el(INFO) + _tracks(*types) + _el(CLUSTER)
    assert track_types(_probe(body), 0, len(body)) == expected


@pytest.mark.parametrize(
    "body",
    [
        _el(CLUSTER) + _tracks(AUDIO_TRACK),  # Tracks after the first Cluster
        _id(INFO) + _UNKNOWN_SIZE + _tracks(AUDIO_TRACK),  # past an element of unknown size
        _el(INFO) * 40 + _tracks(AUDIO_TRACK),  # too far into the Segment
        _el(INFO),  # no Tracks at all
    ],
)
def test_track_types_not_found_is_none(body: bytes) -> None:
    """Tracks are looked for only where muxers write them, before the media data."""
    assert track_types(_probe(body), 0, len(body)) is None


def test_track_types_reads_a_bounded_tracks_element() -> None:
    """A Tracks element claiming gigabytes is read only up to its cap, through the probe."""
    head = _id(_TRACKS) + (0x01 << 56 | 1 << 40).to_bytes(8, "big")
    reads: list[int] = []

    def read_at(offset: int, length: int) -> bytes:
        reads.append(length)
        return (head + b"\0" * (offset + length))[offset : offset + length]

    assert track_types(ByteWindow(head, 1 << 41, read_at), 0, 1 << 41) == set()
    assert sum(reads) <= 65536 + 16


def test_track_types_skips_other_children_and_stops_at_an_unknown_size_entry() -> None:
    """Only TrackEntry children count; an entry of unknown size (never written) ends the read."""
    entries = _el(0xEC) + _el(_TRACK_ENTRY, _el(_TRACK_TYPE, bytes([AUDIO_TRACK])))
    entries += _id(_TRACK_ENTRY) + _UNKNOWN_SIZE + _el(_TRACK_TYPE, bytes([VIDEO_TRACK]))
    body = _el(_TRACKS, entries)
    assert track_types(_probe(body), 0, len(body)) == {AUDIO_TRACK}


@given(st.binary(max_size=24))
def test_element_is_two_vints(data: bytes) -> None:
    """The written-out header reader agrees with reading the ID and the size as two vints."""
    ident = read_vint(data, 0, keep_marker=True)
    size = read_vint(data, ident[1], keep_marker=False) if ident else None
    expected = (ident[0], ident[1] + size[1], size[0]) if ident and size else None
    assert element(data, 0) == expected
