"""Resize an animation the provider takes as it is (GIF, APNG, WebP), keeping every frame."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from mediaparts._errors import ProviderLimitError
from mediaparts.imaging._decode import resize, transpose
from mediaparts.imaging._spec import FitSpec, FittedImage, measured, short_name

if TYPE_CHECKING:
    from PIL import Image

    from mediaparts.imaging._probe import Probe

__all__ = ["fit_animation"]

_FORMAT = {"image/gif": "GIF", "image/png": "PNG", "image/webp": "WEBP"}
_STEP = 0.75
_MIN_LONG_SIDE = 64


def fit_animation(head: Probe, size: tuple[int, int], spec: FitSpec) -> FittedImage | None:
    """Resize every frame to `size`, then shrink by 0.75 until `spec.max_bytes` holds.

    Returns None when the frames at `size` would hold more than `spec.pixel_cap` pixels in
    all; the caller then sends the first frame, which every such provider also accepts.

    Raises:
        ProviderLimitError: Even at 64 px on the long side the animation is too large.
    """
    from PIL import ImageSequence

    image = head.image
    if image is None:  # only HEIF lacks a plugin, and it never reaches here
        return None
    frames_total = int(getattr(image, "n_frames", 1))
    if frames_total * size[0] * size[1] > spec.pixel_cap:
        return None
    frames: list[Image.Image] = []
    durations: list[int] = []
    for frame in ImageSequence.Iterator(image):
        # Pillow hands out each frame composited (disposal and blending applied).
        upright = transpose(frame.convert("RGBA"), head.orientation)
        frames.append(resize(upright, size))
        durations.append(int(frame.info.get("duration", 100)))
    loop = int(image.info.get("loop", 0))
    steps = ["exif-transpose"] if head.orientation != 1 else []
    upright_size = head.upright
    current = size
    while True:
        shrunk = frames if current == size else [resize(f, current) for f in frames]
        data = _save(shrunk, head.media_type, durations, loop, spec.jpeg_quality)
        if spec.max_bytes is None or measured(len(data), spec.measure) <= spec.max_bytes:
            break
        long_side = max(current)
        if long_side <= _MIN_LONG_SIDE:
            raise ProviderLimitError(
                f"cannot fit the {len(frames)}-frame {short_name(head.media_type)} animation "
                f"into {spec.max_bytes:,} bytes ({spec.measure}): at {current[0]}x{current[1]} "
                f"it is still {measured(len(data), spec.measure):,} bytes",
                media_type=head.media_type,
            )
        factor = max(_STEP, _MIN_LONG_SIDE / long_side)
        current = (max(1, round(current[0] * factor)), max(1, round(current[1] * factor)))
    if size != upright_size:
        steps.append(f"resize {upright_size[0]}x{upright_size[1]}→{size[0]}x{size[1]}")
    if current != size:
        steps.append(f"resize {size[0]}x{size[1]}→{current[0]}x{current[1]} to fit max_bytes")
    steps.append(f"{short_name(head.media_type)} frames={len(frames)}")
    return FittedImage(data, head.media_type, *current, tuple(steps), unchanged=False)


def _save(
    frames: list[Image.Image], media_type: str, durations: list[int], loop: int, quality: int
) -> bytes:
    options: dict[str, object] = {}
    if media_type == "image/webp":
        options["quality"] = quality
    elif media_type == "image/gif":
        options["disposal"] = 2  # frames are complete pictures: clear before drawing the next
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format=_FORMAT[media_type],
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=loop,
        **options,
    )
    return buffer.getvalue()
