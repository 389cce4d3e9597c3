"""Long silent, near-silent and tone audio in every codec mediaparts decodes, for the harness.

A few hundred bytes of a codec can stand for minutes of sound: FLAC's constant subframes, an
Opus or AAC encoder's packets of silence, ADPCM's few bits a sample. Each input here is at most
1 MB and declares (or, lying or silent, holds) far more samples than its bytes are worth; a
transcode must refuse it before decoding or stop at its work budget
(`TransformPolicy.max_audio_samples_per_byte`), and `estimate_tokens` / `count_tokens` must
answer from the headers without decoding at all.

Every input is built deterministically and fast: a real encoder (PyAV, with FFmpeg's encoders)
makes a few packets, which are then muxed again and again with their timestamps moved on, so
an hour of audio costs the builder no more than its bytes; FLAC, WAV and AIFF headers and
frames are written here byte by byte, where a header must lie.
"""

from __future__ import annotations

import functools
import io
import math
import struct
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from tests.robustness.limits_harness import MAX_INPUT, Case

__all__ = ["audio_cases"]

_ENTRY_POINTS = ("normalize", "estimate_tokens", "count_tokens")

# ---------------------------------------------------------------------------- FLAC by hand


def _crc8(data: bytes) -> int:
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


@functools.cache
def _crc16_table() -> tuple[int, ...]:
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x8005) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
        table.append(crc)
    return tuple(table)


def _crc16(data: bytes) -> int:
    table, crc = _crc16_table(), 0
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def _utf8_number(n: int) -> bytes:
    """A FLAC frame number, coded as UTF-8 codes its characters (up to 31 bits)."""
    if n < 0x80:
        return bytes([n])
    for limit, lead, count in ((0x800, 0xC0, 1), (0x10000, 0xE0, 2), (0x200000, 0xF0, 3)):
        if n < limit:
            tail = [0x80 | (n >> (6 * i)) & 0x3F for i in range(count)]
            return bytes([lead | n >> (6 * count), *reversed(tail)])
    raise ValueError(n)


