"""converting._audio: every audio input reaches every target, remuxed exactly where the codec
fits, fitted to a byte limit down the ladder, or refused with our errors.

The inputs are testdata's tone.* (nine audio containers), clip.* (five video containers, their
audio tracks) and voice.m4a (stereo, 44.1 kHz). Outputs are opened again with PyAV and decoded
to check what they hold. Hostile inputs are in tests/robustness/test_hostile_audio.py.
"""

from __future__ import annotations

import base64
import io
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

import mediaparts as mp
from mediaparts.converting import _audio
from mediaparts.converting._audio import AudioInfo, audio_info, convert_audio
from mediaparts.converting._audio_budget import SampleBudget
from mediaparts.converting._audio_io import _work, encode
from mediaparts.converting._audio_sinks import Rung
from mediaparts.converting._policy import TransformPolicy
from tests._builders import TESTDATA
from tests.robustness.test_hostile_audio import matroska

av = pytest.importorskip("av")

POLICY = TransformPolicy()

# Every input and the type detection gives it.
INPUTS = {
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
    "clip.mov": "video/quicktime",
    "clip.mkv": "video/x-matroska",
    "clip.webm": "video/webm",
    "clip.avi": "video/x-msvideo",
    "voice.m4a": "audio/mp4",
}
# What each target is, read back by FFmpeg: its container and the codecs it may hold.
TARGETS = {
    "audio/mpeg": ("mp3", {"mp3float"}),
    "audio/wav": ("wav", {"pcm_s16le"}),
    "audio/aac": ("aac", {"aac"}),
    "audio/ogg": ("ogg", {"opus", "vorbis"}),
    "audio/flac": ("flac", {"flac"}),
}
# The inputs whose codec each target copies as it is.
REMUXES = [
    ("tone.m4a", "audio/aac", "remux m4a→adts"),
    ("tone.aac", "audio/aac", "remux aac→adts"),
    ("clip.mp4", "audio/aac", "remux mp4→adts"),
    ("clip.mov", "audio/aac", "remux mov→adts"),
    ("voice.m4a", "audio/aac", "remux m4a→adts"),
    ("tone.webm", "audio/ogg", "remux weba→ogg"),
    ("tone.opus", "audio/ogg", "remux ogg→ogg"),
    ("tone.ogg", "audio/ogg", "remux ogg→ogg"),
    ("clip.mkv", "audio/ogg", "remux mkv→ogg"),
    ("clip.webm", "audio/ogg", "remux webm→ogg"),
    ("tone.mp3", "audio/mpeg", "remux mp3→mp3"),
    ("clip.avi", "audio/mpeg", "remux avi→mp3"),
    ("tone.flac", "audio/flac", "remux flac→flac"),
    ("tone.wav", "audio/wav", "remux wav→wav"),
]


@dataclass(frozen=True)
class Heard:
    """What decoding a file gives: its container, codec, shape and length."""

    container: str
    codec: str
    channels: int
    rate: int
    seconds: float  # samples decoded / rate
    frame: float  # the longest frame decoded, in seconds


def hear(data: bytes) -> Heard:
    """Decode the first audio stream of `data` whole."""
    with av.open(io.BytesIO(data)) as container:
        stream = container.streams.audio[0]
        samples = longest = 0
        rate = stream.codec_context.sample_rate
        for frame in container.decode(stream):
            samples += frame.samples
            longest = max(longest, frame.samples)
            rate = frame.sample_rate
        context = stream.codec_context
        return Heard(
            container.format.name,
            context.name,
            context.channels,
            rate,
            samples / rate,
            longest / rate,
        )


def packets(data: bytes) -> list[bytes]:
    """The first audio stream's packets, as stored (an ADTS frame without its header)."""
    with av.open(io.BytesIO(data)) as container:
        stream = container.streams.audio[0]
        found = [bytes(p) for p in container.demux(stream) if p.size]
        if container.format.name == "aac":
            # ADTS headers are 7 bytes, 9 with a CRC (protection_absent = 0).
            found = [p[7 if p[1] & 1 else 9 :] for p in found]
        return found


def read(name: str) -> bytes:
    return (TESTDATA / name).read_bytes()


def cases() -> Iterator[Any]:
    for name in INPUTS:
        for target in TARGETS:
            yield pytest.param(name, target, id=f"{name}->{target}")


