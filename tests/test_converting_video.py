"""Video transforms: what a video holds, its frames as pictures, and fitting it to a provider."""

from __future__ import annotations

import base64
import io
import math
import sys
from typing import Any

import pytest
from PIL import Image

import mediaparts as mp
from mediaparts.converting import TransformPolicy
from mediaparts.converting import _fit_video as fit_module
from mediaparts.converting import _frames as frames_module
from mediaparts.converting import _policy as policy_module
from mediaparts.converting import _video as video_module
from mediaparts.converting._audio_budget import SampleBudget
from mediaparts.converting._fit_video import fit_video
from mediaparts.converting._frames import frame_stand_ins, sample_frames, uniform_times
from mediaparts.converting._video import Packets, VideoInfo, clock, video_info
from mediaparts.converting._video_plan import recipe_for
from tests._builders import TESTDATA

av = pytest.importorskip("av")

from tests._video_clips import encode_clip  # noqa: E402  # needs PyAV, skipped above

POLICY = TransformPolicy()
MP4 = ("video/mp4",)

# name, media type, container, video codec, audio codec, displayed size, seconds, frames
CLIPS = [
    ("clip.mp4", "video/mp4", "mp4", "h264", "aac", (160, 120), 1.0, 10),
    ("clip.mov", "video/quicktime", "mov", "h264", "aac", (160, 120), 1.0, 10),
    ("clip.mkv", "video/x-matroska", "mkv", "h264", "opus", (160, 120), 1.008, None),
    ("clip.webm", "video/webm", "webm", "vp9", "opus", (160, 120), 1.008, None),
    ("clip.avi", "video/x-msvideo", "avi", "mpeg4", "mp3", (160, 120), 1.1, 11),
    # H.263 at 176x144 with a 12:11 pixel aspect ratio: 192x144 as shown
    ("clip.3gp", "video/3gpp", "3gp", "h263", "aac", (192, 144), 1.0, 10),
]
NAMES = [row[0] for row in CLIPS]
TYPES = {row[0]: row[1] for row in CLIPS}


def _read(name: str) -> bytes:
    return (TESTDATA / name).read_bytes()


def _jpeg(converted: mp.converting.Converted) -> Image.Image:
    assert converted.media_type == "image/jpeg"
    assert converted.data is not None
    image = Image.open(io.BytesIO(converted.data))
    assert image.format == "JPEG"
    return image


def _probe(data: bytes) -> tuple[str, str, int, int, float, list[str]]:
    """(container, video codec, width, height, the video track's seconds, audio codecs) as
    FFmpeg reads them."""
    with av.open(io.BytesIO(data)) as container:
        video = container.streams.video[0]
        audio = [s.codec_context.codec.canonical_name for s in container.streams.audio]
        seconds = float(video.duration * video.time_base)
        name = video.codec_context.codec.canonical_name
        return container.format.name, name, video.width, video.height, seconds, audio


def _packets(data: bytes, kind: str) -> list[bytes]:
    """The payload of every packet of the first track of `kind`."""
    with av.open(io.BytesIO(data)) as container:
        stream = getattr(container.streams, kind)[0]
        return [bytes(p) for p in container.demux(stream) if p.size]


# ------------------------------------------------------------------------------ video_info


@pytest.mark.parametrize(
    ("name", "media_type", "container", "video", "audio", "size", "seconds", "frames"), CLIPS
)
def test_video_info_reads_each_container(
    name: str,
    media_type: str,
    container: str,
    video: str,
    audio: str,
    size: tuple[int, int],
    seconds: float,
    frames: int | None,
) -> None:
    """video_info reports the container, codecs, displayed size, duration and frame count."""
    info = video_info(_read(name), media_type, POLICY)
    assert info == VideoInfo(
        seconds=pytest.approx(seconds, abs=0.001),  # type: ignore[arg-type]
        width=size[0],
        height=size[1],
        fps=10.0,
        container=container,
        video_codec=video,
        audio_codec=audio,
        frames=frames,
        rotation=0,
    )


