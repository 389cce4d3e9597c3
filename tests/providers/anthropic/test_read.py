"""Reading Messages API payloads and responses: every block type, hostile input, usage."""

from __future__ import annotations

import base64
import copy
import io
import json
from typing import Any

import pytest
from PIL import Image

import mediaparts as mp
from mediaparts.providers import anthropic
from tests._builders import ROOT

CORPUS = ROOT / "tests" / "conversations" / "corpus" / "anthropic"


def _png() -> str:
    """Return an 8×8 PNG as base64 text."""
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(out, "PNG")
    return base64.b64encode(out.getvalue()).decode()


PNG = _png()
SIGNED = {"type": "thinking", "thinking": "Call the tool.", "signature": "EuYBCkQYAiJA"}
WEB_RESULT = {
    "type": "web_search_tool_result",
    "tool_use_id": "srvtoolu_1",
    "content": [
        {"type": "web_search_result", "title": "T", "url": "https://e.x/", "encrypted_content": "E"}
    ],
}
CHAR_CITATION = {
    "type": "char_location",
    "cited_text": "The grass is green.",
    "document_index": 0,
    "document_title": "My Document",
    "start_char_index": 0,
    "end_char_index": 20,
}


def _one(block: dict[str, Any], role: str = "user") -> Any:
    """Return the one part a turn holding `block` reads as."""
    [message] = anthropic.PROVIDER.read({"messages": [{"role": role, "content": [block]}]})
    [part] = message.parts
    return part


# (block, role, attributes the part read from it has)
BLOCKS: list[tuple[dict[str, Any], str, dict[str, Any]]] = [
    ({"type": "text", "text": "hi"}, "user", {"kind": "text", "text": "hi", "cache": None}),
    (
        {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral", "ttl": "1h"}},
        "user",
        {"kind": "text", "cache": "1h"},
    ),
    (
        {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral", "ttl": "5m"}},
        "user",
        {"cache": "5m", "native": {"anthropic": {"ttl": True}}},
    ),
    (
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        "user",
        {"kind": "image", "media_type": "image/png", "data": base64.b64decode(PNG)},
    ),
    (
        {"type": "image", "source": {"type": "url", "url": "https://media.example/photo.jpg"}},
        "user",
        {"kind": "image", "url": "https://media.example/photo.jpg"},
    ),
    (
        {"type": "image", "source": {"type": "file", "file_id": "file_011"}},
        "user",
        {"kind": "image", "file_id": "file_011", "file_provider": "anthropic"},
    ),
    (
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "Sky is blue."},
            "title": "Notes",
            "context": "Trusted.",
            "citations": {"enabled": True},
        },
        "user",
        {
            "kind": "file",
            "media_type": "text/plain",
            "data": b"Sky is blue.",
            "filename": "Notes",
            "native": {"anthropic": {"context": "Trusted.", "citations": {"enabled": True}}},
        },
    ),
    (
        {"type": "document", "source": {"type": "file", "file_id": "file_022"}, "title": "Q3"},
        "user",
        {"kind": "file", "file_id": "file_022", "media_type": None, "filename": "Q3"},
    ),
    (
        {"type": "document", "source": {"type": "content", "content": "Chunk."}},
        "user",
        {"kind": "provider", "provider": "anthropic"},
    ),
    (
        SIGNED,
        "assistant",
        {"kind": "reasoning", "text": "Call the tool.", "signature": "EuYBCkQYAiJA"},
    ),
    (
        {"type": "redacted_thinking", "data": "EmwKAhgB"},
        "assistant",
        {"kind": "reasoning", "text": None, "data": "EmwKAhgB", "provider": "anthropic"},
    ),
    (
        {
            "type": "tool_use",
            "id": "toolu_1",
            "name": "f",
            "input": {"a": 1},
            "caller": {"type": "direct"},
        },
        "assistant",
        {
            "kind": "tool_call",
            "id": "toolu_1",
            "name": "f",
            "native": {"anthropic": {"extra": {"caller": {"type": "direct"}}}},
        },
    ),
    (
        {
            "type": "server_tool_use",
            "id": "srvtoolu_1",
            "name": "web_search",
            "input": {"query": "q"},
        },
        "assistant",
        {"kind": "provider", "provider": "anthropic"},
    ),
    (WEB_RESULT, "assistant", {"kind": "provider", "data": WEB_RESULT}),
    ({"type": "some_future_block", "x": 1}, "user", {"kind": "provider"}),
]


@pytest.mark.parametrize(("block", "role", "expected"), BLOCKS)
def test_read_block_kinds(block: dict[str, Any], role: str, expected: dict[str, Any]) -> None:
    """Each Messages API block type reads as its part; unmodelled types are kept whole."""
    part = _one(block, role)
    for name, value in expected.items():
        assert getattr(part, name) == value, name