@pytest.mark.parametrize(("name", "target"), list(cases()))
def test_convert_every_input_to_every_target_decodes_back(name: str, target: str) -> None:
    """Each input's audio becomes each target: the right container and codec, as long as the
    input to within a frame at each end (and the priming frame where it cannot be signalled)."""
    data = read(name)
    made = convert_audio(data, INPUTS[name], target, POLICY)
    assert made.media_type == target and made.data is not None
    heard, source = hear(made.data), hear(data)
    container, codecs = TARGETS[target]
    assert heard.container == container
    assert heard.codec in codecs
    # ADTS, and MP3 written by lameenc (no LAME tag), cannot tell a decoder to drop the
    # encoder's priming samples: one more frame there.
    slack = source.frame + heard.frame * (2 if target in {"audio/aac", "audio/mpeg"} else 1)
    assert abs(heard.seconds - source.seconds) <= slack
    assert made.seconds is not None and abs(made.seconds - heard.seconds) <= slack


@pytest.mark.parametrize(("name", "target", "step"), REMUXES)
def test_convert_remux_copies_the_packets_exactly(name: str, target: str, step: str) -> None:
    """A codec the target holds is copied: the same packets, byte for byte, in order."""
    data = read(name)
    made = convert_audio(data, INPUTS[name], target, POLICY)
    assert made.steps == (step,)
    assert made.data is not None and packets(made.data) == packets(data)


def test_convert_remux_flac_from_matroska() -> None:
    """FLAC in Matroska is copied into a FLAC file, packets unchanged."""
    data = matroska(2)
    made = convert_audio(data, "audio/x-matroska", "audio/flac", POLICY)
    assert made.steps == ("remux mka→flac",)
    assert made.data is not None and packets(made.data) == packets(data)
    assert made.seconds is not None and abs(made.seconds - 2.048) < 0.01  # 4 blocks of 4096


@pytest.mark.parametrize(
    ("name", "target", "steps"),
    [
        ("voice.m4a", "audio/mpeg", ("m4a→mp3 128k",)),
        ("voice.m4a", "audio/ogg", ("m4a→ogg opus 96k", "resample 44100→48000 Hz")),
        ("voice.m4a", "audio/wav", ("m4a→wav",)),
        ("voice.m4a", "audio/flac", ("m4a→flac",)),
        ("tone.m4a", "audio/mpeg", ("m4a→mp3 64k",)),
        ("clip.mkv", "audio/aac", ("mkv→aac 64k",)),
        ("tone.aiff", "audio/aac", ("aiff→aac 48k",)),  # FFmpeg's AAC takes 48k at most at 8 kHz
    ],
)
def test_convert_transcode_steps_say_what_was_done(
    name: str, target: str, steps: tuple[str, ...]
) -> None:
    """A transcode's steps name the input, the target and the bit rate the encoder used."""
    assert convert_audio(read(name), INPUTS[name], target, POLICY).steps == steps


@pytest.mark.parametrize(
    ("target", "max_bytes", "steps", "channels", "rate"),
    [
        ("audio/mpeg", 40_000, ("m4a→mp3 96k",), 2, 44_100),
        ("audio/mpeg", 20_000, ("m4a→mp3 48k", "downmix 2→1"), 1, 44_100),
        (
            "audio/mpeg",
            8_000,
            ("m4a→mp3 16k", "downmix 2→1", "resample 44100→16000 Hz"),
            1,
            16_000,
        ),
        ("audio/aac", 40_000, ("remux m4a→adts",), 2, 44_100),
        ("audio/aac", 20_000, ("m4a→aac 48k", "downmix 2→1"), 1, 44_100),
        (
            "audio/ogg",
            8_000,
            ("m4a→ogg opus 16k", "downmix 2→1", "resample 44100→16000 Hz"),
            1,
            48_000,  # Opus decodes at 48 kHz whatever it was encoded from
        ),
        ("audio/wav", 300_000, ("m4a→wav", "downmix 2→1"), 1, 44_100),
        ("audio/wav", 100_000, ("m4a→wav", "downmix 2→1", "resample 44100→16000 Hz"), 1, 16_000),
        ("audio/flac", 40_000, ("m4a→flac", "downmix 2→1", "resample 44100→16000 Hz"), 1, 16_000),
    ],
)
def test_convert_ladder_fits_a_tight_limit(
    target: str, max_bytes: int, steps: tuple[str, ...], channels: int, rate: int
) -> None:
    """Under a limit the output goes down the ladder (bit rate, mono, 16 kHz) until it fits,
    each step in `steps`, and the output holds what the steps say."""
    made = convert_audio(read("voice.m4a"), "audio/mp4", target, POLICY, max_bytes=max_bytes)
    assert made.data is not None and len(made.data) <= max_bytes
    assert made.steps == steps
    heard = hear(made.data)
    assert (heard.channels, heard.rate) == (channels, rate)
    assert abs(heard.seconds - 3.0) < 0.1


