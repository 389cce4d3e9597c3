"""Reading streamed Responses replies: the official SDK's streams, deltas and their indexes,
errors the API sends mid-stream, and hostile events.

The recorded streams are `tests/golden/streams/openai-responses/`; the tests every wire is
held to are in `tests/providers/test_streams.py`.
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

import mediaparts as mp
from tests.providers._streams import STREAMS, sse_bytes

P = "openai-responses"
NAMES = sorted(path.stem for path in (STREAMS / P).glob("*.json"))


def _case(name: str) -> dict[str, Any]:
    case: dict[str, Any] = json.loads((STREAMS / P / f"{name}.json").read_text("utf-8"))
    return case


def _deltas(events: list[Any]) -> tuple[list[mp.Delta], mp.StreamReader]:
    reader = mp.StreamReader(P)
    return [d for event in events for d in reader.feed(event)], reader


def _sse(events: list[Any]) -> bytes:
    return sse_bytes(P, events, names=True)


def _client(body: bytes) -> Any:
    """An `openai.OpenAI` whose every request is answered with the SSE `body`."""
    openai = pytest.importorskip("openai")
    httpx = pytest.importorskip("httpx")

    def answer(request: Any) -> Any:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    http = httpx.Client(transport=httpx.MockTransport(answer))
    return openai.OpenAI(api_key="sk-test", http_client=http, max_retries=0)


def _async_client(body: bytes) -> Any:
    openai = pytest.importorskip("openai")
    httpx = pytest.importorskip("httpx")

    def answer(request: Any) -> Any:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    http = httpx.AsyncClient(transport=httpx.MockTransport(answer))
    return openai.AsyncOpenAI(api_key="sk-test", http_client=http, max_retries=0)


def _tools(case: dict[str, Any]) -> list[Any]:
    """The request's function tools (the helper parses their calls' arguments with them)."""
    return [t for t in case["response"]["tools"] if t["type"] == "function"]


# -- the official SDK ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_stream_sdk_create_events_same_as_dicts(name: str) -> None:
    """`responses.create(stream=True)` event objects give the deltas and message the dicts do."""
    case = _case(name)
    client = _client(_sse(case["events"]))
    events = list(client.responses.create(model="m", input="hi", stream=True))
    assert [e.type for e in events] == [e["type"] for e in case["events"]]
    assert _deltas(events)[0] == _deltas(case["events"])[0]
    streamed = mp.message_from_stream(events, P)
    assert streamed == mp.message_from_response(case["response"], P)


@pytest.mark.parametrize("name", NAMES)
def test_stream_sdk_helper_same_as_dicts(name: str) -> None:
    """The `responses.stream()` helper's events (snapshots on some) count nothing twice."""
    case = _case(name)
    client = _client(_sse(case["events"]))
    with client.responses.stream(model="m", input="hi", tools=_tools(case)) as events:
        got = list(events)
    assert _deltas(got)[0] == _deltas(case["events"])[0]
    whole = mp.message_from_response(case["response"], P)
    assert mp.message_from_stream(got, P) == whole
    if got[-1].type == "response.completed":  # the helper's own final response
        final = mp.message_from_response(events.get_final_response(), P)
        assert (final.text, final.tool_calls) == (whole.text, whole.tool_calls)


@pytest.mark.parametrize("name", NAMES)
def test_stream_sdk_async_same_as_dicts(name: str) -> None:
    """The async client's stream and helper read as the dicts do."""
    case = _case(name)
    whole = mp.message_from_response(case["response"], P)

    async def read() -> tuple[mp.Assistant, mp.Assistant]:
        client = _async_client(_sse(case["events"]))
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
    case = _case("web_search_url_citations")
    scope: dict[str, Any] = {"client": _client(_sse(case["events"]))}
    exec(DOCS_SNIPPET, scope)
    reply = scope["reply"]
    assert reply == mp.message_from_response(case["response"], P)
    printed = capsys.readouterr().out
    assert printed.startswith(reply.text)
    assert printed.count(" [") == 2


# -- deltas --------------------------------------------------------------------------------------


