"""Checking and cleaning the values parts and messages are built from.

Every part and message is built through `construct`, so what holds for all their fields lives
here once: field types checked before detection, text that cannot be encoded as UTF-8 cleaned
(or refused where cleaning would change meaning), JSON data copied with bounded nesting, and
pydantic's errors turned into `InvalidMedia` with one line of explanation.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import reprlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, PlainSerializer, ValidationError, WithJsonSchema

from mediaparts._errors import InvalidMedia, excerpt
from mediaparts._inline import b64decode, b64encode

__all__ = [
    "InlineBytes",
    "JsonData",
    "NativeHints",
    "Opaque",
    "article",
    "bounded",
    "check_fields",
    "check_limit",
    "clean_filename",
    "construct",
    "copy_metadata",
    "data_copy",
    "data_json",
    "explain",
    "extra_fields",
    "inline_bytes",
    "json_copy",
    "json_text",
    "keyword_only",
    "model_hash",
    "reading_dicts",
    "utf8",
    "verbatim",
]


def inline_bytes(value: Any) -> Any:
    """A part's `data` as given: base64 text decoded, other buffers made bytes."""
    if isinstance(value, str):
        return b64decode(value)
    if isinstance(value, bytearray | memoryview):
        return bytes(value)
    return value


InlineBytes = Annotated[
    bytes,
    BeforeValidator(inline_bytes),
    PlainSerializer(b64encode, return_type=str, when_used="json"),
    WithJsonSchema({"type": "string", "contentEncoding": "base64"}),
]
"""A part's bytes: base64 text accepted on the way in, written as base64 in JSON."""


class _Shown(str):
    """Text that a repr prints as it is, without quotes (a descriptor such as `<12 bytes>`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


class _BoundedRepr(reprlib.Repr):
    """`reprlib` with bytes as their size and digest, and long text cut with its length."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxstring, self.maxother = 3, 80, 80
        self.maxdict = self.maxlist = self.maxtuple = 6

    def repr_bytes(self, value: bytes, level: int) -> str:
        digest = hashlib.sha256(value).hexdigest()[:6]
        return f"<{len(value):,} bytes sha256:{digest}>"

    repr_bytearray = repr_bytes

    def repr_dict(self, value: dict[Any, Any], level: int) -> str:
        # reprlib sorts the keys; a provider's block reads better in its own order.
        if not value:
            return "{}"
        if level <= 0:
            return "{...}"
        shown = list(value.items())[: self.maxdict]
        items = [f"{self.repr1(k, level - 1)}: {self.repr1(v, level - 1)}" for k, v in shown]
        return "{" + ", ".join(items + ["..."] * (len(value) > self.maxdict)) + "}"

    def repr_str(self, value: str, level: int) -> str:
        return excerpt(value, self.maxstring)


_BOUNDED = _BoundedRepr()


def bounded(value: Any) -> Any:
    """Return a value whose `repr` is short: bytes as their size and digest, never their
    content; text cut at 80 characters (saying how many more there are); containers cut at
    6 items and 3 levels. Reprs end up in logs and tracebacks, where a part's bytes or a
    provider's block would flood them."""
    if isinstance(value, str | bytes | bytearray | dict | list | tuple):
        return _Shown(_BOUNDED.repr(value))
    return value


def verbatim(text: str) -> Any:
    """Return text that a repr prints as it is, without quotes."""
    return _Shown(text)


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
    # The class's own fields first; those every part shares (cache, native) last.
    names = sorted(cls.model_fields, key=lambda name: name in ("cache", "native"))
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
# A lone surrogate is what Python makes of bytes that are not UTF-8 (os.fsdecode, PEP 383) or
# of a half of a UTF-16 pair; no UTF-8 encoder takes one, so JSON payloads would fail later.
_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> bool:
    """Whether `text` holds a lone surrogate: text that no UTF-8 encoder takes."""
    return _SURROGATE.search(text) is not None


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
        if name != "filename" and value is not None and _SURROGATE.search(value):
            raise InvalidMedia(
                f"{name} {excerpt(value)} holds a lone surrogate, which cannot be encoded as "
                "UTF-8; decode the text it came from correctly"
            )
    metadata = values.get("metadata")
    if metadata is not None and not isinstance(metadata, Mapping):
        raise InvalidMedia(f"metadata must be a dict, got {type(metadata).__name__}")


def utf8(text: str) -> bytes:
    """Encode text as UTF-8, each lone surrogate (from a `\ud800` JSON escape) as U+FFFD."""
    return _SURROGATE.sub("\ufffd", text).encode("utf-8")


def clean_filename(name: str) -> str:
    """Return a file name with each lone surrogate replaced by U+FFFD.

    A file name is a hint (it is sent to some providers, never used to open anything), and a
    real file on disk may have a name that is not UTF-8; so it is cleaned rather than refused,
    the way `bytes.decode(errors="replace")` would have read it.
    """
    return _SURROGATE.sub("\ufffd", name)


