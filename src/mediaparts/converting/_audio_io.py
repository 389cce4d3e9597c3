"""The two ways audio is written: packets copied into another container, or frames encoded.

Both stream: a packet is read, written and let go, so memory holds the output and one packet's
frames, never the whole sound. Both stop as soon as the output is over the caller's limit,
and count the seconds they pass against `TransformPolicy.max_seconds`: the remux from the
packets' timestamps, the transcode from the samples decoded (a header can lie about either).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from mediaparts._errors import InvalidMedia, MediaError, MediaTooLarge
from mediaparts.converting._av import AV_ERRORS
from mediaparts.converting._av import _reason as reason
from mediaparts.converting._extras import Deadline
from mediaparts.converting._policy import TransformPolicy

if TYPE_CHECKING:
    from av.audio.frame import AudioFrame
    from av.audio.resampler import AudioResampler
    from av.audio.stream import AudioStream
    from av.container import InputContainer, OutputContainer

__all__ = ["RATES", "Piece", "Rung", "encode", "remux"]

# The sample rates real audio has, from narrowband telephony to 768 kHz studio masters. A
# header outside them is corrupt or hostile: resampling 2 GHz, or 3 Hz, to a codec's rate costs
# minutes of CPU for a few bytes of input.
RATES = (1_000, 768_000)

# Every output is written the same way on every run: no muxer or encoder name in it.
_BITEXACT = {"fflags": "+bitexact"}
_LAYOUTS = {1: "mono", 2: "stereo"}


@dataclass(frozen=True, slots=True)
class Rung:
    """One way to encode: a bit rate (None for lossless targets), channels and a rate."""

    kbps: int | None
    channels: int
    rate: int


@dataclass(frozen=True, slots=True)
class Piece:
    """What one attempt wrote.

    Attributes:
        data: The output, or None when it went over the limit and was stopped.
        size: Its size in bytes (when stopped: at least this).
        seconds: The output's duration.
        kbps: The bit rate the encoder used (it may round the one asked for).
        damaged: Packets skipped because the decoder found them corrupt.
    """

    data: bytes | None
    size: int
    seconds: float | None = None
    kbps: int | None = None
    damaged: int = 0


def remux(
    container: InputContainer,
    stream: AudioStream,
    muxer: str,
    options: tuple[tuple[str, str], ...],
    fits: Callable[[int], bool],
    deadline: Deadline,
    policy: TransformPolicy,
    media_type: str,
) -> Piece | None:
    """Copy the stream's packets into a `muxer` container, timestamps starting at 0.

    Returns None when the output would not fit or the muxer refuses the stream as it is (a
    transcode may still do).

    Raises:
        MediaTooLarge: The packets run past `policy.max_seconds`, or past `policy.timeout`.
    """
    from av.error import FFmpegError

    out = io.BytesIO()
    time_base = stream.time_base or Fraction(1, 1)
    first: int | None = None
    end = 0
    try:
        output = _output(out, muxer, options)
    except _errors(FFmpegError):
        return None
    try:
        copy = output.add_stream_from_template(stream)
        for packet in container.demux(stream):
            deadline.check()
            if packet.dts is None:  # the empty packet that ends the stream
                continue
            if first is None:
                first = packet.pts if packet.pts is not None else packet.dts
            packet.dts -= first
            if packet.pts is not None:
                packet.pts -= first
            stop = max(packet.pts or 0, packet.dts) + (packet.duration or 0)
            _check_seconds(float(stop * time_base), policy, media_type)
            end = max(end, stop)
            packet.stream = copy
            output.mux(packet)
            if not fits(out.tell()):
                return None
        output.close()
    except _errors(FFmpegError):
        return None
    finally:
        output.close()
    data = out.getvalue()
    if first is None or not fits(len(data)):
        return None
    return Piece(data, len(data), seconds=float(end * time_base))


def encode(
    container: InputContainer,
    stream: AudioStream,
    muxer: str,
    encoder: str,
    options: tuple[tuple[str, str], ...],
    rung: Rung,
    fits: Callable[[int], bool],
    deadline: Deadline,
    policy: TransformPolicy,
    media_type: str,
) -> Piece:
    """Decode the stream and encode it as `rung` says, into a `muxer` container.

    Returns the output, or a `Piece` without data once the output is over the limit.

    Raises:
        InvalidMedia: The stream cannot be decoded, or nothing in it could.
        MediaTooLarge: More than `policy.max_seconds` of samples, or past `policy.timeout`.
    """
    from av.error import FFmpegError, InvalidDataError

    out = io.BytesIO()
    try:
        output = _output(out, muxer, options)
        target = cast(
            "AudioStream",
            output.add_stream(encoder, rate=rung.rate, layout=_LAYOUTS[rung.channels]),
        )
        if rung.kbps is not None:
            target.codec_context.bit_rate = rung.kbps * 1000
        # The decoder's sample format when the encoder takes it (as the ffmpeg command
        # chooses): no conversion of every sample. Else the encoder's first.
        given = stream.codec_context.format
        takes = target.codec_context.codec.audio_formats or ()
        if given is not None and given.name in {f.name for f in takes}:
            target.codec_context.format = given.name
    except _errors(FFmpegError) as exc:
        raise InvalidMedia(
            f"{encoder} cannot write {_LAYOUTS[rung.channels]} at {rung.rate} Hz: {reason(exc)}",
            media_type=media_type,
        ) from exc
    writer = _Writer(output, target, rung, media_type)
    decoded = 0.0
    damaged = 0
    try:
        for packet in container.demux(stream):
            deadline.check()
            try:
                frames = stream.decode(packet)
            except InvalidDataError:
                damaged += 1  # one corrupt packet: skip it, as the ffmpeg command does
                continue
            for frame in frames:
                decoded += frame.samples / (frame.sample_rate or 1)
                _check_seconds(decoded, policy, media_type)
                writer.write(frame)
            if not fits(out.tell()):
                return Piece(None, out.tell())
        writer.finish()
        output.close()
    except MediaError:
        raise
    except _errors(FFmpegError) as exc:
        raise InvalidMedia(
            f"this {media_type}'s audio could not be converted: {reason(exc)}",
            media_type=media_type,
        ) from exc
    finally:
        output.close()
    if writer.samples == 0:
        raise InvalidMedia(f"no audio in this {media_type} could be decoded", media_type=media_type)
    data = out.getvalue()
    kbps = round((target.codec_context.bit_rate or 0) / 1000) if rung.kbps is not None else None
    return Piece(
        data if fits(len(data)) else None,
        len(data),
        seconds=writer.samples / rung.rate,
        kbps=kbps,
        damaged=damaged,
    )


class _Writer:
    """Resample decoded frames to the encoder's format, number them, encode and mux them."""

    def __init__(self, output: OutputContainer, target: Any, rung: Rung, media_type: str) -> None:
        self._media_type = media_type
        self._output = output
        self._target = target
        self._rung = rung
        self._resampler: AudioResampler | None = None
        self._shape: tuple[str, str, int] | None = None
        self.samples = 0

    def write(self, frame: AudioFrame) -> None:
        # A stream may change its format midway (an MP3 joined from two files): a new
        # resampler for the new shape, after the old one is drained.
        shape = (frame.format.name, frame.layout.name, frame.sample_rate)
        if shape != self._shape:
            if not RATES[0] <= frame.sample_rate <= RATES[1]:
                raise InvalidMedia(
                    f"a frame of this audio claims {frame.sample_rate:,} samples a second; stopped",
                    media_type=self._media_type,
                )
            self._drain()
            import av

            self._resampler = av.AudioResampler(
                format=self._target.codec_context.format.name,
                layout=_LAYOUTS[self._rung.channels],
                rate=self._rung.rate,
            )
            self._shape = shape
        # Timestamps are the samples' count: the input's own may jump, repeat or loop.
        frame.pts = None
        assert self._resampler is not None
        for done in self._resampler.resample(frame):
            self._encode(done)

    def finish(self) -> None:
        self._drain()
        for packet in self._target.encode(None):
            self._output.mux(packet)

    def _drain(self) -> None:
        if self._resampler is not None:
            for done in self._resampler.resample(None):
                self._encode(done)

    def _encode(self, frame: AudioFrame) -> None:
        frame.pts = self.samples
        frame.time_base = Fraction(1, self._rung.rate)
        self.samples += frame.samples
        for packet in self._target.encode(frame):
            self._output.mux(packet)


def _errors(ffmpeg: type[BaseException]) -> tuple[type[BaseException], ...]:
    """What PyAV raises on broken input: FFmpeg's errors and the Python ones (`AV_ERRORS`)."""
    return (ffmpeg, *AV_ERRORS)


def _output(out: io.BytesIO, muxer: str, options: tuple[tuple[str, str], ...]) -> OutputContainer:
    import av

    container: OutputContainer = av.open(
        out, mode="w", format=muxer, container_options={**_BITEXACT, **dict(options)}
    )
    return container


def _check_seconds(seconds: float, policy: TransformPolicy, media_type: str) -> None:
    if seconds > policy.max_seconds:
        raise MediaTooLarge(
            f"this {media_type}'s audio runs past TransformPolicy.max_seconds="
            f"{policy.max_seconds:,g} s (counted while reading it; its header said less); "
            "stopped",
            size=int(seconds),
            limit=int(policy.max_seconds),
            media_type=media_type,
        )
