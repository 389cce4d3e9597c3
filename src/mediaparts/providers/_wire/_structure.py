"""What every wire's `check_request` shares: turns, tool pairing, and the problems they make.

A wire's `check_request(payload, served)` validates the conversation of a rendered payload the
way its API does before it runs the model (every tool call answered, every result paired with
a call, role order, empty content, id patterns), and yields `(path, rule, message)` problems
for `mp.check`. Each wire reads its own shapes into `Turn`s; the pairing rules over turns are
here, written once. Everything is one pass over the payload: the work is linear in its size.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from mediaparts._errors import excerpt
from mediaparts.providers._wire._media_sites import Problems

Problem = tuple[str, str, str]

__all__ = [
    "Problem",
    "Problems",
    "Turn",
    "blank",
    "check_id",
    "id_of",
    "messages_of",
    "pair_next_turn",
    "role_of",
]


@dataclass(slots=True)
class Turn:
    """One turn of a conversation, as a wire's API groups messages.

    Attributes:
        role: The wire's role word (`"user"`, `"assistant"`, `"model"`, `"tool"`).
        path: The JSON path of its (first) message.
        calls: The tool calls it makes: (id, JSON path) each.
        results: The tool results it holds: (id, JSON path) each.
        other: Whether it holds content other than tool results (so far, while reading).
    """

    role: str
    path: str
    calls: list[tuple[str, str]] = field(default_factory=list)
    results: list[tuple[str, str]] = field(default_factory=list)
    other: bool = False


def messages_of(
    payload: dict[str, Any] | list[Any], key: str, problems: Problems, *, required: bool = True
) -> list[tuple[str, dict[str, Any]]]:
    """Return the payload's messages under `key` (or the payload itself, a message list given
    alone) with their JSON paths, noting what is malformed.

    A missing or empty list (when the API requires messages) and items that are not objects
    are problems; the objects are returned for the wire to read.
    """
    root = "$" if isinstance(payload, list) else f"$.{key}"
    messages = payload if isinstance(payload, list) else payload.get(key)
    if messages is None and not required:
        return []
    if not isinstance(messages, list):
        got = excerpt(messages)
        problems.append((root, "request.messages", f"{key} must be a list, got {got}"))
        return []
    if not messages and required:
        problems.append((root, "request.messages", f"{key} is empty: a request needs one"))
    found = []
    for i, message in enumerate(messages):
        if isinstance(message, dict):
            found.append((f"{root}[{i}]", message))
        else:
            shape = f"a message is an object, got {excerpt(message)}"
            problems.append((f"{root}[{i}]", "message.shape", shape))
    return found


def role_of(
    message: dict[str, Any], at: str, roles: tuple[str | None, ...], problems: Problems
) -> str | None:
    """Return a message's role, or None, noting the problem, when the API has no such role."""
    role = message.get("role")
    if role in roles:
        return role if isinstance(role, str) else ""
    named = ", ".join(r for r in roles if r is not None)
    problems.append((f"{at}.role", "message.role", f"role {excerpt(role)} is not one of {named}"))
    return None


def blank(text: Any) -> bool:
    """Tell whether a text field is empty or holds only whitespace."""
    return isinstance(text, str) and not text.strip()


def id_of(value: Any) -> str:
    """Return an id for pairing: the text itself, else a stand-in naming its type.

    Never `str()` of what a payload holds: a list nested thousands deep would overflow the
    stack, and a large one cost its whole size, for an id the API refuses anyway.
    """
    return value if isinstance(value, str) else f"<{type(value).__name__}>"


def check_id(value: Any, path: str, pattern: re.Pattern[str], what: str) -> Iterator[Problem]:
    """Yield a problem when an id is not text matching the API's pattern."""
    if not isinstance(value, str) or not pattern.fullmatch(value):
        yield path, "tool.id", f"{what} {excerpt(value)} does not match {pattern.pattern}"


def pair_next_turn(
    turns: Sequence[Turn],
    *,
    call: str,
    result: str,
    answered_by: tuple[str, ...],
) -> Iterator[Problem]:
    """Yield the tool calls not answered in the turn right after, and results that answer
    no call of the turn right before (the rule of Messages, Chat Completions and Converse).

    Args:
        turns: The conversation's turns, in order.
        call: What the API calls a tool call (`"tool_use"`), for messages.
        result: What it calls a result (`"tool_result"`).
        answered_by: The roles of a turn that may hold results.
    """
    seen: set[str] = set()
    for i, turn in enumerate(turns):
        for call_id, path in turn.calls:
            if call_id in seen:
                yield path, "tool.duplicate_id", f"{call} id {excerpt(call_id)} is used twice"
            seen.add(call_id)
        after = turns[i + 1] if i + 1 < len(turns) else None
        if turn.calls:
            answering = after is not None and after.role in answered_by
            answers = {rid for rid, _ in after.results} if after and answering else set()
            for call_id, path in turn.calls:
                if call_id not in answers:
                    yield (
                        path,
                        "tool.unanswered",
                        f"{call} {excerpt(call_id)} has no {result} in the turn right after it",
                    )
        before = {cid for cid, _ in turns[i - 1].calls} if i else set()
        for result_id, path in turn.results:
            if result_id not in before:
                yield (
                    path,
                    "tool.unpaired",
                    f"{result} for {excerpt(result_id)} answers no {call} of the turn right "
                    "before it",
                )
