"""Fit a video to a provider that takes video: a container it accepts, within its byte limit.

A video in a container the provider refuses is remuxed to MP4 (its packets copied as they
are) when MP4 can hold its codecs, else transcoded to H.264 and AAC. A video over the byte
limit is transcoded at the bit rate that fits its duration, at a smaller size as that rate
falls (720p, 480p, 360p: `_video_plan.LADDER`); below its floor it is refused.
A transcode always writes MP4 (or QuickTime when the provider takes no MP4): H.264 in MP4 is
what every provider that takes video reads.
"""

from __future__ import annotations

import contextlib
import io
import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from mediaparts._errors import InvalidMedia, MediaTooLarge, UnsupportedMediaType
from mediaparts.converting._audio_budget import DECODED_PACKET_SAMPLES, SampleBudget
from mediaparts.converting._av import open_media, seconds_of
from mediaparts.converting._extras import Deadline
from mediaparts.converting._policy import TransformPolicy
from mediaparts.converting._result import Converted
from mediaparts.converting._video import (
    Packets,
    displayed,
    first_audio,
    first_video,
    length_of,
    short_name,
    stored_display,
)
from mediaparts.converting._video_plan import CRF, Recipe, recipe_for, too_large

if TYPE_CHECKING:
    from av.audio.frame import AudioFrame
    from av.audio.stream import AudioStream
    from av.container import InputContainer, OutputContainer
    from av.packet import Packet

__all__ = ["fit_video"]

# MP4 carries these as they are (ISO/IEC 14496-14 and the codecs' own MP4 mappings), so a
# video in another container is remuxed, not transcoded, when its tracks are among them.
_COPY_VIDEO = frozenset({"h264", "hevc", "av1", "mpeg4"})
_COPY_AUDIO = frozenset({"aac", "mp3", "opus"})
# What fit_video writes, in order of preference, and FFmpeg's muxer for each.
_MUXERS = {"video/mp4": "mp4", "video/quicktime": "mov"}
# What copying one packet in a remux costs, in pixels of the decode budget: 13 us each
# (130,000 one-byte Opus packets in a 920 KB MKV took 1.7 s), at HEVC's 2.2 ns a pixel.
_COPIED_PACKET_PIXELS = 6_000


# The share of the byte budget given to the streams: the container's own boxes, and a single
# pass of x264 overshooting its target rate, take the rest.
_MARGIN = 0.9
# A transcode that overshoots is tried again at a rate scaled down by the overshoot.
_TRIES = 3


class _Overshoot(Exception):
    """A transcode passed its byte limit; carries the size it was heading for."""

    def __init__(self, projected: int) -> None:
        super().__init__(projected)
        self.projected = projected


