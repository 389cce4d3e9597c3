"""Streamed replies on every wire: the recorded streams of `tests/golden/streams` (see
`_streams.py`) give the message their non-streamed response gives, however they arrive."""

from __future__ import annotations

import asyncio
import json
import random
from collections import defaultdict
from typing import Any

import pytest

import mediaparts as mp
from tests.providers._stream_clients import body, mistral_client
from tests.providers._streams import NOT_SSE, cases, chunks, sse_bytes

CASES = cases()
WITH_RESPONSE = [c for c in CASES if c.values[2]["response"] is not None]
SSE_CASES = [c for c in CASES if c.values[0] not in NOT_SSE]


def _read(events: list[Any], provider: str) -> tuple[list[mp.Delta], mp.StreamReader]:
    reader = mp.StreamReader(provider)
    deltas = [d for event in events for d in reader.feed(event)]
    return deltas, reader


def test_streams_every_wire_has_recorded_streams() -> None:
    """Each wire has recorded streams, each with a non-streamed response to compare."""
    providers = {c.values[0] for c in WITH_RESPONSE}
    assert providers >= {"openai", "openai-responses", "anthropic", "gemini", "bedrock"}


@pytest.mark.parametrize(("provider", "name", "case"), WITH_RESPONSE)
def test_stream_same_message_as_response(provider: str, name: str, case: dict[str, Any]) -> None:
    """A stream gives the message its non-streamed response gives."""
    streamed = mp.message_from_stream(case["events"], provider)
    assert streamed == mp.message_from_response(case["response"], provider)
    assert streamed.stop_reason is not None


@pytest.mark.parametrize(("provider", "name", "case"), WITH_RESPONSE)
def test_stream_renders_back_as_response(provider: str, name: str, case: dict[str, Any]) -> None:
    """A streamed reply renders back exactly as the non-streamed one does."""
    streamed = mp.message_from_stream(case["events"], provider)
    whole = mp.message_from_response(case["response"], provider)
    question = mp.User("Go on")
    assert mp.render([question, streamed, question], provider) == mp.render(
        [question, whole, question], provider
    )


def _part_text(part: Any, summary: bool) -> str:
    if part.kind == "reasoning":
        return "".join(part.summary) if summary else part.text or ""
    return str(part.text)


@pytest.mark.parametrize(("provider", "name", "case"), CASES)
def test_stream_deltas_concatenate(provider: str, name: str, case: dict[str, Any]) -> None:
    """The deltas of each part concatenate to its text or arguments, at its index."""
    deltas, reader = _read(case["events"], provider)
    reply = reader.result()
    parts: list[Any] = list(reply.parts)
    texts: dict[tuple[int, bool], list[str]] = defaultdict(list)
    arguments: dict[int, list[str]] = defaultdict(list)
    expected_kind = {
        "text": "text",
        "reasoning": "reasoning",
        "refusal": "refusal",
        "tool_call": "tool_call",
        "citation": "text",
        "provider": "provider",
    }
    for delta in deltas:
        if delta.kind in ("usage", "stop"):
            assert delta.index is None
            continue
        assert delta.index is not None and 0 <= delta.index < len(parts), delta
        assert parts[delta.index].kind == expected_kind[delta.kind], delta
        if delta.kind in ("text", "reasoning", "refusal"):
            texts[(delta.index, delta.name == "summary")].append(delta.text)
        elif delta.kind == "tool_call":
            arguments[delta.index].append(delta.arguments)
            call = parts[delta.index]
            assert delta.id in (None, call.id) and delta.name in (None, call.name), delta
        elif delta.kind == "citation":
            assert delta.citation in parts[delta.index].citations
    for (index, summary), pieces in texts.items():
        assert "".join(pieces) == _part_text(parts[index], summary), index
    for index, pieces in arguments.items():
        said, kept = "".join(pieces), parts[index].arguments
        try:
            assert json.loads(said) == json.loads(kept), index
        except ValueError:  # arguments that never became JSON are kept as they arrived
            assert said == kept, index
    grown = {d.index for d in deltas if d.kind in ("text", "reasoning", "refusal")}
    assert all(d.name in (None, "summary") for d in deltas if d.kind == "reasoning")
    for index, part in enumerate(parts):
        if part.kind in ("text", "refusal") and part.text:
            assert index in grown, f"part {index} ({part.kind}) grew without a delta"
    stops = [d for d in deltas if d.kind == "stop"]
    assert stops and stops[-1].stop_reason == reply.stop_reason


