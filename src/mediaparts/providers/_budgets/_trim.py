"""`trim`: cut a conversation down to a token budget, whole turns at a time.

The conversation is its system messages, always kept where they stand, and its other
messages, grouped into turns: a turn starts at a `User` message and runs to the next one
(messages before the first `User` message form a turn of their own). A tool loop (assistant
calls, `Tool` results, more calls) lies inside one turn. Trimming drops the oldest turns,
whole, and never cuts inside a message; a cut that would leave a `Tool` result without its
call (a `User` message between a call and its result) is not a cut. See docs/trimming.md.

The conversation is counted once (`count_tokens`); each cut's size is a suffix sum of the
messages' counts. Asked to shrink images, trim makes a cheaper copy of an image only for the
turns it may keep. A caller's own `token_counter` counts whole candidate conversations
instead, the cuts searched by bisection.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, get_args

from mediaparts._boundary import Boundary, theirs
from mediaparts._conversation._make_part import Conversation
from mediaparts._conversation._messages import Message, System, User
from mediaparts._conversation._parts import ImagePart, Part
from mediaparts._conversation._tool_pairs import answered_calls
from mediaparts._errors import BudgetExceeded, InvalidConfig, NoDocumentedRule, excerpt
from mediaparts.providers._budgets._count import PartTokens, TokenCount, count_tokens
from mediaparts.providers._budgets._shrink import Shrinker
from mediaparts.providers._options import Options, resolve
from mediaparts.providers._registry import Provider, get
from mediaparts.providers._render import as_messages

__all__ = ["TokenCounter", "Unknown", "trim"]

# Only MediaError leaves trim (see Boundary).
_TRIMMING = Boundary("trimming a conversation")

Unknown: TypeAlias = Literal["error", "ignore"]
"""What `trim` does when a message it keeps holds a part whose tokens nobody can count."""

TokenCounter: TypeAlias = Callable[[list[Message]], int]
"""A caller's own count of a conversation's input tokens, for `trim(token_counter=...)`."""

_UNKNOWN = get_args(Unknown)
# How many unknown parts an error lists before saying "and N more".
_SHOWN = 5


def trim(
    messages: Conversation,
    provider: str | Provider,
    *old: Any,
    max_tokens: int | None = None,
    model: str | None = None,
    shrink_images: bool = False,
    shrink_to: int = 512,
    unknown: Unknown = "error",
    options: Options | None = None,
    token_counter: TokenCounter | None = None,
) -> list[Message]:
    """Return the conversation cut down to `max_tokens`: system messages and newest turns.

    Every system message is kept. The other messages are grouped into turns, each starting
    at a `User` message; the oldest turns are dropped, whole, until the rest fits as
    `count_tokens(..., provider, model=model)` counts it. A tool call and its result are never
    separated, and no message is cut into, so reasoning stays with the tool calls it came
    with. When the conversation fits, it is returned as it is (a new list).

    With `shrink_images=True`, images are made cheaper before any turn is dropped: the kept
    turns are chosen as if each of their images were at its cheapest, then their images are
    replaced, oldest first, only until the conversation fits. An image's cheapest form is a
    lower `detail` level where the provider and model price one lower, else a copy whose
    long side is `shrink_to` pixels (decoded and re-encoded; never enlarged), kept only when
    it counts fewer tokens.

    With `token_counter=fn`, `fn(messages)` counts instead of `count_tokens`: it is given
    candidate conversations (new lists of the caller's messages: the system messages and the
    turns from one cut on) and returns their tokens, an int >= 0. Cuts and their guarantees
    are the same. It is asked about the whole conversation, then the newest turn, then by
    bisection, so a conversation of n turns costs about 2 + log2(n) calls; this assumes that
    dropping a turn never raises the count, and the result is always a conversation `fn`
    said fits. `shrink_images=True` is refused with it (shrinking sizes each image copy by
    the provider's rules, which `fn` replaces), and `unknown` does not apply (`fn` counts
    every part); `model` and `options` then only name the model in errors.

    Args:
        messages: The conversation: messages, or parts for one user message (a `str` is a
            prompt, as for `render`).
        provider: A provider name or `Provider`.
        *old: Nothing: the order `trim(messages, max_tokens, provider, model)` of earlier
            versions still works, with a `DeprecationWarning`.
        max_tokens: The input tokens the result may have (leave room for the reply).
        model: The model, for model-dependent rules; None for each table's default row
            (see docs/providers.md: pass the model for a count that fits it).
        shrink_images: Make images cheaper before dropping turns.
        shrink_to: The long side, in pixels, of an image's smaller copy.
        unknown: When a kept message has a part whose tokens are unknown (they count 0):
            `"error"` raises, `"ignore"` keeps it and trusts the rest of the count.
        options: The count's settings as one `mp.Options` value (its `model`, `detail` and
            `transforms`, as for `count_tokens`); a keyword that is given wins over its field.
        token_counter: Your own count of a list of messages, used instead of
            `count_tokens`; what it raises is raised as it is.

    Returns:
        A new list: the kept messages, in their order, the same objects as given (a message
        whose images were shrunk is a new message holding new image parts).

    Raises:
        BudgetExceeded: Even the system messages and the newest turn (shrunk, if asked) are
            over `max_tokens`; it carries the fewest tokens possible (`tokens`).
        NoDocumentedRule: `unknown="error"` and a kept part's tokens are unknown.
        InvalidConfig: An option is out of range; `token_counter` is not callable, returns
            something other than an int >= 0, or is given with `shrink_images=True`.
        UnknownProvider: No provider has that name.
        MediaTooLarge, InvalidMedia: An image to shrink cannot be decoded.
    """
    if old:
        provider, max_tokens, model = _old_order(provider, old, max_tokens, model)
    try:
        opts = resolve(options, model=model)
        model = opts.model
        chosen = get(provider, model)
        _check_options(max_tokens, shrink_images, shrink_to, unknown)
        assert max_tokens is not None  # checked
        if token_counter is not None:
            _check_counter(token_counter, shrink_images)
            return _trim_counted(as_messages(messages), max_tokens, token_counter, chosen, model)
        conversation = as_messages(messages)
        counted = count_tokens(conversation, chosen, options=opts)
        plan = _Plan.of(conversation, counted)
        cut = plan.cut(max_tokens)
        replaced: dict[tuple[int, int], ImagePart] = {}
        if shrink_images and plan.size(0) > max_tokens:
            shrinker = Shrinker(conversation, counted, chosen, model, shrink_to)
            cut = plan.cut_shrunk(max_tokens, shrinker)
            replaced = plan.shrink(cut, max_tokens, shrinker)
        if cut is None:
            newest = [conversation[i] for i in plan.rest[plan.cuts[-1] :]]
            hint = not shrink_images and any(
                isinstance(p, ImagePart) for m in newest for p in m.parts
            )
            # With shrinking, the newest turn was costed first; without, it is a suffix sum.
            least = plan.smallest if shrink_images else None
            raise _over_budget(
                plan.length,
                plan.rest,
                plan.cuts[-1],
                plan.size(plan.cuts[-1]) if least is None else least,
                (max_tokens, chosen, model),
                note=" with its images shrunk" if shrink_images else "",
                hint=hint,
            )
        kept = plan.kept(cut)
        if unknown == "error":
            _refuse_unknown(counted, kept, replaced, chosen, model)
        touched = {index for index, _ in replaced}
        return [
            _with_parts(conversation[i], i, replaced) if i in touched else conversation[i]
            for i in kept
        ]
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _TRIMMING.reraise(exc)


def _old_order(
    first: Any, old: tuple[Any, ...], max_tokens: int | None, model: str | None
) -> tuple[Any, Any, Any]:
    """Read `trim(messages, max_tokens, provider, model)`, the order of earlier versions."""
    reordered = isinstance(first, int) and not isinstance(first, bool)
    if not reordered or len(old) > 2 or max_tokens is not None or (len(old) == 2 and model):
        raise TypeError(
            "trim() takes (messages, provider, *, max_tokens, model, ...); got "
            f"{2 + len(old)} positional arguments"
        )
    warnings.warn(
        "trim(messages, max_tokens, provider, model) is deprecated; call "
        "trim(messages, provider, max_tokens=..., model=...)",
        DeprecationWarning,
        stacklevel=3,
    )
    return old[0], first, (old[1] if len(old) == 2 else model)


def _check_options(max_tokens: Any, shrink_images: Any, shrink_to: Any, unknown: Any) -> None:
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 0:
        raise InvalidConfig(f"max_tokens must be an int >= 0, got {excerpt(max_tokens)}")
    if type(shrink_images) is not bool:
        raise InvalidConfig(f"shrink_images must be True or False, got {excerpt(shrink_images)}")
    if not isinstance(shrink_to, int) or isinstance(shrink_to, bool) or shrink_to < 1:
        raise InvalidConfig(f"shrink_to must be an int >= 1 (pixels), got {excerpt(shrink_to)}")
    if unknown not in _UNKNOWN:
        raise InvalidConfig(f"unknown must be one of {', '.join(_UNKNOWN)}, got {excerpt(unknown)}")


def _check_counter(counter: Any, shrink_images: bool) -> None:
    if not callable(counter):
        raise InvalidConfig(
            f"token_counter must be a function of a list of messages, got {type(counter).__name__}"
        )
    if shrink_images:
        raise InvalidConfig(
            "trim: shrink_images=True cannot be used with token_counter: shrinking chooses and "
            "sizes each image's cheaper copy by the provider's rules, which your counter "
            "replaces. Shrink images before trimming, or let trim count (no token_counter)"
        )


def _trim_counted(
    conversation: list[Message],
    max_tokens: int,
    counter: TokenCounter,
    provider: Provider,
    model: str | None,
) -> list[Message]:
    """Trim with the caller's count of whole conversations: the first cut whose conversation
    fits, found by bisection (dropping turns never adds tokens)."""
    rest = [i for i, m in enumerate(conversation) if not isinstance(m, System)]
    cuts = _cuts(conversation, rest)

    def keeping(cut: int) -> list[Message]:
        dropped = set(rest[:cut])
        return [m for i, m in enumerate(conversation) if i not in dropped]

    whole = keeping(cuts[0])
    total = _count(counter, whole)
    if total <= max_tokens:
        return whole
    newest = keeping(cuts[-1]) if len(cuts) > 1 else whole
    smallest = _count(counter, newest) if len(cuts) > 1 else total
    if smallest > max_tokens:
        raise _over_budget(
            len(conversation),
            rest,
            cuts[-1],
            smallest,
            (max_tokens, provider, model),
            note=" (as token_counter counts them)",
        )
    # cuts[low] is over the budget and cuts[high] fits; the first that fits lies in between.
    low, high, fitting = 0, len(cuts) - 1, newest
    while high - low > 1:
        middle = (low + high) // 2
        candidate = keeping(cuts[middle])
        if _count(counter, candidate) <= max_tokens:
            high, fitting = middle, candidate
        else:
            low = middle
    return fitting


def _count(counter: TokenCounter, messages: list[Message]) -> int:
    """The caller's count of `messages`, checked; what the counter raises passes unchanged."""
    try:
        tokens = counter(list(messages))  # its own list: the counter may keep or change it
    except Exception as exc:
        theirs(exc)  # their code's error, whichever library raised it (see Boundary)
        raise
    if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < 0:
        raise InvalidConfig(
            f"token_counter must return an int >= 0, got {excerpt(tokens)} "
            f"({type(tokens).__name__}) for {len(messages)} message(s)"
        )
    return tokens


