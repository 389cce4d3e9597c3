"""The two ways audio is written: packets copied into another container, or frames encoded.

Both stream: a packet is read, written and let go, so memory holds the output and one packet's
frames, never the whole sound. Both stop as soon as the output is over the caller's limit,
and count the seconds they pass against `TransformPolicy.max_seconds`: the remux from the
packets' timestamps, the transcode from the samples decoded (a header can lie about either).
Both charge their work to the transcode's `SampleBudget`: every packet, and every sample
decoded or encoded, so the work and the output stay in proportion to the input's bytes.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from mediaparts._errors import InvalidMedia, MediaError, MediaTooLarge
from mediaparts.converting._audio_budget import (
    DECODED_PACKET_SAMPLES,
    PACKET_SAMPLES,
    SampleBudget,
)
from mediaparts.converting._audio_sinks import BITEXACT, RATES, Rung, errors, sink_for
from mediaparts.converting._av import _reason as reason
from mediaparts.converting._extras import Deadline
from mediaparts.converting._policy import TransformPolicy

if TYPE_CHECKING:
    from av.audio.frame import AudioFrame
    from av.audio.stream import AudioStream
    from av.container import InputContainer, OutputContainer

__all__ = ["RATES", "Piece", "Rung", "encode", "remux"]


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
    budget: SampleBudget,
) -> Piece | None:
    """Copy the stream's packets into a `muxer` container, timestamps starting at 0.

    Returns None when the output would not fit or the muxer refuses the stream as it is (a
    transcode may still do).

    Raises:
        MediaTooLarge: The packets run past `policy.max_seconds`, past `policy.timeout`, or
            past the budget (`PACKET_SAMPLES` each).
    """
    out = io.BytesIO()
    time_base = stream.time_base or Fraction(1, 1)
    first: int | None = None
    end = 0
    try:
        output = _output(out, muxer, options)
    except errors():
        return None
    try:
        copy = output.add_stream_from_template(stream)
        for packet in container.demux(stream):
            deadline.check()
            budget.charge(PACKET_SAMPLES)
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
    except errors():
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
    budget: SampleBudget,
) -> Piece:
    """Decode the stream and encode it as `rung` says, into a `muxer` container.

    Returns the output, or a `Piece` without data once the output is over the limit.

    Raises:
        InvalidMedia: The stream cannot be decoded, or nothing in it could.
        MediaTooLarge: More than `policy.max_seconds` of samples, past `policy.timeout`, or
            past the budget: packets and the samples on the wider side of the transcode.
    """
    from av.error import InvalidDataError

    sink = sink_for(stream, muxer, encoder, options, rung, media_type)
    decoded = 0.0
    damaged = 0
    try:
        for packet in container.demux(stream):
            deadline.check()
            budget.charge(DECODED_PACKET_SAMPLES)
            try:
                frames = stream.decode(packet)
            except InvalidDataError:
                damaged += 1  # one corrupt packet: skip it, as the ffmpeg command does
                continue
            for frame in frames:
                decoded += frame.samples / (frame.sample_rate or 1)
                _check_seconds(decoded, policy, media_type)
                budget.charge(_work(frame, rung))
                sink.write(frame)
            if not fits(sink.size()):
                return Piece(None, sink.size())
        data = sink.finish()
    except MediaError:
        raise
    except errors() as exc:
        raise InvalidMedia(
            f"this {media_type}'s audio could not be converted: {reason(exc)}",
            media_type=media_type,
        ) from exc
    finally:
        sink.close()
    if sink.samples == 0:
        raise InvalidMedia(f"no audio in this {media_type} could be decoded", media_type=media_type)
    return Piece(
        data if fits(len(data)) else None,
        len(data),
        seconds=sink.samples / rung.rate,
        kbps=sink.kbps(),
        damaged=damaged,
    )


def _work(frame: AudioFrame, rung: Rung) -> int:
    """The samples a frame costs: decoded, or encoded from it when that is more (a resample
    up, or a mono frame written as stereo)."""
    rate = frame.sample_rate or 1
    width = max(frame.layout.nb_channels * rate, rung.channels * rung.rate)
    return -(-frame.samples * width // rate)


def _output(out: io.BytesIO, muxer: str, options: tuple[tuple[str, str], ...]) -> OutputContainer:
    import av

    container: OutputContainer = av.open(
        out, mode="w", format=muxer, container_options={**BITEXACT, **dict(options)}
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
