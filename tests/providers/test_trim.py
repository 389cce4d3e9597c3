"""`mp.trim`: each rule on small conversations (the properties are in test_trim_properties.py).

Budgets are computed with `mp.count_tokens` from the conversation the rule should give, so the
tests hold whatever the text counts are.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from PIL import Image

import mediaparts as mp
from tests._builders import encode, png_header

PHOTO = mp.ImagePart.from_bytes(encode(Image.new("RGB", (1600, 1200), (200, 90, 40)), "PNG"))
SMALL = mp.ImagePart.from_bytes(encode(Image.new("RGB", (100, 80), (20, 90, 240)), "PNG"))


def size(
    messages: Sequence[mp.Message], provider: str = "anthropic", model: str | None = None
) -> int:
    """The conversation's tokens, as trim counts them."""
    return mp.count_tokens(list(messages), provider, model=model).total


def kept(out: Sequence[mp.Message], conversation: Sequence[mp.Message]) -> list[int]:
    """The input index of each output message, matched by identity."""
    return [next(i for i, m in enumerate(conversation) if m is o) for o in out]


def call(id: str | None, name: str = "lookup") -> mp.Message:
    return mp.Assistant(tool_calls=[mp.ToolCall(id=id, name=name, arguments='{"q": 1}')])


def result(id: str | None, name: str | None = None) -> mp.Message:
    return mp.Tool("found it", tool_call_id=id, name=name)


def s(text: str = "Be brief.", role: str = "system") -> mp.Message:
    return mp.System(text, role=role)


def u(text: str = "a question") -> mp.Message:
    return mp.User(text)


def a(text: str = "an answer") -> mp.Message:
    return mp.Assistant(text)


Build = Callable[[], list[mp.Message]]

# name: (conversation, the messages whose size is the budget, the messages trim keeps)
CUTS: dict[str, tuple[Build, list[int], list[int]]] = {
    "oldest turn dropped": (
        lambda: [s(), u("one"), a("one"), u("two"), a("two")],
        [0, 3, 4],
        [0, 3, 4],
    ),
    "everything fits": (lambda: [s(), u(), a()], [0, 1, 2], [0, 1, 2]),
    "a tool loop is dropped whole, never its user message alone": (
        lambda: [s(), u("go"), call("c1"), result("c1"), a("done"), u("next"), a("ok")],
        [0, 2, 3, 4, 5, 6],
        [0, 5, 6],
    ),
    "a tool loop is kept whole": (
        lambda: [
            *[s(), u("one"), a("one"), u("go"), call("c1"), result("c1")],
            *[call("c2"), result("c2"), a("done")],
        ],
        [0, 3, 4, 5, 6, 7, 8],
        [0, 3, 4, 5, 6, 7, 8],
    ),
    "no cut at a user message between a call and its result": (
        lambda: [
            *[s(), u("one"), call("c1"), u("meanwhile"), result("c1"), a("ok")],
            *[u("two"), a("two")],
        ],
        [0, 3, 4, 5, 6, 7],
        [0, 6, 7],
    ),
    "a system message in the middle is kept": (
        lambda: [s(), u("one"), a("one"), s("Now in French.", "developer"), u("two"), a("two")],
        [0, 3, 4, 5],
        [0, 3, 4, 5],
    ),
    "no system message at all": (
        lambda: [u("one"), a("one"), u("two"), a("two")],
        [2, 3],
        [2, 3],
    ),
    "messages before the first user message are a turn": (
        lambda: [s(), a("Hello, how can I help?"), u("one"), a("one"), u("two")],
        [0, 2, 3, 4],
        [0, 2, 3, 4],
    ),
    "the first kept message after the system messages is a user message": (
        lambda: [s(), a("Hello, how can I help?"), u("one"), a("one"), u("two")],
        [0, 3, 4],
        [0, 4],
    ),
    "consecutive user messages are turns of their own": (
        lambda: [u("one"), u("two"), a("both")],
        [1, 2],
        [1, 2],
    ),
    "a result whose call is not in the conversation stays with its turn": (
        lambda: [s(), u("one"), a("one"), u("two"), result("gone"), a("two")],
        [0, 3, 4, 5],
        [0, 3, 4, 5],
    ),
    "calls awaiting their results stay with their turn": (
        lambda: [s(), u("one"), a("one"), u("two"), call("c1")],
        [0, 3, 4],
        [0, 3, 4],
    ),
    "a result without an id answers the latest call of its name": (
        lambda: [
            *[u("zero"), call(None, "f"), u("one"), call(None, "g"), u("two")],
            *[result(None, "f"), a("ok"), u("three"), a("three")],
        ],
        [2, 3, 4, 5, 6, 7, 8],
        [7, 8],
    ),
    "a result without an id or a name answers the latest calls": (
        lambda: [u("zero"), call(None, "f"), u("one"), result(None), a("ok"), u("two"), a("two")],
        [2, 3, 4, 5, 6],
        [5, 6],
    ),
}


