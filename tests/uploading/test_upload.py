"""`mp.upload` and `mp.aupload`: one part into each provider's file store, through its SDK."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import threading
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers import gemini
from mediaparts.testing import MediaURLs
from tests._builders import TESTDATA
from tests.uploading._servers import (
    GEMINI_EXPIRY_SECONDS,
    AnthropicFiles,
    AzureFiles,
    GeminiFiles,
    MistralFiles,
    OpenAIFiles,
    Stubber,
    expect_put,
    s3_client,
    start_json,
)

PDF = TESTDATA / "document.pdf"
MP4 = TESTDATA / "clip.mp4"
PNG = TESTDATA / "alpha.png"
BMP = TESTDATA / "image.bmp"


def _pdf() -> mp.FilePart:
    return mp.FilePart.from_path(PDF)


@pytest.mark.parametrize(
    ("provider", "path", "purpose", "media_type"),
    [
        ("openai", PDF, "user_data", "application/pdf"),
        ("openai-responses", PDF, "user_data", "application/pdf"),
        ("openai-responses", PNG, "vision", "image/png"),
    ],
)
def test_upload_openai_sends_multipart_with_purpose(
    provider: str, path: Path, purpose: str, media_type: str
) -> None:
    """OpenAI Files gets the bytes as the multipart `file` (name, type) and the `purpose`."""
    store = OpenAIFiles()
    made = mp.upload(mp.part(path), provider, client=store.client(), cache=None)
    (fields,) = store.uploads()
    assert fields["purpose"].data.decode() == purpose
    assert fields["file"].filename == path.name
    assert fields["file"].content_type == media_type
    assert fields["file"].data == path.read_bytes()
    assert (made.file_id, made.file_provider, made.media_type) == ("file-1", "openai", media_type)
    assert made.filename == path.name and made.kind == mp.part(path).kind


def test_upload_azure_openai_stores_a_pdf_as_assistants_in_its_resource() -> None:
    """An Azure resource's store gets a PDF with purpose `assistants` (its stand-in for
    `user_data`), through openai.AzureOpenAI; the reference is that store's."""
    store = AzureFiles()
    made = mp.upload(_pdf(), "azure-openai-responses", client=store.client(), cache=None)
    (fields,) = store.uploads()
    assert fields["purpose"].data.decode() == "assistants"
    assert fields["file"].data == PDF.read_bytes()
    assert (made.file_id, made.file_provider) == ("file-1", "azure-openai")
    payload = mp.render([mp.User(["Summarise.", made])], "azure-openai-responses")
    assert payload["input"][0]["content"][1] == {"type": "input_file", "file_id": "file-1"}


@pytest.mark.parametrize("aio", [False, True], ids=["upload", "aupload"])
def test_upload_mistral_sends_multipart_with_purpose_ocr(aio: bool) -> None:
    """Mistral's Files API gets the PDF as the multipart `file` and purpose "ocr" (blocking or
    `upload_async`), and the chat takes the stored file as a `file` chunk by id."""
    store = MistralFiles()
    client = store.client()
    part, cache = _pdf(), mp.MemoryUploadCache()
    if aio:
        made = asyncio.run(mp.aupload(part, "mistral", client=client, cache=cache))
    else:
        made = mp.upload(part, "mistral", client=client, cache=cache)
    (fields,) = store.uploads()
    assert fields["purpose"].data.decode() == "ocr"
    assert (fields["file"].filename, fields["file"].data) == (PDF.name, PDF.read_bytes())
    assert made.file_provider == "mistral" and (made.file_id or "").startswith("9a90b93c-")
    (entry,) = cache._entries.values()
    assert entry.expires_at == 1756754478 + 30 * 24 * 3600  # kept 30 days after its upload
    payload = mp.render([mp.User(["Summarise.", made])], "mistral")
    chunk = payload["messages"][0]["content"][1]
    assert chunk == {"type": "file", "file_id": made.file_id}
    assert mp.render(mp.messages_from(payload, "mistral"), "mistral") == payload


