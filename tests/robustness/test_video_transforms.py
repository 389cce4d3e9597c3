"""Hostile video through the video transforms: only our errors, within the caps, touching
nothing outside the input.

Truncated and mutated clips, sample tables that claim billions of frames or timestamps that
never advance, durations that lie, huge frame sizes, playlists and concat scripts that name
other files or URLs: each of `video_info`, `sample_frames` and `fit_video` returns or raises
a `MediaError`, within `within()`'s generous limit.
"""

from __future__ import annotations

import contextlib
import errno
import http.server
import os
import struct
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mediaparts as mp
from mediaparts.converting import TransformPolicy
from mediaparts.converting import _video as video_module
from mediaparts.converting._fit_video import fit_video
from mediaparts.converting._frames import sample_frames
from mediaparts.converting._video import video_info
from tests._video_clips import encode_clip
from tests.robustness._entry_points import TESTDATA, within

pytestmark = pytest.mark.slow  # hostile clips transcoded under the caps

pytest.importorskip("av")

POLICY = TransformPolicy(timeout=10.0)
CLIPS = {
    "clip.mp4": "video/mp4",
    "clip.mov": "video/quicktime",
    "clip.mkv": "video/x-matroska",
    "clip.webm": "video/webm",
    "clip.avi": "video/x-msvideo",
    "clip.3gp": "video/3gpp",
    "scenes.mp4": "video/mp4",
}

Transform = Callable[[bytes, str, TransformPolicy], object]
TRANSFORMS: dict[str, Transform] = {
    "video_info": video_info,
    "sample_frames": lambda d, t, p: sample_frames(d, t, p.replace(frames=3)),
    "scenes": lambda d, t, p: sample_frames(d, t, p.replace(frames=3, sampling="scenes")),
    "fit_video": lambda d, t, p: fit_video(d, t, ("video/mp4",), p, max_bytes=len(d) * 4),
}


def _run_all(data: bytes, media_type: str, policy: TransformPolicy = POLICY) -> list[str]:
    """Run every transform on `data`; return the error class names (MediaError only)."""
    raised = []
    for transform in TRANSFORMS.values():
        with within():
            try:
                transform(data, media_type, policy)
            except mp.MediaError as exc:
                raised.append(type(exc).__name__)
    return raised


def _patched(data: bytes, box: bytes, offset: int, value: int) -> bytes:
    """`data` with the 32-bit field `offset` bytes after every `box` tag set to `value`."""
    out = bytearray(data)
    at = out.find(box)
    while at >= 0:
        out[at + offset : at + offset + 4] = struct.pack(">I", value)
        at = out.find(box, at + 1)
    return bytes(out)


def _read(name: str) -> bytes:
    return (TESTDATA / name).read_bytes()


@pytest.mark.parametrize("name", sorted(CLIPS))
@pytest.mark.parametrize("keep", [0.02, 0.3, 0.7, 0.97])
def test_truncated_clips_fail_with_our_errors(name: str, keep: float) -> None:
    """A clip cut short gives frames from what is left, or a MediaError; never another error."""
    data = _read(name)
    _run_all(data[: int(len(data) * keep)], CLIPS[name])


@pytest.mark.parametrize(
    ("label", "box", "offset", "value"),
    [
        ("stsz: 2^31 samples of 1 byte", b"stsz", 12, 0x7FFF_FFFF),
        ("stts: 2^31 samples lasting 0", b"stts", 12, 0x7FFF_FFFF),
        ("stts: every sample lasting 0", b"stts", 16, 0),
        ("stts: every sample lasting 2^31", b"stts", 16, 0x7FFF_FFFF),
        ("stsc: 2^31 samples per chunk", b"stsc", 16, 0x7FFF_FFFF),
        ("mdhd: time scale 1", b"mdhd", 16, 1),
    ],
)
def test_lying_sample_tables_are_bounded(label: str, box: bytes, offset: int, value: int) -> None:
    """Sample tables claiming billions of frames, or time that never moves, stay bounded."""
    _run_all(_patched(_read("clip.mp4"), box, offset, value), "video/mp4")


def test_duration_that_lies_stops_at_max_seconds() -> None:
    """Headers claiming 1/1000 s pass the seconds cap; the packets past it are refused."""
    data = _patched(_patched(_read("clip.mp4"), b"mvhd", 20, 1), b"mdhd", 20, 1)
    policy = POLICY.replace(max_seconds=0.5)
    assert (video_info(data, "video/mp4", policy).seconds or 1) < 0.01
    with pytest.raises(mp.MediaTooLarge, match=r"max_seconds=0\.5"):  # remuxing reads it all
        fit_video(data, "video/mp4", ("video/quicktime",), policy)


