"""Media duration from container headers, and PDF page counts without a PDF library."""

from __future__ import annotations

import io
import struct
import wave
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mediaparts.detection import canonical_media_type
from mediaparts.formats._duration import (
    _MUTAGEN,
    _OWN,
    audio_duration,
    video_duration,
    video_has_audio,
)

AUDIO = [
    ("tone.wav", "audio/wav"),
    ("tone.wav", "audio/x-wav"),
    ("tone.mp3", "audio/mpeg"),
    ("tagged.mp3", "audio/mp3"),
    ("tone.m4a", "audio/mp4"),
    ("tone.m4a", "audio/x-m4a"),
    ("tone.ogg", "audio/ogg"),
    ("tone.opus", "audio/opus"),
    ("tone.flac", "audio/flac"),
    ("tone.aiff", "audio/aiff"),
    ("tone.aac", "audio/aac"),
    ("tone.webm", "audio/webm"),
]
VIDEO = [
    ("clip.mp4", "video/mp4"),
    ("clip.mov", "video/quicktime"),
    ("clip.mkv", "video/x-matroska"),
    ("clip.webm", "video/webm"),
    ("clip.avi", "video/x-msvideo"),
]
EVERY_TYPE = sorted({*_MUTAGEN, *_OWN})


@pytest.mark.parametrize(("name", "media_type"), AUDIO)
def test_audio_duration_of_one_second_tones(testdata: Path, name: str, media_type: str) -> None:
    """Every testdata tone reads as about one second (encoder padding aside)."""
    # Aliases (audio/x-wav, audio/mp3, audio/opus) are folded by the caller, as estimate does.
    seconds = audio_duration((testdata / name).read_bytes(), canonical_media_type(media_type))
    assert seconds == pytest.approx(1.0, abs=0.1)


@pytest.mark.parametrize(("name", "media_type"), VIDEO)
def test_video_duration_of_one_second_clips(testdata: Path, name: str, media_type: str) -> None:
    """Every testdata clip reads as about one second."""
    seconds = video_duration((testdata / name).read_bytes(), media_type)
    assert seconds == pytest.approx(1.0, abs=0.15)


def test_wav_duration_is_exact() -> None:
    """A stdlib-written WAV of 2.5 s at 8 kHz reads as exactly 2.5 s."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        out.writeframes(b"\x00\x00" * 20_000)
    assert audio_duration(buffer.getvalue(), canonical_media_type("audio/wav; codecs=1")) == 2.5


@pytest.mark.parametrize(
    ("name", "media_type"),
    [
        ("tone.mp3", "audio/mpeg"),  # ffmpeg's Info tag: 1,105 samples of delay and padding
        ("tagged.mp3", "audio/mpeg"),  # the same behind an ID3v2 tag
        ("tone.m4a", "audio/mp4"),  # 1,024 priming samples skipped by the edit list
        ("clip.mp4", "video/mp4"),
        ("clip.mov", "video/quicktime"),
    ],
)
def test_duration_leaves_out_encoder_delay_and_padding(
    testdata: Path, name: str, media_type: str
) -> None:
    """ffmpeg's one-second MP3 and AAC read as exactly 1 s: priming and padding are not audio."""
    assert audio_duration((testdata / name).read_bytes(), media_type) == pytest.approx(
        1.0, abs=1e-9
    )


def test_mp4_without_movie_duration_falls_back_to_the_track(testdata: Path) -> None:
    """A movie header with no duration (as in fragmented MP4) leaves it to the track's."""
    data = bytearray((testdata / "tone.m4a").read_bytes())
    at = data.index(b"mvhd") + 4
    assert data[at] == 0  # version 0: timescale at +12, duration at +16
    data[at + 16 : at + 20] = bytes(4)
    assert audio_duration(bytes(data), "audio/mp4") == pytest.approx(1.064, abs=0.01)


# (file, media type, bytes swapped to hide the audio track: MP4 `hdlr` type, Matroska TrackType)
SILENCED = [
    ("clip.mp4", "video/mp4", b"soun", b"vide"),
    ("clip.mov", "video/quicktime", b"soun", b"vide"),
    ("clip.mkv", "video/x-matroska", b"\x83\x81\x02", b"\x83\x81\x01"),
    ("clip.webm", "video/webm", b"\x83\x81\x02", b"\x83\x81\x01"),
]


