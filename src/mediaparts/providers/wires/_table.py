"""The wire table: names to the built-in wire packages, and wires given as modules."""

from __future__ import annotations

import importlib
from typing import Any

from mediaparts._errors import InvalidConfig, excerpt
from mediaparts.providers._wire._protocol import Wire, validated_wire

__all__ = ["canonical", "get", "names", "resolve"]

# The built-in wires: name -> the package that is the wire, imported on first use.
_BUILT_IN = {
    "openai": "mediaparts.providers.wires.chat_completions",
    "openai-responses": "mediaparts.providers.wires.responses",
    "anthropic": "mediaparts.providers.wires.messages",
    "gemini": "mediaparts.providers.wires.generate_content",
    "bedrock": "mediaparts.providers.wires.converse",
}
# The names that say what the shape is, beside the first provider's name.
_ALSO = {
    "chat-completions": "openai",
    "responses": "openai-responses",
    "messages": "anthropic",
    "generate-content": "gemini",
    "converse": "bedrock",
}
_loaded: dict[str, Wire] = {}


def names() -> tuple[str, ...]:
    """Return the names of the built-in wires (what `Provider.wire` says), sorted."""
    return tuple(sorted(_BUILT_IN))


def canonical(name: str) -> str:
    """Return the wire name `name` stands for (`"converse"` -> `"bedrock"`).

    Raises:
        InvalidConfig: No wire has that name.
    """
    if isinstance(name, str) and (name in _BUILT_IN or name in _loaded):
        return name
    if isinstance(name, str) and name in _ALSO:
        return _ALSO[name]
    known = ", ".join([*names(), *sorted(_ALSO)])
    raise InvalidConfig(f"no wire is named {excerpt(name)}; the wires are {known}")


def get(name: str) -> Wire:
    """Return the wire of that name (either name in the table of `mediaparts.providers.wires`).

    Raises:
        InvalidConfig: No wire has that name.
    """
    key = canonical(name)
    wire = _loaded.get(key)
    if wire is None and key in _BUILT_IN:
        wire = _loaded[key] = validated_wire(key, importlib.import_module(_BUILT_IN[key]))
    assert wire is not None
    return wire


def resolve(wire: Any) -> tuple[str, Wire]:
    """Return (name, wire) for a wire name or a wire object (a module meeting `Wire`).

    A wire object is known by its `__name__` from then on (so a copy of a provider made by
    `with_rules` finds it again); it may not take a built-in wire's name.

    Raises:
        InvalidConfig: An unknown name, or an object that does not meet `Wire`.
    """
    if isinstance(wire, str):
        return canonical(wire), get(wire)
    name = getattr(wire, "__name__", None)
    if not isinstance(name, str) or not name:
        name = f"{type(wire).__module__}.{type(wire).__qualname__}"
    if name in _BUILT_IN or name in _ALSO:
        raise InvalidConfig(f"a wire of your own may not be named {excerpt(name)}: a built-in is")
    _loaded[name] = validated_wire(name, wire)
    return name, _loaded[name]
