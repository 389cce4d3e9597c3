"""`TextRule`: how a provider counts text, one row of a provider's `TEXT` table.

A row names the provider's public tokenizer where there is one (`encoding`, counted offline by
the optional `[tokens]` extra), the approximation used otherwise (`chars_per_token`, with what
it is and its source in `approximation`), the tokens the provider adds around each message and
once per request (`per_message`, `per_name`, `per_request`, with their source in `framing`), and
what replayed reasoning costs (`reasoning`). Each provider module holds its own table with its
sources; `Rules.text_for(model)` picks the row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, TypeAlias

from mediaparts._errors import InvalidConfig, excerpt
from mediaparts.providers._budgets._vision import ModelRule

__all__ = ["GENERIC_TEXT", "Replay", "TextRule", "TextTable"]

# What reasoning replayed in a request costs: its text, nothing before the last user turn (a
# provider that strips earlier thinking), nothing because the API takes none, or unknown.
Replay: TypeAlias = Literal["counted", "earlier_turns_free", "not_sent", "unknown"]

_REPLAYS: tuple[Replay, ...] = ("counted", "earlier_turns_free", "not_sent", "unknown")


@dataclass(frozen=True)
class TextRule:
    """How one provider (and model) counts the tokens of text.

    Attributes:
        encoding: The public tokenizer's encoding (`"o200k_base"`); None where none is public.
            Counted with `bpe-openai` (the `[tokens]` extra) when installed.
        chars_per_token: The approximation used without the tokenizer: characters per token.
        approximation: What that approximation is, and its source.
        per_message: Tokens added around each message (OpenAI: 3); the role's own tokens are
            added too when `per_message` is set.
        per_name: Tokens added when a message carries a `name` (beside the name's own tokens).
        per_request: Tokens added once per request (OpenAI: 3, priming the reply).
        framing: What the framing numbers are, and their source ("" when none is documented).
        reasoning: What replayed reasoning costs (see `Replay`).
        reasoning_source: Why, and the source.
    """

    encoding: str | None = None
    chars_per_token: float = 4.0
    approximation: str = "about 4 characters a token"
    per_message: int = 0
    per_name: int = 0
    per_request: int = 0
    framing: str = ""
    reasoning: Replay = "counted"
    reasoning_source: str = ""

    def __post_init__(self) -> None:
        # A wrong value would otherwise surface as a ZeroDivisionError or a silent 0 in the middle
        # of a count; the error policy wants it here, naming the field.
        rate = self.chars_per_token
        if isinstance(rate, bool) or not isinstance(rate, int | float) or not rate > 0:
            raise InvalidConfig(
                f"TextRule.chars_per_token must be a positive number, got {excerpt(rate)}"
            )
        if self.encoding is not None and not isinstance(self.encoding, str):
            raise InvalidConfig(
                f"TextRule.encoding must be a name or None, got {excerpt(self.encoding)}"
            )
        for name in ("per_message", "per_name", "per_request"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidConfig(
                    f"TextRule.{name} must be a whole number >= 0, got {excerpt(value)}"
                )
        if self.reasoning not in _REPLAYS:
            raise InvalidConfig(
                f"TextRule.reasoning must be one of {', '.join(_REPLAYS)}, got "
                f"{excerpt(self.reasoning)}"
            )

    @property
    def framed(self) -> bool:
        """Whether the provider documents tokens around messages or requests."""
        return bool(self.per_message or self.per_name or self.per_request)

    def describe(self) -> str:
        """Return one line describing how text is counted, for the docs' provider table."""
        if self.encoding is None:
            return self.approximation
        return f"`{self.encoding}` tokenizer (the `[tokens]` extra); else {self.approximation}"

    def approximate(self, text: str) -> int:
        """Return the approximate tokens of `text`: its characters over `chars_per_token`."""
        return math.ceil(len(text) / self.chars_per_token)


TextTable: TypeAlias = tuple[ModelRule[TextRule], ...]
"""A provider's model-keyed text rules, first match wins (each provider's `TEXT`)."""

# For a provider without a TEXT table (one registered from outside): the rule of thumb both
# OpenAI ("1 token ~= 4 chars in English", help.openai.com "What are tokens and how to count
# them?") and Google ("a token is equivalent to about 4 characters", ai.google.dev/gemini-api/
# docs/tokens) publish, read 2026-11.
GENERIC_TEXT = TextRule(
    approximation="about 4 characters a token (no text rule for this provider: the common rule "
    "of thumb two providers publish)",
)
