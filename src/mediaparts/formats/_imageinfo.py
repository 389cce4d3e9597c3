"""Image dimensions read from the header without decoding pixels, and the one JPEG walker.

Each format's record names its header parser (GIF, JPEG, BMP, ICO and HEIF/AVIF here, PNG and
WebP beside their chunk walkers): no Pillow import, a few hundred bytes read for most files.
A format without one has no size here; `mediaparts.imaging.image_size` falls back to Pillow's
lazy `Image.open` for it (this layer never imports Pillow).
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterator

from mediaparts.formats._isobmff import largest_extent
from mediaparts.formats._reader import ByteWindow
from mediaparts.formats._registry import _RECORDS, Size

__all__ = [
    "EOI",
    "SOS",
    "bmp_size",
    "gif_complete",
    "gif_size",
    "header_size",
    "heif_size",
    "ico_size",
    "jpeg_complete",
    "jpeg_scans",
    "jpeg_segments",
    "jpeg_size",
    "strip_jpeg",
]


def gif_size(data: bytes | memoryview) -> Size | None:
    """Read the logical screen's size (GIF89a spec, section 18)."""
    if len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return w, h
    return None


# Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range.
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
SOS, EOI = 0xDA, 0xD9
_RST = range(0xD0, 0xD8)
# Inside entropy-coded data 0xFF is followed only by 0x00 (stuffing) or RSTn (T.81, F.1.2.3);
# any other pair ends it. One byte class after a literal: linear time, searched in C (a
# Python loop over every stuffed 0xFF took 5 ms for a 24 MP photo).
_ENTROPY_END = re.compile(rb"\xff[^\x00\xd0-\xd7]")


