"""Read a streamed Messages API response: events in, deltas out, the `Message` built on demand.

The state keeps what the non-streamed `Message` would hold — the shell `message_start` gave,
each content block as `content_block_start` gave it plus the text, thinking, JSON and citations
its deltas added, and what `message_delta` said — and `message()` reads that dict with the
wire's own `read_response`, so a stream and the response of the same content cannot read
differently.

Events (anthropic-sdk-python 2.17 `RawMessageStreamEvent`, and the "Streaming Messages" page of
the API docs, read 2026-12-05):

- `message_start`: the message shell (id, model, usage so far; its `content` is empty).
- `content_block_start` (`index`, `content_block`): a block begins, at the next index.
- `content_block_delta` (`index`, `delta`): `text_delta` (a text block), `thinking_delta` and
  `signature_delta` (a thinking block; the signature replaces the one held, as the SDK's
  accumulator does), `input_json_delta` (the JSON text of a `tool_use`, `server_tool_use` or
  `mcp_tool_use` block's `input`, decoded when the message is read: no fragment keeps the
  block's own `input`), `citations_delta` (a citation appended to a text block's list). A
  delta of a type the block does not take, or of an unknown type, is skipped (as the SDK does).
- `content_block_stop`: nothing to add (the block's index is checked).
- `message_delta`: `stop_reason`, `stop_sequence`, `stop_details` (held until `message_stop`,
  so the message so far has no stop reason before the end), and cumulative `usage`, merged as
  the SDK merges it: each count it gives replaces the one held, a count it leaves out or sends
  as null keeps it.
- `message_stop`: the final event.
- `error`: `StreamError`, its `error` the API's error object (`{"type": "overloaded_error",
  ...}`).
- `ping`, the SDK `MessageStream` helper's own events (`text`, `input_json`, `citation`,
  `thinking`, `signature`, which repeat a raw delta) and any event type not listed here are
  skipped; the snapshots the helper adds to `content_block_stop` and `message_stop` are not
  read, so nothing is counted twice.

A block that arrives whole at its start (`redacted_thinking`, `web_search_tool_result` and the
other server-tool results, a block type not known here) is kept as `read_response` keeps it.
Tool input JSON that never becomes a JSON object is kept as the text that arrived: the
`ToolCall`'s `arguments` (a server tool's block keeps it as its `input`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mediaparts._conversation._json_data import json_text
from mediaparts._conversation._messages import Assistant, Usage
from mediaparts._errors import InvalidMedia, MediaError
from mediaparts.providers._wire._deltas import Delta
from mediaparts.providers._wire._reading import (
    as_dict,
    as_list,
    located,
    maybe,
    need,
    plain,
    shown,
)
from mediaparts.providers._wire._reading import stop_reason as read_stop_reason
from mediaparts.providers._wire._rendering import Served
from mediaparts.providers._wire._streaming import Fragments, api_error, event_index, json_object
from mediaparts.providers.wires.messages._read import _citation, _usage, read_response
from mediaparts.providers.wires.messages._shapes import STOP_REASONS

__all__ = ["stream"]

# Block types whose `input` streams as `input_json_delta` fragments (the SDK's TRACKS_TOOL_INPUT,
# and the beta's MCP tool use).
_TAKES_JSON = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})

# The events read; any other type (`ping`, the helper's synthetic events, one added later) is
# skipped without being dumped.
_READ = frozenset(
    {
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "error",
    }
)

# What `message_delta` says that the message holds only once the stream has ended.
_ENDING = ("stop_reason", "stop_sequence", "stop_details")


def stream(served: Served) -> MessagesStream:
    """Return a fresh reader of one streamed `messages.create` response (`StreamState`)."""
    return MessagesStream(served)


class _StreamedBlock:
    """One content block as it grows: the block its start gave, and what its deltas added."""

    __slots__ = ("citations", "json", "node", "signature", "text", "type")

    def __init__(self, node: dict[str, Any], kind: str) -> None:
        self.node = node
        self.type = kind
        self.text = Fragments()  # a text block's text, a thinking block's thinking
        self.json = Fragments()  # a tool block's input JSON text
        self.citations: list[Any] | None = None
        self.signature: str | None = None

    def dump(self) -> tuple[dict[str, Any], str | None]:
        """Return the block as the non-streamed `Message` holds it, and the raw input text
        when its JSON never became a JSON object (the block then holds `{}`)."""
        node = dict(self.node)
        if self.type == "text":
            node["text"] = str(self.text)
            if self.citations is not None:
                node["citations"] = list(self.citations)
        elif self.type == "thinking":
            node["thinking"] = str(self.text)
            signature = self.signature if self.signature is not None else node.get("signature")
            node["signature"] = signature if signature is not None else ""  # not yet arrived
        elif self.type in _TAKES_JSON and self.json:
            said = str(self.json)
            parsed = json_object(said)
            if parsed is None:
                if self.type != "tool_use":
                    node["input"] = said
                    return node, None
                node["input"] = {}
                return node, said
            node["input"] = parsed
        return node, None


class MessagesStream:
    """The `StreamState` of one streamed Messages API response (see the module docstring)."""

    __slots__ = ("_blocks", "_ending", "_finished", "_served", "_shell", "_tool_calls", "_usage")

    def __init__(self, served: Served) -> None:
        self._served = served
        self._shell: dict[str, Any] | None = None
        self._blocks: list[_StreamedBlock] = []
        self._usage: dict[str, Any] = {}
        self._ending: dict[str, Any] = {}
        self._finished = False
        self._tool_calls = 0

    @property
    def finished(self) -> bool:
        """Whether `message_stop` has arrived."""
        return self._finished

    def feed(self, event: Any, /) -> list[Delta]:
        """Take one event (the SDK's object or its dict); return the deltas it added.

        Raises:
            InvalidMedia: The event is malformed, naming its field.
            StreamError: The event is the API's `error`.
        """
        node = _event_dict(event)
        kind = node.get("type")
        if not isinstance(kind, str):
            raise InvalidMedia(f"event.type: expected the event's type, got {shown(kind)}")
        match kind:
            case "message_start":
                return self._message_start(node)
            case "error":
                raise api_error(self._served.name, node.get("error"))
            case "content_block_start" | "content_block_delta" | "content_block_stop":
                self._need_start(kind)
                if kind == "content_block_start":
                    return self._block_start(node)
                if kind == "content_block_delta":
                    return self._block_delta(node)
                index, block = self._started(node, "content_block_stop.index")
                if block.type == "tool_use" and not block.json:
                    # A call of a tool without parameters streams no input (or only ""):
                    # its arguments, said once, so a tool call's deltas add up to its JSON.
                    return [Delta(kind="tool_call", index=index, arguments=_arguments(block))]
                return []
            case "message_delta":
                self._need_start(kind)
                return self._message_delta(node)
            case "message_stop":
                self._need_start(kind)
                self._finished = True
                return []
            case _:
                return []

    def message(self) -> Assistant:
        """Return the message so far (no stop reason until `message_stop`)."""
        node: dict[str, Any] = dict(self._shell) if self._shell is not None else {}
        raw: dict[int, str] = {}
        content: list[dict[str, Any]] = []
        for i, block in enumerate(self._blocks):
            dumped, text = block.dump()
            content.append(dumped)
            if text is not None:
                raw[i] = text
        node["content"] = content
        if self._counted():
            node["usage"] = dict(self._usage)
        for key in _ENDING:
            node.pop(key, None)
        if self._finished:
            node.update((k, v) for k, v in self._ending.items() if k in _ENDING)
        reply = read_response(node, self._served)
        if not raw:
            return reply
        parts = list(reply.parts)
        for i, text in raw.items():
            parts[i] = parts[i].model_copy(update={"arguments": text})
        return reply.model_copy(update={"parts": tuple(parts)})

    def _need_start(self, kind: str) -> None:
        if self._shell is None:
            raise InvalidMedia(f"{kind}: arrived before message_start (the stream's first event)")

    def _message_start(self, node: dict[str, Any]) -> list[Delta]:
        if self._shell is not None:
            raise InvalidMedia("message_start: a second message_start in one stream")
        message = as_dict(node.get("message"), "message_start.message")
        at = "message_start.message"
        maybe(message, "id", at, str)
        maybe(message, "model", at, str)
        content = as_list(message.pop("content", None) or [], f"{at}.content")
        usage = message.pop("usage", None)
        self._shell = message
        deltas: list[Delta] = []
        if usage is not None:
            self._usage = as_dict(usage, f"{at}.usage")
            deltas.extend(self._usage_delta(at))
        for i, block in enumerate(content):
            deltas.extend(self._begin(i, block, f"{at}.content[{i}]"))
        return deltas

    def _block_start(self, node: dict[str, Any]) -> list[Delta]:
        at = "content_block_start.index"
        index = event_index(node.get("index"), at, len(self._blocks))
        if index < len(self._blocks):
            raise InvalidMedia(f"{at}: block {index} has already started")
        return self._begin(index, node.get("content_block"), "content_block_start.content_block")

    def _begin(self, index: int, value: Any, at: str) -> list[Delta]:
        """Start block `index`; return the delta announcing its part."""
        node = as_dict(value, at)
        kind = need(node, "type", at, str)
        block = _StreamedBlock(node, kind)
        delta: Delta
        if kind == "text":
            text = maybe(node, "text", at, str) or ""
            if node.get("citations") is not None:
                items = as_list(node["citations"], f"{at}.citations")
                for i, item in enumerate(items):
                    _citation(self._served, item, f"{at}.citations[{i}]")
                block.citations = items
            block.text.add(text)
            delta = Delta(kind="text", index=index, text=text)
        elif kind == "thinking":
            text = maybe(node, "thinking", at, str) or ""
            maybe(node, "signature", at, str)
            block.text.add(text)
            delta = Delta(kind="reasoning", index=index, text=text)
        elif kind == "redacted_thinking":
            need(node, "data", at, str)
            delta = Delta(kind="reasoning", index=index)
        elif kind == "tool_use":
            call_id, name = need(node, "id", at, str), need(node, "name", at, str)
            given = {} if node.get("input") is None else as_dict(node["input"], f"{at}.input")
            with located(f"{at}.input"):
                arguments = json_text(given, what="the tool input") if given else ""
            delta = Delta(kind="tool_call", index=index, id=call_id, name=name, arguments=arguments)
            self._tool_calls += 1
        else:
            # A block read_response keeps whole: its shape is not checked here either.
            block_id = node.get("id")
            block_id = block_id if isinstance(block_id, str) else None
            delta = Delta(kind="provider", index=index, name=kind, id=block_id)
        self._blocks.append(block)
        return [delta]

    def _started(self, node: dict[str, Any], at: str) -> tuple[int, _StreamedBlock]:
        """Return the index an event names, of a block that has started, and the block."""
        index = event_index(node.get("index"), at, len(self._blocks))
        if index == len(self._blocks):
            raise InvalidMedia(f"{at}: block {index} has not started (no content_block_start)")
        return index, self._blocks[index]

    def _block_delta(self, node: dict[str, Any]) -> list[Delta]:
        index, block = self._started(node, "content_block_delta.index")
        at = "content_block_delta.delta"
        delta = as_dict(node.get("delta"), at)
        match need(delta, "type", at, str):
            case "text_delta" if block.type == "text":
                text = need(delta, "text", at, str)
                block.text.add(text)
                return [Delta(kind="text", index=index, text=text)]
            case "thinking_delta" if block.type == "thinking":
                text = need(delta, "thinking", at, str)
                block.text.add(text)
                return [Delta(kind="reasoning", index=index, text=text)]
            case "signature_delta" if block.type == "thinking":
                block.signature = need(delta, "signature", at, str)
                return []  # a signature is no text: the part's text does not grow
            case "input_json_delta" if block.type in _TAKES_JSON:
                fragment = need(delta, "partial_json", at, str)
                block.json.add(fragment)
                if block.type == "tool_use":
                    return [Delta(kind="tool_call", index=index, arguments=fragment)]
                return [Delta(kind="provider", index=index, name=block.type, arguments=fragment)]
            case "citations_delta" if block.type == "text":
                item = as_dict(delta.get("citation"), f"{at}.citation")
                citation = _citation(self._served, item, f"{at}.citation")
                if block.citations is None:
                    block.citations = []
                block.citations.append(item)
                return [Delta(kind="citation", index=index, citation=citation)]
            case _:
                return []  # a delta of another type, or one the block does not take

    def _message_delta(self, node: dict[str, Any]) -> list[Delta]:
        deltas: list[Delta] = []
        said = as_dict(node.get("delta") or {}, "message_delta.delta")
        reason, raw = read_stop_reason(
            said.get("stop_reason"), STOP_REASONS, "message_delta.delta.stop_reason"
        )
        maybe(said, "stop_sequence", "message_delta.delta", str)
        if node.get("usage") is not None:
            given = as_dict(node["usage"], "message_delta.usage")
            self._usage.update((k, v) for k, v in given.items() if v is not None)
            deltas.extend(self._usage_delta("message_delta"))
        self._ending.update(said)
        if reason is not None:
            if reason == "end" and self._tool_calls:
                reason = "tool_call"  # the reply asks for tools (as every wire's reader says)
            deltas.append(Delta(kind="stop", text=raw or "", stop_reason=reason))
        return deltas

    def _counted(self) -> bool:
        """Whether the stream has said both token counts a usage needs (an abridged stream,
        as in the API docs' examples, may leave them out: the message then has no usage)."""
        return all(self._usage.get(k) is not None for k in ("input_tokens", "output_tokens"))

    def _usage_delta(self, at: str) -> list[Delta]:
        """Return the usage delta: the message's usage so far, once it is known."""
        if not self._counted():
            return []
        with located(at):
            usage: Usage | None = _usage(self._usage)
        return [Delta(kind="usage", usage=usage)]


def _arguments(block: _StreamedBlock) -> str:
    """The JSON text of a tool call whose input came whole at its start (`{}`, as a rule)."""
    given = block.node.get("input")
    return json_text(given if isinstance(given, Mapping) else {}, what="the tool input")


# The one field of each delta that carries its content, by the delta's type.
_DELTA_FIELDS = {
    "text_delta": "text",
    "thinking_delta": "thinking",
    "input_json_delta": "partial_json",
    "signature_delta": "signature",
}


def _event_dict(event: Any) -> dict[str, Any]:
    """Return an event as a dict: an SDK object dumped with the fields the API sent.

    An SDK object of a type not read here (the helper's synthetic events, `ping`) is not
    dumped, nor the snapshot the helper adds to `content_block_stop` and `message_stop`.
    """
    if type(event) is dict:
        return event  # read, never changed: its keys are checked where they are read
    if isinstance(event, Mapping):
        return as_dict(event, "event")
    if not callable(getattr(event, "model_dump", None)):
        raise InvalidMedia(
            f"event: expected a stream event (the SDK's object or its dict), "
            f"got {type(event).__name__}"
        )
    kind = getattr(event, "type", None)
    if isinstance(kind, str) and kind not in _READ:
        return {"type": kind}
    if kind in ("content_block_stop", "message_stop"):
        return {"type": kind, "index": getattr(event, "index", None)}
    if kind == "content_block_delta":
        # Most of a stream: its one field read straight from the object, not the whole dumped
        # (checked as any dict's is, downstream: the SDK builds its objects unvalidated).
        delta = getattr(event, "delta", None)
        said = getattr(delta, "type", None)
        field = _DELTA_FIELDS.get(said) if isinstance(said, str) else None
        if field is not None:
            value = getattr(delta, field, None)
            return {
                "type": kind,
                "index": getattr(event, "index", None),
                "delta": {"type": said, field: value},
            }
    try:
        return plain(event, sent=True)
    except MediaError as exc:
        raise InvalidMedia(f"event: {exc}") from exc
