"""Reprs that stay short: bytes as their size and digest, long text and containers cut.

Parts and messages print through these, so a repr in a log or a traceback never floods it
with a part's bytes or a provider's block.
"""

from __future__ import annotations

import hashlib
import reprlib
from typing import Any

from mediaparts._errors import excerpt

__all__ = ["bounded", "verbatim"]


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
