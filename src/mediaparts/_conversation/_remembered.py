"""`Remembered`: the few results worked out from one part, kept on the part.

A part is frozen and holds its bytes, so what is worked out from it (an image fitted to a
provider's rules, a smaller copy for `trim`) is the same the next time it is asked for with the
same inputs. Each entry keeps those inputs: `objects` compared by identity (a provider record,
a policy: the entry holds them, so their ids cannot be reused while it lives) and `values`
compared by equality (a tag, a model name, a detail level).

Bounded: `KEPT` entries, the oldest dropped first. Lock-free: the entries are a tuple that a
writer replaces whole, so a reader sees the old tuple or the new one; two threads racing may
work the same result out twice, and one of the two is kept.
"""

from __future__ import annotations

import operator
from collections.abc import Hashable
from typing import Any

__all__ = ["KEPT", "Remembered"]

# Entries per part: a conversation rendered for a few providers or models, counted and trimmed,
# finds its work again; memory stays a small multiple of the part's own.
KEPT = 8

_Entry = tuple[tuple[object, ...], tuple[Hashable, ...], Any]


class Remembered:
    """Results worked out from one part, with the inputs each was worked out from."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: tuple[_Entry, ...] = ()

    def __len__(self) -> int:
        return len(self._entries)

    def recall(self, objects: tuple[object, ...], values: tuple[Hashable, ...]) -> Any:
        """Return the result kept for these inputs, or None."""
        for kept_objects, kept_values, result in reversed(self._entries):
            if kept_values == values and all(map(operator.is_, kept_objects, objects)):
                return result
        return None

    def keep(self, objects: tuple[object, ...], values: tuple[Hashable, ...], result: Any) -> None:
        """Keep a result for these inputs, dropping the oldest entry past `KEPT`."""
        self._entries = (*self._entries[-(KEPT - 1) :], (objects, values, result))

    # What is remembered belongs to one part in one process: a copy of the part (whose fields
    # `model_copy` may change) and an unpickled one start with nothing remembered.

    def __deepcopy__(self, memo: dict[int, Any]) -> Remembered:
        return Remembered()

    def __reduce__(self) -> tuple[type[Remembered], tuple[()]]:
        return (Remembered, ())
