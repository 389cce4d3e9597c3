"""Remove metadata from images by re-encoding, where the format has no lossless strip.

Upright JPEG, PNG and WebP lose their metadata segments and chunks with the pixel data left
byte for byte (their records' `strip`, in `mediaparts.formats`); anything else (a turned
picture, TIFF, BMP, HEIC, animations) is decoded here and re-encoded upright with no metadata.
Used by `from_upload(strip_metadata=True)`.
"""

from __future__ import annotations

import io
from typing import Any

from mediaparts.formats import get as format_of
from mediaparts.imaging._animate import save_animation, timing, upright_frames
from mediaparts.imaging._decode import plain, transpose
from mediaparts.imaging._probe import Probe
from mediaparts.imaging._spec import pillow_writer

__all__ = ["reencode_animation", "reencode_still"]

_JPEG_QUALITY = 95  # when there are no source tables to reuse (HEIC/AVIF → JPEG, WebP)


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
    record = format_of(out)
    if record is None or record.write_rank is None:
        # Types fitting does not write: lossless ones (TIFF, BMP, ICO, PSD) become PNG, lossy
        # ones (HEIC, HEIF, AVIF) JPEG if opaque.
        picture, alpha = plain(picture)
        lossy = record is not None and not record.lossless
        out = "image/jpeg" if lossy and not alpha else "image/png"
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
    picture.save(buffer, format=pillow_writer(out), **options)
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