@dataclass
class _Plan:
    """A conversation's cuts and sizes.

    Attributes:
        length: How many messages the conversation has.
        rest: The indices of the messages that are not system messages, in order.
        cuts: The positions in `rest` where the kept messages may start, ascending; 0 first.
        fixed: The tokens always sent: system messages and the request's framing.
        suffix: `suffix[p]`: the tokens of `rest[p:]`, as counted.
        smallest: The size of the newest turn with its images shrunk, once `cut_shrunk` ran.
    """

    length: int
    rest: list[int]
    cuts: list[int]
    fixed: int
    suffix: list[int]
    smallest: int | None = None

    @classmethod
    def of(cls, messages: Sequence[Message], counted: TokenCount) -> _Plan:
        rest = [i for i, m in enumerate(messages) if not isinstance(m, System)]
        kept_always = counted.total - sum(counted.messages[i].tokens for i in rest)
        suffix = [0] * (len(rest) + 1)
        for p in range(len(rest) - 1, -1, -1):
            suffix[p] = suffix[p + 1] + counted.messages[rest[p]].tokens
        return cls(len(messages), rest, _cuts(messages, rest), kept_always, suffix)

    def size(self, cut: int) -> int:
        """The tokens of the conversation kept from position `cut` of `rest`."""
        return self.fixed + self.suffix[cut]

    def cut(self, max_tokens: int) -> int | None:
        """The first cut whose conversation fits, or None."""
        return next((c for c in self.cuts if self.size(c) <= max_tokens), None)

    def cut_shrunk(self, max_tokens: int, shrinker: Shrinker) -> int | None:
        """The first cut that fits with every kept image at its cheapest, or None.

        Walks the cuts from the newest turn back and stops at the first turn that does not
        fit, so only the images of the turns kept, and of one more, are shrunk.
        """
        found: int | None = None
        total, end = self.fixed, len(self.rest)
        for cut in reversed(self.cuts):
            total += self.suffix[cut] - self.suffix[end]
            total -= sum(shrinker.saving(index) for index in self.rest[cut:end])
            end = cut
            if self.smallest is None:
                self.smallest = total
            if total > max_tokens:
                break
            found = cut
        return found

    def shrink(
        self, cut: int | None, max_tokens: int, shrinker: Shrinker
    ) -> dict[tuple[int, int], ImagePart]:
        """Shrink the kept images, oldest first, until the conversation fits."""
        replaced: dict[tuple[int, int], ImagePart] = {}
        if cut is None:
            return replaced
        total = self.size(cut)
        for index in self.rest[cut:]:
            for at, smaller, saving in shrinker.cheaper(index):
                if total <= max_tokens:
                    return replaced
                replaced[index, at] = smaller
                total -= saving
        return replaced

    def kept(self, cut: int) -> list[int]:
        """The indices of the messages kept from this cut: system messages and the rest."""
        dropped = set(self.rest[:cut])
        return [i for i in range(self.length) if i not in dropped]


