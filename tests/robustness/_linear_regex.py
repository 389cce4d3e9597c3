"""A conservative proof that a regular expression runs in linear time in CPython's `re`.

CPython's engine backtracks, so a pattern is linear only by construction. This checker accepts
a pattern when every unbounded repeat (`*`, `+`, `{n,}`, greedy or lazy):

1. repeats one character class S (never a group: `(?:a|bb)*` and `(a+)+` are refused);
2. is followed only by a character outside S (or by the pattern's end), so each step of
   backtracking into the run fails at once and the run costs O(its length) per entry;
3. in a pattern that is searched (`search`, `finditer`, `findall`, `sub`, `split` try every
   offset) and can still fail after the run, is entered once per run: a character outside S,
   a lookbehind excluding S, or an anchor comes before it, through items of bounded length only.
   Without that, `\\d+\\s` tried at each of n digits scans all n: quadratic.

Bounded repeats cost a constant per try; in a searched pattern their bound must be small
(`MAX_BOUND`). Anything the checker does not model (backreferences, conditionals, case folding)
is refused, so a pattern it accepts is linear; one it refuses may still be, and is rewritten.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

# The parser behind `re` is private; its tree has kept the same shape from 3.10 to 3.13. 3.11
# renamed it and made `sre_parse` warn. mypy checks as 3.10 (pyproject), where typeshed has
# `sre_parse`; the 3.11 names have no stubs.
if sys.version_info >= (3, 11):
    from re import _constants as sre  # type: ignore[attr-defined,unused-ignore]  # no stubs
    from re import _parser as sre_parse  # type: ignore[attr-defined,unused-ignore]  # no stubs
else:  # pragma: no cover - Python 3.10
    import sre_constants as sre
    import sre_parse

__all__ = ["MAX_BOUND", "Mode", "problems"]

Mode = Literal["match", "search"]
MAX_BOUND = 64
"""The largest bound a repeat may have in a searched pattern."""

_CHARS = ("LITERAL", "NOT_LITERAL", "IN", "ANY")
_REPEATS = ("MAX_REPEAT", "MIN_REPEAT")
_CATEGORIES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_WORD": r"\w",
}


@dataclass(frozen=True)
class _Set:
    """A set of characters: `chars`, or every character but `chars` when `negated`."""

    negated: bool
    chars: frozenset[int]

    def __or__(self, other: _Set) -> _Set:
        a, b = self.chars, other.chars
        if not self.negated and not other.negated:
            return _Set(False, a | b)
        if self.negated and other.negated:
            return _Set(True, a & b)
        return _Set(True, (a if self.negated else b) - (b if self.negated else a))

    def __invert__(self) -> _Set:
        return _Set(not self.negated, self.chars)

    def disjoint(self, other: _Set) -> bool:
        a, b = self.chars, other.chars
        if not self.negated and not other.negated:
            return not a & b
        if self.negated and other.negated:
            return False  # both hold almost every character
        return a <= b if other.negated else b <= a


_EMPTY = _Set(False, frozenset())
_NEWLINE = _Set(False, frozenset({10}))


@cache
def _category(name: str, is_bytes: bool, flags: int) -> _Set:
    base, negated = name.replace("_NOT_", "_"), "_NOT_" in name
    if base not in _CATEGORIES:
        raise _Unsupported(f"category {name}")
    pattern: Any = _CATEGORIES[base].encode() if is_bytes else _CATEGORIES[base]
    universe: Any = bytes(range(256)) if is_bytes else "".join(map(chr, range(0x110000)))
    found = re.compile(pattern, flags).findall(universe)
    return _Set(negated, frozenset(c[0] if is_bytes else ord(c) for c in found))


class _Unsupported(Exception):
    """A construct the checker does not model."""


@dataclass(frozen=True)
class _Frame:
    """Where an item sits: the sequence holding it, its index, and what holds the sequence."""

    items: list[Any]
    index: int
    container: tuple[str, Any]  # ("root", None), ("group", None), ("repeat", max), ("assert", dir)


class _Checker:
    def __init__(self, pattern: re.Pattern[Any], mode: Mode) -> None:
        self.is_bytes = isinstance(pattern.pattern, bytes)
        self.flags = pattern.flags
        self.mode = mode
        if self.flags & re.IGNORECASE:
            raise _Unsupported("IGNORECASE")
        self.problems: list[str] = []
        self.tree = list(sre_parse.parse(pattern.pattern, pattern.flags).data)

    # --- what one item can consume --------------------------------------------------------

    def char_set(self, op: Any, av: Any) -> _Set:
        """The characters a single-character item matches."""
        name = op.name
        if name == "LITERAL":
            return _Set(False, frozenset({av}))
        if name == "NOT_LITERAL":
            return _Set(True, frozenset({av}))
        if name == "ANY":
            return _Set(True, frozenset() if self.flags & re.DOTALL else frozenset({10}))
        result, negate = _EMPTY, False
        for sub_op, sub_av in av:
            sub = sub_op.name
            if sub == "NEGATE":
                negate = True
            elif sub == "LITERAL":
                result |= _Set(False, frozenset({sub_av}))
            elif sub == "RANGE":
                result |= _Set(False, frozenset(range(sub_av[0], sub_av[1] + 1)))
            elif sub == "CATEGORY":
                result |= _category(sub_av.name, self.is_bytes, self.flags & re.ASCII)
            else:
                raise _Unsupported(f"{sub} in a class")
        return ~result if negate else result

    def first(self, items: list[Any]) -> tuple[_Set, bool]:
        """The characters a sequence can start with, and whether it can consume nothing."""
        found = _EMPTY
        for op, av in items:
            chars, nullable = self.item_first(op, av)
            found |= chars
            if not nullable:
                return found, False
        return found, True

    def item_first(self, op: Any, av: Any) -> tuple[_Set, bool]:
        name = op.name
        if name in _CHARS:
            return self.char_set(op, av), False
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            return _EMPTY, True
        if name == "SUBPATTERN":
            return self.first(list(av[-1]))
        if name == "BRANCH":
            found, nullable = _EMPTY, False
            for branch in av[1]:
                chars, empty = self.first(list(branch))
                found, nullable = found | chars, nullable or empty
            return found, nullable
        if name in _REPEATS:
            chars, nullable = self.first(list(av[2]))
            return chars, nullable or av[0] == 0
        raise _Unsupported(name)

    def all_chars(self, op: Any, av: Any) -> tuple[_Set, bool, bool]:
        """Every character an item can consume; whether it can consume none; whether bounded."""
        name = op.name
        if name in _CHARS:
            return self.char_set(op, av), False, True
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            return _EMPTY, True, True
        children: list[list[Any]] = []
        if name == "SUBPATTERN":
            children = [list(av[-1])]
        elif name == "BRANCH":
            children = [list(branch) for branch in av[1]]
        elif name in _REPEATS:
            children = [list(av[2])]
        else:
            raise _Unsupported(name)
        found, bounded, empties = _EMPTY, True, []
        for child in children:
            empty = True
            for sub_op, sub_av in child:
                chars, nullable, sub_bounded = self.all_chars(sub_op, sub_av)
                found, bounded, empty = found | chars, bounded and sub_bounded, empty and nullable
            empties.append(empty)
        nullable = any(empties)  # one child, except for a BRANCH: any alternative
        if name in _REPEATS:
            nullable = nullable or av[0] == 0
            bounded = bounded and av[1] != sre.MAXREPEAT
        return found, nullable, bounded

    # --- walking from an unbounded repeat ---------------------------------------------------

    def follow_is_disjoint(self, path: list[_Frame], run: _Set) -> bool:
        """Tell whether whatever can follow the run starts outside it (or ends the pattern)."""
        frame = path[-1]
        for op, av in frame.items[frame.index + 1 :]:
            chars, nullable = self.item_first(op, av)
            if not chars.disjoint(run):
                return False
            if not nullable:
                return True
        kind, bound = frame.container
        if kind in ("root", "assert"):
            return True  # the pattern or the lookaround ends here
        if kind == "repeat" and bound != 1:
            return False  # the body may loop back into itself: not modelled
        return self.follow_is_disjoint(path[:-1], run)

    def can_fail_after(self, path: list[_Frame]) -> bool:
        """Tell whether the match can still fail once the run is over."""
        frame = path[-1]
        for op, av in frame.items[frame.index + 1 :]:
            if op.name in ("AT", "ASSERT", "ASSERT_NOT") or not self.item_first(op, av)[1]:
                return True
        kind, _ = frame.container
        if kind == "root":
            return False
        if kind == "assert":
            return True
        return self.can_fail_after(path[:-1])

    def entry_is_guarded(self, path: list[_Frame], run: _Set) -> bool:
        """Tell whether at most a bounded number of tries can enter the same run."""
        frame = path[-1]
        for op, av in reversed(frame.items[: frame.index]):
            name = op.name
            if name == "AT":
                at = av.name
                if at == "AT_BEGINNING_STRING":
                    return True
                if at == "AT_BEGINNING":
                    return not self.flags & re.MULTILINE or _NEWLINE.disjoint(run)
                continue
            if name == "ASSERT_NOT" and av[0] == -1 and len(av[1]) == 1:
                (sub_op, sub_av) = next(iter(av[1]))
                if sub_op.name in _CHARS and run.disjoint(~self.char_set(sub_op, sub_av)):
                    return True
                continue
            if name in ("ASSERT", "ASSERT_NOT"):
                continue
            chars, nullable, bounded = self.all_chars(op, av)
            if chars.disjoint(run):
                if not nullable:
                    return True
            elif not bounded:
                return False
        kind, bound = frame.container
        if kind == "root":
            return self.mode == "match"
        if kind == "assert" and bound == -1:
            return False  # inside a lookbehind: not modelled
        if kind == "repeat" and bound != 1:
            return False
        return self.entry_is_guarded(path[:-1], run)

    # --- the walk over the whole pattern ----------------------------------------------------

    def check(self) -> list[str]:
        self.visit(self.tree, [], ("root", None))
        return self.problems

    def visit(self, items: list[Any], path: list[_Frame], container: tuple[str, Any]) -> None:
        for index, (op, av) in enumerate(items):
            here = [*path, _Frame(items, index, container)]
            name = op.name
            if name == "SUBPATTERN":
                self.visit(list(av[-1]), here, ("group", None))
            elif name == "BRANCH":
                for branch in av[1]:
                    self.visit(list(branch), here, ("group", None))
            elif name in ("ASSERT", "ASSERT_NOT"):
                self.visit(list(av[1]), here, ("assert", av[0]))
            elif name in _REPEATS:
                self.repeat(op, av, here)
                self.visit(list(av[2]), here, ("repeat", av[1]))
            elif name not in (*_CHARS, "AT"):
                raise _Unsupported(name)

    def repeat(self, op: Any, av: Any, path: list[_Frame]) -> None:
        low, high, body = av
        where = f"{op.name.lower()} {{{low},{'' if high == sre.MAXREPEAT else high}}}"
        if high != sre.MAXREPEAT:
            if self.mode == "search" and high > MAX_BOUND:
                self.problems.append(f"{where}: a bound over {MAX_BOUND} in a searched pattern")
            return
        body = list(body)
        if len(body) != 1 or body[0][0].name not in _CHARS:
            self.problems.append(f"{where}: an unbounded repeat of more than one character")
            return
        run = self.char_set(*body[0])
        if not self.follow_is_disjoint(path, run):
            self.problems.append(f"{where}: what follows can match the repeated characters")
        if (
            self.mode == "search"
            and self.can_fail_after(path)
            and not self.entry_is_guarded(path, run)
        ):
            self.problems.append(f"{where}: every offset of one run can start a try")


def problems(pattern: re.Pattern[Any], mode: Mode) -> list[str]:
    """Return why a pattern is not linear by construction; empty when it is.

    Args:
        pattern: The compiled pattern.
        mode: "match" when it is only used with `match`/`fullmatch` (one try, at one offset),
            "search" when any method tries every offset.
    """
    try:
        return _Checker(pattern, mode).check()
    except _Unsupported as exc:
        return [f"uses {exc}, which this checker does not model"]
