"""A small JSON Schema validator for the subset docs/message.schema.json uses.

The `jsonschema` package is not a dependency of the project, so the schema tests check dicts
with this instead. It knows the keywords in `CHECKED` and the annotations in `IGNORED`, and
refuses a schema with any other keyword, so a schema that grows past the subset fails loudly
rather than passing unchecked.
"""

from __future__ import annotations

import base64
import binascii
from datetime import datetime
from typing import Any

__all__ = ["CHECKED", "IGNORED", "SchemaError", "errors", "keywords"]

CHECKED = frozenset(
    {
        "$ref",
        "additionalProperties",
        "anyOf",
        "const",
        "contentEncoding",
        "enum",
        "format",
        "items",
        "minimum",
        "maximum",
        "oneOf",
        "properties",
        "required",
        "type",
    }
)
IGNORED = frozenset({"$schema", "$defs", "title", "description", "discriminator"})

_TYPES: dict[str, Any] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


class SchemaError(Exception):
    """The schema uses a keyword this validator does not check."""


def _is(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, _TYPES[name])


def _same(a: Any, b: Any) -> bool:
    """JSON equality: `true` is not `1`."""
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


def errors(value: Any, schema: dict[str, Any], root: dict[str, Any] | None = None) -> list[str]:
    """Return what is wrong with `value` under `schema`, one line each (empty when valid)."""
    return _check(value, schema, root if root is not None else schema, "$")


def _check(value: Any, schema: Any, root: dict[str, Any], at: str) -> list[str]:
    if schema is True or schema == {}:
        return []
    if schema is False:
        return [f"{at}: no value is allowed here"]
    unknown = set(schema) - CHECKED - IGNORED
    if unknown:
        raise SchemaError(f"unsupported keywords at {at}: {sorted(unknown)}")
    found: list[str] = []
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise SchemaError(f"only local $defs references are supported, got {ref}")
        found += _check(value, root["$defs"][ref.removeprefix("#/$defs/")], root, at)
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is(value, n) for n in names):
            return [*found, f"{at}: expected {'/'.join(names)}, got {type(value).__name__}"]
    if "const" in schema and not _same(value, schema["const"]):
        found.append(f"{at}: expected {schema['const']!r}, got {value!r:.60}")
    if "enum" in schema and not any(_same(value, e) for e in schema["enum"]):
        found.append(f"{at}: {value!r:.60} is not one of {schema['enum']}")
    if "minimum" in schema and _is(value, "number") and value < schema["minimum"]:
        found.append(f"{at}: {value} is below {schema['minimum']}")
    if "maximum" in schema and _is(value, "number") and value > schema["maximum"]:
        found.append(f"{at}: {value} is above {schema['maximum']}")
    if schema.get("contentEncoding") == "base64" and isinstance(value, str):
        try:
            base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            found.append(f"{at}: not base64 text")
    if schema.get("format") == "date-time" and isinstance(value, str) and not _date_time(value):
        found.append(f"{at}: {value!r:.60} is not an RFC 3339 date-time with an offset")
    if isinstance(value, dict):
        found += _object(value, schema, root, at)
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            found += _check(item, schema["items"], root, f"{at}[{index}]")
    if "anyOf" in schema:
        results = [_check(value, choice, root, at) for choice in schema["anyOf"]]
        if all(results):
            found.append(f"{at}: matches none of anyOf ({_closest(results)})")
    if "oneOf" in schema:
        results = [_check(value, choice, root, at) for choice in schema["oneOf"]]
        matched = sum(not r for r in results)
        if matched != 1:
            best = _closest(results) if matched == 0 else f"{matched} match"
            found.append(f"{at}: must match exactly one of oneOf ({best})")
    return found


def _date_time(text: str) -> bool:
    """Whether text is a date and time with a UTC offset (RFC 3339 requires one)."""
    try:
        parsed = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    except ValueError:
        return False
    return "T" in text.upper() and parsed.utcoffset() is not None


def _closest(results: list[list[str]]) -> str:
    """The problems of the choice that came nearest to matching."""
    fewest = min(results, key=len)
    return "; ".join(fewest)


def _object(
    value: dict[str, Any], schema: dict[str, Any], root: dict[str, Any], at: str
) -> list[str]:
    found = [f"{at}: {key!r} is required" for key in schema.get("required", ()) if key not in value]
    properties = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        if key in properties:
            found += _check(item, properties[key], root, f"{at}.{key}")
        elif extra is False:
            found.append(f"{at}: {key!r} is not allowed")
        elif isinstance(extra, dict):
            found += _check(item, extra, root, f"{at}.{key}")
    return found


def keywords(schema: Any) -> set[str]:
    """Return every keyword the schema uses (property names and `$defs` names excluded)."""
    if isinstance(schema, list):
        return set().union(*(keywords(s) for s in schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    found = set(schema)
    for key, value in schema.items():
        if key in ("properties", "$defs"):
            found |= set().union(*(keywords(s) for s in value.values())) if value else set()
        elif key not in ("const", "enum", "discriminator"):
            found |= keywords(value)
    return found
