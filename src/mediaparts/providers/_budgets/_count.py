"""`count_tokens`: what a whole conversation costs on a provider, part by part.

Every part is counted and labelled: `"exact"` (a documented formula, or the provider's public
tokenizer), `"approximate"` (a documented approximation, named with its source) or `"unknown"`
(no rule, and no honest guess: 0 tokens, and the reason). One part never fails the count.
`estimate_tokens` is the total of this breakdown.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from mediaparts._boundary import Boundary
from mediaparts._conversation._make_part import Conversation, is_single_source, part
from mediaparts._conversation._messages import Assistant, Message, Usage, User
from mediaparts._conversation._parts import MediaPart, TextPart
from mediaparts._errors import InvalidConfig
from mediaparts.converting import TransformPolicy, using_transforms
from mediaparts.providers._budgets import _rates as _costs
from mediaparts.providers._budgets._count_parts import Counter
from mediaparts.providers._budgets._tokens import (
    MessageTokens,
    Method,
    PartTokens,
    TokenCount,
    message_tokens,
)
from mediaparts.providers._options import Options, renamed, resolve
from mediaparts.providers._registry import Provider, get
from mediaparts.providers._render import as_messages

__all__ = [
    "MessageTokens",
    "Method",
    "PartTokens",
    "TokenCount",
    "count_parts",
    "count_tokens",
    "estimate_tokens",
]

# Only MediaError leaves estimate_tokens (see Boundary).
_ESTIMATING = Boundary("estimating tokens")

# Only MediaError leaves count_tokens (see Boundary).
_COUNTING = Boundary("counting tokens")


@renamed("part_or_messages", "messages")
def count_tokens(
    messages: Conversation,
    provider: str | Provider,
    *,
    model: str | None = None,
    detail: str | None = None,
    transforms: TransformPolicy | None = None,
    options: Options | None = None,
) -> TokenCount:
    """Count a conversation's tokens on a provider, part by part, saying how each was counted.

    Text, tool calls and their results, reasoning and media are counted for the provider and
    model; each part is labelled exact, approximate or unknown (see `TokenCount`). One part
    without a rule is `"unknown"` with the reason, never an error for the whole count.

    Args:
        messages: A part (or anything `mp.part()` takes), a message, or messages (the
            keyword `part_or_messages` of earlier versions works, with a warning).
        provider: A provider name or `Provider`.
        model: The model, for model-dependent rules; None for each table's default row
            (see docs/providers.md: pass the model for a count that fits it).
        detail: The image detail level; defaults to each image's own `detail`.
        transforms: How media the provider cannot take as it is would be converted (what
            is counted is what would be sent); None for the policy in force.
        options: These settings as one `mp.Options` value (its `model`, `detail` and
            `transforms`); a keyword above that is given wins over its field.

    Returns:
        The breakdown; `.total` is what `estimate_tokens` returns.

    Raises:
        UnknownProvider: No provider has that name.
        InvalidConfig: `model` is not a string.
        InvalidMedia: `detail` is a level the provider does not take.
    """
    try:
        opts = resolve(options, model=model, detail=detail, transforms=transforms)
        chosen, conversation, single = _prepare(messages, provider, opts)
        with _using(opts.transforms):
            return count_parts(conversation, chosen, opts.model, opts.detail, framed=not single)
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _COUNTING.reraise(exc)


@renamed("part_or_messages", "messages")
def estimate_tokens(
    messages: Conversation,
    provider: str | Provider,
    *,
    model: str | None = None,
    detail: str | None = None,
    transforms: TransformPolicy | None = None,
    options: Options | None = None,
) -> int:
    """Return the estimated input tokens of a part or a conversation on a provider.

    The total of `count_tokens`. In a conversation, parts whose tokens are unknown add 0
    (`count_tokens` names them and says why). One media part alone whose tokens are unknown
    raises the reason instead: 0 would be a wrong answer, given silently.

    Args:
        messages: A part (or anything `mp.part()` takes), a message, or messages (the
            keyword `part_or_messages` of earlier versions works, with a warning).
        provider: A provider name or `Provider`.
        model: The model, for model-dependent rules; None for each table's default row
            (see docs/providers.md: pass the model for a count that fits it).
        detail: The image detail level; defaults to each image's own `detail`.
        transforms: How media the provider cannot take as it is would be converted; None
            for the policy in force.
        options: As for `count_tokens`.

    Returns:
        The estimated tokens.

    Raises:
        UnknownProvider: No provider has that name.
        InvalidMedia: `detail` is a level the provider does not take.
        UnsupportedMediaType: One part alone, of media the provider does not take.
        NoDocumentedRule: One part alone, of media with no documented token rule.
        InvalidMedia: One part alone, whose size, duration or page count cannot be read.
    """
    try:
        opts = resolve(options, model=model, detail=detail, transforms=transforms)
        chosen, conversation, single = _prepare(messages, provider, opts)
        with _using(opts.transforms):
            return count_parts(
                conversation, chosen, opts.model, opts.detail, strict=single, framed=not single
            ).total
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _ESTIMATING.reraise(exc)


def _using(transforms: Any) -> contextlib.AbstractContextManager[Any]:
    """The policy given, in force for the count (normalize reads it); else the one in force."""
    if transforms is None:
        return contextlib.nullcontext()
    if not isinstance(transforms, TransformPolicy):
        raise InvalidConfig(
            f"transforms must be a TransformPolicy, got {type(transforms).__name__}"
        )
    return using_transforms(transforms)


def _prepare(
    value: Any, provider: str | Provider, options: Options
) -> tuple[Provider, list[Message], bool]:
    """Return the provider, the messages, and whether `value` was one part on its own."""
    chosen = get(provider, options.model)
    # A level the provider has no such level for is refused up front (an argument, not a
    # part's own hint), as normalize refuses it.
    _costs.choose_detail(chosen, None, options.detail, None)
    if isinstance(value, MediaPart | TextPart):
        return chosen, [User([value])], True
    if isinstance(value, str | os.PathLike) or is_single_source(value):
        # One piece of media, as `mp.part` reads it (`render` reads a str as a prompt instead).
        return chosen, [User([part(value)])], True
    return chosen, as_messages(value), False


def count_parts(
    messages: list[Message],
    provider: Provider,
    model: str | None,
    detail: str | None,
    *,
    strict: bool = False,
    framed: bool = True,
) -> TokenCount:
    """Count each part of each message; see `mp.count_tokens`.

    Args:
        messages: The conversation.
        provider: The provider.
        model: The model, or None.
        detail: An image detail level for every image, or None.
        strict: Raise a media part's reason instead of counting it unknown.
        framed: Add the provider's framing (False for one part on its own: its own cost).
    """
    counter = Counter(provider, model, detail, strict=strict)
    count_part, tool_error, framing = counter.part, counter.tool_error, counter.framing
    last_user = next(
        (i for i in range(len(messages) - 1, -1, -1) if messages[i].role == "user"), -1
    )
    counted = []
    for i, message in enumerate(messages):
        earlier = i < last_user
        parts = [count_part(p, j, earlier_turn=earlier) for j, p in enumerate(message.parts)]
        if isinstance(message, Assistant) and message.usage is not None:
            parts = _reported_reasoning(parts, message.usage)
        error = tool_error(message)
        if error is not None:
            parts.append(error)
        frame = framing(message) if framed else None
        if frame is not None:
            parts.append(frame)
        counted.append(message_tokens(i, message.role, tuple(parts)))
    return TokenCount(
        provider=provider.name,
        model=model,
        messages=tuple(counted),
        framing=counter.request_framing() if framed else (),
    )


def _reported_reasoning(parts: list[PartTokens], usage: Usage) -> list[PartTokens]:
    """Price reasoning whose size is unknown (encrypted, redacted) from the reasoning tokens
    the response that made it reported (the message's `usage`).

    Sent back, an item costs about what it cost to produce: approximate. Several such parts
    share the reported count evenly (the remainder to the first).
    """
    unknown = [at for at, p in enumerate(parts) if p.kind == "reasoning" and p.method == "unknown"]
    if not usage.reasoning_tokens or not unknown:
        return parts
    share, extra = divmod(usage.reasoning_tokens, len(unknown))
    how = "the reasoning tokens its response reported (usage.reasoning_tokens), shared by its items"
    out = list(parts)
    for n, at in enumerate(unknown):
        was = parts[at]
        tokens = share + (extra if n == 0 else 0)
        out[at] = PartTokens("reasoning", tokens, "approximate", how, was.index)
    return out