@pytest.mark.parametrize("name", CUTS)
@pytest.mark.parametrize("provider", mp.providers.names())
def test_trim_cuts_between_whole_turns(name: str, provider: str) -> None:
    """Trimming keeps the newest whole turns that fit, the same objects, in order."""
    build, budget_of, expected = CUTS[name]
    conversation = build()
    budget = size([conversation[i] for i in budget_of], provider)
    out = mp.trim(conversation, provider, max_tokens=budget)
    assert kept(out, conversation) == expected


@pytest.mark.parametrize("name", CUTS)
def test_trim_one_token_less_keeps_fewer(name: str) -> None:
    """One token under the kept messages' size keeps fewer messages, or raises."""
    build, _, expected = CUTS[name]
    conversation = build()
    budget = size([conversation[i] for i in expected]) - 1
    try:
        out = mp.trim(conversation, "anthropic", max_tokens=budget)
    except mp.BudgetExceeded:
        return
    assert len(out) < len(expected)
    assert size(out) <= budget


def test_trim_returns_a_new_list_and_leaves_the_input_alone() -> None:
    """A conversation that fits comes back as a new list of the same messages."""
    conversation: list[mp.Message] = [s(), u(), mp.User("see", files=[PHOTO]), a()]
    before = [m.to_dict() for m in conversation]
    out = mp.trim(conversation, "anthropic", max_tokens=size(conversation), shrink_images=True)
    assert out == conversation and out is not conversation
    assert all(o is m for o, m in zip(out, conversation, strict=True))
    assert [m.to_dict() for m in conversation] == before


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("a prompt", [mp.User("a prompt")]),
        (mp.User("one message"), [mp.User("one message")]),
        (["text", "parts"], [mp.User(["text", "parts"])]),
        ([], []),
    ],
)
def test_trim_takes_what_count_tokens_takes(value: Any, expected: list[mp.Message]) -> None:
    """A prompt, a message or parts are read as count_tokens reads them."""
    assert mp.trim(value, "openai", max_tokens=10_000) == expected


@pytest.mark.parametrize(
    "value", [None, 5, [1, 2], [{"role": "user", "content": "hi"}], [mp.User("a"), "b"]]
)
def test_trim_refuses_what_is_not_a_conversation(value: Any) -> None:
    """Values that are neither messages nor parts are InvalidMedia, as in count_tokens."""
    with pytest.raises(mp.InvalidMedia):
        mp.trim(value, "openai", max_tokens=100)


def test_trim_is_exported_twice() -> None:
    """`mp.trim` and `mp.providers.trim` are the same function."""
    assert mp.trim is mp.providers.trim


def test_trim_raises_when_even_the_newest_turn_is_over() -> None:
    """The error names the budget and the fewest tokens possible: system and newest turn."""
    conversation: list[mp.Message] = [
        s(),
        u("one"),
        a("one"),
        u("two"),
        call("c1"),
        result("c1"),
        a("done"),
    ]
    smallest = size([conversation[0], *conversation[3:]], model="claude-sonnet-4-5")
    with pytest.raises(mp.BudgetExceeded, match="newest turn") as caught:
        mp.trim(conversation, "anthropic", max_tokens=smallest - 1, model="claude-sonnet-4-5")
    error = caught.value
    assert issubclass(mp.BudgetExceeded, mp.ProviderLimitError)
    assert (error.max_tokens, error.tokens) == (smallest - 1, smallest)
    assert (error.provider, error.model) == ("anthropic", "claude-sonnet-4-5")
    assert f"need {smallest} tokens" in str(error)
    assert "shrink_images" not in str(error)  # no image to shrink in that turn


