"""Encode PIL images to bytes for `from_pil`, without touching the caller's image."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from mediaparts._errors import InvalidMedia
from mediaparts.formats import by_pillow

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["encode_pil"]

# What each format keeps, stores and converts is its record's (`mediaparts.formats`): an image
# from a file of a format fitting writes keeps that format, anything else becomes PNG (lossless
# and accepted by every provider); modes outside the record's `modes` (CMYK, YCbCr, LAB, HSV,
# F) are converted, onto white for a format without alpha.
_ALIASES = {"JPG": "JPEG", "MPO": "JPEG", "TIF": "TIFF"}


def encode_pil(image: Image.Image, format: str | None = None) -> bytes:
    """Encode a PIL image in `format`, or in its own format when web-friendly, else PNG.

    JPEG cannot store transparency, so an image with alpha is flattened onto white for it.
    EXIF data (and so the orientation tag) is kept where the format can hold it.

    Raises:
        InvalidMedia: The object is not a PIL image, or Pillow cannot write that format.
    """
    from PIL import Image

    if not isinstance(image, Image.Image):
        raise InvalidMedia(f"from_pil() takes a PIL.Image.Image, got {type(image).__name__}")
    if format is not None and not isinstance(format, str):
        raise InvalidMedia(f"format must be a string such as 'png', got {type(format).__name__}")
    own = _ALIASES.get((image.format or "").upper(), (image.format or "").upper())
    kept = by_pillow(own)
    fmt = (format or (own if kept is not None and kept.write_rank is not None else "PNG")).upper()
    fmt = _ALIASES.get(fmt, fmt)
    record = by_pillow(fmt)
    img = image
    if record is not None and record.modes and img.mode not in record.modes:
        # A format without alpha (JPEG) gets it flattened onto white.
        alpha = record.alpha and _has_alpha(img)
        img = img.convert("RGBA" if alpha else "RGB") if record.alpha else _flatten(img)
    options: dict[str, object] = {}
    animatable = record is not None and record.animatable
    if animatable and getattr(image, "n_frames", 1) > 1:
        options["save_all"] = True  # keep every frame of an animation
    exif = image.info.get("exif")
    if exif and record is not None and record.exif:
        options["exif"] = exif
    if fmt == "JPEG":
        options["quality"] = 90
    buffer = io.BytesIO()
    try:
        img.save(buffer, format=fmt, **options)
    except (KeyError, ValueError, OSError) as exc:
        raise InvalidMedia(f"Pillow cannot encode a {img.mode} image as {fmt}: {exc}") from exc
    return buffer.getvalue()


def _has_alpha(img: Image.Image) -> bool:
    return img.mode in {"RGBA", "LA", "PA", "La", "RGBa"} or "transparency" in img.info


def _flatten(img: Image.Image) -> Image.Image:
    from PIL import Image

    if _has_alpha(img):
        rgba = img.convert("RGBA")
        background = Image.new("RGB", rgba.size, (255, 255, 255))
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    return img.convert("RGB")
