"""Rendering the conversation model for Anthropic: each part kind, each fallback, each loss."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

import mediaparts as mp
from tests.providers.anthropic.test_read import PNG


def _render(messages: list[mp.Message], **options: Any) -> dict[str, Any]:
    return mp.render(messages, "anthropic", **options)


def _blocks(messages: list[mp.Message], turn: int = 0) -> list[dict[str, Any]]:
    content = _render(messages)["messages"][turn]["content"]
    assert isinstance(content, list)
    return content


def _image(**fields: Any) -> mp.ImagePart:
    import base64

    return mp.ImagePart(data=base64.b64decode(PNG), media_type="image/png", **fields)


def test_render_thinking_in_order() -> None:
    """Anthropic's own thinking, text and tool calls go back as blocks, in their order."""
    reply = mp.Assistant(
        parts=[
            mp.ReasoningPart(text="Plan.", signature="sig", provider="anthropic"),
            mp.ReasoningPart(data="opaque", provider="anthropic"),
            mp.TextPart("Checking."),
            mp.ToolCall(id="t1", name="f", arguments='{"a": 1}'),
            mp.TextPart("Done."),
        ]
    )
    assert _blocks([mp.User("Go"), reply], 1) == [
        {"type": "thinking", "thinking": "Plan.", "signature": "sig"},
        {"type": "redacted_thinking", "data": "opaque"},
        {"type": "text", "text": "Checking."},
        {"type": "tool_use", "id": "t1", "name": "f", "input": {"a": 1}},
        {"type": "text", "text": "Done."},
    ]


@pytest.mark.parametrize(
    ("part", "block"),
    [
        (
            mp.TextPart("a", cache="5m"),
            {"type": "text", "text": "a", "cache_control": {"type": "ephemeral"}},
        ),
        (
            mp.TextPart("a", cache="1h"),
            {"type": "text", "text": "a", "cache_control": {"type": "ephemeral", "ttl": "1h"}},
        ),
        (
            mp.TextPart("a", cache="5m", native={"anthropic": {"ttl": True}}),
            {"type": "text", "text": "a", "cache_control": {"type": "ephemeral", "ttl": "5m"}},
        ),
        (
            mp.RefusalPart(text="I can't help with that."),
            {"type": "text", "text": "I can't help with that."},
        ),
        (
            mp.ProviderPart(
                provider="anthropic",
                data={"type": "search_result", "source": "s", "title": "t", "content": []},
            ),
            {"type": "search_result", "source": "s", "title": "t", "content": []},
        ),
        (
            mp.ImagePart(file_id="file_1", file_provider="anthropic", media_type=None),
            {"type": "image", "source": {"type": "file", "file_id": "file_1"}},
        ),
        (
            mp.FilePart(
                file_id="file_2", file_provider="anthropic", media_type=None, filename="Q3"
            ),
            {"type": "document", "source": {"type": "file", "file_id": "file_2"}, "title": "Q3"},
        ),
        (
            mp.ImagePart.from_url(
                "https://media.example/photo.jpg", native={"anthropic": {"passed_url": True}}
            ),
            {"type": "image", "source": {"type": "url", "url": "https://media.example/photo.jpg"}},
        ),
    ],
)
def test_render_part_kinds(part: Any, block: dict[str, Any]) -> None:
    """Each part kind renders as its block (a refusal as the text it is), with no loss."""
    assert _blocks([mp.User(parts=[part, mp.TextPart("?")])])[0] == block


def test_render_cache_on_a_system_part_sends_blocks() -> None:
    """A cache breakpoint in the system prompt needs the block form of `system`."""
    payload = _render([mp.System(parts=[mp.TextPart("Rules.", cache="1h")]), mp.User("Hi")])
    assert payload["system"] == [
        {"type": "text", "text": "Rules.", "cache_control": {"type": "ephemeral", "ttl": "1h"}}
    ]


def test_render_developer_falls_back_to_system() -> None:
    """A developer message becomes the system prompt (the Messages API has no such role)."""
    payload = _render([mp.System("Be brief.", role="developer"), mp.User("Hi")])
    assert payload == {"system": "Be brief.", "messages": [{"role": "user", "content": "Hi"}]}