def _event(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, **fields}


def _added(index: int, item: dict[str, Any]) -> dict[str, Any]:
    return _event("response.output_item.added", output_index=index, item=item)


def _done(index: int, item: dict[str, Any]) -> dict[str, Any]:
    return _event("response.output_item.done", output_index=index, item=item)


def _text(index: int, block: int, delta: str, kind: str = "output_text") -> dict[str, Any]:
    return _event(f"response.{kind}.delta", output_index=index, content_index=block, delta=delta)


def _block(text: str) -> dict[str, Any]:
    return {"type": "output_text", "text": text, "annotations": []}


MESSAGE = {"id": "msg_1", "type": "message", "role": "assistant", "status": "in_progress"}
CALL = {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "zoom"}
REASONING = {"id": "rs_1", "type": "reasoning", "summary": []}
CREATED = _event("response.created", response={"id": "resp_1", "model": "m", "output": []})


def _completed(output: list[Any] | None, **more: Any) -> dict[str, Any]:
    response = {"id": "resp_1", "model": "m", "status": "completed", **more}
    if output is not None:
        response["output"] = output
    return _event("response.completed", response=response)


def test_stream_delta_index_follows_read_response_order() -> None:
    """A message of two blocks is two parts; the items after it are counted from there."""
    events = [
        CREATED,
        _added(0, {**MESSAGE, "content": []}),
        _text(0, 0, "Hello"),
        _text(0, 1, "No.", "refusal"),
        _added(1, {**CALL, "arguments": ""}),
        _event("response.function_call_arguments.delta", output_index=1, delta='{"x":1}'),
        _added(2, REASONING),
        _event(
            "response.reasoning_summary_text.delta", output_index=2, summary_index=0, delta="Hm"
        ),
        _completed(None),
    ]
    deltas, reader = _deltas(events)
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
    assert reply.parts[2].arguments == '{"x":1}'


def test_stream_reasoning_keeps_encrypted_content_and_id() -> None:
    """Encrypted reasoning content and the item's id survive exactly, from `output_item.done`."""
    case = _case("reasoning_summary_encrypted")
    item = case["response"]["output"][0]
    reader = mp.StreamReader(P)
    events = iter(case["events"])
    for event in events:
        reader.feed(event)
        if event["type"] == "response.output_item.done":
            break
    part = reader.message.parts[0]
    assert (part.data, part.id) == (item["encrypted_content"], item["id"])
    assert part.summary == tuple(s["text"] for s in item["summary"])
    for event in events:
        reader.feed(event)
    assert reader.result().parts[0] == part


def test_stream_reasoning_texts_join_with_a_blank_line() -> None:
    """Reasoning text deltas concatenate to the part's text, two texts with a blank line."""
    events = [
        CREATED,
        _added(0, REASONING),
        _event("response.reasoning_text.delta", output_index=0, content_index=0, delta="One"),
        _event("response.reasoning_text.delta", output_index=0, content_index=1, delta="Two"),
        _completed(None),
    ]
    deltas, reader = _deltas(events)
    part = reader.result().parts[0]
    assert part.text == "".join(d.text for d in deltas if d.kind == "reasoning") == "One\n\nTwo"


def test_stream_items_without_deltas_are_said_when_done() -> None:
    """A stream that sends items whole (no deltas) still says each piece once, in deltas."""
    case = _case("web_search_url_citations")
    kept = ("response.created", "response.output_item.added", "response.output_item.done")
    events = [e for e in case["events"] if e["type"] in kept] + [case["events"][-1]]
    deltas, reader = _deltas(events)
    reply = reader.result()
    assert reply == mp.message_from_response(case["response"], P)
    assert "".join(d.text for d in deltas if d.kind == "text") == reply.text
    cited = [d.citation for d in deltas if d.kind == "citation"]
    assert tuple(cited) == reply.parts[1].citations
    assert _deltas(case["events"])[0] != deltas  # the full stream said them as they came


