"""The one walker over ISO base media file boxes (ISO/IEC 14496-12 §4.2).

MP4, M4A, MOV, 3GP/3G2, HEIC/HEIF and AVIF are all a sequence of boxes: a 32-bit big-endian
size, a four-character type, then the payload, which for container boxes (`moov`, `trak`,
`mdia`, ...) is more boxes. A size of 1 means a 64-bit "largesize" follows the type; a size of
0 means the box runs to the end of its parent (or of the file). Detection reads the `ftyp`
brands and the track handlers through this module, durations the movie header (`mvhd`).

Every read goes through a `ByteWindow`, so a walk over a file held elsewhere costs at most the
probe's read budget, and every walk stops after `MAX_BOXES` boxes: hostile sizes can make it
read nothing useful, never loop or read far.
"""

from __future__ import annotations

from collections.abc import Iterator

from mediaparts.formats._reader import ByteWindow

__all__ = ["MAX_BOXES", "boxes", "brands", "find_box", "largest_extent", "track_handlers"]

MAX_BOXES = 64
"""Boxes one walk visits, siblings at one level: real files have a handful at each."""

# How far into an `ftyp` box brands are read: a real one lists a dozen at most.
_MAX_FTYP = 4096
# Item properties in one `ipco` box: a grid image shares one `ispe` among its tiles, so real
# files have a few dozen; an iPhone photo has about 20.
_MAX_PROPERTIES = 1024


def boxes(
    probe: ByteWindow, start: int, end: int, limit: int = MAX_BOXES
) -> Iterator[tuple[bytes, int, int]]:
    """Yield (type, payload start, box end) for the boxes between `start` and `end`.

    `box end` is what the box declares, which may lie past `end` (a cut file, or a lie); the
    caller clamps it where that matters. The walk ends at the first header that is cut short
    or declares a size smaller than itself, and after `limit` boxes.
    """
    pos = start
    for _ in range(limit):
        if pos + 8 > end:
            return
        header = probe.at(pos, 16)
        if len(header) < 8:
            return
        size = int.from_bytes(header[:4], "big")
        kind = header[4:8]
        payload = pos + 8
        if size == 1:  # a 64-bit "largesize" follows the type
            if len(header) < 16:
                return
            size = int.from_bytes(header[8:16], "big")
            payload = pos + 16
        elif size == 0:  # the box runs to the end of its parent
            size = end - pos
        if size < payload - pos:
            return
        yield kind, payload, pos + size
        pos += size


def find_box(probe: ByteWindow, start: int, end: int, kind: bytes) -> tuple[int, int] | None:
    """Return (payload start, end) of the first child box of a type, its end clamped to `end`."""
    for found, payload, box_end in boxes(probe, start, end):
        if found == kind:
            return payload, min(box_end, end)
    return None


def _brand(raw: bytes) -> bytes:
    """Normalise a four-character brand: `"M4A "` and `"M4A\\0"` are both written."""
    return raw.rstrip(b" \x00")


def brands(head: bytes) -> tuple[bytes, frozenset[bytes]] | None:
    """Return the major brand and the compatible brands of a leading `ftyp` box (§4.3).

    Brands are returned without the padding some writers add (`"M4A "` is `b"M4A"`). None
    when `head` does not open with an `ftyp` box whose size can hold a major brand; a box cut
    short by the end of `head` gives the brands it holds (none, if cut before them).
    """
    size = int.from_bytes(head[:4], "big")
    if size < 12 or head[4:8] != b"ftyp":
        return None
    end = min(size, len(head), _MAX_FTYP)
    # major_brand, minor_version (4 bytes), then compatible_brands to the end of the box.
    compatible = frozenset(_brand(head[i : i + 4]) for i in range(16, end - 3, 4))
    return _brand(head[8:12]), compatible


def track_handlers(probe: ByteWindow) -> set[bytes]:
    """Return the handler types (`vide`, `soun`, `hint`, ...) of the tracks in `moov`."""
    end = probe.size if probe.size is not None else len(probe.head)
    moov = find_box(probe, 0, end, b"moov")
    if moov is None:
        return set()
    handlers = set()
    for kind, payload, box_end in boxes(probe, *moov):
        if kind != b"trak":
            continue
        mdia = find_box(probe, payload, box_end, b"mdia")
        hdlr = mdia and find_box(probe, *mdia, b"hdlr")
        if hdlr:
            # FullBox version/flags (4 bytes), pre_defined (4), then handler_type (§8.4.3).
            handlers.add(probe.at(hdlr[0] + 8, 4))
    return handlers


def largest_extent(probe: ByteWindow) -> tuple[int, int] | None:
    """Return the largest image spatial extent (`ispe`) of a HEIF or AVIF file.

    The properties live in `meta/iprp/ipco` (ISO/IEC 23008-12 §9.3); each `ispe` holds a
    width and a height (§6.5.3.2). The primary image is normally the largest; thumbnails and
    grid tiles are smaller. None when there is no such property to read.
    """
    end = probe.size if probe.size is not None else len(probe.head)
    meta = find_box(probe, 0, end, b"meta")
    # `meta` is a FullBox: its version and flags (4 bytes) come before its children.
    iprp = meta and find_box(probe, meta[0] + 4, meta[1], b"iprp")
    ipco = iprp and find_box(probe, *iprp, b"ipco")
    if not ipco:
        return None
    best: tuple[int, int] | None = None
    for kind, payload, box_end in boxes(probe, *ipco, limit=_MAX_PROPERTIES):
        extent = probe.at(payload + 4, 8)  # after the FullBox version and flags
        if kind != b"ispe" or box_end < payload + 12 or len(extent) < 8:
            continue
        width, height = int.from_bytes(extent[:4], "big"), int.from_bytes(extent[4:], "big")
        if best is None or width * height > best[0] * best[1]:
            best = (width, height)
    return best
