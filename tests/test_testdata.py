"""testdata/make.py: rerunning it, with whatever encoder builds, leaves the committed files as
they are, and its "same media" judgement tells another build's bytes from another picture."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import math
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from PIL import Image, ImageOps

from tests._builders import TESTDATA


def _load_make() -> ModuleType:
    spec = importlib.util.spec_from_file_location("testdata_make", TESTDATA / "make.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


make: Any = _load_make()

# What `ffmpeg -i` printed for the same clip.webm made by ffmpeg 5.1 and by ffmpeg 9.0: other
# bit rates and start times, the same media.
FFMPEG_51 = """Input #0, matroska,webm, from '/x/probe.webm':
  Duration: 00:00:01.01, start: 0.005000, bitrate: 103 kb/s
  Stream #0:0: Video: vp9 (Profile 0), yuv420p(tv, progressive), 160x120, SAR 1:1 DAR 4:3, 10 fps, 10 tbr, 1k tbn, start 0.007000
  Stream #0:1: Audio: opus, 48000 Hz, mono, fltp, start 0.005000
"""
FFMPEG_90 = """Input #0, matroska,webm, from '/y/probe.webm':
  Duration: 00:00:01.01, start: 0.000000, bitrate: 102 kb/s
  Stream #0:0: Video: vp9 (Profile 0), yuv420p(tv, progressive), 160x120, SAR 1:1 DAR 4:3, 10 fps, 10 tbr, 1k tbn
  Stream #0:1: Audio: opus, 48000 Hz, mono, fltp, start 0.013000
