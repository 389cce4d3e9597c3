"""Events of a streamed Responses reply, built by hand for the stream tests."""

from __future__ import annotations

import json
from typing import Any

import mediaparts as mp
from tests.providers._streams import STREAMS

P = "openai-responses"


def recorded(name: str) -> dict[str, Any]:
    """A recorded stream of `tests/golden/streams/openai-responses`."""
    found: dict[str, Any] = json.loads((STREAMS / P / f"{name}.json").read_text("utf-8"))
    return found


def read_deltas(events: list[Any]) -> tuple[list[mp.Delta], mp.StreamReader]:
    """The deltas of `events`, and the reader that read them."""
    reader = mp.StreamReader(P)
    return [d for event in events for d in reader.feed(event)], reader


def make_event(kind: str, **fields: Any) -> dict[str, Any]:
    """An event of `kind`."""
    return {"type": kind, **fields}


def item_added(index: int, item: dict[str, Any]) -> dict[str, Any]:
    """`response.output_item.added`."""
    return make_event("response.output_item.added", output_index=index, item=item)


def item_done(index: int, item: dict[str, Any]) -> dict[str, Any]:
    """`response.output_item.done`."""
    return make_event("response.output_item.done", output_index=index, item=item)


def text_delta(index: int, block: int, delta: str, kind: str = "output_text") -> dict[str, Any]:
    """A delta of a message block (`output_text`, or `refusal`)."""
    return make_event(
        f"response.{kind}.delta", output_index=index, content_index=block, delta=delta
    )


def text_block(text: str) -> dict[str, Any]:
    """A whole `output_text` block."""
    return {"type": "output_text", "text": text, "annotations": []}


MESSAGE = {"id": "msg_1", "type": "message", "role": "assistant", "status": "in_progress"}
CALL = {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "zoom"}
REASONING = {"id": "rs_1", "type": "reasoning", "summary": []}
CREATED = make_event("response.created", response={"id": "resp_1", "model": "m", "output": []})


def completed_with(output: list[Any] | None, **more: Any) -> dict[str, Any]:
    """`response.completed`; without `output` when it is None."""
    response = {"id": "resp_1", "model": "m", "status": "completed", **more}
    if output is not None:
        response["output"] = output
    return make_event("response.completed", response=response)
