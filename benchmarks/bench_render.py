"""`mp.render` and `mp.messages_from` over 1,000 text messages, for each built-in provider;
`mp.render` of a conversation with photos again, and `mp.count_tokens` of it again.

These are the paths an application takes on every request. The baseline is the least any
library can do for the same request: the provider's message dicts built by one comprehension
(render), or walked once for their texts (reading back). Rows also guard the split of wires
from providers: a provider's record resolves its wire once, so dispatching through it costs
nothing per message.

A conversation is rendered again on every turn of a chat: its photos were fitted the first time,
and a part remembers what it was fitted to, so rendering it again decodes nothing (issue 30:
at most 0.2x the first render of fresh parts), nor does counting it again read a header.

Reading a payload back costs at most 1.5x rendering the same messages
(`messages_from / render`, of text and of a tool loop with image URLs, so that more than
plain text goes through the readers), and a message costs as much in a conversation of
10,000 as in one of 1,000 (per-message time at 10,000 against that at 1,000, at most 1.3x for
render; reported for messages_from).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from bench_count import text_conversation
from harness import Row, cached, median_time

import mediaparts as mp
from mediaparts.testing import MediaFactory

MESSAGES = 1000
LONG = 10_000
PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "bedrock")
# A chat of 20 messages with two phone photos (12 MP, one landscape, one portrait).
TURNS = 20
PHOTO = (4032, 3024)

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


def tool_conversation(n: int, provider: str) -> list[mp.Message]:
    """`n` messages of a tool loop: a question (with an image by URL, for a provider that
    takes image URLs), a call, its result, an answer; after a system message."""
    urls = bool(mp.providers.get(provider).rules.image.url_types)
    messages: list[mp.Message] = [mp.System("You are a careful analyst.")]
    turn = 0
    while len(messages) < n:
        image = mp.ImagePart.from_url(f"https://media.example/{turn}.png", media_type="image/png")
        call = mp.ToolCall(id=f"call_{turn}", name="lookup", arguments=f'{{"row": {turn}}}')
        messages += [
            mp.User(f"What is in row {turn}?", files=[image] if urls else None),
            mp.Assistant(tool_calls=[call]),
            mp.Tool(f"row {turn}: 42 units", tool_call_id=call.id),
            mp.Assistant(f"Row {turn} holds 42 units."),
        ]
        turn += 1
    return messages[:n]


def _per_message(messages: list[mp.Message], provider: str, repeat: int) -> tuple[float, float]:
    """Time per message of render and of messages_from (of that render) of `messages`."""
    payload = mp.render(messages, provider)
    render = median_time(functools.partial(mp.render, messages, provider), repeat=repeat)
    read = median_time(functools.partial(mp.messages_from, payload, provider), repeat=repeat)
    return render / len(messages), read / len(messages)


def run() -> list[Row]:
    """Time render and messages_from of 1,000 messages for each provider, against the floors,
    against each other, and per message against 10,000 messages; render and count a
    conversation with photos again."""
    messages = text_conversation(MESSAGES)
    turns = [
        (m.role, "".join(p.text for p in m.parts if isinstance(p, mp.TextPart))) for m in messages
    ]
    rows = []
    for provider in PROVIDERS:
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
    long = text_conversation(LONG)
    for provider in PROVIDERS:
        short = _per_message(messages, provider, repeat=7)
        tools = _per_message(tool_conversation(MESSAGES, provider), provider, repeat=7)
        for kind, (render, read) in (("text messages", short), ("messages of a tool loop", tools)):
            rows.append(
                Row(
                    f"messages_from / render, {MESSAGES:,} {kind}, {provider}",
                    read,
                    render,
                    "render of the same messages",
                    target="≤ 1.5×",
                    goal=("≤", 1.5),
                    note="per message",
                )
            )
        long_render, long_read = _per_message(long, provider, repeat=3)
        rows.append(
            Row(
                f"render per message, {LONG:,} vs {MESSAGES:,} text messages, {provider}",
                long_render,
                short[0],
                f"per message at {MESSAGES:,}",
                target="≤ 1.3×",
                goal=("≤", 1.3),
            )
        )
        rows.append(
            Row(
                f"messages_from per message, {LONG:,} vs {MESSAGES:,} text messages, {provider}",
                long_read,
                short[1],
                f"per message at {MESSAGES:,}",
            )
        )
    return rows + again_rows()


def _photos(orientation: int | None) -> tuple[bytes, bytes]:
    """Two phone-size JPEGs (landscape and portrait), stored sideways with EXIF orientation 6
    as phones write them, or upright."""
    media = MediaFactory()
    turned = f"-orient{orientation}" if orientation else ""
    made = []
    for width, height in (PHOTO, PHOTO[::-1]):
        name = f"phone-{width}x{height}{turned}.jpg"
        made.append(
            cached(name, lambda w=width, h=height: media.image(w, h, "jpeg", orientation).data)
        )
    return made[0], made[1]


def photo_conversation(photos: tuple[bytes, bytes] | None) -> list[mp.Message]:
    """`TURNS` messages of text, the photos (new parts) in two of the user messages; without
    photos, the same messages of text alone."""
    parts = [mp.ImagePart.from_bytes(data, filename="photo.jpg") for data in photos or ()]
    messages: list[mp.Message] = [mp.System("You are a careful assistant.")]
    for i in range(TURNS - 1):
        text = f"message {i}: what changed between the two pictures, and why does it matter?"
        if parts and i in (2, 10):
            messages.append(mp.User(text, files=[parts[0 if i == 2 else 1]]))
        else:
            messages.append(mp.User(text) if i % 2 == 0 else mp.Assistant(text))
    return messages


def _first(provider: str, photos: tuple[bytes, bytes], repeat: int) -> float:
    """Median seconds of the first render of a conversation of fresh parts (made untimed)."""
    fresh = iter([photo_conversation(photos) for _ in range(repeat + 1)])
    return median_time(lambda: mp.render(next(fresh), provider), repeat=repeat)


def again_rows(repeat: int = 5) -> list[Row]:
    """Render a conversation with two sideways phone photos again, and count it again."""
    photos = _photos(6)
    rows = []
    for provider in PROVIDERS:
        conversation = photo_conversation(photos)
        first_payload = mp.render(conversation, provider)
        again = median_time(functools.partial(mp.render, conversation, provider), repeat=15)
        same = mp.render(conversation, provider) == first_payload
        rows.append(
            Row(
                f"render again, {TURNS} messages with two sideways 12 MP photos, {provider}",
                again,
                _first(provider, photos, repeat),
                "the first render of fresh parts (photos fitted)",
                target="≤ 0.2× (issue 30)",
                goal=("≤", 0.2),
                note=f"per call; payload identical to the first: {'yes' if same else '**no**'}",
            )
        )
    upright = photo_conversation(_photos(None))
    texts = photo_conversation(None)
    for provider in ("openai", "anthropic", "gemini"):
        first = min(_first_count(provider) for _ in range(3))
        mp.count_tokens(upright, provider)
        rows.append(
            Row(
                f"count_tokens again, {TURNS} messages with two upright 12 MP photos, {provider}",
                median_time(functools.partial(mp.count_tokens, upright, provider), repeat=15),
                median_time(functools.partial(mp.count_tokens, texts, provider), repeat=15),
                "count_tokens of the same messages without the photos",
                target="≤ 1.3× (issue 30: no header read again)",
                goal=("≤", 1.3),
                note=f"per call; the first count of fresh parts: {first * 1e6:.0f} µs",
            )
        )
    return rows


def _first_count(provider: str) -> float:
    """Seconds of one count of fresh parts: every header read for the first time."""
    fresh = photo_conversation(_photos(None))
    start = time.perf_counter()
    mp.count_tokens(fresh, provider)
    return time.perf_counter() - start