def _cuts(messages: Sequence[Message], rest: list[int]) -> list[int]:
    """Return the positions in `rest` where kept messages may start.

    Position 0 (keep everything), and each `User` message no call-result pair spans: a pair
    is a `Tool` message and the call it answers (`answered_calls`: the latest call with its
    `tool_call_id`; without an id, the latest call of its `name`; without either, the latest
    call). A result whose call is not in the conversation pairs with nothing.
    """
    # spans[p] counts the pairs opening at p minus those closing at p: a running sum is the
    # number of pairs a cut at p would split (the call before p, the result at p or after).
    spans = [0] * (len(rest) + 1)
    for result, (call, _) in answered_calls([messages[index] for index in rest]).items():
        spans[call + 1] += 1
        spans[result + 1] -= 1
    cuts, open_pairs = [0], 0
    for p, index in enumerate(rest):
        open_pairs += spans[p]
        if p and not open_pairs and isinstance(messages[index], User):
            cuts.append(p)
    return cuts


def _with_parts(
    message: Message, index: int, replaced: dict[tuple[int, int], ImagePart]
) -> Message:
    """A copy of the message holding its shrunk images."""
    parts: list[Part] = [replaced.get((index, at), p) for at, p in enumerate(message.parts)]
    return message.model_copy(update={"parts": tuple(parts)})


