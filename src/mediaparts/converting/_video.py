"""Video with PyAV: what a video holds (`video_info`), and the bounded reading of its packets
and frames that frame sampling (`_frames`) and fitting (`_fit_video`) share.

Every read goes through `Packets`: at most `_MAX_PACKETS` packets and `TransformPolicy.timeout`
seconds per transform, no timestamp past `max_seconds`, and no more decoded pixels than the
input's size buys (`TransformPolicy.video_budget`: pixels per input byte, above a floor),
however the container lies about its length (a "billion-frame" sample table, timestamps that
never advance, a file that seeks backwards forever, a single key frame an hour long).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from mediaparts import formats
from mediaparts._errors import InvalidMedia, MediaTooLarge
from mediaparts.converting._av import AV_ERRORS, open_media, seconds_of
from mediaparts.converting._extras import Deadline
from mediaparts.converting._policy import TransformPolicy

if TYPE_CHECKING:
    from av.audio.stream import AudioStream
    from av.container import InputContainer
    from av.packet import Packet
    from av.video.frame import VideoFrame
    from av.video.stream import VideoStream

__all__ = [
    "OverBudget",
    "Packets",
    "VideoInfo",
    "clock",
    "first_audio",
    "first_video",
    "length_of",
    "short_name",
    "video_info",
]

# No real video has more packets per second of its length than this (240 fps video and its
# audio); a sample table that claims more is refused once this many have been read.
_PACKETS_PER_SECOND = 480
_MIN_PACKETS = 100_000
# A frame costs at least as much as 256x256 pixels: 60,000 frames of 64x64 in 1.2 MB took
# 1.7 s to decode (about 25 us each, whatever their size).
_LEAST_FRAME = 256 * 256


class OverBudget(MediaTooLarge):
    """Decoding passed the pixels the input's size buys (`TransformPolicy.video_budget`)."""


@dataclass(frozen=True, slots=True)
class VideoInfo:
    """What a video holds, read from its container (and its first frame, for the rotation).

    Attributes:
        seconds: The duration, when the container says.
        width: The width as displayed: after the rotation and the pixel aspect ratio.
        height: The height as displayed.
        fps: The average frame rate, when known.
        container: The container's short name, from its media type (`"mp4"`, `"mkv"`).
        video_codec: FFmpeg's name of the video codec (`"h264"`, `"vp9"`).
        audio_codec: The first audio track's codec, or None when there is no audio.
        frames: The number of video frames, when the container says.
        rotation: Degrees the stored picture is turned counter-clockwise to display it.
    """

    seconds: float | None
    width: int
    height: int
    fps: float | None
    container: str
    video_codec: str
    audio_codec: str | None
    frames: int | None = None
    rotation: int = 0


def video_info(data: bytes, media_type: str, policy: TransformPolicy) -> VideoInfo:
    """Read what a video holds, without decoding more than its first frame.

    Args:
        data: The whole file.
        media_type: Its detected type (`"video/mp4"`).
        policy: The caps (`max_seconds`, `max_pixels`, `timeout`).

    Raises:
        CodecUnavailable: PyAV is not installed (the `[av]` extra).
        InvalidMedia: FFmpeg cannot read it, or it has no video track.
        MediaTooLarge: Over a cap of `policy`.
    """
    doing = f"read {media_type}"
    container = open_media(data, media_type, policy, doing)
    try:
        stream = first_video(container, media_type)
        reader = Packets(container, stream, media_type, policy, doing, size=len(data))
        rotation = 0
        for frame in reader.frames():
            rotation = frame.rotation
            break
        width, height = displayed(stream, rotation)
        audio = first_audio(container)
        rate = stream.average_rate or stream.guessed_rate
        return VideoInfo(
            seconds=seconds_of(container),
            width=width,
            height=height,
            fps=float(rate) if rate else None,
            container=short_name(media_type),
            video_codec=stream.codec_context.codec.canonical_name,
            audio_codec=audio.codec_context.codec.canonical_name if audio else None,
            frames=stream.frames or None,
            rotation=rotation % 360,
        )
    finally:
        container.close()


def short_name(media_type: str) -> str:
    """Return a container's name in steps: its usual extension (`"mkv"` for
    video/x-matroska), else the subtype."""
    record = formats.get(formats.by_alias(media_type))
    if record is not None and record.extensions:
        return record.extensions[0].lstrip(".")
    return media_type.rpartition("/")[2]


def clock(seconds: float) -> str:
    """Return a timestamp as `m:ss.mmm`, or `h:mm:ss.mmm` from an hour on ("0:01.500")."""
    millis = max(0, round(seconds * 1000))
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    whole, millis = divmod(millis, 1000)
    if hours:
        return f"{hours}:{minutes:02d}:{whole:02d}.{millis:03d}"
    return f"{minutes}:{whole:02d}.{millis:03d}"