def test_video_info_applies_rotation() -> None:
    """A track turned 90° by its display matrix is reported at its displayed size."""
    info = video_info(encode_clip(1, size=(64, 48), rotation=90), "video/mp4", POLICY)
    assert (info.width, info.height, info.rotation) == (48, 64, 90)
    assert info.audio_codec is None


def test_video_info_refuses_audio_only() -> None:
    """An audio-only file read as video is InvalidMedia saying it has no video track."""
    with pytest.raises(mp.InvalidMedia, match="no video track"):
        video_info(_read("tone.m4a"), "video/mp4", POLICY)


# ------------------------------------------------------------------------------ clock


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0:00.000"), (1.5, "0:01.500"), (61.0126, "1:01.013"), (3723.25, "1:02:03.250")],
)
def test_clock_formats_timestamps(seconds: float, text: str) -> None:
    """Timestamps read m:ss.mmm, and h:mm:ss.mmm from an hour on."""
    assert clock(seconds) == text


# ------------------------------------------------------------------------------ uniform


def test_sample_frames_uniform_takes_slice_centres_exactly() -> None:
    """Five frames of a 1 s, 10 fps clip are the frames at the centres of five slices."""
    taken = sample_frames(_read("clip.mp4"), "video/mp4", POLICY.replace(frames=5))
    assert [c.label for c in taken] == ["0:00.100", "0:00.300", "0:00.500", "0:00.700", "0:00.900"]
    assert [c.steps for c in taken] == [(f"frame at {c.label}",) for c in taken]
    for converted in taken:
        assert _jpeg(converted).size == (converted.width, converted.height) == (160, 120)


def test_sample_frames_uniform_takes_the_frame_shown_at_each_time() -> None:
    """In a long clip each frame taken is the one shown at its slice's centre."""
    data = encode_clip(60, fps=10)
    taken = sample_frames(data, "video/mp4", POLICY.replace(frames=8))
    # Centres of 8 slices of 60 s: 3.75, 11.25, ...; frames start every 0.1 s.
    expected = [clock(math.floor(t * 10) / 10) for t in uniform_times(60.0, 8)]
    assert [c.label for c in taken] == expected


@pytest.mark.parametrize("name", NAMES)
def test_sample_frames_from_each_container(name: str) -> None:
    """Every container gives frames in time order, distinct, as JPEG at the displayed size."""
    taken = sample_frames(_read(name), TYPES[name], POLICY.replace(frames=4))
    labels = [c.label or "" for c in taken]
    assert len(taken) == 4
    assert labels == sorted(labels)
    assert len(set(labels)) == len(labels)
    size = next(row[5] for row in CLIPS if row[0] == name)
    assert all(_jpeg(c).size == size for c in taken)


def test_sample_frames_fewer_when_the_video_has_fewer() -> None:
    """Asking 50 frames of a 10-frame clip gives its 10 frames, once each."""
    taken = sample_frames(_read("clip.mp4"), "video/mp4", POLICY.replace(frames=50))
    assert [c.label for c in taken] == [clock(i / 10) for i in range(10)]


@pytest.mark.parametrize(("max_side", "size"), [(80, (80, 60)), (1000, (160, 120))])
def test_sample_frames_max_side_scales_down_never_up(max_side: int, size: tuple[int, int]) -> None:
    """max_side shrinks the frames to fit, and leaves smaller frames as they are."""
    taken = sample_frames(
        _read("clip.mp4"), "video/mp4", POLICY.replace(frames=1), max_side=max_side
    )
    assert _jpeg(taken[0]).size == size
    assert ("resize 160x120→80x60" in taken[0].steps) == (size == (80, 60))


