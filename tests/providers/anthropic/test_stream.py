"""Reading Messages API streams: the official SDK's events (raw and the `messages.stream()`
helper's, sync and async) read as their dicts do; deltas; errors; hostile streams."""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

import pytest

import mediaparts as mp
from tests.providers._stream_clients import anthropic_client
from tests.providers._streams import cases, sse_bytes

anthropic = pytest.importorskip("anthropic")
httpx2 = pytest.importorskip("httpx2")

CASES = [c for c in cases() if c.values[0] == "anthropic"]
WITH_RESPONSE = [c for c in CASES if c.values[2]["response"] is not None]
CALL: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "messages": [{"role": "user", "content": "Hello"}],
}


def _case(name: str) -> dict[str, Any]:
    return next(c.values[2] for c in CASES if c.values[1] == name)


def _body(events: list[Any]) -> bytes:
    return sse_bytes("anthropic", events, names=True)


def _deltas(events: list[Any]) -> list[mp.Delta]:
    reader = mp.StreamReader("anthropic")
    return [d for event in events for d in reader.feed(event)]


@pytest.mark.parametrize(("provider", "name", "case"), CASES)
def test_sdk_raw_events_same_as_dicts(provider: str, name: str, case: dict[str, Any]) -> None:
    """`messages.create(stream=True)`'s event objects give the message and deltas the dicts do."""
    with (
        anthropic_client(_body(case["events"])) as client,
        client.messages.create(stream=True, **CALL) as stream,
    ):
        events = list(stream)
    assert mp.message_from_stream(events, provider) == mp.message_from_stream(
        case["events"], provider
    )
    assert _deltas(events) == _deltas(case["events"])


@pytest.mark.parametrize(("provider", "name", "case"), CASES)
def test_sdk_helper_events_same_as_dicts(provider: str, name: str, case: dict[str, Any]) -> None:
    """The `messages.stream()` helper's events (synthetic ones and snapshots included) count once."""
    with (
        anthropic_client(_body(case["events"])) as client,
        client.messages.stream(**CALL) as stream,
    ):
        events = list(stream)
    assert {"text", "input_json", "thinking", "citation"} & {e.type for e in events}
    assert _deltas(events) == _deltas(case["events"])
    assert mp.message_from_stream(events, provider) == mp.message_from_stream(
        case["events"], provider
    )


@pytest.mark.parametrize(("provider", "name", "case"), WITH_RESPONSE)
def test_sdk_final_message_same_as_ours(provider: str, name: str, case: dict[str, Any]) -> None:
    """The helper's `get_final_message()` reads as the message we read from its stream."""
    reader = mp.StreamReader(provider)
    with (
        anthropic_client(_body(case["events"])) as client,
        client.messages.stream(**CALL) as stream,
    ):
        for event in reader.relay(stream):
            assert event is not None
        final = stream.get_final_message()
    assert mp.message_from_response(final, provider) == reader.result()
    assert reader.result() == mp.message_from_response(case["response"], provider)


@pytest.mark.parametrize(("provider", "name", "case"), CASES)
def test_sdk_async_stream_same_as_dicts(provider: str, name: str, case: dict[str, Any]) -> None:
    """The async client's raw stream and helper read as the dicts do."""

    async def read() -> tuple[mp.Assistant, mp.Assistant]:
        client = anthropic_client(_body(case["events"]), aio=True)
        try:
            raw = await mp.amessage_from_stream(
                await client.messages.create(stream=True, **CALL), provider
            )
            reader = mp.StreamReader(provider)
            async with client.messages.stream(**CALL) as stream:
                async for event in reader.arelay(stream):
                    assert event is not None
            return raw, reader.result()
        finally:
            await client.close()

    raw, helped = asyncio.run(read())
    expected = mp.message_from_stream(case["events"], provider)
    assert raw == expected and helped == expected