def test_render_tool_loop_without_ids() -> None:
    """Calls without ids (Gemini) get stable ones, and their results answer them by name."""
    messages: list[mp.Message] = [
        mp.User("Weather?"),
        mp.Assistant(tool_calls=[mp.ToolCall(name="weather", arguments="{}")]),
        mp.Tool("Sunny", name="weather"),
    ]
    turns = _render(messages)["messages"]
    call_id = turns[1]["content"][0]["id"]
    assert turns[2]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": call_id,
            "content": [{"type": "text", "text": "Sunny"}],
        }
    ]


@pytest.mark.parametrize(
    ("tool", "result"),
    [
        (
            mp.Tool("Boom", tool_call_id="t1", is_error=True),
            {
                "type": "tool_result",
                "tool_use_id": "t1",
                "content": [{"type": "text", "text": "Boom"}],
                "is_error": True,
            },
        ),
        (
            mp.Tool(tool_call_id="t1", error="took too long", error_type="Timeout"),
            {
                "type": "tool_result",
                "tool_use_id": "t1",
                "content": [{"type": "text", "text": "Error (Timeout): took too long"}],
                "is_error": True,
            },
        ),
        (
            mp.Tool(parts=[mp.TextPart("15 degrees", cache="5m")], tool_call_id="t1"),
            {
                "type": "tool_result",
                "tool_use_id": "t1",
                "content": [
                    {"type": "text", "text": "15 degrees", "cache_control": {"type": "ephemeral"}}
                ],
            },
        ),
    ],
)
def test_render_tool_results(tool: mp.Tool, result: dict[str, Any]) -> None:
    """Errors are flagged with is_error; a part's cache breakpoint stays on its block."""
    messages: list[mp.Message] = [mp.Assistant(tool_calls=[mp.ToolCall(id="t1", name="f")]), tool]
    assert _blocks(messages, 1) == [result]


# (messages, what the warning says) for each thing Anthropic cannot carry
LOSSES: list[tuple[Callable[[], list[mp.Message]], str]] = [
    (
        lambda: [
            mp.Assistant(
                parts=[mp.ReasoningPart(data="enc", provider="openai-responses"), mp.TextPart("Hi")]
            )
        ],
        "ReasoningPart from openai-responses",
    ),
    (
        lambda: [mp.Assistant(parts=[mp.ReasoningPart(text="Hmm."), mp.TextPart("Hi")])],
        "only thinking it signed",
    ),
    (
        lambda: [
            mp.Assistant(
                parts=[mp.ReasoningPart(text="Hmm.", provider="anthropic"), mp.TextPart("Hi")]
            )
        ],
        "text and signature",
    ),
    (
        lambda: [
            mp.Assistant(
                parts=[mp.ReasoningPart(text="a", signature="s", provider="anthropic", cache="5m")]
            )
        ],
        "no cache_control",
    ),
    (
        lambda: [
            mp.User(
                parts=[
                    mp.ProviderPart(provider="gemini", data={"executableCode": {}}),
                    mp.TextPart("Hi"),
                ]
            )
        ],
        "ProviderPart",
    ),
    (
        lambda: [
            mp.Assistant(
                parts=[
                    mp.TextPart(
                        "Hi", citations=(mp.Citation(provider="openai", url="https://e.x"),)
                    )
                ]
            )
        ],
        "citations",
    ),
    (lambda: [mp.User("Hi", name="ann")], "its name 'ann'"),
    (
        lambda: [
            mp.User(
                parts=[
                    mp.FilePart(file_id="file-abc", file_provider="openai", media_type=None),
                    mp.TextPart("Hi"),
                ]
            )
        ],
        "file-abc",
    ),
    (lambda: [mp.User(parts=[mp.ToolCall(id="t", name="f"), mp.TextPart("Hi")])], "tool_use"),
    (
        lambda: [
            mp.Assistant(tool_calls=[mp.ToolCall(id="t", name="f")]),
            mp.Tool(
                parts=[
                    mp.ReasoningPart(text="x", signature="s", provider="anthropic"),
                    mp.TextPart("ok"),
                ],
                tool_call_id="t",
            ),
        ],
        "tool_result holds no",
    ),
]