def test_trim_suggests_shrinking_when_the_newest_turn_has_images() -> None:
    """BudgetExceeded says shrink_images may help when the newest turn holds an image."""
    conversation: list[mp.Message] = [u("one"), mp.User("see", files=[PHOTO]), a("a photo")]
    with pytest.raises(mp.BudgetExceeded, match="shrink_images=True may help"):
        mp.trim(conversation, "anthropic", max_tokens=size(conversation[1:]) - 1)


def test_trim_raises_when_the_system_messages_alone_are_over() -> None:
    """Only system messages, over the budget: the error says so."""
    conversation: list[mp.Message] = [s("A long system prompt " * 20)]
    with pytest.raises(mp.BudgetExceeded, match="the system messages need") as caught:
        mp.trim(conversation, "openai", max_tokens=1)
    assert caught.value.tokens == size(conversation, "openai")


def test_trim_names_what_is_over_without_system_messages() -> None:
    """With no system message, the error names the newest turn alone."""
    conversation: list[mp.Message] = [u("one"), a("one"), u("two"), a("two")]
    with pytest.raises(mp.BudgetExceeded, match=r"^trim: the newest turn \(messages 2 to 3\)"):
        mp.trim(conversation, "anthropic", max_tokens=size(conversation[2:]) - 1)


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"max_tokens": -1}, "max_tokens"),
        ({"max_tokens": 1.5}, "max_tokens"),
        ({"max_tokens": True}, "max_tokens"),
        ({"max_tokens": "100"}, "max_tokens"),
        ({"shrink_images": "yes"}, "shrink_images"),
        ({"shrink_to": 0}, "shrink_to"),
        ({"shrink_to": 512.0}, "shrink_to"),
        ({"unknown": "warn"}, "unknown"),
        ({"model": 4}, "model"),
    ],
)
def test_trim_refuses_bad_options(options: dict[str, Any], match: str) -> None:
    """An option out of range is InvalidConfig, naming the option."""
    arguments: dict[str, Any] = {"max_tokens": 100, **options}
    with pytest.raises(mp.InvalidConfig, match=match):
        mp.trim([u()], provider="openai", **arguments)


def test_trim_refuses_an_unknown_provider() -> None:
    """An unknown provider name is UnknownProvider."""
    with pytest.raises(mp.UnknownProvider):
        mp.trim([u()], "nobody", max_tokens=100)


def _stored() -> mp.Message:
    """A user message holding a file kept in Anthropic's store: nobody can count it here."""
    report = mp.part(
        {"file_id": "file-1", "provider": "anthropic", "media_type": "application/pdf"}
    )
    message = mp.User("Summarise", files=[report])
    assert mp.count_tokens(message, "anthropic").unknown  # what these tests are about
    return message


def test_trim_refuses_to_keep_parts_of_unknown_size() -> None:
    """A kept part nobody can count raises by default: the result might not fit."""
    conversation: list[mp.Message] = [_stored(), a("It says...")]
    with pytest.raises(mp.NoDocumentedRule, match=r"message 0 part 1 \(file\)") as caught:
        mp.trim(conversation, "anthropic", max_tokens=10_000)
    assert "unknown='ignore'" in str(caught.value)
    assert caught.value.provider == "anthropic"


def test_trim_ignores_unknown_sizes_when_told() -> None:
    """`unknown="ignore"` keeps such parts, counted as 0."""
    conversation: list[mp.Message] = [_stored(), a("It says...")]
    out = mp.trim(conversation, "anthropic", max_tokens=size(conversation), unknown="ignore")
    assert out == conversation


def test_trim_minds_unknown_sizes_only_in_what_it_keeps() -> None:
    """A part of unknown size in a dropped turn raises nothing."""
    old: list[mp.Message] = [_stored(), a("It says...")]
    new: list[mp.Message] = [u("next"), a("ok")]
    assert mp.trim([*old, *new], "anthropic", max_tokens=size(new)) == new


def test_trim_lists_a_few_unknown_parts_and_counts_the_rest() -> None:
    """The error names five unknown parts and says how many more there are."""
    conversation = [_stored() for _ in range(7)]
    with pytest.raises(mp.NoDocumentedRule, match="and 2 more") as caught:
        mp.trim(conversation, "anthropic", max_tokens=10_000)
    assert "the tokens of 7 kept part(s)" in str(caught.value)


