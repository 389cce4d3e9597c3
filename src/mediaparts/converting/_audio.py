"""Audio for providers that cannot take the original: read its facts, remux or transcode it.

`audio_info` reads an input's first audio stream (of an audio file or a video) from its
container: duration, codec, channels, sample rate, bit rate. `convert_audio` turns that stream
into one of five targets: MP3, WAV, AAC in ADTS, Ogg (Opus) or FLAC. It copies the stream when
its codec fits the target (a remux: exact and fast), else transcodes it; with a byte limit it
goes down a ladder (lower bit rates, then mono, then 16 kHz, where speech is still clear) until
the output fits, or says that even the last rung does not.

Everything runs in process with PyAV (the `[av]` extra), from memory, under the policy's caps:
the seconds decoded (counted from the samples, since a header can lie), and the wall time,
checked between packets. Frames are encoded as they are decoded, never held. MP3 is written by
the `lameenc` package when it is installed (the same LAME, a faster build than PyAV's), else by
FFmpeg's libmp3lame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from mediaparts import formats
from mediaparts._errors import (
    CodecUnavailable,
    InvalidMedia,
    MediaTooLarge,
    UnsupportedMediaType,
)
from mediaparts.converting._audio_budget import SampleBudget, memory_guard
from mediaparts.converting._audio_io import RATES, Piece, Rung, encode, remux
from mediaparts.converting._av import open_media, seconds_of
from mediaparts.converting._extras import Deadline, require
from mediaparts.converting._policy import TransformPolicy
from mediaparts.converting._result import Converted
from mediaparts.imaging import measured

if TYPE_CHECKING:
    from av.audio.codeccontext import AudioCodecContext
    from av.audio.stream import AudioStream
    from av.container import InputContainer

__all__ = ["AudioInfo", "AudioTarget", "audio_info", "convert_audio"]

AudioTarget = Literal["audio/mpeg", "audio/wav", "audio/aac", "audio/ogg", "audio/flac"]
Measure = Literal["raw", "base64"]


@dataclass(frozen=True, slots=True)
class AudioInfo:
    """What the container says of a file's first audio stream.

    Attributes:
        seconds: The stream's duration (else the container's), None when neither says.
        codec: FFmpeg's name of the stream's codec (`"aac"`, `"opus"`, `"mp3float"`).
        container: FFmpeg's name of the container format (`"mov,mp4,m4a,3gp,3g2,mj2"`).
        channels: The channel count.
        sample_rate: Samples per second, per channel.
        bit_rate: Bits per second of the stream (else of the whole file, when the stream is
            its only one), None when unknown.

    Every field but `container` is None when the file has no audio stream.
    """

    seconds: float | None
    codec: str | None
    container: str
    channels: int | None
    sample_rate: int | None
    bit_rate: int | None


@dataclass(frozen=True, slots=True)
class _Ladder:
    """The bit rates tried in turn (kb/s): in stereo, in mono, in mono at 16 kHz."""

    stereo: tuple[int, ...]
    mono: tuple[int, ...]
    speech: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Target:
    """How one target type is written: its muxer, encoder and bit-rate ladder."""

    muxer: str  # FFmpeg's muxer
    encoder: str  # FFmpeg's encoder, when transcoding
    name: str  # the target in steps ("mp3", "ogg opus")
    copies: frozenset[str]  # the codecs a remux copies into it as they are
    ladder: _Ladder | None = None  # None for lossless targets
    options: tuple[tuple[str, str], ...] = ()  # the muxer's options


_LOSSY_LADDER = _Ladder(stereo=(128, 96, 64), mono=(64, 48, 32), speech=(32, 24, 16))
# Opus sounds as good at about two thirds of the bit rate of MP3 or AAC (opus-codec.org
# "Recommended settings": 64-128 kb/s for music in stereo, 16-24 kb/s for wideband speech).
_OPUS_LADDER = _Ladder(stereo=(96, 64, 48), mono=(48, 32, 24), speech=(24, 16, 12))

_TARGETS: dict[str, _Target] = {
    # No ID3 tag: it would only hold the muxer's name.
    "audio/mpeg": _Target(
        "mp3",
        "libmp3lame",
        "mp3",
        frozenset({"mp3", "mp3float"}),
        _LOSSY_LADDER,
        options=(("id3v2_version", "0"),),
    ),
    "audio/wav": _Target("wav", "pcm_s16le", "wav", frozenset({"pcm_s16le"})),
    "audio/aac": _Target("adts", "aac", "aac", frozenset({"aac"}), _LOSSY_LADDER),
    "audio/ogg": _Target("ogg", "libopus", "ogg opus", frozenset({"opus", "vorbis"}), _OPUS_LADDER),
    "audio/flac": _Target("flac", "flac", "flac", frozenset({"flac"})),
}
# The channels every target is written with at most: a provider listens for speech and
# content, which two channels carry; MP3 and FFmpeg's Opus mapping take no more.
_MAX_CHANNELS = 2
# The rate of the ladder's last rungs: wideband speech (50-7000 Hz) is still clear there.
_SPEECH_RATE = 16_000
# The muxers' headers, for the size a WAV will have: 44 bytes, 80 with WAVE_FORMAT_EXTENSIBLE.
_WAV_HEADER = 80


def audio_info(data: bytes, media_type: str, policy: TransformPolicy) -> AudioInfo:
    """Read the first audio stream's facts from the container, decoding nothing.

    Args:
        data: The whole file: audio, or a video whose audio track is wanted.
        media_type: Its detected type, for messages.
        policy: The caps (`max_seconds`, `max_pixels`, `timeout`).

    Returns:
        The stream's facts; all None but `container` when there is no audio stream.

    Raises:
        CodecUnavailable: PyAV is not installed (the `[av]` extra).
        UnsupportedMediaType: FFmpeg has no decoder for the audio stream's codec.
        InvalidMedia: FFmpeg cannot read the container.
        MediaTooLarge: Longer than `policy.max_seconds`, video frames over `max_pixels`, or
            out of memory.
    """
    doing = f"read the audio of {media_type}"
    with memory_guard(media_type, doing):
        return _info(data, media_type, policy, doing)


def _info(data: bytes, media_type: str, policy: TransformPolicy, doing: str) -> AudioInfo:
    container = open_media(data, media_type, policy, doing)
    try:
        stream = _first_audio(container, media_type)
        name = container.format.name
        if stream is None:
            return AudioInfo(None, None, name, None, None, None)
        context = stream.codec_context
        bit_rate = context.bit_rate or stream.bit_rate or None
        if bit_rate is None and len(container.streams) == 1:
            bit_rate = container.bit_rate or None
        return AudioInfo(
            seconds=_stream_seconds(stream) or seconds_of(container),
            codec=context.name,
            container=name,
            channels=context.channels or None,
            sample_rate=context.sample_rate or None,
            bit_rate=bit_rate,
        )
    finally:
        container.close()


def convert_audio(
    data: bytes,
    media_type: str,
    target: str,
    policy: TransformPolicy,
    *,
    max_bytes: int | None = None,
    measure: Measure = "raw",
) -> Converted:
    """Turn the first audio stream of `data` into `target`, within `max_bytes` if given.

    The stream is copied into the target's container when its codec fits (AAC into ADTS,
    Opus or Vorbis into Ogg, MP3 into MP3, FLAC into FLAC, 16-bit PCM into WAV) and the
    result fits; else it is transcoded, down the ladder when a limit is given.

    Args:
        data: The whole file: audio, or a video whose audio track is wanted.
        media_type: Its detected type, for messages and steps.
        target: `"audio/mpeg"`, `"audio/wav"`, `"audio/aac"` (ADTS), `"audio/ogg"` (Opus)
            or `"audio/flac"`.
        policy: The caps (`max_seconds`, `timeout`).
        max_bytes: The most bytes the output may have, counted as `measure` says.
        measure: `"raw"` bytes, or the length of their `"base64"` text.

    Returns:
        The output, with its `steps` and `seconds` (the output's duration).

    Raises:
        CodecUnavailable: PyAV is not installed, or its FFmpeg lacks the target's encoder.
        UnsupportedMediaType: `target` is not one of the five, or FFmpeg has no decoder for
            the stream's codec.
        InvalidMedia: FFmpeg cannot read the input, it has no audio track, or no audio in
            it can be decoded.
        MediaTooLarge: Longer than `policy.max_seconds` (from the header, or counted while
            decoding), more samples than the input's work budget allows (see
            `TransformPolicy.max_audio_samples_per_byte`: from the header, or counted while
            decoding), slower than `policy.timeout`, out of memory, or over `max_bytes` even
            on the ladder's last rung (`size` and `limit` then in bytes as measured).
    """
    with memory_guard(media_type, f"convert {media_type} to {target}"):
        return _convert(data, media_type, target, policy, max_bytes, measure)


def _convert(
    data: bytes,
    media_type: str,
    target: str,
    policy: TransformPolicy,
    max_bytes: int | None,
    measure: Measure,
) -> Converted:
    spec = _TARGETS.get(target)
    if spec is None:
        raise UnsupportedMediaType(
            f"audio cannot be converted to {target}; the targets are {', '.join(_TARGETS)}",
            media_type=media_type,
            accepted=tuple(_TARGETS),
        )
    doing = f"convert {media_type} to {target}"
    deadline = Deadline(policy.timeout, f"converting {media_type} to {target}", media_type)

    def fits(size: int) -> bool:
        return max_bytes is None or measured(size, measure) <= max_bytes

    def opened() -> tuple[InputContainer, AudioStream]:
        container = open_media(data, media_type, policy, doing)
        try:
            stream = _first_audio(container, media_type)
            if stream is None:
                raise InvalidMedia(f"this {media_type} has no audio track", media_type=media_type)
        except BaseException:
            container.close()
            raise
        return container, stream

    source = _source_name(media_type)
    # One budget for every attempt: a remux, then each rung of the ladder.
    budget = SampleBudget.of(len(data), media_type, policy)
    container, stream = opened()
    try:
        context = stream.codec_context
        seconds = _stream_seconds(stream) or seconds_of(container)
        channels, rate = context.channels or 1, context.sample_rate
        if context.name in spec.copies:
            piece = remux(
                container,
                stream,
                spec.muxer,
                spec.options,
                fits,
                deadline,
                policy,
                media_type,
                budget,
            )
            if piece is not None and piece.data is not None:
                # The packets' span counts an encoder's priming and padding, which the
                # input's container may trim (an edit list, a LAME header); a truncated input
                # holds fewer packets than its header says: the lesser of the two.
                step = f"remux {source}→{spec.muxer}"
                took = min(filter(None, (seconds, piece.seconds)), default=None)
                return Converted(target, data=piece.data, steps=(step,), seconds=took)
    finally:
        container.close()
    _require_encoder(spec, media_type, doing)
    if not RATES[0] <= rate <= RATES[1]:
        raise InvalidMedia(
            f"this {media_type}'s audio track claims {rate:,} samples a second, which no sound "
            f"has (from {RATES[0]:,} to {RATES[1]:,} Hz); refused before decoding",
            media_type=media_type,
        )
    rungs = _ladder(spec, channels, rate, limited=max_bytes is not None)
    budget.check_declared(seconds, max(channels * rate, rungs[0].channels * rungs[0].rate))
    smallest: int | None = None  # the least an attempt or estimate came to, as measured
    for rung in rungs:
        estimate = _estimate(spec, rung, seconds)
        if estimate is None or fits(estimate):
            container, stream = opened()
            try:
                piece = encode(
                    container,
                    stream,
                    spec.muxer,
                    spec.encoder,
                    spec.options,
                    rung,
                    fits,
                    deadline,
                    policy,
                    media_type,
                    budget,
                )
            finally:
                container.close()
            if piece.data is not None:
                steps = _steps(source, spec, rung, channels, rate, piece)
                return Converted(target, data=piece.data, steps=steps, seconds=piece.seconds)
            estimate = piece.size
        size = measured(estimate, measure)
        smallest = size if smallest is None else min(smallest, size)
    raise MediaTooLarge(
        f"this {media_type} does not fit in {max_bytes or 0:,} bytes{_as(measure)} as {target}, "
        f"not even on the last rung (mono, {_SPEECH_RATE} Hz or less, the lowest bit rate): "
        f"at least {smallest or 0:,} bytes",
        size=smallest,
        limit=max_bytes,
        media_type=media_type,
    )


def _first_audio(container: InputContainer, media_type: str) -> AudioStream | None:
    """The first audio stream, or None; UnsupportedMediaType when FFmpeg cannot decode it."""
    if not container.streams.audio:
        return None
    stream = container.streams.audio[0]
    context: AudioCodecContext | None = stream.codec_context
    if context is None:
        raise UnsupportedMediaType(
            f"this {media_type}'s audio codec has no decoder in this machine's FFmpeg",
            media_type=media_type,
        )
    return stream


def _stream_seconds(stream: AudioStream) -> float | None:
    if stream.duration is not None and stream.duration > 0 and stream.time_base is not None:
        return float(stream.duration * stream.time_base)
    return None


def _source_name(media_type: str) -> str:
    """The input's name in steps: its usual extension ("m4a" for audio/mp4)."""
    record = formats.get(media_type)
    if record is None or not record.extensions:
        return media_type.rpartition("/")[2]
    return record.short or record.extensions[0].lstrip(".")


