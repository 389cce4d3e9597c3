"""The one walker over RIFF chunks, and what WebP needs of it: size, lossless, metadata strip.

RIFF (Microsoft/IBM, 1991; WebP container spec): after the 12-byte `RIFF` size `form` header,
chunks of a four-byte tag, a little-endian 32-bit length and the data, padded to an even size.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

__all__ = ["riff_chunks", "strip_webp", "webp_lossless", "webp_size"]

# What the WebP strip keeps (container spec): the image, alpha, animation and ICC chunks; EXIF,
# XMP and unknown chunks go.
_WEBP_KEEP = frozenset({b"VP8 ", b"VP8L", b"VP8X", b"ALPH", b"ANIM", b"ANMF", b"ICCP"})
_ANMF_HEADER = 16  # an animation frame's own header, before its image chunks


def riff_chunks(data: bytes | memoryview, start: int = 12) -> Iterator[tuple[bytes, int, int]]:
    """Yield (tag, start, end) for each chunk from `start`, in file order.

    `end` is past the data and its pad byte; it may lie beyond `len(data)` (a cut file, or a
    length that lies), left to the caller to judge. The walk ends where fewer than the 8 bytes
    of a chunk header remain. Linear: each chunk header is read once.
    """
    i, n = start, len(data)
    while i + 8 <= n:
        length = int.from_bytes(data[i + 4 : i + 8], "little")
        end = i + 8 + length + (length & 1)
        yield bytes(data[i : i + 4]), i, end
        i = end


def webp_size(data: bytes | memoryview) -> tuple[int, int] | None:
    """Read the canvas size from the first chunk: `VP8 ` frame, `VP8L` header or `VP8X`."""
    # The first chunk sits at a fixed offset, so it is read there, without a walk.
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


def webp_lossless(data: bytes) -> bool:
    """Return True when the first image chunk of a WebP file is lossless (`VP8L`)."""
    start = 12
    while True:
        for tag, at, _ in riff_chunks(data, start):
            if tag in (b"VP8L", b"VP8 "):
                return tag == b"VP8L"
            if tag == b"ANMF":  # the frame's image chunks follow its header
                start = at + 8 + _ANMF_HEADER
                break
        else:
            return False


def strip_webp(data: bytes) -> bytes:
    """Drop the EXIF, XMP and unknown RIFF chunks and clear their flags in VP8X.

    Raises:
        ValueError: A chunk runs past the end of the file (a missing last pad byte is fine).
    """
    out = bytearray()
    for tag, start, end in riff_chunks(data):
        odd = data[start + 4] & 1  # the length's low byte: an odd length has a pad byte
        if end > len(data) + odd:
            raise ValueError("a WebP chunk runs past the end of the file")
        if tag in _WEBP_KEEP:
            out += data[start:end]
    if out[:4] == b"VP8X" and len(out) > 8:
        out[8] &= 0xFF ^ 0x0C  # the EXIF (0x08) and XMP (0x04) flags (WebP container spec)
    return b"RIFF" + (len(out) + 4).to_bytes(4, "little") + b"WEBP" + bytes(out)