"""


def _encode(image: Image.Image, fmt: str, **params: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **params)
    return out.getvalue()


def _sine(frequency: float, *, shift: int = 0, count: int = 8000) -> bytes:
    """8 kHz mono 16-bit samples of a half-scale sine, started `shift` samples late."""
    values = [
        round(16384 * math.sin(2 * math.pi * frequency * (i - shift) / 8000)) if i >= shift else 0
        for i in range(count)
    ]
    return struct.pack(f"<{count}h", *values)


def test_make_rerun_leaves_committed_files_alone(tmp_path: Path) -> None:
    """make.py run over a copy of testdata/ rewrites no file: its output is what is committed,
    or the same media as it (another encoder build's bytes are not written)."""
    copy = tmp_path / "testdata"
    shutil.copytree(TESTDATA, copy)
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        assert make.main(["--out", str(copy)]) == 0
    changed = [
        path.name
        for path in sorted(copy.iterdir())
        if path.is_file() and path.read_bytes() != (TESTDATA / path.name).read_bytes()
    ]
    assert changed == [], printed.getvalue()


def test_make_writes_into_an_empty_folder(tmp_path: Path) -> None:
    """--out into an empty folder writes every Pillow and stdlib fixture there, and nothing
    into testdata/."""
    with contextlib.redirect_stdout(io.StringIO()):
        assert make.main(["--no-ffmpeg", "--out", str(tmp_path)]) == 0
    made = {path.name for path in tmp_path.iterdir()}
    expected = {name for name, build in make.BUILDERS.items() if build() is not None}
    assert made == expected


@pytest.mark.parametrize(
    ("fmt", "params", "other_params"),
    [
        ("JPEG", {"quality": 85}, {"quality": 84}),
        ("JPEG", {"quality": 85}, {"quality": 85, "optimize": True}),
        ("PNG", {"compress_level": 9}, {"compress_level": 1}),
        ("WEBP", {"quality": 75}, {"quality": 76}),
        ("TIFF", {"compression": "tiff_lzw"}, {"compression": "tiff_adobe_deflate"}),
    ],
)
def test_same_picture_another_encoding_is_the_same(
    fmt: str, params: dict[str, Any], other_params: dict[str, Any]
) -> None:
    """The same picture written with other encoder settings (as another library build would)
    is the same media."""
    scene = make.scene(160, 120, "same")
    old, new = _encode(scene, fmt, **params), _encode(scene, fmt, **other_params)
    assert old != new
    assert make.same_media(f"x.{fmt.lower()}", old, new, ffmpeg=False)


@pytest.mark.parametrize(
    ("change", "fmt"),
    [
        (ImageOps.mirror, "JPEG"),
        (lambda image: image.resize((161, 120)), "PNG"),
        (lambda image: image.convert("L"), "PNG"),
        (lambda image: ImageOps.invert(image), "WEBP"),
    ],
)
def test_same_picture_another_picture_differs(change: Any, fmt: str) -> None:
    """A mirrored, resized, grey or inverted picture is not the same media."""
    scene = make.scene(160, 120, "same")
    old, new = _encode(scene, fmt), _encode(change(scene), fmt)
    assert not make.same_media(f"x.{fmt.lower()}", old, new, ffmpeg=False)


def test_same_picture_animation_compares_every_frame() -> None:
    """An animation with one frame changed is not the same media."""
    frames = make.frames(160, 120, "anim")
    old = _encode(frames[0], "GIF", save_all=True, append_images=frames[1:], duration=200)
    changed = [*frames[:2], ImageOps.mirror(frames[2])]
    new = _encode(changed[0], "GIF", save_all=True, append_images=changed[1:], duration=200)
    assert make.same_media("x.gif", old, old, ffmpeg=False)
    assert not make.same_media("x.gif", old, new, ffmpeg=False)


def test_same_pdf_other_jpeg_bytes_are_the_same() -> None:
    """document.pdf with its page pictures encoded another way is the same document; with
    other text drawn, it is not."""
    old = (TESTDATA / "document.pdf").read_bytes()
    pages = [make.scene(298, 420, "page 1"), make.scene(298, 420, "page 2")]

    def pdf(images: list[Image.Image], quality: int) -> bytes:
        return _encode(images[0], "PDF", save_all=True, append_images=images[1:], quality=quality)

    assert make.same_media("document.pdf", pdf(pages, 80), pdf(pages, 81), ffmpeg=False)
    other = [pages[0], make.scene(298, 420, "page 3")]
    assert not make.same_media("document.pdf", pdf(pages, 80), pdf(other, 80), ffmpeg=False)
    assert not make.same_media("document.pdf", old, pdf(pages, 80), ffmpeg=False)


def test_same_media_text_is_compared_as_bytes() -> None:
    """Files that are not pictures (text, WAV, ZIP) are the same only when their bytes are."""
    assert not make.same_media("notes.txt", b"hello", b"hello!", ffmpeg=False)


def test_describe_with_ffmpeg_ignores_bit_rates_and_start_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two ffmpeg builds' reports of one clip describe it alike: container, duration to 0.1 s,
    each stream's codec, size, rate and channels."""
    reports = iter([FFMPEG_51, FFMPEG_90])

    def fake_read(data: bytes, suffix: str, *output: str) -> Any:
        return type("Done", (), {"stderr": next(reports).encode()})()

    monkeypatch.setattr(make, "ffmpeg_read", fake_read)
    first = make.describe_with_ffmpeg(b"", ".webm")
    assert first == make.describe_with_ffmpeg(b"", ".webm")
    assert first == (
        "Input #0, matroska,webm",
        "duration 1.0",
        "Video vp9 160x120 10 fps",
        "Audio opus 48000 Hz mono",
    )


@pytest.mark.parametrize(
    ("new", "same"),
    [
        (_sine(440), True),
        (_sine(440, shift=71), True),  # an encoder's start padding: 9 ms at 8 kHz
        (_sine(660), False),
        (bytes(16000), False),  # silence
        (_sine(440, count=7000), False),
    ],
)
def test_same_signal_allows_start_padding_only(new: bytes, same: bool) -> None:
    """Decoded sound is the same when it matches once moved by at most 20 ms, and not when
    it has another pitch, a longer delay or another length."""
    assert make.same_signal(_sine(440), new, scale=16384.0, shift=160) is same


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not installed")
def test_same_media_reads_ffmpeg_files_with_ffmpeg() -> None:
    """With ffmpeg, a committed clip is the same media as itself and not as another clip."""
    clip = (TESTDATA / "clip.mp4").read_bytes()
    assert make.same_media("clip.mp4", clip, clip, ffmpeg=True)
    assert not make.same_media(
        "clip.mp4", clip, (TESTDATA / "clip.mov").read_bytes()[:-4096], ffmpeg=True
    )
    tone = (TESTDATA / "tone.mp3").read_bytes()
    assert not make.same_media(
        "tone.mp3", tone, (TESTDATA / "tagged.mp3").read_bytes()[:2000], ffmpeg=True
    )


def _with_orientation(data: bytes, orientation: int) -> bytes:
    with Image.open(io.BytesIO(data)) as image:
        exif = image.getexif()
        exif[0x0112] = orientation
        return _encode(image, "JPEG", quality=85, exif=exif.tobytes())


def _gif(durations: list[int], loop: int) -> bytes:
    frames = make.frames(160, 120, "anim")
    return _encode(
        frames[0], "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=loop
    )


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        (
            "photo.jpg",
            lambda: _with_orientation((TESTDATA / "photo.jpg").read_bytes(), 6),
            lambda: _with_orientation((TESTDATA / "photo.jpg").read_bytes(), 1),
        ),
        ("animated.gif", lambda: _gif([200] * 3, 0), lambda: _gif([2000] * 3, 0)),
        ("animated.gif", lambda: _gif([200] * 3, 0), lambda: _gif([200] * 3, 3)),
        (
            "progressive.jpg",
            lambda: _encode(make.scene(80, 60, "p"), "JPEG", progressive=True),
            lambda: _encode(make.scene(80, 60, "p"), "JPEG"),
        ),
    ],
    ids=["orientation", "durations", "loop", "progressive"],
)
def test_same_picture_changed_metadata_differs(name: str, old: Any, new: Any) -> None:
    """Same pixels but another EXIF orientation, frame timing, loop count or progressive flag
    (what the fixtures are for) is not the same media."""
    assert not make.same_media(name, old(), new(), ffmpeg=False)