def test_sample_frames_upright() -> None:
    """A rotated track's frames come out upright: the red left bar ends at the bottom."""
    data = encode_clip(1, size=(64, 48), rotation=90)
    image = _jpeg(sample_frames(data, "video/mp4", POLICY.replace(frames=1))[0]).convert("RGB")
    assert image.size == (48, 64)
    red, green, _ = image.getpixel((24, 62))  # type: ignore[misc]
    assert red > 200 and green < 60
    top = image.getpixel((24, 1))
    assert isinstance(top, tuple) and top[0] < 200


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[Packets]:
    """Record every Packets reader the frame sampler makes (they count their work)."""
    made: list[Packets] = []

    class Counting(Packets):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(frames_module, "Packets", Counting)
    return made


@pytest.mark.parametrize("sampling", ["uniform", "scenes"])
def test_sample_frames_cost_grows_with_frames_not_length(
    monkeypatch: pytest.MonkeyPatch, sampling: str
) -> None:
    """8 frames of a 1,200-frame clip (a key frame a second) decode under a tenth of it."""
    data = encode_clip(120, fps=10, gop=10)
    made = _counting(monkeypatch)
    taken = sample_frames(data, "video/mp4", POLICY.replace(frames=8, sampling=sampling))
    assert len(taken) == 8
    (reader,) = made
    if sampling == "uniform":
        # Each frame: at most one group of pictures (10 frames) decoded after its seek.
        assert reader.decoded <= 8 * 10
        assert reader.packets <= 8 * 10 + 16
    else:
        # The 120 key frames, and then a seek to each of the 8 taken.
        assert reader.decoded <= 120 + 8 * 10
    assert reader.decoded < 1200 / 5


def test_sample_frames_decodes_on_rather_than_seek_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """With one key frame in a 600-frame clip, 8 frames cost one pass, not a seek back each."""
    data = encode_clip(60, fps=10, gop=1000)
    made = _counting(monkeypatch)
    assert len(sample_frames(data, "video/mp4", POLICY.replace(frames=8))) == 8
    (reader,) = made
    # Seeking back to the only key frame for each would decode about 8 x 300 frames.
    assert reader.decoded <= 600


def test_sample_frames_scenes_spreads_a_capped_number_of_key_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the cap of key frames examined, those examined are spread over the whole video."""
    monkeypatch.setattr(frames_module, "_KEYS_PER_FRAME", 2)
    data = encode_clip(60, fps=10, gop=10)  # 60 key frames
    made = _counting(monkeypatch)
    policy = POLICY.replace(frames=4, sampling="scenes")
    assert len(sample_frames(data, "video/mp4", policy)) == 4
    (reader,) = made
    # 8 key frames examined (one every 7.5 s), then at most a group of pictures for each frame.
    assert reader.decoded <= 8 + 4 * 10 + 4


def test_sample_frames_encodes_each_frame_as_it_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each frame becomes its JPEG before the next is sought: decoded frames are never
    gathered (8 of 12000x12000 took 3 GB)."""
    events: list[str] = []
    seek, picture = frames_module._Seeker.at, frames_module._picture

    def at(self: Any, seconds: float, share: int) -> Any:
        events.append("seek")
        return seek(self, seconds, share)

    def encode(*args: Any) -> Any:
        events.append("jpeg")
        return picture(*args)

    monkeypatch.setattr(frames_module._Seeker, "at", at)
    monkeypatch.setattr(frames_module, "_picture", encode)
    assert len(sample_frames(_read("clip.mp4"), "video/mp4", POLICY.replace(frames=4))) == 4
    assert events == ["seek", "jpeg"] * 4


def test_sample_frames_scales_before_the_rgb_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """With max_side, FFmpeg scales as it converts to RGB: the RGB picture PIL reads is
    already small."""
    from PIL import Image as pil

    sizes: list[tuple[int, int]] = []
    frombuffer = pil.frombuffer

    def spy(mode: str, size: tuple[int, int], *args: Any) -> Any:
        sizes.append(size)
        return frombuffer(mode, size, *args)

    monkeypatch.setattr(pil, "frombuffer", spy)
    sample_frames(_read("clip.mp4"), "video/mp4", POLICY.replace(frames=2), max_side=40)
    assert sizes == [(40, 30), (40, 30)]


