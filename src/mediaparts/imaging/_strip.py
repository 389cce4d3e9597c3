"""Remove metadata from images: losslessly where the format allows, else by re-encoding.

Upright JPEG, PNG and WebP lose their metadata segments and chunks with the pixel data left
byte for byte; anything else (a turned picture, TIFF, BMP, HEIC, animations) is decoded and
re-encoded upright with no metadata. Used by `from_upload(strip_metadata=True)`.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from mediaparts._imageinfo import EOI, jpeg_segments
from mediaparts.imaging._animate import save_animation, timing, upright_frames
from mediaparts.imaging._decode import plain, transpose
from mediaparts.imaging._probe import Probe

__all__ = ["LOSSLESS", "reencode_animation", "reencode_still"]

_PIL_FORMAT = {"image/jpeg": "JPEG", "image/png": "PNG", "image/webp": "WEBP", "image/gif": "GIF"}
_LOSSY = frozenset({"image/heic", "image/heif", "image/avif"})  # become JPEG when stripped
_JPEG_QUALITY = 95  # when there are no source tables to reuse (HEIC/AVIF → JPEG, WebP)
# What the lossless strips keep. JPEG: every segment but APPn and COM, except JFIF, the ICC
# profile (colours) and Adobe's APP14 (how to read CMYK); EXIF, XMP, IPTC and MPF go. PNG
# (spec 3rd ed. and APNG): the chunks that draw the picture; tEXt, zTXt, iTXt, eXIf and tIME
# go. WebP (container spec): the image, alpha, animation and ICC chunks; EXIF and XMP go.
_KEEP_APP = {0xE0: b"JFIF\0", 0xE2: b"ICC_PROFILE\0", 0xEE: b"Adobe"}
_PNG_CHUNKS = frozenset(
    {*b"IHDR PLTE IDAT IEND tRNS gAMA cHRM sRGB iCCP sBIT bKGD pHYs cICP mDCV cLLI".split()}
    | {b"acTL", b"fcTL", b"fdAT"}  # APNG
)
_WEBP_CHUNKS = frozenset({b"VP8 ", b"VP8L", b"VP8X", b"ALPH", b"ANIM", b"ANMF", b"ICCP"})


def strip_jpeg(data: bytes) -> bytes:
    """Drop APPn and COM segments (but JFIF, ICC, Adobe) and anything after the image."""
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


def strip_png(data: bytes) -> bytes:
    """Keep only the chunks that draw the picture (APNG frames included), up to IEND."""
    out, i = bytearray(data[:8]), 8
    while i + 12 <= len(data):
        tag, end = data[i + 4 : i + 8], i + 12 + int.from_bytes(data[i : i + 4], "big")
        if end > len(data):
            raise ValueError("a PNG chunk runs past the end of the file")
        if tag in _PNG_CHUNKS:
            out += data[i:end]
        i = end
        if tag == b"IEND":
            return bytes(out)
    raise ValueError("the PNG has no IEND chunk")


def strip_webp(data: bytes) -> bytes:
    """Drop the EXIF, XMP and unknown RIFF chunks and clear their flags in VP8X."""
    out, i = bytearray(), 12
    while i + 8 <= len(data):
        tag, length = data[i : i + 4], int.from_bytes(data[i + 4 : i + 8], "little")
        end = i + 8 + length + (length & 1)  # chunks are padded to even sizes
        if end > len(data) + (length & 1):
            raise ValueError("a WebP chunk runs past the end of the file")
        if tag in _WEBP_CHUNKS:
            out += data[i:end]
        i = end
    if out[:4] == b"VP8X" and len(out) > 8:
        out[8] &= 0xFF ^ 0x0C  # the EXIF (0x08) and XMP (0x04) flags (WebP container spec)
    return b"RIFF" + (len(out) + 4).to_bytes(4, "little") + b"WEBP" + bytes(out)


def reencode_still(head: Probe) -> tuple[bytes, str]:
    """Decode, turn upright and re-encode without metadata; other formats become PNG or JPEG."""
    image = head.image
    assert image is not None
    out, options = head.media_type, dict[str, Any]()
    if out == "image/jpeg":  # the source's own tables keep about its quality and size
        from PIL.JpegImagePlugin import get_sampling

        sampling = get_sampling(image)
        options = {"qtables": getattr(image, "quantization", None) or None}
        options["subsampling"] = sampling if sampling >= 0 else None
        options["quality"] = None if options["qtables"] else _JPEG_QUALITY
    elif out == "image/webp":
        options = {"lossless": True} if head.lossless else {"quality": _JPEG_QUALITY}
    image.load()
    transparency, icc = image.info.get("transparency"), image.info.get("icc_profile")
    picture = transpose(image, head.orientation)
    if out not in _PIL_FORMAT:  # TIFF, BMP, ICO, PSD → PNG; HEIC, HEIF, AVIF → JPEG if opaque
        picture, alpha = plain(picture)
        out = "image/jpeg" if out in _LOSSY and not alpha else "image/png"
        options = {"quality": _JPEG_QUALITY} if out == "image/jpeg" else {}
        transparency = None
    # Pillow writes some info keys (comment, exif) by itself: only what drawing needs stays.
    picture.info.clear()
    if transparency is not None:
        picture.info["transparency"] = transparency
    if isinstance(icc, bytes) and out != "image/gif":
        options["icc_profile"] = icc
    buffer = io.BytesIO()
    options = {key: value for key, value in options.items() if value is not None}
    picture.save(buffer, format=_PIL_FORMAT[out], **options)
    return buffer.getvalue(), out


def reencode_animation(head: Probe, max_pixels: int) -> bytes:
    """Re-encode every frame, composited and upright, with no metadata.

    Args:
        head: The probed animation.
        max_pixels: The most pixels all frames may have together. A GIF frame may reach past
            the logical screen the header gives, and Pillow then grows the canvas for it and
            every later frame, so each frame's size is checked before it is decoded.

    Raises:
        MediaTooLarge: The frames have more than `max_pixels` pixels in all.
    """
    assert head.image is not None
    pairs = list(upright_frames(head, max_pixels, "max_pixels"))
    frames, durations = timing([p for p, _ in pairs], [d for _, d in pairs], head.media_type)
    options: dict[str, object] = {}
    if head.media_type == "image/webp":
        options = {"lossless": True} if head.lossless else {"quality": _JPEG_QUALITY}
    loop = int(head.image.info.get("loop", 0))
    return save_animation(frames, head.media_type, durations, loop, options)


LOSSLESS: dict[str, Callable[[bytes], bytes]] = {
    "image/jpeg": strip_jpeg,
    "image/png": strip_png,
    "image/webp": strip_webp,
}
"""Strips that drop metadata without touching the pixel data, by media type."""
