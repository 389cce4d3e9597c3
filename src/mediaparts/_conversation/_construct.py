"""Building parts and messages: their constructor arguments checked, pydantic's errors explained.

Every part and message is built through `construct`, so what holds for all their fields lives
here once: field types checked before detection, text that cannot be encoded as UTF-8
cleaned (or refused where cleaning would change meaning), and pydantic's errors turned into
`InvalidMedia` with one line of explanation.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    PlainSerializer,
    Strict,
    ValidationError,
    WithJsonSchema,
)
from pydantic.fields import FieldInfo

from mediaparts._errors import InvalidMedia, excerpt
from mediaparts._surrogates import SURROGATE

__all__ = [
    "article",
    "assign",
    "check_fields",
    "check_limit",
    "construct",
    "explain",
    "extra_fields",
    "install",
    "keyword_only",
    "model_hash",
    "public_name",
    "shortcut",
]


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def extra_fields(where: str, fields: Mapping[str, Any], allowed: tuple[str, ...] = ()) -> None:
    """Refuse keyword fields that a constructor sets itself (data, url, kind)."""
    clash = sorted(set(fields) - {"metadata", "detail", "cache", "native", *allowed})
    if clash:
        raise InvalidMedia(
            f"{where}() sets {', '.join(clash)} itself; it also takes metadata=, cache=, "
            "native= (and detail= for images)"
        )


def keyword_only(
    cls: type[BaseModel], given: tuple[Any, ...], *, use: str = "", takes: str = ""
) -> InvalidMedia:
    """Say that a part or message class was given positional arguments it does not take.

    Python's own `TypeError` ("takes 1 positional argument but 2 were given") names neither
    the fields nor the constructor to use; this message names both.

    Args:
        cls: The class called.
        given: The positional arguments it was given (the first is shown, bounded).
        use: What to call instead, ending the message (`{cls}` stands for the class as the
            caller writes it, `public_name`).
        takes: What the class takes positionally, if anything ("one text").
    """
    # The class's own fields first; those every part shares (cache, native, metadata) last.
    names = sorted(cls.model_fields, key=lambda name: name in ("cache", "native", "metadata"))
    shown = ", ".join(f"{cls.model_fields[n].alias or n}=" for n in names if n != "kind")
    what = f"{takes} and keyword fields" if takes else "keyword fields only"
    count = f"{len(given)} positional argument{'s' * (len(given) > 1)}"
    message = f"{cls.__name__} takes {what} ({shown}), got {count} ({excerpt(given[0])})"
    return InvalidMedia(f"{message}; {use.replace('{cls}', public_name(cls))}" if use else message)


def public_name(cls: type) -> str:
    """Name a class as the caller writes it: `mp.ImagePart` for one of ours (every public class
    mediaparts defines is exported from `mediaparts`, which tests/test_public_api.py pins),
    else its own name: a subclass the caller made is not `mp.<name>`."""
    ours = cls.__module__.partition(".")[0] == _PACKAGE and not cls.__name__.startswith("_")
    return f"mp.{cls.__name__}" if ours else cls.__name__


_PACKAGE = __name__.partition(".")[0]


def check_limit(max_bytes: Any) -> None:
    if max_bytes is not None and (not isinstance(max_bytes, int) or isinstance(max_bytes, bool)):
        raise InvalidMedia(f"max_bytes must be a whole number, got {type(max_bytes).__name__}")
    if max_bytes is not None and max_bytes < 0:
        raise InvalidMedia(f"max_bytes must be 0 or more, got {max_bytes}")


_TEXT_FIELDS = ("media_type", "filename", "url", "detail")


def check_fields(values: Mapping[str, Any]) -> None:
    """Refuse field values of the wrong type before they reach detection.

    Raises:
        InvalidMedia: `media_type`, `filename`, `url` or `detail` is not a string, or
            `metadata` is not a dict; `media_type`, `url` or `detail` holds a lone
            surrogate (text that cannot be encoded as UTF-8; a file name is cleaned instead,
            by `clean_filename`).
    """
    for name in _TEXT_FIELDS:
        value = values.get(name)
        if value is not None and not isinstance(value, str):
            raise InvalidMedia(f"{name} must be a string, got {type(value).__name__}")
        if name != "filename" and value is not None and SURROGATE.search(value):
            raise InvalidMedia(
                f"{name} {excerpt(value)} holds a lone surrogate, which cannot be encoded as "
                "UTF-8; decode the text it came from correctly"
            )
    metadata = values.get("metadata")
    if metadata is not None and not isinstance(metadata, Mapping):
        raise InvalidMedia(f"metadata must be a dict, got {type(metadata).__name__}")


# Fields whose lone surrogates are refused by `check_fields` instead of cleaned: changing a
# URL or a media type would silently name something else.
_STRICT_TEXT = frozenset({"url", "media_type", "detail"})


def construct(model: BaseModel, init: Callable[..., None], values: dict[str, Any]) -> None:
    """Run a pydantic model's __init__, turning its ValidationError into InvalidMedia.

    Every part and message is built here, so this is where text that cannot be encoded as
    UTF-8 is cleaned, for every string field at once (text, names, ids, tool-call arguments):
    a lone surrogate becomes U+FFFD, as in file names, or a payload would fail to encode later.
    """
    for name, value in values.items():
        if isinstance(value, str) and name not in _STRICT_TEXT and SURROGATE.search(value):
            values[name] = SURROGATE.sub("\ufffd", value)
    try:
        init(**values)
    except ValidationError as exc:
        raise InvalidMedia(explain(type(model).__name__, exc)) from exc
    except TypeError as exc:  # pydantic calls a nested model's __init__ with a dict's keys
        raise InvalidMedia(f"invalid {type(model).__name__}: {exc}") from exc


def model_hash(model: BaseModel) -> int:
    """Hash a frozen model by its hashable fields, leaving out dicts (`native`, a provider's
    data, `output`): equal models agree on every field, so they still hash alike."""
    values = []
    for value in model.__dict__.values():
        try:
            values.append(hash(value))
        except TypeError:
            continue
    return hash((type(model), *values))


def explain(name: str, exc: ValidationError) -> str:
    """Say what was wrong, in one line, from pydantic's list of errors."""
    problems = []
    for err in exc.errors(include_url=False):
        cause = err.get("ctx", {}).get("error")
        if isinstance(cause, InvalidMedia):  # our own message, raised inside a validator
            problems.append(str(cause))
            continue
        # A location holds the caller's keys (an unknown field's name): each is bounded.
        where = ".".join(str(p) if len(str(p)) <= 80 else excerpt(p) for p in err["loc"])
        problems.append(f"{where or 'value'}: {err['msg']}")
    return f"invalid {name}: " + "; ".join(problems[:5])


