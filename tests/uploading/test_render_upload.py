"""`render(..., urls="upload", uploader=mp.Uploader(client))`: big media go by reference."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
from typing import Any

import pytest

import mediaparts as mp
from tests._builders import TESTDATA
from tests.providers._sdk import validate_request
from tests.uploading._servers import (
    AnthropicFiles,
    GeminiFiles,
    OpenAIFiles,
    Stubber,
    expect_put,
    s3_client,
)

PDF = TESTDATA / "document.pdf"
PNG = TESTDATA / "palette.png"
PDF_KEY = f"m/{hashlib.sha256(PDF.read_bytes()).hexdigest()}.pdf"

# What each provider's payload holds for the uploaded PDF, the first file its store made.
PDF_BLOCKS: dict[str, Any] = {
    "openai": {"type": "file", "file": {"file_id": "file-1", "filename": "document.pdf"}},
    "openai-responses": {"type": "input_file", "file_id": "file-1"},
    "anthropic": {
        "type": "document",
        "source": {"type": "file", "file_id": "file_0001"},
        "title": "document.pdf",
    },
    "gemini": {
        "fileData": {
            "mimeType": "application/pdf",
            "fileUri": "https://generativelanguage.googleapis.com/v1beta/files/f1",
        }
    },
    "bedrock": {
        "document": {
            "name": "document",
            "source": {"s3Location": {"uri": f"s3://media/{PDF_KEY}"}},
            "format": "pdf",
        }
    },
}


def _messages() -> list[mp.Message]:
    return [mp.User(["Summarize", mp.part(PDF)])]


def _content(provider: str, payload: dict[str, Any]) -> list[Any]:
    match provider:
        case "openai" | "anthropic" | "bedrock":
            return list(payload["messages"][0]["content"])
        case "openai-responses":
            return list(payload["input"][0]["content"])
        case _:
            return list(payload["contents"][0]["parts"])


def _store(provider: str) -> tuple[Any, Any, dict[str, Any]]:
    """The fake store, a blocking client and the Uploader's extra settings."""
    match provider:
        case "openai" | "openai-responses":
            store: Any = OpenAIFiles()
        case "anthropic":
            store = AnthropicFiles()
        case "gemini":
            store = GeminiFiles()
        case _:
            client = s3_client()
            return Stubber(client), client, {"location": "s3://media/m/"}
    return store, store.client(), {}


@pytest.mark.parametrize("provider", sorted(PDF_BLOCKS))
def test_render_upload_sends_reference(provider: str) -> None:
    """With min_bytes=0 the PDF is uploaded and rendered as the API's file reference."""
    store, client, extra = _store(provider)
    uploader = mp.Uploader(client, cache=None, min_bytes=0, **extra)
    if provider == "bedrock":
        with store:
            expect_put(store, "media", PDF_KEY, PDF.read_bytes(), "application/pdf")
            payload = mp.render(_messages(), provider, urls="upload", uploader=uploader)
            store.assert_no_pending_responses()
    else:
        payload = mp.render(_messages(), provider, urls="upload", uploader=uploader)
        assert len(store.requests) == (2 if provider == "gemini" else 1)
    assert _content(provider, payload)[-1] == PDF_BLOCKS[provider]
    validate_request(provider, payload)
    assert mp.check(payload, provider) == []


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "anthropic", "gemini"])
def test_arender_upload_sends_reference(provider: str) -> None:
    """`arender` uploads through the async client and renders the same reference."""
    match provider:
        case "openai" | "openai-responses":
            store: Any = OpenAIFiles()
            client = store.async_client()
        case "anthropic":
            store = AnthropicFiles()
            client = store.async_client()
        case _:
            store = GeminiFiles()
            client = store.client().aio
    uploader = mp.Uploader(client, cache=None, min_bytes=0)
    payload = asyncio.run(mp.arender(_messages(), provider, urls="upload", uploader=uploader))
    assert _content(provider, payload)[-1] == PDF_BLOCKS[provider]
    validate_request(provider, payload)


def test_arender_upload_bedrock() -> None:
    """`arender` puts the object with boto3 in a worker thread."""
    stubber, client, extra = _store("bedrock")
    uploader = mp.Uploader(client, cache=None, min_bytes=0, **extra)
    with stubber:
        expect_put(stubber, "media", PDF_KEY, PDF.read_bytes(), "application/pdf")
        payload = asyncio.run(mp.arender(_messages(), "bedrock", urls="upload", uploader=uploader))
    assert _content("bedrock", payload)[-1] == PDF_BLOCKS["bedrock"]


def test_render_upload_only_over_inline_limit() -> None:
    """Without min_bytes only media over the inline limit go by reference; the rest inline."""
    store = GeminiFiles()
    provider = mp.providers.get("gemini").with_rules(max_request_bytes=4000)
    messages = [mp.User(["Compare", mp.part(PDF), mp.part(PNG)])]
    uploader = mp.Uploader(store.client(), cache=None)
    payload = mp.render(messages, provider, urls="upload", uploader=uploader)
    _, pdf, png = _content("gemini", payload)
    assert pdf == PDF_BLOCKS["gemini"]
    assert png["inlineData"]["mimeType"] == "image/png"
    assert len(store.starts()) == 1
    validate_request("gemini", payload)