def flac_silence(
    seconds: float, rate: int = 44_100, channels: int = 2, declared: int | None = None
) -> bytes:
    """FLAC of `seconds` of silence in frames of 65,535 constant subframes (~16 bytes each).

    STREAMINFO declares the true sample count, or `declared` (0: unknown) when given.
    """
    block = 65_535
    total = int(seconds * rate)
    samples = total if declared is None else declared
    info = struct.pack(">HH", block, block) + bytes(6)
    packed = rate << 44 | (channels - 1) << 41 | 15 << 36 | samples
    info += packed.to_bytes(8, "big") + bytes(16)
    out = bytearray(b"fLaC" + bytes([0x80]) + len(info).to_bytes(3, "big") + info)
    for n in range(-(-total // block)):
        size = min(block, total - n * block)
        # Fixed block size; size as 16 bits at the end; rate from STREAMINFO; 16-bit samples.
        head = bytes([0xFF, 0xF8, 0x70, (channels - 1) << 4 | 0b100 << 1])
        head += _utf8_number(n) + struct.pack(">H", size - 1)
        body = head + bytes([_crc8(head)]) + b"\x00\x00\x00" * channels
        out += body + struct.pack(">H", _crc16(body))
    return bytes(out)


# ---------------------------------------------------------------------------- PCM headers


def wav_header(rate: int, channels: int, bits: int, data_size: int, tag: int = 1) -> bytes:
    """A RIFF WAVE header whose `data` chunk declares `data_size` bytes (a lie when large)."""
    align = channels * bits // 8
    fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * align, align, bits)
    riff = 4 + 8 + len(fmt) + 8 + data_size
    return (
        b"RIFF" + struct.pack("<I", min(riff, 2**32 - 1)) + b"WAVE"
        + b"fmt " + struct.pack("<I", len(fmt)) + fmt
        + b"data" + struct.pack("<I", min(data_size, 2**32 - 1))
    )  # fmt: skip


def _extended(value: float) -> bytes:
    """An 80-bit IEEE extended float, as AIFF's COMM writes its sample rate."""
    exponent = math.floor(math.log2(value))
    mantissa = int(value / 2**exponent * 2**63)
    return struct.pack(">HQ", exponent + 16383, mantissa)


def aiff_lying(frames: int, rate: int = 44_100, channels: int = 2, size: int = MAX_INPUT) -> bytes:
    """AIFF whose COMM declares `frames` sample frames and whose SSND holds `size` bytes."""
    comm = struct.pack(">hIh", channels, frames, 16) + _extended(rate)
    body = bytes(size - 54)
    ssnd = struct.pack(">II", 0, 0) + body
    form = b"AIFF" + b"COMM" + struct.pack(">I", len(comm)) + comm
    form += b"SSND" + struct.pack(">I", len(ssnd)) + ssnd
    return b"FORM" + struct.pack(">I", len(form)) + form


# ---------------------------------------------------------------------------- encoded, repeated


def _signal(kind: str, samples: int, channels: int, rate: int) -> Any:
    """Silence, near silence (noise at about -90 dBFS) or a 440 Hz tone, as s16 samples."""
    import numpy as np

    if kind == "silence":
        mono = np.zeros(samples, dtype=np.int16)
    elif kind == "near-silence":
        mono = np.random.default_rng(25).integers(-1, 2, samples).astype(np.int16)
    else:
        mono = (np.sin(2 * np.pi * 440 * np.arange(samples) / rate) * 8000).astype(np.int16)
    return np.ascontiguousarray(np.repeat(mono[None, :], channels, 0).T.reshape(1, -1))


def repeated(
    muxer: str,
    codec: str,
    *,
    rate: int,
    channels: int = 1,
    kbps: int | None = None,
    kind: str = "silence",
    size: int = MAX_INPUT - 4096,
    options: dict[str, str] | None = None,
) -> bytes:
    """A `muxer` file of one second of `kind` encoded by `codec`, its packets repeated until
    the file holds about `size` bytes: hours of audio for the cost of muxing its packets."""
    rounds = 16  # a first, short file tells how many bytes a round of packets takes
    data = _repeat(muxer, codec, rate, channels, kbps, kind, options or {}, rounds)
    rounds = max(1, rounds * size // len(data) * 15 // 16)
    data = _repeat(muxer, codec, rate, channels, kbps, kind, options or {}, rounds)
    assert len(data) <= MAX_INPUT, (muxer, codec, len(data))
    return data


def _repeat(
    muxer: str,
    codec: str,
    rate: int,
    channels: int,
    kbps: int | None,
    kind: str,
    options: dict[str, str],
    rounds: int,
) -> bytes:
    import av

    layout = "mono" if channels == 1 else "stereo"
    out = io.BytesIO()
    with av.open(out, "w", format=muxer, container_options=options) as made:
        stream: Any = made.add_stream(codec, rate=rate, layout=layout)
        if kbps is not None:
            stream.codec_context.bit_rate = kbps * 1000
        if codec == "vorbis":
            stream.codec_context.options = {"strict": "experimental"}
        frame = av.AudioFrame.from_ndarray(_signal(kind, rate, channels, rate), "s16", layout)
        frame.sample_rate, frame.pts, frame.time_base = rate, 0, Fraction(1, rate)
        packets = [*stream.encode(frame), *stream.encode(None)]
        packets = [p for p in packets if p.size and p.duration]
        # The first packets carry the encoder's start-up; repeat those from the middle on.
        middle = packets[len(packets) // 4 :] or packets
        step = sum(int(p.duration) for p in middle)
        for r in range(rounds):
            for packet in middle:
                again = av.Packet(bytes(packet))
                again.stream = stream
                again.time_base = packet.time_base
                shift = r * step + int(packet.pts or 0) - int(middle[0].pts or 0)
                again.pts = again.dts = shift
                again.duration = packet.duration
                made.mux(again)
    return out.getvalue()


def tiny_packets(muxer: str, count: int) -> bytes:
    """`count` Opus packets of one byte each (a TOC, no frame: 20 ms of nothing), muxed."""
    import av

    out = io.BytesIO()
    with av.open(out, "w", format=muxer) as made:
        stream: Any = made.add_stream("libopus", rate=48_000, layout="mono")
        frame = av.AudioFrame.from_ndarray(_signal("silence", 960, 1, 48_000), "s16", "mono")
        frame.sample_rate, frame.pts, frame.time_base = 48_000, 0, Fraction(1, 48_000)
        stream.encode(frame)  # opens the encoder, which writes the stream's header
        for n in range(count):
            packet = av.Packet(b"\x08")
            packet.stream, packet.time_base = stream, Fraction(1, 48_000)
            packet.pts = packet.dts = n * 960
            packet.duration = 960
            made.mux(packet)
    data = out.getvalue()
    assert len(data) <= MAX_INPUT, (muxer, len(data))
    return data


def ogg_chain() -> bytes:
    """Two chained Ogg Opus streams: ~7,700 s of one-byte packets, then one second. FFmpeg's
    duration is the last stream's: the header says 1 s."""
    long = tiny_packets("ogg", 400_000)
    cut = long.rfind(b"OggS", 0, MAX_INPUT - 30_000)  # whole pages only
    return long[:cut] + tiny_packets("ogg", 50)


def concatenated(unit: bytes, head: bytes = b"", size: int = MAX_INPUT - 4096) -> bytes:
    """`unit` (whole frames of a stream format that needs no index) repeated after `head`."""
    return head + unit * ((size - len(head)) // len(unit))


@functools.cache
def _second(muxer: str, codec: str, rate: int, channels: int, kbps: int, kind: str) -> bytes:
    """One second of `kind` in a self-framed stream (MP3, ADTS, AMR), its header stripped."""
    import av

    layout = "mono" if channels == 1 else "stereo"
    out = io.BytesIO()
    with av.open(out, "w", format=muxer) as made:
        stream: Any = made.add_stream(codec, rate=rate, layout=layout)
        stream.codec_context.bit_rate = kbps * 1000
        for start in range(0, 3 * rate, rate):  # three seconds; the middle one is kept
            frame = av.AudioFrame.from_ndarray(_signal(kind, rate, channels, rate), "s16", layout)
            frame.sample_rate, frame.pts, frame.time_base = rate, start, Fraction(1, rate)
            made.mux(stream.encode(frame))
        made.mux(stream.encode(None))
    return out.getvalue()


def _frames(data: bytes, muxer: str) -> bytes:
    """The whole frames of the middle third of a self-framed stream (no header, no tags)."""
    if muxer == "amr":
        body = data[6:]  # "#!AMR\n"; then 13-byte frames at 4.75 kb/s, 32 at 12.2 kb/s
        frame = {0: 13, 1: 14, 2: 16, 3: 18, 4: 20, 5: 21, 6: 27, 7: 32}[body[0] >> 3 & 7]
        third = len(body) // frame // 3
        return body[third * frame : 2 * third * frame]
    start = 0
    if data[:3] == b"ID3":  # the muxer's ID3v2 tag: a syncsafe size
        start = 10 + sum((byte & 0x7F) << (7 * (3 - i)) for i, byte in enumerate(data[6:10]))
    sync = data[start : start + 2]  # every frame of one encoder's stream starts alike
    at = [i for i in range(start, len(data) - 1) if data[i : i + 2] == sync]
    return data[at[len(at) // 3] : at[2 * len(at) // 3]]


def stream_of(muxer: str, codec: str, rate: int, channels: int, kbps: int, kind: str) -> bytes:
    """About 1 MB of `kind` in a self-framed stream, its frames repeated."""
    unit = _frames(_second(muxer, codec, rate, channels, kbps, kind), muxer)
    head = b"#!AMR\n" if muxer == "amr" else b""
    return concatenated(unit, head)


def amr_lying_rate() -> bytes:
    """AMR whose first frames are 12.2 kb/s (FFmpeg takes the file's length from their rate)
    and the rest 4.75 kb/s tone: 2.5 times the frames the length said, each costly to decode."""
    high = _frames(_second("amr", "libopencore_amrnb", 8_000, 1, 12, "tone"), "amr")
    low = _frames(_second("amr", "libopencore_amrnb", 8_000, 1, 4, "tone"), "amr")
    head = b"#!AMR\n" + high * 3
    return head + low * ((MAX_INPUT - 4096 - len(head)) // len(low))


def mp3_lying_xing(kind: str = "silence") -> bytes:
    """MP3 whose first frame is a Xing header saying the stream has 10 frames (it has ~40,000)."""
    body = stream_of("mp3", "libmp3lame", 8_000, 1, 8, kind)
    frame = body.find(body[:2], 1)  # the first frame's length: where the second starts
    head = bytearray(body[:frame])  # a copy of the first frame, its data replaced by the tag
    side = 9  # MPEG-2.5 mono side information
    head[4 + side : 4 + side + 16] = b"Xing" + struct.pack(">III", 3, 10, len(body))
    return bytes(head) + body


# ---------------------------------------------------------------------------- the cases


def _hostile() -> dict[str, Callable[[], bytes]]:
    """Every generated input: name -> builder."""
    hour = 3_600
    return {
        # Issue 25's case: 3.9 hours of silence in 170 KB, STREAMINFO telling the truth.
        "flac-silence-4h": lambda: flac_silence(3.9 * hour),
        # The same frames, STREAMINFO saying 10 s, or nothing (0: unknown).
        "flac-lying-header": lambda: flac_silence(3.9 * hour, declared=441_000),
        "flac-unknown-length": lambda: flac_silence(3.9 * hour, declared=0),
        "flac-8ch-192k": lambda: flac_silence(0.4 * hour, rate=192_000, channels=8),
        "wav-lying-size": lambda: wav_header(44_100, 2, 16, 2**32 - 64) + bytes(MAX_INPUT - 64),
        "wav-adpcm-silence": lambda: repeated("wav", "adpcm_ima_wav", rate=48_000, channels=2),
        "wav-768k-8ch": lambda: wav_header(768_000, 8, 16, MAX_INPUT) + bytes(MAX_INPUT - 64),
        "aiff-lying-frames": lambda: aiff_lying(2**31),
        "mp3-silence-8k": lambda: stream_of("mp3", "libmp3lame", 8_000, 1, 8, "silence"),
        "mp3-tone-8k": lambda: stream_of("mp3", "libmp3lame", 8_000, 1, 8, "tone"),
        "mp3-lying-xing": mp3_lying_xing,
        "adts-silence": lambda: stream_of("adts", "aac", 48_000, 2, 8, "silence"),
        "m4a-silence": lambda: repeated("ipod", "aac", rate=48_000, channels=2, kbps=8),
        "m4a-near-silence": lambda: repeated(
            "ipod", "aac", rate=48_000, channels=2, kbps=8, kind="near-silence"
        ),
        "ogg-opus-silence": lambda: repeated("ogg", "libopus", rate=48_000, channels=2, kbps=6),
        "ogg-opus-tone": lambda: repeated(
            "ogg", "libopus", rate=48_000, channels=1, kbps=6, kind="tone"
        ),
        "ogg-vorbis-silence": lambda: repeated("ogg", "vorbis", rate=48_000, channels=2),
        "webm-opus-silence": lambda: repeated("webm", "libopus", rate=48_000, channels=2, kbps=6),
        "webm-opus-live": lambda: repeated(
            "webm", "libopus", rate=48_000, channels=1, kbps=6, options={"live": "1"}
        ),
        # No duration anywhere (a live WebM, a tone): only the count while decoding stops it.
        "webm-opus-live-tone": lambda: repeated(
            "webm", "libopus", rate=48_000, channels=1, kbps=6, kind="tone", options={"live": "1"}
        ),
        "mka-vorbis-live-tone": lambda: repeated(
            "matroska", "vorbis", rate=44_100, channels=2, kind="tone", options={"live": "1"}
        ),
        # Packets of one byte: the work per packet, not per sample.
        "ogg-opus-tiny-packets": lambda: tiny_packets("ogg", 390_000),
        "webm-opus-tiny-packets": lambda: tiny_packets("webm", 130_000),
        "ogg-chain-lying": ogg_chain,
        "amr-lying-rate": amr_lying_rate,
        "amr-silence": lambda: stream_of("amr", "libopencore_amrnb", 8_000, 1, 4, "silence"),
        "amr-near-silence": lambda: stream_of(
            "amr", "libopencore_amrnb", 8_000, 1, 4, "near-silence"
        ),
    }


# Three in CI: the file through a transcode and a count, and a header that lies (the
# budget counted while decoding).
_CI = {
    "flac-silence-4h": ("normalize", "count_tokens"),
    "flac-lying-header": ("normalize",),
}
# The providers that transcode: OpenAI takes only WAV and MP3; the others are refused (no
# audio at all) or take the type as it is, at no cost. CI runs the one that does the work.
_CI_OPTIONS = {"providers": ["openai"]}


def audio_cases(large: bool) -> Iterator[Case]:
    """Every generated input through normalize, estimate_tokens and count_tokens."""
    for name, build in _hostile().items():
        built = functools.cache(build)
        chosen = _CI.get(name, ())
        for entry in _ENTRY_POINTS if large else chosen:
            ci = entry in chosen
            yield Case(
                f"audio-{name}/{entry}",
                entry,
                data=built,
                options=_CI_OPTIONS if ci else {},
                ci=ci,
            )
