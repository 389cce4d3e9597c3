"""The data parts and messages keep: JSON copied and bounded, with bytes where SDKs use bytes.

A provider's own blocks, hints and opaque data are deep-copied as JSON data (tuples made
lists, lone surrogates U+FFFD, nesting bounded), with bytes kept as bytes and written as
`{"$bytes": base64}` in `to_dict()`; the pydantic field types (`JsonData`, `NativeHints`,
`Opaque`, `InlineBytes`) check and serialise them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Annotated, Any

from pydantic import BeforeValidator, PlainSerializer, WithJsonSchema

from mediaparts._errors import InvalidMedia, excerpt
from mediaparts._inline import b64decode, b64encode
from mediaparts._surrogates import SURROGATE

__all__ = [
    "InlineBytes",
    "JsonData",
    "NativeHints",
    "Opaque",
    "copy_metadata",
    "data_copy",
    "data_json",
    "inline_bytes",
    "json_copy",
    "json_text",
    "reading_dicts",
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


def copy_metadata(metadata: Any) -> dict[str, Any]:
    """Copy a part's or message's metadata deeply, as JSON data, sharing nothing with the caller.

    Raises:
        InvalidMedia: `metadata` is not a dict, or not JSON data: a value that is not (an
            object, bytes, NaN), a key that is not a string (JSON would make `1` the key
            `"1"`, and the caller's `metadata[1]` would no longer find it), or nesting too
            deep to encode.
    """
    if not isinstance(metadata, Mapping):
        raise InvalidMedia(f"metadata must be a dict, got {type(metadata).__name__}")
    given = dict(metadata)  # a Mapping that is not a dict (json encodes dicts only)
    copied = json_copy(given, what="metadata")
    _string_keys(given)  # after json_copy: no cycle (json refuses one), depth bounded
    assert isinstance(copied, dict)
    return copied


def _string_keys(value: Any) -> None:
    # A loop, not recursion: the value may be nested as deep as json could encode.
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, Mapping):
            for key, inner in item.items():
                if not isinstance(key, str):
                    raise InvalidMedia(
                        f"metadata keys must be strings (JSON's are), got {excerpt(key)}"
                    )
                pending.append(inner)
        elif isinstance(item, list | tuple):
            pending.extend(item)


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
    return SURROGATE.sub("\ufffd", text)


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
    kind = type(value)
    if kind is str:  # the commonest, first; ASCII holds no surrogate, and `isascii` is cheap
        return value if value.isascii() else SURROGATE.sub("\ufffd", value)
    if kind is dict:
        return _copy_dict(value, what, depth)
    if isinstance(value, str):
        return SURROGATE.sub("\ufffd", value)
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
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if isinstance(value, Mapping):
        return _copy_dict(value, what, depth)
    if isinstance(value, list | tuple):
        return [_copy(item, what, depth + 1) for item in value]
    raise InvalidMedia(f"{what} must be JSON data (or bytes), got {type(value).__name__}")


def _copy_dict(value: Mapping[Any, Any], what: str, depth: int) -> Any:
    marker = len(value) == 1 and isinstance(value.get(_BYTES_KEY), str)
    if marker and _READING_DICTS.get():
        return b64decode(value[_BYTES_KEY])
    out: dict[str, Any] = {}
    for key, item in value.items():
        if not isinstance(key, str):
            raise InvalidMedia(f"{what} has a key that is not a string: {excerpt(key)}")
        if type(key) is not str or not key.isascii():
            key = SURROGATE.sub("\ufffd", key)
        out[key] = _copy(item, what, depth + 1)
    return out


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
    if type(value) is not dict and not isinstance(value, Mapping):
        raise InvalidMedia(f"a provider's data must be a dict, got {type(value).__name__}")
    copied: dict[str, Any] = data_copy(value, what="a provider's data")
    return copied


def _native(value: Any) -> dict[str, Any]:
    if type(value) is dict and not value:  # most parts and messages have no hints
        return {}
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
