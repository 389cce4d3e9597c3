"""Hostile Responses streams: indexes beyond what the stream reached, malformed fields, and
streams of many events, each read at a cost in proportion to its events."""

from __future__ import annotations

from typing import Any

import pytest

import mediaparts as mp
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


def _wrong(value: object) -> Any:
    """`value`, of a type the helper it is passed to would not take: for malformed events."""
    return value


# -- hostile streams -----------------------------------------------------------------------------

HUGE = 10**18
OPEN = [
    CREATED,
    item_added(0, {**MESSAGE, "content": []}),
    text_delta(0, 0, "x"),
    item_added(1, REASONING),
]

HUGE_INDEXES: list[tuple[dict[str, Any], str]] = [
    (item_added(HUGE, REASONING), "response.output_item.added.output_index"),
    (item_done(HUGE, REASONING), "response.output_item.done.output_index"),
    (text_delta(HUGE, 0, "x"), "response.output_text.delta.output_index"),
    (text_delta(0, HUGE, "x"), "response.output_text.delta.content_index"),
    (text_delta(0, HUGE, "x", "refusal"), "response.refusal.delta.content_index"),
    (
        make_event(
            "response.reasoning_summary_text.delta", output_index=1, summary_index=HUGE, delta=""
        ),
        "response.reasoning_summary_text.delta.summary_index",
    ),
    (
        make_event("response.reasoning_text.delta", output_index=1, content_index=HUGE, delta="x"),
        "response.reasoning_text.delta.content_index",
    ),
    (
        make_event(
            "response.output_text.annotation.added",
            output_index=0,
            content_index=0,
            annotation_index=HUGE,
            annotation={"type": "url_citation", "url": "https://example.com"},
        ),
        "response.output_text.annotation.added.annotation_index",
    ),
    (
        make_event("response.function_call_arguments.delta", output_index=-1, delta="x"),
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
    (text_delta(0, 0, _wrong(5)), r"response\.output_text\.delta\.delta: expected a string"),
    (text_delta(_wrong("0"), 0, "x"), r"output_text\.delta\.output_index: expected a whole number"),
    (text_delta(True, 0, "x"), r"output_text\.delta\.output_index: expected a whole number"),
    (text_delta(1, 0, "x"), r"output_index: output item 1 is a 'reasoning', not a message"),
    (text_delta(2, 0, "x"), r"output_index: no output item 2 has been added"),
    (
        text_delta(0, 0, "x", "refusal"),
        r"content_index: block 0 of output item 0 is a 'output_text'",
    ),
    (item_added(2, _wrong("an item")), r"response\.output_item\.added\.item: expected an object"),
    (item_added(2, {"type": 7}), r"response\.output_item\.added\.item\.type: expected a string"),
    (
        item_added(0, REASONING),
        r"output_item\.added\.output_index: output item 0 was added already",
    ),
    (item_done(1, {"type": "reasoning"}), r"output_item\.done\.item\.summary: expected an array"),
    (
        make_event(
            "response.output_text.annotation.added",
            output_index=0,
            content_index=0,
            annotation_index=0,
            annotation=[1],
        ),
        r"annotation\.added\.annotation: expected an object",
    ),
    (make_event("response.completed", response="done"), r"response\.completed\.response: expected"),
    (completed_with([{"type": "message", "role": "user"}]), r"response\.output\[0\]"),
    (
        make_event("response.created", response={"id": 5}),
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
    events = [CREATED, item_added(0, {**MESSAGE, "content": []})]
    events += [text_delta(0, 0, "ab"[i % 2]) for i in range(count)]
    whole = {**MESSAGE, "status": "completed", "content": [text_block("ab" * (count // 2))]}
    deltas, reader = read_deltas([*events, completed_with([whole])])
    assert len(deltas) == count + 1
    assert reader.result().text == "ab" * (count // 2)


def test_stream_many_items_read() -> None:
    """A stream of 5,000 output items keeps each delta's index in step with its part."""
    count = 5_000
    events: list[Any] = [CREATED]
    for k in range(count):
        events.append(item_added(k, {**CALL, "id": f"fc_{k}", "call_id": f"c{k}", "arguments": ""}))
        events.append(
            make_event("response.function_call_arguments.delta", output_index=k, delta="{}")
        )
    deltas, reader = read_deltas([*events, completed_with(None)])
    reply = reader.result()
    assert len(reply.parts) == count
    assert [d.index for d in deltas if d.kind == "tool_call"][-2:] == [count - 1, count - 1]


def test_stream_unknown_events_with_fields_are_skipped() -> None:
    """Events of types the reader does not read (a server tool's progress) add nothing."""
    case = recorded("web_search_url_citations")
    events = list(case["events"])
    at = next(i for i, e in enumerate(events) if e["type"] == "response.output_item.done")
    events.insert(at, make_event("response.image_generation_call.partial_image", output_index=0))
    events.insert(at, make_event("response.something_new_2027", output_index=HUGE, delta=7))
    assert mp.message_from_stream(events, P) == mp.message_from_stream(case["events"], P)