def fit_video(
    data: bytes,
    media_type: str,
    accepted: tuple[str, ...],
    policy: TransformPolicy,
    *,
    max_bytes: int | None = None,
    measure: Literal["raw", "base64"] = "raw",
) -> Converted:
    """Make a video one the provider takes: an accepted container, within `max_bytes`.

    Returns the input itself (no steps; nothing decoded, so no width or height) when it
    already is; a remux to MP4 (`"remux mkv→mp4"`) when only the container is refused and MP4
    holds its codecs; else an H.264 + AAC MP4 (`"transcode vp9→h264 480p 600k"`), at the size
    and rate that fit `max_bytes`. A remux or transcode carries its displayed size (rotation
    kept in the header) and its duration.

    Args:
        data: The whole file.
        media_type: Its detected type (`"video/x-matroska"`).
        accepted: The video types the provider takes.
        policy: The caps (`max_seconds`, `max_pixels`, `timeout`).
        max_bytes: The provider's limit, or None.
        measure: Whether the limit counts the raw bytes or their base64 text.

    Raises:
        CodecUnavailable: PyAV is not installed (the `[av]` extra).
        InvalidMedia: FFmpeg cannot read it, or it has no video track.
        UnsupportedMediaType: The provider takes neither MP4 nor QuickTime.
        MediaTooLarge: Over a cap of `policy`, or even 360p at the least rate cannot fit.
    """
    doing = f"fit {media_type} to a provider that takes {', '.join(accepted) or 'no video'}"
    limit = None if max_bytes is None else _raw_limit(max_bytes, measure)
    container = open_media(data, media_type, policy, doing)
    try:
        stream = first_video(container, media_type)
        seconds = seconds_of(container)
        if media_type in accepted and (limit is None or len(data) <= limit):
            return Converted(media_type, data, seconds=seconds)
        target = next((t for t in _MUXERS if t in accepted), None)
        if target is None:
            raise UnsupportedMediaType(
                f"cannot make {media_type} into a video this provider takes "
                f"({', '.join(accepted) or 'none'}): mediaparts writes MP4 or QuickTime",
                media_type=media_type,
                accepted=accepted,
            )
        audio = first_audio(container)
        video_codec = stream.codec_context.codec.canonical_name
        copyable = video_codec in _COPY_VIDEO and (
            audio is None or audio.codec_context.codec.canonical_name in _COPY_AUDIO
        )
        if copyable and (limit is None or len(data) <= limit):
            reader = Packets(container, stream, media_type, policy, doing, size=len(data))
            made, rotation = _remux(reader, audio, target)
            if limit is None or len(made) <= limit:
                step = f"remux {short_name(media_type)}→{short_name(target)}"
                width, height = displayed(stream, rotation)
                return Converted(
                    target, made, steps=(step,), seconds=seconds, width=width, height=height
                )
        fresh = not (copyable and (limit is None or len(data) <= limit))  # nothing read yet
        return _shrink(
            container, media_type, target, policy, limit, max_bytes, doing, fresh, len(data)
        )
    except MemoryError as exc:  # a frame, or the output, larger than the memory left
        raise MediaTooLarge(
            f"fitting this {media_type} ran out of memory; refused", media_type=media_type
        ) from exc
    finally:
        container.close()


def _raw_limit(max_bytes: int, measure: Literal["raw", "base64"]) -> int:
    """Return the most raw bytes whose measure stays within `max_bytes`."""
    return max_bytes // 4 * 3 if measure == "base64" else max_bytes


def _remux(reader: Packets, audio: AudioStream | None, target: str) -> tuple[bytes, int]:
    """Copy the first video and audio tracks' packets into a new container of `target`;
    return its bytes, and the rotation of the first frame (decoded to read it). Each packet
    copied is charged to the decode budget, so a megabyte of tiny packets stops early."""
    import av

    buffer = io.BytesIO()
    out: OutputContainer = av.open(buffer, "w", format=_MUXERS[target])
    try:
        video_out = out.add_stream_from_template(reader.stream)
        audio_out = out.add_stream_from_template(audio) if audio is not None else None
        extra = (audio,) if audio is not None else ()
        rotation: int | None = None
        for packet in reader.read(*extra):
            if packet.dts is None and packet.pts is None:
                continue  # the flush packet demux ends with
            reader.charge(_COPIED_PACKET_PIXELS)
            if rotation is None and packet.stream.index == reader.stream.index:
                rotation = next((f.rotation % 360 for f in reader.decode(packet)), None)
            packet.stream = video_out if packet.stream.index == reader.stream.index else audio_out
            out.mux(packet)
        _close(out, reader)
    except reader.failures as exc:
        raise InvalidMedia(
            f"this {reader.media_type} could not be remuxed to {short_name(target)}: "
            f"{str(exc)[:120]}",
            media_type=reader.media_type,
        ) from exc
    finally:
        _discard(out, reader)
    return buffer.getvalue(), rotation or 0


def _discard(out: OutputContainer, reader: Packets) -> None:
    """Close an output container after an error (closing twice does nothing)."""
    with contextlib.suppress(*reader.failures):
        out.close()


def _close(out: OutputContainer, reader: Packets) -> None:
    """Close an output container; what FFmpeg says while writing its end is InvalidMedia."""
    try:
        out.close()
    except reader.failures as exc:
        raise InvalidMedia(
            f"this {reader.media_type} could not be written again: {str(exc)[:120]}",
            media_type=reader.media_type,
        ) from exc


