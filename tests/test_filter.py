"""`mp.filter_messages`: by role, part kind or predicate; tool pairs; inputs untouched."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mediaparts as mp
from tests._builders import TESTDATA

PALETTE = (TESTDATA / "palette.png").read_bytes()


def _conversation() -> list[mp.Message]:
    return [
        mp.System("Be terse."),
        mp.User(["What is this?", mp.part(PALETTE)], id="u1"),
        mp.Assistant(
            parts=[mp.ReasoningPart(text="Zoom first."), mp.TextPart("Looking.")],
            tool_calls=[mp.ToolCall(id="c1", name="zoom")],
            usage=mp.Usage(input_tokens=5),
        ),
        mp.Tool(["Zoomed:", mp.part(PALETTE)], tool_call_id="c1", name="zoom"),
        mp.Assistant(
            parts=[mp.ReasoningPart(text="Done.")], tool_calls=[{"id": "c2", "name": "f"}]
        ),
        mp.Tool([mp.part(PALETTE)], tool_call_id="c2"),
        mp.Assistant("A palette."),
    ]


def _kinds(messages: list[mp.Message]) -> list[tuple[str, list[str]]]:
    return [(m.role, [p.kind for p in m.parts]) for m in messages]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"roles": "user"}, [("user", ["text", "image"])]),
        (
            {"roles": ["system", "user"], "exclude": True},
            [
                ("assistant", ["reasoning", "text", "tool_call"]),
                ("tool", ["text", "image"]),
                ("assistant", ["reasoning", "tool_call"]),
                ("tool", ["image"]),
                ("assistant", ["text"]),
            ],
        ),
        (
            {"kinds": ["image", "reasoning"], "exclude": True},
            [
                ("system", ["text"]),
                ("user", ["text"]),
                ("assistant", ["text", "tool_call"]),
                ("tool", ["text"]),
                ("assistant", ["tool_call"]),
                ("assistant", ["text"]),
            ],
        ),
        (
            {"kinds": "text"},
            [
                ("system", ["text"]),
                ("user", ["text"]),
                ("assistant", ["text"]),
                ("tool", ["text"]),
                ("assistant", ["text"]),
            ],
        ),
        (
            {"roles": "tool", "kinds": "image", "exclude": True},
            [
                ("system", ["text"]),
                ("user", ["text", "image"]),
                ("assistant", ["reasoning", "text", "tool_call"]),
                ("tool", ["text"]),
                ("assistant", ["reasoning", "tool_call"]),
                ("assistant", ["text"]),
            ],
        ),
        (
            {"where": lambda m: isinstance(m, mp.Assistant) and m.usage is not None},
            [("assistant", ["reasoning", "text", "tool_call"])],
        ),
    ],
    ids=["role", "not-roles", "no-images-reasoning", "text-only", "images-out-of-tools", "where"],
)
def test_filter_messages_selects(options: dict[str, Any], expected: list[Any]) -> None:
    """Roles, kinds and the predicate together select parts, kept or (exclude) removed."""
    assert _kinds(mp.filter_messages(_conversation(), **options)) == expected


def test_filter_messages_keeps_inputs_and_message_fields() -> None:
    """The input list and its messages are untouched; a changed message keeps id and usage."""
    messages = _conversation()
    before = copy.deepcopy(messages)
    out = mp.filter_messages(messages, kinds="image", exclude=True)
    assert messages == before
    assert out is not messages
    assert out[1].id == "u1" and out[1] is not messages[1]
    assert isinstance(out[2], mp.Assistant) and out[2].usage == mp.Usage(input_tokens=5)
    assert out[0] is messages[0]  # unchanged messages are not copied


def test_filter_messages_empty_keep() -> None:
    """`empty="keep"` keeps a message the filter emptied, with no parts."""
    out = mp.filter_messages(_conversation(), kinds="image", exclude=True, empty="keep")
    assert _kinds(out)[5] == ("tool", [])


def test_filter_messages_message_without_parts_follows_its_role() -> None:
    """A message that had no parts is kept or dropped by its role and `where` alone."""
    messages: list[mp.Message] = [mp.User(parts=[]), mp.Assistant(parts=[])]
    assert _kinds(mp.filter_messages(messages, roles="user")) == [("user", [])]
    assert _kinds(mp.filter_messages(messages, kinds="image", exclude=True)) == _kinds(messages)


def test_filter_messages_unpaired_keep_leaves_calls_unanswered() -> None:
    """By default removing tool messages leaves their calls in place, unanswered."""
    out = mp.filter_messages(_conversation(), roles="tool", exclude=True)
    calls = [c.id for m in out if isinstance(m, mp.Assistant) for c in m.tool_calls]
    assert calls == ["c1", "c2"]


def test_filter_messages_unpaired_drop_removes_the_other_half() -> None:
    """`unpaired="drop"` removes calls whose results went, and an emptied message with them."""
    out = mp.filter_messages(_conversation(), roles="tool", exclude=True, unpaired="drop")
    assert _kinds(out) == [
        ("system", ["text"]),
        ("user", ["text", "image"]),
        ("assistant", ["reasoning", "text"]),
        ("assistant", ["reasoning"]),
        ("assistant", ["text"]),
    ]


def test_filter_messages_unpaired_drop_removes_results_of_removed_calls() -> None:
    """Removing tool calls with `unpaired="drop"` removes the results that answered them."""
    out = mp.filter_messages(_conversation(), kinds="tool_call", exclude=True, unpaired="drop")
    assert [m.role for m in out] == ["system", "user", "assistant", "assistant", "assistant"]


def test_filter_messages_unpaired_drop_keeps_a_pending_call() -> None:
    """A call the input left unanswered (the model is waiting for it) is not the filter's."""
    messages: list[mp.Message] = [
        mp.User("hi"),
        mp.Assistant(tool_calls=[{"id": "c9", "name": "f"}]),
    ]
    out = mp.filter_messages(messages, roles="system", exclude=True, unpaired="drop")
    assert out == messages


