"""`made`: a part or message from values a reader has checked, without validating them again.

A provider reader checks every value it reads from a payload (a `str` where text belongs, parts
it made itself), so the common parts and messages it makes hold only values that validation
would keep as they are; validating them again was most of the cost of reading a payload back.
`made(User, parts=..., native=...)` is `User(parts=..., native=...)`: the same model, field for
field, with the same stamps, made directly when `assign` can tell validation would change
nothing, and by the constructor (which validates, cleans and explains) otherwise.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from mediaparts._conversation._construct import assign, install, shortcut
from mediaparts._conversation._dialogue import PartFields
from mediaparts._conversation._messages import System, Tool, _Message
from mediaparts._conversation._parts import TextPart
from mediaparts._conversation._stamps import stamp

__all__ = ["made", "made_text", "updated"]

M = TypeVar("M", bound=PartFields | _Message)
B = TypeVar("B", bound=BaseModel)

_PART, _MESSAGE, _SYSTEM, _TOOL = range(4)
# What each class `made` was given is, remembered: `issubclass` of a pydantic class goes
# through ABCMeta, at a cost on every message.
_KINDS: dict[type, int] = {}


def made(cls: type[M], /, **values: Any) -> M:
    """Return `cls(**values)` (keyword fields only), without validating it again where
    validation would keep every value as it is."""
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _KINDS.setdefault(cls, _kind(cls))
    if kind == _TOOL and values.get("error") is not None:
        return cls(**values)  # its error implies `is_error`, which the constructor sets
    if kind != _PART:
        stamp(values)  # an id and a time for a new message, when mp.configure asks
    model = cls.__new__(cls)
    if assign(model, values) and (kind != _SYSTEM or _text_only(values.get("parts", ()))):
        return model
    return cls(**values)  # validated, cleaned and explained


_TEXT_SET = frozenset({"text"})
_TEXT_NATIVE_SET = frozenset({"text", "native"})


def made_text(text: Any, *, native: dict[str, Any] | None = None) -> TextPart:
    """Return `made(TextPart, text=text)`, with `native` set as `updated` sets it when given:
    the part a reader makes most, made directly when `text` is an ASCII `str` (no surrogate
    can hide in it), without the general checks of `made` and `assign`.

    `native` is kept as it is, not copied: the caller's own hints, made for this part.
    """
    way = shortcut(TextPart)
    if way is None or type(text) is not str or not text.isascii():
        part = made(TextPart, text=text)
        return part if native is None else updated(part, native=native)
    part = TextPart.__new__(TextPart)
    fields = way.defaults.copy()
    fields["text"] = text
    for name in way.empty:
        fields[name] = {}  # its own
    if native is None:
        install(part, fields, set(_TEXT_SET))
    else:
        fields["native"] = native
        install(part, fields, set(_TEXT_NATIVE_SET))
    return part


def updated(model: B, /, **values: Any) -> B:
    """Return `model.model_copy(update=values)`: a shallow copy with `values` set, unvalidated.

    Made directly, as pydantic would make it, for a model with neither extra fields nor private
    attributes (every part and message `made` makes).
    """
    private = getattr(model, "__pydantic_private__", None)
    extra = model.__pydantic_extra__ is not None or model.model_config.get("extra") == "allow"
    if extra or private is not None:
        return model.model_copy(update=values)
    cls = type(model)
    copy = cls.__new__(cls)
    install(copy, {**model.__dict__, **values}, model.__pydantic_fields_set__ | values.keys())
    return copy


def _kind(cls: type) -> int:
    if issubclass(cls, System):
        return _SYSTEM
    if issubclass(cls, Tool):
        return _TOOL
    return _MESSAGE if issubclass(cls, _Message) else _PART


def _text_only(parts: tuple[Any, ...]) -> bool:
    """Tell whether a system message's parts are text, as its constructor requires."""
    return all(isinstance(p, TextPart) for p in parts)
