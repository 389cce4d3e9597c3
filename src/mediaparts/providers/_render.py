"""`render`: messages (or parts) to the exact keyword arguments of a provider's SDK call."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from mediaparts._build import part
from mediaparts._errors import InvalidMedia
from mediaparts._messages import Assistant, Message, System, Tool, User
from mediaparts._parts import MediaPart
from mediaparts.providers._normalize import UrlMode, _check_urls, anormalize, normalize
from mediaparts.providers._normalized import NormalizedPart
from mediaparts.providers._registry import Provider, get

__all__ = ["arender", "as_messages", "render"]

_MESSAGE_TYPES = (System, User, Assistant, Tool)


def as_messages(value: Any) -> list[Message]:
    """Read a message, a list of messages, or parts (one user message) as a message list.

    A single value is one part (a `str` is a path, URL or data URI, as for `mp.part`); in a
    list, as in message content, a `str` is text.
    """
    if isinstance(value, _MESSAGE_TYPES):
        return [value]
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        return [User([part(value)])]
    items = list(value)
    if items and all(isinstance(m, _MESSAGE_TYPES) for m in items):
        return items
    if any(isinstance(m, _MESSAGE_TYPES) for m in items):
        raise InvalidMedia("give render() messages, or parts for one user message, not a mix")
    return [User(items)]


def render(
    messages_or_parts: Any,
    provider: str | Provider,
    *,
    model: str | None = None,
    urls: UrlMode = "auto",
) -> dict[str, Any]:
    """Render messages into the keyword arguments of the provider's SDK call.

    Every media part is normalized for the provider first (fitted, converted, or refused
    with `UnsupportedMediaType`), so what is rendered is what the provider accepts.

    Args:
        messages_or_parts: Messages, or parts (made into one user message).
        provider: A provider name or `Provider`.
        model: The model, for model-dependent rules.
        urls: `"auto"`, `"inline"` or `"pass"` (see `normalize`).

    Returns:
        `openai`: `{"messages": [...]}`; `openai-responses`: `{"input": [...]}`;
        `anthropic`: `{"system": ..., "messages": [...]}`; `gemini`: the `generateContent`
        body; `bedrock`: `{"messages": [...], "system": [...]}` for `converse`.

    Raises:
        InvalidConfig: `urls` is not one of the three modes.
        UnknownProvider: No provider has that name.
        MediaError: Whatever `normalize` raises for a part (a subclass of it).
    """
    # Sync twin of `arender` (parts normalized in turn vs concurrently); the provider's
    # renderer does the rest, once.
    _check_urls(urls, model)
    chosen = get(provider)
    messages = as_messages(messages_or_parts)
    done: dict[int, NormalizedPart] = {}

    def prepare(part: MediaPart) -> NormalizedPart:
        key = id(part)
        if key not in done:
            done[key] = normalize(part, chosen, model=model, urls=urls)
        return done[key]

    return chosen.renderer(messages, prepare)


async def arender(
    messages_or_parts: Any,
    provider: str | Provider,
    *,
    model: str | None = None,
    urls: UrlMode = "auto",
) -> dict[str, Any]:
    """`render` for async code: URL parts are fetched concurrently, images fitted in threads."""
    # Async twin of `render` (parts normalized concurrently vs in turn); the provider's
    # renderer does the rest, once.
    _check_urls(urls, model)
    chosen = get(provider)
    messages = as_messages(messages_or_parts)
    media = list({id(p): p for m in messages for p in m.files}.values())
    ready = await asyncio.gather(*(anormalize(p, chosen, model=model, urls=urls) for p in media))
    table = {id(p): n for p, n in zip(media, ready, strict=True)}
    return chosen.renderer(messages, lambda part: table[id(part)])
