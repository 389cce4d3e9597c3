"""check: the conversation in a payload, validated as each API validates it before running."""

from __future__ import annotations

import base64
from typing import Any

import pytest

import mediaparts as mp

_PNG = base64.b64encode(
    base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    )
).decode()


def _user(content: Any) -> dict[str, Any]:
    return {"role": "user", "content": content}


def _said(content: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": content}


_USE = {"type": "tool_use", "id": "toolu_1", "name": "look", "input": {}}
_RESULT = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "done"}
_CALL = {"id": "call_1", "type": "function", "function": {"name": "look", "arguments": "{}"}}
_FC = {"functionCall": {"name": "look", "args": {}}}
_FR = {"functionResponse": {"name": "look", "response": {"ok": True}}}
_TU = {"toolUse": {"toolUseId": "tu_1", "name": "look", "input": {}}}
_TR = {"toolResult": {"toolUseId": "tu_1", "content": [{"text": "done"}]}}


def _bedrock(role: str, *blocks: Any) -> dict[str, Any]:
    return {"role": role, "content": list(blocks)}


def _gemini(role: str, *parts: Any) -> dict[str, Any]:
    return {"role": role, "parts": list(parts)}


# (provider, payload, [(path, rule)]) : what each API refuses, at the path it names.
BROKEN: list[tuple[str, dict[str, Any], list[tuple[str, str]]]] = [
    # Anthropic Messages
    ("anthropic", {"messages": []}, [("$.messages", "request.messages")]),
    (
        "anthropic",
        {"messages": [_user("Look"), _said([_USE]), _user("and?")]},
        [("$.messages[1].content[0]", "tool.unanswered")],
    ),
    (
        "anthropic",
        {"messages": [_user("Look"), _said([_USE])]},
        [("$.messages[1].content[0]", "tool.unanswered")],
    ),
    (
        "anthropic",
        {"messages": [_user("Look"), _said("ok"), _user([_RESULT])]},
        [("$.messages[2].content[0]", "tool.unpaired")],
    ),
    (
        "anthropic",
        {
            "messages": [
                _user("Look"),
                _said([_USE]),
                _user([{"type": "text", "text": "x"}, _RESULT]),
            ]
        },
        [("$.messages[2].content[1]", "tool.order")],
    ),
    (
        "anthropic",
        {
            "messages": [
                _user("Look"),
                _said([{**_USE, "id": "bad id!"}]),
                _user([{**_RESULT, "tool_use_id": "bad id!"}]),
            ]
        },
        [
            ("$.messages[1].content[0].id", "tool.id"),
            ("$.messages[2].content[0].tool_use_id", "tool.id"),
        ],
    ),
    (
        "anthropic",
        {"messages": [_user([{"type": "text", "text": "  "}]), _said("")]},
        [("$.messages[0].content[0].text", "text.empty")],
    ),
    (
        "anthropic",
        {"messages": [_user(""), _said("ok"), _user("x")]},
        [("$.messages[0].content", "message.empty")],
    ),
    (
        "anthropic",
        {"messages": [{"role": "tool", "content": "x"}]},
        [("$.messages[0].role", "message.role")],
    ),
    # Chat Completions
    ("openai", {"messages": []}, [("$.messages", "request.messages")]),
    (
        "openai",
        {"messages": [_user("Look"), {"role": "assistant", "tool_calls": [_CALL]}, _user("and?")]},
        [("$.messages[1].tool_calls[0]", "tool.unanswered")],
    ),
    (
        "openai",
        {"messages": [_user("Look"), {"role": "tool", "tool_call_id": "call_1", "content": "x"}]},
        [("$.messages[1]", "tool.unpaired")],
    ),
    ("openai", {"messages": [_user([])]}, [("$.messages[0].content", "message.empty")]),
    (
        "openai",
        {"messages": [_user("x"), {"role": "assistant"}]},
        [("$.messages[1]", "message.empty")],
    ),
    # Responses
    (
        "openai-responses",
        {
            "input": [
                {"role": "user", "content": "Look"},
                {"type": "function_call", "call_id": "c1", "name": "look", "arguments": "{}"},
            ]
        },
        [("$.input[1]", "tool.unanswered")],
    ),
    (
        "openai-responses",
        {"input": [{"type": "function_call_output", "call_id": "c9", "output": "x"}]},
        [("$.input[0]", "tool.unpaired")],
    ),
    # Gemini
    ("gemini", {"contents": []}, [("$.contents", "request.messages")]),
    ("gemini", {"contents": [_gemini("user")]}, [("$.contents[0].parts", "message.empty")]),
    (
        "gemini",
        {
            "contents": [
                _gemini("user", {"text": "Look"}),
                _gemini("model", _FC, _FC),
                _gemini("user", _FR),
            ]
        },
        [("$.contents[2]", "tool.unanswered")],
    ),
    (
        "gemini",
        {
            "contents": [
                _gemini("user", {"text": "Look"}),
                _gemini("model", _FC),
                _gemini("user", {"text": "and?"}),
            ]
        },
        [("$.contents[1]", "tool.unanswered")],
    ),
    ("gemini", {"contents": [_gemini("user", _FR)]}, [("$.contents[0]", "tool.unpaired")]),
    # Bedrock Converse
    (
        "bedrock",
        {"messages": [_bedrock("assistant", {"text": "Hi"}), _bedrock("user", {"text": "x"})]},
        [("$.messages[0]", "conversation.first")],
    ),
    (
        "bedrock",
        {"messages": [_bedrock("user", {"text": "a"}), _bedrock("user", {"text": "b"})]},
        [("$.messages[1]", "conversation.alternation")],
    ),
    (
        "bedrock",
        {
            "messages": [
                _bedrock("user", {"text": "a"}),
                _bedrock("assistant", _TU),
                _bedrock("user", {"text": "b"}),
            ]
        },
        [("$.messages[1].content[0]", "tool.unanswered")],
    ),
    (
        "bedrock",
        {"messages": [_bedrock("user", _TR)]},
        [("$.messages[0].content[0]", "tool.unpaired")],
    ),
    ("bedrock", {"messages": [_bedrock("user")]}, [("$.messages[0].content", "message.empty")]),
    (
        "bedrock",
        {"messages": [_bedrock("user", {"text": " "})]},
        [("$.messages[0].content[0].text", "text.empty")],
    ),
    (
        "bedrock",
        {
            "messages": [
                _bedrock("user", {"text": "a"}),
                _bedrock(
                    "assistant", {"toolUse": {"toolUseId": "a b", "name": "lo ok", "input": {}}}
                ),
                _bedrock("user", {"toolResult": {"toolUseId": "a b", "content": []}}),
            ]
        },
        [
            ("$.messages[1].content[0].toolUse.toolUseId", "tool.id"),
            ("$.messages[1].content[0].toolUse.name", "tool.name"),
            ("$.messages[2].content[0].toolResult.toolUseId", "tool.id"),
        ],
    ),
    (
        "bedrock",
        {
            "messages": [
                _bedrock("user", {"text": "a"}),
                _bedrock(
                    "assistant",
                    {"image": {"format": "png", "source": {"bytes": base64.b64decode(_PNG)}}},
                ),
            ]
        },
        [("$.messages[1].content", "message.media")],
    ),
]


