"""Reading Responses `Response` objects: usage, stop reasons, the SDK object, hostile input."""

from __future__ import annotations

import json
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers import openai_responses
from tests._builders import ROOT

P = "openai-responses"
CORPUS = ROOT / "tests" / "conversations" / "corpus" / P / "responses"


def _load(name: str) -> Any:
    return json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))


RESPONSES: list[tuple[str, str, str, dict[str, int]]] = [
    (
        "01_text_cached_usage",
        "end",
        "completed",
        {
            "input_tokens": 2048,
            "output_tokens": 180,
            "cache_read_tokens": 1536,
            "cache_write_tokens": 256,
            "reasoning_tokens": 128,
        },
    ),
    ("02_reasoning_parallel_tool_calls", "tool_call", "completed", {"reasoning_tokens": 256}),
    ("03_web_search_citations", "end", "completed", {"cache_read_tokens": 8960}),
    ("04_incomplete_max_output_tokens", "max_tokens", "max_output_tokens", {"output_tokens": 300}),
    ("05_refusal", "refusal", "completed", {"input_tokens": 31}),
]


@pytest.mark.parametrize(("name", "stop", "raw", "usage"), RESPONSES, ids=[r[0] for r in RESPONSES])
def test_read_response_usage_and_stop_reason(
    name: str, stop: str, raw: str, usage: dict[str, int]
) -> None:
    """A response reads as one Assistant with its stop reason (and the API's) and its usage."""
    reply = mp.message_from_response(_load(name), P)
    assert (reply.stop_reason, reply.stop_reason_raw) == (stop, raw)
    assert reply.usage is not None
    for field, value in usage.items():
        assert getattr(reply.usage, field) == value, field


def test_read_response_from_the_sdk_object() -> None:
    """The SDK's `Response` object reads the same as its dict."""
    responses = pytest.importorskip("openai.types.responses")
    data = _load("02_reasoning_parallel_tool_calls")
    from_object = mp.message_from_response(responses.Response.model_validate(data), P)
    from_dict = mp.message_from_response(data, P)
    assert from_object == from_dict
    assert from_dict.model == "o4-mini-2025-04-16"
    assert from_dict.id == "resp_68af4b2c3d4e8190c3d4e5f6a7b8c9d0"
    assert [p.kind for p in from_dict.parts] == ["reasoning", "tool_call", "tool_call"]


def test_read_response_parsed_response_same_as_plain() -> None:
    """What `responses.parse()` adds (`parsed`, `parsed_arguments`) is left out, never sent back."""
    pytest.importorskip("openai")
    from openai.lib._parsing._responses import parse_response
    from openai.types.responses import Response

    data = _load("02_reasoning_parallel_tool_calls")
    response = Response.model_validate(data)
    text_format: Any = None  # no format; the SDK annotates this `type[T] | Omit`
    parsed = parse_response(text_format=text_format, input_tools=data["tools"], response=response)
    assert mp.message_from_response(parsed, P) == mp.message_from_response(data, P)


def test_read_response_sdk_object_keeps_api_field_names() -> None:
    """A field the SDK renames (`async` is `async_` in Python) is read by its API name."""
    responses = pytest.importorskip("openai.types.responses")
    data = _load("02_reasoning_parallel_tool_calls")
    data["output"][1]["async"] = True
    reply = mp.message_from_response(responses.Response.model_validate(data), P)
    assert reply.parts[1].native == {P: {"extra": {"status": "completed", "async": True}}}


@pytest.mark.parametrize(
    ("status", "reason", "stop"),
    [
        ("incomplete", "content_filter", "content_filter"),
        ("incomplete", "max_messages", "other"),
        ("failed", None, "other"),
        ("completed", None, "end"),
        ("queued", None, "other"),
        ("something_new", None, "other"),
    ],
)
def test_read_response_status_maps_to_stop_reason(
    status: str, reason: str | None, stop: str
) -> None:
    """`incomplete_details.reason`, else `status`, gives the stop reason; unknown ones are other."""
    details = {"reason": reason} if reason else None
    reply = openai_responses.PROVIDER.read_response(
        {"output": [], "status": status, "incomplete_details": details}
    )
    assert (reply.stop_reason, reply.stop_reason_raw) == (stop, reason or status)
    assert reply.usage is None


@pytest.mark.parametrize(
    ("response", "message"),
    [
        (["not", "a", "response"], "expected the SDK's response object"),
        ({"output": {}}, r"response.output: expected an array"),
        (
            {"output": [{"type": "message", "role": "user", "content": "x"}]},
            r"output\[0\]: expected an output item",
        ),
        (
            {"output": [], "usage": {"input_tokens": "3", "output_tokens": 1}},
            "usage.input_tokens: expected a token count",
        ),
        (
            {
                "output": [],
                "usage": {"input_tokens": 3, "output_tokens": 1, "input_tokens_details": []},
            },
            "input_tokens_details: expected an object",
        ),
        ({"output": [], "status": 1}, "response.status: expected a string"),
        (
            {"output": [], "usage": {"input_tokens": -1, "output_tokens": 1}},
            r"response\.usage\.input_tokens: expected a token count",
        ),
        ({"output": [], "incomplete_details": {"reason": 2}}, "incomplete_details.reason"),
    ],
)
def test_read_response_hostile_names_the_field(response: Any, message: str) -> None:
    """A malformed response is InvalidMedia naming the field."""
    with pytest.raises(mp.InvalidMedia, match=message):
        mp.message_from_response(response, P)


def test_read_response_then_render_replays_the_output_items() -> None:
    """A response's output, read and rendered back, is its output items as the API wrote them."""
    data = _load("03_web_search_citations")
    reply = mp.message_from_response(data, P)
    assert mp.render([reply], P) == {"input": data["output"]}


def test_parsed_response_replays_without_parsed_fields() -> None:
    """A `responses.parse()` result reads like its Response; `parsed` is never sent back."""
    pytest.importorskip("openai")
    from openai.types.responses import ParsedResponse

    path = ROOT / "tests/conversations/corpus/openai-responses/responses/01_text_cached_usage.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    plain_reply = mp.message_from_response(data, "openai-responses")
    for item in data["output"]:
        for block in item.get("content") or []:
            if block.get("type") == "output_text":
                block["parsed"] = {"answer": "Paris"}
    parsed = ParsedResponse[dict[str, Any]].model_validate(data)
    reply = mp.message_from_response(parsed, "openai-responses")
    assert reply == plain_reply
    assert "parsed" not in json.dumps(mp.render([mp.User("q"), reply], "openai-responses"))