def test_packet_cap_refuses_endless_packets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the packet cap a read is refused, whatever the timestamps say."""
    monkeypatch.setattr(video_module, "_MIN_PACKETS", 5)
    monkeypatch.setattr(video_module, "_PACKETS_PER_SECOND", 0)
    with pytest.raises(mp.MediaTooLarge, match="more than 5 packets"):
        fit_video(_read("clip.mkv"), "video/x-matroska", ("video/mp4",), POLICY)


@pytest.mark.parametrize("name", ["clip.mp4", "clip.mkv"])
def test_max_pixels_refuses_before_decoding(name: str) -> None:
    """Frames over max_pixels are refused from the header, by every transform."""
    raised = _run_all(_read(name), CLIPS[name], POLICY.replace(max_pixels=160 * 120 - 1))
    assert raised == ["MediaTooLarge"] * len(TRANSFORMS)


def test_frames_larger_than_the_header_are_refused() -> None:
    """Frames that grow past max_pixels after a small first header are refused while decoding.

    MPEG-TS streams join by concatenation: a 64x48 stream, then a 320x240 one.
    """
    data = encode_clip(1, size=(64, 48), container="mpegts")
    data += encode_clip(2, size=(320, 240), container="mpegts")
    policy = POLICY.replace(max_pixels=64 * 48 * 4)
    assert video_info(data, "video/mp2t", policy).width == 64
    with pytest.raises(mp.MediaTooLarge, match="320x240 frame"):  # a transcode decodes
        fit_video(data, "video/mp2t", ("video/mp4",), policy, max_bytes=len(data) // 2)
    with pytest.raises(mp.MediaTooLarge, match="320x240 frame"):
        sample_frames(data, "video/mp2t", policy.replace(frames=8))


def _flat_video(side: int) -> bytes:
    """Two uniform grey side x side frames, as Motion JPEG in Matroska (they compress to
    almost nothing: a JPEG of one is far under a byte per 32 pixels)."""
    import io
    from fractions import Fraction

    import av
    from PIL import Image

    buffer = io.BytesIO()
    with av.open(buffer, "w", format="matroska") as out:
        stream = out.add_stream("mjpeg", rate=Fraction(2))
        stream.width = stream.height = side
        stream.pix_fmt = "yuvj420p"
        frames: Any = av.VideoFrame  # its from_image is untyped
        flat = frames.from_image(Image.new("RGB", (side, side), (90, 90, 90)))
        for _ in range(2):
            out.mux(stream.encode(flat))
        out.mux(stream.encode(None))
    return buffer.getvalue()


@pytest.mark.parametrize("side", [4000, 8000])
def test_uniform_frames_normalize_for_a_provider_without_video(side: int) -> None:
    """A large uniform frame is scaled down as it is taken, so its own JPEG is not refused by
    the image decode budget (64 megapixels from 1 MB was): two pictures for anthropic."""
    normalized = mp.normalize(mp.part(_flat_video(side), filename="flat.mkv"), "anthropic")
    pictures = [p for p in normalized.pieces if isinstance(p, mp.NormalizedPart)]
    assert len(pictures) == 2
    assert all(f"resize {side}x{side}→2048x2048" in p.steps for p in pictures)


def test_timeout_is_a_media_too_large() -> None:
    """A transform past TransformPolicy.timeout is MediaTooLarge naming the timeout."""
    with pytest.raises(mp.MediaTooLarge, match="timeout"):
        sample_frames(_read("scenes.mp4"), "video/mp4", POLICY.replace(timeout=1e-9))


@contextlib.contextmanager
def _recording_server() -> Iterator[tuple[str, list[str]]]:
    """A local HTTP server; yields its base URL and the paths requested of it."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # http.server's name
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(_read("clip.mp4"))

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", hits
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    "playlist",
    [
        "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n{url}/a.ts\n#EXT-X-ENDLIST\n",
        "ffconcat version 1.0\nfile '{url}/b.mp4'\n",
        "v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=video {port} RTP/AVP 96\n",
    ],
    ids=["hls", "concat", "sdp"],
)
@pytest.mark.parametrize("media_type", ["video/mp4", "video/x-matroska"])
def test_playlists_never_reach_the_network(playlist: str, media_type: str) -> None:
    """Playlists, concat scripts and SDP naming a local server are refused; it gets no hit."""
    with _recording_server() as (url, hits):
        port = url.rsplit(":", 1)[1]
        data = playlist.format(url=url, port=port).encode()
        raised = _run_all(data, media_type)
    assert raised == ["InvalidMedia"] * len(TRANSFORMS)
    assert hits == []


