"""Hostile audio fails with our errors, within the policy's caps, reading nothing but its bytes.

Truncated and garbled files, headers that claim a billion seconds or one second for a minute,
a transform slower than its timeout, playlists and concat scripts that name a URL or a local
file, and mutated testdata (Hypothesis): `convert_audio` and `audio_info` give a result or an
`InvalidMedia` / `MediaTooLarge` / `UnsupportedMediaType`, each call under the SIGALRM limit.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import random
import struct
import threading
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mediaparts as mp
from mediaparts.converting import _audio
from mediaparts.converting._audio import audio_info, convert_audio
from mediaparts.converting._av import _no_other_file
from mediaparts.converting._policy import TransformPolicy
from tests.conftest import LocalServer
from tests.robustness._entry_points import TESTDATA, deadline
from tests.robustness.limits_audio import flac_silence, repeated, stream_of
from tests.robustness.test_fuzz import mutate

pytestmark = pytest.mark.slow  # hostile audio transcoded under the caps

av = pytest.importorskip("av")

POLICY = TransformPolicy(timeout=20)
OURS = (mp.InvalidMedia, mp.MediaTooLarge, mp.UnsupportedMediaType)
SOURCES = {
    "tone.wav": "audio/wav",
    "tone.mp3": "audio/mpeg",
    "tone.m4a": "audio/mp4",
    "tone.ogg": "audio/ogg",
    "tone.opus": "audio/ogg",
    "tone.flac": "audio/flac",
    "tone.webm": "audio/webm",
    "tone.aac": "audio/aac",
    "tone.aiff": "audio/aiff",
    "clip.mp4": "video/mp4",
    "clip.mkv": "video/x-matroska",
    "clip.avi": "video/x-msvideo",
}
TARGETS = ("audio/mpeg", "audio/wav", "audio/aac", "audio/ogg", "audio/flac")


def attempt(data: bytes, media_type: str, target: str, policy: TransformPolicy = POLICY) -> None:
    """Convert and read `data`; a result or one of our errors, never a hang or another error."""
    with deadline(f"{media_type}→{target}"):
        try:
            made = convert_audio(data, media_type, target, policy, max_bytes=200_000)
        except OURS:
            pass
        else:
            assert made.data is not None and len(made.data) <= 200_000
    with deadline(f"audio_info of {media_type}"), contextlib.suppress(*OURS):
        audio_info(data, media_type, policy)


def matroska(seconds: int, duration: float | None = None) -> bytes:
    """Matroska audio of `seconds` of silence (FLAC, 8 kHz), its header's Duration set to
    `duration` seconds when given (a lie)."""
    out = io.BytesIO()
    rate, block = 8_000, 4_096
    with av.open(out, "w", format="matroska", container_options={"write_crc32": "0"}) as made:
        stream = made.add_stream("flac", rate=rate, layout="mono")
        for start in range(0, seconds * rate, block):
            frame = av.AudioFrame(format="s16", layout="mono", samples=block)
            frame.planes[0].update(bytes(frame.planes[0].buffer_size))
            frame.sample_rate, frame.pts, frame.time_base = rate, start, Fraction(1, rate)
            made.mux(stream.encode(frame))
        made.mux(stream.encode(None))
    data = bytearray(out.getvalue())
    if duration is not None:
        at = data.find(b"\x44\x89\x88")  # Info/Duration, an 8-byte float in milliseconds
        assert at > 0
        struct.pack_into(">d", data, at + 3, duration * 1000)
    return bytes(data)


@pytest.mark.parametrize("name", list(SOURCES))
@pytest.mark.parametrize("keep", [0.0, 0.02, 0.5, 0.97])
def test_truncated_audio_gives_a_result_or_our_error(name: str, keep: float) -> None:
    """A file cut anywhere converts what is left or raises our error, for every target."""
    data = (TESTDATA / name).read_bytes()
    for target in TARGETS:
        attempt(data[: int(len(data) * keep)], SOURCES[name], target)


@pytest.mark.parametrize("seed", range(4))
def test_garbage_is_invalid_media(seed: int) -> None:
    """Random bytes under an audio type: InvalidMedia."""
    garbage = random.Random(seed).randbytes(4096)
    with pytest.raises(mp.InvalidMedia):
        convert_audio(garbage, "audio/mpeg", "audio/wav", POLICY)


def test_header_claiming_a_billion_seconds_is_refused_before_decoding() -> None:
    """A Matroska header claiming 10^9 seconds: MediaTooLarge from the header, nothing decoded."""
    lying = matroska(1, duration=1e9)
    for call in (
        lambda: convert_audio(lying, "audio/x-matroska", "audio/mpeg", POLICY),
        lambda: audio_info(lying, "audio/x-matroska", POLICY),
    ):
        with deadline("billion seconds"), pytest.raises(mp.MediaTooLarge, match="before decoding"):
            call()


@pytest.mark.parametrize(
    ("target", "way"),
    [("audio/mpeg", "transcode"), ("audio/flac", "remux")],
)
def test_header_claiming_less_is_stopped_while_decoding(target: str, way: str) -> None:
    """A header saying 1 s over 60 s of audio passes the header check; counting while reading
    stops at max_seconds, whether packets are copied or decoded."""
    lying = matroska(60, duration=1.0)
    policy = POLICY.replace(max_seconds=5.0)
    assert audio_info(lying, "audio/x-matroska", policy).seconds == pytest.approx(1.0)
    with pytest.raises(mp.MediaTooLarge, match="counted while reading") as caught:
        convert_audio(lying, "audio/x-matroska", target, policy)
    assert caught.value.limit == 5 and caught.value.size is not None
    assert caught.value.size <= 6  # stopped just past the cap, not at the end


def wav_claiming(channels: int, rate: int) -> bytes:
    """tone.wav (16-bit PCM) with its fmt chunk's channels and rate set (and the byte rate and
    block size that follow from them)."""
    data = bytearray((TESTDATA / "tone.wav").read_bytes())
    struct.pack_into("<HHIIH", data, 20, 1, channels, rate, rate * 2 * channels, 2 * channels)
    return bytes(data)


@pytest.mark.parametrize("rate", [3, 999, 768_001, 2**31 - 1])
@pytest.mark.parametrize("target", ["audio/mpeg", "audio/aac"])
def test_absurd_sample_rate_is_refused_before_decoding(rate: int, target: str) -> None:
    """A header claiming a rate no sound has (3 Hz: 5,333 s of samples; 2 GHz: a resampler
    that takes minutes to build) is InvalidMedia at once, not a timeout."""
    with deadline(f"{rate} Hz"), pytest.raises(mp.InvalidMedia, match="samples a second"):
        convert_audio(wav_claiming(1, rate), "audio/wav", target, POLICY.replace(timeout=5))


@pytest.mark.parametrize("channels", [64, 255])
def test_too_many_channels_is_invalid_media(channels: int) -> None:
    """A header claiming channels FFmpeg cannot downmix is InvalidMedia."""
    with pytest.raises(mp.InvalidMedia):
        convert_audio(wav_claiming(channels, 16_000), "audio/wav", "audio/mpeg", POLICY)


def test_eight_channels_are_downmixed_to_two() -> None:
    """Eight channels (a 7.1 layout) are downmixed to stereo, the step says so."""
    made = convert_audio(wav_claiming(8, 16_000), "audio/wav", "audio/mpeg", POLICY)
    assert made.steps == ("wav→mp3 128k", "downmix 8→2")


def test_long_audio_within_the_cap_converts() -> None:
    """The honest minute converts when the cap allows it: the cap, not the input, stopped it."""
    made = convert_audio(matroska(60), "audio/x-matroska", "audio/mpeg", POLICY)
    assert made.seconds is not None and 60 <= made.seconds < 61


# Minutes of silence in a few KB, in every codec a provider may need transcoded. The budget's
# floor is lowered so that each is over it from its few bytes.
SMALL_BUDGET = POLICY.replace(audio_samples_floor=100_000)
LONG_SILENCE: dict[str, tuple[Callable[[], bytes], str]] = {
    "flac": (lambda: flac_silence(600), "audio/flac"),
    "m4a": (lambda: repeated("ipod", "aac", rate=48_000, channels=2, size=40_000), "audio/mp4"),
    "adts": (lambda: stream_of("adts", "aac", 48_000, 2, 8, "silence")[:40_000], "audio/aac"),
    "ogg opus": (lambda: repeated("ogg", "libopus", rate=48_000, size=40_000), "audio/ogg"),
    "ogg vorbis": (
        lambda: repeated("ogg", "vorbis", rate=44_100, channels=2, size=40_000),
        "audio/ogg",
    ),
    "webm opus": (lambda: repeated("webm", "libopus", rate=48_000, size=40_000), "audio/webm"),
    "amr": (
        lambda: stream_of("amr", "libopencore_amrnb", 8_000, 1, 4, "silence")[:40_006],
        "audio/amr",
    ),
}


@pytest.mark.parametrize("name", list(LONG_SILENCE))
def test_long_silence_in_every_codec_is_refused_before_decoding(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Minutes of silence in a few KB: over the input's work budget from its headers alone,
    refused naming the budget's field, nothing decoded."""
    build, media_type = LONG_SILENCE[name]
    data = build()
    monkeypatch.setattr(_audio, "encode", _never)
    with pytest.raises(mp.MediaTooLarge, match="max_audio_samples_per_byte=10 x") as caught:
        convert_audio(data, media_type, "audio/mpeg", SMALL_BUDGET)
    assert "before decoding" in str(caught.value)
    assert caught.value.limit == max(100_000, 10 * len(data))


