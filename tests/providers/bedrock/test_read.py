"""Reading Converse payloads and responses: turns, tool results, system blocks, hostile input."""

from __future__ import annotations

import base64
import re
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers import bedrock
from mediaparts.providers.wires.converse import STOP_REASONS

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAGUlEQVR4nGNkYGhQYGDARCwMCgxYweCUAABobwJe"
    "4J3LcgAAAABJRU5ErkJggg=="
)


def _round_trip(payload: dict[str, Any]) -> list[mp.Message]:
    """Read a payload, check it renders back identical, and return the messages."""
    messages = mp.messages_from(payload, "bedrock")
    assert mp.render(messages, "bedrock") == payload
    return messages


def _result(call_id: str, *content: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"toolResult": {"toolUseId": call_id, "content": list(content), **more}}


def test_read_user_turn_splits_into_tool_results_and_user_parts() -> None:
    """Tool results become Tool messages, in order; the user's own blocks a User message."""
    payload = {
        "messages": [
            {
                "role": "user",
                "content": [
                    _result("a", {"json": {"t": 21}}, status="success"),
                    _result("b", {"text": "timed out"}, status="error"),
                    _result(
                        "c",
                        {"text": "Chart:"},
                        {"image": {"format": "png", "source": {"bytes": PNG}}},
                    ),
                    {"text": "Thanks."},
                ],
            }
        ]
    }
    messages = _round_trip(payload)
    assert [m.role for m in messages] == ["tool", "tool", "tool", "user"]
    first, second, third, _ = messages
    assert isinstance(first, mp.Tool) and isinstance(second, mp.Tool) and isinstance(third, mp.Tool)
    assert (first.tool_call_id, first.content, first.is_error) == ("a", '{"t": 21}', False)
    assert first.parts[0].native == {"bedrock": {"json": True}}
    assert first.native == {"bedrock": {"status": "success"}}
    assert (second.is_error, second.error, second.native) == (True, None, {})
    assert [p.kind for p in third.parts] == ["text", "image"]


def test_read_tool_result_type_is_kept() -> None:
    """A toolResult's `type` is kept on the Tool message and written back."""
    messages = _round_trip(
        {"messages": [{"role": "user", "content": [_result("a", {"text": "x"}, type="t")]}]}
    )
    assert messages[0].native == {"bedrock": {"type": "t"}}


def test_read_cache_point_after_a_tool_result_caches_its_last_part() -> None:
    """A cachePoint after a toolResult is the cache of the result's last part."""
    payload = {
        "messages": [
            {
                "role": "user",
                "content": [
                    _result("a", {"text": "x"}, {"text": "y"}),
                    {"cachePoint": {"type": "default"}},
                ],
            }
        ]
    }
    (tool,) = _round_trip(payload)
    assert [p.cache for p in tool.parts] == [None, "5m"]


def test_read_cache_point_after_an_empty_tool_result_is_kept_as_written() -> None:
    """With no part to carry it, the cachePoint stays a block of its own."""
    payload = {
        "messages": [
            {"role": "user", "content": [_result("a"), {"cachePoint": {"type": "default"}}]}
        ]
    }
    tool, user = _round_trip(payload)
    assert tool.parts == ()
    assert user.parts == (
        mp.ProviderPart(provider="bedrock", data={"cachePoint": {"type": "default"}}),
    )


def test_read_system_blocks() -> None:
    """Top-level system text is one System message; its cachePoint is the last text's cache."""
    payload = {
        "system": [
            {"text": "Be brief."},
            {"text": "Be kind."},
            {"cachePoint": {"type": "default"}},
        ],
        "messages": [{"role": "user", "content": [{"text": "Hi"}]}],
    }
    system, _ = _round_trip(payload)
    assert isinstance(system, mp.System)
    assert [(p.text, p.cache) for p in system.parts if isinstance(p, mp.TextPart)] == [
        ("Be brief.", None),
        ("Be kind.", "5m"),
    ]


def test_read_system_blocks_a_system_message_cannot_hold() -> None:
    """A guarded image in `system` is kept in a User message marked `system`, rendered back there."""
    payload = {
        "system": [
            {"text": "Rules."},
            {"guardContent": {"image": {"format": "png", "source": {"bytes": PNG}}}},
        ],
        "messages": [{"role": "user", "content": [{"text": "Hi"}]}],
    }
    system, holder, _ = _round_trip(payload)
    assert isinstance(system, mp.System) and isinstance(holder, mp.User)
    assert holder.native == {"bedrock": {"system": True}}


def test_read_mid_conversation_system_message() -> None:
    """A `system` turn inside `messages` stays in place, with its tool additions beside it."""
    addition = {"toolAddition": {"tool": {"name": "search"}}}
    payload = {
        "messages": [
            {"role": "user", "content": [{"text": "Hi"}]},
            {"role": "assistant", "content": [{"text": "Hello."}]},
            {"role": "system", "content": [{"text": "Use the new tool."}, addition]},
            {"role": "user", "content": [{"text": "Search it."}]},
        ]
    }
    messages = _round_trip(payload)
    assert [m.role for m in messages] == ["user", "assistant", "system", "user", "user"]
    assert messages[2].native == {"bedrock": {"in_messages": True}}
    assert messages[3].native == {"bedrock": {"in_messages": True, "system": True}}
    assert messages[3].parts == (mp.ProviderPart(provider="bedrock", data=addition),)