# -- values validation would keep as they are -----------------------------------------------------
#
# Most parts and messages a reader makes hold values that pydantic keeps as they are: text that
# is a `str`, parts that are parts, a literal among its choices, no hints. `assign` sets such
# values directly, as pydantic's `model_construct` does, and refuses anything else (another type,
# text to clean, a field with a validator, a non-empty dict to copy, a class with model
# validators or private state), which the caller then validates. The model made is the one
# validation makes, field for field and in the same order (tests/test_made.py builds every part
# and message of the corpus both ways and compares them).

_TEXT, _CHOICE, _MODELS, _EMPTY, _FLAG = range(5)
# A field's rule: (kind, what it allows: None too (text), the choices, or the model classes).
_Rule = tuple[int, Any]


class _Shortcut:
    """How to make one model class without validation: a rule per field, and the defaults."""

    __slots__ = ("defaults", "empty", "required", "rules")

    def __init__(
        self,
        rules: dict[str, _Rule],
        defaults: dict[str, Any],
        empty: list[str],
        fields: dict[str, FieldInfo],
    ) -> None:
        self.rules = rules  # the fields whose given values may be kept as they are
        self.defaults = defaults  # every field in order: its default, or a placeholder
        self.empty = tuple(empty)  # the fields whose default is a new, empty dict
        self.required = frozenset(name for name, field in fields.items() if field.is_required())


_SHORTCUTS: dict[type[BaseModel], _Shortcut | None] = {}
_UNKNOWN = _Shortcut({}, {}, [], {})  # a class not seen yet


def shortcut(cls: type[BaseModel]) -> _Shortcut | None:
    """How to make `cls` without validation (worked out once per class), or None."""
    way = _SHORTCUTS.get(cls, _UNKNOWN)
    if way is _UNKNOWN:
        way = _SHORTCUTS.setdefault(cls, _shortcut(cls))
    return way