def test_sample_frames_out_of_memory_is_media_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    """A frame too large for the memory left is MediaTooLarge, not a bare MemoryError."""

    def exhausted(*args: Any) -> bytes:
        raise MemoryError

    monkeypatch.setattr(frames_module, "encode_pil", exhausted)
    with pytest.raises(mp.MediaTooLarge, match="ran out of memory"):
        sample_frames(_read("clip.mp4"), "video/mp4", POLICY.replace(frames=2))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("max_side", [None, 100])
def test_frame_stand_ins_match_the_frames_taken(name: str, max_side: int | None) -> None:
    """Stand-ins read from the headers: as many pictures as sampling takes, of the same
    sizes, with labels of the same form."""
    data, media_type = _read(name), TYPES[name]
    taken = sample_frames(data, media_type, POLICY, max_side=max_side)
    stand_ins = frame_stand_ins(data, media_type, POLICY, max_side=max_side)
    assert [(p.width, p.height) for p in stand_ins] == [(p.width, p.height) for p in taken]
    assert [len(p.label or "") for p in stand_ins] == [len(p.label or "") for p in taken]
    assert all(_jpeg(p).size == (p.width, p.height) for p in stand_ins)


def _floor(monkeypatch: pytest.MonkeyPatch, frames: int, size: tuple[int, int]) -> int:
    """Lower the decode budget's floor to `frames` frames of `size`; return it in pixels."""
    pixels = frames * max(video_module._LEAST_FRAME, size[0] * size[1])
    monkeypatch.setattr(policy_module, "VIDEO_PIXEL_FLOOR", pixels)
    return pixels


@pytest.mark.parametrize("sampling", ["uniform", "scenes"])
def test_sample_frames_long_gop_takes_frames_near_the_key_frame(
    monkeypatch: pytest.MonkeyPatch, sampling: str
) -> None:
    """With one key frame in 600 and a budget of 60 frames, no GOP is decoded whole: each
    picture is the last frame its share reached, its steps naming the time asked for."""
    data = encode_clip(60, fps=10, gop=1000)
    budget = _floor(monkeypatch, 60, (64, 48))
    made = _counting(monkeypatch)
    policy = POLICY.replace(frames=4, sampling=sampling, video_pixels_per_byte=1)
    taken = sample_frames(data, "video/mp4", policy)
    (reader,) = made
    assert reader.budget == budget
    assert reader.pixels <= budget
    assert reader.decoded <= 60
    assert taken
    shorts = [p for p in taken if p.label != "0:00.000"]  # scenes may take the key frame
    assert len(shorts) >= 3
    assert all("key frames too far apart to decode up to it" in p.steps[0] for p in shorts)
    assert all(p.label is not None and p.label < "0:07.000" for p in taken)
    assert "(for 0:52.500:" in taken[-1].steps[0]


def test_sample_frames_short_gop_takes_the_time_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Key frames a second apart fit the same budget: every picture is at its time."""
    data = encode_clip(60, fps=10, gop=10)
    _floor(monkeypatch, 40, (64, 48))
    policy = POLICY.replace(frames=4, video_pixels_per_byte=1)
    taken = sample_frames(data, "video/mp4", policy)
    assert [p.steps for p in taken] == [
        (f"frame at {t}",) for t in ("0:07.500", "0:22.500", "0:37.500", "0:52.500")
    ]


def test_sample_frames_a_frame_over_the_budget_is_refused_before_decoding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A frame larger than the budget its bytes buy: MediaTooLarge naming the policy field,
    nothing decoded."""
    _floor(monkeypatch, 1, (32, 32))
    made = _counting(monkeypatch)
    with pytest.raises(
        mp.MediaTooLarge, match=r"video_pixels_per_byte=1\); refused before decoding"
    ):
        sample_frames(_read("clip.mp4"), "video/mp4", POLICY.replace(video_pixels_per_byte=1))
    assert not made  # refused as the reader was made


