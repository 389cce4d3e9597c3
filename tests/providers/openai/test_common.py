"""What both OpenAI APIs share: one breakpoint reader and writer, one tool-error policy; and
Chat Completions' `reasoning_field` quirk, for the providers that return reasoning beside the
content (DeepSeek's and xAI's `reasoning_content`, Ollama's `reasoning`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import mediaparts as mp

BOTH = ["openai", "openai-responses"]
# (the breakpoint written, the cache read, the hint kept)
BREAKPOINTS: list[tuple[dict[str, Any], str, dict[str, Any] | None]] = [
    ({"mode": "explicit"}, "5m", None),
    ({"mode": "explicit", "ttl": "12h"}, "1h", None),
    ({"mode": "explicit", "ttl": "30m"}, "5m", {"mode": "explicit", "ttl": "30m"}),
    (
        {"mode": "explicit", "ttl": "30m", "future": 1},
        "5m",
        {"mode": "explicit", "ttl": "30m", "future": 1},
    ),
    ({"mode": "explicit", "future": 1}, "5m", {"mode": "explicit", "future": 1}),
]


def _payload(provider: str, point: dict[str, Any]) -> dict[str, Any]:
    kind = "text" if provider == "openai" else "input_text"
    block = {"type": kind, "text": "prefix", "prompt_cache_breakpoint": point}
    key = "messages" if provider == "openai" else "input"
    return {key: [{"role": "user", "content": [block]}]}


@pytest.mark.parametrize("provider", BOTH)
@pytest.mark.parametrize(("point", "cache", "hint"), BREAKPOINTS)
def test_breakpoint_reads_the_same_and_goes_back_as_written(
    provider: str, point: dict[str, Any], cache: str, hint: dict[str, Any] | None
) -> None:
    """Both APIs read a breakpoint as the same cache, keep what `cache` alone would not
    write (a 30m TTL, unknown keys) as the `breakpoint` hint, and write it back as it was."""
    payload = _payload(provider, point)
    [message] = mp.messages_from(payload, provider)
    [part] = message.parts
    assert part.cache == cache
    assert part.native.get(provider, {}).get("breakpoint") == hint
    assert mp.render([message], provider) == payload


@pytest.mark.parametrize("provider", BOTH)
@pytest.mark.parametrize(
    ("point", "where"),
    [
        ({"mode": "auto"}, "prompt_cache_breakpoint.mode"),
        ({"ttl": "12h"}, "prompt_cache_breakpoint.mode"),
        ({"mode": "explicit", "ttl": "1d"}, "prompt_cache_breakpoint.ttl"),
        ({"mode": "explicit", "ttl": 30}, "prompt_cache_breakpoint.ttl"),
        ("explicit", "prompt_cache_breakpoint"),
    ],
)
def test_breakpoint_refused_the_same_naming_its_path(provider: str, point: Any, where: str) -> None:
    """A breakpoint neither API accepts is InvalidMedia naming the same JSON path in both."""
    with pytest.raises(mp.InvalidMedia, match=rf"content\[0\]\.{where}"):
        mp.messages_from(_payload(provider, point), provider)


@pytest.mark.parametrize("cache", ["5m", "1h"])
def test_breakpoint_written_the_same_for_a_cache(cache: Any) -> None:
    """A part's cache renders as the same breakpoint for both APIs."""
    part = mp.TextPart("prefix", cache=cache)
    chat = mp.render([mp.User([part])], "openai")["messages"][0]["content"][0]
    responses = mp.render([mp.User([part])], "openai-responses")["input"][0]["content"][0]
    assert chat["prompt_cache_breakpoint"] == responses["prompt_cache_breakpoint"]


def _tool_text(provider: str, payload: dict[str, Any]) -> Any:
    if provider == "openai":
        return payload["messages"][1]["content"]
    return payload["input"][1]["output"]


@pytest.mark.parametrize("provider", BOTH)
def test_tool_error_flag_without_text_is_a_reported_loss(provider: str) -> None:
    """Neither API has an error flag: without error text it is lost (warned), content sent."""
    messages = [
        mp.Assistant(tool_calls=[mp.ToolCall(id="c", name="f")]),
        mp.Tool("bad", tool_call_id="c", is_error=True),
    ]
    with pytest.warns(mp.ConversionWarning, match="error flag"):
        payload = mp.render(messages, provider)
    assert _tool_text(provider, payload) == "bad"
    with pytest.raises(mp.ConversionError, match="error flag"):
        mp.render(messages, provider, on_loss="error")


@pytest.mark.parametrize("provider", BOTH)
def test_tool_error_text_is_the_first_line(provider: str) -> None:
    """Both APIs send the error text as the first line, with nothing reported lost."""
    messages = [
        mp.Assistant(tool_calls=[mp.ToolCall(id="c", name="f")]),
        mp.Tool("partial", tool_call_id="c", error="took too long", error_type="Timeout"),
    ]
    payload = mp.render(messages, provider, on_loss="error")
    assert _tool_text(provider, payload) == "Error (Timeout): took too long\n\npartial"


