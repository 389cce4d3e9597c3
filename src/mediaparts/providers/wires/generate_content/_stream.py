"""Read a streamed `generateContent` reply: its chunks become one `GenerateContentResponse`.

`streamGenerateContent` (google-genai's `generate_content_stream`) sends a sequence of
`GenerateContentResponse` chunks (ai.google.dev/api/generate-content#method:-models.
streamgeneratecontent, read 2026-12-05). The state gathers them into the dict of the one
non-streamed response of the same content and reads that with `read_response`, so a stream
and a response cannot drift:

- candidate 0's parts accumulate: consecutive text parts of one kind (thought or not) are one
  part, as the non-streamed response holds them; every other part (a function call, which
  arrives whole, inline data, executable code, ...) is kept where it sits;
- a `thoughtSignature` goes on the part it arrived on; one on a text fragment (an empty one
  included: the streamed signature often arrives on a last chunk with empty text) signs the
  run of text it belongs to, where the non-streamed response has it; a run holds at most one
  signature, so a second starts a new part (ai.google.dev/gemini-api/docs/thought-signatures,
  read 2026-12-05);
- `finishReason`, `usageMetadata` (cumulative), `modelVersion`, `responseId`,
  `promptFeedback` and the candidate's other fields: the last chunk's win; citations add up;
  the fields of `groundingMetadata` are the last chunk's that held each;
- a chunk `{"error": {...}}` raises `StreamError`; a chunk with only fields it does not know
  adds nothing; function-call arguments streamed in pieces (`partialArgs`, Vertex AI's
  `streamFunctionCallArguments`) are put together (`_stream_calls.py`).
"""

from __future__ import annotations

from typing import Any

from mediaparts._conversation._messages import Assistant
from mediaparts._conversation._parts import ProviderPart, ReasoningPart, TextPart, ToolCall
from mediaparts._errors import InvalidMedia
from mediaparts.providers._wire._deltas import Delta, DeltaKind
from mediaparts.providers._wire._reading import as_dict, as_list, shown, stop_reason
from mediaparts.providers._wire._rendering import Served
from mediaparts.providers._wire._streaming import Fragments, api_error
from mediaparts.providers.wires.generate_content._read import read_part
from mediaparts.providers.wires.generate_content._response import (
    read_response,
    usage_of,
    wire_dict,
)
from mediaparts.providers.wires.generate_content._shapes import STOP_REASONS
from mediaparts.providers.wires.generate_content._spelling import absent
from mediaparts.providers.wires.generate_content._stream_calls import StreamedCall, streamed

__all__ = ["stream"]

_SIGNATURE = "thoughtSignature"
# The fields of a text part that may be merged with the next fragment's.
_TEXT_FIELDS = frozenset({"text", "thought", _SIGNATURE})
# The response's own fields the reply holds; any other is left out (the SDK's
# `sdkHttpResponse`, `automaticFunctionCallingHistory`, a field added later).
_STRINGS = ("modelVersion", "responseId", "createTime")


class _Run:
    """One part of the reply: a run of text fragments, or a part kept as it arrived."""

    __slots__ = ("node", "text", "thought")

    def __init__(self, node: dict[str, Any], text: Fragments | None) -> None:
        self.node = node  # the part, without its text while the text grows in `text`
        self.text = text  # None: a part that is not merged with the next
        self.thought = node.get("thought")

    def whole(self) -> dict[str, Any]:
        if self.text is None:
            return self.node
        return {"text": str(self.text), **self.node}


