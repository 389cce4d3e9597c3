"""Image dimensions read from the header, without decoding pixels.

PNG, GIF, JPEG, WebP, BMP, ICO and HEIF/AVIF are parsed here (no Pillow import, a few hundred
bytes read for most files); anything else falls back to Pillow's lazy `Image.open`, which
also reads only the header.
"""

from __future__ import annotations

import io
import re
import struct
import warnings
from collections.abc import Callable, Iterator

from mediaparts.formats._isobmff import largest_extent
from mediaparts.formats._reader import Probe

__all__ = ["EOI", "SOS", "image_size", "jpeg_scans", "jpeg_segments"]

Size = tuple[int, int]


def _png(data: bytes | memoryview) -> Size | None:
    # The IHDR chunk always comes first (PNG spec, 11.2.2).
    if len(data) >= 24 and bytes(data[12:16]) == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    return None


def _gif(data: bytes | memoryview) -> Size | None:
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


def _jpeg(data: bytes | memoryview) -> Size | None:
    n = len(data)
    for marker, start, end in jpeg_segments(data):
        if marker in _SOF and start + 9 <= min(end, n):
            h, w = struct.unpack(">HH", data[start + 5 : start + 9])
            return w, h
        if marker == SOS:  # the frame header precedes every scan (T.81, B.2.1)
            return None
    return None


def _webp(data: bytes | memoryview) -> Size | None:
    chunk = bytes(data[12:16])
    if chunk == b"VP8 " and len(data) >= 30:
        w, h = struct.unpack("<HH", data[26:30])
        return w & 0x3FFF, h & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        (bits,) = struct.unpack("<I", data[21:25])
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:
        w = int.from_bytes(data[24:27], "little") + 1
        h = int.from_bytes(data[27:30], "little") + 1
        return w, h
    return None


def _bmp(data: bytes | memoryview) -> Size | None:
    (header,) = struct.unpack("<I", data[14:18])
    if header == 12:  # OS/2 BITMAPCOREHEADER
        w, h = struct.unpack("<HH", data[18:22])
        return w, h
    w, h = struct.unpack("<ii", data[18:26])
    return abs(w), abs(h)  # a negative height means top-down rows


def _heif(data: bytes | memoryview) -> Size | None:
    """Read the largest `ispe` (image spatial extent) property of a HEIF/AVIF file."""
    raw = bytes(data[: 1 << 20])  # the properties sit in `meta`, before the media data
    return largest_extent(Probe(raw, len(raw)))


def _ico(data: bytes | memoryview) -> Size | None:
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


_PARSERS: dict[str, Callable[[bytes | memoryview], Size | None]] = {
    "image/png": _png,
    "image/gif": _gif,
    "image/jpeg": _jpeg,
    "image/webp": _webp,
    "image/bmp": _bmp,
    "image/vnd.microsoft.icon": _ico,
    "image/heic": _heif,
    "image/heif": _heif,
    "image/avif": _heif,
}


def image_size(data: bytes, media_type: str) -> Size | None:
    """Return (width, height) as stored in the header, or None when it cannot be read.

    EXIF orientation is not applied: a photo stored sideways reports its stored size.
    """
    parser = _PARSERS.get(media_type)
    if parser is not None:
        try:
            size = parser(memoryview(data))
        except (struct.error, IndexError, ValueError):
            size = None
        if size is not None and size[0] > 0 and size[1] > 0:
            return size
    return _pillow_size(data)


def _pillow_size(data: bytes) -> Size | None:
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            # Only the header is read here: the pixel cap is enforced where pixels are decoded,
            # and a plugin's complaint about a damaged file (a UserWarning) just means None.
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as img:
                size: Size = img.size
                return size
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, ValueError):
        return None
    except (SyntaxError, struct.error, IndexError, KeyError):  # Pillow plugins on bad input
        return None
    except RuntimeError:  # libavif refuses a damaged header with RuntimeError, even on open
        return None
