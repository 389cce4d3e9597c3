"""The one walker over PNG chunks, and what the format needs of it: size, end, metadata strip.

PNG (ISO/IEC 15948, W3C PNG 3rd edition): an 8-byte signature, then chunks of a big-endian
32-bit length, a four-byte tag, the data and a CRC, up to `IEND`.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

__all__ = ["png_chunks", "png_complete", "png_size", "strip_png"]

# What the strip keeps (spec 3rd ed. and APNG): the chunks that draw the picture; tEXt, zTXt,
# iTXt, eXIf and tIME go.
_PNG_KEEP = frozenset(
    {*b"IHDR PLTE IDAT IEND tRNS gAMA cHRM sRGB iCCP sBIT bKGD pHYs cICP mDCV cLLI".split()}
    | {b"acTL", b"fcTL", b"fdAT"}  # APNG
)


def png_chunks(data: bytes | memoryview) -> Iterator[tuple[bytes, int, int]]:
    """Yield (tag, start, end) for each chunk after the signature, up to and with IEND.

    `end` is past the CRC; it may lie beyond `len(data)` (a cut file, or a length that lies),
    left to the caller to judge. The walk ends where fewer than 12 bytes remain.
    """
    i, n = 8, len(data)
    while i + 12 <= n:
        tag = bytes(data[i + 4 : i + 8])
        end = i + 12 + int.from_bytes(data[i : i + 4], "big")
        yield tag, i, end
        if tag == b"IEND":
            return
        i = end


def png_size(data: bytes | memoryview) -> tuple[int, int] | None:
    """Read the size from IHDR, which always comes first (PNG spec, 11.2.2)."""
    if len(data) >= 24 and bytes(data[12:16]) == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    return None


def png_complete(data: bytes) -> bool:
    """Tell whether the file ends with an empty IEND chunk (its CRC after it)."""
    return data[-12:-4] == b"\x00\x00\x00\x00IEND"


def strip_png(data: bytes) -> bytes:
    """Keep only the chunks that draw the picture (APNG frames included), up to IEND.

    Raises:
        ValueError: A chunk runs past the end of the file, or there is no IEND.
    """
    out = bytearray(data[:8])
    for tag, start, end in png_chunks(data):
        if end > len(data):
            raise ValueError("a PNG chunk runs past the end of the file")
        if tag in _PNG_KEEP:
            out += data[start:end]
        if tag == b"IEND":
            return bytes(out)
    raise ValueError("the PNG has no IEND chunk")