@pytest.mark.parametrize(("provider", "name", "case"), CASES)
def test_stream_partial_message_at_every_event(
    provider: str, name: str, case: dict[str, Any]
) -> None:
    """After every event the message so far reads; text only grows; no stop reason early."""
    reader = mp.StreamReader(provider)
    before = ""
    for event in case["events"]:
        was_finished = reader.finished
        reader.feed(event)
        so_far = reader.message
        assert isinstance(so_far, mp.Assistant)
        if not reader.finished and not was_finished:
            assert so_far.stop_reason is None
        assert so_far.text.startswith(before) or not before
        before = so_far.text
    assert reader.finished


@pytest.mark.parametrize(("provider", "name", "case"), CASES)
def test_stream_cut_short_raises_with_partial(
    provider: str, name: str, case: dict[str, Any]
) -> None:
    """A stream that ends before its final event raises StreamError carrying the reply so far."""
    reader = mp.StreamReader(provider)
    events = case["events"]
    last = 0
    for i, event in enumerate(events):
        reader.feed(event)
        if reader.finished:
            last = i
            break
    with pytest.raises(mp.StreamError) as caught:
        mp.message_from_stream(events[:last], provider)
    assert isinstance(caught.value, mp.InvalidMedia)
    assert isinstance(caught.value.partial, mp.Assistant)
    assert caught.value.partial.stop_reason is None


@pytest.mark.parametrize(("provider", "name", "case"), CASES)
def test_stream_json_text_same_as_dicts(provider: str, name: str, case: dict[str, Any]) -> None:
    """The JSON text of each event reads as its dict does."""
    texts = [json.dumps(e) for e in case["events"]]
    assert mp.message_from_stream(texts, provider) == mp.message_from_stream(
        case["events"], provider
    )


@pytest.mark.parametrize(("provider", "name", "case"), SSE_CASES)
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_stream_raw_sse_bytes_cut_anywhere(
    provider: str, name: str, case: dict[str, Any], newline: str
) -> None:
    """Raw server-sent event bytes, cut at random places, read as the events do."""
    body = sse_bytes(
        provider,
        case["events"],
        newline=newline,
        names=case.get("sse_event_names", False),
        comments=case.get("sse_comments", ()),
    )
    rng = random.Random(f"{provider}/{name}")
    sizes = iter(lambda: rng.choice((1, 2, 3, 7, 64, 4096)), None)
    expected = mp.message_from_stream(case["events"], provider)
    assert mp.message_from_stream(chunks(body, sizes), provider) == expected
    assert mp.message_from_stream([body], provider) == expected


@pytest.mark.parametrize(("provider", "name", "case"), CASES)
def test_stream_async_same_as_sync(provider: str, name: str, case: dict[str, Any]) -> None:
    """amessage_from_stream over an async iterator gives what message_from_stream gives."""

    async def events() -> Any:
        for event in case["events"]:
            await asyncio.sleep(0)
            yield event

    got = asyncio.run(mp.amessage_from_stream(events(), provider))
    assert got == mp.message_from_stream(case["events"], provider)


@pytest.mark.parametrize(("provider", "name", "case"), CASES)
def test_stream_relay_yields_events_unchanged(
    provider: str, name: str, case: dict[str, Any]
) -> None:
    """relay passes every event through as it was and holds the reply at the end."""
    reader = mp.StreamReader(provider)
    passed = list(reader.relay(iter(case["events"])))
    assert all(a is b for a, b in zip(passed, case["events"], strict=True))
    assert reader.result() == mp.message_from_stream(case["events"], provider)


@pytest.mark.parametrize(("provider", "name", "case"), CASES)
def test_stream_registered_provider_on_same_wire(
    provider: str, name: str, case: dict[str, Any]
) -> None:
    """A provider registered on the same wire, with the same quirks, streams the same way (its
    own name in hints)."""
    served = mp.providers.get(provider)
    mp.providers.register(
        "streams-elsewhere",
        wire=served.wire,
        rules=served.rules,
        quirks=served.quirks,
        replace=True,
    )
    try:
        theirs = mp.message_from_stream(case["events"], "streams-elsewhere")
    finally:
        mp.providers.unregister("streams-elsewhere")
    ours = mp.message_from_stream(case["events"], provider)
    assert [p.kind for p in theirs.parts] == [p.kind for p in ours.parts]
    assert theirs.text == ours.text and theirs.usage == ours.usage
    assert theirs.stop_reason == ours.stop_reason


