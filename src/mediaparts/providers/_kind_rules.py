"""The rules of one kind of media (`KindRules`, `ImageRules`, `FileRules`) and the checks
every rule value passes, on its way into the rules or through `with_rules` (`checked`).

Below `_rules` (the `Rules` of a provider), which holds these and changes them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from mediaparts._conversation._construct import article
from mediaparts._errors import InvalidConfig, excerpt
from mediaparts.formats import Kind
from mediaparts.imaging import measured
from mediaparts.providers._budgets._media_rates import MediaRates
from mediaparts.providers._budgets._model_rows import ModelRule
from mediaparts.providers._budgets._text import TextRule
from mediaparts.providers._budgets._vision import VisionGeometry
from mediaparts.providers._model_rules import ModelRules

__all__ = [
    "FIELD_TYPES",
    "KINDS",
    "TABLES",
    "FileRules",
    "ImageRules",
    "KindRules",
    "Measure",
    "base64_size",
    "check_table",
    "checked",
    "wrong_rules",
]

Measure = Literal["raw", "base64"]


def base64_size(n: int) -> int:
    """Return the length of the base64 text of `n` bytes."""
    return measured(n, "base64")


@dataclass(frozen=True, slots=True)
class KindRules:
    """What a provider accepts for one kind of media.

    Attributes:
        media_types: Canonical media types accepted inline; empty when the kind is refused.
        max_bytes: Most bytes one item may have, counted as `measure` says.
        measure: Whether `max_bytes` counts the raw bytes or their base64 text.
        url_types: Types the provider fetches from a URL itself (so a URL can pass through).
        max_count: Most items of this kind in one request (or one message: `count_scope`).
        count_scope: Whether `max_count` holds per `"request"` or per `"message"`.
        source: Where the facts come from, and when they were read.
    """

    media_types: tuple[str, ...] = ()
    max_bytes: int | None = None
    measure: Measure = "raw"
    url_types: tuple[str, ...] = ()
    max_count: int | None = None
    count_scope: Literal["request", "message"] = "request"
    source: str = ""

    def __post_init__(self) -> None:
        # A wrong type here would surface later as a TypeError deep in normalize; refuse it
        # now, naming the field. Lists of types are kept as tuples (frozen: __setattr__).
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            label = f"{type(self).__name__}.{field.name}"
            kept = checked(field.name, value, field.default, label=label)
            if kept is not value:
                object.__setattr__(self, field.name, kept)

    def accepts(self, media_type: str | None) -> bool:
        """Tell whether this media type is accepted inline."""
        return media_type is not None and media_type in self.media_types

    def measured(self, n_bytes: int) -> int:
        """Return `n_bytes` as this provider counts them against `max_bytes`."""
        return measured(n_bytes, self.measure)

    def fits(self, n_bytes: int) -> bool:
        """Tell whether an item of `n_bytes` raw bytes is within `max_bytes`."""
        return self.max_bytes is None or self.measured(n_bytes) <= self.max_bytes


@dataclass(frozen=True, slots=True)
class ImageRules(KindRules):
    """Image rules: the kind's rules plus hard dimension limits and animation support.

    Attributes:
        max_width: Widest image accepted (larger ones are downscaled to fit).
        max_height: Tallest image accepted.
        animated: Whether animated images are taken (False: only the first frame is sent).
        detail_levels: The `detail` values the API takes.
    """

    max_width: int | None = None
    max_height: int | None = None
    animated: bool = False
    detail_levels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FileRules(KindRules):
    """Rules for kind `"file"`: binary documents in `media_types`; text files in `text_types`.

    Attributes:
        text_types: Text formats the provider reads as text (sent as text, not as a file).
        max_pages: Most pages one PDF may have; a longer one is split into several
            documents, or sent as page images (`TransformPolicy.pdf`). None: no documented
            limit.
        max_request_pages: Most PDF pages one request may hold, across all its documents; a
            PDF longer than that alone cannot be sent in one request, split or not (`check`
            counts the whole request). None: no documented limit.
        max_request_bytes: Most bytes of documents one request may hold, across all of them
            (raw bytes; OpenAI's "32MB of total content in a single request"); `check`
            counts the whole request. None: no documented limit.
    """

    text_types: tuple[str, ...] = ()
    max_pages: int | None = None
    max_request_pages: int | None = None
    max_request_bytes: int | None = None


# The model tables and the rule type of their rows.
TABLES: dict[str, type] = {
    "vision": VisionGeometry,
    "costs": MediaRates,
    "text": TextRule,
    "models": ModelRules,
}

FIELD_TYPES: dict[str, type] = {
    "image": ImageRules,
    "audio": KindRules,
    "video": KindRules,
    "file": FileRules,
}


# What an empty table means, for the message refusing None: () is how to say "no rows".
_EMPTY: dict[str, str] = {
    "vision": "no per-model image rule (image token estimates then raise NoDocumentedRule)",
    "costs": "no audio, video or PDF token rates (their estimates then raise NoDocumentedRule)",
    "text": "no text table (text is then counted with the generic approximation)",
    "models": "no model taking other media than the provider's rules say",
}


def check_table(name: str, rows: object) -> tuple[Any, ...]:
    """Return a model table as a tuple, or refuse it unless its rows are `ModelRule`s of the
    table's rule type.

    None is refused rather than read as "no rows": elsewhere in the rules None means "no
    limit", and an empty table does not mean "no limit" (for `vision` it means no rule at
    all), so the caller says () and the message says what that does.
    """
    rule = TABLES[name]
    shape = f"a tuple of ModelRule(pattern, {rule.__name__}(...)) rows"
    if rows is None:
        raise InvalidConfig(f"Rules.{name} must be {shape}, got None; pass () for {_EMPTY[name]}")
    if isinstance(rows, str | bytes) or not isinstance(rows, Iterable):
        raise InvalidConfig(f"Rules.{name} must be {shape}, got {type(rows).__name__}")
    rows = tuple(rows)
    if not all(isinstance(row, ModelRule) and isinstance(row.pattern, str) for row in rows):
        raise InvalidConfig(f"Rules.{name} must be {shape}, got {excerpt(rows)}")
    for row in rows:
        if not isinstance(row.rule, rule):
            raise InvalidConfig(
                f"Rules.{name}: the row {excerpt(row.pattern)} holds "
                f"{article(type(row.rule).__name__)} {type(row.rule).__name__}; "
                f"each {name} row's rule must be {article(rule.__name__)} {rule.__name__}"
            )
    return rows


def wrong_rules(label: str, name: str, expected: type, value: object) -> str:
    """Say that a kind's rules are not of their class, and how to change them."""
    kind = expected.__name__
    return (
        f"{label} must be {article(kind)} {kind}, got {type(value).__name__}; pass "
        f"dataclasses.replace(provider.rules.{name}, ...), or change one field with "
        f"with_rules({name}_<field>=...)"
    )


