"""Reading streamed Responses replies: the official SDK's streams, deltas and their indexes,
and errors the API sends mid-stream (hostile streams: `test_stream_hostile.py`).

The recorded streams are `tests/golden/streams/openai-responses/`; the tests every wire is
held to are in `tests/providers/test_streams.py`.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import mediaparts as mp
from tests.providers._stream_clients import openai_client
from tests.providers._streams import STREAMS, sse_bytes
from tests.providers.openai_responses._stream_events import (
    CALL,
    CREATED,
    MESSAGE,
    REASONING,
    P,
    completed_with,
    item_added,
    item_done,
    make_event,
    read_deltas,
    recorded,
    text_block,
    text_delta,
)

NAMES = sorted(path.stem for path in (STREAMS / P).glob("*.json"))


def _sse(events: list[Any]) -> bytes:
    return sse_bytes(P, events, names=True)


def _tools(case: dict[str, Any]) -> list[Any]:
    """The request's function tools (the helper parses their calls' arguments with them)."""
    return [t for t in case["response"]["tools"] if t["type"] == "function"]


# -- the official SDK ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_stream_sdk_create_events_same_as_dicts(name: str) -> None:
    """`responses.create(stream=True)` event objects give the deltas and message the dicts do."""
    case = recorded(name)
    client = openai_client(_sse(case["events"]))
    events = list(client.responses.create(model="m", input="hi", stream=True))
    assert [e.type for e in events] == [e["type"] for e in case["events"]]
    assert read_deltas(events)[0] == read_deltas(case["events"])[0]
    streamed = mp.message_from_stream(events, P)
    assert streamed == mp.message_from_response(case["response"], P)


@pytest.mark.parametrize("name", NAMES)
def test_stream_sdk_helper_same_as_dicts(name: str) -> None:
    """The `responses.stream()` helper's events (snapshots on some) count nothing twice."""
    case = recorded(name)
    client = openai_client(_sse(case["events"]))
    with client.responses.stream(model="m", input="hi", tools=_tools(case)) as events:
        got = list(events)
    assert read_deltas(got)[0] == read_deltas(case["events"])[0]
    whole = mp.message_from_response(case["response"], P)
    assert mp.message_from_stream(got, P) == whole
    if got[-1].type == "response.completed":  # the helper's own final response
        final = mp.message_from_response(events.get_final_response(), P)
        assert (final.text, final.tool_calls) == (whole.text, whole.tool_calls)


@pytest.mark.parametrize("name", NAMES)
def test_stream_sdk_async_same_as_dicts(name: str) -> None:
    """The async client's stream and helper read as the dicts do."""
    case = recorded(name)
    whole = mp.message_from_response(case["response"], P)

    async def read() -> tuple[mp.Assistant, mp.Assistant]:
        client = openai_client(_sse(case["events"]), aio=True)
        created = await client.responses.create(model="m", input="hi", stream=True)
        one = await mp.amessage_from_stream(created, P)
        async with client.responses.stream(model="m", input="hi", tools=_tools(case)) as events:
            two = await mp.amessage_from_stream(events, P)
        return one, two

    assert asyncio.run(read()) == (whole, whole)


# The snippet of the docs, run as written (with `client` an `openai.OpenAI`).
DOCS_SNIPPET = """
import mediaparts as mp

reader = mp.StreamReader("openai-responses")
stream = client.responses.create(model="gpt-5.1", input="Where is TRAPPIST-1?", stream=True)
for event in stream:
    for delta in reader.feed(event):
        if delta.kind == "text":
            print(delta.text, end="", flush=True)
        elif delta.kind == "citation":
            print(f" [{delta.citation.title}]", end="")
reply = reader.result()   # mp.Assistant: text and citations, usage, stop reason
history = [mp.User("Where is TRAPPIST-1?"), reply]
"""


