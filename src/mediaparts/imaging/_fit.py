"""`fit_image`: pass the bytes through when they already fit, else decode once and re-encode.

The order of work: probe the header (pixel cap, orientation, animation) → pass through if
nothing needs to change → decode (JPEG draft near the target) → first frame → exif-transpose →
plain mode → choose the output type → resize → encode down the quality ladder → scale down
by ~0.75 until the byte limit holds. See docs/imaging.md.
"""

from __future__ import annotations

import math

from mediaparts._errors import (
    MediaTooLarge,
    ProviderLimitError,
    UnsupportedMediaType,
)
from mediaparts.formats import get as format_of
from mediaparts.formats import writable
from mediaparts.imaging._animate import fit_animation
from mediaparts.imaging._decode import Decoded, decode, resize
from mediaparts.imaging._encode import (
    encode,
    encoding,
    first_writable,
    keeps_alpha,
    label,
    ladder,
)
from mediaparts.imaging._pil import PIL_ERRORS, quiet
from mediaparts.imaging._probe import (
    ImageHeader,
    check_decode,
    decode_failure,
    probe,
)
from mediaparts.imaging._spec import (
    FitSpec,
    FittedImage,
    limit_size,
    measured,
    short_name,
    shrink,
)

__all__ = ["fit_image"]
# How many times a lossless PNG is scaled by 0.75 before an opaque image switches to JPEG.
_LOSSLESS_SCALINGS = 3
_STEP = 0.75


def fit_image(data: bytes, media_type: str, spec: FitSpec) -> FittedImage:
    """Make an image acceptable to a provider, changing as little as possible.

    When the type is accepted, the image is upright (EXIF orientation 1 or none), still (or
    animations are allowed), within every size limit and `target`, and small enough in bytes,
    the input is returned untouched, decided from the header alone. Otherwise it is decoded
    once and re-encoded; see docs/imaging.md for the order of the steps.

    Args:
        data: The encoded image; never modified.
        media_type: Its media type. The bytes win: a PNG labelled image/jpeg is read as PNG.
        spec: The provider's limits.

    Returns:
        The image as it should be sent, with the steps taken.

    Raises:
        MediaTooLarge: The header claims more than `spec.pixel_cap` pixels, or decoding would
            exceed `spec.budget` (JPEG scans, decoded bytes, pixels per input byte); nothing
            is decoded then.
        InvalidMedia: The image is corrupt, truncated or undecodable.
        UnsupportedMediaType: Not a raster image fitting reads, HEIC/HEIF without pillow-heif,
            or `spec.accepted` names no type this module can write.
        ProviderLimitError: Even at 64 px on the long side it exceeds `spec.max_bytes`.
    """
    head = probe(data, media_type, spec.pixel_cap)
    width, height = head.upright
    size = limit_size(width, height, spec)
    make_still = head.animated and not spec.animated_ok
    if (
        head.media_type in spec.accepted
        and head.orientation == 1
        and not make_still
        and size == (width, height)
        and head.complete
        and not head.cmyk
        and _fits(len(data), spec)
    ):
        return FittedImage(data, head.media_type, width, height, (), unchanged=True)
    check_decode(data, head, spec.budget)
    from PIL import Image

    try:
        # The pixel cap was checked on the header; Pillow re-checks some frames on load, and
        # warns about damaged data it skips (a file that cannot be decoded still raises).
        with quiet():
            if head.animated and not make_still and head.media_type in spec.accepted:
                animated = fit_animation(head, data, size, spec)
                if animated is not None:
                    return animated
            # An animation the provider cannot take as its own type keeps its first frame.
            decoded = decode(head, size, first_frame=head.animated)
            return _fit_still(head, decoded, size, spec)
    except Image.DecompressionBombError as exc:  # a later frame larger than the header said
        raise MediaTooLarge(
            f"{head.media_type}: {exc}", limit=spec.pixel_cap, media_type=head.media_type
        ) from exc
    except PIL_ERRORS as exc:
        raise decode_failure(head.media_type, exc) from exc


