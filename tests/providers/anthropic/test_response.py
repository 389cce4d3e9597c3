"""Reading Messages API responses: usage in the common meaning, stop reasons, hostile input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers import anthropic
from tests.providers.anthropic.test_read import CHAR_CITATION, CORPUS


def _response(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "Hi.", "citations": None}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }
    return {**base, **fields}


@pytest.mark.parametrize(
    ("usage", "expected"),
    [
        ({"input_tokens": 10, "output_tokens": 5}, mp.Usage(input_tokens=10, output_tokens=5)),
        (
            {
                "input_tokens": 21,
                "output_tokens": 393,
                "cache_creation_input_tokens": 100,
                "cache_read_input_tokens": 1200,
                "output_tokens_details": {"thinking_tokens": 200},
            },
            mp.Usage(
                input_tokens=1321,
                output_tokens=393,
                cache_read_tokens=1200,
                cache_write_tokens=100,
                reasoning_tokens=200,
            ),
        ),
        (
            {"input_tokens": 3, "output_tokens": 1, "cache_read_input_tokens": None},
            mp.Usage(input_tokens=3, output_tokens=1),
        ),
    ],
)
def test_read_response_usage(usage: dict[str, Any], expected: mp.Usage) -> None:
    """input_tokens counts cache reads and writes too; thinking tokens are reasoning tokens."""
    assert anthropic.PROVIDER.read_response(_response(usage=usage)).usage == expected


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("end_turn", "end"),
        ("max_tokens", "max_tokens"),
        ("stop_sequence", "stop_sequence"),
        ("tool_use", "tool_call"),
        ("refusal", "refusal"),
        ("pause_turn", "other"),
        ("model_context_window_exceeded", "max_tokens"),
        ("something_new", "other"),
        (None, None),
    ],
)
def test_read_response_stop_reasons(raw: str | None, reason: str | None) -> None:
    """Each stop_reason maps to the common one; the API's own value is kept."""
    reply = anthropic.PROVIDER.read_response(_response(stop_reason=raw))
    assert (reply.stop_reason, reply.stop_reason_raw) == (reason, raw)


def test_read_response_from_the_sdk_object() -> None:
    """The SDK's Message reads as its dict does; a null citation title survives."""
    from anthropic.types import Message

    block = {
        "type": "text",
        "text": "green",
        "citations": [{**CHAR_CITATION, "document_title": None}],
    }
    data = _response(content=[block], stop_sequence="END", stop_reason="stop_sequence")
    reply = mp.message_from_response(Message.model_validate(data), "anthropic")
    assert reply == anthropic.PROVIDER.read_response(data)
    [text] = reply.parts
    assert isinstance(text, mp.TextPart)
    assert text.citations[0].data["document_title"] is None
    assert (reply.id, reply.model) == ("msg_1", "claude-sonnet-4-5")
    assert reply.native == {"anthropic": {"stop_sequence": "END"}}


@pytest.mark.parametrize(
    ("response", "path"),
    [
        ([], "response"),
        (_response(content="Hi"), "content"),
        (_response(usage={"input_tokens": "10", "output_tokens": 1}), r"usage\.input_tokens"),
        (_response(usage={"output_tokens": 1}), r"usage\.input_tokens"),
        (_response(stop_reason=3), "stop_reason"),
        (
            _response(content=[{"type": "tool_use", "id": "t", "name": 1, "input": {}}]),
            r"content\[0\]\.name",
        ),
    ],
)
def test_read_response_refuses_malformed(response: Any, path: str) -> None:
    """A response of the wrong shape raises InvalidMedia naming the field."""
    with pytest.raises(mp.InvalidMedia, match=path):
        mp.message_from_response(response, "anthropic")


# -- the corpus ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", sorted((CORPUS / "responses").glob("*.json")), ids=lambda p: p.stem
)
def test_read_corpus_responses(path: Path) -> None:
    """Each corpus response reads, and its reply renders back as the blocks it holds."""
    data = json.loads(path.read_text(encoding="utf-8"))
    reply = anthropic.PROVIDER.read_response(data)
    [turn] = mp.render([mp.User("Q"), reply], "anthropic")["messages"][1:]
    blocks = (
        turn["content"]
        if isinstance(turn["content"], list)
        else [{"type": "text", "text": turn["content"]}]
    )
    assert [b["type"] for b in blocks] == [b["type"] for b in data["content"]]