def test_stream_done_text_fills_what_deltas_left_out() -> None:
    """A `.done` event whose text goes on from the deltas says the rest; nothing is said twice."""
    events = [
        CREATED,
        _added(0, {**MESSAGE, "content": []}),
        _text(0, 0, "Hel"),
        _event("response.output_text.done", output_index=0, content_index=0, text="Hello"),
        _event("response.output_text.done", output_index=0, content_index=0, text="Hello"),
    ]
    deltas, reader = _deltas(events)
    assert [d.text for d in deltas] == ["Hel", "lo"]
    assert reader.message.text == "Hello"


def test_stream_completed_without_output_takes_the_streamed_items() -> None:
    """A final response without `output` is read with the items the stream gave."""
    done = {**MESSAGE, "status": "completed", "content": [_block("Hi")]}
    events = [CREATED, _added(0, {**MESSAGE, "content": []}), _text(0, 0, "Hi"), _done(0, done)]
    reply = mp.message_from_stream([*events, _completed(None)], P)
    assert reply == mp.message_from_response(_completed([done])["response"], P)
    assert reply.parts[0].native[P]["item"]["status"] == "completed"


@pytest.mark.parametrize(
    ("kind", "stop", "raw"),
    [("response.completed", "end", "completed"), ("response.incomplete", "other", "incomplete")],
)
def test_stream_final_event_without_status_says_how_it_ended(
    kind: str, stop: str, raw: str
) -> None:
    """A final response that does not say its status has the one its event's type says."""
    final = _event(kind, response={"id": "resp_1", "status": None, "output": []})
    deltas, reader = _deltas([CREATED, final])
    assert (reader.result().stop_reason, reader.result().stop_reason_raw) == (stop, raw)
    assert (deltas[-1].stop_reason, deltas[-1].text) == (stop, raw)


def test_stream_custom_tool_call_grows_as_provider_deltas() -> None:
    """A custom tool call's input grows in `provider` deltas; the part is kept verbatim."""
    item = {"id": "ctc_1", "type": "custom_tool_call", "call_id": "call_9", "name": "sql"}
    whole = {**item, "input": "SELECT 1"}
    events = [
        CREATED,
        _added(0, {**item, "input": ""}),
        _event("response.custom_tool_call_input.delta", output_index=0, delta="SELECT "),
        _event("response.custom_tool_call_input.delta", output_index=0, delta="1"),
        _done(0, whole),
        _completed([whole]),
    ]
    deltas, reader = _deltas(events)
    assert [(d.kind, d.name, d.text) for d in deltas[:3]] == [
        ("provider", "custom_tool_call", ""),
        ("provider", "custom_tool_call", "SELECT "),
        ("provider", "custom_tool_call", "1"),
    ]
    assert reader.result().parts[0].data == whole


def test_stream_events_after_the_final_one_are_skipped() -> None:
    """Nothing follows the final event: a later event changes nothing."""
    case = _case("refusal")
    later = [_text(0, 0, "more"), case["events"][0]]
    assert mp.message_from_stream([*case["events"], *later], P) == mp.message_from_stream(
        case["events"], P
    )


# -- tool-call arguments -------------------------------------------------------------------------


def test_stream_partial_function_call_keeps_its_text() -> None:
    """Before the call is done, the message holds the arguments so far, not JSON yet."""
    case = _case("parallel_function_calls")
    reader = mp.StreamReader(P)
    for event in case["events"][:5]:
        reader.feed(event)
    assert reader.message.parts[0].arguments == '{"city":"P'
    assert reader.message.stop_reason is None


def test_stream_malformed_function_call_json_is_kept() -> None:
    """Arguments that never become JSON are kept as they arrived, byte for byte."""
    said = '{"city": "Par'
    whole = {**CALL, "status": "completed", "arguments": said}
    events = [
        CREATED,
        _added(0, {**CALL, "arguments": ""}),
        _event("response.function_call_arguments.delta", output_index=0, delta='{"city": '),
        _event("response.function_call_arguments.delta", output_index=0, delta='"Par'),
        _event("response.function_call_arguments.done", output_index=0, arguments=said),
        _done(0, whole),
        _completed([whole]),
    ]
    deltas, reader = _deltas(events)
    call = reader.result().parts[0]
    assert call.arguments == "".join(d.arguments for d in deltas if d.kind == "tool_call") == said
    with pytest.raises(mp.InvalidMedia, match="not valid JSON"):
        call.parsed_arguments()