def _gemini_loop(**result: Any) -> list[mp.Message]:
    """A tool loop without call ids, as Gemini may send it; `result` names the Tool's fields."""
    return [
        mp.User("weather?"),
        mp.Assistant(
            tool_calls=[
                mp.ToolCall(id=None, name="time", arguments="{}"),
                mp.ToolCall(id=None, name="weather", arguments="{}"),
            ]
        ),
        mp.Tool("12C", tool_call_id=None, **result),
        mp.Assistant("12C"),
        mp.User("thanks"),
    ]


@pytest.mark.parametrize(
    ("result", "left"),
    [
        ({"name": "weather"}, ["time"]),  # paired by name
        ({}, ["time"]),  # neither id nor name: the latest call
    ],
)
def test_filter_messages_unpaired_drop_pairs_calls_without_ids(
    result: dict[str, Any], left: list[str]
) -> None:
    """A result without a call id pairs as `trim` pairs it: by name, else the latest call."""
    out = mp.filter_messages(_gemini_loop(**result), roles="tool", exclude=True, unpaired="drop")
    assert [c.name for m in out if isinstance(m, mp.Assistant) for c in m.tool_calls] == left
    assert [m.role for m in out] == ["user", "assistant", "assistant", "user"]


def test_filter_messages_unpaired_drop_removes_a_result_paired_by_name() -> None:
    """Removing the calls removes a result without an id that answered one of them by name."""
    out = mp.filter_messages(
        _gemini_loop(name="weather"), kinds="tool_call", exclude=True, unpaired="drop"
    )
    assert [m.role for m in out] == ["user", "assistant", "user"]


@pytest.mark.parametrize(
    ("options", "expected"),
    [({"roles": "user"}, [("user", ["text"])]), ({"roles": "user", "exclude": True}, [])],
)
def test_filter_messages_takes_one_message(
    options: dict[str, Any], expected: list[tuple[str, list[str]]]
) -> None:
    """One message is read as a conversation of one, as `show` and `trim` read it."""
    message = mp.User("x")
    out = mp.filter_messages(message, **options)
    assert _kinds(out) == expected
    assert all(m is message for m in out)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"roles": ["human"]}, mp.InvalidConfig, "the roles are: system, developer"),
        ({"kinds": ["picture"]}, mp.InvalidConfig, "the kinds are: image"),
        ({"roles": 3}, mp.InvalidConfig, "takes names"),
        ({"where": "user"}, mp.InvalidConfig, "takes a function"),
        ({"empty": "never"}, mp.InvalidConfig, "'drop' or 'keep'"),
        ({"unpaired": "fix"}, mp.InvalidConfig, "'keep' or 'drop'"),
    ],
)
def test_filter_messages_refuses_bad_options(
    options: dict[str, Any], error: type[Exception], message: str
) -> None:
    """An unknown name or a wrong option is InvalidConfig listing what is allowed."""
    with pytest.raises(error, match=message):
        mp.filter_messages(_conversation(), **options)


