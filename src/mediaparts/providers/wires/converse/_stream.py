"""Read a `ConverseStream` reply: the event dicts of `client.converse_stream(...)["stream"]`.

The state gathers the events into the `client.converse` response of the same content and reads
it with `read_response`, so a streamed reply and a non-streamed one cannot drift. Event and
field names: botocore 1.44's bedrock-runtime service model (`ConverseStreamOutput`,
`ContentBlockStart`, `ContentBlockDelta`; service-2.json, read 2026-12-05).

How the events become the blocks of `output.message.content` (one block per
`contentBlockIndex`, one part per block, so a delta's `index` is its block's index):

- Text: `delta.text` fragments; a block that also had `delta.citation`s is a
  `citationsContent` block (its text as one content piece, the citations in order).
- Tool use: `start.toolUse` (`toolUseId`, `name`, `type`) and `delta.toolUse.input` JSON
  fragments, parsed once when the message is read (none at all: `{}`); input that is not a
  JSON object is kept as the text that arrived, as the `ToolCall.arguments`.
- Reasoning: `delta.reasoningContent.text` and `.signature` fragments (`reasoningText`), or
  `.redactedContent` bytes (`redactedContent`; base64 text in JSON is decoded).
- Images: `start.image.format`, then `delta.image.source` bytes (appended) or `s3Location`.
- Tool results (of a tool the API ran): `start.toolResult` and `delta.toolResult` items, the
  text of consecutive text items joined.
- A block whose start or first delta this reader does not know (member `key`) is kept as a
  `ProviderPart` holding what arrived, `{key: {"start": {key: ...}, "deltas": [{...}, ...]}}`
  (so is an image block before its first bytes); a delta member it does not know, for a block
  of a kind it does, is skipped, as is an event type it does not know.
- A `contentBlockStop` for the next block (none of its events came before) is an empty text
  block: Converse starts a text block with its first delta.

`finished` is true once `messageStop` has arrived (it carries the stop reason); `metadata`
(usage, metrics) usually follows, and a stream cut between the two reads with no usage.
An error event (`throttlingException`, `modelStreamErrorException`, ...) raises
`StreamError`, its `error` the event's dict. Converse never names the model.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from mediaparts._conversation._messages import Assistant
from mediaparts._conversation._parts import Part, ToolCall
from mediaparts._errors import InvalidMedia, MediaError, rewrap
from mediaparts._inline import b64decode
from mediaparts.providers._wire._deltas import Delta
from mediaparts.providers._wire._reading import (
    as_dict,
    as_list,
    maybe,
    need,
    shown,
)
from mediaparts.providers._wire._reading import stop_reason as read_stop
from mediaparts.providers._wire._rendering import Served
from mediaparts.providers._wire._streaming import (
    Fragments,
    StreamState,
    api_error,
    event_index,
    json_object,
)
from mediaparts.providers.wires.converse._read import read_response, read_usage
from mediaparts.providers.wires.converse._read_blocks import citation, one_key, provider_part
from mediaparts.providers.wires.converse._shapes import STOP_REASONS

__all__ = ["stream"]

# The error events of `ConverseStreamOutput` (botocore 1.44, read 2026-12-05).
ERRORS = frozenset(
    {
        "internalServerException",
        "modelStreamErrorException",
        "validationException",
        "throttlingException",
        "serviceUnavailableException",
    }
)

# The members of each `ContentBlockStart` this reader knows: (required, optional).
_START_MEMBERS = {
    "toolUse": (("toolUseId", "name"), ("type",)),
    "toolResult": (("toolUseId",), ("type", "status")),
    "image": (("format",), ()),
}

# The members of `ConverseStreamMetadataEvent` that `ConverseResponse` has too.
_METADATA = ("usage", "metrics", "trace", "performanceConfig", "serviceTier")

_BLOB = (bytes, bytearray, memoryview, str)


def stream(served: Served) -> StreamState:
    """Return a fresh reader for one `ConverseStream` reply."""
    return _Converse(served)


class _ContentBlock:
    """One content block as it arrives: its kind and what its events have said so far."""

    __slots__ = ("citations", "data", "items", "kind", "signature", "start", "text")

    def __init__(self, kind: str, start: dict[str, Any] | None = None) -> None:
        self.kind = kind  # text, toolUse, reasoning, image, toolResult, or other
        self.start = start or {}
        self.text = Fragments()  # text, tool input, reasoning text
        self.signature = Fragments()
        self.data: io.BytesIO | None = None  # redacted reasoning, image bytes
        self.citations: list[Any] = []
        self.items: list[Any] = []  # tool result items, other blocks' deltas

    def add_data(self, value: Any, at: str) -> None:
        if not isinstance(value, _BLOB):
            raise InvalidMedia(f"{at}: expected bytes, got {type(value).__name__}")
        try:  # a blob: bytes from boto3, base64 text in JSON
            raw = b64decode(value) if isinstance(value, str) else bytes(value)
        except MediaError as exc:
            raise rewrap(exc, f"{at}: {exc}") from exc
        if self.data is None:
            self.data = io.BytesIO()
        self.data.write(raw)


class _Converse:
    """The `StreamState` of one `ConverseStream` reply (see the module docstring)."""

    def __init__(self, served: Served) -> None:
        self._served = served
        self._blocks: list[_ContentBlock] = []
        self._role = "assistant"
        self._stop: dict[str, Any] = {}
        self._meta: dict[str, Any] = {}
        self.finished = False

    def feed(self, event: Any, /) -> list[Delta]:
        """Take one event dict; return the deltas it added."""
        if not isinstance(event, Mapping):
            raise InvalidMedia(f"stream event: expected an object, got {type(event).__name__}")
        key, value = one_key(event, "stream event")
        if key in ERRORS:
            failed = api_error(
                self._served.name, dict(value) if isinstance(value, Mapping) else None, key
            )
            failed.error = dict(event)  # the whole event: its key names the exception
            raise failed
        read = _READERS.get(key)
        return [] if read is None else read(self, as_dict(value, key))

    def message(self) -> Assistant:
        """Return the message so far, read as the non-streamed response would be."""
        content: list[Any] = []
        kept: dict[int, Part | str] = {}
        for i, block in enumerate(self._blocks):
            at = f"output.message.content[{i}]"
            written, part = self._written(block, at)
            content.append(written)
            if part is not None:
                kept[i] = part
        body: dict[str, Any] = {"output": {"message": {"role": self._role, "content": content}}}
        body.update(self._stop)
        body.update(self._meta)
        reply = read_response(body, self._served)
        if not kept:
            return reply
        parts = list(reply.parts)
        for i, made in kept.items():
            if isinstance(made, str):  # a tool call's arguments that are not a JSON object
                call = parts[i]
                if isinstance(call, ToolCall):
                    parts[i] = call.model_copy(update={"arguments": made})
            else:
                parts[i] = made
        return reply.model_copy(update={"parts": tuple(parts)})

    # -- the response's blocks ---------------------------------------------------------------

    def _written(self, block: _ContentBlock, at: str) -> tuple[dict[str, Any], Part | str | None]:
        """Return the block as `converse` writes it, and what to put in the place of the part
        read from it when the block alone cannot say it: a part, or a tool call's arguments."""
        kind = block.kind
        if kind == "text":
            text = str(block.text)
            if not block.citations:
                return {"text": text}, None
            cited = {"content": [{"text": text}], "citations": list(block.citations)}
            return {"citationsContent": cited}, None
        if kind == "toolUse":
            return self._tool_use(block)
        if kind == "reasoning":
            if block.data is not None:
                return {"reasoningContent": {"redactedContent": block.data.getvalue()}}, None
            said: dict[str, Any] = {"text": str(block.text)}
            if block.signature:
                said["signature"] = str(block.signature)
            return {"reasoningContent": {"reasoningText": said}}, None
        if kind == "image":
            image = dict(block.start)
            if block.data is not None:
                image["source"] = {"bytes": block.data.getvalue()}
            elif block.items:
                image["source"] = block.items[-1]
            if "source" not in image:  # nothing to show yet: kept as it arrived
                return {"text": ""}, self._other(block, "image", at)
            return {"image": image}, None
        if kind == "toolResult":
            items = [{"text": str(i)} if isinstance(i, Fragments) else i for i in block.items]
            return {"toolResult": {**block.start, "content": items}}, None
        return {"text": ""}, self._other(block, kind, at)

    def _tool_use(self, block: _ContentBlock) -> tuple[dict[str, Any], str | None]:
        raw = str(block.text)
        call = dict(block.start)
        value = json_object(raw) if raw else {}
        if value is None:  # not (yet) a JSON object: kept as the text that arrived
            if call.get("type") is not None:
                return {"toolUse": {**call, "input": raw}}, None
            call["input"] = {}
            return {"toolUse": call}, raw
        call["input"] = value
        return {"toolUse": call}, None

    def _other(self, block: _ContentBlock, key: str, at: str) -> Part:
        data: dict[str, Any] = {"deltas": list(block.items)}
        if block.start:
            data = {"start": {key: block.start}, **data}
        return provider_part(self._served, key, data, at, {}, None)

    # -- events ------------------------------------------------------------------------------

    def _message_start(self, value: dict[str, Any]) -> list[Delta]:
        role = value.get("role")
        if role != "assistant":
            raise InvalidMedia(f"messageStart.role: expected 'assistant', got {shown(role)}")
        return []

    def _block_start(self, value: dict[str, Any]) -> list[Delta]:
        at = "contentBlockStart"
        index = event_index(
            value.get("contentBlockIndex"), f"{at}.contentBlockIndex", len(self._blocks)
        )
        if index < len(self._blocks):
            raise InvalidMedia(f"{at}.contentBlockIndex: block {index} has already started")
        key, start = one_key(need(value, "start", at, dict), f"{at}.start")
        where = f"{at}.start.{key}"
        body = as_dict(start, where)
        if key in _START_MEMBERS:
            # Its members, strings all; one added after 2026-12 is left out (the block it
            # starts could not be read back with it).
            required, optional = _START_MEMBERS[key]
            kept = {k: need(body, k, where, str) for k in required}
            body = kept | {k: body[k] for k in optional if maybe(body, k, where, str) is not None}
        if key == "toolUse":
            self._blocks.append(_ContentBlock("toolUse", body))
            if body.get("type") is not None:  # a tool the API runs itself
                return [Delta(kind="provider", index=index, name="toolUse")]
            return [Delta(kind="tool_call", index=index, id=body["toolUseId"], name=body["name"])]
        if key == "toolResult":
            self._blocks.append(_ContentBlock("toolResult", body))
            return [Delta(kind="provider", index=index, name="toolResult")]
        if key == "image":
            self._blocks.append(_ContentBlock("image", body))
            return []
        self._blocks.append(_ContentBlock(key, body))
        return [Delta(kind="provider", index=index, name=key)]

    def _block_delta(self, value: dict[str, Any]) -> list[Delta]:
        at = "contentBlockDelta"
        known = len(self._blocks)
        index = event_index(value.get("contentBlockIndex"), f"{at}.contentBlockIndex", known)
        key, inner = one_key(need(value, "delta", at, dict), f"{at}.delta")
        where = f"{at}.delta.{key}"
        kind = _DELTA_KINDS.get(key)
        if index == known:  # a block's first delta starts it, for the kinds that need no start
            if kind in ("toolUse", "toolResult", "image"):
                raise InvalidMedia(
                    f"{where}: block {index} was never started (its contentBlockStart comes first)"
                )
            self._blocks.append(_ContentBlock(kind or key))
        block = self._blocks[index]
        if kind is None:
            if block.kind in _KNOWN:
                return []  # a member added after 2026-12 to a block we read: skipped
            block.items.append({key: inner})
            return [Delta(kind="provider", index=index, name=block.kind)]
        if block.kind != kind:
            raise InvalidMedia(f"{where}: block {index} is a {block.kind} block")
        return _DELTA_READERS[key](self, block, index, inner, where)

    def _block_stop(self, value: dict[str, Any]) -> list[Delta]:
        at = "contentBlockStop.contentBlockIndex"
        index = event_index(value.get("contentBlockIndex"), at, len(self._blocks))
        if index == len(self._blocks):  # a text block that had no delta
            self._blocks.append(_ContentBlock("text"))
        block = self._blocks[index]
        if block.kind == "toolUse" and not block.text and block.start.get("type") is None:
            # A call of a tool without parameters sends no input: its arguments are `{}`,
            # said once, so that a tool call's deltas always add up to its JSON.
            return [Delta(kind="tool_call", index=index, arguments="{}")]
        return []

    def _message_stop(self, value: dict[str, Any]) -> list[Delta]:
        reason, raw = read_stop(
            need(value, "stopReason", "messageStop", str), STOP_REASONS, "messageStop.stopReason"
        )
        self._stop = {"stopReason": raw}
        extra = value.get("additionalModelResponseFields")
        if extra is not None:
            self._stop["additionalModelResponseFields"] = extra
        self.finished = True
        return [Delta(kind="stop", stop_reason=reason, text=raw or "")]

    def _metadata(self, value: dict[str, Any]) -> list[Delta]:
        # Only the members `ConverseResponse` has too: none of them can reach the content.
        meta = {k: value[k] for k in _METADATA if value.get(k) is not None}
        if "usage" not in meta:
            self._meta = meta
            return []
        usage = read_usage(as_dict(meta["usage"], "metadata.usage"), "metadata.usage")
        self._meta = meta
        return [Delta(kind="usage", usage=usage)]

    # -- deltas ------------------------------------------------------------------------------

    def _text(self, block: _ContentBlock, index: int, value: Any, at: str) -> list[Delta]:
        text = _string(value, at)
        block.text.add(text)
        return [Delta(kind="text", index=index, text=text)]

    def _citation(self, block: _ContentBlock, index: int, value: Any, at: str) -> list[Delta]:
        item = as_dict(value, at)
        made = citation(self._served, item, at)
        block.citations.append(item)
        return [Delta(kind="citation", index=index, citation=made)]

    def _tool_input(self, block: _ContentBlock, index: int, value: Any, at: str) -> list[Delta]:
        fragment = need(as_dict(value, at), "input", at, str)
        block.text.add(fragment)
        if block.start.get("type") is not None:
            return [Delta(kind="provider", index=index, name="toolUse", text=fragment)]
        return [Delta(kind="tool_call", index=index, arguments=fragment)]

    def _reasoning(self, block: _ContentBlock, index: int, value: Any, at: str) -> list[Delta]:
        key, inner = one_key(value, at)
        where = f"{at}.{key}"
        if key == "text":
            if block.data is not None:
                raise InvalidMedia(f"{where}: block {index} holds redacted reasoning")
            text = _string(inner, where)
            block.text.add(text)
            return [Delta(kind="reasoning", index=index, text=text)]
        if key == "signature":
            block.signature.add(_string(inner, where))
            return []
        if key == "redactedContent":
            if block.text or block.signature:
                raise InvalidMedia(f"{where}: block {index} holds reasoning text")
            block.add_data(inner, where)
            return [Delta(kind="reasoning", index=index)]
        return []  # a member added after 2026-12: skipped

    def _image(self, block: _ContentBlock, index: int, value: Any, at: str) -> list[Delta]:
        body = as_dict(value, at)
        if body.get("error") is not None:
            block.start["error"] = as_dict(body["error"], f"{at}.error")
        if body.get("source") is not None:
            key, inner = one_key(body["source"], f"{at}.source")
            if key == "bytes":
                block.add_data(inner, f"{at}.source.bytes")
            else:
                block.items.append({key: inner})
        return []

    def _tool_result(self, block: _ContentBlock, index: int, value: Any, at: str) -> list[Delta]:
        deltas: list[Delta] = []
        for i, item in enumerate(as_list(value, at)):
            key, inner = one_key(item, f"{at}[{i}]")
            if key == "text":
                text = _string(inner, f"{at}[{i}].text")
                if not block.items or not isinstance(block.items[-1], Fragments):
                    block.items.append(Fragments())
                block.items[-1].add(text)
                deltas.append(Delta(kind="provider", index=index, name="toolResult", text=text))
            else:
                block.items.append({key: inner})
                deltas.append(Delta(kind="provider", index=index, name="toolResult"))
        return deltas


_READERS = {
    "messageStart": _Converse._message_start,
    "contentBlockStart": _Converse._block_start,
    "contentBlockDelta": _Converse._block_delta,
    "contentBlockStop": _Converse._block_stop,
    "messageStop": _Converse._message_stop,
    "metadata": _Converse._metadata,
}

# Each `ContentBlockDelta` member: the kind of block it grows, and how.
_DELTA_KINDS = {
    "text": "text",
    "citation": "text",
    "toolUse": "toolUse",
    "reasoningContent": "reasoning",
    "image": "image",
    "toolResult": "toolResult",
}
_DELTA_READERS = {
    "text": _Converse._text,
    "citation": _Converse._citation,
    "toolUse": _Converse._tool_input,
    "reasoningContent": _Converse._reasoning,
    "image": _Converse._image,
    "toolResult": _Converse._tool_result,
}
_KNOWN = frozenset(_DELTA_KINDS.values())


def _string(value: Any, at: str) -> str:
    if not isinstance(value, str):
        raise InvalidMedia(f"{at}: expected a string, got {shown(value)}")
    return value