# The docs' example of reading an SDK stream (docs/providers), run as written.
DOCS_SNIPPET = """\
import anthropic
import mediaparts as mp

client = anthropic.Anthropic()
reader = mp.StreamReader("anthropic")
with client.messages.stream(
    model="claude-sonnet-4-5",
    max_tokens=1024,
    messages=[{"role": "user", "content": "What is the weather in Paris?"}],
) as stream:
    for event in stream:
        for delta in reader.feed(event):
            if delta.kind == "text":
                print(delta.text, end="", flush=True)
reply = reader.result()  # mp.Assistant: text, tool calls, usage, stop reason
print()
print(reply.tool_calls[0].name, reply.usage.output_tokens, reply.stop_reason)
"""


def test_docs_snippet_reads_an_sdk_stream(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The docs' snippet prints the text as it streams and reads the whole reply."""
    case = _case("tool_use")
    with anthropic_client(_body(case["events"])) as client:
        monkeypatch.setattr(anthropic, "Anthropic", lambda: client)
        scope: dict[str, Any] = {}
        exec(compile(DOCS_SNIPPET, "docs-snippet", "exec"), scope)
    assert capsys.readouterr().out == (
        "I'll check the current weather in Paris for you.\nget_weather 65 tool_call\n"
    )
    assert scope["reply"] == mp.message_from_response(case["response"], "anthropic")


def _tool_stream(fragments: list[str], block: str = "tool_use") -> list[dict[str, Any]]:
    head = _case("tool_use")["events"][0]
    start: dict[str, Any] = {"type": block, "id": "toolu_1", "name": "f", "input": {}}
    return [
        head,
        {"type": "content_block_start", "index": 0, "content_block": start},
        *[
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": f},
            }
            for f in fragments
        ],
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 9},
        },
        {"type": "message_stop"},
    ]


@pytest.mark.parametrize(
    ("fragments", "arguments"),
    [
        (['{"city": "Pa', "ris"], '{"city": "Paris'),  # cut short
        (["[1, ", "2]"], "[1, 2]"),  # JSON, but not an object
        (['{"x": NaN}'], '{"x": NaN}'),  # not JSON data
        (["[" * 100_000], "[" * 100_000),  # nested deeper than the decoder goes
        ([], "{}"),  # no fragment: the input the block started with
        (["", ""], "{}"),
        (
            ['{"b": 1,', ' "a": [true]}'],
            '{"b":1,"a":[true]}',
        ),  # JSON: kept as read_response keeps it
    ],
)
def test_tool_json_kept_as_it_arrived(fragments: list[str], arguments: str) -> None:
    """Tool input that never becomes a JSON object is kept as the text that arrived; the
    deltas add up to the arguments (`{}` for a call that streamed no input)."""
    reader = mp.StreamReader("anthropic")
    deltas = [d for event in _tool_stream(fragments) for d in reader.feed(event)]
    reply = reader.result()
    assert reply.tool_calls[0].arguments == arguments
    assert reply.stop_reason == "tool_call"
    said = "".join(d.arguments for d in deltas if d.kind == "tool_call")
    try:
        assert json.loads(said) == json.loads(arguments)
    except (ValueError, RecursionError):  # never JSON: the same text
        assert said == arguments


def test_tool_json_of_a_server_tool_kept_as_text() -> None:
    """A server tool's input that never becomes JSON is kept as its block's `input` text."""
    reply = mp.message_from_stream(_tool_stream(['{"query": "x'], "server_tool_use"), "anthropic")
    part = reply.parts[0]
    assert isinstance(part, mp.ProviderPart) and part.data["input"] == '{"query": "x'


OVERLOADED = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}


