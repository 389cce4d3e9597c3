"""Encode PIL images to bytes for `from_pil`, without touching the caller's image."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from mediaparts._errors import InvalidMedia

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["encode_pil"]

# Formats kept as they are when the image came from such a file; anything else becomes PNG,
# which is lossless and accepted by every provider.
_KEEP = {"PNG", "JPEG", "WEBP", "GIF"}
_ALIASES = {"JPG": "JPEG", "MPO": "JPEG", "TIF": "TIFF"}
_JPEG_MODES = {"RGB", "L", "CMYK"}
# Modes each format can store as they are; others (CMYK, YCbCr, LAB, HSV, F) are converted.
_MODES = {
    "PNG": {"1", "L", "LA", "I", "I;16", "P", "RGB", "RGBA"},
    "WEBP": {"RGB", "RGBA"},
    "GIF": {"1", "L", "P"},
}
_ANIMATED = {"GIF", "PNG", "WEBP"}


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
    fmt = (format or (own if own in _KEEP else "PNG")).upper()
    fmt = _ALIASES.get(fmt, fmt)
    img = image
    if fmt == "JPEG" and img.mode not in _JPEG_MODES:
        img = _flatten(img)
    elif fmt in _MODES and img.mode not in _MODES[fmt]:
        img = img.convert("RGBA" if _has_alpha(img) else "RGB")
    options: dict[str, object] = {}
    if fmt in _ANIMATED and getattr(image, "n_frames", 1) > 1:
        options["save_all"] = True  # keep every frame of an animation
    exif = image.info.get("exif")
    if exif and fmt in {"JPEG", "PNG", "WEBP", "TIFF"}:
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
