"""`mp.filter_messages`: a conversation cut down by role, part kind or a predicate.

What is selected is a set of parts: the parts of the kinds asked for (all kinds by default)
in the messages of the roles asked for that the predicate accepts (all messages by default).
The selection is kept, or with `exclude=True` removed; a message keeps its other fields (id,
usage, ...) and loses only parts. Messages are frozen, so the ones that change are copies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

from mediaparts._conversation._messages import Assistant, Message, System, Tool, User
from mediaparts._conversation._parts import PART_CLASSES
from mediaparts._conversation._tool_pairs import answered_calls
from mediaparts._errors import InvalidConfig, InvalidMedia, excerpt

__all__ = ["filter_messages"]

_ROLES = ("system", "developer", "user", "assistant", "tool")
_KINDS = tuple(PART_CLASSES)  # every part kind, read from the `Part` union


def filter_messages(
    messages: Message | Sequence[Message],
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
    and a result whose call was removed (a call left unanswered in the input stays). A
    result pairs as `mp.trim` pairs it: with the latest call whose id is its `tool_call_id`;
    without an id (Gemini may send none), the latest call of its `name`; without a name
    either, the latest call.

    Args:
        messages: The conversation, or one message (a conversation of one); it is not
            changed.
        roles: Role names ("system", "developer", "user", "assistant", "tool").
        kinds: Part kinds ("text", "image", "audio", "video", "file", "reasoning",
            "tool_call", "refusal", "provider").
        where: A predicate over messages, asked once per message; what it raises is raised
            as it is.
        exclude: Remove the selection instead of keeping it.
        empty: What becomes of a message the filter left with no parts.
        unpaired: Whether to remove the other half of the tool-call pairs the filter broke.

    Returns:
        A new list; unchanged messages are the same objects, changed ones are copies.

    Raises:
        InvalidConfig: An unknown role or kind, a `where` that is not callable, or an
            `empty` or `unpaired` that is not one of its values.
        InvalidMedia: `messages` is not a message or a list of messages.
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
                f"got {excerpt(value)}"
            )
    checked = _messages(messages)

    def picked(message: Message) -> bool:
        return (wanted_roles is None or message.role in wanted_roles) and (
            where is None or bool(where(message))
        )

    # Per message, the indices of the parts it keeps, or None when it is dropped.
    keep: list[list[int] | None] = []
    for message in checked:
        chosen = picked(message)  # `where` is asked once per message, never per part
        if not message.parts:
            keep.append([] if (chosen and wanted_kinds is None) != exclude else None)
            continue
        parts = [
            at
            for at, part in enumerate(message.parts)
            if (chosen and (wanted_kinds is None or part.kind in wanted_kinds)) != exclude
        ]
        keep.append(parts if parts or empty == "keep" else None)
    if unpaired == "drop":
        _unpair(checked, keep, empty)
    return [_with(m, parts) for m, parts in zip(checked, keep, strict=True) if parts is not None]


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
            f"filter_messages({what}=...) got {excerpt(unknown[0])}; the {what} are: "
            f"{', '.join(allowed)}"
        )
    return frozenset(names)


def _messages(messages: Any) -> list[Message]:
    if isinstance(messages, System | User | Assistant | Tool):  # iterable, as pydantic models are
        return [messages]
    if isinstance(messages, str | bytes | Mapping) or not isinstance(messages, Iterable):
        raise InvalidMedia(f"filter_messages() takes messages, got {type(messages).__name__}")
    out = list(messages)
    for i, message in enumerate(out):
        if not isinstance(message, System | User | Assistant | Tool):
            raise InvalidMedia(
                f"filter_messages() takes messages (mp.User, ...), got {type(message).__name__} "
                f"at [{i}]; read dicts with mp.message_from_dict() first"
            )
    return out


def _with(message: Message, parts: list[int]) -> Message:
    if len(parts) == len(message.parts):
        return message
    return message.model_copy(update={"parts": tuple(message.parts[at] for at in parts)})


def _unpair(messages: list[Message], keep: list[list[int] | None], empty: str) -> None:
    """Remove (from `keep`) the calls whose every result the filter removed, and the results
    whose call it removed; pairs are the input's, found as `trim` finds them."""
    pairs = answered_calls(messages)
    answered = {call for result, call in pairs.items() if keep[result] is not None}
    lost_results = {call for call in pairs.values() if call not in answered}
    for result, (at, index) in pairs.items():
        if index not in (keep[at] or ()):  # its call is gone
            keep[result] = None
    for at, index in lost_results:
        parts = keep[at]
        if parts is not None and index in parts:
            parts.remove(index)
            if not parts and empty == "drop":
                keep[at] = None