@pytest.mark.parametrize("value", [{"role": "user"}, [{"role": "user"}], "hi", 42])
def test_filter_messages_refuses_what_is_not_messages(value: Any) -> None:
    """Dicts, text and other values are InvalidMedia (one message is read as a list of one)."""
    with pytest.raises(mp.InvalidMedia, match="filter_messages"):
        mp.filter_messages(value)


_PARTS = [
    mp.TextPart("t"),
    mp.part(PALETTE),
    mp.ReasoningPart(text="r"),
    mp.RefusalPart("no"),
    mp.ProviderPart(provider="anthropic", data={"type": "x"}),
]


@st.composite
def _conversations(draw: st.DrawFn) -> list[mp.Message]:
    """Conversations of every role (each message with parts), some tool calls answered."""
    out: list[mp.Message] = []
    for i in range(draw(st.integers(0, 8))):
        parts = draw(st.lists(st.sampled_from(_PARTS), min_size=1, max_size=3))
        role = draw(st.sampled_from(["user", "assistant", "tool"]))
        if role == "user":
            out.append(mp.User(parts=parts))
        elif role == "assistant":
            calls = [mp.ToolCall(id=f"c{i}", name="f")] if draw(st.booleans()) else []
            out.append(mp.Assistant(parts=parts + calls))
        else:
            answers = draw(st.sampled_from([f"c{j}" for j in range(i)] or ["none"]))
            out.append(mp.Tool(parts=parts, tool_call_id=answers))
    return out


@given(
    messages=_conversations(),
    kinds=st.lists(st.sampled_from(["text", "image", "reasoning", "tool_call", "provider"])),
    roles=st.none() | st.lists(st.sampled_from(["user", "assistant", "tool"])),
)
def test_filter_messages_kept_and_excluded_partition_the_parts(
    messages: list[mp.Message], kinds: list[str], roles: list[str] | None
) -> None:
    """With empty="keep", a selection and its complement split every message's parts."""
    before = copy.deepcopy(messages)
    kept = mp.filter_messages(messages, roles=roles, kinds=kinds, empty="keep")
    dropped = mp.filter_messages(messages, roles=roles, kinds=kinds, exclude=True, empty="keep")
    assert messages == before
    assert len(kept) == len(dropped) == len(messages)
    for original, one, other in zip(messages, kept, dropped, strict=True):
        assert sorted(map(id, one.parts + other.parts)) == sorted(map(id, original.parts))
        assert one.model_copy(update={"parts": original.parts}) == original


@given(messages=_conversations())
def test_filter_messages_unpaired_drop_leaves_no_broken_pair(messages: list[mp.Message]) -> None:
    """Without tool results, unpaired="drop" leaves no call that the input had answered."""
    answered = {m.tool_call_id for m in messages if isinstance(m, mp.Tool)}
    out = mp.filter_messages(messages, roles="tool", exclude=True, unpaired="drop")
    calls = {p.id for m in out for p in m.parts if isinstance(p, mp.ToolCall)}
    assert not calls & answered


def test_filter_messages_asks_where_once_per_message() -> None:
    """The predicate is asked once per message, however many parts it has, so a message is
    never split by a predicate that changes its mind."""
    asked: list[mp.Message] = []

    def where(message: mp.Message) -> bool:
        asked.append(message)
        return len(asked) % 2 == 1  # true, then false, then true ...

    message = mp.User(["a", "b", "c"])
    assert mp.filter_messages([message], where=where) == [message]
    assert asked == [message]
