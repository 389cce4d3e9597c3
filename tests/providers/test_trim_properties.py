"""`mp.trim` on generated conversations: what it keeps is what a brute force over cuts keeps.

Conversations mix system and developer messages, users with text and small images, assistants
with text, signed reasoning and tool calls, tool results (answering an open call, or none),
in any order, so users fall inside tool loops and results lose their calls. The oracle tries
every cut on its own, counting each candidate with `mp.count_tokens` (whose total counts a
part of unknown size as 0: trim runs with `unknown="ignore"` to match, whatever parts the
counting rules come to call unknown; the default is tested in test_trim.py). With a caller's
own `token_counter`, the oracle counts each candidate with that counter instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

import mediaparts as mp
from tests._builders import encode

PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Made once: decoding and counting them is the costly part of an example.
IMAGES = tuple(
    mp.ImagePart.from_bytes(encode(Image.new("RGB", size, (90, 140, 200)), "PNG"))
    for size in ((48, 32), (700, 500), (1400, 900))
)
WORDS = st.text(alphabet="abc xyz", min_size=1, max_size=60)
PROVIDERS = st.sampled_from(mp.providers.names())


@st.composite
def conversations(draw: st.DrawFn) -> list[mp.Message]:
    """A conversation: messages of every role, well or badly ordered."""
    messages: list[mp.Message] = []
    open_calls: list[mp.ToolCall] = []
    for n in range(draw(st.integers(0, 12))):
        role = draw(st.sampled_from(["system", "user", "user", "assistant", "assistant", "tool"]))
        if role == "system":
            messages.append(
                mp.System(draw(WORDS), role=draw(st.sampled_from(["system", "developer"])))
            )
        elif role == "user":
            image = draw(st.none() | st.sampled_from(IMAGES))
            messages.append(mp.User(draw(WORDS), files=[image] if image else None))
        elif role == "assistant":
            parts: list[mp.Part] = []
            if draw(st.booleans()):
                parts.append(
                    mp.ReasoningPart(text=draw(WORDS), signature=f"sig{n}", provider="anthropic")
                )
            if draw(st.booleans()):
                parts.append(mp.TextPart(draw(WORDS)))
            calls = [
                mp.ToolCall(id=f"c{n}.{k}", name="look", arguments=f'{{"k": {k}}}')
                for k in range(draw(st.integers(0, 2)))
            ]
            open_calls += calls
            messages.append(mp.Assistant(parts=[*parts, *calls] or [mp.TextPart("ok")]))
        else:
            answered = (
                open_calls.pop(draw(st.integers(0, len(open_calls) - 1))) if open_calls else None
            )
            call_id = answered.id if answered else f"gone{n}"
            messages.append(mp.Tool(draw(WORDS), tool_call_id=call_id, name="look"))
    return messages


def size(messages: Sequence[mp.Message], provider: str) -> int:
    return mp.count_tokens(list(messages), provider).total


def valid_cuts(messages: Sequence[mp.Message]) -> list[int]:
    """Every position in the non-system messages where a kept part may start, by brute force."""
    rest = [m for m in messages if not isinstance(m, mp.System)]
    cuts = []
    for k in range(len(rest)):
        before = {c.id for m in rest[:k] for c in m.parts if isinstance(c, mp.ToolCall)}
        after = {m.tool_call_id for m in rest[k:] if isinstance(m, mp.Tool)}
        if k == 0 or (isinstance(rest[k], mp.User) and not before & after):
            cuts.append(k)
    return cuts or [0]


def cut_at(messages: Sequence[mp.Message], k: int) -> list[mp.Message]:
    """The system messages and the non-system messages from position k on."""
    out: list[mp.Message] = []
    position = 0
    for m in messages:
        if isinstance(m, mp.System):
            out.append(m)
            continue
        if position >= k:
            out.append(m)
        position += 1
    return out


Counter = Callable[[list[mp.Message]], int]


def oracle(
    messages: Sequence[mp.Message], budget: int, provider: str, count: Counter | None = None
) -> list[mp.Message] | None:
    """The first valid cut whose conversation fits, each counted on its own (by `count`, if
    given); None if none."""
    for k in valid_cuts(messages):
        candidate = cut_at(messages, k)
        if (size(candidate, provider) if count is None else count(candidate)) <= budget:
            return candidate
    return None


def by_characters(messages: list[mp.Message]) -> int:
    """A caller's own counter: a token per character of text, and five per message and part."""
    return sum(5 + len(m.text) + 5 * len(m.parts) for m in messages)


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[mp.Message], str, int]:
    messages = draw(conversations())
    provider = draw(PROVIDERS)
    # Budgets near each cut's size find the edges; anywhere up to the whole finds the rest.
    edges = [size(cut_at(messages, k), provider) for k in valid_cuts(messages)]
    near = st.sampled_from(edges).flatmap(lambda n: st.integers(max(0, n - 2), n + 2))
    budget = draw(near | st.integers(0, size(messages, provider) + 3))
    return messages, provider, budget


