"""Decode once, at the smallest scale that still serves the target, upright and in a plain mode.

The order matters for speed: the JPEG draft is set before `load()`, so libjpeg-turbo scales by
1/2, 1/4 or 1/8 inside its IDCT and a 24 MP photo bound for 1568 px is never held at 24 MP.
It matters for memory too: any other image is shrunk by an integer factor straight after
`load()`, a band of rows at a time, and only then turned upright and converted, so that one
full-size copy (the decoded one, freed once shrunk) is ever held, not three.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mediaparts.imaging._pil import has_alpha
from mediaparts.imaging._probe import ImageHeader, codec_unavailable

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["Decoded", "decode", "plain", "reduce", "resize"]

# Pillow's own advice for `reducing_gap`: reduce by an integer factor (a cheap box filter)
# only while the remaining LANCZOS step still shrinks by at least 2x, which hides the box
# filter's aliasing ("reducing_gap=2.0 ... indistinguishable from fair resampling", Image.resize).
_REDUCING_GAP = 2.0
# Modes Image.reduce() averages correctly. Not P/PA (it would average palette indices), 1 and
# I;16 (refused); a colour key ("transparency" in info) would stop matching once averaged.
_REDUCIBLE = frozenset({"L", "LA", "RGB", "RGBA", "RGBX", "CMYK", "YCbCr", "I", "F"})
# Rows per band when reducing: 512 rows of a 13000-pixel RGBA image are 27 MB.
_BAND_ROWS = 512


@dataclass(slots=True)
class Decoded:
    """An upright, decoded first frame in mode RGB, RGBA or L, with what it took."""

    image: Image.Image
    alpha: bool  # some pixel is not fully opaque
    icc: bytes | None
    steps: list[str]


def decode(probe: ImageHeader, size: tuple[int, int], *, first_frame: bool) -> Decoded:
    """Decode the (first frame of the) probed image, upright, at `size` or somewhat larger.

    Args:
        probe: The header, with its lazily opened image.
        size: The upright size the result will be resized to; JPEG decodes near it.
        first_frame: Record the "first frame" step (the image is animated and must be still).

    Raises:
        CodecUnavailable: The plugin for this type (pillow-heif) is not installed.
        Any of `PIL_ERRORS`: Pillow could not decode the pixels (the caller wraps them).
    """
    image = probe.image
    if image is None:
        raise codec_unavailable(probe.missing_plugin or "", probe.media_type)
    steps: list[str] = []
    stored = (size[1], size[0]) if probe.orientation >= 5 else size
    if first_frame:  # a frame check that gave up may have left the image on a later frame
        image.seek(0)
    # Codec behaviour, not a table: only libjpeg decodes at a 1/n scale (Pillow's `draft`).
    if probe.media_type == "image/jpeg" and size != probe.upright:
        # Pillow picks the largest 1/n scale whose result is still >= `stored` on both axes.
        image.draft(image.mode, stored)
    image.load()
    if first_frame:
        steps.append("first frame")
    icc = image.info.get("icc_profile")
    source, opaque = image, None
    image, opaque = _shrink(image, stored)
    if image is not source:
        source.close()  # the full-size pixels are no longer needed: free them now
    upright = transpose(image, probe.orientation)
    if upright is not image:
        steps.append("exif-transpose")
    flat, alpha = plain(upright, opaque=opaque)
    if upright.mode == "CMYK" or upright.mode.startswith("I") or upright.mode == "F":
        steps.append(f"mode {upright.mode}→{flat.mode}")  # colour or depth changed, not just form
    return Decoded(flat, alpha, icc if isinstance(icc, bytes) else None, steps)


def _shrink(image: Image.Image, stored: tuple[int, int]) -> tuple[Image.Image, bool | None]:
    """Reduce a freshly decoded image by the integer factor `resize` would use anyway.

    Returns the image (the same object when it is not reduced) and, for a reduced image with
    an alpha channel, whether every source pixel was opaque: averaging can round an alpha of
    254 up to 255, so the reduced image alone cannot say.
    """
    factor = _factor(image.size, stored)
    if factor < 2 or image.mode not in _REDUCIBLE or "transparency" in image.info:
        return image, None
    return reduce(image, factor, track_alpha=True)


def reduce(
    image: Image.Image, factor: int, *, track_alpha: bool = False
) -> tuple[Image.Image, bool | None]:
    """Return `image.reduce(factor)`, computed a band of rows at a time, and source opacity.

    Pillow's reduce() of RGBA or LA first converts the whole image to premultiplied alpha, a
    second full-size copy (Image.reduce, Pillow 13); a band at a time holds one band of it.
    Bands are a multiple of `factor` rows high, so the result equals reduce() of the whole.
    With `track_alpha`, also return whether every source pixel had alpha 255 (None without
    an alpha channel).
    """
    from PIL import Image

    width, height = image.size
    out = Image.new(image.mode, (-(-width // factor), -(-height // factor)))
    rows = factor * max(1, _BAND_ROWS // factor)
    has_alpha = track_alpha and image.mode in ("RGBA", "LA")
    opaque = True
    for top in range(0, height, rows):
        band = image.crop((0, top, width, min(height, top + rows)))
        if has_alpha and opaque:
            opaque = band.getchannel("A").getextrema()[0] == 255
        out.paste(band.reduce(factor), (0, top // factor))
    return out, (opaque if has_alpha else None)


def _factor(size: tuple[int, int], target: tuple[int, int]) -> int:
    return int(min(size[0] / target[0], size[1] / target[1]) / _REDUCING_GAP)


def transpose(image: Image.Image, orientation: int) -> Image.Image:
    """Return `image` turned upright for EXIF `orientation` (the same mapping as exif_transpose).

    The result carries no EXIF at all: encoders here never write it, so no tag survives.
    """
    from PIL import Image

    method = {
        2: Image.Transpose.FLIP_LEFT_RIGHT,
        3: Image.Transpose.ROTATE_180,
        4: Image.Transpose.FLIP_TOP_BOTTOM,
        5: Image.Transpose.TRANSPOSE,
        6: Image.Transpose.ROTATE_270,
        7: Image.Transpose.TRANSVERSE,
        8: Image.Transpose.ROTATE_90,
    }.get(orientation)
    return image if method is None else image.transpose(method)


def plain(image: Image.Image, *, opaque: bool | None = None) -> tuple[Image.Image, bool]:
    """Convert any Pillow mode to RGB, RGBA or L; return it and whether alpha is really used.

    `opaque` says whether every pixel of the image's source was opaque, when `image` was
    reduced from it; None means look at `image` itself.
    """
    mode = image.mode
    if mode.startswith("I") or mode == "F":
        return _to_8bit(image), False
    if mode == "1":
        return image.convert("L"), False
    if not has_alpha(image):
        # CMYK (Adobe-inverted or not, Pillow handles it), YCbCr, LAB, HSV, RGBX, P without
        # transparency: providers expect RGB, and JPEG readers differ on CMYK.
        return (image if mode in ("RGB", "L") else image.convert("RGB")), False
    # P/PA with transparency, LA, La, RGBa, L/RGB with a tRNS colour: all become RGBA.
    rgba = image if mode == "RGBA" else image.convert("RGBA")
    if opaque is None:
        low, _ = rgba.getchannel("A").getextrema()
        opaque = low == 255
    if opaque:  # an alpha channel nobody uses: JPEG can carry this image losslessly enough
        return rgba.convert("RGB"), False
    return rgba, True


def _to_8bit(image: Image.Image) -> Image.Image:
    """Scale 16-bit (I;16*), 32-bit (I) or float (F) samples into 8 bits instead of clipping."""
    # Pillow's convert("L") clips 16-bit samples at 255, turning mid-grey (32768) white.
    wide = image.convert("F" if image.mode == "F" else "I")
    extrema = wide.getextrema()
    low, high = float(extrema[0]), float(extrema[1])  # type: ignore[arg-type]  # one band
    if image.mode == "F" or high > 65535 or low < 0:
        low, high = min(low, 0.0), max(high, 1.0)  # not 16-bit: scale the actual range
    else:
        low, high = 0.0, 65535.0  # 16-bit data: full range, so mid-grey stays mid-grey
    scale = 255 / (high - low)
    offset = 0.5 - low * scale  # round to nearest; point() truncates
    return wide.point(lambda v: v * scale + offset).convert("L")


def resize(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """Downscale `image` to exactly `size`: an integer `reduce()` first when cheap, then LANCZOS."""
    from PIL import Image

    if image.size == size:
        return image
    factor = _factor(image.size, size)
    if factor >= 2 and image.mode in _REDUCIBLE:
        image, _ = reduce(image, factor)
    return image.resize(size, Image.Resampling.LANCZOS)
