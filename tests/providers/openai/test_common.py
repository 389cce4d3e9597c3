"""What both OpenAI APIs share: one breakpoint reader and writer, one tool-error policy."""

from __future__ import annotations

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