@pytest.mark.parametrize(("name", "media_type", "audio", "silent"), SILENCED)
def test_video_has_audio_from_track_headers(
    testdata: Path, name: str, media_type: str, audio: bytes, silent: bytes
) -> None:
    """A video's audio track is found in its headers; with that track retyped it is not."""
    data = (testdata / name).read_bytes()
    assert data.count(audio) == 1
    assert video_has_audio(data, media_type) is True
    assert video_has_audio(data.replace(audio, silent), media_type) is False


@pytest.mark.parametrize(("name", "media_type"), [*VIDEO, ("tone.wav", "video/mp4")])
def test_video_has_audio_never_raises(testdata: Path, name: str, media_type: str) -> None:
    """Unread containers and cut or foreign bytes give None (or an answer), never an error."""
    data = (testdata / name).read_bytes()
    for size in (0, 8, 40, len(data) // 2, len(data)):
        assert video_has_audio(data[:size], media_type) in (True, False, None)
    assert video_has_audio((testdata / "clip.avi").read_bytes(), "video/x-msvideo") is None


def test_unknown_type_is_none(testdata: Path) -> None:
    """A type with no reader gives None, even for readable bytes."""
    assert audio_duration((testdata / "tone.wav").read_bytes(), "audio/x-unknown") is None
    assert video_duration((testdata / "clip.mp4").read_bytes(), "image/png") is None


@pytest.mark.parametrize(("name", "media_type"), [*AUDIO, *VIDEO])
def test_truncated_media_never_raises(testdata: Path, name: str, media_type: str) -> None:
    """Cut-off files give a duration or None, never an exception."""
    data = (testdata / name).read_bytes()
    for size in (0, 4, 12, 40, 100, len(data) // 2):
        result = audio_duration(data[:size], media_type)
        assert result is None or result > 0


@pytest.mark.parametrize("media_type", EVERY_TYPE)
def test_mislabelled_bytes_give_none(testdata: Path, media_type: str) -> None:
    """A JPEG under an audio or video type is not given a duration."""
    assert audio_duration((testdata / "photo.jpg").read_bytes(), media_type) is None


@given(data=st.binary(max_size=2048), media_type=st.sampled_from(EVERY_TYPE))
def test_garbage_never_raises(data: bytes, media_type: str) -> None:
    """Random bytes under any supported type give None or a positive duration."""
    result = audio_duration(data, media_type)
    assert result is None or result > 0


def _ebml(eid: int, body: bytes, *, unknown_size: bool = False) -> bytes:
    id_bytes = eid.to_bytes((eid.bit_length() + 7) // 8, "big")
    size = (
        b"\x01\xff\xff\xff\xff\xff\xff\xff"
        if unknown_size
        else (0x10000000 | len(body)).to_bytes(4, "big")
    )
    return id_bytes + size + body


def test_matroska_duration_with_scale_and_unknown_segment_size() -> None:
    """The Info Duration is scaled by TimestampScale; an unknown-size segment is read too."""
    info = _ebml(
        0x1549A966,
        _ebml(0x2AD7B1, (1_000_000).to_bytes(3, "big")) + _ebml(0x4489, struct.pack(">d", 2500.0)),
    )
    data = _ebml(0x1A45DFA3, b"") + _ebml(
        0x18538067, _ebml(0xEC, b"\0" * 8) + info, unknown_size=True
    )
    assert audio_duration(data, "audio/webm") == 2.5
    float32 = _ebml(0x1549A966, _ebml(0x4489, struct.pack(">f", 1500.0)))  # default 1 ms scale
    assert video_duration(_ebml(0x18538067, float32), "video/x-matroska") == 1.5


def test_matroska_without_duration_is_none() -> None:
    """A live WebM (no Duration before the first Cluster) has no known duration."""
    data = _ebml(0x18538067, _ebml(0x1F43B675, b"\0" * 16) + _ebml(0x1549A966, b""))
    assert video_duration(data, "video/webm") is None
