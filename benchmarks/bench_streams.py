"""Reading streamed replies: `mp.StreamReader` per delta on every wire, against the SDK's own
accumulator where it has one (openai's `ChatCompletionStreamState` and `ResponseStreamState`,
anthropic's `accumulate_event`), and linear in the stream's size.

Each stream is 20,000 deltas of text (a token of about four characters each) between the
wire's opening and closing events, given as the SDK's typed event objects where an SDK
accumulator is the baseline, else as dicts. The floor for Gemini and Bedrock, which have no SDK
accumulator, is joining the fragments with `"".join`, the least any reader can do.
Per delta is the whole read (every event, then the message) divided by the deltas.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from harness import Row, median_time, peak_added

import mediaparts as mp

DELTAS = 20_000
_TOKEN = "rain"


def chat_events(n: int) -> Iterator[dict[str, Any]]:
    """Chat Completions chunks: n text deltas, the finish and the usage chunk."""
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1"}
    yield {**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}
    for i in range(n):
        yield {**head, "choices": [{"index": 0, "delta": {"content": f"{_TOKEN}{i % 10}"}}]}
    yield {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    usage = {"prompt_tokens": 10, "completion_tokens": n, "total_tokens": n + 10}
    yield {**head, "choices": [], "usage": usage}


def messages_events(n: int) -> Iterator[dict[str, Any]]:
    """Anthropic Messages events: n text deltas in one block."""
    yield {"type": "message_start", "message": {"id": "msg_1", "type": "message",
           "role": "assistant", "model": "claude-sonnet-4-6", "content": [],
           "stop_reason": None, "stop_sequence": None,
           "usage": {"input_tokens": 10, "output_tokens": 1}}}  # fmt: skip
    yield {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}
    for i in range(n):
        delta = {"type": "text_delta", "text": f"{_TOKEN}{i % 10}"}
        yield {"type": "content_block_delta", "index": 0, "delta": delta}
    yield {"type": "content_block_stop", "index": 0}
    yield {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
           "usage": {"output_tokens": n}}  # fmt: skip
    yield {"type": "message_stop"}


def responses_events(n: int) -> Iterator[dict[str, Any]]:
    """Responses events: n text deltas in one output message, then `response.completed`."""
    shell = {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-4.1",
             "status": "in_progress", "output": [], "parallel_tool_calls": True,
             "tool_choice": "auto", "tools": []}  # fmt: skip
    item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress",
            "content": []}  # fmt: skip
    seq = iter(range(n + 100))
    yield {"type": "response.created", "sequence_number": next(seq), "response": shell}
    yield {"type": "response.output_item.added", "sequence_number": next(seq), "output_index": 0,
           "item": item}  # fmt: skip
    yield {"type": "response.content_part.added", "sequence_number": next(seq), "output_index": 0,
           "content_index": 0, "item_id": "msg_1",
           "part": {"type": "output_text", "text": "", "annotations": []}}  # fmt: skip
    text = []
    for i in range(n):
        text.append(f"{_TOKEN}{i % 10}")
        yield {"type": "response.output_text.delta", "sequence_number": next(seq),
               "output_index": 0, "content_index": 0, "item_id": "msg_1", "delta": text[-1],
               "logprobs": []}  # fmt: skip
    part = {"type": "output_text", "text": "".join(text), "annotations": []}
    done = {**item, "status": "completed", "content": [part]}
    yield {"type": "response.output_item.done", "sequence_number": next(seq), "output_index": 0,
           "item": done}  # fmt: skip
    usage = {"input_tokens": 10, "output_tokens": n, "total_tokens": n + 10,
             "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
             "output_tokens_details": {"reasoning_tokens": 0}}  # fmt: skip
    whole = {**shell, "status": "completed", "output": [done], "usage": usage}
    yield {"type": "response.completed", "sequence_number": next(seq), "response": whole}


def gemini_events(n: int) -> Iterator[dict[str, Any]]:
    """Gemini chunks: n text chunks, the last with the finish reason and usage."""
    for i in range(n):
        parts = [{"text": f"{_TOKEN}{i % 10}"}]
        chunk: dict[str, Any] = {"candidates": [{"content": {"role": "model", "parts": parts},
                                                 "index": 0}], "modelVersion": "gemini-2.5-flash",
                                 "responseId": "r1"}  # fmt: skip
        if i == n - 1:
            chunk["candidates"][0]["finishReason"] = "STOP"
            chunk["usageMetadata"] = {"promptTokenCount": 10, "candidatesTokenCount": n,
                                      "totalTokenCount": n + 10}  # fmt: skip
        yield chunk


def converse_events(n: int) -> Iterator[dict[str, Any]]:
    """Bedrock ConverseStream events: n text deltas in one block, the stop and the metadata."""
    yield {"messageStart": {"role": "assistant"}}
    for i in range(n):
        yield {
            "contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": f"{_TOKEN}{i % 10}"}}
        }
    yield {"contentBlockStop": {"contentBlockIndex": 0}}
    yield {"messageStop": {"stopReason": "end_turn"}}
    usage = {"inputTokens": 10, "outputTokens": n, "totalTokens": n + 10}
    yield {"metadata": {"usage": usage, "metrics": {"latencyMs": 100}}}


def _openai_chat(events: list[dict[str, Any]]) -> tuple[list[Any], Callable[[], object]]:
    from openai.lib.streaming.chat._completions import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    typed = [ChatCompletionChunk.model_validate(e) for e in events]

    def sdk() -> object:
        state: Any = ChatCompletionStreamState()
        for chunk in typed:
            state.handle_chunk(chunk)
        return state.get_final_completion()

    return typed, sdk


def _openai_responses(events: list[dict[str, Any]]) -> tuple[list[Any], Callable[[], object]]:
    from openai import omit
    from openai.lib.streaming.responses._responses import ResponseStreamState
    from openai.types.responses import ResponseStreamEvent
    from pydantic import TypeAdapter

    adapter: Any = TypeAdapter(ResponseStreamEvent)
    typed = [adapter.validate_python(e) for e in events]

    def sdk() -> object:
        state: Any = ResponseStreamState(input_tools=omit, text_format=omit)
        for event in typed:
            state.handle_event(event)
        return state

    return typed, sdk


def _anthropic(events: list[dict[str, Any]]) -> tuple[list[Any], Callable[[], object]]:
    from anthropic.lib.streaming._messages import accumulate_event
    from anthropic.types import RawMessageStreamEvent
    from pydantic import TypeAdapter

    adapter: Any = TypeAdapter(RawMessageStreamEvent)
    typed = [adapter.validate_python(e) for e in events]

    def sdk() -> object:
        snapshot: Any = None
        bufs: dict[int, bytes] = {}
        for event in typed:
            snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=bufs)
        return snapshot

    return typed, sdk


def _join(
    events: list[dict[str, Any]], text_of: Callable[[dict[str, Any]], str]
) -> Callable[[], object]:
    return lambda: "".join(text_of(e) for e in events)


def _gemini_text(chunk: dict[str, Any]) -> str:
    return "".join(p.get("text", "") for c in chunk["candidates"] for p in c["content"]["parts"])


def _converse_text(event: dict[str, Any]) -> str:
    delta = event.get("contentBlockDelta")
    return delta["delta"].get("text", "") if delta else ""


def _per_delta(provider: str, events: list[Any], n: int) -> float:
    return median_time(lambda: mp.message_from_stream(events, provider), repeat=5) / n


def run(n: int = DELTAS) -> list[Row]:
    """Per-delta cost on every wire, the SDK accumulators or the join as the baseline."""
    rows = []
    sdk_wires: list[tuple[str, str, Callable[..., Any], str]] = [
        ("openai", "Chat Completions", _openai_chat, "openai ChatCompletionStreamState"),
        ("openai-responses", "Responses", _openai_responses, "openai ResponseStreamState"),
        ("anthropic", "Anthropic Messages", _anthropic, "anthropic accumulate_event"),
    ]
    makers = {"openai": chat_events, "openai-responses": responses_events,
              "anthropic": messages_events}  # fmt: skip
    for provider, wire, baseline, name in sdk_wires:
        try:
            typed, sdk = baseline(list(makers[provider](n)))
        except ImportError:
            continue
        ours = _per_delta(provider, typed, n)
        theirs = median_time(sdk, repeat=5) / n
        rows.append(Row(f"{wire} stream, per delta of {n:,} (SDK event objects)", ours, theirs,
                        name, target="≤ 3× (typed, checked deltas)", goal=("≤", 3.0)))  # fmt: skip
    floors: list[tuple[str, str, Callable[[int], Iterator[dict[str, Any]]], Any]] = [
        ("gemini", "Gemini", gemini_events, _gemini_text),
        ("bedrock", "Bedrock ConverseStream", converse_events, _converse_text),
    ]
    for provider, wire, make, text_of in floors:
        events = list(make(n))
        ours = _per_delta(provider, events, n)
        floor = median_time(_join(events, text_of), repeat=5) / n
        rows.append(Row(f"{wire} stream, per delta of {n:,} (dicts)", ours, floor,
                        '"".join of the fragments (no SDK accumulator)',
                        target="no target set (for reference)"))  # fmt: skip
    rows += _linear(n)
    return rows


def _linear(n: int) -> list[Row]:
    """Per-delta cost and memory at 10× the deltas: linear means the same per delta."""
    small, large = list(chat_events(n)), list(chat_events(10 * n))
    per_small = _per_delta("openai", small, n)
    per_large = _per_delta("openai", large, 10 * n)
    text = sum(len(e["choices"][0]["delta"].get("content", "")) for e in large if e["choices"])
    memory = peak_added(lambda: mp.message_from_stream(iter(large), "openai"))
    return [
        Row(f"Chat Completions stream, per delta of {10 * n:,} against {n:,}", per_large,
            per_small, f"per delta of {n:,}", target="≤ 1.3× (linear, issue 28)",
            goal=("≤", 1.3)),
        Row(f"Chat Completions stream of {10 * n:,} deltas, peak memory added", memory / text, 1.0,
            "the reply's text (1 byte a character)", unit="× text",
            target="≤ 12× text (grows with the reply, not with the events)", goal=("≤", 12.0),
            note="events given as an iterator, as a live stream is"),
    ]  # fmt: skip