# An event of a kind each wire's reader does not know, carrying no content.
UNKNOWN_EVENTS = {
    "openai": {"object": "something.new.2027", "detail": {"x": 1}},
    "openai-responses": {"type": "response.something_new_2027", "detail": {"x": 1}},
    "anthropic": {"type": "something_new_2027", "detail": {"x": 1}},
    "gemini": {"somethingNew2027": {"x": 1}},
    "bedrock": {"somethingNew2027": {"x": 1}},
}


@pytest.mark.parametrize("provider", sorted(UNKNOWN_EVENTS))
def test_stream_unknown_event_is_skipped(provider: str) -> None:
    """An event of a type the reader does not know, carrying no content, adds nothing."""
    case = next(c.values[2] for c in CASES if c.values[0] == provider)
    events = list(case["events"])
    events.insert(1, UNKNOWN_EVENTS[provider])
    assert mp.message_from_stream(events, provider) == mp.message_from_stream(
        case["events"], provider
    )


@pytest.mark.parametrize(
    "event",
    [b"\xff\xfe", b"data: \xc3", "not json", '{"type": ', "[1, 2", '{"n": ' + "9" * 5000 + "}"],
    ids=["not-utf8", "utf8-cut-at-the-end", "not-json", "json-cut", "array-cut", "5000-digits"],
)
def test_stream_undecodable_event_is_invalid_media(event: Any) -> None:
    """Bytes that are not UTF-8, or text that is not JSON, are InvalidMedia naming the stream."""
    reader = mp.StreamReader("anthropic")
    with pytest.raises(mp.InvalidMedia):  # noqa: PT012 - bytes may fail when fed or closed
        reader.feed(event)
        reader.close()


def test_stream_reader_refuses_a_wire_without_streams() -> None:
    """A wire with no stream() is refused with InvalidConfig naming the provider."""

    class NoStreams:
        render: Any = staticmethod(lambda messages, prepare: {})
        media_site: Any = staticmethod(lambda node, at, problems: None)

    mp.providers.register("no-streams", wire=NoStreams(), rules=mp.providers.get("openai").rules)
    try:
        with pytest.raises(mp.InvalidConfig, match=r"no-streams.*cannot read streams"):
            mp.StreamReader("no-streams")
    finally:
        mp.providers.unregister("no-streams")


def test_stream_sse_comments_and_fields_ignored() -> None:
    """Comments, `event`, `id` and `retry` lines and a byte-order mark carry no data."""
    from mediaparts.providers._wire._events import SSEDecoder

    decoder = SSEDecoder()
    body = '\ufeff: keep-alive\nid: 7\nretry: 10\nevent: x\ndata: {"a":\ndata: 1}\n\ndata\n\n'
    raw = body.encode()
    got = [d for at in range(0, len(raw), 3) for d in decoder.feed(raw[at : at + 3])]
    assert got == ['{"a":\n1}', ""]
    assert decoder.close() == []