class GenerateContentStream:
    """One streamed `generateContent` reply being read (a `StreamState`)."""

    __slots__ = (
        "_call",
        "_calls",
        "_candidate",
        "_citations",
        "_cited",
        "_events",
        "_finished",
        "_grounding",
        "_reason",
        "_response",
        "_runs",
        "_seen",
        "_served",
    )

    def __init__(self, served: Served) -> None:
        self._served = served
        self._runs: list[_Run] = []
        self._call: StreamedCall | None = None  # a function call whose arguments still come
        self._candidate: dict[str, Any] = {}  # candidate 0's fields beside its content
        self._citations: list[Any] = []
        self._grounding: dict[str, Any] = {}
        self._response: dict[str, Any] = {}  # the response's fields beside its candidates
        self._reason: str | None = None  # candidate 0's finishReason
        self._seen = False  # whether a chunk had a candidate
        self._calls = False  # whether a part is a function call
        self._cited = False
        self._finished = False
        self._events = 0

    @property
    def finished(self) -> bool:
        """Whether a chunk said why the reply ended (a finishReason, or a blocked prompt)."""
        return self._finished

    def feed(self, event: Any) -> list[Delta]:
        """Take one chunk (the SDK's `GenerateContentResponse` or its dict, either spelling).

        Raises:
            InvalidMedia: The chunk is malformed (the message names the field).
            StreamError: The chunk is the API's error.
        """
        at = f"event[{self._events}]"
        self._events += 1
        body = wire_dict(event, at)
        if body.get("error") is not None:
            raise api_error(self._served.name, body["error"])
        deltas: list[Delta] = []
        stop: list[Delta] = []
        # `wire_dict` made the body afresh, of dicts with string keys and lists only: a
        # field's type is checked in place, and its path built only to name it in an error.
        candidates = body.get("candidates")
        if type(candidates) is not list:
            candidates = as_list(absent(candidates, []), f"{at}.candidates")
        for i, item in enumerate(candidates):
            node = item if type(item) is dict else as_dict(item, f"{at}.candidates[{i}]")
            index = node.get("index")
            if index is None or (type(index) is int and index == 0):  # absent means 0
                stop = self._candidate_chunk(node, at, i, deltas)
                break
        for name in _STRINGS:
            value = body.get(name)
            if value is not None:
                if not isinstance(value, str):
                    raise InvalidMedia(f"{at}.{name}: expected a string, got {shown(value)}")
                self._response[name] = value
        if body.get("promptFeedback") is not None:
            feedback = as_dict(body["promptFeedback"], f"{at}.promptFeedback")
            self._response["promptFeedback"] = feedback
            if not self._seen and feedback.get("blockReason") is not None:
                raw = stop_reason(feedback["blockReason"], {}, f"{at}.promptFeedback.blockReason")
                self._finished = True
                stop = [Delta(kind="stop", stop_reason="content_filter", text=raw[1] or "")]
        if body.get("usageMetadata") is not None:
            usage = usage_of(body, at)
            self._response["usageMetadata"] = body["usageMetadata"]
            deltas.append(Delta(kind="usage", usage=usage))
        if stop and not self._cited:
            self._cited = True
            deltas += self._citation_deltas()
        return deltas + stop if stop else deltas

    def message(self) -> Assistant:
        """Return the reply so far, read as the non-streamed response it adds up to."""
        return read_response(self._whole(), self._served)

    def _whole(self) -> dict[str, Any]:
        response = dict(self._response)
        if self._seen or "promptFeedback" not in response:
            candidate = dict(self._candidate)
            parts = [run.whole() for run in self._runs]
            if self._call is not None:
                parts[self._call.index] = self._call.whole()
            candidate["content"] = {"role": "model", "parts": parts}
            if self._citations:
                candidate["citationMetadata"] = {"citations": list(self._citations)}
            if self._grounding:
                candidate["groundingMetadata"] = dict(self._grounding)
            if self._reason is not None:
                candidate["finishReason"] = self._reason
            response["candidates"] = [candidate]
        return response

    def _candidate_chunk(
        self, node: dict[str, Any], event: str, i: int, deltas: list[Delta]
    ) -> list[Delta]:
        """Add candidate 0's chunk (`candidates[i]` of the chunk at the path `event`); put its
        parts' deltas in `deltas`, return its stop delta."""
        self._seen = True
        content = node.get("content")
        if content is not None:
            if type(content) is not dict:
                content = as_dict(content, f"{event}.candidates[{i}].content")
            parts = content.get("parts")
            if type(parts) is not list:
                parts = as_list(absent(parts, []), f"{event}.candidates[{i}].content.parts")
            for j, part in enumerate(parts):
                deltas += self._part(part, event, i, j)
        for key, value in node.items():
            if key == "citationMetadata" and value is not None:
                where = f"{event}.candidates[{i}].{key}"
                cites = absent(as_dict(value, where).get("citations"), [])
                self._citations += as_list(cites, f"{where}.citations")
            elif key == "groundingMetadata" and value is not None:
                self._grounding.update(as_dict(value, f"{event}.candidates[{i}].{key}"))
            elif key not in ("content", "index", "finishReason"):
                self._candidate[key] = value
        if node.get("finishReason") is None:
            return []
        deltas += self._close_call()  # the reply ends: a call still streaming ends with it
        at = f"{event}.candidates[{i}].finishReason"
        reason, raw = stop_reason(node["finishReason"], STOP_REASONS, at)
        if reason == "end" and self._calls:
            reason = "tool_call"
        self._reason = raw
        self._finished = True
        return [Delta(kind="stop", stop_reason=reason, text=raw or "")]

    def _part(self, value: Any, event: str, i: int, j: int) -> list[Delta]:
        """Add part `j` of `candidates[i]` of the chunk at the path `event`."""
        node = value if type(value) is dict else as_dict(value, _part_at(event, i, j))
        if node.get("functionCall") is not None:  # else no streamed call
            call = streamed(node, _part_at(event, i, j), self._call, len(self._runs))
            if call is not None:
                return self._streamed_call(call)
        closed = self._close_call() if self._call is not None else None
        if _TEXT_FIELDS.issuperset(node) and (
            isinstance(node.get("text"), str) or ("text" not in node and _SIGNATURE in node)
        ):
            added = self._text(node, event, i, j)
        else:
            added = self._kept(node, _part_at(event, i, j))
        return added if closed is None else closed + added

    def _kept(self, node: dict[str, Any], at: str) -> list[Delta]:
        """Add a part kept as it arrived (a function call, media, code, ...)."""
        read = read_part(self._served, node, at, "model")
        index = len(self._runs)
        self._runs.append(_Run(node, None))
        if isinstance(read, ToolCall):
            self._calls = True
            return [
                Delta(
                    kind="tool_call",
                    index=index,
                    id=read.id,
                    name=read.name,
                    arguments=read.arguments,
                )
            ]
        if isinstance(read, TextPart | ReasoningPart) and read.text:
            kind: DeltaKind = "text" if isinstance(read, TextPart) else "reasoning"
            return [Delta(kind=kind, index=index, text=read.text)]
        if isinstance(read, ProviderPart):
            name = next((k for k in node if k not in _TEXT_FIELDS), None)
            return [Delta(kind="provider", index=index, name=name)]
        return []  # media: no delta describes it; the message holds it

    def _text(self, node: dict[str, Any], event: str, i: int, j: int) -> list[Delta]:
        """Add a text fragment (or a signature alone) to the run it continues, or start one."""
        signature = node.get(_SIGNATURE)
        if signature is not None and not isinstance(signature, str):
            at = _part_at(event, i, j)
            raise InvalidMedia(f"{at}.{_SIGNATURE}: expected base64 text, got {shown(signature)}")
        text = node.get("text", "")
        thought = node.get("thought")
        last = self._runs[-1] if self._runs else None
        if (
            last is not None
            and last.text is not None
            and last.thought == thought
            and not (signature is not None and _SIGNATURE in last.node)
        ):
            last.text.add(text)
            if signature is not None:
                last.node[_SIGNATURE] = signature
            index = len(self._runs) - 1
        elif not text and signature is None:
            return []  # an empty fragment with nothing to add to
        else:
            index = len(self._runs)
            if "text" in node:
                rest = {k: v for k, v in node.items() if k != "text"}
                self._runs.append(_Run(rest, Fragments(text)))
            else:  # a signature with no text and no run to sign: kept as it came
                self._runs.append(_Run(node, None))
        if not text:
            return []
        grows: DeltaKind = "reasoning" if thought is True else "text"
        return [Delta(kind=grows, index=index, text=text)]

    def _streamed_call(self, call: StreamedCall) -> list[Delta]:
        deltas: list[Delta] = []
        if call is not self._call:  # a new call (the one before it ends, its arguments said)
            if self._call is not None:
                deltas += self._close_call()
            self._calls = True
            self._call = call
            self._runs.append(_Run({}, None))  # its place; filled in when it is whole
            deltas.append(Delta(kind="tool_call", index=call.index, id=call.id, name=call.name))
        if call.done:
            deltas += self._close_call()
        return deltas

    def _close_call(self) -> list[Delta]:
        """Put a call whose arguments came in pieces in its place; return its arguments delta."""
        call, self._call = self._call, None
        if call is None:
            return []
        self._runs[call.index] = _Run(call.whole(), None)
        return [Delta(kind="tool_call", index=call.index, arguments=call.arguments())]

    def _citation_deltas(self) -> list[Delta]:
        """Return a delta per citation of the reply (once, when the reply ends: citations and
        grounding refer to the whole text)."""
        if not self._citations and not self._grounding:
            return []
        deltas: list[Delta] = []
        for index, part in enumerate(self.message().parts):
            if isinstance(part, TextPart):
                deltas += [Delta(kind="citation", index=index, citation=c) for c in part.citations]
        return deltas


def stream(served: Served) -> GenerateContentStream:
    """Return a fresh reader of one streamed `generateContent` reply (`mp.StreamReader`)."""
    return GenerateContentStream(served)


def _part_at(event: str, i: int, j: int) -> str:
    """The path of part `j` of `candidates[i]` (built only when it is named)."""
    return f"{event}.candidates[{i}].content.parts[{j}]"
