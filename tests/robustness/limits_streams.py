"""Limits cases for streamed replies: hostile server-sent event bodies of at most 1 MB.

Each body is read by `mp.message_from_stream` as the raw bytes an application holds, in chunks
of the size the case names; the reader must cost time and memory in proportion to the bytes
however they are cut, and end in a reply or a `MediaError`:

- tiny deltas: as many one-character text deltas (and tool-call argument fragments) as 1 MB
  holds, on every wire that speaks server-sent events;
- one line of 1 MB cut into 16-byte chunks (a reader that joined the line at each chunk would
  copy it 65,000 times);
- a tool call at every index (a new part per event), and block indices of 10**18;
- one event nested 500,000 deep.

Hooked into `limits_corpus` (`stream_cases(large)` in both sets).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from tests.robustness.limits_harness import MAX_INPUT, Case

__all__ = ["stream_cases"]


def _sse(events: Iterator[Any], *, limit: int = MAX_INPUT - 64) -> bytes:
    """The body of `events`, each a `data:` line, stopping before it passes `limit` bytes."""
    out = bytearray()
    for event in events:
        line = b"data: " + json.dumps(event, separators=(",", ":")).encode() + b"\n\n"
        if len(out) + len(line) > limit:
            break
        out += line
    return bytes(out)


def _chat_text() -> Iterator[Any]:
    while True:
        yield {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
               "choices": [{"index": 0, "delta": {"content": "a"}, "finish_reason": None}]}  # fmt: skip


def _chat_tool_calls() -> Iterator[Any]:
    index = 0
    while True:
        call = {"index": index, "id": f"call_{index}", "type": "function",
                "function": {"name": "f", "arguments": "{"}}  # fmt: skip
        yield {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
               "choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}  # fmt: skip
        index += 1


def _messages_text() -> Iterator[Any]:
    yield {"type": "message_start", "message": {"id": "msg", "type": "message", "role": "assistant",
           "model": "m", "content": [], "usage": {"input_tokens": 1, "output_tokens": 1}}}  # fmt: skip
    yield {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}}  # fmt: skip
    while True:
        yield {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "["}}  # fmt: skip


def _messages_huge_index() -> Iterator[Any]:
    yield {"type": "message_start", "message": {"id": "msg", "type": "message", "role": "assistant",
           "model": "m", "content": [], "usage": {"input_tokens": 1, "output_tokens": 1}}}  # fmt: skip
    while True:
        yield {"type": "content_block_delta", "index": 10**18, "delta": {"type": "text_delta", "text": "a"}}  # fmt: skip


def _gemini_text() -> Iterator[Any]:
    while True:
        yield {"candidates": [{"content": {"role": "model", "parts": [{"text": "a"}]}, "index": 0}]}


def _responses_text() -> Iterator[Any]:
    yield {"type": "response.output_item.added", "output_index": 0, "sequence_number": 0,
           "item": {"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress", "content": []}}  # fmt: skip
    yield {"type": "response.content_part.added", "output_index": 0, "content_index": 0, "item_id": "msg_1",
           "sequence_number": 1, "part": {"type": "output_text", "text": "", "annotations": []}}  # fmt: skip
    n = 2
    while True:
        yield {"type": "response.output_text.delta", "output_index": 0, "content_index": 0,
               "item_id": "msg_1", "delta": "a", "sequence_number": n}  # fmt: skip
        n += 1


def _one_long_line() -> bytes:
    text = "a" * (MAX_INPUT - 4096)
    event = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
             "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}  # fmt: skip
    return b"data: " + json.dumps(event).encode() + b"\n\n"


def _nested() -> bytes:
    depth = (MAX_INPUT - 64) // 2
    return b"data: " + b"[" * depth + b"]" * depth + b"\n\n"


def stream_cases(large: bool) -> Iterator[Case]:
    """The stream cases; the CI set has the tiny deltas, the long line and the deep nesting."""
    bodies: list[tuple[str, Any, str, int, bool]] = [
        ("stream-chat-tiny-deltas", lambda: _sse(_chat_text()), "openai", 4096, True),
        ("stream-chat-tool-call-per-event", lambda: _sse(_chat_tool_calls()), "openai", 4096, large),
        ("stream-messages-argument-fragments", lambda: _sse(_messages_text()), "anthropic", 4096, large),
        ("stream-messages-huge-index", lambda: _sse(_messages_huge_index()), "anthropic", 4096, large),
        ("stream-gemini-tiny-deltas", lambda: _sse(_gemini_text()), "gemini", 4096, large),
        ("stream-responses-tiny-deltas", lambda: _sse(_responses_text()), "openai-responses", 4096, large),
        ("stream-one-long-line", _one_long_line, "openai", 16, True),
        ("stream-nested", _nested, "anthropic", 4096, True),
    ]  # fmt: skip
    for name, data, provider, chunk, ci in bodies:
        options = {"providers": [provider], "chunk": chunk}
        yield Case(f"{name}/stream", "stream", data=data, options=options, ci=ci)
