"""Provider file stores as data: `FileStoreRules`, `FileApi` and each provider's `FILES`."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers import FileApi, FileStoreRules, Stored
from mediaparts.providers import openai as chat
from mediaparts.providers._files import answer, awaited, fingerprint

# The built-in providers whose API reads no uploaded file (Groq's Files API holds batch
# input only: console.groq.com/docs/api-reference#files-upload, read 2026-12; OpenRouter's
# multimodal pages document no file by id; Azure documents a file by id for its Responses API
# only, `azure-openai-responses`; read 2026-12); Vertex AI reads Cloud Storage objects, which
# the caller stores; Claude on Vertex AI and on Bedrock read no files by id ("only
# base64-encoded sources", Anthropic's vision page, read 2026-12). Or whose store is not
# wired (read 2026-12; see their records): Ollama has none; DeepSeek's images are referenced
# in a shape the pages read do not give; xAI's Responses documents go by URL, its uploads
# being of parts sent inline, which it takes none of.
NO_STORE = {"groq", "openrouter", "azure-openai", "vertex", "anthropic-vertex", "anthropic-bedrock"}
NO_STORE |= {"ollama", "deepseek", "xai", "xai-responses"}


@pytest.mark.parametrize("name", mp.providers.names())
def test_files_each_builtin_provider_has_a_store(name: str) -> None:
    """Every built-in provider but those documented without one has FILES whose rules name
    its store and cite a source."""
    provider = mp.providers.get(name)
    assert (provider.files is None) == (name in NO_STORE)
    if provider.files is None:
        return
    rules = provider.files.rules
    assert provider.rules.reads(rules.store)
    assert rules.max_bytes > 0 and rules.kinds and "(read 2026-12)" in rules.source


@pytest.mark.parametrize("name", sorted(NO_STORE))
def test_files_providers_without_a_file_api_refuse_uploads(name: str) -> None:
    """A provider without a file API refuses an upload, naming itself, rather than sending the
    file somewhere its API cannot read."""
    with pytest.raises(mp.InvalidConfig, match=name):
        mp.upload(
            mp.FilePart(data=b"%PDF-1.4\n", media_type="application/pdf"), name, client=object()
        )


@pytest.mark.parametrize(
    ("name", "kind", "media_type", "takes"),
    [
        ("openai", "file", "application/pdf", True),
        ("openai", "image", "image/png", False),
        ("openai-responses", "image", "image/png", True),
        ("anthropic", "file", "application/pdf", True),
        ("anthropic", "file", "text/csv", False),
        ("anthropic", "audio", "audio/wav", False),
        ("gemini", "video", "video/mp4", True),
        ("bedrock", "audio", "audio/mpeg", True),
        ("azure-openai-responses", "file", "application/pdf", True),
        ("azure-openai-responses", "image", "image/png", False),  # not documented by id
    ],
)
def test_files_takes_by_reference(name: str, kind: str, media_type: str, takes: bool) -> None:
    """`takes` says which kinds and types an API reads by file id."""
    files = mp.providers.get(name).files
    assert files is not None
    assert files.rules.takes(kind, media_type) is takes


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"max_bytes": 0}, "max_bytes"), ({"max_bytes": 1, "ttl": -1}, "ttl")],
)
def test_files_rules_refuse_bad_values(kwargs: dict[str, Any], match: str) -> None:
    """A store's rules are checked when made."""
    with pytest.raises(mp.InvalidConfig, match=match):
        FileStoreRules(store="x", kinds=("file",), **kwargs)


def test_files_fingerprint_hides_secret() -> None:
    """A fingerprint is a fixed-length hash that differs with any fact."""
    one, two = fingerprint("openai", "sk-secret"), fingerprint("openai", "sk-other")
    assert len(one) == 32 and one != two and "sk-secret" not in one
    assert fingerprint("a", None) == fingerprint("a", "")


def test_files_answer_and_awaited_check_client_kind() -> None:
    """A blocking call's awaitable, or an async call's plain answer, is InvalidConfig."""
    loop = asyncio.new_event_loop()
    try:
        future = loop.create_future()
        with pytest.raises(mp.InvalidConfig, match="async one"):
            answer(future, "p")
    finally:
        loop.close()
    assert answer(3, "p") == 3
    with pytest.raises(mp.InvalidConfig, match="blocking one"):
        asyncio.run(awaited(3, "p"))


def test_files_registry_refuses_wrong_files_member() -> None:
    """A provider whose files= is not a FileApi is refused when registered."""
    with pytest.raises(mp.InvalidConfig, match="files must be"):
        mp.providers.register("files-test", wire="openai", rules=chat.RULES, files="not an api")  # type: ignore[arg-type]


def test_files_registry_keeps_files_member() -> None:
    """A registered provider's files= is its Provider's `files`."""
    api = FileApi(
        rules=FileStoreRules(store="files-test2", max_bytes=10, kinds=("file",)),
        upload=lambda client, request: Stored("x"),
        aupload=_chat_files().aupload,
        account=lambda client, location: "a",
    )
    try:
        assert (
            mp.providers.register("files-test2", wire="openai", rules=chat.RULES, files=api).files
            is api
        )
    finally:
        mp.providers.unregister("files-test2")


def _chat_files() -> FileApi:
    """OpenAI's file API, from its record."""
    files = chat.PROVIDER.files
    assert files is not None
    return files