@pytest.mark.parametrize(("path", "media_type"), [(PDF, "application/pdf"), (PNG, "image/png")])
def test_upload_anthropic_sends_file_with_beta_header(path: Path, media_type: str) -> None:
    """Anthropic's Files API gets the multipart `file` and the files beta header."""
    store = AnthropicFiles()
    made = mp.upload(mp.part(path), "anthropic", client=store.client(), cache=None)
    (request,) = store.requests
    assert "files-api-2025-04-14" in request.headers["anthropic-beta"]
    (fields,) = store.uploads()
    assert set(fields) == {"file"}
    assert (fields["file"].filename, fields["file"].content_type) == (path.name, media_type)
    assert fields["file"].data == path.read_bytes()
    assert (made.file_id, made.file_provider) == ("file_0001", "anthropic")


def test_upload_gemini_speaks_resumable_protocol() -> None:
    """Gemini gets a `start` with the metadata, then the bytes with `upload, finalize`."""
    store = GeminiFiles()
    made = mp.upload(_pdf(), "gemini", client=store.client(), cache=None)
    (start,) = store.starts()
    assert start.headers["x-goog-upload-protocol"] == "resumable"
    assert start.headers["x-goog-upload-header-content-type"] == "application/pdf"
    assert start.headers["x-goog-upload-header-content-length"] == str(PDF.stat().st_size)
    assert start_json(start)["file"]["display_name"] == "document.pdf"
    assert start_json(start)["file"]["mime_type"] == "application/pdf"
    (body,) = store.bodies()
    assert body.content == PDF.read_bytes()
    assert made.file_id == "https://generativelanguage.googleapis.com/v1beta/files/f1"
    assert made.file_provider == "gemini"


def test_upload_gemini_sends_large_video_as_is() -> None:
    """A video over Gemini's inline limits goes to the File API untouched (store limits)."""
    store = GeminiFiles()
    provider = mp.providers.get("gemini").with_rules(max_request_bytes=1000)
    made = mp.upload(mp.part(MP4), provider, client=store.client(), cache=None)
    (body,) = store.bodies()
    assert body.content == MP4.read_bytes()
    assert isinstance(made, mp.VideoPart) and made.media_type == "video/mp4"