def copy_metadata(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """Copy metadata deeply, as JSON data, so the part shares nothing with the caller."""
    copied = json_copy(metadata, what="metadata")
    assert isinstance(copied, dict)
    return copied


def json_text(value: Any, *, what: str) -> str:
    """Encode JSON data compactly, with lone surrogates (in keys and values) made U+FFFD.

    Raises:
        InvalidMedia: `value` is not JSON data (NaN, an object, keys that are not strings
            or scalars), or is nested too deeply to encode.
    """
    try:
        text = json.dumps(value, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise InvalidMedia(f"{what} must be JSON data: {exc}") from exc
    except RecursionError as exc:  # json recurses once per level of nesting
        raise InvalidMedia(f"{what} is nested too deeply to keep as JSON data") from exc
    # With ensure_ascii=False a character outside the BMP is one code point, so every
    # surrogate left in the text is a lone one.
    return _SURROGATE.sub("\ufffd", text)


def json_copy(value: Any, *, what: str) -> Any:
    """Return `value` as the JSON data `to_dict()` keeps: a deep copy, tuples made lists.

    Lone surrogates, in keys and values alike, become U+FFFD, as in file names: they cannot be
    encoded as UTF-8, and a copy that kept them would not survive `to_dict()` and back.

    Raises:
        InvalidMedia: `value` is not JSON data, or is nested too deeply to encode.
    """
    text = json_text(value, what=f"{what} (it is kept in to_dict())")
    try:
        return json.loads(text)
    except RecursionError as exc:  # the decoder recurses too
        raise InvalidMedia(f"{what} is nested too deeply to keep as JSON data") from exc


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
        if isinstance(value, str) and name not in _STRICT_TEXT and _SURROGATE.search(value):
            values[name] = _SURROGATE.sub("\ufffd", value)
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


# -- a provider's own data: JSON, plus bytes where its SDK uses bytes -----------------------

# In JSON (to_dict), bytes are written as {"$bytes": "<base64>"}, and such a one-key dict is
# read back as bytes, but only while our own dicts are read (`reading_dicts`): a provider's
# block that happens to hold such a dict is kept as it is. Bedrock's SDK puts raw bytes inside
# blocks we keep verbatim.
_BYTES_KEY = "$bytes"
_READING_DICTS: ContextVar[bool] = ContextVar("mediaparts_reading_dicts", default=False)


@contextmanager
def reading_dicts() -> Iterator[None]:
    """Read `{"$bytes": base64}` back as bytes in the parts built inside (`to_dict()` output)."""
    token = _READING_DICTS.set(True)
    try:
        yield
    finally:
        _READING_DICTS.reset(token)


# Deep enough for any provider's block, shallow enough that copying cannot exhaust the stack.
_MAX_DEPTH = 64


def data_copy(value: Any, *, what: str) -> Any:
    """Return a deep copy of JSON data that may hold bytes, checked and bounded in depth.

    Tuples become lists, bytearrays bytes, lone surrogates U+FFFD; inside `reading_dicts()`,
    a `{"$bytes": base64}` dict becomes bytes.

    Raises:
        InvalidMedia: `value` holds something else (an object, NaN, a non-string key), or is
            nested more than 64 levels deep.
    """
    return _copy(value, what, 0)


def _copy(value: Any, what: str, depth: int) -> Any:
    if depth > _MAX_DEPTH:
        raise InvalidMedia(f"{what} is nested more than {_MAX_DEPTH} levels deep")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        # Beyond 64 bits no API means it, and past 4,300 digits Python cannot even print it.
        if not -(2**63) <= value < 2**64:
            raise InvalidMedia(
                f"{what} holds a number too large for any API ({value.bit_length()} bits)"
            )
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidMedia(f"{what} holds {value}, which is not JSON data")
        return value
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if isinstance(value, Mapping):
        marker = len(value) == 1 and isinstance(value.get(_BYTES_KEY), str)
        if marker and _READING_DICTS.get():
            return b64decode(value[_BYTES_KEY])
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidMedia(f"{what} has a key that is not a string: {excerpt(key)}")
            out[_SURROGATE.sub("\ufffd", key)] = _copy(item, what, depth + 1)
        return out
    if isinstance(value, list | tuple):
        return [_copy(item, what, depth + 1) for item in value]
    raise InvalidMedia(f"{what} must be JSON data (or bytes), got {type(value).__name__}")


def data_json(value: Any) -> Any:
    """Return data copied by `data_copy` as JSON data: bytes become `{"$bytes": base64}`."""
    if isinstance(value, bytes):
        return {_BYTES_KEY: b64encode(value)}
    if isinstance(value, dict):
        return {key: data_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [data_json(item) for item in value]
    return value


def _data_dict(value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidMedia(f"a provider's data must be a dict, got {type(value).__name__}")
    copied: dict[str, Any] = data_copy(value, what="a provider's data")
    return copied


def _native(value: Any) -> dict[str, Any]:
    hints = _data_dict(value)
    for provider, entry in hints.items():
        if not isinstance(entry, dict):
            raise InvalidMedia(
                f"native[{excerpt(provider)}] must be a dict of that provider's hints, "
                f"got {type(entry).__name__}"
            )
    return hints


def _opaque(value: Any) -> str | bytes:
    copied = data_copy(value, what="opaque data")
    if not isinstance(copied, str | bytes):
        raise InvalidMedia(f"opaque data must be text or bytes, got {type(value).__name__}")
    return copied


JsonData = Annotated[
    dict[str, Any],
    BeforeValidator(_data_dict),
    PlainSerializer(data_json, when_used="json"),
    WithJsonSchema({"type": "object"}),
]
"""A provider's own JSON object (a block we keep verbatim, a citation's fields)."""

NativeHints = Annotated[
    dict[str, Any],
    BeforeValidator(_native),
    PlainSerializer(data_json, when_used="json"),
    WithJsonSchema({"type": "object", "additionalProperties": {"type": "object"}}),
]
"""Provider name → that provider's exact-shape hints (read and written by it alone)."""

Opaque = Annotated[
    str | bytes,
    BeforeValidator(_opaque),
    PlainSerializer(data_json, when_used="json"),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "properties": {"$bytes": {"type": "string", "contentEncoding": "base64"}},
                    "required": ["$bytes"],
                    "additionalProperties": False,
                },
            ]
        }
    ),
]
"""Opaque provider data (a signature's companion, encrypted reasoning): text or bytes."""