def test_stream_docs_snippet_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The docs' snippet reads an SDK stream into the reply the response gives."""
    case = recorded("web_search_url_citations")
    scope: dict[str, Any] = {"client": openai_client(_sse(case["events"]))}
    exec(DOCS_SNIPPET, scope)
    reply = scope["reply"]
    assert reply == mp.message_from_response(case["response"], P)
    printed = capsys.readouterr().out
    assert printed.startswith(reply.text)
    assert printed.count(" [") == 2


# -- deltas --------------------------------------------------------------------------------------


def test_stream_delta_index_follows_read_response_order() -> None:
    """A message of two blocks is two parts; the items after it are counted from there."""
    events = [
        CREATED,
        item_added(0, {**MESSAGE, "content": []}),
        text_delta(0, 0, "Hello"),
        text_delta(0, 1, "No.", "refusal"),
        item_added(1, {**CALL, "arguments": ""}),
        make_event("response.function_call_arguments.delta", output_index=1, delta='{"x":1}'),
        item_added(2, REASONING),
        make_event(
            "response.reasoning_summary_text.delta", output_index=2, summary_index=0, delta="Hm"
        ),
        completed_with(None),
    ]
    deltas, reader = read_deltas(events)
    reply = reader.result()
    assert [p.kind for p in reply.parts] == ["text", "refusal", "tool_call", "reasoning"]
    said = [(d.kind, d.index) for d in deltas]
    assert said == [
        ("text", 0),
        ("refusal", 1),
        ("tool_call", 2),
        ("tool_call", 2),
        ("reasoning", 3),
        ("stop", None),
    ]
    assert (deltas[2].id, deltas[2].name, deltas[3].id) == ("call_1", "zoom", None)
    call = reply.parts[2]
    assert isinstance(call, mp.ToolCall)
    assert call.arguments == '{"x":1}'


def test_stream_reasoning_keeps_encrypted_content_and_id() -> None:
    """Encrypted reasoning content and the item's id survive exactly, from `output_item.done`."""
    case = recorded("reasoning_summary_encrypted")
    item = case["response"]["output"][0]
    reader = mp.StreamReader(P)
    events = iter(case["events"])
    for event in events:
        reader.feed(event)
        if event["type"] == "response.output_item.done":
            break
    part = reader.message.parts[0]
    assert isinstance(part, mp.ReasoningPart)
    assert (part.data, part.id) == (item["encrypted_content"], item["id"])
    assert part.summary == tuple(s["text"] for s in item["summary"])
    for event in events:
        reader.feed(event)
    assert reader.result().parts[0] == part


def test_stream_reasoning_texts_join_with_a_blank_line() -> None:
    """Reasoning text deltas concatenate to the part's text, two texts with a blank line."""
    events = [
        CREATED,
        item_added(0, REASONING),
        make_event("response.reasoning_text.delta", output_index=0, content_index=0, delta="One"),
        make_event("response.reasoning_text.delta", output_index=0, content_index=1, delta="Two"),
        completed_with(None),
    ]
    deltas, reader = read_deltas(events)
    part = reader.result().parts[0]
    assert isinstance(part, mp.ReasoningPart)
    assert part.text == "".join(d.text for d in deltas if d.kind == "reasoning") == "One\n\nTwo"


def test_stream_items_without_deltas_are_said_when_done() -> None:
    """A stream that sends items whole (no deltas) still says each piece once, in deltas."""
    case = recorded("web_search_url_citations")
    kept = ("response.created", "response.output_item.added", "response.output_item.done")
    events = [e for e in case["events"] if e["type"] in kept] + [case["events"][-1]]
    deltas, reader = read_deltas(events)
    reply = reader.result()
    assert reply == mp.message_from_response(case["response"], P)
    assert "".join(d.text for d in deltas if d.kind == "text") == reply.text
    cited = [d.citation for d in deltas if d.kind == "citation"]
    text = reply.parts[1]
    assert isinstance(text, mp.TextPart)
    assert tuple(cited) == text.citations
    assert read_deltas(case["events"])[0] != deltas  # the full stream said them as they came


