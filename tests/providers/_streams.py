"""Recorded streams: `tests/golden/streams/<provider>/<case>.json`, one streamed reply each.

A case file holds:

- `"source"`: where the events come from (the API reference page or the SDK test fixture
  they were written from, and the date it was read);
- `"events"`: the events in order, as the API sends each in its server-sent event's `data:`
  (Bedrock: the event dicts boto3 yields from `converse_stream()["stream"]`);
- `"response"`: the non-streamed response of the same content (what the API returns without
  `stream`), or null when the case exercises the stream alone;
- optional `"sse_event_names"`: true when the API names each event in an `event:` line (the
  name is the event's `type`), as Anthropic and Responses do;
- optional `"sse_comments"`: the comment lines the API sends before the first event (`:
  OPENROUTER PROCESSING`, OpenRouter's keep-alive), each its own block of the body.

The directory is the provider's name; a Chat Completions stream (any provider on that wire)
ends with `data: [DONE]`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp

STREAMS = Path(__file__).resolve().parent.parent / "golden" / "streams"

# Providers whose events are not server-sent events (Bedrock's are AWS event-stream frames,
# which boto3, or for Claude's own body AnthropicBedrock, decodes into dicts).
NOT_SSE = frozenset({"bedrock", "anthropic-bedrock"})


def cases() -> list[Any]:
    """Every recorded stream, as `pytest.param(provider, name, case, id="provider/name")`."""
    found = []
    for path in sorted(STREAMS.glob("*/*.json")):
        case = json.loads(path.read_text("utf-8"))
        found.append(
            pytest.param(path.parent.name, path.stem, case, id=f"{path.parent.name}/{path.stem}")
        )
    return found


def sse_bytes(
    provider: str,
    events: list[Any],
    *,
    newline: str = "\n",
    names: bool = False,
    comments: Sequence[str] = (),
) -> bytes:
    """The `text/event-stream` body of `events`, as the API writes it (`comments` first)."""
    lines: list[str] = []
    for comment in comments:
        lines += [comment, ""]
    for event in events:
        if names and isinstance(event, dict) and isinstance(event.get("type"), str):
            lines.append(f"event: {event['type']}")
        lines.append(f"data: {json.dumps(event, ensure_ascii=False)}")
        lines.append("")
    if mp.providers.get(provider).wire == "openai":  # Chat Completions ends with [DONE]
        lines += ["data: [DONE]", ""]
    return (newline.join(lines) + newline).encode()


def chunks(body: bytes, sizes: Iterator[int]) -> list[bytes]:
    """`body` cut into pieces of the given sizes (cycled), the last whatever is left."""
    pieces, at = [], 0
    while at < len(body):
        size = max(1, next(sizes))
        pieces.append(body[at : at + size])
        at += size
    return pieces