def jpeg_segments(data: bytes | memoryview) -> Iterator[tuple[int, int, int]]:
    """Yield (marker, start, end) for each marker segment of a JPEG, in file order, after SOI.

    The one walker over JPEG markers: sizes, scan counts and the metadata strip all use it.
    `end` is where the next marker starts: past the segment's length, and for a start of scan
    (SOS) past its entropy-coded data as well, which runs to the next marker that is not RSTn
    (T.81, B.1.1.5 and F.1.2.3). Fill bytes and markers without a length (TEM, RSTn) are
    skipped. The walk ends after EOI, at a byte that is no marker, or with a segment whose
    `end` lies beyond `len(data)` (cut or lying about its length), left to the caller to judge.
    Linear in `len(data)`: each byte is looked at once.
    """
    # A view of a whole bytes object is walked in place; a slice of one is copied, or the walk
    # would read the bytes around it.
    buffer: bytes
    if isinstance(data, bytes):
        buffer = data
    elif isinstance(data.obj, bytes) and data.nbytes == len(data.obj):
        buffer = data.obj
    else:
        buffer = bytes(data)
    i, n = 2, len(buffer)
    while i + 1 < n and buffer[i] == 0xFF:
        marker = buffer[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker == 0x01 or marker in _RST:
            i += 2
            continue
        if marker == EOI:
            yield marker, i, i + 2
            return
        end = i + 2 + int.from_bytes(buffer[i + 2 : i + 4], "big")
        if i + 4 > n or end > n or end < i + 4:
            yield marker, i, max(end, n + 1)
            return
        if marker == SOS:
            found = _ENTROPY_END.search(buffer, end)
            if found is None:  # the file ends inside the compressed data
                yield marker, i, n + 1
                return
            end = found.start()
        yield marker, i, end
        i = end


def jpeg_scans(data: bytes, limit: int) -> int:
    """Count the start-of-scan (SOS) segments of a JPEG, stopping once there are `limit` + 1.

    A baseline JPEG has one scan (or one per component); a progressive one about ten.
    """
    scans = 0
    for marker, _, _ in jpeg_segments(data):
        scans += marker == SOS
        if scans > limit:
            break
    return scans


def jpeg_size(data: bytes | memoryview) -> Size | None:
    """Read the size from the start-of-frame segment, which precedes every scan."""
    n = len(data)
    for marker, start, end in jpeg_segments(data):
        if marker in _SOF and start + 9 <= min(end, n):
            h, w = struct.unpack(">HH", data[start + 5 : start + 9])
            return w, h
        if marker == SOS:  # the frame header precedes every scan (T.81, B.2.1)
            return None
    return None


# What the lossless JPEG strip keeps: every segment but APPn and COM, except JFIF, the ICC
# profile (colours) and Adobe's APP14 (how to read CMYK); EXIF, XMP, IPTC and MPF go.
_KEEP_APP = {0xE0: b"JFIF\0", 0xE2: b"ICC_PROFILE\0", 0xEE: b"Adobe"}


def strip_jpeg(data: bytes) -> bytes:
    """Drop APPn and COM segments (but JFIF, ICC, Adobe) and anything after the image.

    Raises:
        ValueError: A segment runs past the end of the file, or there is no EOI.
    """
    out = bytearray(b"\xff\xd8")
    for marker, start, end in jpeg_segments(data):
        if end > len(data):
            raise ValueError("a JPEG segment runs past the end of the file")
        if marker == EOI:  # MPF pictures and trailers after it are dropped
            return bytes(out + b"\xff\xd9")
        prefix = _KEEP_APP.get(marker)
        metadata = 0xE0 <= marker <= 0xEF or marker == 0xFE
        if not metadata or (prefix is not None and data.startswith(prefix, start + 4)):
            out += data[start:end]  # a scan's entropy-coded data included
    raise ValueError("the JPEG has no end-of-image marker")


def jpeg_complete(data: bytes) -> bool:
    """Tell whether the file ends with EOI (zero padding after it allowed)."""
    return data.rstrip(b"\x00")[-2:] == b"\xff\xd9"


def gif_complete(data: bytes) -> bool:
    """Tell whether the file ends with the trailer byte ";" (GIF89a spec, section 27)."""
    return data.rstrip(b"\x00")[-1:] == b";"


def bmp_size(data: bytes | memoryview) -> Size | None:
    """Read the size from the DIB header after the file header."""
    (header,) = struct.unpack("<I", data[14:18])
    if header == 12:  # OS/2 BITMAPCOREHEADER
        w, h = struct.unpack("<HH", data[18:22])
        return w, h
    w, h = struct.unpack("<ii", data[18:26])
    return abs(w), abs(h)  # a negative height means top-down rows


def heif_size(data: bytes | memoryview) -> Size | None:
    """Read the largest `ispe` (image spatial extent) property of a HEIF/AVIF file."""
    raw = bytes(data[: 1 << 20])  # the properties sit in `meta`, before the media data
    return largest_extent(ByteWindow(raw, len(raw)))


def ico_size(data: bytes | memoryview) -> Size | None:
    """Return the largest image of an icon, as its embedded PNG or DIB header states it."""
    # The directory holds one byte per side (0 = 256), but each entry's image is a whole PNG
    # or DIB with its own header, and that size is what gets decoded. Pillow's ICO reader
    # decodes the largest entry inside Image.open, so a 40000x40000 PNG behind a "256x256"
    # directory entry would be decoded just to learn its size; reading it here lets the pixel
    # cap refuse it first.
    (count,) = struct.unpack("<H", data[4:6])
    best: Size | None = None
    for entry in range(6, min(6 + 16 * count, len(data) - 15), 16):
        w, h = data[entry] or 256, data[entry + 1] or 256
        (offset,) = struct.unpack("<I", data[entry + 12 : entry + 16])
        embedded = bytes(data[offset : offset + 24])
        if embedded.startswith(b"\x89PNG") and len(embedded) == 24:
            w, h = struct.unpack(">II", embedded[16:24])
        elif len(embedded) >= 12 and embedded[:4] in (b"\x28\0\0\0", b"\x6c\0\0\0", b"\x7c\0\0\0"):
            dib_w, dib_h = struct.unpack("<ii", embedded[4:12])
            w, h = abs(dib_w), abs(dib_h) // 2  # the DIB's height counts the AND mask too
        if best is None or w * h > best[0] * best[1]:
            best = (w, h)
    return best


def header_size(data: bytes, media_type: str) -> Size | None:
    """Return (width, height) as stored in the header, or None when it cannot be read.

    Only the format record's own header parser is used (no Pillow: this layer is bytes only),
    so a format without one (TIFF) is None here; `mediaparts.imaging.image_size` adds Pillow's
    reading of the header for those. EXIF orientation is not applied: a photo stored sideways
    reports its stored size.
    """
    record = _RECORDS.get(media_type)  # the dict itself: this runs for every image part
    parser = record.size if record is not None else None
    if parser is not None:
        try:
            size = parser(memoryview(data))
        except (struct.error, IndexError, ValueError):
            size = None
        if size is not None and size[0] > 0 and size[1] > 0:
            return size
    return None