def test_stream_done_text_fills_what_deltas_left_out() -> None:
    """A `.done` event whose text goes on from the deltas says the rest; nothing is said twice."""
    events = [
        CREATED,
        item_added(0, {**MESSAGE, "content": []}),
        text_delta(0, 0, "Hel"),
        make_event("response.output_text.done", output_index=0, content_index=0, text="Hello"),
        make_event("response.output_text.done", output_index=0, content_index=0, text="Hello"),
    ]
    deltas, reader = read_deltas(events)
    assert [d.text for d in deltas] == ["Hel", "lo"]
    assert reader.message.text == "Hello"


def test_stream_completed_without_output_takes_the_streamed_items() -> None:
    """A final response without `output` is read with the items the stream gave."""
    done = {**MESSAGE, "status": "completed", "content": [text_block("Hi")]}
    events = [
        CREATED,
        item_added(0, {**MESSAGE, "content": []}),
        text_delta(0, 0, "Hi"),
        item_done(0, done),
    ]
    reply = mp.message_from_stream([*events, completed_with(None)], P)
    assert reply == mp.message_from_response(completed_with([done])["response"], P)
    assert reply.parts[0].native[P]["item"]["status"] == "completed"


@pytest.mark.parametrize(
    ("kind", "stop", "raw"),
    [("response.completed", "end", "completed"), ("response.incomplete", "other", "incomplete")],
)
def test_stream_final_event_without_status_says_how_it_ended(
    kind: str, stop: str, raw: str
) -> None:
    """A final response that does not say its status has the one its event's type says."""
    final = make_event(kind, response={"id": "resp_1", "status": None, "output": []})
    deltas, reader = read_deltas([CREATED, final])
    assert (reader.result().stop_reason, reader.result().stop_reason_raw) == (stop, raw)
    assert (deltas[-1].stop_reason, deltas[-1].text) == (stop, raw)


def test_stream_custom_tool_call_grows_as_provider_deltas() -> None:
    """A custom tool call's input grows in `provider` deltas; the part is kept verbatim."""
    item = {"id": "ctc_1", "type": "custom_tool_call", "call_id": "call_9", "name": "sql"}
    whole = {**item, "input": "SELECT 1"}
    events = [
        CREATED,
        item_added(0, {**item, "input": ""}),
        make_event("response.custom_tool_call_input.delta", output_index=0, delta="SELECT "),
        make_event("response.custom_tool_call_input.delta", output_index=0, delta="1"),
        item_done(0, whole),
        completed_with([whole]),
    ]
    deltas, reader = read_deltas(events)
    assert [(d.kind, d.name, d.text) for d in deltas[:3]] == [
        ("provider", "custom_tool_call", ""),
        ("provider", "custom_tool_call", "SELECT "),
        ("provider", "custom_tool_call", "1"),
    ]
    part = reader.result().parts[0]
    assert isinstance(part, mp.ProviderPart)
    assert part.data == whole


def test_stream_events_after_the_final_one_are_skipped() -> None:
    """Nothing follows the final event: a later event changes nothing."""
    case = recorded("refusal")
    later = [text_delta(0, 0, "more"), case["events"][0]]
    assert mp.message_from_stream([*case["events"], *later], P) == mp.message_from_stream(
        case["events"], P
    )


# -- tool-call arguments -------------------------------------------------------------------------


def test_stream_partial_function_call_keeps_its_text() -> None:
    """Before the call is done, the message holds the arguments so far, not JSON yet."""
    case = recorded("parallel_function_calls")
    reader = mp.StreamReader(P)
    for event in case["events"][:5]:
        reader.feed(event)
    call = reader.message.parts[0]
    assert isinstance(call, mp.ToolCall)
    assert call.arguments == '{"city":"P'
    assert reader.message.stop_reason is None