def test_convert_ladder_measures_base64_when_asked() -> None:
    """With measure="base64" the base64 text fits the limit, which takes a rung lower than the
    raw bytes would."""
    data, limit = read("voice.m4a"), 20_000
    raw = convert_audio(data, "audio/mp4", "audio/mpeg", POLICY, max_bytes=limit)
    text = convert_audio(data, "audio/mp4", "audio/mpeg", POLICY, max_bytes=limit, measure="base64")
    assert raw.data is not None and text.data is not None
    assert len(base64.b64encode(text.data)) <= limit < len(base64.b64encode(raw.data))
    assert text.steps[0] == "m4a→mp3 32k" and raw.steps[0] == "m4a→mp3 48k"


def test_convert_wav_size_is_known_before_encoding(monkeypatch: pytest.MonkeyPatch) -> None:
    """WAV's size is computed from the duration: only the rung that fits is encoded."""
    tried: list[Any] = []

    def counting(*args: Any) -> Any:
        tried.append(args[5])  # the rung
        return encode(*args)

    monkeypatch.setattr(_audio, "encode", counting)
    made = convert_audio(read("voice.m4a"), "audio/mp4", "audio/wav", POLICY, max_bytes=100_000)
    assert made.steps[-1] == "resample 44100→16000 Hz"
    assert [(r.channels, r.rate) for r in tried] == [(1, 16_000)]


@pytest.mark.parametrize("target", list(TARGETS))
def test_convert_too_large_when_the_last_rung_does_not_fit(target: str) -> None:
    """When even mono 16 kHz at the lowest bit rate is over the limit: MediaTooLarge, with
    the smallest size found (or computed) and the limit."""
    with pytest.raises(mp.MediaTooLarge, match="not even on the last rung") as caught:
        convert_audio(read("voice.m4a"), "audio/mp4", target, POLICY, max_bytes=2_000)
    assert caught.value.limit == 2_000
    assert caught.value.size is not None and caught.value.size > 2_000


