"""estimate_tokens: the worked examples of the providers' documentation, end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

import mediaparts as mp
from tests import _builders
from tests._builders import TESTDATA


def png_header(width: int, height: int) -> mp.ImagePart:
    """A PNG whose header says width x height (estimates read only the header)."""
    return mp.ImagePart.from_bytes(_builders.png_header(width, height))


# (provider, model, detail, width, height, tokens): the worked examples in the providers' docs.
VECTORS = [
    ("openai", "gpt-4o", "high", 1024, 1024, 765),
    ("openai", "gpt-4o", "high", 2048, 4096, 1105),
    ("openai", "gpt-4o", "low", 4096, 8192, 85),
    ("openai", "gpt-5.4", "high", 1024, 1024, 1229),
    ("openai", "gpt-5.4", "high", 2048, 2048, 3000),
    ("openai-responses", "gpt-4o", "high", 1024, 1024, 765),
    ("openai", "o4-mini", "high", 1800, 2400, 2498),  # 1452 patches x 1.72, rounded up
    ("anthropic", None, None, 200, 200, 64),
    ("anthropic", None, None, 1000, 1000, 1296),
    ("anthropic", None, None, 1092, 1092, 1521),
    ("anthropic", None, None, 1920, 1080, 1560),
    ("anthropic", None, None, 2000, 1500, 1564),
    ("anthropic", None, None, 3840, 2160, 1560),
    ("anthropic", None, None, 1075, 1520, 1551),  # A4 at the standard tier
    ("anthropic", "claude-opus-4-7", None, 1920, 1080, 2691),
    ("anthropic", "claude-opus-4-7", None, 3840, 2160, 4784),
    ("anthropic", "claude-opus-4-7", None, 1075, 1520, 2145),
    ("bedrock", "anthropic.claude-sonnet-4-5-20250929-v1:0", None, 1000, 1000, 1296),
    ("gemini", "gemini-2.5-pro", None, 300, 300, 258),
    ("gemini", "gemini-3-pro", "low", 1000, 1000, 280),
    ("gemini", "gemini-3-pro", None, 1000, 1000, 1120),
    ("gemini", "gemini-3-pro", "medium", 1000, 1000, 560),
    ("gemini", "gemini-3-pro", "ultra_high", 1000, 1000, 2240),
]


@pytest.mark.parametrize(("provider", "model", "detail", "width", "height", "tokens"), VECTORS)
def test_estimate_tokens_worked_examples(
    provider: str, model: str | None, detail: str | None, width: int, height: int, tokens: int
) -> None:
    """Every documented worked example is reproduced exactly."""
    assert (
        mp.estimate_tokens(png_header(width, height), provider, model=model, detail=detail)
        == tokens
    )


def test_estimate_tokens_gemini_audio_minute(tmp_path: Path) -> None:
    """One minute of audio is 1,920 tokens on Gemini."""
    import wave

    path = tmp_path / "minute.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(800)
        w.writeframes(b"\x80" * 800 * 60)
    assert mp.estimate_tokens(path, "gemini") == 1920


def test_estimate_tokens_uses_upright_size(testdata: Path) -> None:
    """An EXIF-rotated photo is priced at its upright size (480x640, not 640x480)."""
    assert mp.estimate_tokens(testdata / "photo.jpg", "anthropic") == 18 * 23
    assert mp.estimate_tokens(png_header(480, 640), "anthropic") == 18 * 23


def test_estimate_tokens_sums_messages(testdata: Path) -> None:
    """Over messages, media costs add up and text is counted too: the total of the breakdown."""
    one = mp.estimate_tokens(testdata / "alpha.png", "anthropic")
    msgs = [
        mp.System("terse"),
        mp.User("Two images", files=[testdata / "alpha.png", testdata / "alpha.png"]),
    ]
    counted = mp.count_tokens(msgs, "anthropic")
    media = [p for p in counted.parts if p.kind == "image"]
    assert [p.tokens for p in media] == [one, one]
    text = [p for p in counted.parts if p.kind == "text"]
    assert len(text) == 2 and all(p.tokens > 0 and p.method == "approximate" for p in text)
    assert (
        mp.estimate_tokens(msgs, "anthropic")
        == counted.total
        == 2 * one + sum(p.tokens for p in text)
    )
    assert mp.estimate_tokens(mp.User("Only text"), "anthropic") > 0
    csv = mp.count_tokens(mp.User(files=[testdata / "data.csv"]), "anthropic")
    assert csv.total > 0 and csv.messages[0].parts[0].how.startswith("text file")


def test_estimate_tokens_detail_from_part() -> None:
    """An image's own detail is used when none is passed."""
    low = mp.part(png_header(1024, 1024), detail="low")
    assert mp.estimate_tokens(low, "openai", model="gpt-4o") == 85