def test_trim_keeps_reasoning_with_its_tool_calls() -> None:
    """A conversation read from Anthropic keeps signed thinking with its tool loop, or drops both."""
    payload = {
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "Use the tool.", "signature": "sig"},
                    {"type": "tool_use", "id": "tu1", "name": "weather", "input": {"c": "P"}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "tu1", "content": "12 C"},
                    {"type": "text", "text": "And tomorrow?"},
                ],
            },
            {"role": "assistant", "content": "13 C."},
        ],
    }
    conversation = mp.messages_from(payload, "anthropic")
    whole = mp.trim(conversation, "anthropic", max_tokens=size(conversation))
    assert mp.render(whole, "anthropic") == payload
    out = mp.trim(conversation, "anthropic", max_tokens=size(conversation) - 1)
    assert [type(m).__name__ for m in out] == ["System", "User", "Assistant"]
    assert out[1].content == "And tomorrow?"


# -- shrinking images -----------------------------------------------------------------------


def _images(messages: Sequence[mp.Message]) -> list[mp.ImagePart]:
    return [p for m in messages for p in m.parts if isinstance(p, mp.ImagePart)]


def test_trim_shrinks_nothing_unless_asked() -> None:
    """Without shrink_images the turn with the image is dropped."""
    conversation: list[mp.Message] = [
        mp.User("see", files=[PHOTO]),
        a("a photo"),
        u("two"),
        a("two"),
    ]
    out = mp.trim(conversation, "anthropic", max_tokens=size(conversation) - 1)
    assert kept(out, conversation) == [2, 3]


@pytest.mark.parametrize(
    ("provider", "model"), [("openai", None), ("openai", "gpt-4o"), ("gemini", "gemini-3-pro")]
)
def test_trim_lowers_the_detail_where_the_model_has_a_cheaper_one(
    provider: str, model: str | None
) -> None:
    """On a provider with detail levels the image becomes a copy at the cheapest one."""
    conversation: list[mp.Message] = [mp.User("see", files=[PHOTO]), a("a photo")]
    budget = size(conversation, provider, model) - 1
    out = mp.trim(conversation, provider, max_tokens=budget, model=model, shrink_images=True)
    [image] = _images(out)
    assert (image.detail, image.data) == ("low", PHOTO.data)
    assert PHOTO.detail is None  # the caller's part is untouched
    assert out[1] is conversation[1]
    assert size(out, provider, model) <= budget


@pytest.mark.parametrize(
    ("provider", "model"), [("anthropic", None), ("bedrock", None), ("gemini", "gemini-2.5-pro")]
)
def test_trim_makes_a_smaller_copy_where_there_is_no_detail_level(
    provider: str, model: str | None
) -> None:
    """Without detail levels the image becomes a copy at most `shrink_to` pixels long."""
    conversation: list[mp.Message] = [mp.User("see", files=[PHOTO]), a("a photo")]
    budget = size(conversation, provider, model) - 1
    out = mp.trim(
        conversation, provider, max_tokens=budget, model=model, shrink_images=True, shrink_to=300
    )
    [image] = _images(out)
    assert (image.width, image.height) == (300, 225)
    assert (PHOTO.width, PHOTO.height) == (1600, 1200)
    assert size(out, provider, model) <= budget


def test_trim_never_enlarges_an_image() -> None:
    """An image already within `shrink_to` cannot shrink: its turn is dropped instead."""
    conversation: list[mp.Message] = [
        mp.User("see", files=[SMALL]),
        a("a photo"),
        u("two"),
        a("two"),
    ]
    budget = size(conversation) - 1
    out = mp.trim(conversation, "anthropic", max_tokens=budget, shrink_images=True)
    assert kept(out, conversation) == [2, 3]


def test_trim_shrinks_oldest_first_and_only_as_needed() -> None:
    """The oldest image is shrunk first, and shrinking stops once the conversation fits."""
    conversation: list[mp.Message] = [
        mp.User("one", files=[PHOTO]),
        a("one"),
        mp.User("two", files=[PHOTO]),
        a(),
    ]
    first_shrunk = mp.trim(
        conversation, "anthropic", max_tokens=size(conversation) - 1, shrink_images=True
    )
    first, second = _images(first_shrunk)
    assert first.width == 512 and second is PHOTO
    assert first_shrunk[2:] == conversation[2:]
    both = mp.trim(conversation, "anthropic", max_tokens=size(first_shrunk) - 1, shrink_images=True)
    assert [image.width for image in _images(both)] == [512, 512]
    assert len(both) == len(conversation)  # shrinking came before dropping any turn