def test_sample_frames_budget_out_mid_way_keeps_the_pictures_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When decoding runs out of budget after two pictures, those two come back; before the
    first, the budget's MediaTooLarge."""
    seek = frames_module._Seeker.at

    def at(self: Any, seconds: float, share: int) -> Any:
        if seconds > self.reader.budget_test_after:
            raise self.reader.over_budget()
        return seek(self, seconds, share)

    monkeypatch.setattr(frames_module._Seeker, "at", at)
    monkeypatch.setattr(Packets, "budget_test_after", 0.5, raising=False)
    taken = sample_frames(_read("clip.mp4"), "video/mp4", POLICY.replace(frames=4))
    assert [p.label for p in taken] == ["0:00.100", "0:00.300"]
    monkeypatch.setattr(Packets, "budget_test_after", -1.0, raising=False)
    with pytest.raises(mp.MediaTooLarge, match="video_pixels_per_byte"):
        sample_frames(_read("clip.mp4"), "video/mp4", POLICY.replace(frames=4))


def test_fit_video_transcode_over_the_budget_is_refused_before_decoding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A transcode whose headers show more frames than the budget buys is refused up front."""
    _floor(monkeypatch, 9, (192, 144))  # 10 frames
    with pytest.raises(mp.MediaTooLarge, match=r"video_pixels_per_byte.*before decoding"):
        fit_video(_read("clip.3gp"), "video/3gpp", MP4, POLICY.replace(video_pixels_per_byte=1))


def test_fit_video_transcode_counts_the_encoded_pixels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decoded and encoded pixels share the budget: a clip whose frames alone fit is refused
    once encoding them again passes it."""
    _floor(monkeypatch, 15, (192, 144))  # the 10 frames decode; decoding and encoding do not
    with pytest.raises(mp.MediaTooLarge, match="decoded pixels"):
        fit_video(_read("clip.3gp"), "video/3gpp", MP4, POLICY.replace(video_pixels_per_byte=1))


# The audio budget of a transcode, lowered under the 48,384 samples of clip.webm's 1 s of Opus.
_SCANT_AUDIO = POLICY.replace(max_audio_samples_per_byte=1, audio_samples_floor=1_000)


def test_fit_video_transcode_audio_over_its_budget_is_refused_before_decoding() -> None:
    """A transcode's audio track whose headers declare more samples than the input's bytes buy
    is refused before decoding, naming the audio budget (hours of silent FLAC beside one
    frame were decoded and encoded whole)."""
    with pytest.raises(mp.MediaTooLarge, match=r"max_audio_samples_per_byte.*before decoding"):
        fit_video(_read("clip.webm"), "video/webm", MP4, _SCANT_AUDIO)


def test_fit_video_transcode_audio_is_charged_while_decoding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With headers that declare nothing, the audio samples decoded are counted and stop the
    transcode at the same budget."""
    monkeypatch.setattr(SampleBudget, "check_declared", lambda *args: None)
    with pytest.raises(mp.MediaTooLarge, match=r"max_audio_samples_per_byte.*while decoding"):
        fit_video(_read("clip.webm"), "video/webm", MP4, _SCANT_AUDIO)


def test_fit_video_remux_charges_each_packet_copied(monkeypatch: pytest.MonkeyPatch) -> None:
    """A remux copies without decoding, but each packet costs the decode budget: a packet
    that costs the whole budget stops it (a megabyte of one-byte packets took 1.7 s)."""
    budget = POLICY.video_budget(len(_read("clip.mkv")))
    monkeypatch.setattr(fit_module, "_COPIED_PACKET_PIXELS", budget)
    with pytest.raises(mp.MediaTooLarge, match="video_pixels_per_byte"):
        fit_video(_read("clip.mkv"), "video/x-matroska", MP4, POLICY)


def test_fit_video_out_of_memory_is_media_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory running out while fitting is MediaTooLarge, the MemoryError kept as its cause."""

    def exhausted(*args: Any) -> Any:
        raise MemoryError

    monkeypatch.setattr(fit_module, "_shrink", exhausted)
    with pytest.raises(mp.MediaTooLarge, match="ran out of memory") as caught:
        fit_video(_read("clip.webm"), "video/webm", MP4, POLICY)
    assert isinstance(caught.value.__cause__, MemoryError)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("sampling", ["uniform", "scenes"])
