"""The two spellings of Gemini's field names: REST camelCase and the Python SDK's snake_case.

google-genai's pydantic types (`types.Content`, `Part`, `Blob`, `FileData`, `FunctionCall`,
`FunctionResponse`, `GenerateContentResponse`) take a field under its snake_case name or its
camelCase alias, and the REST API's JSON parser takes both as well (googleapis/python-genai 3.4
`types.py`; ai.google.dev/api/generate-content, both read 2026-11). Readers accept either
spelling at every level; renderers write the one the payload came with.
"""

from __future__ import annotations

import functools
from typing import Any

from mediaparts._errors import InvalidMedia, excerpt

__all__ = ["SYSTEM_FIELDS", "absent", "camel", "pick", "spell", "spelled_snake"]

# Where a body holds its system instruction: the REST body's field in either spelling, or the
# SDK call's `config` (`generate_content(model=..., contents=..., config={...})`).
SYSTEM_FIELDS = (
    "systemInstruction",
    "system_instruction",
    "config.systemInstruction",
    "config.system_instruction",
)


def spell(name: str, snake: bool) -> str:
    """Return a camelCase field name as written in the wanted spelling."""
    if not snake:
        return name
    return _snake(name)


@functools.lru_cache(maxsize=256)  # our own field names, a few dozen: read for every part
def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


def camel(name: str) -> str:
    """Return a snake_case field name in camelCase (a camelCase one as it is)."""
    head, *rest = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def spelled_snake(key: str) -> bool:
    """Tell whether a key is the snake_case spelling of a multi-word field."""
    return "_" in key


def pick(node: dict[str, Any], name: str, at: str) -> tuple[str | None, Any]:
    """Return the key under which `node` holds the camelCase field `name`, and its value.

    Returns:
        `(None, None)` when the field is absent in both spellings.

    Raises:
        InvalidMedia: The field is there in both spellings (which one would count?).
    """
    snake = spell(name, True)
    if name in node and snake != name and snake in node:
        raise InvalidMedia(f"{at}: both {excerpt(name)} and {excerpt(snake)} are given; keep one")
    if name in node:
        return name, node[name]
    if snake in node:
        return snake, node[snake]
    return None, None


def absent(value: Any, default: Any) -> Any:
    """Return `default` for a field that is absent or null, else the value as it is."""
    return default if value is None else value