def _fit_still(
    head: ImageHeader,
    decoded: Decoded,
    size: tuple[int, int],
    spec: FitSpec,
) -> FittedImage:
    out = _output_type(head, decoded, spec)
    # A type with both modes (WebP) starts lossless only for a lossless source.
    modes = encoding(out)
    lossy = modes.quality is not None and (modes.lossless is None or not head.lossless)
    steps = list(decoded.steps)
    # Lossless coding whose own bytes show it cannot fit in the scalings it has left is
    # given up early for a lossy type (`_hopeless`). The source's bytes are no guide: an
    # uncompressed PNG is many times what a re-encode of it takes.
    current, tried, hopeless = size, 0, False
    while True:
        if not hopeless:
            image = resize(decoded.image, current)
            qualities: tuple[int | None, ...] = ladder(spec.jpeg_quality) if lossy else (None,)
            for quality in qualities:
                result = encode(image, out, quality, decoded.icc)
                if _fits(len(result), spec):
                    steps += _describe(head, out, size, image.size)
                    encoded = label(out, quality)
                    if encoded != short_name(out) or out == head.media_type:
                        steps.append(encoded)  # "gif→png" already says a bare "png"
                    return FittedImage(result, out, *image.size, tuple(steps), unchanged=False)
            tried += 1
            # Lossless sizes shrink by 0.75 exactly, so that JPEG gets its turn at full size.
            smaller = shrink(current, _next_scale(len(result), spec) if lossy else _STEP)
            hopeless = (
                not lossy
                and _lossy_route(out, decoded, spec) is not None
                and _hopeless(len(result), image.size, size, tried, spec)
            )
        if not lossy and (hopeless or tried >= _LOSSLESS_SCALINGS or smaller == current):
            # Lossless coding cannot fit even a smaller picture: go lossy, from the full size.
            route = _lossy_route(out, decoded, spec)
            if route is not None:
                out, current, tried, lossy, hopeless = route, size, 0, True, False
                continue
        if smaller == current:
            raise ProviderLimitError(
                f"cannot fit {head.media_type} ({head.upright[0]}x{head.upright[1]}) into "
                f"{spec.max_bytes:,} bytes ({spec.measure}): at {current[0]}x{current[1]} as "
                f"{short_name(out)} it is still {measured(len(result), spec.measure):,} bytes",
                media_type=head.media_type,
            )
        current = smaller


def _lossy_route(out: str, decoded: Decoded, spec: FitSpec) -> str | None:
    """Return the lossy type to go to from lossless `out`: its own lossy mode (which keeps the
    alpha channel), else the first lossy type written that is accepted and keeps what it must."""
    if encoding(out).quality is not None:
        return out
    fallback = first_writable(lossy=True)
    if (
        fallback is not None
        and fallback in spec.accepted
        and (not decoded.alpha or keeps_alpha(fallback))
    ):
        return fallback
    return None


def _hopeless(
    encoded: int, at: tuple[int, int], size: tuple[int, int], tried: int, spec: FitSpec
) -> bool:
    """Tell whether lossless coding cannot fit `spec.max_bytes` in the scalings it has left.

    Its bytes grow about with the pixel count (a smaller picture holds more detail per pixel,
    so if anything they shrink slower): `encoded` bytes at `at` predict the bytes at the
    smallest size still to try, the full `size` scaled by 0.75 per scaling, about the least
    it can take there: over the limit, no lossless size left can fit.
    """
    if spec.max_bytes is None or tried >= _LOSSLESS_SCALINGS:
        return False
    smallest = _STEP ** (_LOSSLESS_SCALINGS - 1)
    pixels = size[0] * size[1] * smallest * smallest
    predicted = encoded * pixels / max(1, at[0] * at[1])
    return measured(int(predicted), spec.measure) > spec.max_bytes


def _next_scale(size: int, spec: FitSpec) -> float:
    """Return the next scale factor: 0.75, or less when the overshoot is large."""
    # Bytes grow roughly with the pixel count, so sqrt(limit / size) estimates the scale that
    # fits; 0.95 leaves room for the estimate's error. Never less than halving at once.
    limit = spec.max_bytes or 0
    estimate = 0.95 * math.sqrt(limit / max(1, measured(size, spec.measure)))
    return max(0.5, min(_STEP, estimate))


def _fits(size: int, spec: FitSpec) -> bool:
    return spec.max_bytes is None or measured(size, spec.measure) <= spec.max_bytes


def _output_type(head: ImageHeader, decoded: Decoded, spec: FitSpec) -> str:
    """Choose what to write: the source's own type if accepted and writable, else by content."""
    own = format_of(head.media_type)
    if head.media_type in spec.accepted and own is not None and own.rewrite:
        return head.media_type
    order: tuple[str, ...] = writable()
    if decoded.alpha:
        # Transparency first: JPEG would flatten it, so it is the last resort.
        order = tuple(sorted(order, key=lambda media_type: not keeps_alpha(media_type)))
    elif head.lossless:
        # A lossless source keeps its pixels exactly if the first lossless type is accepted.
        lossless = first_writable(lossy=False)
        order = order if lossless is None else (lossless, *order)
    for media_type in order:
        if media_type in spec.accepted:
            return media_type
    raise UnsupportedMediaType(
        f"cannot convert {head.media_type}: the accepted types ({', '.join(spec.accepted)}) "
        f"include none that fitting writes ({', '.join(writable())})",
        media_type=head.media_type,
        accepted=spec.accepted,
    )


def _describe(
    head: ImageHeader, out: str, target: tuple[int, int], final: tuple[int, int]
) -> list[str]:
    steps = []
    if out != head.media_type:
        steps.append(f"{short_name(head.media_type)}→{short_name(out)}")
    width, height = head.upright
    if target != (width, height):
        steps.append(f"resize {width}x{height}→{target[0]}x{target[1]}")
    if final != target:
        steps.append(f"resize {target[0]}x{target[1]}→{final[0]}x{final[1]} to fit max_bytes")
    return steps
