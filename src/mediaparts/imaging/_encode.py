"""Write a decoded image as JPEG, PNG, WebP or GIF; no EXIF is ever written.

Dropping EXIF is what clears the orientation tag (the pixels are already upright); it also
drops GPS and camera data that a provider does not need. The ICC profile is kept when it
describes the output's colour space, so colours stay as the author saw them.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from mediaparts.imaging._pil import flatten_alpha
from mediaparts.imaging._spec import pillow_writer

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["QUALITY_LADDER", "encode", "label", "ladder"]

# Lossy rungs below the spec's first one; below 45 JPEG artefacts hurt recognition more than
# a smaller picture does, so the ladder switches to scaling instead.
QUALITY_LADDER = (85, 75, 65, 55, 45)


def ladder(first: int) -> tuple[int, ...]:
    """Return the quality rungs to try: `first`, then every standard rung below it."""
    return (first, *(q for q in QUALITY_LADDER if q < first))


def label(media_type: str, quality: int | None) -> str:
    """Return the step text for one encoding, e.g. "jpeg q=85" or "png"."""
    if media_type == "image/png":
        return "png"
    if media_type == "image/gif":
        return "gif"
    name = "jpeg" if media_type == "image/jpeg" else "webp"
    return f"{name} lossless" if quality is None else f"{name} q={quality}"


def encode(
    image: Image.Image, media_type: str, quality: int | None, icc: bytes | None = None
) -> bytes:
    """Encode `image` (mode RGB, RGBA or L) as `media_type`.

    Args:
        image: The decoded picture.
        media_type: A type fitting writes (`mediaparts.formats.writable()`).
        quality: JPEG/WebP quality; None means lossless WebP (ignored for PNG and GIF).
        icc: An ICC profile to embed when its colour space matches the output mode.

    Returns:
        The encoded bytes.
    """
    options: dict[str, object] = {}
    if media_type == "image/jpeg":
        image = flatten_alpha(image)  # JPEG has no transparency
        # 4:2:0 subsampling and no `optimize`: Pillow's defaults, the fastest encode; the
        # quality ladder, not Huffman tuning, is what fits the byte limit.
        options["quality"] = quality
    elif media_type == "image/png":
        # zlib's default level, not `optimize`: optimize made a 12 MP PNG's fit 5x slower than
        # the naive pipeline (2.5 s of 2.8) for a file 10% smaller; byte limits are met by
        # scaling, which saves far more.
        pass
    elif media_type == "image/webp" and quality is None:
        options["lossless"] = True
    elif media_type == "image/webp":
        options["quality"] = quality
    if icc is not None and _icc_fits(icc, image.mode) and media_type != "image/gif":
        options["icc_profile"] = icc
    buffer = io.BytesIO()
    image.save(buffer, format=pillow_writer(media_type), **options)
    return buffer.getvalue()


def _icc_fits(icc: bytes, mode: str) -> bool:
    # Bytes 16-19 of an ICC header name its data colour space (ICC.1:2022, 7.2.6).
    space = icc[16:20]
    return (space == b"RGB " and mode in ("RGB", "RGBA")) or (space == b"GRAY" and mode == "L")