def _shrink(
    container: InputContainer,
    media_type: str,
    target: str,
    policy: TransformPolicy,
    limit: int | None,
    max_bytes: int | None,
    doing: str,
    fresh: bool,
    input_size: int,
) -> Converted:
    """Transcode to H.264 + AAC at the rate `limit` allows, trying again on an overshoot.

    `fresh`: nothing was read from `container` yet; `input_size`: the input's bytes, whose decode
    budget (`policy.video_budget`) every try shares: each frame costs its pixels decoded and
    its pixels encoded. The audio track is transcoded too, under the audio sample budget of
    the same bytes (`SampleBudget`), also shared by every try: hours of silent FLAC beside
    one frame would otherwise be decoded and encoded whole, whatever the input's size.
    """
    stream = first_video(container, media_type)
    audio = first_audio(container)
    size = stored_display(stream)  # written with square pixels
    deadline = Deadline(policy.timeout, doing, media_type)  # one budget for every try
    reader = Packets(container, stream, media_type, policy, doing, deadline, size=input_size)
    _check_work(reader, seconds_of(container))
    sound = SampleBudget.of(input_size, media_type, policy)
    if audio is not None:
        context = audio.codec_context
        sound.check_declared(
            _track_seconds(audio) or seconds_of(container),
            (context.sample_rate or 0) * (context.channels or 1),
        )
    if not fresh:
        _rewind(container, reader)
    # The display matrix goes into the header, written before the first frame is decoded
    # when an audio packet comes first: so the rotation is read from the first frame now.
    rotation = next((frame.rotation % 360 for frame in reader.frames()), 0)
    seconds = seconds_of(container) or 0.0
    if not seconds:  # no duration in the headers: the last timestamp, read from the packets
        _rewind(container, reader)
        seconds = length_of(container, reader)
    budget = None if limit is None else limit * 8 * _MARGIN / max(seconds, 0.1) / 1000
    for _ in range(_TRIES):
        plan = recipe_for(size, budget, audio is not None, media_type, seconds, max_bytes)
        spent = reader.pixels
        reader = Packets(container, stream, media_type, policy, doing, deadline, size=input_size)
        reader.pixels = spent  # one budget for every try
        _rewind(container, reader)
        try:
            made = _transcode(reader, audio, sound, target, plan, limit, seconds, rotation)
        except _Overshoot as over:
            projected = over.projected
        else:
            projected = len(made)
            if limit is None or projected <= limit:
                break
        assert budget is not None
        assert limit is not None
        budget *= limit / projected * 0.95
    else:
        raise too_large(media_type, seconds, max_bytes, f"{_TRIES} tries came out larger")
    steps = []
    if target != media_type:
        steps.append(f"{short_name(media_type)}→{short_name(target)}")
    steps.append(plan.words(stream.codec_context.codec.canonical_name))
    if audio is not None:
        name = audio.codec_context.codec.canonical_name
        steps.append(f"audio {name}→aac {plan.audio_kbps}k")
    width, height = (plan.height, plan.width) if rotation % 180 else (plan.width, plan.height)
    return Converted(
        target, made, steps=tuple(steps), seconds=seconds or None, width=width, height=height
    )


def _check_work(reader: Packets, seconds: float | None) -> None:
    """Refuse before decoding a transcode whose headers show more frames than the budget
    buys: each frame is decoded (and encoded again), at least its own pixels each."""
    stream = reader.stream
    frames = stream.frames or 0
    rate = stream.average_rate or stream.guessed_rate
    if not frames and seconds and rate:
        frames = math.ceil(seconds * rate)
    if frames * reader.frame_pixels() > reader.budget:
        raise MediaTooLarge(
            f"transcoding this {reader.media_type} decodes and encodes {frames:,} frames of "
            f"{reader.frame_pixels():,} pixels, more than the {reader.budget:,} its "
            f"{reader.size:,} bytes may cost (TransformPolicy.video_pixels_per_byte="
            f"{reader.policy.video_pixels_per_byte:,}); refused before decoding",
            size=frames * reader.frame_pixels(),
            limit=reader.budget,
            media_type=reader.media_type,
        )


def _rewind(container: InputContainer, reader: Packets) -> None:
    """Go back to the start for another try; a container that cannot is InvalidMedia."""
    try:
        container.seek(0)
    except reader.failures as exc:
        raise InvalidMedia(
            f"this {reader.media_type} cannot be read again from its start: {str(exc)[:120]}",
            media_type=reader.media_type,
        ) from exc


def _track_seconds(stream: AudioStream) -> float | None:
    """The duration a track's own header declares, or None."""
    if stream.duration is not None and stream.duration > 0 and stream.time_base is not None:
        return float(stream.duration * stream.time_base)
    return None