def test_concat_script_never_opens_a_named_file(tmp_path: Path) -> None:
    """A concat script naming a local file is refused without opening it.

    The file is a FIFO: opening it to read would block, and while nobody has it open a
    non-blocking open to write fails with ENXIO, which proves nobody did.
    """
    fifo = tmp_path / "secret.mp4"
    os.mkfifo(fifo)
    script = f"ffconcat version 1.0\nfile '{fifo}'\n".encode()
    assert _run_all(script, "video/mp4") == ["InvalidMedia"] * len(TRANSFORMS)
    with pytest.raises(OSError, match="No such device or address") as caught:
        os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    assert caught.value.errno == errno.ENXIO


# ------------------------------------------------------------------------------ fuzz

mutation = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 2**31), st.integers(0, 7)),
    st.tuples(st.just("cut"), st.integers(0, 2**31), st.just(0)),
    st.tuples(st.just("byte"), st.integers(0, 2**31), st.integers(0, 255)),
    st.tuples(st.just("drop"), st.integers(0, 2**31), st.integers(1, 512)),
)


def _mutate(data: bytes, changes: list[tuple[str, int, int]]) -> bytes:
    out = bytearray(data)
    for kind, where, value in changes:
        if not out:
            break
        at = where % len(out)
        if kind == "flip":
            out[at] ^= 1 << value
        elif kind == "cut":
            del out[at:]
        elif kind == "byte":
            out[at] = value
        else:
            del out[at : at + value]
    return bytes(out)


# Derandomized: the same 40 cases on every run, so a failure here is reproducible.
@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.sampled_from(sorted(CLIPS)), st.lists(mutation, min_size=1, max_size=6))
def test_mutated_clips_fail_only_with_our_errors(
    name: str, changes: list[tuple[str, int, int]]
) -> None:
    """Real clips with bits flipped, bytes set, spans dropped or cut give MediaError or results."""
    _run_all(_mutate(_read(name), changes), CLIPS[name])


@pytest.mark.parametrize("transform", ["video_info", "sample_frames"])
def test_small_file_of_huge_frames_is_refused_before_decoding(transform: str) -> None:
    """Frames over an eighth of the decode budget a file's bytes buy are never decoded, not
    even by FFmpeg's probing (which then cannot learn Motion JPEG's size): an error naming
    TransformPolicy.video_pixels_per_byte."""
    data = _flat_video(8000)  # 64 megapixels a frame
    policy = POLICY.replace(video_pixels_per_byte=1)  # the floor: 8 frames of 33.5 Mpx
    with pytest.raises(mp.InvalidMedia, match=r"no first frame within the pixels one frame"):
        TRANSFORMS[transform](data, "video/x-matroska", policy)
    assert TRANSFORMS[transform](
        data, "video/x-matroska", policy.replace(video_pixels_per_byte=300)
    )


def test_only_the_first_streams_are_probed_by_decoding() -> None:
    """FFmpeg decodes a first frame of the first 8 streams only, to learn their parameters:
    a file of 12 video tracks opens with the later ones unprobed, and converts."""
    import io

    import av

    from mediaparts.converting._av import open_media

    buffer = io.BytesIO()
    with av.open(buffer, "w", format="matroska") as out:
        streams = [out.add_stream("mpeg4", rate=10) for _ in range(12)]
        for stream in streams:
            stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        frame = av.VideoFrame(64, 48, "yuv420p")
        for index in range(3):
            frame.pts = index
            for stream in streams:
                out.mux(stream.encode(frame))
        for stream in streams:
            out.mux(stream.encode(None))
    data = buffer.getvalue()
    container = open_media(data, "video/x-matroska", POLICY, "test")
    with contextlib.closing(container):
        sizes = [(s.codec_context.width, s.codec_context.height) for s in container.streams.video]
    assert sizes[:8] == [(64, 48)] * 8
    assert len(sample_frames(data, "video/x-matroska", POLICY.replace(frames=2))) == 2