def _never(*args: object, **kwargs: object) -> None:
    raise AssertionError("decoded")


@pytest.mark.parametrize(
    ("name", "data", "media_type"),
    [
        ("flac saying 1 s", flac_silence(600, declared=44_100), "audio/flac"),
        ("flac saying nothing", flac_silence(600, declared=0), "audio/flac"),
        (
            "live webm",
            repeated("webm", "libopus", rate=48_000, size=40_000, options={"live": "1"}),
            "audio/webm",
        ),
    ],
)
def test_long_silence_whose_header_lies_stops_at_the_budget(
    name: str, data: bytes, media_type: str
) -> None:
    """A header saying less, or nothing: the samples counted while decoding stop the
    transcode just past the budget, not at the end of the hours."""
    with pytest.raises(mp.MediaTooLarge, match="counted while decoding") as caught:
        convert_audio(data, media_type, "audio/mpeg", SMALL_BUDGET)
    limit = max(100_000, 10 * len(data))
    assert caught.value.limit == limit
    assert caught.value.size is not None and limit < caught.value.size < limit + 200_000


def test_budget_raised_by_the_policy_lets_long_silence_convert() -> None:
    """The same ten minutes convert when the policy allows their samples: the budget, not the
    file, refused them; the output is the declared duration."""
    data = flac_silence(600, rate=8_000, channels=1)
    policy = POLICY.replace(max_audio_samples_per_byte=10_000)
    made = convert_audio(data, "audio/flac", "audio/mpeg", policy)
    assert made.seconds == pytest.approx(600, abs=0.1)


