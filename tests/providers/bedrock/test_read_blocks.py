"""Reading Converse content blocks: each block type as a part, and back to the same block."""

from __future__ import annotations

import base64
import copy
from typing import Any

import pytest

import mediaparts as mp
from tests._builders import TESTDATA

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAGUlEQVR4nGNkYGhQYGDARCwMCgxYweCUAABobwJe"
    "4J3LcgAAAABJRU5ErkJggg=="
)
PDF = (TESTDATA / "document.pdf").read_bytes()
MP4 = (TESTDATA / "clip.mp4").read_bytes()
MP3 = (TESTDATA / "tone.mp3").read_bytes()
S3 = "s3://bucket/key"


def _user(*blocks: dict[str, Any]) -> dict[str, Any]:
    """Return `converse` arguments with one user turn of these blocks."""
    return {"messages": [{"role": "user", "content": list(blocks)}]}


def _only_part(payload: dict[str, Any]) -> Any:
    """Read a payload of one message with one part, and return that part."""
    (message,) = mp.messages_from(payload, "bedrock")
    (part,) = message.parts
    return part


def _citation() -> dict[str, Any]:
    return {
        "title": "Handbook",
        "sourceContent": [{"text": "25 days"}, {"text": " of vacation"}],
        "location": {"web": {"url": "https://news.example/a", "domain": "news.example"}},
    }


# (name, the block, what the part read from it must have: attribute → value)
BLOCKS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("text", {"text": "Hello"}, {"kind": "text", "text": "Hello", "native": {}}),
    (
        "image bytes",
        {"image": {"format": "png", "source": {"bytes": PNG}}},
        {"kind": "image", "media_type": "image/png", "data": PNG},
    ),
    (
        "image s3 with owner",
        {"image": {"format": "png", "source": {"s3Location": {"uri": S3, "bucketOwner": "1234"}}}},
        {
            "file_id": S3,
            "file_provider": "bedrock",
            "media_type": "image/png",
            "native": {"bedrock": {"bucketOwner": "1234"}},
        },
    ),
    (
        "video alias mpg",
        {"video": {"format": "mpg", "source": {"s3Location": {"uri": S3}}}},
        {"kind": "video", "media_type": "video/mpeg", "native": {"bedrock": {"format": "mpg"}}},
    ),
    (
        "video bytes",
        {"video": {"format": "mp4", "source": {"bytes": MP4}}},
        {"kind": "video", "media_type": "video/mp4", "data": MP4},
    ),
    (
        "audio bytes",
        {"audio": {"format": "mp3", "source": {"bytes": MP3}}},
        {"kind": "audio", "media_type": "audio/mpeg", "native": {}},
    ),
    (
        "audio pcm has no media type",
        {"audio": {"format": "pcm", "source": {"bytes": b"\x00\x01"}}},
        {
            "kind": "provider",
            "data": {"audio": {"format": "pcm", "source": {"bytes": b"\x00\x01"}}},
        },
    ),
    (
        "document bytes",
        {"document": {"format": "pdf", "name": "Report", "source": {"bytes": PDF}}},
        {"kind": "file", "media_type": "application/pdf", "filename": "Report", "native": {}},
    ),
    (
        "document name with a line break",
        {"document": {"format": "pdf", "name": "Annual\nreport", "source": {"bytes": PDF}}},
        {"filename": "Annual\nreport"},
    ),
    (
        "document text",
        {"document": {"format": "md", "name": "Notes", "source": {"text": "# Notes\n"}}},
        {
            "media_type": "text/markdown",
            "data": b"# Notes\n",
            "native": {"bedrock": {"source": "text"}},
        },
    ),
    (
        "document content without format, cited",
        {
            "document": {
                "name": "Rules",
                "source": {"content": [{"text": "Leave"}, {"text": " early."}]},
                "citations": {"enabled": True},
                "context": "Harbour rules",
            }
        },
        {
            "media_type": "text/plain",
            "data": b"Leave early.",
            "native": {
                "bedrock": {
                    "format": None,
                    "source": "content",
                    "chunks": [5, 7],
                    "citations": {"enabled": True},
                    "context": "Harbour rules",
                }
            },
        },
    ),
    (
        "document s3 without format",
        {"document": {"name": "Contract", "source": {"s3Location": {"uri": S3}}}},
        {"file_id": S3, "media_type": None, "native": {"bedrock": {"format": None}}},
    ),
    (
        "reasoning text with signature",
        {"reasoningContent": {"reasoningText": {"text": "Think.", "signature": "sig"}}},
        {"kind": "reasoning", "text": "Think.", "signature": "sig", "provider": "bedrock"},
    ),
    (
        "redacted reasoning",
        {"reasoningContent": {"redactedContent": b"\x01\x02"}},
        {"kind": "reasoning", "text": None, "data": b"\x01\x02", "provider": "bedrock"},
    ),
    (
        "citations content",
        {"citationsContent": {"content": [{"text": "Cited."}], "citations": [_citation()]}},
        {"kind": "text", "text": "Cited.", "native": {"bedrock": {"citations_content": True}}},
    ),
    (
        "guarded text",
        {"guardContent": {"text": {"text": "Check this.", "qualifiers": ["query"]}}},
        {"text": "Check this.", "native": {"bedrock": {"guard": True, "qualifiers": ["query"]}}},
    ),
    (
        "guarded image",
        {"guardContent": {"image": {"format": "png", "source": {"bytes": PNG}}}},
        {"kind": "image", "native": {"bedrock": {"guard": True}}},
    ),
    (
        "search result",
        {"searchResult": {"source": "s", "title": "t", "content": [{"text": "x"}]}},
        {"kind": "provider", "provider": "bedrock"},
    ),
    (
        "block type added later",
        {"somethingNew": {"a": 1}},
        {"kind": "provider", "data": {"somethingNew": {"a": 1}}},
    ),
    (
        "cachePoint after nothing",
        {"cachePoint": {"type": "default"}},
        {"kind": "provider", "data": {"cachePoint": {"type": "default"}}},
    ),
]


