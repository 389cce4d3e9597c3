"""`mp.render` and `mp.messages_from` over 1,000 text messages, for each built-in provider.

These are the paths an application takes on every request. The baseline is the least any
library can do for the same request: the provider's message dicts built by one comprehension
(render), or walked once for their texts (reading back). Rows also guard the split of wires
from providers: a provider's record resolves its wire once, so dispatching through it costs
nothing per message.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from bench_count import text_conversation
from harness import Row, median_time

import mediaparts as mp

MESSAGES = 1000

# The floor of each provider's request: its message dicts, by hand.
_FLOORS: dict[str, Callable[[list[tuple[str, str]]], dict[str, Any]]] = {
    "openai": lambda turns: {"messages": [{"role": r, "content": t} for r, t in turns]},
    "openai-responses": lambda turns: {"input": [{"role": r, "content": t} for r, t in turns]},
    "anthropic": lambda turns: {
        "messages": [{"role": r, "content": t} for r, t in turns if r != "system"]
    },
    "gemini": lambda turns: {
        "contents": [
            {"role": "model" if r == "assistant" else "user", "parts": [{"text": t}]}
            for r, t in turns
            if r != "system"
        ]
    },
    "bedrock": lambda turns: {
        "messages": [{"role": r, "content": [{"text": t}]} for r, t in turns if r != "system"]
    },
}


def _texts(payload: Any) -> int:
    """Walk a payload once, counting its strings (the floor of reading it back)."""
    if isinstance(payload, dict):
        return sum(_texts(v) for v in payload.values())
    if isinstance(payload, list):
        return sum(_texts(v) for v in payload)
    return 1 if isinstance(payload, str) else 0


def run() -> list[Row]:
    """Time render and messages_from of 1,000 messages for each provider."""
    messages = text_conversation(MESSAGES)
    turns = [
        (m.role, "".join(p.text for p in m.parts if isinstance(p, mp.TextPart))) for m in messages
    ]
    rows = []
    for provider in ("openai", "openai-responses", "anthropic", "gemini", "bedrock"):
        floor = _FLOORS[provider]
        payload = mp.render(messages, provider)
        rows.append(
            Row(
                f"render, {MESSAGES:,} text messages, {provider}",
                median_time(functools.partial(mp.render, messages, provider), repeat=7),
                median_time(functools.partial(floor, turns), repeat=7),
                "the message dicts built by hand",
                note="per call",
            )
        )
        rows.append(
            Row(
                f"messages_from, {MESSAGES:,} text messages, {provider}",
                median_time(functools.partial(mp.messages_from, payload, provider), repeat=7),
                median_time(functools.partial(_texts, payload), repeat=7),
                "one walk over the payload",
                note="per call",
            )
        )
    return rows
