"""Frames of a video as JPEG pictures, for providers that take images but no video.

`sample_frames` takes `policy.frames` frames, evenly spaced (`"uniform"`) or at scene changes
(`"scenes"`). It seeks to each frame it takes (to the key frame before it, then decodes
forward to the frame shown at that time), so its cost grows with the frames taken, not with
the video's length; where no key frame lies between the last frame decoded and the next one
wanted, it decodes on instead.

The decoding is bounded by the input's size (`TransformPolicy.video_budget`): each frame taken
gets an equal share of the pixels left to decode. Where key frames lie so far apart (a screen
recording's long GOP, a single key frame) that the frame at a time is beyond its share, the
last frame reached is taken instead, labelled with its own time, and its steps say which time
was asked for: the picture is near the key frame before that time, never a GOP decoded whole.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from mediaparts._errors import MediaTooLarge
from mediaparts.converting._av import open_media
from mediaparts.converting._policy import TransformPolicy
from mediaparts.converting._result import Converted
from mediaparts.converting._video import (
    OverBudget,
    Packets,
    clock,
    first_video,
    length_of,
    stored_display,
    video_info,
)
from mediaparts.imaging import encode_pil

if TYPE_CHECKING:
    from av.video.frame import VideoFrame

__all__ = ["frame_stand_ins", "most_frames", "sample_frames", "uniform_times"]

# A frame within this many seconds after a wanted time is taken for it (timestamps are
# rounded to the track's time base).
_SLACK = 0.0005
# Scene changes are judged on this small grey copy of each key frame; a key frame whose mean
# difference from the one before is at least _CUT (of 255) starts a new scene.
_THUMB = (32, 18)
_CUT = 24.0
# The most key frames examined for scene changes, per frame asked for; over a longer video
# they are spread evenly over it.
_KEYS_PER_FRAME = 50


def sample_frames(
    data: bytes, media_type: str, policy: TransformPolicy, *, max_side: int | None = None
) -> list[Converted]:
    """Take `policy.frames` frames of a video as JPEG pictures, in time order.

    Each picture is upright (the track's rotation applied) at the displayed aspect ratio,
    labelled with its time from the video's start (`"0:01.500"`; `"1:02:03.250"` past an
    hour). Fewer pictures come back when the video has fewer frames.

    Args:
        data: The whole file.
        media_type: Its detected type (`"video/mp4"`).
        policy: `frames`, `sampling` and the caps.
        max_side: The longest side of a picture; frames are scaled down to it, never up,
            by FFmpeg as it converts them to RGB (no full-size RGB copy is made). Give the
            provider's largest useful side: pictures then fit without another resize.

    Raises:
        CodecUnavailable: PyAV is not installed (the `[av]` extra).
        InvalidMedia: FFmpeg cannot read it, it has no video track, or no frame decodes.
        MediaTooLarge: Over a cap of `policy` (seconds, pixels, packets, timeout), a frame
            larger than the decode budget its bytes buy (`video_pixels_per_byte`), or a frame
            too large for the memory left.
    """
    doing = f"take frames from {media_type}"
    container = open_media(data, media_type, policy, doing)
    try:
        stream = first_video(container, media_type)
        reader = Packets(container, stream, media_type, policy, doing, size=len(data))
        length = length_of(container, reader)
        count = min(policy.frames, most_frames(reader, length))
        if policy.sampling == "scenes":
            times = _scene_times(reader, length, count)
        else:
            times = uniform_times(length, count)
        return _take(reader, times, max_side)
    except MemoryError as exc:  # a frame, or its copy, larger than the memory left
        raise MediaTooLarge(
            f"taking frames from this {media_type} ran out of memory; refused",
            media_type=media_type,
        ) from exc
    finally:
        container.close()


def frame_stand_ins(
    data: bytes, media_type: str, policy: TransformPolicy, *, max_side: int | None = None
) -> list[Converted]:
    """Return what `sample_frames` would give, read from the headers: as many pictures, of
    the same size, labelled with the times asked for, each a flat grey JPEG.

    For a token estimate: a picture's tokens depend on its size alone, and its label's on
    its time, so no frame past the first (read for its rotation) is decoded. `"scenes"`
    labels use the evenly spaced times its fallback would (labels of the same length).

    Raises:
        CodecUnavailable: PyAV is not installed (the `[av]` extra).
        InvalidMedia: FFmpeg cannot read it, or it has no video track.
        MediaTooLarge: Over a cap of `policy`.
    """
    from PIL import Image

    info = video_info(data, media_type, policy)
    length = info.seconds or 0.0
    count = info.frames or (math.ceil(length * info.fps) + 1 if info.fps and length else 0)
    count = min(policy.frames, count or policy.frames)
    scale = min(1.0, max_side / max(info.width, info.height)) if max_side else 1.0
    size = (max(1, round(info.width * scale)), max(1, round(info.height * scale)))
    picture = encode_pil(Image.new("RGB", size, (128, 128, 128)), "JPEG")
    labels = [clock(t) for t in uniform_times(length, count)]
    return [
        Converted(
            media_type="image/jpeg",
            data=picture,
            steps=(f"frame at {label}",),
            width=size[0],
            height=size[1],
            label=label,
        )
        for label in labels
    ]


def _take(reader: Packets, times: list[float], max_side: int | None) -> list[Converted]:
    """Take the frame shown at each of `times`, each within an equal share of the budget
    left; the pictures taken so far when the budget runs out (at least one, else the error)."""
    seeker = _Seeker(reader)
    pictures: list[Converted] = []
    shown: int | None = None  # the timestamp of the last frame taken
    for done, wanted in enumerate(times):
        share = (reader.budget - reader.pixels) // (len(times) - done)
        try:
            frame = seeker.at(wanted, share)
        except OverBudget:
            if not pictures:
                raise
            break
        seconds = reader.seconds(frame) if frame is not None else None
        if frame is None or seconds is None or (pictures and frame.pts == shown):
            continue
        # Each frame becomes its JPEG at once: only the seeker's two frames stay decoded.
        short = seeker.short and abs(seconds - wanted) > _SLACK
        pictures.append(_picture(frame, seconds, max_side, reader, wanted if short else None))
        shown = frame.pts
    if not pictures:
        raise reader.unreadable()
    return pictures


def most_frames(reader: Packets, length: float) -> int:
    """Return how many frames the video track can give, at most: its frame count in the
    headers, else its length times its frame rate, and never more packets than may be read."""
    stream = reader.stream
    if stream.frames and stream.frames > 0:
        return min(int(stream.frames), reader.limit)
    rate = stream.average_rate or stream.guessed_rate
    if rate and rate > 0 and length > 0:
        return min(math.ceil(length * rate) + 1, reader.limit)
    return reader.limit


def uniform_times(length: float, count: int) -> list[float]:
    """Return the centres of `count` equal slices of `length` seconds."""
    return [(index + 0.5) * length / count for index in range(count)]


class _Seeker:
    """Finds the frame shown at a time, seeking only when that is cheaper than decoding on.

    The frame shown at a time is the last one that starts at or before it (the first frame
    when the time comes before every frame). Decoding forward to it reads one frame past it,
    kept in `upcoming` for the next time asked. Each time asked comes with a share of pixels
    to decode: past it, the last frame reached is returned and `short` is set.
    """

    def __init__(self, reader: Packets) -> None:
        self.reader = reader
        self.frames: Iterator[VideoFrame] | None = None
        self.current: VideoFrame | None = None
        self.upcoming: VideoFrame | None = None
        self.ended = False
        self.short = False
        stream = reader.stream
        # The index the demuxer holds (every sample of an MP4, the cues of a Matroska file):
        # the key frames' timestamps, to tell whether a seek would skip any work.
        entries = stream.index_entries or ()
        self.keys = sorted(e.timestamp for e in entries if e.is_keyframe)

    def at(self, seconds: float, share: int) -> VideoFrame | None:
        """Return the frame shown at `seconds` (times asked only grow), else the last one;
        or the last frame reached once decoding on would pass `share` pixels (`short`)."""
        self.short = False
        if self.ended or (self.upcoming is not None and self._after(self.upcoming, seconds)):
            return self.current
        if self.frames is None or not self._decoding_on_is_cheaper(seconds):
            self._seek(seconds)
        assert self.frames is not None
        stop = self.reader.pixels + share
        pending = [self.upcoming] if self.upcoming is not None else []
        self.upcoming = None
        for frame in itertools.chain(pending, self.frames):
            if self.reader.seconds(frame) is None:
                continue
            if self._after(frame, seconds) and self.current is not None:
                self.upcoming = frame
                return self.current
            self.current = frame
            if self.reader.pixels + self.reader.frame_pixels() > stop:
                self.short = True  # the next packet would pass this time's share
                return self.current
        self.ended = True
        return self.current

    def _after(self, frame: VideoFrame, seconds: float) -> bool:
        time = self.reader.seconds(frame)
        return time is not None and time > seconds + _SLACK

    def _stamp(self, seconds: float) -> int:
        base = self.reader.stream.time_base
        return int((seconds + self.reader.origin) / base) if base else 0

    def _decoding_on_is_cheaper(self, seconds: float) -> bool:
        """Whether no key frame lies between the last frame decoded and `seconds`."""
        last = self.upcoming or self.current
        if last is None or last.pts is None or not self.keys:
            return False
        at = bisect.bisect_right(self.keys, self._stamp(seconds)) - 1
        return at < 0 or self.keys[at] <= last.pts

    def _seek(self, seconds: float) -> None:
        reader = self.reader
        try:
            reader.container.seek(
                self._stamp(seconds), stream=reader.stream, backward=True, any_frame=False
            )
        except reader.failures as exc:  # an unseekable file is decoded on from where it is
            reader.note(exc)
            if self.frames is not None:
                return
        self.frames = reader.frames()
        self.current = self.upcoming = None


def _scene_times(reader: Packets, length: float, count: int) -> list[float]:
    """Return the times of the `count` key frames that differ most from the key frame before
    them (the first always counts), filled up with evenly spaced times when fewer differ."""
    limit = _KEYS_PER_FRAME * count
    spacing = length / limit if length > 0 else 0.0
    context = reader.stream.codec_context
    context.skip_frame = "NONKEY"
    best: list[tuple[float, int, float]] = []  # a heap of (score, order, time)
    order = itertools.count()
    previous: bytes | None = None
    last = -spacing - 1.0
    examined = 0
    try:
        reader.container.seek(0, stream=reader.stream)
    except reader.failures as exc:
        reader.note(exc)
    for packet in reader.read():
        if packet.size and not packet.is_keyframe:
            continue
        stamp = packet.pts
        if stamp is not None and packet.time_base is not None and packet.size:
            at = float(stamp * packet.time_base) - reader.origin
            if at - last < spacing:
                continue
            last = at
        if reader.pixels + reader.frame_pixels() > reader.budget // 2:
            break  # half the budget for judging scenes, the rest for the frames taken
        for frame in reader.decode(packet):
            time = reader.seconds(frame)
            if time is None:
                continue
            thumb = _thumb(frame)
            score = float("inf") if previous is None else _difference(previous, thumb)
            previous = thumb
            examined += 1
            if score >= _CUT:
                heapq.heappush(best, (score, -next(order), time))
                if len(best) > count:
                    heapq.heappop(best)
        if examined >= limit:
            break
    context.skip_frame = "DEFAULT"
    chosen = sorted(time for _, _, time in best)
    return sorted(chosen + _fill(chosen, uniform_times(length, count), count - len(chosen)))


def _fill(chosen: list[float], candidates: list[float], wanted: int) -> list[float]:
    """Return `wanted` of `candidates`, each the farthest from every time taken before it."""
    # Each candidate's distance to the nearest time taken, lowered as times are picked.
    nearest = [min((abs(t - c) for c in chosen), default=math.inf) for t in candidates]
    picked: list[float] = []
    while len(picked) < min(wanted, len(candidates)):
        far = max(range(len(candidates)), key=nearest.__getitem__)
        time = candidates[far]
        picked.append(time)
        nearest = [min(d, abs(t - time)) for t, d in zip(candidates, nearest, strict=True)]
        nearest[far] = -math.inf
    return picked


def _thumb(frame: VideoFrame) -> bytes:
    """Return the grey pixels of a small copy of a frame, row after row."""
    width, height = _THUMB
    small = frame.reformat(width=width, height=height, format="gray", interpolation="AREA")
    plane = small.planes[0]
    raw, stride = bytes(plane), plane.line_size
    return b"".join(raw[row * stride : row * stride + width] for row in range(height))


def _difference(first: bytes, second: bytes) -> float:
    """Return the mean absolute difference of two thumbnails, 0 to 255."""
    return sum(abs(a - b) for a, b in zip(first, second, strict=True)) / max(1, len(first))


_TURNS = {90: "ROTATE_90", 180: "ROTATE_180", 270: "ROTATE_270"}


def _picture(
    frame: VideoFrame,
    seconds: float,
    max_side: int | None,
    reader: Packets,
    wanted: float | None = None,
) -> Converted:
    """Encode one frame as an upright JPEG at its displayed aspect ratio; `wanted`: the time
    asked for, when the frame stops short of it (key frames too far apart)."""
    from PIL import Image

    context = reader.stream.codec_context
    width, height = stored_display(reader.stream)
    if (frame.width, frame.height) != (context.width, context.height):
        width, height = frame.width, frame.height  # the size changed inside the stream
    scale = min(1.0, max_side / max(width, height)) if max_side else 1.0
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    rgb = frame.reformat(width=size[0], height=size[1], format="rgb24", interpolation="AREA")
    plane = rgb.planes[0]
    # Read from the plane itself: a bytes() copy would be one more picture of its size (Pillow
    # reads any buffer; its stubs name only bytes and arrays).
    pixels: Any = memoryview(plane)
    picture = Image.frombuffer("RGB", size, pixels, "raw", "RGB", plane.line_size, 1)
    turn = _TURNS.get(frame.rotation % 360)
    if turn is not None:
        picture = picture.transpose(Image.Transpose[turn])
        width, height = height, width
    label = clock(seconds)
    steps = [f"frame at {label}"]
    if wanted is not None:
        steps[0] += f" (for {clock(wanted)}: key frames too far apart to decode up to it)"
    if scale < 1.0:
        steps.append(f"resize {width}x{height}→{picture.width}x{picture.height}")
    return Converted(
        media_type="image/jpeg",
        data=encode_pil(picture, "JPEG"),
        steps=tuple(steps),
        width=picture.width,
        height=picture.height,
        label=label,
    )