def test_render_upload_keeps_unreferenceable_inline() -> None:
    """Chat Completions takes no image by file id: the image stays inline, the PDF goes up."""
    store = OpenAIFiles()
    messages = [mp.User(["Both", mp.part(PNG), mp.part(PDF)])]
    uploader = mp.Uploader(store.client(), cache=None, min_bytes=0)
    payload = mp.render(messages, "openai", urls="upload", uploader=uploader)
    _, image, pdf = _content("openai", payload)
    assert image["type"] == "image_url" and image["image_url"]["url"].startswith("data:image/png")
    assert pdf == PDF_BLOCKS["openai"]
    assert len(store.requests) == 1
    validate_request("openai", payload)


def test_render_upload_text_file_goes_as_text() -> None:
    """A text file the provider reads as text is not uploaded."""
    store = GeminiFiles()
    messages = [mp.User(["Read", mp.part(TESTDATA / "data.csv")])]
    uploader = mp.Uploader(store.client(), cache=None, min_bytes=0)
    payload = mp.render(messages, "gemini", urls="upload", uploader=uploader)
    assert "text" in _content("gemini", payload)[-1] and store.requests == []


def test_render_upload_passes_urls_through() -> None:
    """A URL the provider fetches itself passes through, neither fetched nor uploaded."""
    store = GeminiFiles()
    url = "https://example.com/report.pdf"
    messages = [mp.User(["Read", mp.FilePart.from_url(url, media_type="application/pdf")])]
    uploader = mp.Uploader(store.client(), cache=None, min_bytes=0)
    with mp.offline():
        payload = mp.render(messages, "gemini", urls="upload", uploader=uploader)
    assert _content("gemini", payload)[-1]["fileData"]["fileUri"] == url
    assert store.requests == []


def test_render_upload_reuses_cache() -> None:
    """Rendering twice with a cache uploads once: a thousand prompts, one upload."""
    store, cache = AnthropicFiles(), mp.MemoryUploadCache()
    uploader = mp.Uploader(store.client(), cache=cache, min_bytes=0)
    first = mp.render(_messages(), "anthropic", urls="upload", uploader=uploader)
    second = mp.render(_messages(), "anthropic", urls="upload", uploader=uploader)
    assert first == second and len(store.requests) == 1


def test_render_upload_refresh_uploads_again() -> None:
    """`Uploader(refresh=True)` uploads what the cache has and replaces its entry: the way
    back when the stored file was deleted behind the cache's back."""
    store, cache = AnthropicFiles(), mp.MemoryUploadCache()
    mp.render(
        _messages(),
        "anthropic",
        urls="upload",
        uploader=mp.Uploader(store.client(), cache=cache, min_bytes=0),
    )
    again = mp.Uploader(store.client(), cache=cache, min_bytes=0, refresh=True)
    payload = mp.render(_messages(), "anthropic", urls="upload", uploader=again)
    assert len(store.requests) == 2
    ((_, entry),) = cache._entries.items()
    assert _content("anthropic", payload)[-1]["source"]["file_id"] == entry.file_id


def test_render_upload_provider_without_file_store_inlines() -> None:
    """A provider without a file API (no FILES) renders inline, as with urls='auto'."""
    provider = dataclasses.replace(mp.providers.get("openai"), files=None)
    store = OpenAIFiles()
    uploader = mp.Uploader(store.client(), cache=None, min_bytes=0)
    payload = mp.render(_messages(), provider, urls="upload", uploader=uploader)
    assert "file_data" in _content("openai", payload)[-1]["file"] and store.requests == []


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"urls": "upload"}, "needs uploader"),
        ({"uploader": mp.Uploader(object())}, "only with urls='upload'"),
        ({"urls": "upload", "uploader": object()}, "uploader must be"),
        ({"urls": "sometimes"}, "urls must be"),
    ],
)
def test_render_upload_refuses_bad_settings(kwargs: dict[str, Any], match: str) -> None:
    """A missing, stray or wrong uploader is InvalidConfig, before any work."""
    with pytest.raises(mp.InvalidConfig, match=match):
        mp.render(_messages(), "openai", **kwargs)
    with pytest.raises(mp.InvalidConfig, match=match):
        asyncio.run(mp.arender(_messages(), "openai", **kwargs))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"min_bytes": -1}, "min_bytes"),
        ({"min_bytes": True}, "min_bytes"),
        ({"refresh": "yes"}, "refresh must be"),
        ({}, "SDK client"),
    ],
)
def test_uploader_refuses_bad_settings(kwargs: dict[str, Any], match: str) -> None:
    """An Uploader without a client or with a negative threshold is InvalidConfig."""
    client = None if not kwargs else object()
    with pytest.raises(mp.InvalidConfig, match=match):
        mp.Uploader(client, **kwargs)


@pytest.mark.parametrize(
    ("provider", "expected"),
    [
        (
            "openai-responses",
            {"type": "input_image", "file_id": "file-1", "detail": "auto"},
        ),
        ("anthropic", {"type": "image", "source": {"type": "file", "file_id": "file_0001"}}),
    ],
)
def test_render_upload_sends_image_reference(provider: str, expected: dict[str, Any]) -> None:
    """Images go by reference where the API takes an image file id (SDK types checked)."""
    store, client, _ = _store(provider)
    uploader = mp.Uploader(client, cache=None, min_bytes=0)
    messages = [mp.User(["Describe", mp.part(PNG)])]
    payload = mp.render(messages, provider, urls="upload", uploader=uploader)
    assert _content(provider, payload)[-1] == expected
    assert len(store.requests) == 1
    validate_request(provider, payload)
