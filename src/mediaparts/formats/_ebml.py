"""The one walker over EBML elements (RFC 8794), the container of Matroska and WebM (RFC 9559).

An element is an ID, a size and a body; both ID and size are variable-size integers whose
first byte's leading zeros say how many bytes follow. A size whose value bits are all ones is
"unknown": the element runs to the end of its parent (a live stream's Segment or Cluster).
Detection reads the DocType and the track types through this module, durations the segment
`Info`. Every read goes through a `ByteWindow`, and every walk stops after a bounded number of
elements, so hostile sizes can make a walk find nothing, never loop or read far.
"""

from __future__ import annotations

from collections.abc import Iterator

from mediaparts.formats._reader import ByteWindow

__all__ = [
    "AUDIO_TRACK",
    "CLUSTER",
    "EBML_HEADER",
    "EBML_UNKNOWN_SIZE",
    "INFO",
    "MAX_ELEMENTS",
    "SEGMENT",
    "VIDEO_TRACK",
    "element",
    "elements",
    "read_vint",
    "track_types",
]

# Element IDs, with their length marker as RFC 8794 §5 writes them (RFC 9559 §5.1 for Matroska).
EBML_HEADER = 0x1A45DFA3
SEGMENT = 0x18538067
INFO = 0x1549A966
CLUSTER = 0x1F43B675
_TRACKS, _TRACK_ENTRY, _TRACK_TYPE = 0x1654AE6B, 0xAE, 0x83
VIDEO_TRACK, AUDIO_TRACK = 1, 2  # Matroska TrackType values (RFC 9559 §5.1.4.1.3)

EBML_UNKNOWN_SIZE = -1
"""The size of an element whose size is unknown (all value bits set, RFC 8794 §6.2)."""

MAX_ELEMENTS = 256
"""Elements one walk visits, siblings at one level: real files have a few dozen at most."""

# Tracks come early in the Segment (after SeekHead and Info in every muxer we know of), and a
# Tracks element holds a few KiB of codec settings; past these caps there is nothing to find.
_MAX_BEFORE_TRACKS = 32
_MAX_TRACKS_SIZE = 65536
_MAX_UNKNOWN_TRACKS = 4096
_MAX_HEADER = 16  # an ID and a size, each at most 8 bytes (RFC 8794 §4.1)


def read_vint(data: bytes, pos: int, *, keep_marker: bool) -> tuple[int, int] | None:
    """Read an EBML variable-size integer at `pos`: (value, length in bytes).

    Element IDs keep their length marker, by convention (RFC 8794 §5); a size loses it, and a
    size of all ones is returned as `EBML_UNKNOWN_SIZE`. None when the integer is cut short or
    its first byte is 0 (a length over 8 bytes, which EBML does not allow).
    """
    if pos >= len(data) or data[pos] == 0:
        return None
    length = 9 - data[pos].bit_length()
    if pos + length > len(data):
        return None
    value = int.from_bytes(data[pos : pos + length], "big")
    if keep_marker:
        return value, length
    value &= (1 << (7 * length)) - 1
    return (EBML_UNKNOWN_SIZE if value == (1 << (7 * length)) - 1 else value), length


def element(data: bytes, pos: int) -> tuple[int, int, int] | None:
    """Read an element header at `pos`: (id, body start, size or `EBML_UNKNOWN_SIZE`).

    `read_vint` twice, written out: this runs for every element of every walk.
    """
    n = len(data)
    if pos >= n or not data[pos]:
        return None
    size_at = pos + 9 - data[pos].bit_length()
    if size_at >= n or not data[size_at]:
        return None
    body = size_at + 9 - data[size_at].bit_length()
    if body > n:
        return None
    unknown = (1 << 7 * (body - size_at)) - 1
    size = int.from_bytes(data[size_at:body], "big") & unknown
    return (
        int.from_bytes(data[pos:size_at], "big"),
        body,
        EBML_UNKNOWN_SIZE if size == unknown else size,
    )


def elements(
    probe: ByteWindow, start: int, end: int, limit: int = MAX_ELEMENTS
) -> Iterator[tuple[int, int, int, int]]:
    """Yield (id, body start, size, body end) for the elements between `start` and `end`.

    `size` is what the element declares, or `EBML_UNKNOWN_SIZE`; `body end` is clamped to
    `end`, and is `end` itself for an element of unknown size, which therefore ends the walk.
    The walk also ends at a header that is cut short or invalid, and after `limit` elements.
    """
    head = probe.head
    in_head = len(head) - _MAX_HEADER
    pos = start
    for _ in range(limit):
        if pos >= end:
            return
        if pos <= in_head:  # in the prefix: read in place, nothing copied
            found = element(head, pos)
        else:
            found = element(probe.at(pos, _MAX_HEADER), 0)
            found = found and (found[0], found[1] + pos, found[2])
        if not found:
            return
        ident, body, size = found
        stop = body + size
        if size == EBML_UNKNOWN_SIZE or stop > end:
            stop = end
        yield ident, body, size, stop
        pos = stop


def track_types(probe: ByteWindow, start: int, end: int) -> set[int] | None:
    """Return the TrackType values of the first Tracks element of a Segment's body.

    `start` and `end` bound the Segment's body. None when no Tracks element comes before the
    first Cluster (every muxer writes it first), before an element of unknown size, or
    within the first few elements: there is then nothing bounded left to read.
    """
    for ident, body, size, stop in elements(probe, start, end, _MAX_BEFORE_TRACKS):
        if ident == _TRACKS:
            length = min(stop - body, _MAX_TRACKS_SIZE if size >= 0 else _MAX_UNKNOWN_TRACKS)
            tracks = ByteWindow(probe.at(body, length), None)
            types = set()
            for entry, e_body, e_size, e_end in elements(tracks, 0, len(tracks.head)):
                if (
                    e_size == EBML_UNKNOWN_SIZE
                ):  # only a Segment or a Cluster may be of unknown size
                    break
                if entry != _TRACK_ENTRY:
                    continue
                for child, v_body, v_size, _ in elements(tracks, e_body, e_end):
                    if child == _TRACK_TYPE and 0 < v_size <= 8:
                        value = tracks.head[v_body : v_body + v_size]
                        types.add(int.from_bytes(value, "big"))
            return types
        if ident == CLUSTER or size == EBML_UNKNOWN_SIZE:
            return None
    return None
