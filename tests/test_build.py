"""mp.part(): choosing the class and reading dict shorthands."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

import mediaparts as mp


def test_part_dispatches_on_value_type(testdata: Path) -> None:
    """Paths, strings, bytes, file objects, PIL images and data URIs each make a part."""
    png = (testdata / "alpha.png").read_bytes()
    uri = mp.ImagePart.from_bytes(png).to_data_uri()
    with (testdata / "alpha.png").open("rb") as f:
        from_file = mp.part(f)
    made = [
        mp.part(testdata / "alpha.png"),
        mp.part(str(testdata / "alpha.png")),
        mp.part(png),
        mp.part(bytearray(png)),
        mp.part(memoryview(png)),
        mp.part(uri),
        from_file,
        mp.part(io.BytesIO(png)),
    ]
    assert {type(p) for p in made} == {mp.ImagePart}
    assert {p.data for p in made} == {png}
    assert from_file.filename == "alpha.png"
    assert type(mp.part(Image.new("L", (3, 3)))) is mp.ImagePart


@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "ftp://example.com/a.png", "s3://bucket/key.pdf", "FILE:///x"]
)
def test_part_other_scheme_string_is_a_url_refused_on_load(url: str) -> None:
    """A string with any URL scheme is a URL part, and the fetch policy refuses it on load."""
    made = mp.part(url)
    assert (made.url, made.is_loaded) == (url, False)
    with pytest.raises(mp.BlockedURL, match="scheme"):
        made.load()


@pytest.mark.parametrize("path", ["C://x.png", "photos/a:b.png", "a+b.png"])
def test_part_path_like_string_is_a_path(path: str) -> None:
    """A drive letter or a colon inside a name does not make a string a URL."""
    with pytest.raises(mp.InvalidMedia, match="no file"):
        mp.part(path)


def test_part_repr_hides_url_credentials() -> None:
    """A part's repr (which ends up in logs) shows no user name or password."""
    made = mp.ImagePart.from_url("https://bob:s3cret@example.com/a.png")
    assert "s3cret" not in repr(made) and "bob" not in repr(made)
    assert "***@example.com/a.png" in repr(made)


def test_part_url_string_is_lazy_and_typed_by_extension() -> None:
    """An http(s) string is a lazy URL part whose class follows the extension."""
    assert type(mp.part("https://example.com/a.mp3")) is mp.AudioPart
    assert type(mp.part("HTTPS://example.com/v.webm")) is mp.VideoPart
    assert type(mp.part("https://example.com/doc.pdf?x=1#p2")) is mp.FilePart
    made = mp.part("https://example.com/no-extension")
    assert (type(made), made.media_type, made.is_loaded) == (mp.FilePart, None, False)
    assert type(mp.part("https://example.com/x", media_type="image/png")) is mp.ImagePart


def test_part_never_guesses_base64_from_a_bare_string() -> None:
    """A bare string is a path, even when it happens to be valid base64."""
    with pytest.raises(mp.InvalidMedia, match="no file at"):
        mp.part("aGVsbG8gd29ybGQ=")


def test_part_returns_same_part_without_fields(testdata: Path) -> None:
    """A part passes through untouched; with fields, a changed copy is made."""
    made = mp.part(testdata / "photo.jpg")
    assert mp.part(made) is made
    detailed = mp.part(made, detail="low", metadata={"k": 1})
    assert isinstance(detailed, mp.ImagePart) and isinstance(made, mp.ImagePart)
    assert (detailed.detail, detailed.metadata, detailed.data) == ("low", {"k": 1}, made.data)
    assert made.detail is None


@pytest.mark.parametrize(
    ("shorthand", "cls", "media_type"),
    [
        ({"path": "photo.jpg"}, mp.ImagePart, "image/jpeg"),
        ({"path": "tone.wav", "metadata": {"take": 2}}, mp.AudioPart, "audio/wav"),
        ({"path": "photo.jpg", "detail": "high"}, mp.ImagePart, "image/jpeg"),
        ({"url": "https://example.com/x.png"}, mp.ImagePart, "image/png"),
        ({"url": "https://example.com/x", "media_type": "video/mp4"}, mp.VideoPart, "video/mp4"),
    ],
)
def test_part_shorthand_sources(
    testdata: Path, shorthand: dict[str, object], cls: type, media_type: str
) -> None:
    """Each shorthand source makes the right class and type."""
    if "path" in shorthand:
        shorthand = {**shorthand, "path": str(testdata / str(shorthand["path"]))}
    made = mp.part(shorthand)
    assert isinstance(made, mp.MediaPart) and (type(made), made.media_type) == (cls, media_type)


def test_part_shorthand_data_forms(testdata: Path) -> None:
    """data may be base64 text, a data URI or raw bytes; all give the same part."""
    raw = (testdata / "tone.wav").read_bytes()
    reference = mp.AudioPart.from_bytes(raw)
    for data in (reference.to_base64(), reference.to_data_uri(), raw):
        assert mp.part({"data": data}) == reference


@pytest.mark.parametrize(
    ("shorthand", "message"),
    [
        ({"pth": "a.png"}, "unknown key 'pth'.*allowed keys are path, url, data"),
        (
            {"path": "a.png", "url": "https://x/a.png"},
            "exactly one of path, url or data.*found: path, url",
        ),
        ({"media_type": "image/png"}, "found: none"),
        ({}, "found: none"),
        ({"data": "@@not base64@@"}, "not valid base64"),
        ({"data": "data:image/png;base64"}, "malformed data URI"),
        ({"data": 12}, "'data' must be"),
        ({"url": ["x"]}, "'url' must be a string"),
        ({"kind": "hologram", "data": "AAAA"}, "unknown part kind"),
        ({"kind": "text", "text": "x", "url": "y"}, "TextPart: url"),
        ({"path": "x.png", "metadata": "m"}, "metadata must be a dict"),
    ],
)
def test_part_shorthand_errors(shorthand: dict[str, object], message: str) -> None:
    """A bad shorthand raises InvalidMedia (a ValueError) naming the problem."""
    with pytest.raises(mp.InvalidMedia, match=message):
        mp.part(shorthand)
    with pytest.raises(ValueError):  # noqa: PT011 - the message is checked just above
        mp.part(shorthand)


def test_part_detail_only_for_images(testdata: Path) -> None:
    """detail on something that is not an image is refused."""
    with pytest.raises(mp.InvalidMedia, match="images only"):
        mp.part({"path": str(testdata / "document.pdf"), "detail": "low"})


def test_part_unknown_value_type() -> None:
    """A value of no known kind raises InvalidMedia listing what is accepted."""
    with pytest.raises(mp.InvalidMedia, match="cannot make a part from int"):
        mp.part(42)
    with pytest.raises(mp.InvalidMedia, match="unknown field"):
        mp.part(b"x", colour="red")


def test_part_kind_from_to_dict_is_checked(testdata: Path) -> None:
    """to_dict output whose kind contradicts its bytes is refused."""
    data = mp.part(testdata / "document.pdf").to_dict()
    with pytest.raises(mp.UnsupportedMediaType, match="application/pdf"):
        mp.part({**data, "kind": "image"})
    with pytest.raises(mp.UnsupportedMediaType):
        mp.ImagePart.from_dict(data)
