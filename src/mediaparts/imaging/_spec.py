"""What a provider accepts (`FitSpec`), what fitting returns (`FittedImage`), size arithmetic."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from mediaparts._errors import UnsupportedMediaType
from mediaparts.formats import get as format_of

__all__ = [
    "MIN_LONG_SIDE",
    "DecodeBudget",
    "FitSpec",
    "FittedImage",
    "limit_size",
    "measured",
    "pillow_writer",
    "short_name",
    "shrink",
]

# Pillow refuses to open images above twice `Image.MAX_IMAGE_PIXELS` (89,478,485) with a
# DecompressionBombError; the default cap is the same number, so both refuse alike.
DEFAULT_PIXEL_CAP = 178_956_970
# Below this the picture says little; a provider limit that needs less is reported instead.
MIN_LONG_SIDE = 64


@dataclass(frozen=True, slots=True)
class DecodeBudget:
    """The work and memory an image may cost to decode, judged from its header beforehand.

    The pixel cap bounds one picture's pixels; this bounds what the bytes can make the decoder
    do beyond that: decode every pixel many times (progressive scans, animation frames), hold
    several full-size copies, or inflate a few bytes into a huge canvas. Every limit is checked
    by the probe before a pixel is decoded, and an input over any of them is refused with
    `MediaTooLarge` naming the limit.

    Attributes:
        max_scans: The most scans (SOS segments) a JPEG may have. libjpeg decodes every scan in
            full even with a draft scale, so a scan repeated 10,000 times costs 10,000 decodes.
            Real files have one per component (baseline) or about ten (libjpeg's progressive
            script, T.81 Annex G); libjpeg-turbo offers `djpeg -maxscans` and TurboJPEG
            `TJPARAM_SCANLIMIT` for this very attack (libjpeg-turbo usage.txt, 3.0).
        max_scan_pixels: The most stored pixels x scans of a JPEG: each costs 0.6-0.9 ns of CPU
            (x86_64, libjpeg-turbo 3), even for an empty scan. 2e9 keeps a JPEG under about
            2 s, and passes a 178-megapixel progressive JPEG of up to 11 scans and a
            24-megapixel one of up to 83.
        max_frame_pixels: The most frames x source canvas pixels of an animation whose every
            frame is decoded (fitting an animation, or stripping its metadata). Pillow
            composites every frame at the canvas size, whatever the frame's own size or the
            target.
        max_decoded_bytes: The most bytes the decoded picture and its full-size working copies
            may take: pixels x bytes per pixel as Pillow stores the mode (1 for L and P, 2 for
            I;16, 4 for RGB, RGBA, LA, CMYK and I), plus a full-size RGBA copy where the mode
            must be converted before it can be shrunk (P, 1, I;16), three canvases for an
            animated WebP (libwebp's current and previous canvas, and Pillow's copy), and a
            progressive JPEG's 16-bit DCT coefficients, held whole at the stored size.
        max_pixels_per_byte: Above `ratio_floor` pixels, at least one input byte per this many
            decoded pixels (frames x canvas when every frame is decoded): a few KB claiming a
            huge canvas is refused, while real photos (a few pixels per byte) and screenshots
            pass. zlib inflates at most 1032:1 (RFC 1950/1951), so a flat RGBA PNG reaches 258
            pixels per byte.
        ratio_floor: Pixels decoded freely, whatever the input's size.
    """

    max_scans: int = 100
    max_scan_pixels: int = 2_000_000_000
    max_frame_pixels: int = DEFAULT_PIXEL_CAP
    max_decoded_bytes: int = 1 << 30
    max_pixels_per_byte: int = 32
    ratio_floor: int = 40_000_000


@dataclass(frozen=True, slots=True)
class FitSpec:
    """The limits an image must meet for one provider.

    Attributes:
        accepted: Canonical media types the provider takes as they are, e.g.
            `("image/jpeg", "image/png", "image/gif", "image/webp")`.
        animated_ok: When False, an animated GIF, WebP or APNG becomes its first frame.
        max_width: Hard width limit in pixels; larger images are downscaled.
        max_height: Hard height limit in pixels.
        max_pixels: Downscale so that width * height is at most this.
        target: The size the provider would downscale an upright (width, height) image to
            anyway; fitting downscales to it (never up).
        max_bytes: Byte limit of the result, counted as `measure` says.
        measure: `"raw"` counts the bytes, `"base64"` their base64 text (4 * ceil(n / 3)).
        pixel_cap: Images with more pixels than this are refused before decoding.
        jpeg_quality: The first rung of the JPEG (and lossy WebP) quality ladder.
        budget: The decode work and memory allowed (scans, frames x canvas, decoded bytes,
            pixels per input byte); see `DecodeBudget` for the defaults and why.
    """

    accepted: tuple[str, ...]
    animated_ok: bool = True
    max_width: int | None = None
    max_height: int | None = None
    max_pixels: int | None = None
    target: Callable[[int, int], tuple[int, int]] | None = None
    max_bytes: int | None = None
    measure: Literal["raw", "base64"] = "raw"
    pixel_cap: int = DEFAULT_PIXEL_CAP
    jpeg_quality: int = 85
    budget: DecodeBudget = DecodeBudget()


@dataclass(frozen=True, slots=True)
class FittedImage:
    """An image as it will be sent.

    Attributes:
        data: The encoded bytes (the input object itself when `unchanged`).
        media_type: The canonical media type of `data`.
        width: Width of the image in `data`, in pixels.
        height: Height of the image in `data`, in pixels.
        steps: What was done, in order, e.g. `("exif-transpose", "resize 6000x4000→1568x1045",
            "jpeg q=85")`; empty when `unchanged`.
        unchanged: True when `data` is the input bytes, untouched.
    """

    data: bytes
    media_type: str
    width: int
    height: int
    steps: tuple[str, ...]
    unchanged: bool


def measured(size: int, measure: Literal["raw", "base64"]) -> int:
    """Return how many bytes a provider counts for `size` raw bytes."""
    return 4 * math.ceil(size / 3) if measure == "base64" else size


def limit_size(width: int, height: int, spec: FitSpec) -> tuple[int, int]:
    """Return the largest size within every limit of `spec`, keeping the aspect ratio.

    Never larger than (width, height); `width` and `height` are the upright size.
    """
    scale = 1.0
    if spec.max_width is not None:
        scale = min(scale, spec.max_width / width)
    if spec.max_height is not None:
        scale = min(scale, spec.max_height / height)
    if spec.max_pixels is not None:
        scale = min(scale, math.sqrt(spec.max_pixels / (width * height)))
    w, h = width, height
    if scale < 1.0:
        w, h = max(1, round(width * scale)), max(1, round(height * scale))
        # Rounding may overshoot a limit by a pixel; the limits are hard, the ratio is not.
        w = min(w, spec.max_width or w)
        h = min(h, spec.max_height or h)
        while spec.max_pixels is not None and w * h > spec.max_pixels and max(w, h) > 1:
            w, h = (w - 1, h) if w >= h else (w, h - 1)
    if spec.target is not None:
        tw, th = spec.target(width, height)
        # A target larger than the image means "no resize": never upscale.
        w, h = max(1, min(w, tw)), max(1, min(h, th))
    return w, h


def shrink(size: tuple[int, int], factor: float) -> tuple[int, int]:
    """Return `size` scaled by `factor`, its long side no less than MIN_LONG_SIDE.

    The one shrink step of fitting, for still images and animations alike.

    Returns `size` itself when it cannot shrink any further.
    """
    long_side = max(size)
    if long_side <= MIN_LONG_SIDE:
        return size
    factor = max(factor, MIN_LONG_SIDE / long_side)
    return max(1, round(size[0] * factor)), max(1, round(size[1] * factor))


def short_name(media_type: str) -> str:
    """Return the short format name used in steps, e.g. "jpeg" for image/jpeg."""
    record = format_of(media_type)
    return record.name if record is not None else media_type.rpartition("/")[2]


def pillow_writer(media_type: str) -> str:
    """Return the Pillow format an image type is written as ("JPEG" for image/jpeg).

    Raises:
        UnsupportedMediaType: Pillow cannot write this type (fitting never asks for one).
    """
    record = format_of(media_type)
    if record is None or record.writer is None:
        raise UnsupportedMediaType(f"cannot write {media_type}", media_type=media_type)
    return record.writer
