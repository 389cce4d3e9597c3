"""Which tool call each tool result answers: one rule, shared by `filter_messages` and `trim`.

A `Tool` message answers the latest call before it whose `id` is its `tool_call_id`; without
an id (Gemini may send none), the latest call of its `name`; without a name either, the
latest call. A result whose id no call has answers the latest call of its name that has no
id (a call written without one, answered with an id made up for it); a result whose call is
not before it answers nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from mediaparts._conversation._messages import Message, Tool
from mediaparts._conversation._parts import ToolCall

__all__ = ["answered_calls"]


def answered_calls(messages: Sequence[Message]) -> dict[int, tuple[int, int]]:
    """Return where the call each `Tool` message answers is.

    Returns:
        For each index of a `Tool` message that answers a call, the call's (message index,
        part index); a result that answers nothing is left out.
    """
    pairs: dict[int, tuple[int, int]] = {}
    by_id: dict[str, tuple[int, int]] = {}
    by_name: dict[str, tuple[int, int]] = {}
    unnamed: set[tuple[int, int]] = set()  # the calls without an id
    latest: tuple[int, int] | None = None
    for at, message in enumerate(messages):
        if isinstance(message, Tool):
            if message.tool_call_id is not None:
                call = by_id.get(message.tool_call_id)
                if call is None and message.name is not None:
                    named = by_name.get(message.name)
                    call = named if named in unnamed else None
            elif message.name is not None:
                call = by_name.get(message.name)
            else:
                call = latest
            if call is not None:
                pairs[at] = call
            continue
        for index, part in enumerate(message.parts):
            if isinstance(part, ToolCall):
                if part.id is not None:
                    by_id[part.id] = (at, index)
                else:
                    unnamed.add((at, index))
                by_name[part.name] = latest = (at, index)
    return pairs