@pytest.mark.parametrize(("provider", "payload", "expected"), BROKEN)
def test_check_conversation_names_what_the_api_refuses(
    provider: str, payload: dict[str, Any], expected: list[tuple[str, str]]
) -> None:
    """Each broken conversation gives exactly the API's refusals, at the paths they name."""
    found = [(v.path, v.rule) for v in mp.check(payload, provider)]
    assert sorted(found) == sorted(expected)


# (provider, payload): conversations each API accepts, though they look unusual.
ACCEPTED: list[tuple[str, dict[str, Any]]] = [
    # Consecutive turns of one role are combined by the Messages API; results may answer a
    # call across them.
    (
        "anthropic",
        {"messages": [_user("a"), _user("b"), _said([_USE]), _user([_RESULT]), _user("c")]},
    ),
    ("anthropic", {"messages": [_user("Look"), _said("")]}),  # an empty final assistant: prefill
    ("anthropic", {"messages": [{"role": "system", "content": "Be brief."}, _user("x")]}),
    ("openai", {"messages": [_user("a"), _user("b"), _said("c"), _said("d")]}),
    (
        "openai",
        {
            "messages": [
                _user("Look"),
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [_CALL, {**_CALL, "id": "call_2"}],
                },
                {"role": "tool", "tool_call_id": "call_2", "content": "x"},
                {"role": "tool", "tool_call_id": "call_1", "content": "y"},
            ]
        },
    ),
    ("openai-responses", {"input": "Just text"}),
    (
        "openai-responses",
        {
            "previous_response_id": "resp_1",
            "input": [{"type": "function_call_output", "call_id": "c9", "output": "x"}],
        },
    ),
    (
        "gemini",
        {"contents": [_gemini("user", {"text": "Look"}), _gemini("model", _FC)]},
    ),  # in progress
    ("gemini", {"contents": [_gemini("user", {"text": "a"}), _gemini("user", {"text": "b"})]}),
    (
        "bedrock",
        {
            "messages": [
                _bedrock("user", {"text": "a"}),
                _bedrock("system", {"text": "b"}),
                _bedrock("assistant", {"text": "c"}),
            ]
        },
    ),
]