# -- errors the API sends ------------------------------------------------------------------------

ERROR = {"code": "server_error", "message": "The server had an error while processing."}

ERRORS = [
    (
        "failed",
        _event("response.failed", response={"id": "resp_1", "status": "failed", "error": ERROR}),
        ERROR,
    ),
    (
        "error event",
        _event("error", code="rate_limit_exceeded", message="Slow down", param=None),
        {"type": "error", "code": "rate_limit_exceeded", "message": "Slow down", "param": None},
    ),
]


@pytest.mark.parametrize(("case", "event", "error"), ERRORS, ids=[e[0] for e in ERRORS])
def test_stream_api_error_raises_stream_error(
    case: str, event: dict[str, Any], error: dict[str, Any]
) -> None:
    """`response.failed` and `error` raise StreamError: the API's error, and the reply so far."""
    events = [CREATED, _added(0, {**MESSAGE, "content": []}), _text(0, 0, "Half a")]
    with pytest.raises(mp.StreamError) as caught:
        mp.message_from_stream([*events, event], P)
    assert caught.value.error == error
    assert str(error["message"]) in str(caught.value)
    assert caught.value.partial is not None and caught.value.partial.text == "Half a"
    assert caught.value.partial.stop_reason is None


def test_stream_api_error_from_the_sdk_keeps_the_error() -> None:
    """The SDK's `error` event object raises the same StreamError as its dict."""
    event = _event("error", code="server_error", message="Oops", param=None, sequence_number=3)
    client = _client(_sse([CREATED, event]))
    with pytest.raises(mp.StreamError) as caught:
        mp.message_from_stream(client.responses.create(model="m", input="hi", stream=True), P)
    assert caught.value.error == event


# -- hostile streams -----------------------------------------------------------------------------

HUGE = 10**18
OPEN = [CREATED, _added(0, {**MESSAGE, "content": []}), _text(0, 0, "x"), _added(1, REASONING)]

HUGE_INDEXES: list[tuple[dict[str, Any], str]] = [
    (_added(HUGE, REASONING), "response.output_item.added.output_index"),
    (_done(HUGE, REASONING), "response.output_item.done.output_index"),
    (_text(HUGE, 0, "x"), "response.output_text.delta.output_index"),
    (_text(0, HUGE, "x"), "response.output_text.delta.content_index"),
    (_text(0, HUGE, "x", "refusal"), "response.refusal.delta.content_index"),
    (
        _event(
            "response.reasoning_summary_text.delta", output_index=1, summary_index=HUGE, delta=""
        ),
        "response.reasoning_summary_text.delta.summary_index",
    ),
    (
        _event("response.reasoning_text.delta", output_index=1, content_index=HUGE, delta="x"),
        "response.reasoning_text.delta.content_index",
    ),
    (
        _event(
            "response.output_text.annotation.added",
            output_index=0,
            content_index=0,
            annotation_index=HUGE,
            annotation={"type": "url_citation", "url": "https://example.com"},
        ),
        "response.output_text.annotation.added.annotation_index",
    ),
    (
        _event("response.function_call_arguments.delta", output_index=-1, delta="x"),
        "response.function_call_arguments.delta.output_index",
    ),
]


@pytest.mark.parametrize(("event", "field"), HUGE_INDEXES, ids=[f for _, f in HUGE_INDEXES])
def test_stream_huge_index_is_invalid_media(event: dict[str, Any], field: str) -> None:
    """An index beyond what the stream has reached is InvalidMedia naming it, never a skip."""
    reader = mp.StreamReader(P)
    for opening in OPEN:
        reader.feed(opening)
    with pytest.raises(mp.InvalidMedia, match=field.replace(".", r"\.")):
        reader.feed(event)
    assert reader.message.text == "x"


