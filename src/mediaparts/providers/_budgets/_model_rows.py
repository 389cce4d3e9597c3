"""Model tables: rows of `fnmatch` patterns over model names, each with its rule, and the
lookup every table shares (first match wins; `model=None` and unknown names take the default
row, an unknown name never silently: `mediaparts._models`)."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from mediaparts._errors import InvalidConfig, NoDocumentedRule, excerpt
from mediaparts._models import unknown_model
from mediaparts._surrogates import lone_surrogate

__all__ = ["ModelRule", "check_model", "default_row", "lookup", "unknown_row"]

T = TypeVar("T")


@dataclass(frozen=True)
class ModelRule(Generic[T]):
    """One row of a model table: an `fnmatch` pattern over model names and its rule.

    `default=True` marks the row `model=None` and unknown names get (else the first row): the
    rules every current model of the provider honours, so a request made without a model is
    never sized for the newest model alone.
    """

    pattern: str
    rule: T
    default: bool = False

    def matches(self, model: str) -> bool:
        """Tell whether this row is a model's: `fnmatch`, case-insensitive, on the name after
        any `provider/` or path prefix (`openai/gpt-4o`, `models/gemini-2.5-pro`); a pattern
        holding a `/` (`meta-llama/*`, a router's vendor prefix) matches the whole name."""
        pattern = self.pattern.lower()
        name = model.strip().lower()
        return fnmatch.fnmatchcase(name if "/" in pattern else name.rsplit("/", 1)[-1], pattern)


def check_model(model: object) -> None:
    """Refuse a `model=` that is neither None nor a string: an option's value, so InvalidConfig.

    Every entry point taking `model=` calls this first, so they refuse it alike.
    """
    if model is not None and not isinstance(model, str):
        raise InvalidConfig(f"model must be a model name string, got {type(model).__name__}")
    if model is not None and lone_surrogate(model):  # no payload could carry it
        raise InvalidConfig(
            f"model {excerpt(model)} holds a lone surrogate, which cannot be encoded as UTF-8; "
            "decode the text it came from correctly"
        )


def lookup(
    table: Sequence[ModelRule[T]], model: str | None, *, strict: bool = False, owner: str = ""
) -> T:
    """Return the rule of the first row whose pattern matches the model name.

    Matching is `fnmatch`-style and case-insensitive, on the name after any `provider/` or
    path prefix (`openai/gpt-4o`, `models/gemini-2.5-pro`). `model=None` gets the default
    row (`default_row`: the one marked `default`, else the first; the rules every current
    model honours, see each table's comment). A name no row matches gets the default row too,
    with an `UnknownModelWarning` naming it (or `UnknownModel`, when so configured), unless
    `strict`, for callers that must not guess (token estimates).

    Args:
        table: The rows, in precedence order.
        model: A model name, or None for the table's default.
        strict: Raise instead of falling back for an unknown model name.
        owner: The provider whose table it is, for the warning.

    Returns:
        The matching row's rule.

    Raises:
        InvalidConfig: The table is empty.
        InvalidConfig: `model` is not a string.
        NoDocumentedRule: `strict` and no row matches the name.
        UnknownModel: No row matches, and unknown models are errors.
    """
    if not table:
        raise InvalidConfig("a model table needs at least one ModelRule row")
    check_model(model)
    if model is not None:
        for row in table:
            if row.matches(model):
                return row.rule
        if strict:
            known = ", ".join(row.pattern for row in table)
            raise NoDocumentedRule(
                f"no documented rule for model {excerpt(model)} (known model patterns: {known}); "
                "pass model=None for the provider's default rule",
                model=model,
            )
        unknown_row(owner, model, table)
    return default_row(table).rule


def default_row(table: Sequence[ModelRule[T]]) -> ModelRule[T]:
    """Return the row for `model=None`: the one marked `default`, else the first."""
    return next((row for row in table if row.default), table[0])


def unknown_row(owner: str, model: str, table: Sequence[ModelRule[T]]) -> None:
    """Say (warn, or raise as configured) that no row of `owner`'s table matches `model`."""
    known = tuple(row.pattern for row in table)
    unknown_model(owner, model, known, default_row(table).pattern)