@pytest.mark.parametrize(("messages", "why"), LOSSES)
def test_render_warns_for_each_loss(messages: Callable[[], list[mp.Message]], why: str) -> None:
    """What Anthropic cannot carry is named in a ConversionWarning (on_loss='warn')."""
    with pytest.warns(mp.ConversionWarning, match=why):
        _render(messages())


@pytest.mark.parametrize(("messages", "why"), LOSSES)
def test_render_drops_quietly(messages: Callable[[], list[mp.Message]], why: str) -> None:
    """on_loss='drop' leaves the same things out without a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _render(messages(), on_loss="drop")


@pytest.mark.parametrize(("messages", "why"), LOSSES)
def test_render_raises_on_loss(messages: Callable[[], list[mp.Message]], why: str) -> None:
    """on_loss='error' raises ConversionError naming the provider and the reason."""
    with pytest.raises(mp.ConversionError, match=why) as info:
        _render(messages(), on_loss="error")
    assert info.value.provider == "anthropic"


def test_render_keeps_text_when_citations_are_lost() -> None:
    """Another provider's citation is left out; its text is sent."""
    cited = mp.TextPart("Paris.", citations=(mp.Citation(provider="openai", url="https://e.x"),))
    payload = _render([mp.User("Where?"), mp.Assistant(parts=[cited])], on_loss="drop")
    assert payload["messages"][1] == {"role": "assistant", "content": "Paris."}


def test_render_keeps_its_own_citations() -> None:
    """Anthropic's own citations go back exactly as they were written."""
    data = {
        "type": "char_location",
        "cited_text": "x",
        "document_index": 0,
        "document_title": None,
        "start_char_index": 0,
        "end_char_index": 1,
    }
    cited = mp.TextPart("x", citations=(mp.Citation(provider="anthropic", data=data),))
    assert _blocks([mp.User("?"), mp.Assistant(parts=[cited])], 1) == [
        {"type": "text", "text": "x", "citations": [data]}
    ]


def _plain(value: Any) -> Any:
    """Turn what pydantic validated into plain data (lazy iterables, models as sent)."""
    from collections.abc import Iterable

    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        return _plain(value.model_dump(mode="python", exclude_unset=True))
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, str | bytes | int | float | bool) or value is None:
        return value
    if isinstance(value, Iterable):
        return [_plain(v) for v in value]
    return value


def test_render_other_providers_conversation_validates() -> None:
    """A conversation read from other providers renders as the SDK's MessageParam types."""
    from anthropic.types import MessageParam, TextBlockParam
    from pydantic import TypeAdapter

    messages: list[mp.Message] = [
        mp.System("Be brief.", role="developer"),
        mp.System("Use tools."),
        mp.User(parts=[mp.TextPart("Weather in Paris?"), _image()], name="ann"),
        mp.Assistant(
            parts=[
                mp.ReasoningPart(
                    summary=("Plan",), data="enc", provider="openai-responses", id="rs_1"
                ),
                mp.ToolCall(
                    id="call_1", name="weather", arguments='{"city": "Paris"}', item_id="fc_1"
                ),
                mp.ToolCall(name="clock", arguments="{}"),
            ]
        ),
        mp.Tool('{"temp": 21}', tool_call_id="call_1", name="weather"),
        mp.Tool(parts=[_image()], name="clock", is_error=True),
        mp.Assistant(parts=[mp.RefusalPart(text="No more."), mp.TextPart("Sunny.", cache="1h")]),
        mp.User("Thanks"),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mp.ConversionWarning)
        payload = _render(messages)
    assert payload["system"] == "Be brief.\n\nUse tools."
    adapter = TypeAdapter(list[MessageParam])  # kept alive: the lazy iterables validate later
    assert _plain(adapter.validate_python(payload["messages"])) == payload["messages"]
    TypeAdapter(str | list[TextBlockParam]).validate_python(payload["system"])
    roles = [turn["role"] for turn in payload["messages"]]
    assert roles == ["user", "assistant", "user", "assistant", "user"]