MALFORMED: list[tuple[Any, str]] = [
    (42, "expected the SDK's response object or its dict"),
    ({"delta": "x"}, r"event\.type: expected a string"),
    (_text(0, 0, 5), r"response\.output_text\.delta\.delta: expected a string"),
    (_text("0", 0, "x"), r"output_text\.delta\.output_index: expected a whole number"),
    (_text(True, 0, "x"), r"output_text\.delta\.output_index: expected a whole number"),
    (_text(1, 0, "x"), r"output_index: output item 1 is a 'reasoning', not a message"),
    (_text(2, 0, "x"), r"output_index: no output item 2 has been added"),
    (_text(0, 0, "x", "refusal"), r"content_index: block 0 of output item 0 is a 'output_text'"),
    (_added(2, "an item"), r"response\.output_item\.added\.item: expected an object"),
    (_added(2, {"type": 7}), r"response\.output_item\.added\.item\.type: expected a string"),
    (_added(0, REASONING), r"output_item\.added\.output_index: output item 0 was added already"),
    (_done(1, {"type": "reasoning"}), r"output_item\.done\.item\.summary: expected an array"),
    (
        _event(
            "response.output_text.annotation.added",
            output_index=0,
            content_index=0,
            annotation_index=0,
            annotation=[1],
        ),
        r"annotation\.added\.annotation: expected an object",
    ),
    (_event("response.completed", response="done"), r"response\.completed\.response: expected"),
    (_completed([{"type": "message", "role": "user"}]), r"response\.output\[0\]"),
    (
        _event("response.created", response={"id": 5}),
        r"response\.created\.response\.id: expected a string",
    ),
]


@pytest.mark.parametrize(("event", "message"), MALFORMED, ids=[m for _, m in MALFORMED])
def test_stream_malformed_event_is_invalid_media(event: Any, message: str) -> None:
    """A malformed event is InvalidMedia naming its field; the reply so far still reads."""
    reader = mp.StreamReader(P)
    for opening in OPEN:
        reader.feed(opening)
    with pytest.raises(mp.InvalidMedia, match=message) as caught:
        reader.feed(event)
    assert not isinstance(caught.value, mp.StreamError)
    assert reader.message.text == "x"


def test_stream_many_deltas_read() -> None:
    """A stream of 20,000 one-character deltas reads whole (each event costs its own size)."""
    count = 20_000
    events = [CREATED, _added(0, {**MESSAGE, "content": []})]
    events += [_text(0, 0, "ab"[i % 2]) for i in range(count)]
    whole = {**MESSAGE, "status": "completed", "content": [_block("ab" * (count // 2))]}
    deltas, reader = _deltas([*events, _completed([whole])])
    assert len(deltas) == count + 1
    assert reader.result().text == "ab" * (count // 2)


def test_stream_many_items_read() -> None:
    """A stream of 5,000 output items keeps each delta's index in step with its part."""
    count = 5_000
    events: list[Any] = [CREATED]
    for k in range(count):
        events.append(_added(k, {**CALL, "id": f"fc_{k}", "call_id": f"c{k}", "arguments": ""}))
        events.append(_event("response.function_call_arguments.delta", output_index=k, delta="{}"))
    deltas, reader = _deltas([*events, _completed(None)])
    reply = reader.result()
    assert len(reply.parts) == count
    assert [d.index for d in deltas if d.kind == "tool_call"][-2:] == [count - 1, count - 1]


def _first_event_of(kind: str) -> Callable[[list[Any]], int]:
    return lambda events: next(i for i, e in enumerate(events) if e["type"] == kind)


def test_stream_unknown_events_with_fields_are_skipped() -> None:
    """Events of types the reader does not read (a server tool's progress) add nothing."""
    case = _case("web_search_url_citations")
    events = copy.deepcopy(case["events"])
    at = _first_event_of("response.output_item.done")(events)
    events.insert(at, _event("response.image_generation_call.partial_image", output_index=0))
    events.insert(at, _event("response.something_new_2027", output_index=HUGE, delta=7))
    assert mp.message_from_stream(events, P) == mp.message_from_stream(case["events"], P)