def test_read_text_citations() -> None:
    """A citation keeps the provider's fields whole and names its text, title and URL."""
    block = {"type": "text", "text": "green", "citations": [CHAR_CITATION]}
    [citation] = _one(block, "assistant").citations
    assert citation.provider == "anthropic"
    assert (citation.cited_text, citation.title, citation.url) == (
        "The grass is green.",
        "My Document",
        None,
    )
    assert citation.data == CHAR_CITATION


def test_read_tool_use_arguments_are_json_text() -> None:
    """A tool_use input becomes the call's JSON arguments."""
    call = _one({"type": "tool_use", "id": "t", "name": "f", "input": {"a": [1, "b"]}}, "assistant")
    assert json.loads(call.arguments) == {"a": [1, "b"]}


def test_read_user_turn_splits_tool_results() -> None:
    """A user turn gives a Tool message per tool_result, then a User message for the rest."""
    payload = {
        "messages": [
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "t1", "content": "done"},
                    {"type": "tool_result", "tool_use_id": "t2", "is_error": True},
                    {"type": "text", "text": "Go on."},
                ],
            },
        ]
    }
    _, first, second, user = anthropic.PROVIDER.read(payload)
    assert isinstance(first, mp.Tool) and isinstance(second, mp.Tool)
    assert (first.tool_call_id, first.name, first.content, first.is_error) == (
        "t1",
        "f",
        "done",
        False,
    )
    assert (second.tool_call_id, second.name, second.parts, second.is_error) == (
        "t2",
        None,
        (),
        True,
    )
    assert isinstance(user, mp.User) and user.content == "Go on."


@pytest.mark.parametrize(
    "content",
    [
        "15 degrees",
        [{"type": "text", "text": "15 degrees"}],
        [{"type": "search_result", "source": "s", "title": "t", "content": []}],
        None,
    ],
)
def test_read_tool_result_cache_renders_back(content: Any) -> None:
    """A tool_result's own cache_control goes back on the tool_result, whatever it holds."""
    result: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": "t1",
        "cache_control": {"type": "ephemeral", "ttl": "5m"},
    }
    if content is not None:
        result["content"] = content
    payload = {
        "messages": [
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}],
            },
            {"role": "user", "content": [result]},
        ]
    }
    assert mp.render(mp.messages_from(payload, "anthropic"), "anthropic") == payload


_CALL = {
    "role": "assistant",
    "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}],
}
_PDF_URL = {"type": "url", "url": "https://media.example/document.pdf"}

# Turns written in each spelling the API allows for the same thing.
SPELLINGS: list[list[dict[str, Any]]] = [
    [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}],
    [{"role": "system", "content": [{"type": "text", "text": "Be brief."}]}],
    [{"role": "user", "content": [{"type": "text", "text": "Hi", "citations": None}]}],
    [{"role": "user", "content": [{"type": "text", "text": "Hi", "citations": []}]}],
    [{"role": "user", "content": [{"type": "text", "text": "Hi", "cache_control": None}]}],
    [
        _CALL,
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": False}],
        },
    ],
    [
        _CALL,
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": []}]},
    ],
    [
        _CALL,
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "toolset_name": "kit"}],
        },
    ],
    [
        {
            "role": "assistant",
            "content": [
                {
                    "type": "tool_use",
                    "id": "t1",
                    "name": "f",
                    "input": {"x": "é"},
                    "caller": {"type": "direct"},
                    "toolset_name": None,
                }
            ],
        }
    ],
    [
        {
            "role": "user",
            "content": [{"type": "document", "source": _PDF_URL}, {"type": "text", "text": "?"}],
        }
    ],
    [
        {
            "role": "user",
            "content": [
                {"type": "document", "source": _PDF_URL, "title": "Report"},
                {"type": "text", "text": "?"},
            ],
        }
    ],
    [
        {
            "role": "user",
            "content": [
                {"type": "document", "source": _PDF_URL, "title": None},
                {"type": "text", "text": "?"},
            ],
        }
    ],
]


@pytest.mark.parametrize("turns", SPELLINGS)
def test_read_spellings_render_back(turns: list[dict[str, Any]]) -> None:
    """Each spelling is remembered, so rendering for Anthropic writes it the same way."""
    assert mp.render(mp.messages_from({"messages": turns}, "anthropic"), "anthropic") == {
        "messages": turns
    }