def test_read_takes_just_the_message_list_and_ignores_call_arguments() -> None:
    """A bare `messages` list reads the same; modelId, inferenceConfig and the rest are ignored."""
    turns = [{"role": "user", "content": [{"text": "Hi"}]}]
    full = {"modelId": "m", "inferenceConfig": {"maxTokens": 5}, "messages": turns}
    assert bedrock.PROVIDER.read(turns) == bedrock.PROVIDER.read(full) == [mp.User("Hi")]


HOSTILE: list[tuple[Any, str]] = [
    (
        [{"role": "assistant", "content": [{"reasoningContent": {"redactedContent": "@@"}}]}],
        "messages[0].content[0].reasoningContent.redactedContent: ",
    ),
    (
        [{"role": "user", "content": [{"searchResult": {"score": float("nan")}}]}],
        "messages[0].content[0].searchResult: ",
    ),
    (
        [
            {
                "role": "user",
                "content": [
                    {
                        "guardContent": {
                            "image": {
                                "format": "png",
                                "source": {"s3Location": {"uri": "s3://b/k"}},
                            }
                        }
                    }
                ],
            }
        ],
        "messages[0].content[0].guardContent.image.source: a guarded image takes bytes only",
    ),
    (5, "payload: expected an object, got int"),
    ({"messages": "x"}, "messages: expected an array"),
    ({"system": {"text": "x"}}, "system: expected an array"),
    ({"system": [{"text": 1}]}, "system[0].text: expected a string"),
    ([5], "messages[0]: expected an object"),
    ([{"content": []}], "messages[0].role: missing"),
    ([{"role": "tool", "content": []}], "messages[0].role: expected user, assistant or system"),
    ([{"role": "user", "content": "hi"}], "messages[0].content: expected an array"),
    (
        [{"role": "user", "content": [{"text": "a", "image": {}}]}],
        "messages[0].content[0]: expected an object with exactly one key",
    ),
    (
        [{"role": "user", "content": [{}]}],
        "messages[0].content[0]: expected an object with exactly one key, got none",
    ),
    (
        [{"role": "user", "content": [{"text": None}]}],
        "messages[0].content[0].text: expected a string, got null",
    ),
    (
        [{"role": "user", "content": [{"image": {"format": 1, "source": {}}}]}],
        "messages[0].content[0].image.format: expected a string",
    ),
    (
        [{"role": "user", "content": [{"image": {"format": "png", "source": {"bytes": 7}}}]}],
        "messages[0].content[0].image.source.bytes:",
    ),
    (
        [{"role": "user", "content": [{"image": {"format": "png", "source": {"bytes": "!!"}}}]}],
        "messages[0].content[0].image.source.bytes:",
    ),
    (
        [{"role": "user", "content": [{"image": {"format": "png", "source": {"url": "x"}}}]}],
        "messages[0].content[0].image.source: expected bytes or s3Location",
    ),
    (
        [
            {
                "role": "user",
                "content": [{"image": {"format": "png", "source": {"bytes": PNG}, "detail": 1}}],
            }
        ],
        "messages[0].content[0].image: unexpected key 'detail'",
    ),
    (
        [{"role": "user", "content": [{"image": {"format": "png", "source": {"s3Location": {}}}}]}],
        "messages[0].content[0].image.source.s3Location.uri: missing",
    ),
    (
        [{"role": "user", "content": [{"document": {"format": "pdf", "source": {"bytes": PNG}}}]}],
        "messages[0].content[0].document.name: missing",
    ),
    (
        [
            {
                "role": "user",
                "content": [{"document": {"name": "a", "source": {"content": [{"text": 3}]}}}],
            }
        ],
        "messages[0].content[0].document.source.content[0].text: expected a string",
    ),
    (
        [
            {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": "a", "name": "f", "input": [1]}}],
            }
        ],
        "messages[0].content[0].toolUse.input: expected an object",
    ),
    (
        [
            {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": 1, "name": "f", "input": {}}}],
            }
        ],
        "messages[0].content[0].toolUse.toolUseId: expected a string",
    ),
    (
        [
            {
                "role": "assistant",
                "content": [{"reasoningContent": {"reasoningText": {"signature": "s"}}}],
            }
        ],
        "messages[0].content[0].reasoningContent.reasoningText.text: missing",
    ),
    (
        [{"role": "assistant", "content": [{"reasoningContent": {"redactedContent": 5}}]}],
        "messages[0].content[0].reasoningContent.redactedContent: expected bytes",
    ),
    (
        [{"role": "assistant", "content": [{"citationsContent": {"citations": {}}}]}],
        "messages[0].content[0].citationsContent.citations: expected an array",
    ),
    (
        [
            {
                "role": "assistant",
                "content": [
                    {"citationsContent": {"citations": [{"location": {"web": {"url": 1}}}]}}
                ],
            }
        ],
        "messages[0].content[0].citationsContent.citations[0].location.web.url: expected a string",
    ),
    (
        [
            {
                "role": "user",
                "content": [{"guardContent": {"text": {"text": "a", "qualifiers": [1]}}}],
            }
        ],
        "messages[0].content[0].guardContent.text.qualifiers[0]: expected a string",
    ),
    (
        [{"role": "user", "content": [_result("a", status="maybe")]}],
        "messages[0].content[0].toolResult.status: expected success or error",
    ),
    (
        [{"role": "user", "content": [{"toolResult": {"toolUseId": "a", "content": "x"}}]}],
        "messages[0].content[0].toolResult.content: expected an array",
    ),
    (
        [{"role": "user", "content": [_result("a", {"json": float("nan")})]}],
        "messages[0].content[0].toolResult.content[0].json: expected JSON data",
    ),
]


