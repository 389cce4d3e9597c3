"""`answered_calls`: the one rule pairing tool results with calls (filter_messages, trim)."""

from __future__ import annotations

from typing import Any

import pytest

import mediaparts as mp
from mediaparts._conversation._tool_pairs import answered_calls


def _calls(*calls: tuple[str | None, str]) -> mp.Assistant:
    return mp.Assistant(tool_calls=[mp.ToolCall(id=i, name=n) for i, n in calls])


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        ({"tool_call_id": "a"}, (1, 0)),  # by id: the latest call with it
        ({"tool_call_id": "b"}, (2, 1)),
        # An id no call has: the latest call of its name, if that call has no id.
        ({"tool_call_id": "zz", "name": "f"}, (2, 0)),
        ({"tool_call_id": "zz", "name": "g"}, None),  # g's call has its own id
        ({"name": "f"}, (2, 0)),  # no id: the latest call of its name
        ({"name": "h"}, None),
        ({}, (2, 1)),  # neither: the latest call
    ],
)
def test_answered_calls_pairs_by_id_then_name_then_latest(
    result: dict[str, Any], expected: tuple[int, int] | None
) -> None:
    """A result answers the latest call with its id; without one, of its name; else the latest."""
    messages: list[mp.Message] = [
        mp.User("go"),
        _calls(("a", "f")),
        _calls((None, "f"), ("b", "g")),
        mp.Tool("done", **result),
    ]
    assert answered_calls(messages).get(3) == expected


def test_answered_calls_only_looks_back() -> None:
    """A result before any call answers nothing; a later call does not change what it answered."""
    messages: list[mp.Message] = [
        mp.Tool("early", name="f"),
        _calls(("a", "f")),
        mp.Tool("one", name="f"),
        _calls(("b", "f")),
        mp.Tool("two", tool_call_id="a"),
    ]
    assert answered_calls(messages) == {2: (1, 0), 4: (1, 0)}