def test_sample_frames_asks_no_more_times_than_the_video_has_frames(
    monkeypatch: pytest.MonkeyPatch, name: str, sampling: str
) -> None:
    """256 frames asked of a 1 s clip: the times sought are about its frame count, from its
    headers or its length and rate."""
    counts: list[int] = []
    times = frames_module.uniform_times

    def spy(length: float, count: int) -> list[float]:
        counts.append(count)
        return times(length, count)

    monkeypatch.setattr(frames_module, "uniform_times", spy)
    policy = POLICY.replace(frames=256, sampling=sampling)
    taken = sample_frames(_read(name), TYPES[name], policy)
    assert 10 <= len(taken) <= max(counts) <= 12


# ------------------------------------------------------------------------------ scenes


def test_sample_frames_scenes_finds_the_cuts() -> None:
    """At scene changes, 4 frames of scenes.mp4 are its 4 scenes' first frames."""
    policy = POLICY.replace(frames=4, sampling="scenes")
    taken = sample_frames(_read("scenes.mp4"), "video/mp4", policy)
    assert [c.label for c in taken] == ["0:00.000", "0:01.200", "0:01.800", "0:03.200"]
    uniform = sample_frames(_read("scenes.mp4"), "video/mp4", policy.replace(sampling="uniform"))
    assert [c.label for c in uniform] == ["0:00.500", "0:01.500", "0:02.500", "0:03.500"]


def test_sample_frames_scenes_fills_up_uniformly() -> None:
    """With fewer scene changes than frames asked, evenly spaced frames fill the rest."""
    policy = POLICY.replace(frames=8, sampling="scenes")
    labels = [c.label or "" for c in sample_frames(_read("scenes.mp4"), "video/mp4", policy)]
    assert len(labels) == 8
    assert labels == sorted(labels)
    assert {"0:00.000", "0:01.200", "0:01.800", "0:03.200"} <= set(labels)


def test_sample_frames_scenes_without_changes_is_uniform() -> None:
    """A clip with no scene change gets its first frame and evenly spaced ones."""
    data = encode_clip(4, fps=10, gop=10)
    policy = POLICY.replace(frames=4, sampling="scenes")
    labels = [c.label for c in sample_frames(data, "video/mp4", policy)]
    assert labels[0] == "0:00.000"
    assert len(labels) == 4


# ------------------------------------------------------------------------------ fit_video


@pytest.mark.parametrize("name", ["clip.mp4", "clip.mov", "clip.webm"])
def test_fit_video_passes_an_accepted_video_through(name: str) -> None:
    """A video the provider takes, within its limit, comes back as it is, with no steps."""
    data = _read(name)
    accepted = ("video/mp4", "video/quicktime", "video/webm")
    fitted = fit_video(data, TYPES[name], accepted, POLICY, max_bytes=len(data))
    assert (fitted.media_type, fitted.data, fitted.steps) == (TYPES[name], data, ())


@pytest.mark.parametrize(("name", "short"), [("clip.mkv", "mkv"), ("clip.avi", "avi")])
def test_fit_video_remux_is_a_stream_copy(name: str, short: str) -> None:
    """A refused container whose codecs MP4 holds is remuxed: every packet copied as it is."""
    data = _read(name)
    fitted = fit_video(data, TYPES[name], MP4, POLICY)
    assert fitted.media_type == "video/mp4"
    assert fitted.steps == (f"remux {short}→mp4",)
    assert fitted.data is not None
    assert _packets(fitted.data, "video") == _packets(data, "video")
    assert _packets(fitted.data, "audio") == _packets(data, "audio")


