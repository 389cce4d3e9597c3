"""The media factory's refusals, and its ffmpeg path run against a stand-in ffmpeg."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

import mediaparts as mp
from mediaparts.testing import MediaFactory

# Lists two audio encoders; "encodes" by copying the input WAV to the output (the last
# argument), and fails for AAC, as an ffmpeg whose encoder breaks would.
FAKE_FFMPEG = """#!/bin/sh
if [ "$2" = "-encoders" ]; then
  printf ' V..... libx264  H.264\\n A..... libshine  MP3\\n A..... aac  AAC\\n'
  exit 0
fi
prev=""
for arg; do [ "$prev" = "-i" ] && source="$arg"; prev="$arg"; done
case "$arg" in *.aac) echo "aac: broken encoder" >&2; exit 1;; esac
cp "$source" "$arg"
"""


@pytest.fixture
def fake_ffmpeg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in `ffmpeg` first on PATH."""
    script = tmp_path / "ffmpeg"
    script.write_text(FAKE_FFMPEG)
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    return script


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda m: m.audio(0), "seconds must be over 0 and at most 3600, got 0"),
        (lambda m: m.audio(True), "seconds must be over 0 and at most 3600, got True"),
        (lambda m: m.audio(3601), "seconds must be over 0 and at most 3600, got 3601"),
        (lambda m: m.audio(1, "mp4"), "cannot make 'mp4' audio; use one of wav, mp3"),
        (lambda m: m.pdf(0), "pages must be an int from 1 to 1000, got 0"),
        (lambda m: m.pdf(True), "pages must be an int from 1 to 1000, got True"),
        (lambda m: m.text("x", "docx"), "cannot make 'docx' files; use one of csv, tsv"),
    ],
)
def test_media_refuses_what_it_cannot_make(
    media: MediaFactory, make: Callable[[MediaFactory], object], message: str
) -> None:
    """Impossible audio, PDF and text requests raise InvalidConfig (a ValueError) saying what is possible."""
    with pytest.raises(mp.InvalidConfig, match=re.escape(message)):
        make(media)


def test_media_text_takes_only_str(media: MediaFactory) -> None:
    """Bytes given as text are an InvalidConfig naming the type."""
    with pytest.raises(mp.InvalidConfig, match="takes str, got bytes"):
        media.text(b"a,b")  # type: ignore[arg-type]  # the wrong type is the point


def test_media_audio_encodes_with_the_first_encoder_ffmpeg_has(
    media: MediaFactory, fake_ffmpeg: Path
) -> None:
    """mp3 goes through an encoder this ffmpeg has, and what it writes is the part's bytes."""
    part = media.audio(0.25, "mp3")
    assert (part.data, part.filename) == (media.audio(0.25).data, "audio.mp3")


def test_media_audio_skips_without_an_encoder(media: MediaFactory, fake_ffmpeg: Path) -> None:
    """An ffmpeg without the format's encoders skips the test, naming them."""
    with pytest.raises(pytest.skip.Exception, match="this ffmpeg has none of flac"):
        media.audio(0.25, "flac")


def test_media_audio_reports_an_ffmpeg_failure(media: MediaFactory, fake_ffmpeg: Path) -> None:
    """An encoder that fails is a RuntimeError carrying ffmpeg's message."""
    with pytest.raises(RuntimeError, match="ffmpeg could not encode aac: aac: broken encoder"):
        media.audio(0.25, "aac")
