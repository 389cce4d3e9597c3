"""Hostile video for the limits harness: long GOPs, tiny packets, many streams, odd headers.

Each input is at most 1 MB, built deterministically with PyAV's own encoders. The long-GOP
files hold one key frame and thousands of frames after it: a short clip is encoded, then its
last (inter) frame's packet is written again and again with later timestamps, so the file
has the frame count of an hour-long screen recording for the cost of encoding three frames.
Decoding it whole costs about a millisecond a frame at 1080p (two for VP9): the case of
issue 25, a 970 KB MP4 whose frame sampling took 19 s of CPU.

`video_cases(large)` yields the cases; `limits_corpus.small_set` keeps those with `ci=True`.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from tests.robustness.limits_harness import MAX_INPUT, Case

__all__ = ["long_gop", "video_cases"]

# The entry points a video reaches, and the providers that take none (frames are sampled).
_ENTRIES = ("normalize", "estimate_tokens", "count_tokens")
_FRAMES = {"providers": ["openai", "anthropic"]}
_X264 = {"preset": "ultrafast", "x264-params": "keyint=1000000:scenecut=0:bframes=0"}
_CODECS: dict[str, tuple[str, str, dict[str, str]]] = {
    # name: (encoder, container, options)
    "h264": ("libx264", "mp4", _X264),
    "vp9": ("libvpx-vp9", "webm", {"g": "1000000", "deadline": "realtime", "cpu-used": "8"}),
    "vp8": ("libvpx", "webm", {"g": "1000000", "deadline": "realtime", "cpu-used": "16"}),
    "mpeg4": ("mpeg4", "mp4", {"g": "1000000"}),
}


def _encoder(out: Any, codec: str, width: int, height: int, options: dict[str, str]) -> Any:
    stream = out.add_stream(codec, rate=30)
    stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
    stream.options = options
    return stream


def _flat(width: int, height: int, shade: int = 90) -> Any:
    import av
    import numpy as np

    planes = np.full((height * 3 // 2, width), shade, np.uint8)
    return av.VideoFrame.from_ndarray(planes, format="yuv420p")


@functools.cache
def long_gop(
    codec: str, width: int, height: int, budget: int = MAX_INPUT - 4096, live: bool = False
) -> bytes:
    """A video of one key frame and as many repeated inter frames as fit `budget` bytes; in a
    Matroska file with no duration or index when `live`."""
    import av

    encoder, container, options = _CODECS[codec]
    # The encoded clip first, to learn the repeated packet's size.
    head = io.BytesIO()
    if live:
        out = av.open(head, "w", format="matroska", container_options={"live": "1"})
    else:
        out = av.open(head, "w", format=container)
    stream = _encoder(out, encoder, width, height, options)
    frame = _flat(width, height)
    packets = []
    for index in range(3):
        frame.pts = index
        packets += list(stream.encode(frame))
    packets += list(stream.encode(None))
    last = packets[-1]
    body, step = bytes(last), last.duration or 1
    overhead = len(body) + 12  # the packet, and its entries in the container's index
    repeats = max(0, (budget - sum(p.size for p in packets) - 4096) // overhead)
    for packet in packets:
        out.mux(packet)  # rescales the packet's timestamps to the stream's time base
    stamp, step = last.pts, last.duration or 1
    for _ in range(repeats):
        stamp += step
        copy = av.Packet(body)
        copy.pts = copy.dts = stamp
        copy.duration = step
        copy.time_base = last.time_base
        copy.stream = stream
        out.mux(copy)
    out.close()
    data = head.getvalue()
    if len(data) <= MAX_INPUT:
        return data
    return long_gop(codec, width, height, budget * 9 // 10, live)


@functools.cache
def encoded(codec: str, width: int, height: int, frames: int) -> bytes:
    """A genuinely encoded clip of `frames` near-identical frames, one key frame (HEVC's
    inter frames cannot be repeated: each carries its own picture order count)."""
    import av

    options = {
        "hevc": (
            "libx265",
            "mp4",
            {"preset": "ultrafast", "x265-params": "keyint=-1:scenecut=0:log-level=error"},
        ),
        "h264": ("libx264", "mp4", _X264),
    }[codec]
    buffer = io.BytesIO()
    out = av.open(buffer, "w", format=options[1])
    stream = _encoder(out, options[0], width, height, options[2])
    frame = _flat(width, height)
    for index in range(frames):
        frame.pts = index
        out.mux(stream.encode(frame))
    out.mux(stream.encode(None))
    out.close()
    return buffer.getvalue()


@functools.cache
def many_streams(count: int = 40) -> bytes:
    """A Matroska file of `count` 1080p video tracks, each one key frame and inter frames."""
    import av

    buffer = io.BytesIO()
    out = av.open(buffer, "w", format="matroska")
    streams = [_encoder(out, "libx264", 1920, 1080, _X264) for _ in range(count)]
    frame = _flat(1920, 1080)
    for index in range(30):
        frame.pts = index
        for stream in streams:
            out.mux(stream.encode(frame))
    for stream in streams:
        out.mux(stream.encode(None))
    out.close()
    return buffer.getvalue()


@functools.cache
def tiny_packets(seconds: int = 2000) -> bytes:
    """An MP4 of a 64x64 video at 30 fps whose frames are a few bytes each: 60,000 packets."""
    import av

    buffer = io.BytesIO()
    out = av.open(buffer, "w", format="mp4")
    stream = _encoder(out, "libx264", 64, 64, _X264)
    frame = _flat(64, 64)
    packets = []
    for index in range(3):
        frame.pts = index
        packets += list(stream.encode(frame))
    packets += list(stream.encode(None))
    for packet in packets:
        out.mux(packet)  # rescales the packet's timestamps to the stream's time base
    last = packets[-1]
    body, stamp = bytes(last), last.pts
    for _ in range(seconds * 30):
        stamp += last.duration or 1
        copy = av.Packet(body)
        copy.pts = copy.dts = stamp
        copy.duration = last.duration or 1
        copy.time_base = last.time_base
        copy.stream = stream
        out.mux(copy)
    out.close()
    return buffer.getvalue()


@functools.cache
def huge_frames() -> bytes:
    """Two flat 16000x10000 H.264 key frames in 940 KB: 160 megapixels a frame, which
    FFmpeg's probing alone once decoded (370 MB) before any cap was checked."""
    import av

    buffer = io.BytesIO()
    out = av.open(buffer, "w", format="mp4")
    options = {"preset": "ultrafast", "x264-params": "keyint=1:scenecut=0"}
    stream = _encoder(out, "libx264", 16000, 10000, options)
    frame = _flat(16000, 10000)
    for index in range(2):
        frame.pts = index
        out.mux(stream.encode(frame))
    out.mux(stream.encode(None))
    out.close()
    return buffer.getvalue()