def test_convert_wav_too_large_encodes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A WAV that cannot fit is refused from its computed size (3 s mono 16 kHz: 96,000 bytes
    of samples), without encoding."""
    monkeypatch.setattr(_audio, "encode", None)  # calling it would fail the test
    with pytest.raises(mp.MediaTooLarge) as caught:
        convert_audio(read("voice.m4a"), "audio/mp4", "audio/wav", POLICY, max_bytes=50_000)
    assert caught.value.size is not None and 96_000 <= caught.value.size <= 96_100


def test_convert_limit_without_need_keeps_the_top_rung() -> None:
    """A limit the first choice meets changes nothing."""
    data = read("voice.m4a")
    free = convert_audio(data, "audio/mp4", "audio/mpeg", POLICY)
    limited = convert_audio(data, "audio/mp4", "audio/mpeg", POLICY, max_bytes=10**9)
    assert limited.steps == free.steps == ("m4a→mp3 128k",)
    assert limited.data == free.data


@pytest.mark.parametrize(
    ("name", "codec", "container", "channels", "rate", "seconds"),
    [
        ("tone.wav", "pcm_s16le", "wav", 1, 16_000, 1.0),
        ("tone.m4a", "aac", "mov,mp4,m4a,3gp,3g2,mj2", 1, 16_000, 1.0),
        ("voice.m4a", "aac", "mov,mp4,m4a,3gp,3g2,mj2", 2, 44_100, 3.0),
        ("tone.opus", "opus", "ogg", 1, 48_000, 1.0065),
        ("tone.aiff", "pcm_s16be", "aiff", 1, 8_000, 1.0),
        ("tone.mp3", "mp3float", "mp3", 1, 44_100, 1.0),
        ("clip.mkv", "opus", "matroska,webm", 1, 48_000, 1.008),
        ("clip.mp4", "aac", "mov,mp4,m4a,3gp,3g2,mj2", 1, 16_000, 1.0),
    ],
)
def test_audio_info_reads_the_first_audio_stream(
    name: str, codec: str, container: str, channels: int, rate: int, seconds: float
) -> None:
    """audio_info gives the container's duration and the stream's codec, channels and rate."""
    info = audio_info(read(name), INPUTS[name], POLICY)
    assert (info.codec, info.container, info.channels, info.sample_rate) == (
        codec,
        container,
        channels,
        rate,
    )
    assert info.seconds == pytest.approx(seconds, abs=1e-6)


def test_audio_info_bit_rate_of_the_stream_else_the_file() -> None:
    """The stream's bit rate when it has one; for Opus in Ogg (none), the whole file's."""
    assert audio_info(read("voice.m4a"), "audio/mp4", POLICY).bit_rate == 95_424
    opus = audio_info(read("tone.opus"), "audio/ogg", POLICY)
    assert opus.bit_rate is not None and 20_000 < opus.bit_rate < 40_000


def silent_video() -> bytes:
    """An MP4 with two frames of video and no audio stream."""
    out = io.BytesIO()
    with av.open(out, "w", format="mp4") as container:
        stream = container.add_stream("mpeg4", rate=10)
        stream.width, stream.height, stream.pix_fmt = 32, 32, "yuv420p"
        for index in range(2):
            frame = av.VideoFrame(32, 32, "yuv420p")
            for plane in frame.planes:
                plane.update(bytes(plane.buffer_size))
            frame.pts, frame.time_base = index, Fraction(1, 10)
            container.mux(stream.encode(frame))
        container.mux(stream.encode(None))
    return out.getvalue()


def test_convert_video_without_audio_is_invalid() -> None:
    """A video with no audio track has nothing to send as audio: InvalidMedia saying so."""
    with pytest.raises(mp.InvalidMedia, match="has no audio track"):
        convert_audio(silent_video(), "video/mp4", "audio/mpeg", POLICY)


def test_audio_info_of_video_without_audio_is_empty() -> None:
    """audio_info of a file with no audio stream: only the container is known."""
    info = audio_info(silent_video(), "video/mp4", POLICY)
    assert info == AudioInfo(None, None, "mov,mp4,m4a,3gp,3g2,mj2", None, None, None)


@pytest.mark.parametrize(
    "call",
    [
        lambda: convert_audio(read("tone.m4a"), "audio/mp4", "audio/mpeg", POLICY),
        lambda: audio_info(read("tone.m4a"), "audio/mp4", POLICY),
    ],
    ids=["convert_audio", "audio_info"],
)
def test_without_pyav_codec_unavailable_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, call: Any
) -> None:
    """Without PyAV, CodecUnavailable names the package and the [av] extra to install."""
    monkeypatch.setitem(sys.modules, "av", None)
    with pytest.raises(mp.CodecUnavailable, match=r"mediaparts' \[av\] extra") as caught:
        call()
    assert (caught.value.package, caught.value.extra) == ("av", "av")


def test_convert_without_the_encoder_codec_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    """A PyAV whose FFmpeg lacks the target's encoder: CodecUnavailable naming the encoder."""
    monkeypatch.setattr(av, "codecs_available", av.codecs_available - {"libmp3lame"})
    with pytest.raises(mp.CodecUnavailable, match="libmp3lame") as caught:
        convert_audio(read("tone.m4a"), "audio/mp4", "audio/mpeg", POLICY)
    assert caught.value.extra == "av"


def test_convert_remux_needs_no_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    """A remux copies packets, so it works without the target's encoder."""
    monkeypatch.setattr(av, "codecs_available", av.codecs_available - {"aac"})
    made = convert_audio(read("tone.m4a"), "audio/mp4", "audio/aac", POLICY)
    assert made.steps == ("remux m4a→adts",)


def test_convert_unknown_target_is_unsupported() -> None:
    """A target outside the five is refused, listing them."""
    with pytest.raises(mp.UnsupportedMediaType) as caught:
        convert_audio(read("tone.wav"), "audio/wav", "audio/amr", POLICY)
    assert caught.value.accepted == tuple(TARGETS)


