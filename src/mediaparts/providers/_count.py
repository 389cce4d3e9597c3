"""`count_tokens`: what a whole conversation costs on a provider, part by part.

Every part is counted and labelled: `"exact"` (a documented formula, or the provider's public
tokenizer), `"approximate"` (a documented approximation, named with its source) or `"unknown"`
(no rule, and no honest guess: 0 tokens, and the reason). One part never fails the count.
`estimate_tokens` is the total of this breakdown.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from typing_extensions import assert_never

from mediaparts._build import is_single_source, part
from mediaparts._errors import MediaError
from mediaparts._messages import Message, User
from mediaparts._parts import (
    MediaPart,
    Part,
    ProviderPart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
)
from mediaparts.providers._estimate import media_part_tokens
from mediaparts.providers._registry import Provider, get
from mediaparts.providers._render import as_messages
from mediaparts.providers._vision import check_model

__all__ = ["MessageTokens", "Method", "PartTokens", "TokenCount", "count_parts"]

Method: TypeAlias = Literal["exact", "approximate", "unknown"]
"""How a count was made: a documented formula or tokenizer, an approximation, or not at all."""


@dataclass(frozen=True, slots=True)
class PartTokens:
    """The tokens of one part (or of a message's framing), and how they were counted.

    Attributes:
        kind: The part's kind (`"text"`, `"image"`, `"tool_call"`, ...), or `"framing"` for the
            tokens a provider adds around a message or a request.
        tokens: The count; 0 when `method` is `"unknown"`.
        method: `"exact"`, `"approximate"` or `"unknown"`.
        how: What counted it and its source (`"o200k_base tokenizer"`, `"OpenAI tiles
            formula"`), or why it is unknown.
        index: The part's position in its message's `parts`; None for framing.
    """

    kind: str
    tokens: int
    method: Method
    how: str
    index: int | None = None


@dataclass(frozen=True, slots=True)
class MessageTokens:
    """The tokens of one message: its parts' counts, framing included.

    Attributes:
        index: The message's position in the conversation.
        role: Its role.
        parts: One `PartTokens` per part, in order, then any framing.
    """

    index: int
    role: str
    parts: tuple[PartTokens, ...]

    @property
    def tokens(self) -> int:
        """The message's tokens (unknown parts count 0)."""
        return sum(p.tokens for p in self.parts)

    @property
    def method(self) -> Method:
        """The least certain method among its parts."""
        return _least(p.method for p in self.parts)


@dataclass(frozen=True, slots=True)
class TokenCount:
    """A conversation's token count on one provider and model, message by message.

    Attributes:
        provider: The provider's name.
        model: The model the rules were taken for (None: each table's default).
        messages: One `MessageTokens` per message, in order.
        framing: Tokens the provider adds once per request (reply priming, ...).
    """

    provider: str
    model: str | None
    messages: tuple[MessageTokens, ...]
    framing: tuple[PartTokens, ...] = ()

    @property
    def total(self) -> int:
        """Every message's tokens and the request's framing (unknown parts count 0)."""
        return sum(m.tokens for m in self.messages) + sum(p.tokens for p in self.framing)

    @property
    def method(self) -> Method:
        """`"exact"` when every part is, `"unknown"` when any part is, else `"approximate"`."""
        return _least(p.method for p in self.parts())

    @property
    def unknown(self) -> tuple[PartTokens, ...]:
        """The parts nobody could count (their tokens are not in `total`)."""
        return tuple(p for p in self.parts() if p.method == "unknown")

    def parts(self) -> Iterator[PartTokens]:
        """Every part's count, message by message, then the request's framing."""
        for message in self.messages:
            yield from message.parts
        yield from self.framing


def count_tokens(
    part_or_messages: Any,
    provider: str | Provider,
    *,
    model: str | None = None,
    detail: str | None = None,
) -> TokenCount:
    """Count a conversation's tokens on a provider, part by part, saying how each was counted.

    Text, tool calls and their results, reasoning and media are counted for the provider and
    model; each part is labelled exact, approximate or unknown (see `TokenCount`). One part
    without a rule is `"unknown"` with the reason, never an error for the whole count.

    Args:
        part_or_messages: A part (or anything `mp.part()` takes), a message, or messages.
        provider: A provider name or `Provider`.
        model: The model, for model-dependent rules; None for the newest documented rule.
        detail: The image detail level; defaults to each image's own `detail`.

    Returns:
        The breakdown; `.total` is what `estimate_tokens` returns.

    Raises:
        UnknownProvider: No provider has that name.
        InvalidConfig: `model` is not a string.
    """
    chosen = get(provider)
    check_model(model)
    if isinstance(part_or_messages, MediaPart | TextPart):
        messages: list[Message] = [User([part_or_messages])]
    elif isinstance(part_or_messages, str | os.PathLike) or is_single_source(part_or_messages):
        # One piece of media, as `mp.part` reads it (`render` reads a str as a prompt instead).
        messages = [User([part(part_or_messages)])]
    else:
        messages = as_messages(part_or_messages)
    return count_parts(messages, chosen, model, detail)


def estimate_tokens(
    part_or_messages: Any,
    provider: str | Provider,
    *,
    model: str | None = None,
    detail: str | None = None,
) -> int:
    """Return the estimated input tokens of a part or a conversation on a provider.

    The total of `count_tokens`: parts whose tokens are unknown add 0 (`count_tokens` names
    them and says why).

    Args:
        part_or_messages: A part (or anything `mp.part()` takes), a message, or messages.
        provider: A provider name or `Provider`.
        model: The model, for model-dependent rules; None for the newest documented rule.
        detail: The image detail level; defaults to each image's own `detail`.

    Returns:
        The estimated tokens.

    Raises:
        UnknownProvider: No provider has that name.
    """
    return count_tokens(part_or_messages, provider, model=model, detail=detail).total


_ORDER: dict[Method, int] = {"exact": 0, "approximate": 1, "unknown": 2}


def _least(methods: Iterator[Method]) -> Method:
    return max(methods, key=_ORDER.__getitem__, default="exact")


def count_parts(
    messages: list[Message], provider: Provider, model: str | None, detail: str | None
) -> TokenCount:
    """Count each part of each message; see `mp.count_tokens`."""
    counted = tuple(
        MessageTokens(
            index=i,
            role=m.role,
            parts=tuple(_part(p, j, provider, model, detail) for j, p in enumerate(m.parts)),
        )
        for i, m in enumerate(messages)
    )
    return TokenCount(provider=provider.name, model=model, messages=counted)


def _part(
    part: Part, index: int, provider: Provider, model: str | None, detail: str | None
) -> PartTokens:
    match part:
        case TextPart():
            return _text("text", part.text, index)
        case ReasoningPart():
            return _text("reasoning", part.text or "\n".join(part.summary), index)
        case ToolCall():
            return _text("tool_call", f"{part.name}{part.arguments}", index)
        case RefusalPart():
            return _text("refusal", part.text, index)
        case ProviderPart():
            return PartTokens("provider", 0, "unknown", "a provider's own block", index)
        case MediaPart():
            try:
                tokens, how = media_part_tokens(part, provider, model, detail)
            except MediaError as exc:
                return PartTokens(part.kind, 0, "unknown", str(exc), index)
            return PartTokens(part.kind, tokens, "exact", how, index)
        case _:
            assert_never(part)


def _text(kind: str, text: str, index: int) -> PartTokens:
    # Placeholder approximation until the text rules land: about 4 characters per token.
    return PartTokens(kind, math.ceil(len(text) / 4), "approximate", "~4 characters a token", index)