@pytest.mark.parametrize(
    ("name", "steps", "size"),
    [
        (
            "clip.webm",
            ("webm→mp4", "transcode vp9→h264 120p crf 23", "audio opus→aac 128k"),
            (160, 120),
        ),
        (
            "clip.3gp",
            ("3gp→mp4", "transcode h263→h264 144p crf 23", "audio aac→aac 128k"),
            (192, 144),
        ),
    ],
)
def test_fit_video_transcodes_codecs_mp4_cannot_hold(
    name: str, steps: tuple[str, ...], size: tuple[int, int]
) -> None:
    """VP9 or H.263 for an MP4-only provider become H.264 + AAC, same size and length."""
    data = _read(name)
    fitted = fit_video(data, TYPES[name], MP4, POLICY)
    assert (fitted.media_type, fitted.steps) == ("video/mp4", steps)
    assert fitted.data is not None
    kind, codec, width, height, seconds, audio = _probe(fitted.data)
    assert (codec, (width, height), audio) == ("h264", size, ["aac"])
    assert "mp4" in kind
    assert seconds == pytest.approx(video_info(data, TYPES[name], POLICY).seconds, abs=0.05)


@pytest.mark.slow  # a video transcoded, twice
@pytest.mark.parametrize("measure", ["raw", "base64"])
def test_fit_video_shrinks_to_the_byte_limit(measure: str) -> None:
    """A 480p video over the limit becomes 360p H.264 within it, as long as before."""
    data = encode_clip(3, fps=25, size=(854, 480), busy=True, crf=34)
    limit = 150_000
    assert len(data) > limit
    fitted = fit_video(data, "video/mp4", MP4, POLICY, max_bytes=limit, measure=measure)  # type: ignore[arg-type]
    assert fitted.data is not None
    sent = len(base64.b64encode(fitted.data)) if measure == "base64" else len(fitted.data)
    assert sent <= limit
    assert fitted.steps[0].startswith("transcode h264→h264 360p ")
    _, codec, width, height, seconds, _ = _probe(fitted.data)
    assert (codec, width, height) == ("h264", 640, 360)
    assert seconds == pytest.approx(3.0, abs=0.1)
    assert (fitted.width, fitted.height) == (640, 360)
    assert fitted.seconds == pytest.approx(3.0)


@pytest.mark.slow  # a video transcoded, twice
def test_fit_video_tries_again_after_an_overshoot(monkeypatch: pytest.MonkeyPatch) -> None:
    """A transcode that comes out over the limit is made again at a lower rate, within it."""
    monkeypatch.setattr(fit_module, "_MARGIN", 2.5)  # plan for 2.5x the budget: overshoots
    data = encode_clip(3, fps=25, size=(640, 360), busy=True, crf=34)
    fitted = fit_video(data, "video/mp4", MP4, POLICY, max_bytes=150_000)
    assert fitted.data is not None
    assert len(fitted.data) <= 150_000
    first = 150_000 * 8 * 2.5 / 3 / 1000 - 32  # the first try's video rate, in kb/s
    rate = int(fitted.steps[0].rsplit(" ", 1)[1].removesuffix("k"))
    assert rate < first * 0.8


@pytest.mark.parametrize(
    ("codec", "steps"),
    [
        ("libx264", ("remux mkv→mp4",)),
        ("mpeg2video", ("mkv→mp4", "transcode mpeg2video→h264 48p crf 23", "audio aac→aac 128k")),
    ],
)
def test_fit_video_keeps_rotation(codec: str, steps: tuple[str, ...]) -> None:
    """A rotated track remuxed or transcoded keeps its display matrix: it still shows upright,
    even when an audio packet comes before the first frame."""
    data = encode_clip(2, size=(64, 48), rotation=90, container="matroska", codec=codec, audio=True)
    fitted = fit_video(data, "video/x-matroska", MP4, POLICY)
    assert fitted.steps == steps
    assert (fitted.width, fitted.height) == (48, 64)
    assert fitted.data is not None
    info = video_info(fitted.data, "video/mp4", POLICY)
    assert (info.rotation, info.width, info.height, info.audio_codec) == (90, 48, 64, "aac")