def test_trim_drops_turns_when_shrinking_is_not_enough() -> None:
    """Turns go only when the kept turns would not fit even with every image shrunk."""
    conversation: list[mp.Message] = [
        mp.User("one", files=[PHOTO]),
        a("one"),
        mp.User("two", files=[PHOTO]),
        a(),
    ]
    newest = mp.trim(
        conversation[2:], "anthropic", max_tokens=size(conversation[2:]) - 1, shrink_images=True
    )
    out = mp.trim(conversation, "anthropic", max_tokens=size(newest), shrink_images=True)
    assert out == newest and out[1] is conversation[3]
    shrunk = out[0].files[0]
    assert isinstance(shrunk, mp.ImagePart) and shrunk.width == 512


def test_trim_reports_the_shrunk_size_when_nothing_fits() -> None:
    """With shrinking, BudgetExceeded carries the newest turn's size with its images shrunk."""
    conversation: list[mp.Message] = [u("one"), a("one"), mp.User("two", files=[PHOTO]), a("two")]
    fitted = mp.trim(
        conversation[2:], "anthropic", max_tokens=size(conversation[2:]) - 1, shrink_images=True
    )
    with pytest.raises(mp.BudgetExceeded, match="with its images shrunk") as caught:
        mp.trim(conversation, "anthropic", max_tokens=size(fitted) - 1, shrink_images=True)
    assert caught.value.tokens == size(fitted)


def test_trim_reports_an_image_it_cannot_decode() -> None:
    """An image whose header reads but whose pixels do not is InvalidMedia, naming it."""
    broken = mp.ImagePart.from_bytes(png_header(2000, 1500), media_type="image/png")
    conversation: list[mp.Message] = [mp.User("see", files=[broken]), a("a photo")]
    with pytest.raises(mp.InvalidMedia, match="cannot shrink message 0 part 1"):
        mp.trim(conversation, "anthropic", max_tokens=size(conversation) - 1, shrink_images=True)


def test_trim_shrinking_skips_file_references() -> None:
    """Shrinking never tries to read the pixels of an image held in a provider's file store."""
    stored = mp.ImagePart(file_id="file-1", file_provider="openai", media_type="image/png")
    conversation: list[mp.Message] = [
        mp.User(["old", PHOTO]),
        a("a"),
        mp.User(["q", stored, PHOTO]),
    ]
    out = mp.trim(
        conversation,
        "anthropic",
        max_tokens=size(conversation) - 1,
        shrink_images=True,
        unknown="ignore",
    )
    assert out[-1].parts[1] is stored


def test_trim_pairs_a_result_whose_id_no_call_has_by_name() -> None:
    """A result with an id no call has answers the call of its name written without an id:
    trim keeps or drops the two together."""
    conversation: list[mp.Message] = [
        mp.User("q1"),
        mp.Assistant([mp.ToolCall(name="f", id=None)]),
        mp.User("interrupt"),
        mp.Tool("res", tool_call_id="a", name="f"),
        mp.User("q3"),
    ]
    for budget in range(size(conversation[-1:]), size(conversation) + 1):
        out = mp.trim(conversation, "anthropic", max_tokens=budget)
        assert (conversation[3] in out) == (conversation[1] in out)


# -- a caller's own token counter -------------------------------------------------------------


def by_message(messages: list[mp.Message]) -> int:
    """A counter of the caller's: ten tokens a message."""
    return 10 * len(messages)


@pytest.mark.parametrize("name", CUTS)
def test_trim_token_counter_cuts_between_whole_turns(name: str) -> None:
    """With the caller's counter, trim keeps the same whole turns as with its own count."""
    build, budget_of, expected = CUTS[name]
    conversation = build()
    out = mp.trim(
        conversation, "anthropic", max_tokens=10 * len(budget_of), token_counter=by_message
    )
    assert kept(out, conversation) == expected


def test_trim_token_counter_replaces_count_tokens() -> None:
    """The caller's count decides: a budget count_tokens calls ample is over by theirs."""
    conversation: list[mp.Message] = [s(), u("one"), a("one"), u("two"), a("two")]
    ample = size(conversation)
    assert mp.trim(conversation, "anthropic", max_tokens=ample) == conversation
    out = mp.trim(conversation, "anthropic", max_tokens=30, token_counter=by_message)
    assert kept(out, conversation) == [0, 3, 4]