def _over_budget(
    length: int,
    rest: list[int],
    last: int,
    smallest: int,
    budget: tuple[int, Provider, str | None],
    *,
    note: str,
    hint: bool = False,
) -> BudgetExceeded:
    """The error for a budget nothing fits: what the smallest conversation would need.

    Args:
        length: How many messages the conversation has.
        rest: The indices of the messages that are not system messages.
        last: The newest cut: the position in `rest` where the newest turn starts.
        smallest: The tokens of the smallest conversation trim may return.
        budget: `max_tokens`, the provider and the model.
        note: How they were counted (" with its images shrunk"), after what is named.
        hint: Whether to say that shrinking images may help.
    """
    max_tokens, provider, model = budget
    named = []
    if len(rest) < length:
        named.append("the system messages")
    if rest:
        named.append(f"the newest turn (messages {rest[last]} to {length - 1})")
    what = " and ".join(named) or "an empty conversation"
    advice = "; shrink_images=True may help: it holds images" if hint else ""
    on = provider.name if model is None else f"{provider.name} {excerpt(model)}"
    return BudgetExceeded(
        f"trim: {what}{note} need {smallest} tokens on {on}, over max_tokens="
        f"{max_tokens}; nothing smaller keeps a whole turn{advice}",
        max_tokens=max_tokens,
        tokens=smallest,
        provider=provider.name,
        model=model,
    )


def _refuse_unknown(
    counted: TokenCount,
    kept: list[int],
    replaced: dict[tuple[int, int], ImagePart],
    provider: Provider,
    model: str | None,
) -> None:
    """Raise if a kept part's tokens are unknown: the result may not fit."""
    unknown: list[tuple[int, PartTokens]] = [
        (i, p)
        for i in kept
        for p in counted.messages[i].parts
        if p.method == "unknown" and (i, p.index) not in replaced
    ]
    unknown += [(-1, p) for p in counted.framing if p.method == "unknown"]
    if not unknown:
        return
    shown = "; ".join(
        f"message {i} part {p.index} ({p.kind}): {p.how}" if i >= 0 else f"framing: {p.how}"
        for i, p in unknown[:_SHOWN]
    )
    more = f"; and {len(unknown) - _SHOWN} more" if len(unknown) > _SHOWN else ""
    raise NoDocumentedRule(
        f"trim: the tokens of {len(unknown)} kept part(s) are unknown on {provider.name}, so "
        f"the result may not fit: {shown}{more}. Pass unknown='ignore' to count them as 0, "
        "or drop those parts first",
        provider=provider.name,
        model=model,
    )