def test_same_pdf_another_page_size_differs() -> None:
    """The same pictures on pages of another size are not the same document."""
    page = make.scene(298, 420, "page")
    a6 = _encode(page, "PDF", resolution=72.0)
    a4ish = _encode(page, "PDF", resolution=36.0)  # the same pixels on a page twice as large
    assert not make.same_media("document.pdf", a6, a4ish, ffmpeg=False)


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not installed")
def test_same_media_ffmpeg_tags_count(tmp_path: Path) -> None:
    """tagged.mp3 with another title (its audio copied as it is) is not the same media."""
    source = tmp_path / "in.mp3"
    source.write_bytes((TESTDATA / "tagged.mp3").read_bytes())
    retagged = tmp_path / "out.mp3"
    command = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", str(source), "-c", "copy"]
    subprocess.run([*command, "-metadata", "title=Another", str(retagged)], check=True)
    old = source.read_bytes()
    assert make.same_media("tagged.mp3", old, old, ffmpeg=True)
    assert not make.same_media("tagged.mp3", old, retagged.read_bytes(), ffmpeg=True)


def test_make_out_must_be_a_directory(capsys: pytest.CaptureFixture[str]) -> None:
    """--out naming a file is a usage error (exit 2) saying so, not a traceback."""
    with pytest.raises(SystemExit) as exited:
        make.main(["--no-ffmpeg", "--out", str(TESTDATA / "photo.jpg")])
    assert exited.value.code == 2
    assert "is a file, not a directory" in capsys.readouterr().err


def _repacked(name: str, part: str, change: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(TESTDATA / name) as source, zipfile.ZipFile(out, "w") as target:
        for entry in source.infolist():
            member = source.read(entry)
            target.writestr(entry, member + change if entry.filename == part else member)
    return out.getvalue()


@pytest.mark.parametrize(
    ("part", "same"),
    [("docProps/app.xml", True), ("word/document.xml", False), ("word/styles.xml", False)],
)
def test_same_package_ignores_only_the_app_version(part: str, same: bool) -> None:
    """An Office package written by another library version (another docProps/app.xml) is the
    same media; with any other entry changed it is not."""
    old = (TESTDATA / "report.docx").read_bytes()
    new = _repacked("report.docx", part, b"<!-- other -->")
    assert old != new
    assert make.same_media("report.docx", old, new, ffmpeg=False) is same
