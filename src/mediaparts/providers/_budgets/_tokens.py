"""The results of `count_tokens`: a conversation's tokens, message by message, part by part."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, TypeAlias

__all__ = ["MessageTokens", "Method", "PartTokens", "TokenCount", "message_tokens", "part_tokens"]

Method: TypeAlias = Literal["exact", "approximate", "unknown"]
"""How a count was made: a documented formula or tokenizer, an approximation, or not at all."""


@dataclass(frozen=True, slots=True)
class PartTokens:
    """The tokens of one part (or of a message's framing), and how they were counted.

    Attributes:
        kind: The part's kind (`"text"`, `"image"`, `"tool_call"`, ...), `"error"` for a tool
            result's error line, or `"framing"` for the tokens a provider adds around a message
            or a request.
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
        parts: One `PartTokens` per part, in order, then a tool result's error line, then any
            framing (those two with index None).
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
        return _least(p.method for p in self.parts)

    @property
    def unknown(self) -> tuple[PartTokens, ...]:
        """The parts nobody could count (their tokens are not in `total`)."""
        return tuple(p for p in self.parts if p.method == "unknown")

    @property
    def parts(self) -> tuple[PartTokens, ...]:
        """Every part's count, message by message, then the request's framing."""
        return (*(p for message in self.messages for p in message.parts), *self.framing)


_ORDER: dict[Method, int] = {"exact": 0, "approximate": 1, "unknown": 2}


def _least(methods: Iterator[Method]) -> Method:
    return max(methods, key=_ORDER.__getitem__, default="exact")


# A count makes a PartTokens per part and a MessageTokens per message. The frozen dataclass's
# `__init__` sets each field through `object.__setattr__`; `object.__new__` and the slots' own
# setters make the same object in about half the time.
_new = object.__new__
_set_kind, _set_tokens, _set_method, _set_how, _set_index = (
    PartTokens.__dict__[name].__set__ for name in PartTokens.__slots__
)
_set_message_index, _set_role, _set_parts = (
    MessageTokens.__dict__[name].__set__ for name in MessageTokens.__slots__
)


def part_tokens(
    kind: str, tokens: int, method: Method, how: str, index: int | None = None
) -> PartTokens:
    """Return `PartTokens(kind, tokens, method, how, index)`, made faster (see above)."""
    made: PartTokens = _new(PartTokens)
    _set_kind(made, kind)
    _set_tokens(made, tokens)
    _set_method(made, method)
    _set_how(made, how)
    _set_index(made, index)
    return made


def message_tokens(index: int, role: str, parts: tuple[PartTokens, ...]) -> MessageTokens:
    """Return `MessageTokens(index, role, parts)`, made faster (see above)."""
    made: MessageTokens = _new(MessageTokens)
    _set_message_index(made, index)
    _set_role(made, role)
    _set_parts(made, parts)
    return made