def _transcode(
    reader: Packets,
    audio: AudioStream | None,
    sound_budget: SampleBudget,
    target: str,
    plan: Recipe,
    limit: int | None,
    seconds: float,
    rotation: int,
) -> bytes:
    """Encode the video (and audio) track by `plan`, keeping its `rotation` in the header;
    the audio's packets and samples are charged to `sound_budget`.

    Raises:
        _Overshoot: The output passed `limit` by a third before the end.
        MediaTooLarge: The audio track passed `sound_budget`.
    """
    import av

    stream = reader.stream
    buffer = io.BytesIO()
    out: OutputContainer = av.open(buffer, "w", format=_MUXERS[target])
    try:
        rate = stream.average_rate or stream.guessed_rate or Fraction(30)
        video = out.add_stream("libx264", rate=rate)
        video.width, video.height, video.pix_fmt = plan.width, plan.height, "yuv420p"
        video.codec_context.time_base = stream.time_base or Fraction(1, 90_000)
        options: dict[str, object] = {"preset": "veryfast"}
        if plan.video_kbps:
            kbps = plan.video_kbps
            video.bit_rate = kbps * 1000
            options["x264-params"] = f"vbv-maxrate={kbps * 3 // 2}:vbv-bufsize={kbps * 2}"
        else:
            options["crf"] = CRF
        video.options = options
        if rotation:
            video.set_display_rotation(rotation)
        sound = None
        if audio is not None:
            sound = out.add_stream("aac", rate=_sample_rate(audio.codec_context.sample_rate))
            sound.bit_rate = plan.audio_kbps * 1000
            sound.layout = "mono" if plan.channels == 1 else "stereo"
        extra = (audio,) if audio is not None else ()
        last = -1
        started = False
        for packet in reader.read(*extra):
            if audio is not None and sound is not None and packet.stream.index == audio.index:
                for sample in _decode_audio(reader, audio, packet, sound_budget, plan.channels):
                    sample.pts = None  # the encoder numbers its own output
                    out.mux(sound.encode(sample))
                continue
            for picture in reader.decode(packet):
                started = True
                if picture.pts is None or picture.pts <= last:
                    continue
                last = picture.pts
                reader.charge(plan.width * plan.height)  # the encoder's work
                frame = picture.reformat(plan.width, plan.height, "yuv420p")
                frame.pts, frame.time_base = picture.pts, picture.time_base
                frame.pict_type = av.video.frame.PictureType.NONE
                out.mux(video.encode(frame))
            _check_course(buffer, limit, reader, picture_time=last, seconds=seconds)
        out.mux(video.encode(None))
        if sound is not None:
            out.mux(sound.encode(None))
        _close(out, reader)
    except reader.failures as exc:
        raise reader.unreadable() from exc
    finally:
        _discard(out, reader)
    if not started:
        raise reader.unreadable()
    return buffer.getvalue()


def _decode_audio(
    reader: Packets, audio: AudioStream, packet: Packet[Any], budget: SampleBudget, channels: int
) -> list[AudioFrame]:
    """Decode one audio packet, charging `budget` for it and for its samples on the wider
    side (its channels, or the `channels` encoded); a broken one gives no sound."""
    budget.charge(DECODED_PACKET_SAMPLES)
    try:
        frames = audio.codec_context.decode(packet)
    except reader.failures as exc:
        reader.note(exc)
        return []
    for frame in frames:
        budget.charge(frame.samples * max(len(frame.layout.channels), channels))
    return frames


def _check_course(
    buffer: io.BytesIO, limit: int | None, reader: Packets, picture_time: int, seconds: float
) -> None:
    """Stop a transcode early once its output is a third over `limit`."""
    if limit is None or buffer.tell() <= limit * 4 // 3:
        return
    base = reader.stream.time_base
    done = float(picture_time * base) - reader.origin if base and picture_time > 0 else 0.0
    share = max(done / seconds, 0.01) if seconds else 1.0
    raise _Overshoot(math.ceil(buffer.tell() / min(share, 1.0)))


def _sample_rate(rate: int) -> int:
    """AAC's nearest standard rate at or under 48 kHz."""
    for standard in (48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000):
        if rate >= standard:
            return standard
    return 8000