def test_trim_token_counter_sees_candidates_it_may_keep_or_change() -> None:
    """The counter gets new lists holding the system messages and whole turns; changing one
    changes neither the input nor the result."""
    conversation: list[mp.Message] = [s(), *[m for n in range(6) for m in (u(f"q{n}"), a())]]
    before = list(conversation)
    seen: list[list[mp.Message]] = []

    def spoiling(messages: list[mp.Message]) -> int:
        seen.append(list(messages))
        tokens = 10 * len(messages)
        messages.clear()
        return tokens

    out = mp.trim(conversation, "openai", max_tokens=50, token_counter=spoiling)
    assert kept(out, conversation) == [0, 9, 10, 11, 12]
    assert conversation == before
    for candidate in seen:
        assert candidate[0] is conversation[0] and isinstance(candidate[1], mp.User)


def test_trim_token_counter_is_asked_a_logarithmic_number_of_times() -> None:
    """A conversation of 256 turns costs the whole, the newest turn and a bisection."""
    conversation: list[mp.Message] = [m for n in range(256) for m in (u(f"q{n}"), a())]
    calls: list[int] = []

    def counting(messages: list[mp.Message]) -> int:
        calls.append(len(messages))
        return len(messages)

    out = mp.trim(conversation, "gemini", max_tokens=101, token_counter=counting)
    assert len(out) == 100 and out[0] is conversation[-100]
    assert calls[:2] == [512, 2]
    assert len(calls) <= 2 + 8


def test_trim_token_counter_raises_when_even_the_newest_turn_is_over() -> None:
    """BudgetExceeded carries the counter's size of the system messages and newest turn."""
    conversation: list[mp.Message] = [s(), u("one"), a("one"), u("two"), a("two")]
    with pytest.raises(mp.BudgetExceeded, match="as token_counter counts them") as caught:
        mp.trim(conversation, "bedrock", max_tokens=29, token_counter=by_message)
    assert (caught.value.tokens, caught.value.max_tokens) == (30, 29)
    assert "the system messages and the newest turn (messages 3 to 4)" in str(caught.value)
    assert "shrink_images" not in str(caught.value)


def test_trim_token_counter_counts_what_count_tokens_cannot() -> None:
    """`unknown` is about trim's own count: the caller's counter counts every part."""
    conversation: list[mp.Message] = [_stored(), a("It says...")]
    assert mp.trim(conversation, "anthropic", max_tokens=20, token_counter=by_message) == (
        conversation
    )


@pytest.mark.parametrize(
    "returned", [1.5, -1, True, "30", None, [3]], ids=lambda v: type(v).__name__ + repr(v)
)
def test_trim_token_counter_result_is_checked(returned: Any) -> None:
    """A counter that returns anything but an int >= 0 is InvalidConfig, saying what it gave."""
    with pytest.raises(mp.InvalidConfig, match=r"token_counter must return an int >= 0, got"):
        mp.trim([u(), a()], "openai", max_tokens=100, token_counter=lambda _: returned)


def test_trim_token_counter_must_be_callable() -> None:
    """A counter that is not a function is InvalidConfig."""
    with pytest.raises(mp.InvalidConfig, match="token_counter must be a function"):
        mp.trim([u()], "openai", max_tokens=100, token_counter=100)  # type: ignore[arg-type]


def test_trim_token_counter_refuses_shrinking_images() -> None:
    """shrink_images needs trim's own image rules, which the caller's counter replaces."""
    conversation: list[mp.Message] = [mp.User("see", files=[PHOTO])]
    with pytest.raises(mp.InvalidConfig, match="shrink_images=True cannot be used with"):
        mp.trim(
            conversation, "openai", max_tokens=10**6, shrink_images=True, token_counter=by_message
        )


def test_trim_token_counter_errors_pass_unchanged() -> None:
    """What the caller's counter raises, even from inside a library, reaches them as it is."""

    def broken(messages: list[mp.Message]) -> int:
        return int(json.loads("{"))

    with pytest.raises(json.JSONDecodeError):
        mp.trim([u(), a()], "openai", max_tokens=100, token_counter=broken)