@pytest.mark.parametrize(("provider", "payload"), ACCEPTED)
def test_check_conversation_accepts_what_the_api_accepts(
    provider: str, payload: dict[str, Any]
) -> None:
    """No false alarms: what the API accepts gives no violation."""
    assert mp.check(payload, provider) == []


@pytest.mark.parametrize("provider", mp.providers.names())
def test_check_conversation_of_a_rendered_tool_loop_is_clean(provider: str) -> None:
    """A tool loop rendered by us passes check; with its result removed, the call is flagged."""
    call = mp.ToolCall(id="call_1", name="look", arguments={"q": "x"})
    messages = [
        mp.User("Look"),
        mp.Assistant(tool_calls=[call]),
        mp.Tool("done", tool_call_id="call_1", name="look"),
        mp.User("and?"),
    ]
    assert mp.check(mp.render(messages, provider), provider) == []
    broken = mp.render([messages[0], messages[1], messages[3]], provider)
    assert "tool.unanswered" in {v.rule for v in mp.check(broken, provider)}


@pytest.mark.parametrize("provider", mp.providers.names())
def test_check_conversation_takes_edited_history(provider: str) -> None:
    """History an application edited is checked as a message list: dropping a tool result
    leaves its call unanswered, and keeping the pair whole is clean."""
    call = mp.ToolCall(id="call_1", name="look", arguments={"q": "x"})
    history = [
        mp.User("Look"),
        mp.Assistant(tool_calls=[call]),
        mp.Tool("done", tool_call_id="call_1", name="look"),
        mp.User("and?"),
    ]
    assert mp.check(history, provider) == []
    edited = [m for m in history if not isinstance(m, mp.Tool)]
    assert "tool.unanswered" in {v.rule for v in mp.check(edited, provider)}


@pytest.mark.parametrize(
    ("provider", "messages", "rule"),
    [
        ("anthropic", [_user("Look"), _said([_USE]), _user("and?")], "tool.unanswered"),
        ("openai", [{"role": "tool", "tool_call_id": "x", "content": "y"}], "tool.unpaired"),
        ("gemini", [_gemini("user")], "message.empty"),
        ("bedrock", [_bedrock("assistant", {"text": "Hi"})], "conversation.first"),
        (
            "openai-responses",
            [{"type": "function_call_output", "call_id": "c", "output": "x"}],
            "tool.unpaired",
        ),
    ],
)
def test_check_conversation_takes_the_message_list_alone(
    provider: str, messages: list[dict[str, Any]], rule: str
) -> None:
    """The wire's message list alone (what sits under messages, contents or input) is
    checked as the payload holding it."""
    assert rule in {v.rule for v in mp.check(messages, provider)}


def _nested_id(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("provider", "message"),
    [
        ("anthropic", _said([{**_USE, "id": _nested_id(100_000)}])),
        ("openai", {"role": "assistant", "tool_calls": [{**_CALL, "id": _nested_id(100_000)}]}),
        (
            "bedrock",
            _bedrock(
                "assistant", {"toolUse": {**_TU["toolUse"], "toolUseId": _nested_id(100_000)}}
            ),
        ),
    ],
)
def test_check_conversation_hostile_id_is_a_violation(
    provider: str, message: dict[str, Any]
) -> None:
    """An id nested 100,000 deep is reported as a violation, not turned to text (which would
    overflow the stack) nor raised."""
    payload = {
        "messages": [
            _user("Look") if provider != "bedrock" else _bedrock("user", {"text": "Look"}),
            message,
        ]
    }
    rules = {v.rule for v in mp.check(payload, provider)}
    assert "tool.unanswered" in rules