def test_read_tool_result_with_an_image() -> None:
    """A tool_result's block content reads as parts in order."""
    result = {
        "type": "tool_result",
        "tool_use_id": "t1",
        "content": [
            {"type": "text", "text": "Radar:"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        ],
    }
    [tool] = anthropic.PROVIDER.read([{"role": "user", "content": [result]}])
    assert [p.kind for p in tool.parts] == ["text", "image"]


@pytest.mark.parametrize(
    ("payload", "hints"),
    [
        ({"system": "Be brief.", "messages": []}, {}),
        ({"system": [{"type": "text", "text": "Be brief."}], "messages": []}, {"system": "blocks"}),
        ({"messages": [{"role": "system", "content": "Be brief."}]}, {"system": "message"}),
    ],
)
def test_read_system_spellings(payload: dict[str, Any], hints: dict[str, Any]) -> None:
    """Each spelling of the system prompt reads as one System message that remembers it."""
    [system] = anthropic.PROVIDER.read(payload)
    assert isinstance(system, mp.System) and system.content == "Be brief."
    assert system.native.get("anthropic", {}) == hints


def test_read_ignores_other_call_arguments() -> None:
    """model, max_tokens, tools and thinking are not part of the conversation."""
    turns = [{"role": "user", "content": "Hi"}]
    payload = {"model": "claude-x", "max_tokens": 5, "tools": [], "messages": turns}
    assert anthropic.PROVIDER.read(payload) == anthropic.PROVIDER.read(turns) == [mp.User("Hi")]


def test_read_does_not_change_the_payload() -> None:
    """Reading leaves the caller's payload as it was."""
    payload = json.loads((CORPUS / "requests" / "10_citations.json").read_text())
    before = copy.deepcopy(payload)
    mp.messages_from(payload, "anthropic")
    assert payload == before


_SOURCE = {"type": "base64", "media_type": "image/png", "data": PNG}
_IMAGE: dict[str, Any] = {"type": "image", "source": _SOURCE}

# (payload, the path the error names)
HOSTILE: list[tuple[Any, str]] = [
    ("a prompt", "payload"),
    ({"messages": "x"}, "messages"),
    ({"messages": [5]}, r"messages\[0\]"),
    ({"messages": [{"role": "bot", "content": "x"}]}, r"messages\[0\]\.role"),
    ({"messages": [{"role": "user", "content": 3}]}, r"messages\[0\]\.content"),
    ({"messages": [{"role": "user", "content": [{"type": 3}]}]}, r"content\[0\]\.type"),
    ({"messages": [{"role": "user", "content": ["text"]}]}, r"content\[0\]"),
    (
        {
            "messages": [
                {
                    "role": "user",
                    "content": [{**_IMAGE, "source": {**_SOURCE, "data": "@@"}}],
                }
            ]
        },
        r"content\[0\]\.source\.data",
    ),
    (
        {"messages": [{"role": "user", "content": [{**_IMAGE, "source": {"type": "ftp"}}]}]},
        r"content\[0\]\.source\.type",
    ),
    (
        {
            "messages": [
                {
                    "role": "user",
                    "content": [{**_IMAGE, "source": {"type": "url", "url": "/etc/passwd"}}],
                }
            ]
        },
        r"content\[0\]\.source\.url",
    ),
    (
        {
            "messages": [
                {"role": "user", "content": [{**_IMAGE, "cache_control": {"type": "forever"}}]}
            ]
        },
        r"content\[0\]\.cache_control",
    ),
    (
        {
            "messages": [
                {
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": "t", "name": "f", "input": []}],
                }
            ]
        },
        r"content\[0\]\.input",
    ),
    (
        {"messages": [{"role": "assistant", "content": [{"type": "thinking", "thinking": "x"}]}]},
        r"content\[0\]\.signature",
    ),
    (
        {
            "messages": [
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "t", "is_error": "yes"}],
                }
            ]
        },
        r"content\[0\]\.is_error",
    ),
    (
        {
            "messages": [
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "t", "content": 7}],
                }
            ]
        },
        r"content\[0\]\.content",
    ),
    (
        {
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "x", "citations": {}}]}
            ]
        },
        r"content\[0\]\.citations",
    ),
    (
        {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "text",
                            "text": "x",
                            "citations": [{"type": "char_location", "cited_text": 5}],
                        }
                    ],
                }
            ]
        },
        r"citations\[0\]\.cited_text",
    ),
    ({"system": 5, "messages": []}, "system"),
    ({"system": [_IMAGE], "messages": []}, r"system\[0\]\.type"),
]


@pytest.mark.parametrize(("payload", "path"), HOSTILE)
def test_read_refuses_malformed_payloads(payload: Any, path: str) -> None:
    """A payload of the wrong shape raises InvalidMedia naming the JSON path, and nothing else."""
    with pytest.raises(mp.InvalidMedia, match=path):
        mp.messages_from(payload, "anthropic")