def assign(model: BaseModel, values: dict[str, Any]) -> bool:
    """Set a new model's fields to `values` when validation would keep each as it is.

    Returns:
        Whether it did; when not, the model is untouched, for the caller to validate.
    """
    way = shortcut(type(model))
    if way is None or (way.required and not way.required <= values.keys()):
        return False
    rules = way.rules
    # The commonest kinds first; each check returns at the first value validation would change.
    for name, value in values.items():
        rule = rules.get(name)
        if rule is None:
            return False
        kind, allowed = rule
        if kind == _TEXT:
            if type(value) is str:
                # ASCII text holds no surrogate: most text is, and `isascii` costs far less.
                if not value.isascii() and SURROGATE.search(value):
                    return False
            elif value is not None or not allowed:
                return False
        elif kind == _MODELS:
            # `map` over builtins: no generator frame for each part of each message
            if type(value) not in (tuple, list) or not all(
                map(allowed.__contains__, map(type, value))
            ):
                return False
            if type(value) is list:
                values[name] = tuple(value)
        elif kind == _EMPTY:  # a dict its validator copies; an empty one is a new empty dict
            if type(value) is not dict or value:
                return False
        elif kind == _CHOICE:
            if not ((value is None or type(value) is str) and value in allowed):
                return False
        elif type(value) is not bool:  # _FLAG
            return False
    fields = {**way.defaults, **values}
    for name in way.empty:
        fields[name] = {}  # its own, never the caller's (an empty one, as `_EMPTY` requires)
    # `install`, without a call for each model
    _set(model, "__dict__", fields)
    _set_fields_set(model, set(values))
    _set_extra(model, None)
    _set_private(model, None)
    return True


def install(model: BaseModel, fields: dict[str, Any], fields_set: set[str]) -> None:
    """Give a new model (`cls.__new__(cls)`) its fields, as pydantic's `model_construct` does
    for a class with neither extra fields nor private attributes."""
    _set(model, "__dict__", fields)
    _set_fields_set(model, fields_set)
    _set_extra(model, None)
    _set_private(model, None)


_set = object.__setattr__  # past the frozen model's own __setattr__, as pydantic does
# BaseModel's slots, set through their descriptors: what `_set` would find, looked up once.
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def _shortcut(cls: type[BaseModel]) -> _Shortcut | None:
    """Return how to make `cls` without validation, or None where validation always runs."""
    decorators = cls.__pydantic_decorators__
    config = cls.model_config
    if (
        decorators.model_validators
        or cls.__private_attributes__
        or cls.__pydantic_post_init__ is not None
        or config.get("extra") != "forbid"
        or config.get("validate_default")
    ):
        return None
    validated = {name for d in decorators.field_validators.values() for name in d.info.fields}
    rules: dict[str, _Rule] = {}
    defaults: dict[str, Any] = {}
    empty: list[str] = []
    for name, field in cls.model_fields.items():
        defaults[name] = None  # a placeholder where the field is required: it is given
        if field.default_factory is dict:
            empty.append(name)
        elif field.default_factory is not None:
            return None
        elif not field.is_required():
            if not isinstance(field.default, str | tuple | bool | int | type(None)):
                return None  # pydantic would copy a mutable default
            defaults[name] = field.default
        rule = None if name in validated or field.alias else _rule(field)
        if rule is not None:
            rules[name] = rule
    return _Shortcut(rules, defaults, empty, cls.model_fields)


def _rule(field: FieldInfo) -> _Rule | None:
    """Return the rule of a field's values, or None when a value given is always validated."""
    annotation = field.annotation
    # What says how a field is written out, not what it takes, is left aside.
    metadata = [m for m in field.metadata if not isinstance(m, PlainSerializer | WithJsonSchema)]
    if annotation is bool and metadata in ([], [Strict()]):
        return (_FLAG, None)
    if metadata:
        # A validator that makes a dict (hints, a provider's data): only an empty one is kept.
        makes_a_dict = annotation == dict[str, Any] and isinstance(metadata[0], BeforeValidator)
        return (_EMPTY, None) if makes_a_dict and len(metadata) == 1 else None
    optional = False
    if typing.get_origin(annotation) in (Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(members) < len(typing.get_args(annotation))
        if len(members) != 1:
            return None
        annotation = members[0]
    if annotation is str:
        return (_TEXT, optional)
    if typing.get_origin(annotation) is Literal:
        choices = typing.get_args(annotation)
        if all(type(c) is str for c in choices):
            return (_CHOICE, frozenset(choices) | ({None} if optional else set()))
        return None
    args = typing.get_args(annotation)
    if not optional and typing.get_origin(annotation) is tuple and args[-1:] == (Ellipsis,):
        item = args[0]
        if typing.get_origin(item) is Annotated:  # a tagged union: Field(discriminator=...)
            item = typing.get_args(item)[0]
        union = typing.get_origin(item) in (Union, types.UnionType)
        classes = typing.get_args(item) if union else (item,)
        if all(isinstance(c, type) and issubclass(c, BaseModel) for c in classes):
            return (_MODELS, frozenset(classes))
    return None