def first_video(container: InputContainer, media_type: str) -> VideoStream:
    """Return the first video track, or raise `InvalidMedia` when there is none."""
    if not container.streams.video:
        raise InvalidMedia(f"this {media_type} has no video track", media_type=media_type)
    stream = container.streams.video[0]
    if stream.codec_context is None:  # FFmpeg has no decoder for its codec
        raise InvalidMedia(
            f"this {media_type} has a video track in a codec FFmpeg cannot decode",
            media_type=media_type,
        )
    if stream.codec_context.width <= 0 or stream.codec_context.height <= 0:
        # FFmpeg learns some codecs' size by decoding a first frame, which it may not make
        # larger than the transform's frame cap (`open_media`).
        raise InvalidMedia(
            f"this {media_type} has no frame size: none in its headers, and no first frame "
            "within the pixels one frame may have (TransformPolicy.max_pixels, and an eighth "
            "of the budget of TransformPolicy.video_pixels_per_byte)",
            media_type=media_type,
        )
    return stream


def first_audio(container: InputContainer) -> AudioStream | None:
    """Return the first audio track FFmpeg can decode, or None."""
    for stream in container.streams.audio:
        if stream.codec_context is not None:
            return stream
    return None


def displayed(stream: VideoStream, rotation: int) -> tuple[int, int]:
    """Return a track's (width, height) as shown: pixel aspect ratio and rotation applied."""
    width, height = stored_display(stream)
    return (height, width) if rotation % 180 else (width, height)


def stored_display(stream: VideoStream) -> tuple[int, int]:
    """Return a track's frame size with its pixel aspect ratio applied, before rotation."""
    context = stream.codec_context
    width, height = context.width, context.height
    aspect = context.sample_aspect_ratio or stream.sample_aspect_ratio
    # A sample aspect ratio far from 1 is a broken header, not anamorphic video.
    if aspect and aspect != 1 and Fraction(1, 4) <= aspect <= 4:
        width = max(1, round(width * aspect))
    return width, height


def length_of(container: InputContainer, reader: Packets) -> float:
    """Return the video track's length in seconds, from the headers, else from its packets."""
    stream = reader.stream
    if stream.duration and stream.time_base:
        return float(stream.duration * stream.time_base)
    seconds = seconds_of(container)
    if seconds:
        start = (container.start_time or 0) / 1_000_000
        return max(0.0, start + seconds - reader.origin)
    # No duration in the headers: the last timestamp, reading packets without decoding them.
    last = 0.0
    for packet in reader.read():
        stamp = packet.pts if packet.pts is not None else packet.dts
        if stamp is not None and packet.time_base is not None:
            last = max(last, float(stamp * packet.time_base) - reader.origin)
    return last


def origin_of(stream: VideoStream) -> float:
    """Return the time of a track's first frame, in seconds: timestamps count from it."""
    if stream.start_time is not None and stream.time_base is not None:
        return float(stream.start_time * stream.time_base)
    return 0.0