@pytest.mark.parametrize(("payload", "message"), HOSTILE, ids=[m for _, m in HOSTILE])
def test_read_refuses_malformed_payloads_naming_the_path(payload: Any, message: str) -> None:
    """A field of the wrong shape is InvalidMedia naming its JSON path and what was expected."""
    with pytest.raises(mp.InvalidMedia, match=re.escape(message)):
        mp.messages_from(payload, "bedrock")


def test_read_refuses_bytes_of_another_kind_naming_the_path() -> None:
    """An `image` block whose bytes are a PDF is refused at its path, not read as a file."""
    pdf = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n"
    payload = [
        {"role": "user", "content": [{"image": {"format": "png", "source": {"bytes": pdf}}}]}
    ]
    with pytest.raises(mp.MediaError, match=re.escape("messages[0].content[0].image.source.bytes")):
        mp.messages_from(payload, "bedrock")


def _response(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "output": {"message": {"role": "assistant", "content": [{"text": "Hi."}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
        "metrics": {"latencyMs": 100},
    }
    return {**base, **fields}


def test_read_response_counts_cached_input_as_input() -> None:
    """Usage input counts the uncached input plus what was read from and written to the cache."""
    usage = {
        "inputTokens": 12,
        "outputTokens": 15,
        "totalTokens": 1851,
        "cacheReadInputTokens": 1536,
        "cacheWriteInputTokens": 288,
    }
    reply = mp.message_from_response(_response(usage=usage), "bedrock")
    assert reply.usage == mp.Usage(
        input_tokens=1836, output_tokens=15, cache_read_tokens=1536, cache_write_tokens=288
    )


@pytest.mark.parametrize(("raw", "ours"), [*STOP_REASONS.items(), ("something_new", "other")])
def test_read_response_stop_reasons(raw: str, ours: str) -> None:
    """Each StopReason maps to ours, the API's own value kept beside it; unknown ones are other."""
    reply = mp.message_from_response(_response(stopReason=raw), "bedrock")
    assert (reply.stop_reason, reply.stop_reason_raw) == (ours, raw)


def test_read_response_keeps_block_order_and_ignores_metadata() -> None:
    """Reasoning, text and tool calls keep their order; ResponseMetadata and metrics are ignored."""
    content = [
        {"reasoningContent": {"reasoningText": {"text": "Hmm.", "signature": "s"}}},
        {"text": "Let me check."},
        {"toolUse": {"toolUseId": "t", "name": "f", "input": {}}},
    ]
    response = _response(
        output={"message": {"role": "assistant", "content": content}}, stopReason="tool_use"
    )
    response["ResponseMetadata"] = {"RequestId": "r", "HTTPStatusCode": 200}
    reply = mp.message_from_response(response, "bedrock")
    assert [p.kind for p in reply.parts] == ["reasoning", "text", "tool_call"]
    assert reply.stop_reason == "tool_call"
    assert mp.render([mp.User("Go"), reply], "bedrock")["messages"][1]["content"] == content


RESPONSES_HOSTILE: list[tuple[Any, str]] = [
    ("text", "expected the SDK's response object or its dict"),
    ({"stopReason": "end_turn"}, "response.output: missing"),
    (
        _response(output={"message": {"role": "user", "content": []}}),
        "output.message.role: expected 'assistant'",
    ),
    (
        _response(output={"message": {"role": "assistant", "content": {}}}),
        "output.message.content: expected an array",
    ),
    (_response(stopReason=3), "stopReason: expected a string"),
    (_response(usage={"inputTokens": "10"}), "usage.inputTokens: expected a token count"),
    (_response(usage={"inputTokens": True}), "usage.inputTokens: expected a token count"),
]


@pytest.mark.parametrize(
    ("response", "message"), RESPONSES_HOSTILE, ids=[m for _, m in RESPONSES_HOSTILE]
)
def test_read_response_refuses_malformed_responses(response: Any, message: str) -> None:
    """A malformed response is InvalidMedia naming the field."""
    with pytest.raises(mp.InvalidMedia, match=re.escape(message)):
        mp.message_from_response(response, "bedrock")
