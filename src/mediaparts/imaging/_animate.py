"""Resize an animation the provider takes as it is (GIF, APNG, WebP), keeping every frame."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import TYPE_CHECKING

from mediaparts._errors import MediaTooLarge, ProviderLimitError
from mediaparts.formats import get as format_of
from mediaparts.imaging._decode import resize, transpose
from mediaparts.imaging._encode import encoding
from mediaparts.imaging._probe import check_all_frames
from mediaparts.imaging._spec import (
    FitSpec,
    FittedImage,
    measured,
    pillow_writer,
    short_name,
    shrink,
)

if TYPE_CHECKING:
    from PIL import Image

    from mediaparts.imaging._probe import ImageHeader

__all__ = ["fit_animation", "save_animation", "timing", "upright_frames"]

# The longest frame each writer stores is its record's `longest_frame`; libwebp's timestamps
# are C ints, so the whole animation stays under 2**31 ms too.
_TIMESTAMP_LIMIT = 2**31 - 1

_STEP = 0.75


def fit_animation(
    head: ImageHeader, data: bytes, size: tuple[int, int], spec: FitSpec
) -> FittedImage | None:
    """Resize every frame to `size`, then shrink by 0.75 until `spec.max_bytes` holds.

    Returns None when the frames at `size` would hold more than `spec.pixel_cap` pixels in
    all, or decoding them all would exceed `spec.budget` (frames x source canvas, since Pillow
    composites each frame at the canvas size); the caller then sends the first frame, which
    every such provider also accepts.

    Raises:
        ProviderLimitError: Even at 64 px on the long side the animation is too large.
    """
    image = head.image
    if image is None:  # only HEIF lacks a plugin, and it never reaches here
        return None
    try:
        frames_total = check_all_frames(head, data, spec.budget)
    except MediaTooLarge:
        return None
    if frames_total * size[0] * size[1] > spec.pixel_cap:
        return None
    frames: list[Image.Image] = []
    durations: list[int] = []
    try:
        for upright, duration in upright_frames(
            head, spec.budget.max_frame_pixels, "max_frame_pixels"
        ):
            frames.append(resize(upright, size))
            durations.append(duration)
    except MediaTooLarge:
        return None
    frames, durations = timing(frames, durations, head.media_type)
    loop = int(image.info.get("loop", 0))
    steps = ["exif-transpose"] if head.orientation != 1 else []
    upright_size = head.upright
    current = size
    # An animation is written in its lossy mode when it has one (WebP), whatever the source.
    options = encoding(head.media_type).save_options(spec.jpeg_quality)
    while True:
        shrunk = frames if current == size else [resize(f, current) for f in frames]
        data = save_animation(shrunk, head.media_type, durations, loop, options)
        if spec.max_bytes is None or measured(len(data), spec.measure) <= spec.max_bytes:
            break
        smaller = shrink(current, _STEP)
        if smaller == current:
            raise ProviderLimitError(
                f"cannot fit the {len(frames)}-frame {short_name(head.media_type)} animation "
                f"into {spec.max_bytes:,} bytes ({spec.measure}): at {current[0]}x{current[1]} "
                f"it is still {measured(len(data), spec.measure):,} bytes",
                media_type=head.media_type,
            )
        current = smaller
    if size != upright_size:
        steps.append(f"resize {upright_size[0]}x{upright_size[1]}→{size[0]}x{size[1]}")
    if current != size:
        steps.append(f"resize {size[0]}x{size[1]}→{current[0]}x{current[1]} to fit max_bytes")
    steps.append(f"{short_name(head.media_type)} frames={len(frames)}")
    return FittedImage(data, head.media_type, *current, tuple(steps), unchanged=False)


def save_animation(
    frames: list[Image.Image],
    media_type: str,
    durations: list[int],
    loop: int,
    options: dict[str, object],
) -> bytes:
    """Write complete, upright frames as one GIF, APNG or WebP animation; the one writer.

    `options` are the writer's own (WebP `quality` or `lossless`). GIF frames are complete
    pictures, so each is cleared before the next is drawn (disposal 2).
    """
    if media_type == "image/gif":  # codec behaviour: GIF's own disposal methods, no table
        options = {"disposal": 2, **options}
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format=pillow_writer(media_type),
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=loop,
        **options,
    )
    return buffer.getvalue()


def upright_frames(head: ImageHeader, cap: int, field: str) -> Iterator[tuple[Image.Image, int]]:
    """Yield each frame of an animation composited, upright, RGBA and bare, with its duration.

    Pillow hands out each frame composited (disposal and blending applied). A GIF frame that
    reaches past the logical screen grows Pillow's canvas for it and every later frame, so
    the pixels are counted as the frames come, not only from the header, and the next frame
    is not decoded once they pass `cap`.

    Raises:
        MediaTooLarge: The frames so far hold more than `cap` pixels (`field` names the cap).
    """
    from PIL import Image, ImageSequence

    assert head.image is not None
    sequence = ImageSequence.Iterator(head.image)
    count = pixels = 0
    while True:
        try:
            frame = next(sequence)
        except StopIteration:
            return
        except Image.DecompressionBombError as exc:  # a frame past Pillow's own limit
            raise _too_many(head, count + 1, None, cap, field) from exc
        count += 1
        pixels += frame.width * frame.height
        if pixels > cap:
            raise _too_many(head, count, pixels, cap, field)
        picture = transpose(frame.convert("RGBA"), head.orientation)
        picture.info = {}  # convert() copies info, comments and EXIF included
        yield picture, int(frame.info.get("duration", 100))


def _too_many(
    head: ImageHeader, frame: int, pixels: int | None, limit: int, field: str
) -> MediaTooLarge:
    size = f"{pixels:,} pixels" if pixels is not None else "more pixels than Pillow opens"
    return MediaTooLarge(
        f"the {head.media_type} animation's first {frame} frames hold {size}, over "
        f"{field}={limit:,} (its header says {head.width}x{head.height}); refused before "
        f"decoding frame {frame}",
        size=pixels,
        limit=limit,
        media_type=head.media_type,
    )


def timing(
    frames: list[Image.Image], durations: list[int], media_type: str
) -> tuple[list[Image.Image], list[int]]:
    """Merge runs of identical frames, adding their durations, and clamp what a writer can store.

    Pillow's GIF and APNG writers merge identical consecutive frames themselves, adding the
    durations, and then fail (OverflowError) writing a sum their 16-bit field cannot hold; an
    85-byte GIF of two identical frames of 655.35 s did that. Merging first, here, leaves
    them nothing to add up.
    """
    from PIL import ImageChops

    record = format_of(media_type)
    longest = (record.longest_frame if record else None) or _TIMESTAMP_LIMIT
    kept: list[Image.Image] = []
    times: list[int] = []
    for frame, duration in zip(frames, durations, strict=True):
        same = bool(kept) and kept[-1].mode == frame.mode and kept[-1].size == frame.size
        if same and ImageChops.difference(kept[-1], frame).getbbox(alpha_only=False) is None:
            times[-1] += max(0, duration)
        else:
            kept.append(frame)
            times.append(max(0, duration))
    # Whole-animation room for libwebp's int timestamps, with 1 ms left for every frame.
    room = _TIMESTAMP_LIMIT - len(times)
    clamped = []
    for duration in times:
        duration = min(duration, longest, max(1, room))
        room -= duration
        clamped.append(duration)
    return kept, clamped