@pytest.mark.parametrize(("name", "max_bytes"), [("clip.mp4", 3000), ("clip.mkv", 6000)])
def test_fit_video_too_large_when_even_the_floor_cannot_fit(name: str, max_bytes: int) -> None:
    """A limit under the least rate mediaparts encodes is MediaTooLarge, before any encoding."""
    with pytest.raises(mp.MediaTooLarge, match="cannot be made to fit") as caught:
        fit_video(_read(name), TYPES[name], MP4, POLICY, max_bytes=max_bytes)
    assert caught.value.limit == max_bytes


def test_fit_video_refuses_a_provider_without_mp4() -> None:
    """A provider that takes neither MP4 nor QuickTime is UnsupportedMediaType naming its list."""
    with pytest.raises(mp.UnsupportedMediaType, match="MP4 or QuickTime") as caught:
        fit_video(_read("clip.mkv"), "video/x-matroska", ("video/webm",), POLICY)
    assert caught.value.accepted == ("video/webm",)


# ------------------------------------------------------------------------------ without PyAV


@pytest.mark.parametrize(
    "call",
    [
        lambda d: video_info(d, "video/mp4", POLICY),
        lambda d: sample_frames(d, "video/mp4", POLICY),
        lambda d: fit_video(d, "video/mp4", ("video/webm",), POLICY),
    ],
    ids=["video_info", "sample_frames", "fit_video"],
)
def test_without_pyav_codec_unavailable_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, call: Any
) -> None:
    """Without PyAV every video transform raises CodecUnavailable naming the [av] extra."""
    monkeypatch.setitem(sys.modules, "av", None)
    with pytest.raises(mp.CodecUnavailable, match=r"\[av\]") as caught:
        call(_read("clip.mp4"))
    assert (caught.value.extra, caught.value.package) == ("av", "av")


def test_packets_budget_checked_before_and_after_each_decode() -> None:
    """A packet is not decoded when a frame would pass the budget; work charged past it
    (an encoder's) raises at once; both name the policy field."""
    data = _read("clip.mp4")
    with av.open(io.BytesIO(data)) as container:
        stream = container.streams.video[0]
        reader = Packets(container, stream, "video/mp4", POLICY, "test", size=len(data))
        packet = next(p for p in reader.read() if p.size)
        reader.pixels = reader.budget - reader.frame_pixels() + 1
        with pytest.raises(mp.MediaTooLarge, match="video_pixels_per_byte=400"):
            reader.decode(packet)
        assert reader.decoded == 0
        with pytest.raises(mp.MediaTooLarge, match=f"more than {reader.budget:,} decoded"):
            reader.charge(reader.frame_pixels())


def test_sample_frames_scenes_judges_within_half_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Judging scenes stops at half the budget (60 key frames, a budget of 20 frames): the
    rest goes to the frames taken."""
    data = encode_clip(60, fps=10, gop=10)
    _floor(monkeypatch, 20, (64, 48))
    made = _counting(monkeypatch)
    policy = POLICY.replace(sampling="scenes", frames=4, video_pixels_per_byte=1)
    taken = sample_frames(data, "video/mp4", policy)
    (reader,) = made
    assert len(taken) == 4
    assert reader.pixels <= reader.budget


@pytest.mark.parametrize(
    ("size", "written"),
    [
        ((3840, 2160), (1920, 1080)),
        ((2160, 3840), (1080, 1920)),
        ((1920, 1080), (1920, 1080)),
        ((1281, 721), (1280, 720)),
    ],
)
def test_recipe_for_no_byte_limit_writes_at_most_1080p(
    size: tuple[int, int], written: tuple[int, int]
) -> None:
    """Without a byte limit a transcode keeps the picture's size up to the ladder's top, 1080p."""
    recipe = recipe_for(size, None, True, "video/x-matroska", 10.0, None)
    assert (recipe.width, recipe.height) == written
    assert recipe.video_kbps is None
