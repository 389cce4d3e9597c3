"""Where decoded audio goes when it is transcoded: resampled, numbered, encoded, written.

`MuxSink` encodes with one of FFmpeg's encoders and writes through its muxer. `LameSink` writes
MP3 with the `lameenc` package instead, when it is installed: the same LAME, at the same bit
rate and quality, built with its optimisations (PyAV 18's wheels carry a LAME about 2.5 times
slower, measured in benchmarks/bench_convert.py). `sink_for` picks one.
"""

from __future__ import annotations

import importlib
import io
from dataclasses import dataclass
from fractions import Fraction
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from mediaparts._errors import InvalidMedia
from mediaparts.converting._av import AV_ERRORS
from mediaparts.converting._av import _reason as reason

if TYPE_CHECKING:
    from av.audio.frame import AudioFrame
    from av.audio.resampler import AudioResampler
    from av.audio.stream import AudioStream

__all__ = [
    "BITEXACT",
    "LAYOUTS",
    "RATES",
    "LameSink",
    "MuxSink",
    "Rung",
    "Sink",
    "errors",
    "sink_for",
]

# The sample rates real audio has, from narrowband telephony to 768 kHz studio masters. A
# header outside them is corrupt or hostile: resampling 2 GHz, or 3 Hz, to a codec's rate costs
# minutes of CPU for a few bytes of input.
RATES = (1_000, 768_000)
LAYOUTS = {1: "mono", 2: "stereo"}
# Every output is written the same way on every run: no muxer or encoder name in it.
BITEXACT = {"fflags": "+bitexact"}
_LAME = "libmp3lame"
# LAME's own default quality (-q 3), which FFmpeg's libmp3lame also leaves in place.
_LAME_QUALITY = 3
# The PCM handed to LAME at once (1.5 s of stereo 44.1 kHz): a call per decoded frame costs a
# fifth more CPU in all (bench_convert, 10 minutes of stereo).
_LAME_BATCH = 256 * 1024


@dataclass(frozen=True, slots=True)
class Rung:
    """One way to encode: a bit rate (None for lossless targets), channels and a rate."""

    kbps: int | None
    channels: int
    rate: int


def errors() -> tuple[type[BaseException], ...]:
    """What PyAV raises on broken input: FFmpeg's errors and the Python ones (`AV_ERRORS`)."""
    from av.error import FFmpegError

    return (FFmpegError, *AV_ERRORS)


class Sink:
    """Takes decoded frames of any shape; encodes them as one rung says."""

    def __init__(self, rung: Rung, sample_format: str, media_type: str) -> None:
        self.rung = rung
        self.media_type = media_type
        self.samples = 0  # the samples encoded, per channel
        self._format = sample_format
        self._resampler: AudioResampler | None = None
        self._shape: tuple[str, str, int] | None = None
        self._time_base = Fraction(1, rung.rate)  # made once: a Fraction a frame costs

    def write(self, frame: AudioFrame) -> None:
        """Resample `frame` to the encoder's shape and encode it."""
        # A stream may change its format midway (an MP3 joined from two files): a new
        # resampler for the new shape, after the old one is drained.
        shape = (frame.format.name, frame.layout.name, frame.sample_rate)
        if shape != self._shape:
            if not RATES[0] <= frame.sample_rate <= RATES[1]:
                raise InvalidMedia(
                    f"a frame of this audio claims {frame.sample_rate:,} samples a second; stopped",
                    media_type=self.media_type,
                )
            self._drain()
            import av

            self._resampler = av.AudioResampler(
                format=self._format, layout=LAYOUTS[self.rung.channels], rate=self.rung.rate
            )
            self._shape = shape
        # Timestamps are the samples' count: the input's own may jump, repeat or loop.
        frame.pts = None
        assert self._resampler is not None
        for done in self._resampler.resample(frame):
            done.pts = self.samples
            done.time_base = self._time_base
            self.samples += done.samples
            self._take(done)

    def finish(self) -> bytes:
        """Encode what is left; return the whole output."""
        self._drain()
        return self._end()

    def size(self) -> int:
        """The bytes written so far."""
        raise NotImplementedError

    def kbps(self) -> int | None:
        """The bit rate the encoder used (it may round the one asked for)."""
        return self.rung.kbps

    def close(self) -> None:
        """Let go of the encoder; safe to call twice."""

    def _drain(self) -> None:
        if self._resampler is not None:
            for done in self._resampler.resample(None):
                done.pts = self.samples
                done.time_base = self._time_base
                self.samples += done.samples
                self._take(done)

    def _take(self, frame: AudioFrame) -> None:
        raise NotImplementedError

    def _end(self) -> bytes:
        raise NotImplementedError