def test_stream_malformed_function_call_json_is_kept() -> None:
    """Arguments that never become JSON are kept as they arrived, byte for byte."""
    said = '{"city": "Par'
    whole = {**CALL, "status": "completed", "arguments": said}
    events = [
        CREATED,
        item_added(0, {**CALL, "arguments": ""}),
        make_event("response.function_call_arguments.delta", output_index=0, delta='{"city": '),
        make_event("response.function_call_arguments.delta", output_index=0, delta='"Par'),
        make_event("response.function_call_arguments.done", output_index=0, arguments=said),
        item_done(0, whole),
        completed_with([whole]),
    ]
    deltas, reader = read_deltas(events)
    call = reader.result().parts[0]
    assert isinstance(call, mp.ToolCall)
    assert call.arguments == "".join(d.arguments for d in deltas if d.kind == "tool_call") == said
    with pytest.raises(mp.InvalidMedia, match="not valid JSON"):
        call.parsed_arguments()


# -- errors the API sends ------------------------------------------------------------------------

ERROR = {"code": "server_error", "message": "The server had an error while processing."}

ERRORS = [
    (
        "failed",
        make_event(
            "response.failed", response={"id": "resp_1", "status": "failed", "error": ERROR}
        ),
        ERROR,
    ),
    (
        "error event",
        make_event("error", code="rate_limit_exceeded", message="Slow down", param=None),
        {"type": "error", "code": "rate_limit_exceeded", "message": "Slow down", "param": None},
    ),
]


@pytest.mark.parametrize(("case", "event", "error"), ERRORS, ids=[e[0] for e in ERRORS])
def test_stream_api_error_raises_stream_error(
    case: str, event: dict[str, Any], error: dict[str, Any]
) -> None:
    """`response.failed` and `error` raise StreamError: the API's error, and the reply so far."""
    events = [CREATED, item_added(0, {**MESSAGE, "content": []}), text_delta(0, 0, "Half a")]
    with pytest.raises(mp.StreamError) as caught:
        mp.message_from_stream([*events, event], P)
    assert caught.value.error == error
    assert str(error["message"]) in str(caught.value)
    assert caught.value.partial is not None and caught.value.partial.text == "Half a"
    assert caught.value.partial.stop_reason is None


def test_stream_api_error_from_the_sdk_keeps_the_error() -> None:
    """The SDK's `error` event object raises the same StreamError as its dict."""
    event = make_event("error", code="server_error", message="Oops", param=None, sequence_number=3)
    client = openai_client(_sse([CREATED, event]))
    with pytest.raises(mp.StreamError) as caught:
        mp.message_from_stream(client.responses.create(model="m", input="hi", stream=True), P)
    assert caught.value.error == event


def test_reasoning_summary_and_text_deltas_are_told_apart() -> None:
    """Summary deltas are named "summary" and add up to the summaries; the rest to the text."""
    shell = {"id": "resp_1", "object": "response", "status": "in_progress", "model": "o4",
             "output": []}  # fmt: skip
    summaries = [{"type": "summary_text", "text": "**Plan**\n\nA."},
                 {"type": "summary_text", "text": "**Check**\n\nB."}]  # fmt: skip
    item = {"id": "rs_1", "type": "reasoning", "summary": summaries,
            "content": [{"type": "reasoning_text", "text": "think"}]}  # fmt: skip
    events = [
        {"type": "response.created", "response": shell},
        {"type": "response.output_item.added", "output_index": 0,
         "item": {"id": "rs_1", "type": "reasoning", "summary": []}},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0, "summary_index": 0,
         "delta": "**Plan**\n\nA."},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0, "summary_index": 1,
         "delta": "**Check**\n\nB."},
        {"type": "response.reasoning_text.delta", "output_index": 0, "content_index": 0,
         "delta": "think"},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": {**shell, "status": "completed", "output": [item]}},
    ]  # fmt: skip
    reader = mp.StreamReader("openai-responses")
    deltas = [d for event in events for d in reader.feed(event)]
    part = reader.result().parts[0]
    assert isinstance(part, mp.ReasoningPart)
    summary = "".join(d.text for d in deltas if d.kind == "reasoning" and d.name == "summary")
    text = "".join(d.text for d in deltas if d.kind == "reasoning" and d.name is None)
    assert (summary, text) == ("".join(part.summary), part.text)
