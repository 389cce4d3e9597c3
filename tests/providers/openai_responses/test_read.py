"""Reading Responses payloads and responses: every item and block type, hostile input, usage."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers import openai_responses
from tests._builders import ROOT

P = "openai-responses"
CORPUS = ROOT / "tests" / "conversations" / "corpus" / P
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAOUlEQVR42m3OsQkAQAgDwCRTuX/lVvniQUS1MXASJ"
    "GAnsUZOMnwAgNP01zZVGqZ+1U2juozO/REYfntpF9WCinvgAAAAAElFTkSuQmCC"
)
PDF_URI = "data:application/pdf;base64,JVBERi0xLjQKJcfsj6IKJSVFT0YK"


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _one_part(block: dict[str, Any]) -> Any:
    """Read `block` as the only content of a user message and return its part."""
    (message,) = openai_responses.PROVIDER.read([{"role": "user", "content": [block]}])
    (part,) = message.parts
    return part


# (block, part class, fields the part has)
BLOCKS: list[tuple[dict[str, Any], type[Any], dict[str, Any]]] = [
    ({"type": "input_text", "text": "Hi"}, mp.TextPart, {"text": "Hi", "native": {}}),
    (
        {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}", "detail": "low"},
        mp.ImagePart,
        {"media_type": "image/png", "detail": "low", "url": None},
    ),
    (
        {"type": "input_image", "image_url": "https://media.example/photo.jpg", "detail": "auto"},
        mp.ImagePart,
        {"url": "https://media.example/photo.jpg", "detail": "auto"},
    ),
    (
        {"type": "input_image", "file_id": "file-1", "detail": "high"},
        mp.ImagePart,
        {"file_id": "file-1", "file_provider": "openai", "detail": "high"},
    ),
    (
        {"type": "input_file", "file_data": PDF_URI, "filename": "a.pdf"},
        mp.FilePart,
        {"media_type": "application/pdf", "filename": "a.pdf", "native": {}},
    ),
    (
        {"type": "input_file", "file_url": "https://media.example/document.pdf"},
        mp.FilePart,
        {"url": "https://media.example/document.pdf"},
    ),
    (
        {"type": "input_file", "file_id": "file-2", "detail": "low"},
        mp.FilePart,
        {"file_id": "file-2", "native": {P: {"extra": {"detail": "low"}}}},
    ),
    (
        {"type": "input_text", "text": "Hi", "prompt_cache_breakpoint": {"mode": "explicit"}},
        mp.TextPart,
        {"cache": "5m", "native": {}},
    ),
    (
        {
            "type": "input_text",
            "text": "Hi",
            "prompt_cache_breakpoint": {"mode": "explicit", "ttl": "12h"},
        },
        mp.TextPart,
        {"cache": "1h", "native": {}},
    ),
    (
        {
            "type": "input_text",
            "text": "Hi",
            "prompt_cache_breakpoint": {"mode": "explicit", "ttl": "30m"},
        },
        mp.TextPart,
        {"cache": "5m", "native": {P: {"breakpoint": {"mode": "explicit", "ttl": "30m"}}}},
    ),
    (
        {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}},
        mp.ProviderPart,
        {
            "provider": P,
            "data": {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}},
        },
    ),
]


@pytest.mark.parametrize(("block", "cls", "fields"), BLOCKS, ids=lambda v: str(v)[:40])
def test_read_block_becomes_its_part(
    block: dict[str, Any], cls: type[Any], fields: dict[str, Any]
) -> None:
    """Each content block type reads as its part, with the fields the block gives."""
    part = _one_part(block)
    assert type(part) is cls
    for name, value in fields.items():
        assert getattr(part, name) == value, name


def test_read_inline_image_keeps_its_bytes() -> None:
    """A data URL's bytes become the part's bytes, not a URL."""
    part = _one_part(
        {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}", "detail": "auto"}
    )
    assert part.data[:8] == b"\x89PNG\r\n\x1a\n"


def test_read_tool_output_image_without_detail_is_remembered() -> None:
    """An image without `detail` (allowed in a tool output) is marked so none is written back."""
    (tool,) = openai_responses.PROVIDER.read(
        [
            {
                "type": "function_call_output",
                "call_id": "c",
                "output": [{"type": "input_image", "file_id": "file-3"}],
            }
        ]
    )
    assert isinstance(tool, mp.Tool)
    assert tool.parts[0].native == {P: {"omit": ["detail"]}}


ITEMS: list[tuple[dict[str, Any], type[Any], dict[str, Any]]] = [
    (
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "zoom",
            "arguments": '{"x":1}',
            "status": "completed",
        },
        mp.ToolCall,
        {
            "id": "call_1",
            "item_id": "fc_1",
            "name": "zoom",
            "arguments": '{"x":1}',
            "native": {P: {"extra": {"status": "completed"}}},
        },
    ),
    (
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "Plan"}],
            "encrypted_content": "gAAAA",
        },
        mp.ReasoningPart,
        {"id": "rs_1", "summary": ("Plan",), "data": "gAAAA", "provider": P, "text": None},
    ),
    (
        {
            "type": "reasoning",
            "id": "rs_2",
            "summary": [],
            "content": [{"type": "reasoning_text", "text": "Because."}],
        },
        mp.ReasoningPart,
        {"id": "rs_2", "summary": (), "text": "Because.", "native": {}},
    ),
    (
        {"type": "reasoning", "id": "rs_3", "summary": [{"type": "summary_image", "url": "u"}]},
        mp.ProviderPart,
        {"provider": P},
    ),
    (
        {
            "type": "web_search_call",
            "id": "ws_1",
            "status": "completed",
            "action": {"type": "search", "query": "q"},
        },
        mp.ProviderPart,
        {
            "provider": P,
            "data": {
                "type": "web_search_call",
                "id": "ws_1",
                "status": "completed",
                "action": {"type": "search", "query": "q"},
            },
        },
    ),
    (
        {"type": "item_reference", "id": "msg_1"},
        mp.ProviderPart,
        {"data": {"type": "item_reference", "id": "msg_1"}},
    ),
    (
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "refusal", "refusal": "No."}],
        },
        mp.RefusalPart,
        {
            "text": "No.",
            "native": {P: {"item": {"type": "message", "id": "msg_1", "status": "completed"}}},
        },
    ),
]


@pytest.mark.parametrize(("item", "cls", "fields"), ITEMS, ids=lambda v: str(v)[:40])
def test_read_assistant_item_becomes_its_part(
    item: dict[str, Any], cls: type[Any], fields: dict[str, Any]
) -> None:
    """Each assistant-side item reads as its part of one Assistant; unknown ones are kept whole."""
    (message,) = openai_responses.PROVIDER.read([item])
    assert isinstance(message, mp.Assistant)
    (part,) = message.parts
    assert type(part) is cls
    for name, value in fields.items():
        assert getattr(part, name) == value, name


def test_read_output_text_annotations_become_citations() -> None:
    """A url_citation keeps its title and URL, and the annotation whole as its data."""
    note = {
        "type": "url_citation",
        "start_index": 0,
        "end_index": 2,
        "url": "https://a.example",
        "title": "A",
    }
    item = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "Hi", "annotations": [note]}],
    }
    (message,) = openai_responses.PROVIDER.read([item])
    text = message.parts[0]
    assert isinstance(text, mp.TextPart)
    (citation,) = text.citations
    assert (citation.provider, citation.title, citation.url, citation.data) == (
        P,
        "A",
        "https://a.example",
        note,
    )


def test_read_groups_assistant_side_items_in_order() -> None:
    """Reasoning, a message and calls between two user turns make one Assistant, in order."""
    messages = openai_responses.PROVIDER.read(
        _load(CORPUS / "requests" / "07_reasoning_tool_loop.json")
    )
    assert [m.role for m in messages] == ["user", "assistant", "tool", "assistant", "user"]
    assert [p.kind for p in messages[1].parts] == ["reasoning", "tool_call"]
    assert [p.kind for p in messages[3].parts] == ["reasoning", "text"]


def test_read_instructions_and_string_input() -> None:
    """`instructions` is a first System message and a string `input` one User message."""
    system, user = openai_responses.PROVIDER.read(
        {"instructions": "Be brief.", "input": "Hi", "model": "gpt-5.5"}
    )
    assert (system.role, system.content, user.content) == ("system", "Be brief.", "Hi")


def test_read_developer_role_is_kept() -> None:
    """A developer message is a System with role developer; a tool output keeps its call id."""
    developer, tool = openai_responses.PROVIDER.read(
        [
            {
                "type": "message",
                "role": "developer",
                "content": [{"type": "input_text", "text": "Rules"}],
            },
            {"type": "function_call_output", "call_id": "call_9", "output": "done", "name": "f"},
        ]
    )
    assert isinstance(developer, mp.System) and developer.role == "developer"
    assert developer.native == {P: {"extra": {"type": "message"}, "list": True}}
    assert isinstance(tool, mp.Tool) and (tool.tool_call_id, tool.name) == ("call_9", "f")


def test_read_system_message_with_media_is_a_user_with_its_role() -> None:
    """A developer message holding an image (System is text only) reads as a User, role kept."""
    (message,) = openai_responses.PROVIDER.read(
        [
            {
                "role": "developer",
                "content": [{"type": "input_image", "file_id": "file-1", "detail": "auto"}],
            }
        ]
    )
    assert isinstance(message, mp.User) and message.native == {P: {"role": "developer"}}


HOSTILE: list[tuple[Any, str]] = [
    (3, "payload: expected an object"),
    ({"input": 3}, "input: expected an array"),
    ({"instructions": ["x"]}, "payload.instructions: expected a string"),
    ([7], r"input\[0\]: expected an object"),
    ([{"role": "user"}], "content: expected an array, got null"),
    ([{"role": "critic", "content": "x"}], r"input\[0\].role"),
    ([{"role": 5, "content": "x"}], r"input\[0\].role: expected a string"),
    ([{"role": "user", "content": [{"text": "x"}]}], r"input\[0\].content\[0\].type: missing"),
    (
        [{"role": "user", "content": [{"type": "input_text", "text": 1}]}],
        r"content\[0\].text: expected a string",
    ),
    (
        [{"role": "user", "content": [{"type": "input_image", "detail": "auto"}]}],
        "image_url or a file_id",
    ),
    (
        [
            {
                "role": "user",
                "content": [{"type": "input_image", "image_url": "/etc/passwd", "detail": "auto"}],
            }
        ],
        "image_url: expected a URL",
    ),
    (
        [
            {
                "role": "user",
                "content": [
                    {"type": "input_image", "image_url": "https://a.example/x.png", "detail": "max"}
                ],
            }
        ],
        "detail: expected one of",
    ),
    (
        [
            {
                "role": "user",
                "content": [{"type": "input_file", "file_data": PDF_URI, "file_id": "f"}],
            }
        ],
        "expected one of file_data",
    ),
    (
        [
            {
                "role": "user",
                "content": [{"type": "input_file", "file_data": "data:application/pdf;base64,!!"}],
            }
        ],
        r"content\[0\].file_data",
    ),
    (
        [
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "x", "prompt_cache_breakpoint": {"mode": "auto"}}
                ],
            }
        ],
        "prompt_cache_breakpoint.mode",
    ),
    (
        [
            {
                "role": "user",
                "content": [
                    {
                        "type": "input_text",
                        "text": "x",
                        "prompt_cache_breakpoint": {"mode": "explicit", "ttl": "5m"},
                    }
                ],
            }
        ],
        "prompt_cache_breakpoint.ttl",
    ),
    (
        [{"type": "function_call", "call_id": "c", "name": "f", "arguments": {"x": 1}}],
        r"input\[0\].arguments: expected a string",
    ),
    ([{"type": "function_call", "name": "f", "arguments": "{}"}], r"input\[0\].call_id: missing"),
    (
        [{"type": "function_call_output", "call_id": "c", "output": 5}],
        r"input\[0\].output: expected an array",
    ),
    (
        [{"type": "function_call_output", "call_id": "c", "output": [{"type": "input_text"}]}],
        r"output\[0\].text: missing",
    ),
    ([{"type": "reasoning", "summary": []}], r"input\[0\].id: missing"),
    (
        [{"type": "reasoning", "id": "rs", "summary": "plan"}],
        r"input\[0\].summary: expected an array",
    ),
    (
        [{"type": "reasoning", "id": "rs", "summary": [{"type": "summary_text", "text": 1}]}],
        r"summary\[0\].text",
    ),
    (
        [{"type": "reasoning", "id": "rs", "summary": [], "encrypted_content": 9}],
        "encrypted_content: expected a string",
    ),
    (
        [{"role": "assistant", "content": [{"type": "output_text", "text": "x"}]}],
        r"content\[0\].annotations: expected an array, got null",
    ),
    (
        [
            {
                "role": "assistant",
                "content": [{"type": "output_text", "text": "x", "annotations": [3]}],
            }
        ],
        r"annotations\[0\]: expected an object",
    ),
    ([{"role": "assistant", "content": [{"type": "refusal"}]}], r"content\[0\].refusal: missing"),
    ([{"type": 4}], r"input\[0\].type: expected a string"),
    ([{"type": "web_search_call", "id": "ws", "x": float("nan")}], r"input\[0\]: .*not JSON data"),
    ([{"role": "user", "content": "x", "status": {1: 2}}], r"input\[0\]: .*not a string"),
]


@pytest.mark.parametrize(("payload", "message"), HOSTILE, ids=lambda v: str(v)[:50])
def test_read_hostile_payload_names_the_path(payload: Any, message: str) -> None:
    """A wrong type at any level is InvalidMedia naming the JSON path and what was expected."""
    with pytest.raises(mp.InvalidMedia, match=message):
        mp.messages_from(payload, P)


def test_read_does_not_change_the_payload() -> None:
    """Reading leaves the caller's payload as it was, and the parts share nothing with it."""
    payload = _load(CORPUS / "requests" / "09_web_search_and_citations.json")
    before = copy.deepcopy(payload)
    messages = mp.messages_from(payload, P)
    assert payload == before
    payload["input"][1]["action"]["query"] = "changed"
    search = messages[1].parts[0]
    assert isinstance(search, mp.ProviderPart)
    assert search.data["action"]["query"] == "positive news story today"


