"""Rendering for Bedrock: every part kind in order, cache points, fallbacks and losses."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import pytest

import mediaparts as mp


def _content(messages: Sequence[mp.Message], turn: int = 0) -> list[dict[str, Any]]:
    """Render for Bedrock and return the content blocks of one turn."""
    payload = mp.render(messages, "bedrock")
    blocks: list[dict[str, Any]] = payload["messages"][turn]["content"]
    return blocks


def test_render_assistant_parts_in_order() -> None:
    """Reasoning, text and tool calls keep the order the model produced them in."""
    reply = mp.Assistant(
        parts=[
            mp.ReasoningPart(text="Plan.", signature="sig", provider="bedrock"),
            mp.ReasoningPart(data=b"\x00\x01", provider="bedrock"),
            mp.TextPart("Looking."),
            mp.ToolCall(id="t1", name="f", arguments='{"q": 1}'),
            mp.TextPart("Then more."),
        ]
    )
    assert _content([mp.User("Go"), reply], turn=1) == [
        {"reasoningContent": {"reasoningText": {"text": "Plan.", "signature": "sig"}}},
        {"reasoningContent": {"redactedContent": b"\x00\x01"}},
        {"text": "Looking."},
        {"toolUse": {"toolUseId": "t1", "name": "f", "input": {"q": 1}}},
        {"text": "Then more."},
    ]


def test_render_refusal_as_text() -> None:
    """Converse has no refusal block: a refusal is said as text, without a warning."""
    messages: list[mp.Message] = [
        mp.User("Do it."),
        mp.Assistant(parts=[mp.RefusalPart("I can't help with that.")]),
    ]
    assert _content(messages, turn=1) == [{"text": "I can't help with that."}]


def test_render_developer_as_system() -> None:
    """A developer message is a system prompt for Bedrock, one block per text part."""
    system = mp.System(parts=[mp.TextPart("Be brief."), mp.TextPart("Be kind.")], role="developer")
    payload = mp.render([system, mp.User("Hi")], "bedrock")
    assert payload["system"] == [{"text": "Be brief."}, {"text": "Be kind."}]


@pytest.mark.parametrize(
    ("part", "point"),
    [
        (mp.TextPart("Context.", cache="5m"), {"type": "default"}),
        (mp.TextPart("Context.", cache="1h"), {"type": "default", "ttl": "1h"}),
        (
            mp.TextPart("Context.", cache="5m", native={"bedrock": {"ttl": True}}),
            {"type": "default", "ttl": "5m"},
        ),
    ],
)
def test_render_cache_as_a_cache_point(part: mp.TextPart, point: dict[str, Any]) -> None:
    """A part's cache is a cachePoint right after its block; `ttl` only for 1h or as read."""
    assert _content([mp.User(parts=[part, mp.TextPart("Question?")])]) == [
        {"text": "Context."},
        {"cachePoint": point},
        {"text": "Question?"},
    ]


def test_render_cache_inside_a_tool_result_goes_after_it() -> None:
    """A cachePoint cannot sit inside a toolResult: a cached part there puts one after it."""
    messages: list[mp.Message] = [
        mp.User("Go"),
        mp.Assistant(tool_calls=[mp.ToolCall(id="a", name="f")]),
        mp.Tool(parts=[mp.TextPart("big result", cache="5m")], tool_call_id="a"),
    ]
    assert _content(messages, turn=2) == [
        {"toolResult": {"toolUseId": "a", "content": [{"text": "big result"}]}},
        {"cachePoint": {"type": "default"}},
    ]


def test_render_tool_calls_without_ids() -> None:
    """Calls without an id (Gemini) get a stable one that their results answer."""
    messages: list[mp.Message] = [
        mp.User("Go"),
        mp.Assistant(tool_calls=[mp.ToolCall(name="f", arguments="{}")]),
        mp.Tool("done", name="f"),
    ]
    payload = mp.render(messages, "bedrock")
    call = payload["messages"][1]["content"][0]["toolUse"]
    result = payload["messages"][2]["content"][0]["toolResult"]
    assert call["toolUseId"] == result["toolUseId"] == "call_1"


def test_render_tool_error_flag() -> None:
    """A result flagged as an error (without error text) is sent with status error."""
    messages: list[mp.Message] = [
        mp.User("Go"),
        mp.Assistant(tool_calls=[mp.ToolCall(id="a", name="f")]),
        mp.Tool("it broke", tool_call_id="a", is_error=True),
    ]
    assert _content(messages, turn=2) == [
        {"toolResult": {"toolUseId": "a", "content": [{"text": "it broke"}], "status": "error"}}
    ]