@pytest.mark.parametrize("provider", ["openai", "openai-responses"])
@pytest.mark.parametrize(
    ("model", "sent"),
    [
        (None, True),
        ("gpt-5.6", True),
        ("gpt-5.10-mini", True),
        ("gpt-6", True),
        ("gpt-5.1", False),
        ("gpt-4o", False),
        ("gpt-5-mini", False),
    ],
)
def test_breakpoints_only_for_models_that_take_them(
    provider: str, model: str | None, sent: bool
) -> None:
    """prompt_cache_breakpoint goes to gpt-5.6 and later (or an unknown model), else is a no-op."""
    messages = [mp.User(parts=[mp.TextPart("long context", cache="5m")])]
    payload = mp.render(messages, provider, model=model)
    assert ("prompt_cache_breakpoint" in json.dumps(payload)) is sent


# The providers whose reasoning comes in a message field, and the field.
REASONING = {"deepseek": "reasoning_content", "xai": "reasoning_content", "ollama": "reasoning"}


def _tool_turn(field: str, thought: Any = "Need the weather.") -> dict[str, Any]:
    return {
        "id": "r1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    field: thought,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "weather", "arguments": '{"city": "Lyon"}'},
                        }
                    ],
                },
            }
        ],
    }


@pytest.mark.parametrize(("provider", "field"), REASONING.items())
def test_reasoning_field_is_read_and_sent_back(provider: str, field: str) -> None:
    """The provider's reasoning field reads as its own ReasoningPart, first, and goes back in
    the same field of the assistant turn (DeepSeek answers 400 when a tool-call turn's
    reasoning is missing), and reads back the same."""
    assert mp.providers.get(provider).quirks["reasoning_field"] == field
    reply = mp.message_from_response(_tool_turn(field), provider)
    assert [p.kind for p in reply.parts] == ["reasoning", "tool_call"]
    assert reply.parts[0] == mp.ReasoningPart(text="Need the weather.", provider=provider)
    conversation = [mp.User("Weather in Lyon?"), reply, mp.Tool("sunny", tool_call_id="call_1")]
    payload = mp.render(conversation, provider)
    turn = payload["messages"][1]
    assert turn[field] == "Need the weather." and turn["content"] is None
    assert mp.messages_from(payload, provider)[1].parts == reply.parts
    assert mp.render(mp.messages_from(payload, provider), provider) == payload


@pytest.mark.parametrize("thought", [None, ""])
def test_reasoning_field_without_text_is_no_reasoning(thought: Any) -> None:
    """A null or empty reasoning field is no reasoning part; a payload keeps it as written."""
    reply = mp.message_from_response(_tool_turn("reasoning_content", thought), "deepseek")
    assert [p.kind for p in reply.parts] == ["tool_call"]
    payload = {"messages": [_tool_turn("reasoning_content", thought)["choices"][0]["message"]]}
    assert mp.render(mp.messages_from(payload, "deepseek"), "deepseek") == payload


def test_reasoning_of_another_provider_is_a_reported_loss() -> None:
    """Reasoning read from one provider is not sent as another's: the loss is warned."""
    reply = mp.message_from_response(_tool_turn("reasoning_content"), "deepseek")
    conversation = [mp.User("Weather?"), reply, mp.Tool("sunny", tool_call_id="call_1")]
    with pytest.warns(mp.ConversionWarning, match="only deepseek can read it"):
        payload = mp.render(conversation, "ollama")
    assert "reasoning" not in payload["messages"][1]


def test_reasoning_field_not_taken_without_the_quirk() -> None:
    """OpenAI's record has no reasoning field: the reasoning of its own is reported lost."""
    reasoning = mp.ReasoningPart(text="thought", provider="openai")
    with pytest.warns(mp.ConversionWarning, match="carry no reasoning"):
        payload = mp.render(
            [mp.User("q"), mp.Assistant(parts=[reasoning, mp.TextPart("a")])], "openai"
        )
    assert set(payload["messages"][1]) == {"role", "content"}


@pytest.mark.parametrize(
    ("wire", "value"), [("openai", 3), ("openai", "two words"), ("openai-responses", "reasoning")]
)
def test_reasoning_field_quirk_refused_when_wrong(wire: str, value: Any) -> None:
    """The quirk must name a field, and only Chat Completions reads it."""
    rules = mp.providers.get("openai").rules
    with pytest.raises(mp.InvalidConfig, match="reasoning_field"):
        mp.providers.register(
            "bad-reasoning", wire=wire, rules=rules, quirks={"reasoning_field": value}
        )
    assert "bad-reasoning" not in mp.providers.names()
