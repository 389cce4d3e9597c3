"""Remove metadata from images by re-encoding, where the format has no lossless strip.

Upright JPEG, PNG and WebP lose their metadata segments and chunks with the pixel data left
byte for byte (their records' `strip`, in `mediaparts.formats`); anything else (a turned
picture, TIFF, BMP, HEIC, animations) is decoded here and re-encoded upright with no metadata.
Used by `from_upload(strip_metadata=True)`, through `strip_metadata`.
"""

from __future__ import annotations

import io
from typing import Any

from mediaparts._errors import InvalidMedia, MediaError, MediaTooLarge
from mediaparts.formats import get as format_of
from mediaparts.imaging._animate import save_animation, timing, upright_frames
from mediaparts.imaging._decode import plain, transpose
from mediaparts.imaging._encode import encoding, first_writable, keeps_alpha
from mediaparts.imaging._pil import PIL_ERRORS, quiet
from mediaparts.imaging._probe import (
    ImageHeader,
    check_all_frames,
    check_decode,
    codec_unavailable,
    probe,
)
from mediaparts.imaging._spec import DecodeBudget, pillow_writer

__all__ = ["reencode_animation", "reencode_still", "strip_metadata"]

_JPEG_QUALITY = 95  # a lossy re-encode without source tables to reuse (HEIC/AVIF → JPEG, WebP)


def reencode_still(head: ImageHeader) -> tuple[bytes, str]:
    """Decode, turn upright and re-encode without metadata; other formats become PNG or JPEG."""
    image = head.image
    assert image is not None
    out, options = head.media_type, dict[str, Any]()
    record = format_of(out)
    if out == "image/jpeg":
        # Codec behaviour, not a table: reusing the source's own quantization tables and
        # sampling keeps about its quality and size, which no quality number does.
        from PIL.JpegImagePlugin import get_sampling

        sampling = get_sampling(image)
        options = {"qtables": getattr(image, "quantization", None) or None}
        options["subsampling"] = sampling if sampling >= 0 else None
        options["quality"] = None if options["qtables"] else _JPEG_QUALITY
    elif record is not None and record.write_rank is not None:
        options = record.encoding.save_options(None if head.lossless else _JPEG_QUALITY)
    image.load()
    transparency, icc = image.info.get("transparency"), image.info.get("icc_profile")
    picture = transpose(image, head.orientation)
    if record is None or record.write_rank is None:
        # Types fitting does not write: lossless ones (TIFF, BMP, ICO, PSD) become the first
        # lossless type it writes (PNG), lossy ones (HEIC, HEIF, AVIF) the first lossy one
        # (JPEG) if it keeps what the picture has.
        picture, alpha = plain(picture)
        lossy = record is not None and not record.lossless
        target = first_writable(lossy=True) if lossy else None
        if target is None or (alpha and not keeps_alpha(target)):
            target, lossy = first_writable(lossy=False), False
        assert target is not None  # PNG is built in
        out = target
        options = encoding(out).save_options(_JPEG_QUALITY if lossy else None)
        transparency = None
    # Pillow writes some info keys (comment, exif) by itself: only what drawing needs stays.
    picture.info.clear()
    if transparency is not None:
        picture.info["transparency"] = transparency
    if isinstance(icc, bytes) and encoding(out).icc:
        options["icc_profile"] = icc
    buffer = io.BytesIO()
    options = {key: value for key, value in options.items() if value is not None}
    picture.save(buffer, format=pillow_writer(out), **options)
    return buffer.getvalue(), out


def reencode_animation(head: ImageHeader, max_pixels: int) -> bytes:
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
    options = encoding(head.media_type).save_options(None if head.lossless else _JPEG_QUALITY)
    loop = int(head.image.info.get("loop", 0))
    return save_animation(frames, head.media_type, durations, loop, options)


def strip_metadata(
    data: bytes,
    media_type: str,
    *,
    max_pixels: int,
    budget: DecodeBudget = DecodeBudget(),  # noqa: B008  # frozen, so one shared default is safe
    label: str = "the image",
) -> tuple[bytes, str]:
    """Return the image without metadata, and its media type: upright, every pixel checked.

    Losslessly (the format record's `strip`) when the image is upright and its format has one,
    else decoded once, turned upright and re-encoded. Every frame is decoded (or verified), so
    a file that is damaged past its header is refused here rather than passed on.

    Args:
        data: The image's bytes.
        media_type: Its canonical media type, one of `mediaparts.formats.readable()`.
        max_pixels: The most pixels (all frames of an animation) it may have.
        budget: What decoding it may cost (JPEG scans, decoded bytes, pixels per input byte).
        label: How messages name the input ("the upload 'cat.jpg'").

    Raises:
        MediaTooLarge: Over `max_pixels` or over the decode budget.
        CodecUnavailable: Its plugin is missing (HEIC without pillow-heif).
        InvalidMedia: The image is corrupt or truncated.
    """
    try:
        # A plugin's UserWarning about a damaged file would be an exception under `-W error`,
        # and the decode below decides anyway.
        with quiet():
            head = probe(data, media_type, max_pixels)
            check_decode(data, head, budget)  # stripping decodes (or verifies) every pixel
            return _strip(data, head, max_pixels, budget, label)
    except MediaError:
        raise
    except PIL_ERRORS as exc:
        raise InvalidMedia(
            f"{label} is a corrupt or truncated {media_type}: {exc}", media_type=media_type
        ) from exc


def _strip(
    data: bytes, head: ImageHeader, max_pixels: int, budget: DecodeBudget, label: str
) -> tuple[bytes, str]:
    """Return the image without metadata: losslessly when upright, else re-encoded upright."""
    from PIL import Image

    if head.image is None:
        raise codec_unavailable(
            f"cannot strip metadata from {label}: {head.missing_plugin}. "
            "strip_metadata=False would take its bytes as they are, EXIF and GPS included",
            head.media_type,
        )
    try:
        check_all_frames(head, data, budget, limit=max_pixels)
    except MediaTooLarge as exc:
        raise MediaTooLarge(
            f"{label}: {exc}", size=exc.size, limit=exc.limit, media_type=exc.media_type
        ) from exc
    record = format_of(head.media_type)
    if record is not None and record.strip is not None and head.orientation == 1:
        out = record.strip(data)
        with Image.open(io.BytesIO(out), formats=record.pillow) as check:
            check.draft(check.mode, (1, 1))  # a JPEG at 1/8 scale still reads every bit
            check.load()
        return out, head.media_type
    if head.animated:
        return reencode_animation(head, max_pixels), head.media_type
    return reencode_still(head)