def test_render_bedrock_file_reference() -> None:
    """A Bedrock file (an S3 URI) is an s3Location; a document may have no format."""
    image = mp.ImagePart(file_id="s3://b/cat.png", file_provider="bedrock", media_type="image/png")
    document = mp.FilePart(
        file_id="s3://b/doc", file_provider="bedrock", media_type=None, filename="Doc"
    )
    assert _content([mp.User(parts=[image, document, mp.TextPart("Compare.")])]) == [
        {"image": {"format": "png", "source": {"s3Location": {"uri": "s3://b/cat.png"}}}},
        {"document": {"name": "Doc", "source": {"s3Location": {"uri": "s3://b/doc"}}}},
        {"text": "Compare."},
    ]


def _with_citation() -> mp.TextPart:
    cited = mp.Citation(provider="anthropic", cited_text="25 days", data={"type": "char_location"})
    return mp.TextPart("You get 25 days.", citations=(cited,))


# (name, the conversation, the part reported, what the warning says)
LOSSES: list[tuple[str, Callable[[], list[mp.Message]], str]] = [
    (
        "another provider's reasoning",
        lambda: [
            mp.User("Go"),
            mp.Assistant(
                parts=[mp.ReasoningPart(text="Hm.", signature="s", provider="anthropic"), "Ok."]
            ),
        ],
        "only anthropic can read it",
    ),
    (
        "reasoning of no provider",
        lambda: [mp.User("Go"), mp.Assistant(parts=[mp.ReasoningPart(text="Hm."), "Ok."])],
        "bedrock replays only reasoning it produced",
    ),
    (
        "another provider's citations",
        lambda: [mp.User("Go"), mp.Assistant(parts=[_with_citation()])],
        "Converse holds only its own citations",
    ),
    (
        "a user's name",
        lambda: [mp.User("Hi", name="alice")],
        "a Converse message has no name",
    ),
    (
        "another provider's block",
        lambda: [
            mp.User("Go"),
            mp.Assistant(
                parts=[mp.ProviderPart(provider="anthropic", data={"type": "web_search"}), "Ok."]
            ),
        ],
        "only anthropic can read it",
    ),
    (
        "another provider's file",
        lambda: [
            mp.User(
                parts=[
                    mp.FilePart(file_id="file-1", file_provider="openai", media_type=None),
                    "Read it.",
                ]
            )
        ],
        "openai's file store",
    ),
    (
        "a tool call inside a tool result",
        lambda: [
            mp.User("Go"),
            mp.Assistant(tool_calls=[mp.ToolCall(id="a", name="f")]),
            mp.Tool(parts=["ok", mp.ToolCall(id="b", name="g")], tool_call_id="a"),
        ],
        "a Converse tool result cannot hold tool call",
    ),
    (
        "reasoning inside a tool result",
        lambda: [
            mp.User("Go"),
            mp.Assistant(tool_calls=[mp.ToolCall(id="a", name="f")]),
            mp.Tool(
                parts=["ok", mp.ReasoningPart(text="Hm.", provider="bedrock")], tool_call_id="a"
            ),
        ],
        "a Converse tool result cannot hold reasoning",
    ),
    (
        "citations inside a tool result",
        lambda: [
            mp.User("Go"),
            mp.Assistant(tool_calls=[mp.ToolCall(id="a", name="f")]),
            mp.Tool(parts=[_with_citation()], tool_call_id="a"),
        ],
        "a Converse tool result holds no citations",
    ),
]


@pytest.mark.parametrize(("build", "why"), [c[1:] for c in LOSSES], ids=[c[0] for c in LOSSES])
def test_render_loss_warns_by_default(build: Callable[[], list[mp.Message]], why: str) -> None:
    """What Converse cannot carry is left out with a ConversionWarning saying why."""
    with pytest.warns(mp.ConversionWarning, match=re.escape(why)):
        mp.render(build(), "bedrock")


@pytest.mark.parametrize("build", [c[1] for c in LOSSES], ids=[c[0] for c in LOSSES])
def test_render_loss_dropped_quietly(build: Callable[[], list[mp.Message]]) -> None:
    """With on_loss="drop" the same parts are left out without a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mp.render(build(), "bedrock", on_loss="drop")


@pytest.mark.parametrize(("build", "why"), [c[1:] for c in LOSSES], ids=[c[0] for c in LOSSES])
def test_render_loss_raises_on_error(build: Callable[[], list[mp.Message]], why: str) -> None:
    """With on_loss="error" the first loss raises ConversionError naming the provider."""
    with pytest.raises(mp.ConversionError, match=re.escape(why)) as caught:
        mp.render(build(), "bedrock", on_loss="error")
    assert caught.value.provider == "bedrock"