KINDS: tuple[str, ...] = get_args(Kind)
_TYPE_LISTS = frozenset({"media_types", "url_types", "text_types", "detail_levels"})
_SIZES = frozenset(
    {"max_bytes", "max_count", "max_width", "max_height", "max_request_bytes", "max_pages"}
    | {"max_request_pages", "batch_max_requests", "batch_max_bytes"}
)
_CHOICES: dict[str, tuple[str, ...]] = {
    "measure": ("raw", "base64"),
    "count_scope": ("request", "message"),
}


# Fields where None is a value (the provider's own store, its own name in the price data).
_NULLABLE = frozenset({"file_store", "prices_id"})


def checked(name: str, value: Any, current: Any, *, label: str | None = None) -> Any:
    """Return an override in the form the rules hold, or refuse it with the reason.

    `label` names the value as the caller wrote it (`image_max_bytes`, `ImageRules.max_bytes`).
    """
    label = label or name
    if name in _TYPE_LISTS:
        listed = isinstance(value, Iterable) and not isinstance(value, str | bytes | Mapping)
        values = tuple(value) if listed else ()
        if not listed or not all(isinstance(v, str) for v in values):
            what = "detail level names" if name == "detail_levels" else "media type strings"
            none = "; pass () for none" if value is None else ""
            raise InvalidConfig(f"{label} must be a tuple of {what}, got {excerpt(value)}{none}")
        return values
    if name in _SIZES:
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise InvalidConfig(
                f"{label} must be a whole number of bytes/pixels/items or None (no limit), "
                f"got {type(value).__name__}"
            )
        if value is not None and value <= 0:
            raise InvalidConfig(f"{label} must be positive (None for no limit), got {value}")
        return value
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            raise InvalidConfig(
                f"{label} must be one of {', '.join(_CHOICES[name])}, got {excerpt(value)}"
            )
        return value
    if name in TABLES:
        return check_table(name, value)
    if name in _NULLABLE and value is None:
        return value
    if name in FIELD_TYPES and not isinstance(value, FIELD_TYPES[name]):
        raise InvalidConfig(wrong_rules(label, name, FIELD_TYPES[name], value))
    typed = isinstance(current, bool | str | tuple) or dataclasses.is_dataclass(current)
    if typed and not isinstance(value, type(current)):
        kind = type(current).__name__
        hint = " (pass '' for none)" if name.endswith("source") and value is None else ""
        raise InvalidConfig(
            f"{label} must be {article(kind)} {kind}, got {type(value).__name__}{hint}"
        )
    return value
