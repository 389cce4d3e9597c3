"""`mp.filter_messages`: a conversation cut down by role, part kind or a predicate.

What is selected is a set of parts: the parts of the kinds asked for (all kinds by default)
in the messages of the roles asked for that the predicate accepts (all messages by default).
The selection is kept, or with `exclude=True` removed; a message keeps its other fields (id,
usage, ...) and loses only parts. Messages are frozen, so the ones that change are copies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, get_args

from mediaparts._errors import InvalidConfig, InvalidMedia
from mediaparts._messages import Assistant, Message, System, Tool, User
from mediaparts._parts import Part, ToolCall
from mediaparts.formats import Kind

__all__ = ["filter_messages"]

_ROLES = ("system", "developer", "user", "assistant", "tool")
_KINDS = (*get_args(Kind), "text", "reasoning", "tool_call", "refusal", "provider")


def filter_messages(
    messages: Sequence[Message],
    *,
    roles: str | Iterable[str] | None = None,
    kinds: str | Iterable[str] | None = None,
    where: Callable[[Message], bool] | None = None,
    exclude: bool = False,
    empty: Literal["drop", "keep"] = "drop",
    unpaired: Literal["keep", "drop"] = "keep",
) -> list[Message]:
    """Return the conversation with only the selected parts, or without them.

    A part is selected when its message's role is in `roles`, `where(message)` is true and
    its kind is in `kinds` (each criterion left out selects everything). `exclude=False`
    keeps the selection, `exclude=True` removes it:

    - `roles=["system", "user"]`: those messages only; with `exclude=True`, all but those.
    - `kinds=["image"], exclude=True`: every image removed; `kinds=["text"]`: text only.
    - `roles=["user"], kinds=["image"], exclude=True`: images removed from user messages.

    Roles are matched as written (`"developer"` is not `"system"`). A message left with no
    parts is dropped (`empty="keep"` keeps it, with no parts). A message that had no parts
    to begin with counts as selected when its role and `where` select it and no `kinds` are
    given.

    Tool calls and their results are filtered like anything else, so removing `tool`
    messages leaves their calls unanswered, which providers refuse. `unpaired="drop"` also
    removes the other half of every pair the filter broke: a call whose result was removed,
    and a result whose call was removed (a call left unanswered in the input stays).

    Args:
        messages: The conversation; it is not changed.
        roles: Role names ("system", "developer", "user", "assistant", "tool").
        kinds: Part kinds ("text", "image", "audio", "video", "file", "reasoning",
            "tool_call", "refusal", "provider").
        where: A predicate over messages.
        exclude: Remove the selection instead of keeping it.
        empty: What becomes of a message the filter left with no parts.
        unpaired: Whether to remove the other half of the tool-call pairs the filter broke.

    Returns:
        A new list; unchanged messages are the same objects, changed ones are copies.

    Raises:
        InvalidConfig: An unknown role or kind, a `where` that is not callable, or an
            `empty` or `unpaired` that is not one of its values.
        InvalidMedia: `messages` is not a list of messages.
    """
    wanted_roles = _names("roles", roles, _ROLES)
    wanted_kinds = _names("kinds", kinds, _KINDS)
    if where is not None and not callable(where):
        raise InvalidConfig(
            f"filter_messages(where=...) takes a function, got {type(where).__name__}"
        )
    for name, value, allowed in (
        ("empty", empty, ("drop", "keep")),
        ("unpaired", unpaired, ("keep", "drop")),
    ):
        if value not in allowed:
            raise InvalidConfig(
                f"filter_messages({name}=...) takes {' or '.join(map(repr, allowed))}, "
                f"got {value!r:.40}"
            )
    checked = _messages(messages)

    def picked(message: Message) -> bool:
        return (wanted_roles is None or message.role in wanted_roles) and (
            where is None or bool(where(message))
        )

    def kept(message: Message, part: Part) -> bool:
        selected = picked(message) and (wanted_kinds is None or part.kind in wanted_kinds)
        return selected != exclude

    out: list[Message] = []
    for message in checked:
        if not message.parts:
            if (picked(message) and wanted_kinds is None) != exclude:
                out.append(message)
            continue
        parts = tuple(p for p in message.parts if kept(message, p))
        _append(out, message, parts, empty)
    return _unpair(checked, out, empty) if unpaired == "drop" else out


def _names(what: str, value: Any, allowed: tuple[str, ...]) -> frozenset[str] | None:
    if value is None:
        return None
    names = [value] if isinstance(value, str) else value
    if isinstance(names, Mapping) or not isinstance(names, Iterable):
        raise InvalidConfig(f"filter_messages({what}=...) takes names, got {type(value).__name__}")
    names = list(names)
    unknown = [n for n in names if n not in allowed]
    if unknown:
        raise InvalidConfig(
            f"filter_messages({what}=...) got {unknown[0]!r:.40}; the {what} are: "
            f"{', '.join(allowed)}"
        )
    return frozenset(names)


def _messages(messages: Any) -> list[Message]:
    if isinstance(messages, str | bytes | Mapping) or not isinstance(messages, Iterable):
        raise InvalidMedia(
            f"filter_messages() takes a list of messages, got {type(messages).__name__}"
        )
    out = list(messages)
    for i, message in enumerate(out):
        if not isinstance(message, System | User | Assistant | Tool):
            raise InvalidMedia(
                f"filter_messages() takes messages (mp.User, ...), got {type(message).__name__} "
                f"at [{i}]; read dicts with mp.message_from_dict() first"
            )
    return out


def _append(out: list[Message], message: Message, parts: tuple[Part, ...], empty: str) -> None:
    if len(parts) == len(message.parts):
        out.append(message)
    elif parts or empty == "keep":
        out.append(message.model_copy(update={"parts": parts}))


def _unpair(before: list[Message], after: list[Message], empty: str) -> list[Message]:
    """Remove calls whose result the filter removed, and results whose call it removed."""
    calls_before = {p.id for m in before for p in m.parts if isinstance(p, ToolCall) and p.id}
    answered_before = {m.tool_call_id for m in before if isinstance(m, Tool) and m.tool_call_id}
    calls = {p.id for m in after for p in m.parts if isinstance(p, ToolCall) and p.id}
    answered = {m.tool_call_id for m in after if isinstance(m, Tool) and m.tool_call_id}
    lost_results = (answered_before & calls_before) - answered  # a pair lost its result
    lost_calls = (answered_before & calls_before) - calls  # a pair lost its call
    out: list[Message] = []
    for message in after:
        if isinstance(message, Tool) and message.tool_call_id in lost_calls:
            continue
        parts = tuple(
            p for p in message.parts if not (isinstance(p, ToolCall) and p.id in lost_results)
        )
        _append(out, message, parts, empty)
    return out
