"""Read a streamed reply (`responses.create(stream=True)`): its events in, deltas and the
message out.

The state keeps the response's shell (`response.created`, `response.in_progress`) and one
`Slot` per output item (`_stream_items.py`); `message()` builds the response dict as it stands
and reads it with `read_response`. The final event (`response.completed`, or
`response.incomplete`) carries the whole response, read with `read_response` itself, so the
streamed reply and the non-streamed one cannot drift. `response.failed` and `error` events
raise `StreamError`. Events of other types (a server tool's progress, audio, ...) are skipped:
the items they concern come whole in `output_item.done` and in the final response.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mediaparts._conversation._messages import Assistant
from mediaparts._errors import InvalidMedia
from mediaparts.providers._wire._deltas import SUMMARY, Delta, DeltaKind
from mediaparts.providers._wire._reading import as_dict, need, plain, shown
from mediaparts.providers._wire._rendering import Served
from mediaparts.providers._wire._streaming import api_error, event_index
from mediaparts.providers.wires.responses._read import (
    _assistant_side,
    _output_block,
    read_response,
)
from mediaparts.providers.wires.responses._stream_items import (
    REASONING_JOIN,
    Block,
    Offsets,
    Slot,
    block_grown,
    citation,
    grown,
    settled,
)

__all__ = ["stream"]

Event = dict[str, Any]

# The response's own keys that say it has ended: left out of the reply so far.
_ENDING = ("status", "incomplete_details", "output")

# A final event's type → the status its response has when it does not say one.
_FINAL = {"response.completed": "completed", "response.incomplete": "incomplete"}

# A message block's type → the key of its text, and the kind of delta that grows it.
_TEXT_KEYS = {"output_text": "text", "refusal": "refusal"}
_KINDS: dict[str, DeltaKind] = {"output_text": "text", "refusal": "refusal"}


def stream(served: Served) -> ResponsesStream:
    """Return the state that reads one streamed `responses.create` reply (see `StreamState`)."""
    return ResponsesStream(served)


class ResponsesStream:
    """One streamed Responses reply being read."""

    __slots__ = ("_final", "_offsets", "_served", "_shell", "_slots")

    def __init__(self, served: Served) -> None:
        self._served = served
        self._shell: dict[str, Any] = {}
        self._slots: list[Slot] = []
        self._offsets = Offsets()
        self._final: Assistant | None = None

    @property
    def finished(self) -> bool:
        """Whether the final event (`response.completed` or `response.incomplete`) arrived."""
        return self._final is not None

    def feed(self, event: Any, /) -> list[Delta]:
        """Take one event (the SDK's object or its dict); return the deltas it added."""
        # Only the fields the API sent, by their API names (`async`, not `async_`).
        body = plain(event, mode="json", by_alias=True, sent=True)
        kind = body.get("type")
        if not isinstance(kind, str):
            raise InvalidMedia(f"event.type: expected a string, got {shown(kind)}")
        if kind == "error":
            raise api_error(self._served.name, body)
        if self._final is not None:
            return []  # nothing follows the final event; a successor response is another stream
        if kind == "response.failed":
            response = as_dict(body.get("response"), f"{kind}.response")
            error = response.get("error")
            raise api_error(self._served.name, error, "response.failed")
        if kind in _FINAL:
            return self._finish(body, kind)
        handler = _HANDLERS.get(kind)
        return [] if handler is None else handler(self, body, kind)

    def message(self) -> Assistant:
        """Return the message so far (the final response's, once it has arrived)."""
        if self._final is not None:
            return self._final
        body = {k: v for k, v in self._shell.items() if k not in _ENDING}
        body["output"] = [item for slot in self._slots if (item := slot.built()) is not None]
        return read_response(body, self._served)

    # -- the response --------------------------------------------------------------------------

    def _shell_of(self, event: Event, at: str) -> list[Delta]:
        """`response.created`, `.queued` and `.in_progress`: the response as it begins."""
        shell = as_dict(event.get("response"), f"{at}.response")
        for key in ("id", "model"):
            value = shell.get(key)
            if value is not None and not isinstance(value, str):
                raise InvalidMedia(f"{at}.response.{key}: expected a string, got {shown(value)}")
        self._shell = shell
        return []

    def _finish(self, event: Event, at: str) -> list[Delta]:
        response = as_dict(event.get("response"), f"{at}.response")
        if response.get("status") is None:  # the event's type says how it ended
            response["status"] = _FINAL[at]
        if response.get("output") is None:  # a stream may leave the items to their done events
            response["output"] = [i for slot in self._slots if (i := slot.built()) is not None]
        reply = read_response(response, self._served)
        deltas: list[Delta] = []
        held = [k for k, slot in enumerate(self._slots) if slot.item is not None]
        for n, item in enumerate(response["output"]):
            k = held[n] if n < len(held) else len(self._slots)
            deltas += self._take(k, as_dict(item, f"{at}.response.output[{n}]"), at)
        if reply.usage is not None:
            deltas.append(Delta(kind="usage", usage=reply.usage))
        raw = reply.stop_reason_raw or ""
        deltas.append(Delta(kind="stop", stop_reason=reply.stop_reason, text=raw))
        self._final = reply
        return deltas

    # -- items ---------------------------------------------------------------------------------

    def _take(self, k: int, item: dict[str, Any], at: str, *, final: bool = True) -> list[Delta]:
        """Put the whole `item` at slot `k`; return the deltas of what it adds."""
        new = Slot(item, final=final)
        old = self._slots[k] if k < len(self._slots) else Slot()
        deltas = grown(old, new, self._offsets.start(k), at, self._served)
        new.announced = True
        if k == len(self._slots):
            self._slots.append(new)
        else:
            self._slots[k] = new
        self._offsets.set(k, new.count)
        return deltas

    def _item_added(self, event: Event, at: str) -> list[Delta]:
        k = event_index(event.get("output_index"), f"{at}.output_index", len(self._slots))
        if k < len(self._slots):
            raise InvalidMedia(f"{at}.output_index: output item {k} was added already")
        raw = event.get("item")
        if raw is None:  # an empty added event: the index is taken, nothing is in it
            self._slots.append(Slot())
            self._offsets.set(k, 0)
            return []
        item = self._checked(raw, f"{at}.item")
        return self._take(k, item, at, final=False)

    def _item_done(self, event: Event, at: str) -> list[Delta]:
        k = event_index(event.get("output_index"), f"{at}.output_index", len(self._slots))
        return self._take(k, self._checked(event.get("item"), f"{at}.item"), at)

    def _checked(self, raw: Any, at: str) -> dict[str, Any]:
        """An item, read once as `read_response` reads it (so the reply so far always reads)."""
        item = as_dict(raw, at)
        _assistant_side(item, at, self._served)
        return item

    def _slot(self, event: Event, at: str, *kinds: str) -> tuple[int, Slot]:
        """The slot an event's `output_index` names: an item already added, of one of `kinds`."""
        k = event_index(event.get("output_index"), f"{at}.output_index", len(self._slots))
        slot = self._slots[k] if k < len(self._slots) else None
        if slot is None or slot.item is None:
            raise InvalidMedia(f"{at}.output_index: no output item {k} has been added")
        if slot.kind not in kinds:
            raise InvalidMedia(
                f"{at}.output_index: output item {k} is a {shown(slot.kind)}, not a {kinds[0]}"
            )
        return k, slot

    # -- message blocks ------------------------------------------------------------------------

    def _block(self, event: Event, at: str, kind: str) -> tuple[int, Block]:
        """The message block of type `kind` an event names (`content_index`), begun here when
        it is the next one (a stream that left out `content_part.added`)."""
        k, slot = self._slot(event, at, "message")
        j = event_index(event.get("content_index"), f"{at}.content_index", len(slot.blocks))
        if j == len(slot.blocks):
            part: dict[str, Any] = {"type": kind, _TEXT_KEYS[kind]: ""}
            if kind == "output_text":
                part["annotations"] = []
            slot.blocks.append(Block.of_message(part))
            self._offsets.set(k, slot.count)
        block = slot.blocks[j]
        if block.block.get("type") != kind:
            raise InvalidMedia(
                f"{at}.content_index: block {j} of output item {k} is a "
                f"{shown(block.block.get('type'))}, not a {kind}"
            )
        return self._offsets.start(k) + j, block

    def _part(self, event: Event, at: str) -> list[Delta]:
        """`content_part.added` / `.done`: a message block (or a reasoning text) whole."""
        k, slot = self._slot(event, at, "message", "reasoning")
        if slot.kind == "reasoning":
            return self._reasoning_text(event, at)
        j = event_index(event.get("content_index"), f"{at}.content_index", len(slot.blocks))
        part = as_dict(event.get("part"), f"{at}.part")
        _output_block(part, f"{at}.part", self._served)
        new = Block.of_message(part)
        old = slot.blocks[j] if j < len(slot.blocks) else None
        if old is not None and (old.kind != new.kind or not new.holds(old)):
            return []  # a block that changed rather than grew: what was read stays
        deltas = block_grown(old, new, self._offsets.start(k) + j, f"{at}.part", self._served)
        if old is None:
            slot.blocks.append(new)
            self._offsets.set(k, slot.count)
        else:
            slot.blocks[j] = new
        return deltas

    def _text_delta(self, event: Event, at: str, kind: str) -> list[Delta]:
        """`output_text.delta` / `refusal.delta`: a fragment of a message block."""
        index, block = self._block(event, at, kind)
        fragment = need(event, "delta", at, str)
        block.text.add(fragment)
        return [Delta(kind=_KINDS[kind], index=index, text=fragment)] if fragment else []

    def _text_done(self, event: Event, at: str, kind: str) -> list[Delta]:
        """`output_text.done` / `refusal.done`: a message block's whole text."""
        index, block = self._block(event, at, kind)
        grew = block.settle(need(event, _TEXT_KEYS[kind], at, str))
        return [Delta(kind=_KINDS[kind], index=index, text=grew)] if grew else []

    def _annotation(self, event: Event, at: str) -> list[Delta]:
        """`output_text.annotation.added`: a citation of a text block."""
        index, block = self._block(event, at, "output_text")
        notes = block.notes
        said = event_index(event.get("annotation_index"), f"{at}.annotation_index", len(notes))
        note = as_dict(event.get("annotation"), f"{at}.annotation")
        delta = citation(note, index, f"{at}.annotation", self._served)
        if said == len(block.notes):
            block.notes.append(note)
        else:
            block.notes[said] = note
        return [delta]

    # -- tool calls ----------------------------------------------------------------------------

    def _tool_delta(self, event: Event, at: str, kind: str) -> list[Delta]:
        """`function_call_arguments.delta` / `custom_tool_call_input.delta`."""
        k, slot = self._slot(event, at, kind)
        fragment = need(event, "delta", at, str)
        slot.text.add(fragment)
        return self._said(k, slot, fragment)

    def _tool_done(self, event: Event, at: str, kind: str) -> list[Delta]:
        """`function_call_arguments.done` / `custom_tool_call_input.done`: the whole text."""
        k, slot = self._slot(event, at, kind)
        slot.text, grew = settled(slot.text, need(event, slot.field, at, str))
        return self._said(k, slot, grew) if grew else []

    def _said(self, k: int, slot: Slot, fragment: str) -> list[Delta]:
        index = self._offsets.start(k)
        if slot.kind == "custom_tool_call":
            return [Delta(kind="provider", index=index, name=slot.kind, text=fragment)]
        return [Delta(kind="tool_call", index=index, arguments=fragment)]

    # -- reasoning -----------------------------------------------------------------------------

    def _summary(self, event: Event, at: str) -> list[Delta]:
        """`reasoning_summary_part.*` (`part`) and `reasoning_summary_text.*` (`delta`, `text`)."""
        k, slot = self._slot(event, at, "reasoning")
        s = event_index(event.get("summary_index"), f"{at}.summary_index", len(slot.summary))
        if s == len(slot.summary):
            slot.summary.append(Block.of_reasoning({"type": "summary_text", "text": ""}))
        return self._grow(slot.summary[s], event, at, self._offsets.start(k), SUMMARY)

    def _reasoning_text(self, event: Event, at: str) -> list[Delta]:
        """`reasoning_text.delta` / `.done`, and a reasoning item's `content_part.*`."""
        k, slot = self._slot(event, at, "reasoning")
        j = event_index(event.get("content_index"), f"{at}.content_index", len(slot.blocks))
        index = self._offsets.start(k)
        deltas = []
        if j == len(slot.blocks):
            slot.blocks.append(Block.of_reasoning({"type": "reasoning_text", "text": ""}))
            if j:  # `read_response` joins the texts with a blank line
                deltas.append(Delta(kind="reasoning", index=index, text=REASONING_JOIN))
        return deltas + self._grow(slot.blocks[j], event, at, index)

    def _grow(
        self, block: Block, event: Event, at: str, index: int, name: str | None = None
    ) -> list[Delta]:
        """Grow a reasoning block by an event's `delta`, or settle it to its `text` or `part`
        (`name` is "summary" for a summary's deltas)."""
        if "delta" in event:
            fragment = need(event, "delta", at, str)
            block.text.add(fragment)
            if not fragment:
                return []
            return [Delta(kind="reasoning", index=index, text=fragment, name=name)]
        if "part" in event:
            part = as_dict(event["part"], f"{at}.part")
            final = need(part, "text", f"{at}.part", str)
            block.block = {k: v for k, v in part.items() if k != "text"} | {"text": ""}
        else:
            final = need(event, "text", at, str)
        grew = block.settle(final)
        return [Delta(kind="reasoning", index=index, text=grew, name=name)] if grew else []


Handler = Callable[[ResponsesStream, Event, str], list[Delta]]

_HANDLERS: dict[str, Handler] = {
    "response.created": ResponsesStream._shell_of,
    "response.queued": ResponsesStream._shell_of,
    "response.in_progress": ResponsesStream._shell_of,
    "response.output_item.added": ResponsesStream._item_added,
    "response.output_item.done": ResponsesStream._item_done,
    "response.content_part.added": ResponsesStream._part,
    "response.content_part.done": ResponsesStream._part,
    "response.output_text.delta": lambda s, e, at: s._text_delta(e, at, "output_text"),
    "response.output_text.done": lambda s, e, at: s._text_done(e, at, "output_text"),
    "response.refusal.delta": lambda s, e, at: s._text_delta(e, at, "refusal"),
    "response.refusal.done": lambda s, e, at: s._text_done(e, at, "refusal"),
    "response.output_text.annotation.added": ResponsesStream._annotation,
    "response.function_call_arguments.delta": (
        lambda s, e, at: s._tool_delta(e, at, "function_call")
    ),
    "response.function_call_arguments.done": lambda s, e, at: s._tool_done(e, at, "function_call"),
    "response.custom_tool_call_input.delta": (
        lambda s, e, at: s._tool_delta(e, at, "custom_tool_call")
    ),
    "response.custom_tool_call_input.done": (
        lambda s, e, at: s._tool_done(e, at, "custom_tool_call")
    ),
    "response.reasoning_summary_part.added": ResponsesStream._summary,
    "response.reasoning_summary_part.done": ResponsesStream._summary,
    "response.reasoning_summary_text.delta": ResponsesStream._summary,
    "response.reasoning_summary_text.done": ResponsesStream._summary,
    "response.reasoning_text.delta": ResponsesStream._reasoning_text,
    "response.reasoning_text.done": ResponsesStream._reasoning_text,
}