class MuxSink(Sink):
    """An FFmpeg encoder and muxer, writing to memory."""

    def __init__(
        self,
        stream: AudioStream,
        muxer: str,
        encoder: str,
        options: tuple[tuple[str, str], ...],
        rung: Rung,
        media_type: str,
    ) -> None:
        import av

        self._out = io.BytesIO()
        try:
            self._output = av.open(
                self._out, mode="w", format=muxer, container_options={**BITEXACT, **dict(options)}
            )
            self._target = cast(
                "AudioStream",
                self._output.add_stream(encoder, rate=rung.rate, layout=LAYOUTS[rung.channels]),
            )
            context = self._target.codec_context
            if rung.kbps is not None:
                context.bit_rate = rung.kbps * 1000
            # The decoder's sample format when the encoder takes it (as the ffmpeg command
            # chooses): no conversion of every sample. Else the encoder's first.
            given = stream.codec_context.format
            if given is not None and given.name in {
                f.name for f in context.codec.audio_formats or ()
            }:
                context.format = given.name
        except errors() as exc:
            raise InvalidMedia(
                f"{encoder} cannot write {LAYOUTS[rung.channels]} at {rung.rate} Hz: {reason(exc)}",
                media_type=media_type,
            ) from exc
        super().__init__(rung, context.format.name, media_type)

    def size(self) -> int:
        return self._out.tell()

    def kbps(self) -> int | None:
        bit_rate = self._target.codec_context.bit_rate
        return round(bit_rate / 1000) if self.rung.kbps is not None and bit_rate else None

    def close(self) -> None:
        self._output.close()

    def _take(self, frame: AudioFrame) -> None:
        for packet in self._target.encode(frame):
            self._output.mux(packet)

    def _end(self) -> bytes:
        for packet in self._target.encode(None):
            self._output.mux(packet)
        self._output.close()
        return self._out.getvalue()


class LameSink(Sink):
    """MP3 by `lameenc`: constant bit rate, LAME's default quality, the rung's rate kept."""

    def __init__(self, lameenc: ModuleType, rung: Rung, media_type: str) -> None:
        super().__init__(rung, "s16", media_type)
        self._rung_kbps = _mp3_kbps(rung)
        encoder: Any = lameenc.Encoder()
        encoder.set_bit_rate(self._rung_kbps)
        encoder.set_in_sample_rate(rung.rate)
        encoder.set_out_sample_rate(rung.rate)  # else LAME picks a lower rate for low bit rates
        encoder.set_channels(rung.channels)
        encoder.set_quality(_LAME_QUALITY)
        encoder.silence()
        self._encoder = encoder
        self._pcm = bytearray()  # samples not yet given to LAME
        self._out = bytearray()

    def size(self) -> int:
        return len(self._out)

    def kbps(self) -> int | None:
        return self._rung_kbps

    def _take(self, frame: AudioFrame) -> None:
        self._pcm += memoryview(frame.planes[0])[: frame.samples * self.rung.channels * 2]
        if len(self._pcm) >= _LAME_BATCH:
            self._encode()

    def _end(self) -> bytes:
        self._encode()
        if self.samples:  # lameenc refuses to flush what never started
            self._out += self._call(self._encoder.flush)
        return bytes(self._out)

    def _encode(self) -> None:
        if self._pcm:
            self._out += self._call(self._encoder.encode, bytes(self._pcm))
            self._pcm.clear()

    def _call(self, method: Any, *args: bytes) -> bytes:
        try:
            return bytes(method(*args))
        except RuntimeError as exc:  # what lameenc raises when LAME fails
            raise InvalidMedia(
                f"LAME could not encode this {self.media_type}'s audio: {exc}",
                media_type=self.media_type,
            ) from exc


def sink_for(
    stream: AudioStream,
    muxer: str,
    encoder: str,
    options: tuple[tuple[str, str], ...],
    rung: Rung,
    media_type: str,
) -> Sink:
    """`LameSink` for MP3 when `lameenc` is installed, else `MuxSink`."""
    if encoder == _LAME and rung.kbps is not None:
        lameenc = _lameenc()
        if lameenc is not None:
            return LameSink(lameenc, rung, media_type)
    return MuxSink(stream, muxer, encoder, options, rung, media_type)


def _lameenc() -> ModuleType | None:
    try:
        return importlib.import_module("lameenc")
    except ImportError:
        return None


def _mp3_kbps(rung: Rung) -> int:
    """The bit rate asked for, within what MP3 allows at the rung's rate (ISO 11172-3 and
    13818-3: MPEG-1 up to 320 kb/s, MPEG-2 up to 160, MPEG-2.5 up to 64), as LAME rounds it."""
    assert rung.kbps is not None
    top = 320 if rung.rate >= 32_000 else 160 if rung.rate >= 16_000 else 64
    return min(rung.kbps, top)