def _require_encoder(spec: _Target, media_type: str, doing: str) -> None:
    av = require("av", package="av", extra="av", media_type=media_type, doing=doing)
    if spec.encoder not in av.codecs_available:
        raise CodecUnavailable(
            f"to {doing}, this machine's PyAV needs FFmpeg's {spec.encoder} encoder, which its "
            "build lacks (the av wheels from PyPI have it: mediaparts' [av] extra)",
            media_type=media_type,
            package="av",
            extra="av",
        )


def _ladder(spec: _Target, channels: int, rate: int, limited: bool) -> list[Rung]:
    """The rungs to try, best first: only the first without a limit."""
    ladder = spec.ladder
    rate = _encoder_rate(spec, rate)
    top = min(channels, _MAX_CHANNELS)
    rungs: list[Rung] = []
    if top > 1:
        rungs += [Rung(kbps, top, rate) for kbps in (ladder.stereo if ladder else (None,))]
    rungs += [Rung(kbps, 1, rate) for kbps in (ladder.mono if ladder else (None,))]
    low = _encoder_rate(spec, min(rate, _SPEECH_RATE))
    if low < rate:
        rungs += [Rung(kbps, 1, low) for kbps in (ladder.speech if ladder else (None,))]
    return rungs if limited else rungs[:1]


