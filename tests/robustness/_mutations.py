"""Mutations of hostile JSON for the reader fuzz tests: every node of a value, replaced by a
value of each JSON type or removed, one at a time."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

Path = tuple[str | int, ...]


def paths(value: Any, at: Path = ()) -> Iterator[Path]:
    """Yield the path of every node under `value` (not the root)."""
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, item in items:
        yield (*at, key)
        yield from paths(item, (*at, key))


def mutated(value: Any, path: Path, replacement: Any) -> Any:
    """Return a copy of `value` with the node at `path` replaced (or removed, for `...`)."""
    copied = copy.deepcopy(value)
    node = copied
    for key in path[:-1]:
        node = node[key]
    if replacement is ... and isinstance(node, dict):
        del node[path[-1]]
    else:
        node[path[-1]] = None if replacement is ... else replacement
    return copied