@pytest.mark.parametrize("as_bytes", [False, True])
def test_error_event_raises_stream_error(as_bytes: bool) -> None:
    """An `error` event is StreamError with the API's error and the reply so far."""
    events = [*_case("text")["events"][:5], OVERLOADED]
    fed: list[Any] = events
    if as_bytes:
        fed = [sse_bytes("anthropic", events, names=True)]
    with pytest.raises(mp.StreamError, match=r"overloaded_error.*Overloaded") as caught:
        mp.message_from_stream(fed, "anthropic")
    assert caught.value.error == OVERLOADED["error"]
    assert isinstance(caught.value.partial, mp.Assistant)
    assert caught.value.partial.text == "Hello there"
    assert caught.value.partial.stop_reason is None


@pytest.mark.parametrize("error", [None, "boom", {"type": 5}])
def test_error_event_without_details_raises_stream_error(error: Any) -> None:
    """An `error` event whose error is not the usual object is still StreamError, kept as sent."""
    reader = mp.StreamReader("anthropic")
    with pytest.raises(mp.StreamError) as caught:
        reader.feed({"type": "error", "error": error})
    assert caught.value.error == error


def _started(*events: dict[str, Any]) -> list[dict[str, Any]]:
    return [*_case("text")["events"][:2], *events]


def _text_delta(index: Any) -> dict[str, Any]:
    return {
        "type": "content_block_delta",
        "index": index,
        "delta": {"type": "text_delta", "text": "x"},
    }


def _block_start(index: Any, block: Any = None) -> dict[str, Any]:
    block = {"type": "text", "text": ""} if block is None else block
    return {"type": "content_block_start", "index": index, "content_block": block}


@pytest.mark.parametrize(
    ("events", "match"),
    [
        (_started(_block_start(10**18)), r"content_block_start\.index: index 10{18} is out of"),
        (_started(_block_start(10**30)), r"content_block_start\.index: index a int is out of"),
        (_started(_block_start(5)), r"content_block_start\.index: index 5 is out of order"),
        (_started(_block_start(0)), r"content_block_start\.index: block 0 has already started"),
        (_started(_block_start(-1)), r"content_block_start\.index: index -1"),
        (_started(_block_start(True)), r"content_block_start\.index: expected a whole number"),
        (_started(_block_start("1")), r"content_block_start\.index: expected a whole number"),
        (_started(_text_delta(1)), r"content_block_delta\.index: block 1 has not started"),
        (_started(_text_delta(10**18)), r"content_block_delta\.index: index 10{18} is out of"),
        (_started(_text_delta(None)), r"content_block_delta\.index: expected a whole number"),
        (
            _started({"type": "content_block_stop", "index": 3}),
            r"content_block_stop\.index: index 3 is out of order",
        ),
    ],
)
def test_hostile_index_is_invalid_media(events: list[dict[str, Any]], match: str) -> None:
    """A block index that is huge, skips ahead, repeats or names no block is InvalidMedia."""
    with pytest.raises(mp.InvalidMedia, match=match):
        mp.message_from_stream(events, "anthropic")


def _delta(delta: Any) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": 0, "delta": delta}