def test_upload_gemini_waits_until_active(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file still PROCESSING is polled with `files.get` until ACTIVE."""
    monkeypatch.setattr(gemini._files, "POLL_SECONDS", 0.0)
    store = GeminiFiles(states=("PROCESSING", "PROCESSING", "ACTIVE"))
    made = mp.upload(mp.part(MP4), "gemini", client=store.client(), cache=None)
    gets = [r for r in store.requests if r.method == "GET"]
    assert len(gets) == 2 and gets[0].url.path.endswith("/files/f1")
    assert str(made.file_id).endswith("/files/f1")


@pytest.mark.parametrize("states", [("FAILED",), ("PROCESSING", "FAILED")])
def test_upload_gemini_failed_processing_is_fetch_error(
    states: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the File API fails to process raises FetchError with its reason."""
    monkeypatch.setattr(gemini._files, "POLL_SECONDS", 0.0)
    with pytest.raises(mp.FetchError, match="could not be decoded"):
        mp.upload(mp.part(MP4), "gemini", client=GeminiFiles(states).client(), cache=None)


def test_upload_gemini_gives_up_after_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file processing for longer than WAIT_SECONDS raises FetchError, not a hang."""
    monkeypatch.setattr(gemini._files, "POLL_SECONDS", 0.0)
    monkeypatch.setattr(gemini._files, "WAIT_SECONDS", 0.0)
    store = GeminiFiles(states=("PROCESSING",))
    with pytest.raises(mp.FetchError, match="still processing") as caught:
        mp.upload(mp.part(MP4), "gemini", client=store.client(), cache=None)
    assert "file_id='https://generativelanguage.googleapis.com/v1beta/files/f1'" in str(
        caught.value
    )


@pytest.mark.parametrize(
    ("location", "prefix"),
    [
        ("s3://media-bucket/llm/", "llm/"),
        ("s3://media-bucket/llm", "llm/"),
        ("s3://media-bucket", ""),
    ],
)
def test_upload_bedrock_puts_content_addressed_object(location: str, prefix: str) -> None:
    """Bedrock: `put_object` under the prefix, keyed by SHA-256, with the content type."""
    client = s3_client()
    data = PDF.read_bytes()
    key = f"{prefix}{hashlib.sha256(data).hexdigest()}.pdf"
    with Stubber(client) as stubber:
        expect_put(stubber, "media-bucket", key, data, "application/pdf")
        made = mp.upload(_pdf(), "bedrock", client=client, cache=None, location=location)
        stubber.assert_no_pending_responses()
    assert (made.file_id, made.file_provider) == (f"s3://media-bucket/{key}", "bedrock")


def test_upload_normalizes_first() -> None:
    """What is uploaded is what the provider takes: a BMP goes to Anthropic as a PNG."""
    store = AnthropicFiles()
    made = mp.upload(mp.part(BMP), "anthropic", client=store.client(), cache=None)
    (fields,) = store.uploads()
    assert fields["file"].content_type == "image/png"
    assert fields["file"].filename == "image.png"
    assert fields["file"].data.startswith(b"\x89PNG")
    assert isinstance(made, mp.ImagePart) and made.media_type == "image/png"
    assert made.filename == "image.bmp"


def test_upload_keeps_part_fields() -> None:
    """The reference keeps the part's file name, metadata, cache breakpoint, hints and detail."""
    part = mp.ImagePart.from_path(
        PNG, detail="low", metadata={"id": 7}, cache="5m", native={"x": {"y": 1}}
    )
    made = mp.upload(part, "openai-responses", client=OpenAIFiles().client(), cache=None)
    assert isinstance(made, mp.ImagePart)
    assert (made.detail, made.metadata, made.cache, made.native) == (
        "low",
        {"id": 7},
        "5m",
        {"x": {"y": 1}},
    )
    assert part.file_id is None and part.is_loaded  # the caller's part is unchanged


def _clients() -> dict[str, tuple[Any, Any, dict[str, Any]]]:
    openai_store, anthropic_store, gemini_store = OpenAIFiles(), AnthropicFiles(), GeminiFiles()
    return {
        "openai": (openai_store, openai_store.async_client(), {}),
        "anthropic": (anthropic_store, anthropic_store.async_client(), {}),
        "gemini": (gemini_store, gemini_store.client().aio, {}),
    }


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_aupload_uses_async_client(provider: str) -> None:
    """`aupload` sends the same request through the SDK's async client."""
    store, client, _ = _clients()[provider]
    made = asyncio.run(mp.aupload(_pdf(), provider, client=client, cache=None))
    assert made.file_provider == provider and made.file_id
    assert len(store.requests) == (2 if provider == "gemini" else 1)


def test_aupload_bedrock_runs_boto3_in_thread() -> None:
    """boto3 has no async client: `aupload` calls `put_object` in a worker thread."""
    client = s3_client()
    data = PDF.read_bytes()
    key = f"p/{hashlib.sha256(data).hexdigest()}.pdf"
    with Stubber(client) as stubber:
        expect_put(stubber, "b", key, data, "application/pdf")
        made = asyncio.run(
            mp.aupload(_pdf(), "bedrock", client=client, cache=None, location="s3://b/p/")
        )
    assert made.file_id == f"s3://b/{key}"


def test_aupload_gemini_polls_with_async_client(monkeypatch: pytest.MonkeyPatch) -> None:
    """`aupload` waits for ACTIVE with the async client's `files.get`."""
    monkeypatch.setattr(gemini._files, "POLL_SECONDS", 0.0)
    store = GeminiFiles(states=("PROCESSING", "ACTIVE"))
    made = asyncio.run(mp.aupload(mp.part(MP4), "gemini", client=store.client().aio, cache=None))
    assert str(made.file_id).endswith("/files/f1")
    assert [r.method for r in store.requests] == ["POST", "POST", "GET"]


def test_upload_gemini_expiry_comes_from_answer() -> None:
    """The cache entry's expiry is the File API's `expirationTime`."""
    cache = mp.MemoryUploadCache()
    mp.upload(_pdf(), "gemini", client=GeminiFiles().client(), cache=cache, clock=lambda: 0.0)
    (entry,) = cache._entries.values()
    assert entry.expires_at == GEMINI_EXPIRY_SECONDS
    assert entry.size == PDF.stat().st_size and entry.media_type == "application/pdf"


def test_upload_gemini_expiry_without_answer_follows_clock() -> None:
    """Without the File API's `expirationTime`, the entry expires 48 h after the upload's
    clock, not the machine's."""
    cache = mp.MemoryUploadCache()
    client = GeminiFiles(drop=("expirationTime",)).client()
    mp.upload(_pdf(), "gemini", client=client, cache=cache, clock=lambda: 1000.0)
    (entry,) = cache._entries.values()
    assert entry.expires_at == 1000.0 + 48 * 3600


@pytest.mark.parametrize(
    ("provider", "path", "match"),
    [
        ("openai", PNG, "does not take image/png"),
        ("anthropic", TESTDATA / "tone.wav", "anthropic does not accept"),
        ("gemini", TESTDATA / "data.csv", "as text"),
        ("openai", MP4, "pieces"),
    ],
)
def test_upload_refuses_what_api_cannot_reference(provider: str, path: Path, match: str) -> None:
    """Media the API cannot take by file id is refused by name, with nothing sent."""
    store = OpenAIFiles()
    with pytest.raises(mp.UnsupportedMediaType, match=match):
        mp.upload(mp.part(path), provider, client=store.client(), cache=None)
    assert store.requests == []


def test_upload_over_store_limit_is_provider_limit_error() -> None:
    """A file over the store's size limit raises ProviderLimitError before any request."""
    chat = mp.providers.get("openai")
    assert chat.files is not None
    small = dataclasses.replace(chat.files.rules, max_bytes=100)
    provider = dataclasses.replace(chat, files=dataclasses.replace(chat.files, rules=small))
    store = OpenAIFiles()
    with pytest.raises(mp.ProviderLimitError, match="limit of 100"):
        mp.upload(_pdf(), provider, client=store.client(), cache=None)
    assert store.requests == []


def _no_files() -> mp.providers.Provider:
    return dataclasses.replace(mp.providers.get("openai"), files=None)


@pytest.mark.parametrize(
    ("provider", "kwargs", "match"),
    [
        ("openai", {"client": None}, "needs client="),
        ("bedrock", {"client": object()}, "needs location="),
        ("openai", {"client": object(), "location": "s3://b/"}, "location= is only"),
        ("bedrock", {"client": object(), "location": "https://b/"}, "s3://bucket/prefix/"),
        ("bedrock", {"client": object(), "location": "s3:///nobucket"}, "a bucket"),
        ("openai", {"client": object()}, "no files.create"),
        ("anthropic", {"client": object()}, "no beta"),
        ("gemini", {"client": object()}, "no files"),
        ("bedrock", {"client": object(), "location": "s3://b/"}, "no put_object"),
        ("openai", {"client": object(), "cache": "yes"}, "cache must be"),
        ("openai", {"client": object(), "clock": 5}, "clock must be"),
        ("openai", {"client": object(), "refresh": 1}, "refresh must be"),
    ],
)
def test_upload_refuses_bad_settings(provider: str, kwargs: dict[str, Any], match: str) -> None:
    """A wrong setting is InvalidConfig naming what to pass, never an AttributeError."""
    with pytest.raises(mp.InvalidConfig, match=match):
        mp.upload(_pdf(), provider, **{"cache": None, **kwargs})


def test_upload_refuses_provider_without_file_store() -> None:
    """A provider without FILES is refused by name."""
    with pytest.raises(mp.InvalidConfig, match="no file store"):
        mp.upload(_pdf(), _no_files(), client=object(), cache=None)


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_upload_refuses_async_client(provider: str) -> None:
    """The async client given to `upload` (or the blocking one to `aupload`) says so."""
    store, client, _ = _clients()[provider]
    with pytest.raises(mp.InvalidConfig, match="async one"):
        mp.upload(_pdf(), provider, client=client, cache=None)
    blocking = store.client()
    with pytest.raises(mp.InvalidConfig, match="blocking one"):
        asyncio.run(mp.aupload(_pdf(), provider, client=blocking, cache=None))


@pytest.mark.parametrize(
    ("value", "match"),
    [
        (mp.TextPart("hello"), "not text"),
        ({"file_id": "file-9", "provider": "openai", "media_type": "application/pdf"}, "already"),
    ],
)
def test_upload_refuses_text_and_references(value: Any, match: str) -> None:
    """Text and existing references are InvalidMedia: there are no bytes to upload."""
    with pytest.raises(mp.InvalidMedia, match=match):
        mp.upload(value, "openai", client=OpenAIFiles().client(), cache=None)


def test_upload_gemini_answer_without_uri_is_fetch_error() -> None:
    """An answer without a file uri is FetchError, not a reference to nothing."""
    store = GeminiFiles(drop=("uri",))
    with pytest.raises(mp.FetchError, match="without a file uri"):
        mp.upload(_pdf(), "gemini", client=store.client(), cache=None)


def test_uploader_repr_names_client() -> None:
    """An Uploader's repr names its client's type and settings, not the client's secrets."""
    text = repr(mp.Uploader(OpenAIFiles().client("sk-SECRET"), min_bytes=0))
    assert text == "Uploader(OpenAI, location=None, min_bytes=0)"


@pytest.mark.parametrize(
    ("states", "match"), [(("FAILED",), "could not be decoded"), (("PROCESSING",), "still")]
)
def test_aupload_gemini_failure_and_wait_are_fetch_errors(
    states: tuple[str, ...], match: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`aupload` reports a failed or too-long processing as FetchError too."""
    monkeypatch.setattr(gemini._files, "POLL_SECONDS", 0.0)
    monkeypatch.setattr(gemini._files, "WAIT_SECONDS", 0.0)
    client = GeminiFiles(states).client().aio
    with pytest.raises(mp.FetchError, match=match):
        asyncio.run(mp.aupload(mp.part(MP4), "gemini", client=client, cache=None))


@pytest.mark.mediaparts(assert_all_requested=True)
def test_upload_url_part_is_fetched_then_uploaded(media_urls: MediaURLs) -> None:
    """A URL part is fetched once (under the fetch policy), then its bytes are uploaded."""
    url = "https://example.com/report.pdf"
    media_urls.add(url, PDF.read_bytes())
    store = AnthropicFiles()
    made = mp.upload(mp.FilePart.from_url(url), "anthropic", client=store.client(), cache=None)
    (fields,) = store.uploads()
    assert fields["file"].data == PDF.read_bytes() and made.url is None
    assert made.file_id == "file_0001"


@pytest.mark.parametrize("run", ["sync", "async"])
def test_upload_refresh_replaces_cached_entry(run: str) -> None:
    """`refresh=True` uploads bytes the cache has (its file was deleted at the provider)
    and the new reference replaces the entry, so later uploads find the live file."""
    store, cache = OpenAIFiles(), mp.MemoryUploadCache()
    first = mp.upload(_pdf(), "openai", client=store.client(), cache=cache)
    if run == "sync":
        again = mp.upload(_pdf(), "openai", client=store.client(), cache=cache, refresh=True)
    else:
        again = asyncio.run(
            mp.aupload(_pdf(), "openai", client=store.async_client(), cache=cache, refresh=True)
        )
    later = mp.upload(_pdf(), "openai", client=store.client(), cache=cache)
    assert (first.file_id, again.file_id, later.file_id) == ("file-1", "file-2", "file-2")
    assert len(store.requests) == 2


def test_aupload_reads_path_off_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """`aupload` of a path reads the file in a worker thread, not on the event loop."""
    readers: list[bool] = []
    make = mp.part

    def spy(value: Any) -> Any:
        readers.append(threading.current_thread() is threading.main_thread())
        return make(value)

    monkeypatch.setattr(mp.uploading._send, "make_part", spy)
    store = OpenAIFiles()
    asyncio.run(mp.aupload(PDF, "openai", client=store.async_client(), cache=None))
    assert readers == [False] and len(store.requests) == 1
