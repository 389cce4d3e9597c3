"""Provider file references: a `file_id` in one provider's file store, never fetched or read."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import mediaparts as mp


def _ref(media_type: str | None = "application/pdf", provider: str = "openai") -> Any:
    return mp.part({"file_id": "file-abc", "provider": provider, "media_type": media_type})


@pytest.mark.parametrize(
    ("media_type", "cls"),
    [
        ("image/jpeg", mp.ImagePart),
        ("audio/mpeg", mp.AudioPart),
        ("video/mp4", mp.VideoPart),
        ("application/pdf", mp.FilePart),
        ("text/csv", mp.FilePart),
        (None, mp.FilePart),
    ],
)
def test_reference_from_dict_picks_class_by_media_type(
    media_type: str | None, cls: type[mp.MediaPart]
) -> None:
    """`mp.part({"file_id", "provider", "media_type"})` is a reference of the declared kind."""
    made = _ref(media_type)
    assert type(made) is cls
    assert (made.file_id, made.file_provider, made.media_type) == ("file-abc", "openai", media_type)
    assert made.is_reference and made.url is None and made.inline is None
    assert not made.is_loaded and made.size is None


def test_reference_keeps_fields() -> None:
    """A reference keeps filename, detail, metadata, cache and native like any media part."""
    made = mp.part(
        {"file_id": "files/abc", "provider": "gemini", "media_type": "image/png"},
        filename="cat.png",
        detail="low",
        metadata={"k": 1},
        cache="5m",
        native={"gemini": {"camel": True}},
    )
    assert isinstance(made, mp.ImagePart)
    assert (made.filename, made.detail, made.metadata, made.cache) == (
        "cat.png",
        "low",
        {"k": 1},
        "5m",
    )
    assert made.to_dict() == {
        "kind": "image",
        "media_type": "image/png",
        "filename": "cat.png",
        "metadata": {"k": 1},
        "file_id": "files/abc",
        "file_provider": "gemini",
        "detail": "low",
        "cache": "5m",
        "native": {"gemini": {"camel": True}},
    }
    assert mp.part(made.to_dict()) == made


def test_reference_by_class_constructor() -> None:
    """A part class takes file_id= and file_provider= directly; media_type may be None."""
    made = mp.FilePart(file_id="file-abc", file_provider="openai", media_type=None, filename=None)
    assert made == _ref(None)
    assert hash(made) == hash(_ref(None))
    assert made != _ref(None, provider="anthropic")


def test_reference_has_no_bytes() -> None:
    """Reading a reference's bytes raises InvalidMedia naming its store; nothing is fetched."""
    made = _ref()
    with pytest.raises(mp.InvalidMedia, match="openai's file store"):
        _ = made.data
    with pytest.raises(mp.InvalidMedia, match="never fetched"):
        made.load()
    with pytest.raises(mp.InvalidMedia, match="file-abc"):
        asyncio.run(made.aload())
    with pytest.raises(mp.InvalidMedia):
        made.to_base64()
    with pytest.raises(mp.InvalidMedia):
        made.resolve()


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ({"file_id": "f"}, mp.InvalidMedia, "file_provider"),
        ({"file_id": "", "provider": "openai"}, mp.InvalidMedia, "non-empty"),
        ({"file_id": 12, "provider": "openai"}, mp.InvalidMedia, "non-empty strings"),
        ({"file_id": "f", "provider": ""}, mp.InvalidMedia, "non-empty"),
        ({"file_id": "f", "provider": "openai", "data": "AAAA"}, mp.InvalidMedia, "exactly one"),
        ({"file_id": "f", "provider": "openai", "url": "https://x/y"}, mp.InvalidMedia, "one"),
        ({"url": "https://x/y.png", "provider": "openai"}, mp.InvalidMedia, "has none"),
        (
            {"file_id": "f", "provider": "openai", "media_type": "text/csv", "detail": "low"},
            mp.InvalidMedia,
            "images only",
        ),
        (
            {"kind": "image", "file_id": "f", "file_provider": "o", "media_type": "audio/mpeg"},
            mp.UnsupportedMediaType,
            "ImagePart cannot hold",
        ),
        ({"file_id": "f", "provider": "openai", "media_type": 3}, mp.InvalidMedia, "string"),
    ],
)
def test_reference_refuses_bad_dicts(
    value: dict[str, Any], error: type[Exception], message: str
) -> None:
    """A malformed reference is our own error, saying what is wrong."""
    with pytest.raises(error, match=message):
        mp.part(value)


def test_reference_class_refuses_bytes_with_file_id() -> None:
    """A part holds bytes, a URL or a file_id, never two of them."""
    with pytest.raises(mp.InvalidMedia, match="give one"):
        mp.ImagePart(file_id="f", file_provider="openai", url="https://media.example/a.png")
    with pytest.raises(mp.InvalidMedia, match="file_provider"):
        mp.ImagePart(file_id="f")


@pytest.mark.parametrize(
    ("store", "provider"),
    [
        ("openai", "openai"),
        ("openai", "openai-responses"),
        ("openai-responses", "openai-responses"),
        ("anthropic", "anthropic"),
        ("gemini", "gemini"),
        ("bedrock", "bedrock"),
    ],
)
def test_reference_normalizes_to_its_own_store(store: str, provider: str) -> None:
    """normalize() passes a reference of the provider's store through as its file_id."""
    made = _ref(provider=store)
    fitted = mp.normalize(made, provider)
    assert fitted.file_id == "file-abc"
    assert (fitted.data, fitted.url, fitted.text) == (None, None, None)
    assert fitted.media_type == "application/pdf" and fitted.kind == "file"


def test_reference_without_media_type_normalizes() -> None:
    """A reference of unknown type is sent as the provider's generic file."""
    fitted = mp.normalize(_ref(None), "openai")
    assert fitted.file_id == "file-abc" and fitted.media_type == "application/octet-stream"


@pytest.mark.parametrize(
    ("store", "provider"),
    [
        ("openai", "anthropic"),
        ("openai", "gemini"),
        ("openai", "bedrock"),
        ("anthropic", "openai"),
        ("anthropic", "openai-responses"),
        ("openai-responses", "openai"),
        ("gemini", "bedrock"),
    ],
)
def test_reference_of_another_store_is_unsupported(store: str, provider: str) -> None:
    """normalize() refuses a file in another provider's store, naming both."""
    with pytest.raises(mp.UnsupportedMediaType, match=f"{store}'s file store") as caught:
        mp.normalize(_ref(provider=store), provider)
    assert caught.value.provider == provider