@pytest.mark.parametrize(
    ("events", "match"),
    [
        ([5], r"event: expected a stream event"),
        ([{"detail": 1}], r"event\.type: expected the event's type, got None"),
        ([{"type": "message_start", "message": []}], r"message_start\.message: expected an object"),
        (
            [{"type": "message_start", "message": {"id": 5}}],
            r"message_start\.message\.id: expected a string",
        ),
        (
            [
                {
                    "type": "message_start",
                    "message": {"usage": {"input_tokens": "3", "output_tokens": 1}},
                }
            ],
            r"message_start\.message: usage\.input_tokens: expected a token count",
        ),
        ([_text_delta(0)], r"content_block_delta: arrived before message_start"),
        ([{"type": "message_stop"}], r"message_stop: arrived before message_start"),
        (_started(_case("text")["events"][0]), r"a second message_start"),
        (_started(_delta({"type": "text_delta", "text": 5})), r"content_block_delta\.delta\.text"),
        (_started(_delta({"type": "text_delta"})), r"content_block_delta\.delta\.text: missing"),
        (_started(_delta("text_delta")), r"content_block_delta\.delta: expected an object"),
        (_started(_delta({"text": "x"})), r"content_block_delta\.delta\.type: missing"),
        (
            _started(_delta({"type": "citations_delta", "citation": "x"})),
            r"content_block_delta\.delta\.citation: expected an object",
        ),
        (
            _started(_delta({"type": "citations_delta", "citation": {"cited_text": "x"}})),
            r"content_block_delta\.delta\.citation\.type: missing",
        ),
        (
            _started(_block_start(1, {"type": "tool_use", "name": "f", "input": {}})),
            r"content_block_start\.content_block\.id: missing",
        ),
        (
            _started(_block_start(1, {"type": "tool_use", "id": "t", "name": "f", "input": []})),
            r"content_block_start\.content_block\.input: expected an object",
        ),
        (_started(_block_start(1, "text")), r"content_block_start\.content_block: expected an"),
        (
            _started(_block_start(1, {"type": "redacted_thinking"})),
            r"content_block_start\.content_block\.data: missing",
        ),
        (
            _started(_block_start(1, {"type": "thinking", "thinking": "", "signature": 1})),
            r"content_block_start\.content_block\.signature: expected a string",
        ),
        (
            _started(_block_start(1, {"type": "text", "text": 1})),
            r"content_block_start\.content_block\.text: expected a string",
        ),
        (
            _started({"type": "message_delta", "delta": {"stop_reason": 5}}),
            r"message_delta\.delta\.stop_reason: expected a string",
        ),
        (
            _started({"type": "message_delta", "delta": {}, "usage": {"output_tokens": -1}}),
            r"message_delta: usage\.output_tokens: expected a token count",
        ),
        (_started({"type": "message_delta", "delta": {}, "usage": 7}), r"message_delta\.usage"),
    ],
)
def test_malformed_event_is_invalid_media(events: list[Any], match: str) -> None:
    """A malformed field is InvalidMedia naming its path, never a bare KeyError or TypeError."""
    with pytest.raises(mp.InvalidMedia, match=match) as caught:
        mp.message_from_stream(events, "anthropic")
    assert not isinstance(caught.value, mp.StreamError)


def test_unknown_blocks_and_deltas() -> None:
    """An unknown block is kept whole; unknown deltas, and deltas a block does not take, add
    nothing; unknown events and the helper's synthetic ones are skipped."""
    new_block = {"type": "hologram_2027", "id": 7, "frames": [1, 2]}  # its shape is its own
    events = _started(
        _delta({"type": "sparkle_delta", "sparkle": "*"}),
        _delta({"type": "input_json_delta", "partial_json": "{}"}),
        _delta({"type": "thinking_delta", "thinking": "x"}),
        {"type": "text", "text": "twice", "snapshot": "twice"},
        {"type": "something_new_2027"},
        {"type": "ping"},
        _text_delta(0),
        _block_start(1, new_block),
        {**_text_delta(1), "delta": {"type": "text_delta", "text": "y"}},
        {"type": "content_block_stop", "index": 1},
        *_case("text")["events"][-2:],
    )
    reader = mp.StreamReader("anthropic")
    deltas = [d for e in events for d in reader.feed(e)]
    reply = reader.result()
    assert reply.text == "x"
    assert reply.parts[1] == mp.ProviderPart(provider="anthropic", data=new_block)
    assert [(d.kind, d.index, d.name) for d in deltas if d.index is not None] == [
        ("text", 0, None),
        ("text", 0, None),
        ("provider", 1, "hologram_2027"),
    ]