@pytest.mark.parametrize(("block", "expected"), [c[1:] for c in BLOCKS], ids=[c[0] for c in BLOCKS])
def test_read_block_as_part(block: dict[str, Any], expected: dict[str, Any]) -> None:
    """Each block type becomes its part, with what it wrote its own way under native."""
    part = _only_part(_user(block))
    for name, value in expected.items():
        assert getattr(part, name) == value, name


@pytest.mark.parametrize("block", [c[1] for c in BLOCKS], ids=[c[0] for c in BLOCKS])
def test_read_block_renders_back_the_same(block: dict[str, Any]) -> None:
    """Rendering what was read gives the block back, key for key (text added beside documents)."""
    payload = _user(block, {"text": "Go."})
    assert mp.render(mp.messages_from(payload, "bedrock"), "bedrock") == payload


def test_read_citations_keep_the_providers_fields() -> None:
    """A citation's quoted text, title and web URL are read, and its own fields kept whole."""
    payload = _user({"citationsContent": {"content": [{"text": "a"}], "citations": [_citation()]}})
    (citation,) = _only_part(payload).citations
    assert citation == mp.Citation(
        provider="bedrock",
        cited_text="25 days of vacation",
        title="Handbook",
        url="https://news.example/a",
        data=_citation(),
    )


def test_read_tool_use_as_a_tool_call() -> None:
    """A toolUse becomes a ToolCall part in the assistant turn, in its place."""
    payload = {
        "messages": [
            {
                "role": "assistant",
                "content": [
                    {"text": "Checking."},
                    {"toolUse": {"toolUseId": "t1", "name": "f", "input": {"x": [1, 2]}}},
                    {"text": "Done."},
                ],
            }
        ]
    }
    (message,) = mp.messages_from(payload, "bedrock")
    assert [p.kind for p in message.parts] == ["text", "tool_call", "text"]
    call = message.parts[1]
    assert isinstance(call, mp.ToolCall)
    assert (call.id, call.name, call.parsed_arguments()) == ("t1", "f", {"x": [1, 2]})
    assert mp.render([message], "bedrock") == payload


def test_read_server_tool_use_is_kept_as_written() -> None:
    """A toolUse the API ran itself (`type: server_tool_use`) is a ProviderPart, not a call."""
    block = {
        "toolUse": {
            "toolUseId": "s1",
            "name": "nova_grounding",
            "input": {},
            "type": "server_tool_use",
        }
    }
    part = _only_part({"messages": [{"role": "assistant", "content": [block]}]})
    assert part == mp.ProviderPart(provider="bedrock", data=block)


@pytest.mark.parametrize(
    ("point", "cache", "native"),
    [
        ({"type": "default"}, "5m", {}),
        ({"type": "default", "ttl": "5m"}, "5m", {"bedrock": {"ttl": True}}),
        ({"type": "default", "ttl": "1h"}, "1h", {}),
    ],
)
def test_read_cache_point_is_the_cache_of_the_block_before(
    point: dict[str, Any], cache: str, native: dict[str, Any]
) -> None:
    """A cachePoint sets `cache` on the part before it, and renders back as it was written."""
    payload = _user({"text": "Long context."}, {"cachePoint": point})
    part = _only_part(payload)
    assert (part.cache, part.native) == (cache, native)
    assert mp.render(mp.messages_from(payload, "bedrock"), "bedrock") == payload


def test_read_image_bytes_given_as_base64_text() -> None:
    """Image bytes may be given as base64 text (JSON); the part holds the decoded bytes."""
    text = base64.b64encode(PNG).decode()
    part = _only_part(_user({"image": {"format": "png", "source": {"bytes": text}}}))
    assert part.data == PNG


def test_read_redacted_reasoning_given_as_base64_text() -> None:
    """Redacted reasoning in JSON (base64 text) is read as the bytes boto3 would send."""
    part = _only_part(
        {
            "messages": [
                {
                    "role": "assistant",
                    "content": [{"reasoningContent": {"redactedContent": "AAE="}}],
                }
            ]
        }
    )
    assert part.data == b"\x00\x01"


def test_read_does_not_change_the_payload() -> None:
    """The caller's payload is left as it was."""
    payload = _user(*[c[1] for c in BLOCKS], {"text": "Go."})
    before = copy.deepcopy(payload)
    mp.messages_from(payload, "bedrock")
    assert payload == before