def silent_track(minutes: int = 30, live: bool = False) -> bytes:
    """An MKV of one 64x64 H.264 frame beside `minutes` of silent 48 kHz stereo FLAC (one
    packet repeated), with no duration in its headers when `live`: for a provider that takes
    video but not MKV, FLAC is no MP4 track, so the whole file is transcoded (382 KB of it
    took 8 s of CPU, the audio decoded and encoded to AAC unbudgeted)."""
    import av

    buffer = io.BytesIO()
    with av.open(
        buffer, "w", format="matroska", container_options={"live": "1"} if live else {}
    ) as out:
        video = out.add_stream("libx264", rate=1)  # 1 fps: few frames for the video's budget
        video.width, video.height, video.pix_fmt, video.options = 64, 64, "yuv420p", _X264
        sound: Any = out.add_stream("flac", rate=48_000, layout="stereo")
        frame = _flat(64, 64)
        frame.pts = 0
        out.mux([*video.encode(frame), *video.encode(None)])
        block = av.AudioFrame(format="s16", layout="stereo", samples=4608 * 4)
        for plane in block.planes:
            plane.update(bytes(plane.buffer_size))
        block.sample_rate, block.pts = 48_000, 0
        packet = [p for p in (*sound.encode(block), *sound.encode(None)) if p.size][1]
        step = int(packet.duration or 4608)
        for index in range(minutes * 60 * 48_000 // step):
            again = av.Packet(bytes(packet))
            again.stream, again.time_base = sound, packet.time_base
            again.pts = again.dts = index * step
            again.duration = step
            out.mux(again)
    data = buffer.getvalue()
    assert len(data) <= MAX_INPUT, len(data)
    return data


def tiny_audio_packets(count: int = 130_000) -> bytes:
    """An MKV of one 64x64 H.264 frame and `count` one-byte Opus packets (a TOC, no frame):
    for a provider that takes video but not MKV it is remuxed to MP4, packet by packet (920 KB
    of them took 1.7 s to copy)."""
    import av

    buffer = io.BytesIO()
    with av.open(buffer, "w", format="matroska") as out:
        video = out.add_stream("libx264", rate=1)
        video.width, video.height, video.pix_fmt, video.options = 64, 64, "yuv420p", _X264
        sound: Any = out.add_stream("libopus", rate=48_000, layout="mono")
        frame = _flat(64, 64)
        frame.pts = 0
        out.mux([*video.encode(frame), *video.encode(None)])
        silence = av.AudioFrame(format="s16", layout="mono", samples=960)
        for plane in silence.planes:
            plane.update(bytes(plane.buffer_size))
        silence.sample_rate, silence.pts = 48_000, 0
        sound.encode(silence)  # opens the encoder, which writes the stream's header
        for index in range(count):
            packet = av.Packet(b"\x08")
            packet.stream, packet.time_base = sound, Fraction(1, 48_000)
            packet.pts = packet.dts = index * 960
            packet.duration = 960
            out.mux(packet)
    data = buffer.getvalue()
    assert len(data) <= MAX_INPUT, len(data)
    return data


def _cases(
    name: str,
    data: Any,
    ci: tuple[str, ...] = (),
    entries: tuple[str, ...] = _ENTRIES,
    options: dict[str, Any] = _FRAMES,
    pixels: int = 0,
) -> Iterator[Case]:
    for entry in entries:
        yield Case(
            f"{name}/{entry}", entry, data=data, options=options, ci=entry in ci, pixels=pixels
        )


def video_cases(large: bool) -> Iterator[Case]:
    """The video cases: two in CI (issue 25's MP4 through normalize, VP9's long GOP through count_tokens), the rest by hand."""
    yield from _cases(
        "video-h264-1080p-one-key", functools.partial(long_gop, "h264", 1920, 1080), ("normalize",)
    )
    yield from _cases(
        "video-vp9-1080p-one-key", functools.partial(long_gop, "vp9", 1920, 1080),
        ("count_tokens",),
    )  # fmt: skip
    if not large:
        return
    yield from _cases("video-h264-4k-one-key", functools.partial(long_gop, "h264", 3840, 2160))
    yield from _cases("video-vp8-1080p-one-key", functools.partial(long_gop, "vp8", 1920, 1080))
    yield from _cases("video-mpeg4-1080p-one-key", functools.partial(long_gop, "mpeg4", 1920, 1080))
    yield from _cases(
        "video-hevc-1080p-one-key", functools.partial(encoded, "hevc", 1920, 1080, 600)
    )
    yield from _cases("video-tiny-packets", tiny_packets)
    yield from _cases("video-many-streams", many_streams)
    yield from _cases("video-huge-frames", huge_frames)
    # Gemini takes video but not MKV: the file is transcoded, its audio track with it.
    for live in (False, True):
        name = "video-silent-flac-track" + ("-live" if live else "")
        built = functools.partial(silent_track, 30, live)
        yield from _cases(name, built, options={"providers": ["gemini"]})
    yield from _cases(
        "video-mkv-tiny-audio-packets", tiny_audio_packets, options={"providers": ["gemini"]}
    )
    # Gemini takes no MKV: a 4K VP9 of one key frame, with no duration to refuse it by, is
    # transcoded at 1080p at most (it held 628 MB at 4K, x264's lookahead of 4K frames) until
    # its budget runs out. A transcode's decoded-pixel allowance: the decoder's and x264's
    # frames, about 20 of the 1080p output.
    yield from _cases(
        "video-vp9-4k-live-transcode",
        functools.partial(long_gop, "vp9", 3840, 2160, live=True),
        entries=("normalize",),
        options={"providers": ["gemini"]},
        pixels=20 * 1920 * 1080,
    )
