"""Checking and cleaning the values parts and messages are built from.

Every part and message is built through `construct`, so what holds for all their fields lives
here once: field types checked before detection, text that cannot be encoded as UTF-8 cleaned
(or refused where cleaning would change meaning), JSON data copied with bounded nesting, and
pydantic's errors turned into `InvalidMedia` with one line of explanation.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, PlainSerializer, ValidationError, WithJsonSchema

from mediaparts._errors import InvalidMedia
from mediaparts._inline import b64decode, b64encode

__all__ = [
    "InlineBytes",
    "article",
    "check_fields",
    "check_limit",
    "clean_filename",
    "construct",
    "copy_metadata",
    "explain",
    "extra_fields",
    "inline_bytes",
    "json_copy",
    "json_text",
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


def article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def extra_fields(where: str, fields: Mapping[str, Any], allowed: tuple[str, ...] = ()) -> None:
    """Refuse keyword fields that a constructor sets itself (data, url, kind)."""
    clash = sorted(set(fields) - {"metadata", "detail", *allowed})
    if clash:
        raise InvalidMedia(
            f"{where}() sets {', '.join(clash)} itself; it also takes metadata= (and detail= "
            "for images)"
        )


def check_limit(max_bytes: Any) -> None:
    if max_bytes is not None and (not isinstance(max_bytes, int) or isinstance(max_bytes, bool)):
        raise InvalidMedia(f"max_bytes must be a whole number, got {type(max_bytes).__name__}")
    if max_bytes is not None and max_bytes < 0:
        raise InvalidMedia(f"max_bytes must be 0 or more, got {max_bytes}")


_TEXT_FIELDS = ("media_type", "filename", "url", "detail")
# A lone surrogate is what Python makes of bytes that are not UTF-8 (os.fsdecode, PEP 383) or
# of a half of a UTF-16 pair; no UTF-8 encoder takes one, so JSON payloads would fail later.
_SURROGATE = re.compile("[\ud800-\udfff]")


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
                f"{name} {value!r:.80} holds a lone surrogate, which cannot be encoded as "
                "UTF-8; decode the text it came from correctly"
            )
    metadata = values.get("metadata")
    if metadata is not None and not isinstance(metadata, Mapping):
        raise InvalidMedia(f"metadata must be a dict, got {type(metadata).__name__}")


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


def explain(name: str, exc: ValidationError) -> str:
    """Say what was wrong, in one line, from pydantic's list of errors."""
    problems = []
    for err in exc.errors(include_url=False):
        cause = err.get("ctx", {}).get("error")
        if isinstance(cause, InvalidMedia):  # our own message, raised inside a validator
            problems.append(str(cause))
            continue
        where = ".".join(str(p) for p in err["loc"]) or "value"
        problems.append(f"{where}: {err['msg']}")
    return f"invalid {name}: " + "; ".join(problems)