class FakeLame:
    """Stands in for lameenc.Encoder: records the settings and the PCM it is given."""

    made: ClassVar[list[FakeLame]] = []

    def __init__(self) -> None:
        self.settings: dict[str, int] = {}
        self.pcm = 0
        self.silenced = False
        FakeLame.made.append(self)

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("set_"):
            raise AttributeError(name)
        return lambda value: self.settings.__setitem__(name.removeprefix("set_"), value)

    def silence(self) -> None:
        self.silenced = True

    def encode(self, pcm: bytes) -> bytes:
        self.pcm += len(pcm)
        return b"\xff" * (len(pcm) // 16)

    def flush(self) -> bytes:
        return b""


def test_mp3_goes_through_lameenc_when_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """With lameenc installed, MP3 is encoded by it: the rung's bit rate (within what MP3
    allows at the rate), rate kept, LAME's default quality, every sample as 16-bit PCM."""
    FakeLame.made.clear()
    monkeypatch.setitem(sys.modules, "lameenc", SimpleNamespace(Encoder=FakeLame))
    made = convert_audio(read("tone.aiff"), "audio/aiff", "audio/mpeg", POLICY)
    assert made.steps == ("aiff→mp3 64k",)
    (lame,) = FakeLame.made
    assert lame.settings == {
        "bit_rate": 64,  # MPEG-2.5 (8 kHz) goes no higher
        "in_sample_rate": 8_000,
        "out_sample_rate": 8_000,
        "channels": 1,
        "quality": 3,
    }
    assert lame.silenced and lame.pcm == 8_000 * 2  # 1 s of mono s16
    assert made.data is not None and len(made.data) == lame.pcm // 16


def test_mp3_without_lameenc_uses_ffmpegs_lame(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without lameenc, MP3 comes from FFmpeg's libmp3lame, with its LAME tag (the encoder
    delay, which decoders drop): the output decodes to the input's length exactly."""
    monkeypatch.setitem(sys.modules, "lameenc", None)
    made = convert_audio(read("tone.wav"), "audio/wav", "audio/mpeg", POLICY)
    assert made.data is not None and b"Info" in made.data[:200]
    assert hear(made.data).seconds == pytest.approx(1.0, abs=1e-3)


def test_mp3_by_lameenc_decodes_back() -> None:
    """The real lameenc (when installed) writes MP3 that decodes to the input's length, give
    or take the priming and padding frames it cannot signal."""
    pytest.importorskip("lameenc")
    made = convert_audio(read("voice.m4a"), "audio/mp4", "audio/mpeg", POLICY)
    assert made.data is not None and made.steps == ("m4a→mp3 128k",)
    heard = hear(made.data)
    assert (heard.container, heard.channels, heard.rate) == ("mp3", 2, 44_100)
    assert abs(heard.seconds - 3.0) <= 3 * heard.frame


@pytest.mark.parametrize(
    ("size", "per_byte", "floor", "limit"),
    [
        (100, 10, 5_760_000, 5_760_000),  # a small input: the floor
        (1_000_000, 10, 5_760_000, 10_000_000),  # past the floor: in proportion
        (1_000_000, 27, 1, 27_000_000),
        (3, 1, 1, 3),
    ],
)
def test_sample_budget_is_proportional_above_its_floor(
    size: int, per_byte: int, floor: int, limit: int
) -> None:
    """The budget is max(floor, ratio x input bytes), from the policy's two fields."""
    policy = POLICY.replace(max_audio_samples_per_byte=per_byte, audio_samples_floor=floor)
    assert SampleBudget.of(size, "audio/flac", policy).limit == limit


def test_sample_budget_charges_until_past_its_limit() -> None:
    """Charges add up; the one that passes the limit raises, naming the fields and sizes."""
    budget = SampleBudget(limit=100, size=10, media_type="audio/flac", per_byte=10)
    budget.charge(60)
    budget.charge(40)
    with pytest.raises(mp.MediaTooLarge, match=r"max_audio_samples_per_byte=10 x 10 input") as e:
        budget.charge(1)
    assert (e.value.size, e.value.limit) == (101, 100)
    budget.check_declared(None, 96_000)  # no duration declared: nothing to check yet


@pytest.mark.parametrize(
    ("layout", "rate", "rung", "work"),
    [
        ("stereo", 48_000, Rung(128, 2, 48_000), 2 * 1_024),  # as decoded
        ("7.1", 48_000, Rung(128, 2, 48_000), 8 * 1_024),  # downmixed: the decoded side
        ("mono", 8_000, Rung(128, 2, 16_000), 4 * 1_024),  # up: the encoded side
    ],
)
def test_frame_work_counts_the_wider_side(layout: str, rate: int, rung: Rung, work: int) -> None:
    """A frame costs its samples as decoded, or as encoded when that is more."""
    frame = av.AudioFrame(format="s16p", layout=layout, samples=1_024)
    frame.sample_rate = rate
    assert _work(frame, rung) == work


def test_convert_memory_error_is_media_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    """A MemoryError inside a transcode is our MediaTooLarge, the MemoryError its cause."""

    def exhausted(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(_audio, "encode", exhausted)
    with pytest.raises(mp.MediaTooLarge, match="out of memory") as caught:
        convert_audio(read("tone.flac"), "audio/flac", "audio/mpeg", POLICY)
    assert isinstance(caught.value.__cause__, MemoryError)
    monkeypatch.setattr(_audio, "open_media", exhausted)
    with pytest.raises(mp.MediaTooLarge, match="out of memory"):
        audio_info(read("tone.flac"), "audio/flac", POLICY)