def test_read_assistant_envelope_shares_nothing_with_the_payload() -> None:
    """An assistant item's own fields, kept as a hint on its first part, are copies."""
    tags = ["a"]
    item = {"role": "assistant", "content": "hi", "metadata": {"tags": tags}}
    messages = mp.messages_from({"input": [item]}, P)
    tags.append("b")
    assert messages[0].parts[0].native[P]["item"] == {"metadata": {"tags": ["a"]}}


# -- back to the same payload --------------------------------------------------------------------

REQUESTS = sorted((CORPUS / "requests").glob("*.json"))


@pytest.mark.parametrize("path", REQUESTS, ids=[p.stem for p in REQUESTS])
def test_read_then_render_gives_the_payload_back(path: Path) -> None:
    """render(messages_from(p)) == p for every corpus payload (call arguments aside)."""
    payload = _load(path)
    rendered = mp.render(mp.messages_from(payload, P), P, urls="pass")
    assert rendered == {k: v for k, v in payload.items() if k in ("instructions", "input")}


def test_read_round_trips_through_to_dict() -> None:
    """Messages read from a payload survive to_dict, JSON and message_from_dict unchanged."""
    payload = _load(CORPUS / "requests" / "12_tool_outputs_with_files.json")
    messages = mp.messages_from(payload, P)
    again = [mp.message_from_dict(json.loads(json.dumps(m.to_dict()))) for m in messages]
    assert mp.render(again, P, urls="pass") == payload
