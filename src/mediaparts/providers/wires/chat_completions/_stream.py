"""Read a streamed Chat Completions reply (`stream`): its chunks gathered into the message.

The chunks are gathered into the `ChatCompletion` the API returns without `stream` (its
`id`, `model`, the first choice's message and `finish_reason`, `usage`), and the message is
that response read by `read_response`: a stream and the non-streamed response of the same
content cannot read differently. Each chunk costs time in proportion to its size: text and
arguments are appended to `Fragments`, and the response is built only when the message is
asked for.

What is read, as `read_response` reads it (the first choice, `index` 0; the others are
skipped): the provider's reasoning field (its `reasoning_field` quirk: reasoning deltas at
index 0, the API sending it before the answer), `delta.content` (text; a list of chunks:
`thinking` chunks as the reasoning that comes first, `text` chunks as the text, as a
reasoning model streams them), `annotations`
(citations of that text), `audio` (its `id`, `expires_at` and `transcript` fragments; its
base64 `data`, which the message does not hold, is checked and let go), `refusal`, `tool_calls`
merged by their `index` (`id` and name on the first fragment, `function.arguments` fragments
appended byte for byte; a `custom` call's `input` likewise), the legacy `function_call`,
`finish_reason`, and the `usage` of the last chunk (`stream_options={"include_usage": True}`,
whose `choices` are empty), or, for a provider whose `stream_extra` quirk names its own
object of a chunk, that object's `usage`.

Events that are skipped: an `object` other than `chat.completion.chunk`, and the events the
SDK's `chat.completions.stream()` helper derives from its chunks (`content.delta`,
`tool_calls.function.arguments.delta`, ...: any event with a `type` and no `choices`), whose
`chunk` events are read for the chunk they carry; an SDK event object holding its chunk as
`data` is read as that chunk. An `{"error": ...}` event, or an `error` in the provider's own
object, raises `StreamError` with that error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mediaparts._conversation._messages import Assistant
from mediaparts._conversation._parts import Citation
from mediaparts._errors import InvalidMedia
from mediaparts.providers._wire._deltas import Delta
from mediaparts.providers._wire._reading import as_dict, as_list, maybe, need, plain, shown
from mediaparts.providers._wire._rendering import Served
from mediaparts.providers._wire._streaming import Fragments, api_error, event_index
from mediaparts.providers.wires.chat_completions._common import STREAM_EXTRA
from mediaparts.providers.wires.chat_completions._read import (
    finish_reason,
    read_citation,
    read_response,
    read_usage,
)
from mediaparts.providers.wires.chat_completions._variants import THINKING, has, reasoning_field

__all__ = ["ChunkStream", "stream"]

# What a chunk's `object` says (openai-python chat_completion_chunk.py, read 2026-12-05).
_CHUNK = "chat.completion.chunk"
# The chunk fields the response repeats: each chunk has the same ones.
_HEADER = (
    ("id", str),
    ("created", int),
    ("model", str),
    ("system_fingerprint", str),
    ("service_tier", str),
)
# A custom tool's free-text input is kept as the arguments {"input": text}: its deltas are
# the JSON text of that object, in pieces (an opening, the escaped input, a closing).
_OPEN_INPUT = '{"input": "'
_CLOSE_INPUT = '"}'


def stream(served: Served) -> ChunkStream:
    """Return a reader for one streamed reply (the wire's `StreamState`)."""
    return ChunkStream(served)


class _StreamedCall:
    """One tool call as its fragments arrive."""

    __slots__ = ("data", "id", "kind", "name", "text")

    def __init__(self, kind: str) -> None:
        self.kind = kind  # "function" or "custom"; another type is kept as first sent (data)
        self.id: str | None = None
        self.name: str | None = None
        self.text = Fragments()  # a function's arguments, a custom tool's input
        self.data: dict[str, Any] | None = None

    def response(self) -> dict[str, Any]:
        """The call as the non-streamed message lists it."""
        if self.data is not None:
            return self.data
        key = "arguments" if self.kind == "function" else "input"
        call: dict[str, Any] = {
            "type": self.kind,
            self.kind: {"name": self.name, key: str(self.text)},
        }
        if self.id is not None:
            call["id"] = self.id
        return call


class ChunkStream:
    """One streamed Chat Completions reply being read (see the module docstring)."""

    __slots__ = (
        "_annotations",
        "_audio",
        "_audio_told",
        "_calls",
        "_chunked",
        "_content",
        "_finish",
        "_finished",
        "_function",
        "_head",
        "_reasoning_field",
        "_refusal",
        "_served",
        "_signature",
        "_thinking",
        "_transcript",
        "_usage",
        "_waiting",
    )

    def __init__(self, served: Served) -> None:
        self._served = served
        self._head: dict[str, Any] = {}
        self._content: Fragments | None = None  # None until a content string arrives
        self._thinking = Fragments()  # the text of `thinking` chunks (a list delta)
        # Or of the provider's reasoning field (its `reasoning_field` quirk), as text deltas.
        self._reasoning_field = reasoning_field(served)
        self._chunked = has(served, THINKING)
        self._signature: str | None = None
        self._annotations: list[dict[str, Any]] = []
        self._waiting: list[Citation] = []  # citations whose text has not begun
        self._audio: dict[str, Any] | None = None
        self._audio_told = False
        self._transcript = Fragments()
        self._refusal = Fragments()
        self._function: _StreamedCall | None = None
        self._calls: list[_StreamedCall] = []
        self._finish: str | None = None
        self._finished = False
        self._usage: Any = None

    @property
    def finished(self) -> bool:
        """Whether the first choice's `finish_reason` has arrived."""
        return self._finished

    def message(self) -> Assistant:
        """Return the message so far: the response gathered so far, read by `read_response`."""
        return read_response(self._response(), self._served)

    def feed(self, event: Any) -> list[Delta]:
        """Read one chunk (the SDK's object or its dict); return the deltas it added."""
        chunk = _chunk(event)
        if chunk is None:
            return []
        if chunk.get("error") is not None:
            raise api_error(self._served.name, chunk["error"])
        kind = chunk.get("object")
        if kind is not None and kind != _CHUNK:
            return []  # an event we do not know
        self._header(chunk)
        deltas: list[Delta] = []
        choices = chunk.get("choices")
        for i, node in enumerate(as_list(choices, "choices") if choices is not None else []):
            at = f"choices[{i}]"
            choice = as_dict(node, at)
            index = maybe(choice, "index", at, int)
            if index is not None and index != 0:
                continue  # read_response reads the first choice
            delta = choice.get("delta")
            if delta is not None:
                self._delta(as_dict(delta, f"{at}.delta"), f"{at}.delta", deltas)
            if choice.get("finish_reason") is not None and not self._finished:
                self._stop(choice["finish_reason"], f"{at}.finish_reason", deltas)
        extra = self._extra(chunk)  # raises the error the provider's own object carries
        found = chunk.get("usage")
        if found is None:
            found = extra
        if found is not None:
            usage = read_usage(found)
            self._usage = found
            deltas.append(Delta(kind="usage", usage=usage))
        return deltas

    def _extra(self, chunk: dict[str, Any]) -> Any:
        """Read the provider's own object of a chunk (its `stream_extra` quirk names the key):
        raise its `error`, return its `usage` (or None)."""
        key = self._served.quirks.get(STREAM_EXTRA)
        extra = maybe(chunk, key, "chunk", dict) if key is not None else None
        if extra is None:
            return None
        if extra.get("error") is not None:
            raise api_error(self._served.name, extra["error"])
        return extra.get("usage")

    # -- one chunk's parts ----------------------------------------------------------------

    def _header(self, chunk: dict[str, Any]) -> None:
        for key, kind in _HEADER:
            value = maybe(chunk, key, "chunk", kind)
            if value is not None:
                self._head.setdefault(key, value)

    def _delta(self, delta: dict[str, Any], at: str, deltas: list[Delta]) -> None:
        if self._reasoning_field is not None:
            thought = maybe(delta, self._reasoning_field, at, str)
            if thought:  # reasoning comes first: its part is at index 0
                self._thinking.add(thought)
                deltas.append(Delta(kind="reasoning", index=0, text=thought))
        chunks = delta.get("content")
        listed = isinstance(chunks, list) and self._chunked  # the thinking_chunks quirk
        if isinstance(chunks, list) and listed:
            self._chunks(chunks, f"{at}.content", deltas)
        content = maybe(delta, "content", at, str) if not listed else None
        if content is not None:
            self._text(content, deltas)
        annotations = delta.get("annotations")
        if annotations is not None:
            for j, node in enumerate(as_list(annotations, f"{at}.annotations")):
                annotation = as_dict(node, f"{at}.annotations[{j}]")
                self._annotations.append(annotation)
                citation = read_citation(annotation, self._served.name)
                if self._content:
                    deltas.append(Delta(kind="citation", index=self._text_at(), citation=citation))
                else:
                    self._waiting.append(citation)
        if delta.get("audio") is not None:
            self._audio_delta(as_dict(delta["audio"], f"{at}.audio"), f"{at}.audio", deltas)
        refusal = maybe(delta, "refusal", at, str)
        if refusal:
            self._refusal.add(refusal)
            deltas.append(Delta(kind="refusal", index=self._refusal_at(), text=refusal))
        if delta.get("function_call") is not None:
            where = f"{at}.function_call"
            self._function_call(as_dict(delta["function_call"], where), where, deltas)
        calls = delta.get("tool_calls")
        if calls is not None:
            for j, node in enumerate(as_list(calls, f"{at}.tool_calls")):
                where = f"{at}.tool_calls[{j}]"
                self._tool_call(as_dict(node, where), where, deltas)

    def _chunks(self, chunks: list[Any], at: str, deltas: list[Delta]) -> None:
        """Read a delta whose content is a list of chunks: `thinking` chunks (their text
        chunks) as reasoning, which comes first, then `text` chunks as the text."""
        for i, node in enumerate(chunks):
            where = f"{at}[{i}]"
            chunk = as_dict(node, where)
            kind = chunk.get("type")
            if kind == "text":
                self._text(need(chunk, "text", where, str), deltas)
            elif kind == "thinking":
                signature = maybe(chunk, "signature", where, str)
                self._signature = signature if signature is not None else self._signature
                inner = as_list(chunk.get("thinking") or [], f"{where}.thinking")
                for j, piece in enumerate(inner):
                    text = need(as_dict(piece, f"{where}.thinking[{j}]"), "text", where, str)
                    if text:
                        self._thinking.add(text)
                        deltas.append(Delta(kind="reasoning", index=0, text=text))
            else:
                raise InvalidMedia(f"{where}.type: a streamed chunk of {shown(kind)} is not read")

    def _text(self, content: str, deltas: list[Delta]) -> None:
        if self._content is None:
            self._content = Fragments()
        if not content:
            return
        began = not self._content
        self._content.add(content)
        at = self._text_at()
        deltas.append(Delta(kind="text", index=at, text=content))
        if began and self._waiting:
            deltas.extend(Delta(kind="citation", index=at, citation=c) for c in self._waiting)
            self._waiting.clear()

    def _audio_delta(self, audio: dict[str, Any], at: str, deltas: list[Delta]) -> None:
        if self._audio is None:
            self._audio = {}
        ident = maybe(audio, "id", at, str)
        if ident is not None:
            self._audio.setdefault("id", ident)
        maybe(audio, "data", at, str)  # checked; the message does not hold the audio
        expires = maybe(audio, "expires_at", at, int)
        transcript = maybe(audio, "transcript", at, str)
        if transcript:
            self._transcript.add(transcript)
            deltas.append(Delta(kind="text", index=self._transcript_at(), text=transcript))
        if expires is not None:
            self._audio["expires_at"] = expires
            self._tell_audio(deltas)  # the last audio update: its place is settled

    def _tell_audio(self, deltas: list[Delta]) -> None:
        """Announce the audio part once its place is settled (its transcript, before it, is
        complete): at its last update, or when the reply stops."""
        if self._audio is not None and "id" in self._audio and not self._audio_told:
            self._audio_told = True
            deltas.append(Delta(kind="provider", index=self._audio_at(), name="audio"))

    def _function_call(self, node: dict[str, Any], at: str, deltas: list[Delta]) -> None:
        if self._function is None:
            self._function = _StreamedCall("function")
        call = self._function
        name = maybe(node, "name", at, str)
        fresh = name if name is not None and call.name is None else None
        if fresh is not None:
            call.name = fresh
        fragment = maybe(node, "arguments", at, str) or ""
        call.text.add(fragment)
        if fresh is not None or fragment:
            index = self._function_at()
            deltas.append(Delta(kind="tool_call", index=index, name=fresh, arguments=fragment))

    def _tool_call(self, node: dict[str, Any], at: str, deltas: list[Delta]) -> None:
        i = event_index(node.get("index"), f"{at}.index", len(self._calls))
        kind = maybe(node, "type", at, str)
        new = i == len(self._calls)
        if new:
            call = _StreamedCall(kind or "function")
            self._calls.append(call)
            if call.kind not in ("function", "custom"):
                # A type we do not know: kept as its first fragment said it, as
                # read_response keeps it (later fragments of it are not merged).
                call.data = {k: v for k, v in node.items() if k != "index"}
                deltas.append(Delta(kind="provider", index=self._call_at(i), name=call.kind))
                return
        call = self._calls[i]
        if call.data is not None:
            return
        ident = maybe(node, "id", at, str)
        fresh_id = ident if ident is not None and call.id is None else None
        if fresh_id is not None:
            call.id = fresh_id
        fresh_name, fragment = None, ""
        if node.get(call.kind) is not None:
            where = f"{at}.{call.kind}"
            body = as_dict(node[call.kind], where)
            name = maybe(body, "name", where, str)
            if name is not None and call.name is None:
                call.name = fresh_name = name
            key = "arguments" if call.kind == "function" else "input"
            fragment = maybe(body, key, where, str) or ""
            call.text.add(fragment)
        arguments = fragment if call.kind == "function" else _escaped(fragment)
        if new and call.kind == "custom":
            arguments = _OPEN_INPUT + arguments
        if new or fresh_id is not None or fresh_name is not None or arguments:
            deltas.append(
                Delta(
                    kind="tool_call",
                    index=self._call_at(i),
                    id=fresh_id,
                    name=fresh_name,
                    arguments=arguments,
                )
            )

    def _stop(self, raw: Any, at: str, deltas: list[Delta]) -> None:
        reason, said = finish_reason(raw, bool(self._refusal), at)
        self._finish = said
        self._finished = True
        self._tell_audio(deltas)
        for i, call in enumerate(self._calls):
            if call.kind == "custom" and call.data is None:
                deltas.append(
                    Delta(kind="tool_call", index=self._call_at(i), arguments=_CLOSE_INPUT)
                )
        deltas.append(Delta(kind="stop", text=said or "", stop_reason=reason))

    # -- where each part stands in the message (read_response's order) -------------------

    def _text_at(self) -> int:
        return 1 if self._thinking else 0

    def _transcript_at(self) -> int:
        return self._text_at() + (1 if self._content else 0)

    def _audio_at(self) -> int:
        return self._transcript_at() + (1 if self._transcript else 0)

    def _refusal_at(self) -> int:
        return self._audio_at() + (1 if self._audio is not None else 0)

    def _function_at(self) -> int:
        return self._refusal_at() + (1 if self._refusal else 0)

    def _call_at(self, i: int) -> int:
        return self._function_at() + (1 if self._function is not None else 0) + i

    # -- the response so far ---------------------------------------------------------------

    def _response(self) -> dict[str, Any]:
        message: dict[str, Any] = {
            "role": "assistant",
            "content": None if self._content is None else str(self._content),
            "refusal": str(self._refusal) if self._refusal else None,
        }
        if self._thinking and self._reasoning_field is not None:
            message[self._reasoning_field] = str(self._thinking)
        elif self._thinking:  # as the reply gives it unstreamed: a list of chunks
            thinking: dict[str, Any] = {
                "type": "thinking",
                "thinking": [{"type": "text", "text": str(self._thinking)}],
            }
            if self._signature is not None:
                thinking["signature"] = self._signature
            text = [{"type": "text", "text": str(self._content)}] if self._content else []
            message["content"] = [thinking, *text]
        if self._annotations:
            message["annotations"] = list(self._annotations)
        if self._audio is not None:
            message["audio"] = {**self._audio, "transcript": str(self._transcript)}
        if self._function is not None:
            message["function_call"] = {
                "name": self._function.name,
                "arguments": str(self._function.text),
            }
        if self._calls:
            message["tool_calls"] = [call.response() for call in self._calls]
        choice = {"index": 0, "message": message, "finish_reason": self._finish}
        response = {**self._head, "object": "chat.completion", "choices": [choice]}
        if self._usage is not None:
            response["usage"] = self._usage
        return response


def _chunk(event: Any) -> dict[str, Any] | None:
    """Return the chunk an event is or carries, as a dict; None for an event to skip.

    The SDK's stream helper wraps each chunk in a `chunk` event and derives other events
    from it (`content.delta`, ...), which repeat what the chunks said. An event holding its
    chunk under `data` alone (an SDK's server-sent event object, `CompletionEvent(data=...)`)
    is read as that chunk.
    """
    data = getattr(event, "data", None) if not isinstance(event, Mapping) else None
    if data is not None and not hasattr(event, "choices"):
        return plain(data, sent=True)
    mapping = isinstance(event, Mapping)
    kind = event.get("type") if mapping else getattr(event, "type", None)
    if kind == "chunk":
        return plain(event.get("chunk") if mapping else getattr(event, "chunk", None), sent=True)
    if isinstance(kind, str) and (event.get("choices") if mapping else None) is None:
        return None
    return plain(event, sent=True)


def _escaped(text: str) -> str:
    """Return text as it stands inside a JSON string (what `json.dumps` writes of it)."""
    return json.dumps(text, ensure_ascii=False)[1:-1] if text else ""