def _encoder_rate(spec: _Target, rate: int) -> int:
    """The rate the encoder writes for `rate`: itself when it takes it, else the next above."""
    from av.codec import Codec

    rates = Codec(spec.encoder, "w").audio_rates
    if not rates or rate in rates:
        return rate
    above = [r for r in rates if r > rate]
    return min(above) if above else max(rates)


def _estimate(spec: _Target, rung: Rung, seconds: float | None) -> int | None:
    """The output's size in bytes, when it can be known before encoding (None: it cannot)."""
    if seconds is None:
        return None
    if spec.encoder == "pcm_s16le":
        return _WAV_HEADER + math.ceil(seconds * rung.rate) * rung.channels * 2
    if rung.kbps is not None:
        return math.ceil(seconds * rung.kbps * 1000 / 8)
    return None  # FLAC: as small as the sound is simple


def _steps(
    source: str, spec: _Target, rung: Rung, channels: int, rate: int, piece: Piece
) -> tuple[str, ...]:
    kbps = f" {piece.kbps}k" if piece.kbps else ""
    steps = [f"{source}→{spec.name}{kbps}"]
    if rung.channels < channels:
        steps.append(f"downmix {channels}→{rung.channels}")
    if rung.rate != rate:
        steps.append(f"resample {rate}→{rung.rate} Hz")
    if piece.damaged:
        steps.append(f"skipped {piece.damaged} damaged packets")
    return tuple(steps)


def _as(measure: Measure) -> str:
    return " (as base64)" if measure == "base64" else ""