@pytest.mark.parametrize("provider", ["openai", "gemini", "bedrock"])
def test_counting_long_audio_never_decodes_it(
    provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """count_tokens and estimate_tokens price audio that would be converted from its headers:
    hours of FLAC or M4A silence are counted without a packet read, or refused at once."""
    monkeypatch.setattr(_audio, "encode", _never)
    monkeypatch.setattr(_audio, "remux", _never)
    hours = flac_silence(3.9 * 3600)
    m4a = repeated("ipod", "aac", rate=48_000, channels=2, size=40_000)
    for data in (hours, m4a):
        counted = mp.count_tokens(mp.part(data), provider).messages[0].parts[0]
        if provider == "gemini":  # 32 tokens a second, from the headers' duration
            assert counted.method == "exact" and counted.tokens > 0, counted
            assert mp.estimate_tokens(mp.part(data), provider) == counted.tokens
        else:
            assert counted.method == "unknown", counted
            with pytest.raises(mp.MediaError):
                mp.estimate_tokens(mp.part(data), provider)


def test_counting_audio_reads_ffmpegs_header_where_formats_has_no_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """AMR, which formats has no duration reader for, is priced from FFmpeg's header (its
    size over its bit rate), still without decoding: 3,077 frames of 13 bytes, 20 ms each,
    at Gemini's 32 tokens a second."""
    monkeypatch.setattr(_audio, "encode", _never)
    amr = stream_of("amr", "libopencore_amrnb", 8_000, 1, 4, "silence")[:40_007]
    seconds = (len(amr) - 6) // 13 * 0.02
    assert mp.estimate_tokens(mp.part(amr), "gemini") == pytest.approx(seconds * 32, rel=0.01)


def test_counting_audio_without_a_duration_is_unknown_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Audio to convert whose headers declare no duration: unknown, and why, not decoded."""
    monkeypatch.setattr(_audio, "encode", _never)
    data = repeated("webm", "libopus", rate=48_000, size=40_000, options={"live": "1"})
    counted = mp.count_tokens(mp.part(data), "gemini").messages[0].parts[0]
    assert counted.method == "unknown" and "duration" in counted.how


def test_counting_audio_past_max_seconds_is_refused() -> None:
    """A track to convert (M4A for Gemini) longer than TransformPolicy.max_seconds is refused
    as normalize refuses it, naming the field."""
    m4a = repeated("ipod", "aac", rate=48_000, channels=2, size=40_000)
    policy = POLICY.replace(max_seconds=10.0)
    with pytest.raises(mp.MediaTooLarge, match="max_seconds=10"):
        mp.estimate_tokens(mp.part(m4a), "gemini", transforms=policy)


def test_slow_transform_stops_at_the_timeout() -> None:
    """A transform past TransformPolicy.timeout stops between packets with MediaTooLarge."""
    policy = POLICY.replace(timeout=1e-6)
    with pytest.raises(mp.MediaTooLarge, match=r"TransformPolicy\.timeout"):
        convert_audio((TESTDATA / "voice.m4a").read_bytes(), "audio/mp4", "audio/mpeg", policy)


def playlists(target: str) -> list[bytes]:
    """Inputs whose only content names `target`: an HLS playlist, an ffconcat script, an SDP."""
    return [
        f"#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n{target}\n#EXT-X-ENDLIST\n".encode(),
        f"ffconcat version 1.0\nfile '{target}'\n".encode(),
        f"v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nm=audio 9 RTP/AVP 0\n"
        f"a=control:{target}\n".encode(),
    ]


def test_names_of_urls_are_never_fetched(local_server: LocalServer) -> None:
    """Playlists naming a URL on a local server: our error, and the server gets no request."""
    url = local_server.add("/tone.aac", (TESTDATA / "tone.aac").read_bytes())
    for data in playlists(url):
        for target in TARGETS:
            attempt(data, "audio/aac", target)
            attempt(data, "application/vnd.apple.mpegurl", target)
    assert local_server.hits == {}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_names_of_files_are_never_opened(tmp_path: Path) -> None:
    """Playlists naming a local file: our error, and the file is never opened. The file is a
    FIFO with no writer, so an open for reading would block the call, and a reader would show."""
    fifo = tmp_path / "tone.aac"
    os.mkfifo(fifo)
    calls = [(data, target) for data in playlists(str(fifo)) for target in TARGETS]
    done = threading.Event()

    def run() -> None:
        for data, target in calls:
            for media_type in ("audio/aac", "application/vnd.apple.mpegurl"):
                with contextlib.suppress(*OURS):
                    convert_audio(data, media_type, target, POLICY)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(30), "a conversion blocked: it opened the FIFO"
    with pytest.raises(OSError, match="No such device") as caught:  # nobody reads it
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert caught.value.errno == errno.ENXIO


def test_further_opens_are_refused_even_by_a_format_that_asks(local_server: LocalServer) -> None:
    """The opener open_media gives FFmpeg refuses what a demuxer asks for: an HLS playlist,
    opened with the hls demuxer forced (which the allowed formats exclude), fetches nothing."""
    control = local_server.add("/control.aac", (TESTDATA / "tone.aac").read_bytes())
    with contextlib.suppress(av.FFmpegError, OSError):
        av.open(
            io.BytesIO(playlists(control)[0]),
            format="hls",
            options={"protocol_whitelist": "http,tcp"},
        ).close()
    if local_server.hits != {"/control.aac": 1}:
        pytest.skip("this FFmpeg does not fetch an HLS segment over HTTP: nothing to refuse")
    url = local_server.add("/tone.aac", (TESTDATA / "tone.aac").read_bytes())
    with contextlib.suppress(av.FFmpegError, OSError):
        av.open(io.BytesIO(playlists(url)[0]), format="hls", io_open=_no_other_file).close()
    assert local_server.hits == {"/control.aac": 1}


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    name=st.sampled_from(sorted(SOURCES)),
    seed=st.integers(min_value=0, max_value=2**32),
    target=st.sampled_from(TARGETS),
)
def test_fuzz_mutated_audio_gives_a_result_or_our_error(name: str, seed: int, target: str) -> None:
    """Mutated real audio (bit flips, overwrites, cuts, repeats, extreme header fields) converts
    or raises our error, in bounded time."""
    data = mutate((TESTDATA / name).read_bytes(), seed)
    attempt(data, SOURCES[name], target)