def same_but_images(given: mp.Message, out: mp.Message) -> bool:
    """`out` is `given` or a copy of it whose images were replaced by cheaper ones."""
    if out is given:
        return True
    if type(out) is not type(given) or len(out.parts) != len(given.parts):
        return False
    for before, after in zip(given.parts, out.parts, strict=True):
        if isinstance(before, mp.ImagePart) and isinstance(after, mp.ImagePart):
            continue
        if after != before:
            return False
    return out.model_copy(update={"parts": given.parts}) == given


def check_shape(messages: list[mp.Message], out: list[mp.Message]) -> None:
    """A subsequence (modulo shrunk images) keeping every system message and every tool pair."""
    it = iter(messages)
    sources = [next(m for m in it if same_but_images(m, o)) for o in out]
    assert [m for m in messages if isinstance(m, mp.System)] == [
        m for m in sources if isinstance(m, mp.System)
    ]
    kept_calls = {c.id for m in out for c in m.parts if isinstance(c, mp.ToolCall)}
    all_calls = {c.id for m in messages for c in m.parts if isinstance(c, mp.ToolCall)}
    kept_results = {m.tool_call_id for m in out if isinstance(m, mp.Tool)}
    all_results = {m.tool_call_id for m in messages if isinstance(m, mp.Tool)}
    assert kept_results & all_calls <= kept_calls  # no result whose call was cut
    assert kept_calls & all_results <= kept_results  # no call whose result was cut
    first = next((m for m in messages if not isinstance(m, mp.System)), None)
    kept_first = next((m for m in out if not isinstance(m, mp.System)), None)
    if isinstance(first, mp.User) and kept_first is not None:
        assert isinstance(kept_first, mp.User)


@PROPERTY
@given(case=cases())
def test_trim_keeps_what_the_brute_force_keeps(case: tuple[list[mp.Message], str, int]) -> None:
    """The result is the first cut that fits, when one does; BudgetExceeded when none does."""
    messages, provider, budget = case
    expected = oracle(messages, budget, provider)
    if expected is None:
        with pytest.raises(mp.BudgetExceeded):
            mp.trim(messages, provider, max_tokens=budget, unknown="ignore")
        return
    out = mp.trim(messages, provider, max_tokens=budget, unknown="ignore")
    assert len(out) == len(expected) and all(o is e for o, e in zip(out, expected, strict=True))


@PROPERTY
@given(case=cases(), shrink=st.booleans())
def test_trim_fits_keeps_pairs_and_order(
    case: tuple[list[mp.Message], str, int], shrink: bool
) -> None:
    """The result fits, keeps the system messages and tool pairs, and never reorders."""
    messages, provider, budget = case
    before = [m.to_dict() for m in messages]
    if oracle(messages, budget, provider) is None and not shrink:
        with pytest.raises(mp.BudgetExceeded) as caught:
            mp.trim(messages, provider, max_tokens=budget, unknown="ignore")
        assert caught.value.tokens is not None and caught.value.tokens > budget
        return
    try:
        out = mp.trim(messages, provider, max_tokens=budget, shrink_images=shrink, unknown="ignore")
    except mp.BudgetExceeded:
        assert oracle(messages, budget, provider) is None  # shrinking fits whatever fits without
        return
    assert size(out, provider) <= budget
    check_shape(messages, out)
    assert [m.to_dict() for m in messages] == before  # the caller's messages are untouched
    if shrink:  # shrinking only ever keeps more
        expected = oracle(messages, budget, provider)
        kept = sum(not isinstance(m, mp.System) for m in out)
        assert expected is None or kept >= sum(not isinstance(m, mp.System) for m in expected)


@PROPERTY
@given(case=cases(), shrink=st.booleans())
def test_trim_is_idempotent_and_deterministic(
    case: tuple[list[mp.Message], str, int], shrink: bool
) -> None:
    """Trimming again changes nothing, and the same input gives the same output."""
    messages, provider, budget = case
    try:
        out = mp.trim(messages, provider, max_tokens=budget, shrink_images=shrink, unknown="ignore")
    except mp.BudgetExceeded:
        return
    assert mp.trim(out, provider, max_tokens=budget, shrink_images=shrink, unknown="ignore") == out
    assert (
        mp.trim(messages, provider, max_tokens=budget, shrink_images=shrink, unknown="ignore")
        == out
    )


@PROPERTY
@given(messages=conversations(), budget=st.integers(0, 600))
def test_trim_with_a_token_counter_keeps_what_the_brute_force_keeps(
    messages: list[mp.Message], budget: int
) -> None:
    """With `token_counter`, the result is the first cut that fits as the counter counts it,
    with the system messages and tool pairs kept; BudgetExceeded when none fits."""
    expected = oracle(messages, budget, "anthropic", by_characters)
    if expected is None:
        with pytest.raises(mp.BudgetExceeded, match="as token_counter counts them"):
            mp.trim(messages, "anthropic", max_tokens=budget, token_counter=by_characters)
        return
    out = mp.trim(messages, "anthropic", max_tokens=budget, token_counter=by_characters)
    assert len(out) == len(expected) and all(o is e for o, e in zip(out, expected, strict=True))
    assert by_characters(out) <= budget
    check_shape(messages, out)
