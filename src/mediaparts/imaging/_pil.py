"""Pillow, handled once: what it raises, how it is quietened, alpha, the size of a header
no parser of ours reads; and `from_pil`'s encoder.

Imaging, uploads, parts and `check` catch `PIL_ERRORS`, read under `quiet()` and flatten
transparency with `flatten_alpha`, so a new plugin's quirk is taught here once.
"""

from __future__ import annotations

import contextlib
import io
import struct
import warnings
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

from mediaparts._errors import InvalidMedia
from mediaparts.formats import by_pillow, header_size

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "PIL_ERRORS",
    "encode_pil",
    "flatten_alpha",
    "has_alpha",
    "image_size",
    "is_animated",
    "quiet",
]

PIL_ERRORS: tuple[type[Exception], ...] = (
    OSError,
    RuntimeError,
    SyntaxError,
    ValueError,
    struct.error,
    EOFError,
    IndexError,
    KeyError,
    ZeroDivisionError,
)
"""What Pillow and its plugins raise on corrupt or hostile input.

`UnidentifiedImageError` (what Image.open raises for unknown bytes) is an OSError; plugins
raise the rest. Pillow's AVIF plugin and pillow-heif raise RuntimeError when libavif/libheif
refuse the data ("Failed to decode frame 0", "Security limit exceeded").
"""

_T = TypeVar("_T")

# Modes with an alpha band (Pillow's "Modes" docs: La and RGBa are premultiplied).
_ALPHA_MODES = frozenset({"RGBA", "LA", "PA", "La", "RGBa"})


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """Silence what Pillow warns while it reads a damaged or very large image.

    Pillow warns (UserWarning) where it skips damaged data and carries on ("Corrupt EXIF
    data", "Tag data larger than file", "Image was not the expected size"), and warns
    (DecompressionBombWarning) above MAX_IMAGE_PIXELS. Our pixel cap is the guard and a file
    that is really broken fails to decode, which becomes InvalidMedia; under `-W error` the
    warnings would escape as exceptions of their own instead.
    """
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        yield


def image_size(data: bytes, media_type: str) -> tuple[int, int] | None:
    """Return (width, height) as stored in the header, or None when it cannot be read.

    The format record's header parser first (`mediaparts.formats.header_size`); for a format
    without one (TIFF), or a header it cannot read, Pillow's lazy `Image.open`, which also
    reads only the header. EXIF orientation is not applied.
    """
    size = header_size(data, media_type)
    return size if size is not None else _pillow_size(data)


def _from_header(
    data: bytes, read: Callable[[Image.Image], _T], formats: tuple[str, ...] | None = None
) -> _T | None:
    """Open the image lazily (Pillow reads only the header) and return `read(image)`.

    None when Pillow cannot read the header: the pixel cap is enforced where pixels are
    decoded, so Pillow's bomb error (over twice its MAX_IMAGE_PIXELS) means None here, as a
    damaged file does.
    """
    from PIL import Image

    try:
        with quiet(), Image.open(io.BytesIO(data), formats=formats) as img:
            return read(img)
    except PIL_ERRORS:
        return None
    except Image.DecompressionBombError:  # not in PIL_ERRORS: fitting says why it refuses
        return None


def _pillow_size(data: bytes) -> tuple[int, int] | None:
    return _from_header(data, lambda img: (img.size[0], img.size[1]))


def is_animated(data: bytes) -> bool:
    """Tell whether an image has more than one frame (GIF, APNG, WebP), from its header.

    Only formats that animate are opened, so an icon or a TIFF is never decoded here; bytes
    Pillow cannot read are not animated.
    """
    animated = _from_header(
        data, lambda img: bool(getattr(img, "is_animated", False)), ("GIF", "PNG", "WEBP")
    )
    return bool(animated)


def has_alpha(image: Image.Image) -> bool:
    """Tell whether an image can be transparent: an alpha band, or a transparent colour."""
    return image.mode in _ALPHA_MODES or "transparency" in image.info


def flatten_alpha(image: Image.Image) -> Image.Image:
    """Composite a transparent image onto white, as RGB; return any other image as it is.

    White is how viewers show transparency, and what JPEG (which has none) should show.
    """
    from PIL import Image

    if not has_alpha(image):
        return image
    rgba = image if image.mode == "RGBA" else image.convert("RGBA")
    background = Image.new("RGB", rgba.size, (255, 255, 255))
    background.paste(rgba, mask=rgba.getchannel("A"))
    return background


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
        if record.alpha:
            img = img.convert("RGBA" if has_alpha(img) else "RGB")
        else:  # a format without alpha (JPEG) gets it flattened onto white
            img = flatten_alpha(img)
            img = img if img.mode == "RGB" else img.convert("RGB")
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