def test_deltas_of_a_web_search() -> None:
    """Each part's deltas carry its index; server tools' are provider deltas; a citation delta
    holds the citation the text part ends with; usage and stop deltas grow the message."""
    case = _case("web_search")
    deltas = _deltas(case["events"])
    reply = mp.message_from_stream(case["events"], "anthropic")
    assert [(d.kind, d.index, d.name) for d in deltas if d.kind not in ("text",)] == [
        ("usage", None, None),
        ("provider", 1, "server_tool_use"),
        ("provider", 1, "server_tool_use"),
        ("provider", 1, "server_tool_use"),
        ("provider", 1, "server_tool_use"),
        ("provider", 2, "web_search_tool_result"),
        ("citation", 4, None),
        ("usage", None, None),
        ("stop", None, None),
    ]
    provider = "".join(d.arguments for d in deltas if d.kind == "provider")
    server_tool, text = reply.parts[1], reply.parts[4]
    assert isinstance(server_tool, mp.ProviderPart) and isinstance(text, mp.TextPart)
    assert json.loads(provider) == server_tool.data["input"]
    (cited,) = [d for d in deltas if d.kind == "citation"]
    assert cited.citation == text.citations[0]
    usage, stop = deltas[-2:]
    assert usage.usage == reply.usage
    assert usage.usage is not None and usage.usage.input_tokens == 10682
    assert (stop.text, stop.stop_reason) == ("end_turn", "end")


def test_deltas_of_thinking_and_a_tool_call() -> None:
    """Thinking grows a reasoning part (its signature adds no delta); a tool call's first delta,
    at its start, carries its id and name."""
    thinking = _deltas(_case("thinking")["events"])
    assert [(d.kind, d.index) for d in thinking if d.index == 0] == [("reasoning", 0)] * 4
    tool = [d for d in _deltas(_case("tool_use")["events"]) if d.kind == "tool_call"]
    assert (tool[0].id, tool[0].name, tool[0].arguments) == (
        "toolu_01NRLabsLyVHZPKxbKvkfSMn",
        "get_weather",
        "",
    )
    assert all(d.id is None and d.index == 1 for d in tool[1:])


def test_usage_merges_as_the_sdk_does() -> None:
    """message_delta's counts replace those held; a count it leaves out or nulls is kept."""
    events = copy.deepcopy(_case("cache_usage")["events"])
    events[-2]["usage"] = {"output_tokens": 42, "cache_read_input_tokens": None}
    reply = mp.message_from_stream(events, "anthropic")
    assert reply.usage == mp.Usage(
        input_tokens=21 + 188 + 1800,
        output_tokens=42,
        cache_read_tokens=1800,
        cache_write_tokens=188,
    )


def test_abridged_stream_without_counts_has_no_usage() -> None:
    """A stream that never says its input tokens (as the API docs' short examples) has no usage."""
    events = copy.deepcopy(_case("text")["events"])
    del events[0]["message"]["usage"]
    deltas, reply = _deltas(events), mp.message_from_stream(events, "anthropic")
    assert reply.usage is None and reply.text == "Hello there!"
    assert not [d for d in deltas if d.kind == "usage"]


def test_stop_reason_waits_for_message_stop() -> None:
    """After message_delta the stop delta has come, but the message so far has no stop reason."""
    events = _case("tool_use")["events"]
    reader = mp.StreamReader("anthropic")
    for event in events[:-1]:
        reader.feed(event)
    assert reader.message.stop_reason is None and not reader.finished
    assert reader.message.native == {}
    reader.feed(events[-1])
    assert reader.message.stop_reason == "tool_call" and reader.finished


def test_long_stream_reads() -> None:
    """A stream of 20,000 text deltas and 20,000 tool-input fragments reads whole."""
    head, start = _case("text")["events"][:2]
    events = [head, start, *[_text_delta(0)] * 20_000]
    tool = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}
    events.append(_block_start(1, tool))
    fragments = ['{"s": "', *["ab"] * 20_000, '"}']
    events += [
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": f},
        }
        for f in fragments
    ]
    events += _case("tool_use")["events"][-2:]
    reply = mp.message_from_stream(events, "anthropic")
    assert reply.text == "x" * 20_000
    assert reply.tool_calls[0].parsed_arguments() == {"s": "ab" * 20_000}