class Packets:
    """One transform's reading of a container, bounded however the container lies.

    Counts what it reads (`packets`), decodes (`decoded`) and the pixels that cost
    (`pixels`); raises `MediaTooLarge` past `_MAX_PACKETS`-per-policy packets, past
    `policy.timeout`, at a timestamp past `policy.max_seconds`, or past `budget` pixels (the
    work an input of `size` bytes may cause: `policy.video_budget(size)`).
    """

    def __init__(
        self,
        container: InputContainer,
        stream: VideoStream,
        media_type: str,
        policy: TransformPolicy,
        doing: str,
        deadline: Deadline | None = None,
        *,
        size: int,
    ) -> None:
        self.container = container
        self.stream = stream
        self.media_type = media_type
        self.policy = policy
        self.deadline = deadline or Deadline(policy.timeout, doing, media_type)
        self.packets = 0
        self.decoded = 0
        self.pixels = 0
        self.budget = policy.video_budget(size)
        self.size = size
        # A small file of huge frames is refused before its first frame decodes, and the
        # decoder itself refuses a frame over the cap when the size changes inside the stream.
        self.frame_cap = policy.video_frame_cap(size)
        self.origin = origin_of(stream)
        self.limit = max(_MIN_PACKETS, int(policy.max_seconds * _PACKETS_PER_SECOND))
        self.errors = 0
        self.last_error: BaseException | None = None
        import av

        # What FFmpeg raises on a broken packet: its own errors and PyAV's Python ones.
        self.failures: tuple[type[BaseException], ...] = (av.FFmpegError, *AV_ERRORS)
        context = stream.codec_context
        self.check_size(context.width or 0, context.height or 0, "before decoding")
        if not context.is_open:
            context.options = {**context.options, "max_pixels": str(self.frame_cap)}

    def read(self, *streams: object) -> Iterator[Packet[Any]]:
        """Yield the packets of the video track (and of `streams`), from where the container
        stands, checking the caps before each."""
        wanted = [self.stream, *streams]
        try:
            for packet in self.container.demux(wanted):
                self.count(packet)
                yield packet
        except self.failures as exc:
            # A packet FFmpeg cannot read ends the file here, as a player would.
            self.note(exc)

    def count(self, packet: Packet[Any]) -> None:
        """Check the caps for one more packet."""
        self.packets += 1
        if self.packets > self.limit:
            raise MediaTooLarge(
                f"this {self.media_type} has more than {self.limit:,} packets for "
                f"TransformPolicy.max_seconds={self.policy.max_seconds:,g}; refused",
                media_type=self.media_type,
            )
        self.deadline.check()
        stamp = packet.pts if packet.pts is not None else packet.dts
        if stamp is not None and packet.time_base is not None:
            seconds = float(stamp * packet.time_base) - self.origin
            if seconds > self.policy.max_seconds:
                raise MediaTooLarge(
                    f"this {self.media_type} has a frame at {seconds:,.0f} s, past "
                    f"TransformPolicy.max_seconds={self.policy.max_seconds:,g}; refused",
                    media_type=self.media_type,
                )

    def note(self, exc: BaseException) -> None:
        """Remember a packet FFmpeg could not read or decode; decoding goes on past it."""
        self.errors += 1
        self.last_error = exc

    def check_size(self, width: int, height: int, when: str) -> None:
        """Refuse a frame over `frame_cap` pixels (an eighth of the budget, or `max_pixels`)."""
        if width * height <= self.frame_cap:
            return
        if self.frame_cap == self.policy.max_pixels:
            cap = f"TransformPolicy.max_pixels={self.policy.max_pixels:,}"
        else:
            cap = (
                f"an eighth of the {self.budget:,} decoded pixels its {self.size:,} bytes may "
                f"cost (TransformPolicy.video_pixels_per_byte="
                f"{self.policy.video_pixels_per_byte:,})"
            )
        raise OverBudget(
            f"this {self.media_type} has {width}x{height} frames, over {cap}; refused {when}",
            size=width * height,
            limit=self.frame_cap,
            media_type=self.media_type,
        )

    def frame_pixels(self) -> int:
        """Return what one frame at the track's current coded size costs: its pixels, and
        never less than `_LEAST_FRAME` (decoding a tiny frame costs its packet's handling)."""
        context = self.stream.codec_context
        return max(_LEAST_FRAME, (context.width or 0) * (context.height or 0))

    def charge(self, pixels: int) -> None:
        """Count `pixels` of work (decoded or encoded); past the budget, `MediaTooLarge`."""
        self.pixels += pixels
        if self.pixels > self.budget:
            raise self.over_budget()

    def over_budget(self) -> OverBudget:
        """The error for work past the budget, naming it and the policy field that sets it."""
        return OverBudget(
            f"this {self.media_type} needs more than {self.budget:,} decoded pixels, the work "
            f"{self.size:,} bytes may cost (TransformPolicy.video_pixels_per_byte="
            f"{self.policy.video_pixels_per_byte:,}); refused",
            size=self.pixels,
            limit=self.budget,
            media_type=self.media_type,
        )

    def decode(self, packet: Packet[Any]) -> list[VideoFrame]:
        """Decode one packet of the video track; a broken one gives no frame.

        Every packet with data costs a frame at the track's coded size (checked against the
        budget before it is decoded), or the frames it gives when they are larger (a size
        changed inside the stream).
        """
        before = self.frame_pixels() if packet.size else 0
        if self.pixels + before > self.budget:
            raise self.over_budget()
        context = self.stream.codec_context
        try:
            frames = context.decode(packet)
        except self.failures as exc:
            # The decoder refuses a frame over the cap (its `max_pixels`): say so, not "broken".
            self.check_size(context.width, context.height, "(its size changed inside the stream)")
            self.note(exc)
            self.charge(before)
            return []
        for frame in frames:
            self.check_size(frame.width, frame.height, "(its size changed inside the stream)")
        self.charge(max(before, sum(f.width * f.height for f in frames)))
        self.decoded += len(frames)
        return frames

    def frames(self, only_keys: bool = False) -> Iterator[VideoFrame]:
        """Decode forward from where the container stands (only key frames when asked)."""
        for packet in self.read():
            if only_keys and not packet.is_keyframe and packet.size:
                continue
            yield from self.decode(packet)

    def seconds(self, frame: VideoFrame) -> float | None:
        """Return a frame's time from the track's start, or None when it has none."""
        time = frame.time
        return None if time is None else time - self.origin

    def unreadable(self) -> InvalidMedia:
        """The error for a video no frame of which could be decoded."""
        reason = str(self.last_error)[:120] if self.last_error else "no frame in it"
        return InvalidMedia(
            f"this {self.media_type} has no frame FFmpeg can decode: {reason}",
            media_type=self.media_type,
        )