def _converse_tool(*fragments: str) -> list[Any]:
    start = {"toolUse": {"toolUseId": "tooluse_1", "name": "now"}}
    return [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockStart": {"contentBlockIndex": 0, "start": start}},
        *(
            {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": f}}}}
            for f in fragments
        ),
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {"messageStop": {"stopReason": "tool_use"}},
    ]


# Bedrock tool calls whose input comes in odd pieces (Anthropic's: its own tests).
TOOL_INPUTS = [
    pytest.param("bedrock", _converse_tool(), "{}", id="bedrock-no-input"),
    pytest.param("bedrock", _converse_tool('{"s": ', '"x"}'), '{"s":"x"}', id="bedrock-two-pieces"),
]  # fmt: skip


@pytest.mark.parametrize(("provider", "events", "arguments"), TOOL_INPUTS)
def test_stream_tool_call_deltas_add_up_to_its_arguments(
    provider: str, events: list[Any], arguments: str
) -> None:
    """A tool call's argument deltas add up to its JSON, a call without input's to `{}`."""
    reader = mp.StreamReader(provider)
    deltas = [d for event in events for d in reader.feed(event)]
    call = reader.result().tool_calls[0]
    assert call.arguments == arguments
    said = "".join(d.arguments for d in deltas if d.kind == "tool_call")
    assert json.loads(said) == json.loads(arguments)


def test_stream_surrogate_pair_cut_between_events_is_one_character() -> None:
    """Half a surrogate pair in each of two events' JSON escapes reads as the one character."""
    events = [
        {"type": "message_start", "message": {"id": "msg_1", "type": "message",
         "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
         "usage": {"input_tokens": 5, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "a\ud83d"}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "\ude00b"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 3}},
        {"type": "message_stop"},
    ]  # fmt: skip
    texts = [json.dumps(event) for event in events]  # the halves are JSON escapes, as sent
    assert mp.message_from_stream(texts, "anthropic").text == "a\U0001f600b"


@pytest.mark.parametrize("events", [5, None, object()])
def test_stream_events_that_are_not_a_stream_are_invalid_media(events: Any) -> None:
    """What is not an iterable of events is InvalidMedia, never a TypeError."""
    with pytest.raises(mp.InvalidMedia, match="iterable of events"):
        mp.message_from_stream(events, "gemini")


def test_stream_whole_body_as_bytes_reads() -> None:
    """A whole text/event-stream body given as one bytes value reads as its events do."""
    case = next(c.values[2] for c in CASES if c.values[0] == "anthropic")
    body = sse_bytes("anthropic", case["events"], names=True)
    assert mp.message_from_stream(body, "anthropic") == mp.message_from_stream(
        case["events"], "anthropic"
    )


@pytest.mark.parametrize(("provider", "name", "case"), CASES)
def test_stream_arelay_yields_events_unchanged(
    provider: str, name: str, case: dict[str, Any]
) -> None:
    """arelay passes every event of an async stream through as it was and reads it on the way."""

    async def events() -> Any:
        for event in case["events"]:
            yield event

    async def relayed(reader: mp.StreamReader) -> list[Any]:
        return [event async for event in reader.arelay(events())]

    reader = mp.StreamReader(provider)
    passed = asyncio.run(relayed(reader))
    assert all(a is b for a, b in zip(passed, case["events"], strict=True))
    assert reader.result() == mp.message_from_stream(case["events"], provider)


def test_stream_sse_event_without_its_blank_line_is_read_at_close() -> None:
    """An event the body ended without a blank line (its last line unended too) is read."""
    from mediaparts.providers._wire._events import SSEDecoder

    decoder = SSEDecoder()
    assert decoder.feed(b"data: 1\n\ndata: 2\r") == ["1"]
    assert decoder.feed(b"\ndata: 3") == []
    assert decoder.close() == ["2\n3"]


def test_stream_reader_names_its_provider_and_refuses_a_model_not_a_string() -> None:
    """A reader says its provider; a model that is not a string is InvalidConfig."""
    assert mp.StreamReader("gemini", model="gemini-2.5-flash").provider.name == "gemini"
    with pytest.raises(mp.InvalidConfig, match="model must be a string"):
        mp.StreamReader("gemini", model=5)  # type: ignore[arg-type]  # the wrong type, on purpose


def test_stream_amessage_takes_a_plain_iterable() -> None:
    """amessage_from_stream reads a list of events as message_from_stream does."""
    case = next(c.values[2] for c in CASES if c.values[0] == "gemini")
    got = asyncio.run(mp.amessage_from_stream(case["events"], "gemini"))
    assert got == mp.message_from_stream(case["events"], "gemini")


def test_stream_close_of_bytes_that_end_inside_a_character_is_invalid_media() -> None:
    """Raw bytes that end in the middle of a UTF-8 character are InvalidMedia at close."""
    reader = mp.StreamReader("openai")
    reader.feed(b"data: \xe2\x82")
    with pytest.raises(mp.InvalidMedia, match="inside a UTF-8 character"):
        reader.close()


_MISTRAL = [c for c in CASES if c.values[0] == "mistral"]


@pytest.mark.parametrize(("provider", "name", "case"), _MISTRAL)
def test_stream_mistralai_events_read_as_the_chunks(
    provider: str, name: str, case: dict[str, Any]
) -> None:
    """The `CompletionEvent`s of mistralai's `chat.stream` (each chunk under `data`) read as
    the recorded chunks do."""
    client = mistral_client(body(provider, name))
    events = list(client.chat.stream(model="mistral-large-latest", messages=[]))
    assert mp.message_from_stream(events, provider) == mp.message_from_stream(
        case["events"], provider
    )
