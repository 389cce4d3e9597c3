"""`merge_runs`: consecutive messages of one role made one, nothing either holds lost."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeGuard

from mediaparts._conversation._messages import Assistant, Message, System, Tool, User
from mediaparts._conversation._parts import TextPart
from mediaparts._errors import InvalidMedia

__all__ = ["merge_runs"]

# How two plain texts that meet are joined (as `Message.text` joins a message's texts).
_SEPARATOR = "\n\n"


def merge_runs(messages: Sequence[Message]) -> list[Message]:
    """Merge consecutive messages of the same role into one, returning new messages.

    Parts are concatenated in order, and two plain text parts that meet (no citations, cache
    or native hints) are joined with a blank line; usage is added up; the later message's
    model and stop reason win. Tool messages are never merged (each answers its own call),
    nor are messages whose `name`, `native` hints or `metadata` differ (so that nothing
    either holds is lost). The merged message keeps the first message's `id` and
    `created_at` (the second's when the first has none): ids name messages for the
    application and never keep turns apart, or a conversation would merge differently with
    `mp.configure(message_ids=...)`.
    """
    if isinstance(messages, str | Mapping) or not isinstance(messages, Iterable):
        raise InvalidMedia(f"merge_runs() takes a list of messages, got {type(messages).__name__}")
    merged: list[Message] = []
    for message in messages:
        if not isinstance(message, System | User | Assistant | Tool):
            raise InvalidMedia(
                f"merge_runs() takes messages (mp.User, ...), got {type(message).__name__}; "
                "use mp.message_from_dict() for dicts"
            )
        last = merged[-1] if merged else None
        if last is None or not _mergeable(last, message):
            merged.append(message)
            continue
        merged[-1] = _merge(last, message)
    return merged


def _mergeable(first: Message, second: Message) -> bool:
    """Same role, not tool results, and nothing that would be lost: name, hints and the
    application's metadata agree."""
    if first.role != second.role or isinstance(second, Tool):
        return False
    return all(
        getattr(first, f, None) == getattr(second, f, None) for f in ("name", "native", "metadata")
    )


def _plain(part: Any) -> TypeGuard[TextPart]:
    return isinstance(part, TextPart) and part == TextPart(part.text)


def _merge(first: Message, second: Message) -> Message:
    parts: list[Any] = list(first.parts)
    for p in second.parts:
        last = parts[-1] if parts else None
        if _plain(p) and _plain(last):
            parts[-1] = TextPart(last.text + _SEPARATOR + p.text)
        else:
            parts.append(p)
    fields = {
        name: getattr(first, name)
        for name in type(first).model_fields
        if name not in ("parts", "usage", "output", "model", "stop_reason", "stop_reason_raw")
    }
    if isinstance(first, Assistant) and isinstance(second, Assistant):
        usages = [u for u in (first.usage, second.usage) if u is not None]
        fields["usage"] = sum(usages[1:], usages[0]) if usages else None
        fields["output"] = second.output if second.output is not None else first.output
        for name in ("model", "stop_reason", "stop_reason_raw"):
            fields[name] = getattr(second, name) or getattr(first, name)
    for name in ("id", "created_at"):
        fields[name] = getattr(first, name) or getattr(second, name)
    made = type(first)(parts=tuple(parts), **fields)
    assert isinstance(made, System | User | Assistant | Tool)
    return made