@pytest.mark.parametrize(
    ("name", "provider", "error"),
    [
        ("tone.wav", "anthropic", mp.UnsupportedMediaType),
        ("tone.wav", "openai", mp.NoDocumentedRule),
        ("document.pdf", "openai", mp.NoDocumentedRule),
        ("tone.m4a", "openai-responses", mp.UnsupportedMediaType),
    ],
)
def test_estimate_tokens_no_guess(
    testdata: Path, name: str, provider: str, error: type[Exception]
) -> None:
    """Media with no documented rule raise NoDocumentedRule (or are refused), never a guess."""
    with pytest.raises(error):
        mp.estimate_tokens(testdata / name, provider)


def test_estimate_tokens_silent_video_on_gemini(testdata: Path) -> None:
    """A second of video is 263 + 32 tokens on Gemini, 263 when it has no audio track."""
    data = (testdata / "clip.mp4").read_bytes()
    assert mp.estimate_tokens(mp.VideoPart.from_bytes(data), "gemini") == 295
    silent = mp.VideoPart.from_bytes(data.replace(b"soun", b"vide"))
    assert mp.estimate_tokens(silent, "gemini") == 263


def test_estimate_tokens_ffmpeg_audio_without_padding(testdata: Path) -> None:
    """An ffmpeg-made MP3 is priced without its encoder delay and padding: 1 s is 32 tokens."""
    assert mp.estimate_tokens(testdata / "tone.mp3", "gemini") == 32
    assert mp.estimate_tokens(testdata / "tone.m4a", "gemini") == 32


def test_estimate_tokens_pdf_pages_on_gemini(testdata: Path) -> None:
    """A 2-page PDF on Gemini 2.x costs 258 per page."""
    assert mp.estimate_tokens(testdata / "document.pdf", "gemini", model="gemini-2.5-flash") == 516


def test_estimate_tokens_unknown_detail() -> None:
    """An unknown detail level is refused, naming the allowed ones."""
    with pytest.raises(mp.InvalidMedia, match="detail"):
        mp.estimate_tokens(png_header(100, 100), "openai", model="gpt-4o", detail="ultra")


def test_estimate_reads_a_string_as_a_path() -> None:
    """A str is a path (or URL, or data URI) to estimate_tokens, as to mp.part; never a prompt."""
    path = str(TESTDATA / "photo.jpg")
    assert mp.estimate_tokens(path, "anthropic") == mp.estimate_tokens(mp.part(path), "anthropic")
    assert mp.estimate_tokens(path, "anthropic") > 0


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_estimate_tokens_video_frames_are_read_from_headers(
    monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    """A video sent as frames is priced from its headers, no frame sampled, at the same count
    as the frames normalize sends."""
    pytest.importorskip("av")
    from mediaparts.converting import _frames

    video = mp.part(TESTDATA / "clip.mp4")
    counted = mp.count_tokens(video, provider)
    sampled = mp.normalize(video, provider)

    def refused(*args: object, **kwargs: object) -> object:
        raise AssertionError("a token estimate decoded frames")

    monkeypatch.setattr(_frames, "sample_frames", refused)
    monkeypatch.setattr(mp.converting, "sample_frames", refused)  # the lazy export, once loaded
    assert mp.estimate_tokens(video, provider) == counted.total
    assert counted.total >= (sampled.tokens or 0) > 0
    assert counted.messages[0].parts[0].how.startswith("as sent (video→8 frames (uniform))")
