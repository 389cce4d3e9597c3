"""Write a decoded image in a type fitting writes, as its format record says; no EXIF ever.

How each type is written (its save options, whether the quality ladder applies, the step's
label) is the record's `Encoding` (`mediaparts.formats`); nothing here names a type. Dropping
EXIF is what clears the orientation tag (the pixels are already upright); it also drops GPS
and camera data that a provider does not need. The ICC profile is kept when it describes the
output's colour space, so colours stay as the author saw them.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from mediaparts.formats import Encoding, writable
from mediaparts.formats import get as format_of
from mediaparts.imaging._pil import flatten_alpha
from mediaparts.imaging._spec import pillow_writer, short_name

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "QUALITY_LADDER",
    "encode",
    "encoding",
    "first_writable",
    "keeps_alpha",
    "label",
    "ladder",
]

# Lossy rungs below the spec's first one; below 45 JPEG artefacts hurt recognition more than
# a smaller picture does, so the ladder switches to scaling instead.
QUALITY_LADDER = (85, 75, 65, 55, 45)


def ladder(first: int) -> tuple[int, ...]:
    """Return the quality rungs to try: `first`, then every standard rung below it."""
    return (first, *(q for q in QUALITY_LADDER if q < first))


def encoding(media_type: str) -> Encoding:
    """Return how a type is written; the default (one lossless mode) for an unknown type."""
    record = format_of(media_type)
    return record.encoding if record is not None else Encoding()


def keeps_alpha(media_type: str) -> bool:
    """Tell whether a type stores transparency (the record's `alpha`)."""
    record = format_of(media_type)
    return record is not None and record.alpha


def first_writable(*, lossy: bool) -> str | None:
    """Return the first type fitting writes (in its order) with a lossy mode, or lossless.

    `lossy=True`: the first with a quality option (JPEG), where a lossless encoding that
    cannot fit goes. `lossy=False`: the first whose pixels survive exactly (PNG), where a
    lossless source goes first.
    """
    for media_type in writable():
        record = format_of(media_type)
        if record is not None and (
            record.encoding.quality is not None if lossy else record.lossless
        ):
            return media_type
    return None


def label(media_type: str, quality: int | None) -> str:
    """Return the step text for one encoding, e.g. "jpeg q=85", "webp lossless" or "png"."""
    name, modes = short_name(media_type), encoding(media_type)
    if quality is not None and modes.quality is not None:
        return f"{name} q={quality}"
    return f"{name} lossless" if modes.quality is not None else name


def encode(
    image: Image.Image, media_type: str, quality: int | None, icc: bytes | None = None
) -> bytes:
    """Encode `image` (mode RGB, RGBA or L) as `media_type`.

    Args:
        image: The decoded picture.
        media_type: A type fitting writes (`mediaparts.formats.writable()`).
        quality: The quality of the lossy mode; None means the lossless mode (ignored by a
            type without a lossy mode, such as PNG and GIF).
        icc: An ICC profile to embed when its colour space matches the output mode and the
            type's writer stores one.

    Returns:
        The encoded bytes.

    Raises:
        UnsupportedMediaType: Pillow cannot write this type (fitting never asks for one).
    """
    writer = pillow_writer(media_type)  # raises for a type Pillow cannot write
    record = format_of(media_type)
    assert record is not None  # pillow_writer found it
    if not record.alpha:
        image = flatten_alpha(image)  # a type without transparency shows it as white
    options = record.encoding.save_options(quality)
    if icc is not None and record.encoding.icc and _icc_fits(icc, image.mode):
        options["icc_profile"] = icc
    buffer = io.BytesIO()
    image.save(buffer, format=writer, **options)
    return buffer.getvalue()


def _icc_fits(icc: bytes, mode: str) -> bool:
    # Bytes 16-19 of an ICC header name its data colour space (ICC.1:2022, 7.2.6).
    space = icc[16:20]
    return (space == b"RGB " and mode in ("RGB", "RGBA")) or (space == b"GRAY" and mode == "L")
