"""Provider rules as data: what each API accepts, how large, measured how.

Each provider module opens with its `RULES`, a `Rules` built from these frozen dataclasses,
one comment per table naming its source and the date it was read. Code reads rules; it does
not hard-code numbers, so `Provider.with_rules(...)` can change any of them.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, get_args

from typing_extensions import Never

from mediaparts._conversation._construct import article
from mediaparts._errors import InvalidConfig, NoDocumentedRule, excerpt, rewrap
from mediaparts.formats import Kind
from mediaparts.imaging import measured
from mediaparts.providers._budgets._media_rates import MediaRates
from mediaparts.providers._budgets._model_rows import ModelRule, check_model, default_row, lookup
from mediaparts.providers._budgets._text import GENERIC_TEXT, TextRule
from mediaparts.providers._budgets._vision import VisionGeometry

_Row = TypeVar("_Row")

__all__ = [
    "FileRules",
    "ImageRules",
    "KindRules",
    "Measure",
    "Rules",
    "replace_rules",
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
            checked = _checked(field.name, value, field.default, label=label)
            if checked is not value:
                object.__setattr__(self, field.name, checked)

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


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything mediaparts knows about one provider's media input.

    Attributes:
        provider: The provider's name (`"openai"`, `"anthropic"`, ...).
        image: Image rules.
        audio: Audio rules (no media types: audio is refused).
        video: Video rules.
        file: Rules for kind `"file"`: documents (PDF, office) and text files.
        max_request_bytes: Most bytes one request may have, when documented.
        vision: Model-keyed image geometry (resize target and token formula), first match
            wins; `model=None` takes the default row (`ModelRule.default`, else the first).
        costs: Model-keyed audio, video and PDF token rates.
        source: Where the request-level facts come from, and when they were read.
        vision_source: Where the `vision` table comes from, and when it was read.
        costs_source: Where the `costs` table comes from, and when it was read.
        text: Model-keyed text rules (tokenizer or approximation, framing, replayed
            reasoning), first match wins; `model=None` takes the default row
            (`ModelRule.default`, else the first). Empty: the generic
            approximation (`GENERIC_TEXT`).
        text_source: Where the `text` table comes from, and when it was read.
        file_store: Whose uploaded files the API reads by id (`file_id`, `file_uri`, an S3
            URI): another provider's name when they share one (`openai-responses` reads
            OpenAI's files); None means the provider's own. See `store`.
        prices_id: The provider's id in the price data `mp.cost` reads (genai-prices:
            `openai`, `anthropic`, `google`, `aws`, ...); None means the provider's name.
        batch_max_requests, batch_max_bytes: Most requests and bytes one batch input file may
            hold (None: no documented limit); `batch_source` says where they come from.
    """

    provider: str
    image: ImageRules
    audio: KindRules
    video: KindRules
    file: FileRules
    max_request_bytes: int | None = None
    vision: tuple[ModelRule[VisionGeometry], ...] = ()
    costs: tuple[ModelRule[MediaRates], ...] = ()
    source: str = ""
    vision_source: str = ""
    costs_source: str = ""
    file_store: str | None = None
    text: tuple[ModelRule[TextRule], ...] = ()
    text_source: str = ""
    prices_id: str | None = None
    batch_max_requests: int | None = None
    batch_max_bytes: int | None = None
    batch_source: str = ""

    @property
    def store(self) -> str:
        """The file store the provider reads references from (`file_store`, else its name)."""
        return self.file_store or self.provider

    def reads(self, file_provider: str | None) -> bool:
        """Tell whether the provider reads files of `file_provider` (its store, or its own name:
        `openai-responses` reads a file labelled `openai-responses` as well as `openai`)."""
        return file_provider in (self.store, self.provider)

    def __post_init__(self) -> None:
        if self.file_store is not None and not isinstance(self.file_store, str):
            raise InvalidConfig(
                f"Rules.file_store must be a provider name, got {type(self.file_store).__name__}"
            )
        if self.prices_id is not None and not isinstance(self.prices_id, str):
            raise InvalidConfig(
                f"Rules.prices_id must be a provider id string, got {type(self.prices_id).__name__}"
            )
        # A wrong row type would otherwise surface only later, as an AttributeError deep in
        # normalize or estimate_tokens; the error policy wants it here, naming the field.
        for name, expected in _FIELD_TYPES.items():
            value = getattr(self, name)
            if not isinstance(value, expected):
                raise InvalidConfig(_wrong_rules(f"Rules.{name}", name, expected, value))
        for name in _TABLES:
            # A list or other iterable of rows is taken, as a tuple (frozen: hence __setattr__).
            object.__setattr__(self, name, _check_table(name, getattr(self, name)))

    def vision_for(self, model: str | None = None, *, strict: bool = False) -> VisionGeometry:
        """Return the image geometry (resize target and token formula) of a model.

        The first row whose pattern matches the model name wins; `model=None` takes the default
        row, and so does an unknown name (with an `UnknownModelWarning` naming it) unless
        `strict`.

        Raises:
            NoDocumentedRule: No vision table, or `strict` and no row matches the model.
            UnknownModel: No row matches, and unknown models are errors.
        """
        if not self.vision:
            raise NoDocumentedRule(
                f"{self.provider} documents no image rule", provider=self.provider, model=model
            )
        return self._row(self.vision, model, strict=strict)

    def costs_for(self, model: str | None = None) -> MediaRates:
        """Return the audio, video and PDF token rates of a model (first matching row).

        Raises:
            NoDocumentedRule: The provider has no table of media costs.
        """
        if not self.costs:
            raise NoDocumentedRule(
                f"{self.provider} documents no token rule for audio, video or PDFs",
                provider=self.provider,
                model=model,
            )
        return lookup(self.costs, model, owner=self.provider)

    def text_for(self, model: str | None = None, *, strict: bool = False) -> TextRule:
        """Return how a model's text is counted (first matching row of `text`).

        `model=None` takes the default row, and so does an unknown name (with an
        `UnknownModelWarning`) unless `strict`; a
        provider without a table gets `GENERIC_TEXT`.

        Raises:
            NoDocumentedRule: `strict` and no row matches the model.
        """
        if not self.text:
            return GENERIC_TEXT
        return self._row(self.text, model, strict=strict)

    def _row(self, table: Sequence[ModelRule[_Row]], model: str | None, *, strict: bool) -> _Row:
        """`lookup`, its error naming this provider."""
        try:
            return lookup(table, model, strict=strict, owner=self.provider)
        except NoDocumentedRule as exc:
            error = rewrap(exc, f"{self.provider}: {exc}")
            error.provider = self.provider
            raise error from exc

    @property
    def model_patterns(self) -> tuple[str, ...]:
        """The model patterns the provider knows: its image table's (`vision`), else `costs`'."""
        return tuple(row.pattern for row in self.vision or self.costs)

    def model_row(self, model: str | None = None) -> ModelRule[Any] | None:
        """Return the model table row whose rules apply to a model, to say which those are.

        The row of `vision` (else of `costs`) that `vision_for` and `costs_for` take: the first
        whose pattern matches the model name, or the default row (`ModelRule.default`) for
        `model=None`. None when no row matches, or there is no table.

        Raises:
            InvalidConfig: `model` is not a string.
        """
        check_model(model)
        table: tuple[ModelRule[Any], ...] = self.vision or self.costs
        if model is None:
            return default_row(table) if table else None
        return next((row for row in table if row.matches(model)), None)

    def for_kind(self, kind: Kind) -> KindRules:
        """Return the rules for `"image"`, `"audio"`, `"video"` or `"file"`.

        Raises:
            InvalidConfig: `kind` names no kind.
        """
        match kind:
            case "image":
                return self.image
            case "audio":
                return self.audio
            case "video":
                return self.video
            case "file":
                return self.file
            case _:
                # The `Never` makes a `Kind` without a branch a mypy error, as `assert_never`
                # would; an untyped caller's unknown name is a mistake in its arguments.
                unhandled: Never = kind
                raise InvalidConfig(
                    f"no kind {excerpt(unhandled)}; the kinds are {', '.join(get_args(Kind))}"
                )

    @property
    def document(self) -> FileRules:
        """Deprecated spelling of `file` (the kind is `"file"` everywhere)."""
        warnings.warn(
            "Rules.document is deprecated; use Rules.file", DeprecationWarning, stacklevel=2
        )
        return self.file


# The model tables and the rule type of their rows.
_TABLES: dict[str, type] = {"vision": VisionGeometry, "costs": MediaRates, "text": TextRule}

_FIELD_TYPES: dict[str, type] = {
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
}


def _check_table(name: str, rows: object) -> tuple[Any, ...]:
    """Return a model table as a tuple, or refuse it unless its rows are `ModelRule`s of the
    table's rule type.

    None is refused rather than read as "no rows": elsewhere in the rules None means "no
    limit", and an empty table does not mean "no limit" (for `vision` it means no rule at
    all), so the caller says () and the message says what that does.
    """
    rule = _TABLES[name]
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


def _wrong_rules(label: str, name: str, expected: type, value: object) -> str:
    """Say that a kind's rules are not of their class, and how to change them."""
    kind = expected.__name__
    return (
        f"{label} must be {article(kind)} {kind}, got {type(value).__name__}; pass "
        f"dataclasses.replace(provider.rules.{name}, ...), or change one field with "
        f"with_rules({name}_<field>=...)"
    )


_generated_init = Rules.__init__


@functools.wraps(_generated_init)
def _init(self: Rules, *args: Any, **kwargs: Any) -> None:
    # The kind was renamed "document" -> "file"; `Rules(document=...)` and
    # `dataclasses.replace(rules, document=...)` keep working, warned. `replace` passes every
    # field, `file` too, so the `document` the caller named wins.
    if "document" in kwargs:
        warnings.warn(
            "Rules(document=...) is deprecated; the kind is 'file': use file=...",
            DeprecationWarning,
            stacklevel=2,
        )
        kwargs["file"] = kwargs.pop("document")
    _generated_init(self, *args, **kwargs)


Rules.__init__ = _init  # type: ignore[method-assign]


_KINDS: tuple[str, ...] = get_args(Kind)
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


def _checked(name: str, value: Any, current: Any, *, label: str | None = None) -> Any:
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
    if name in _TABLES:
        return _check_table(name, value)
    if name in _NULLABLE and value is None:
        return value
    if name in _FIELD_TYPES and not isinstance(value, _FIELD_TYPES[name]):
        raise InvalidConfig(_wrong_rules(label, name, _FIELD_TYPES[name], value))
    typed = isinstance(current, bool | str | tuple) or dataclasses.is_dataclass(current)
    if typed and not isinstance(value, type(current)):
        kind = type(current).__name__
        hint = " (pass '' for none)" if name.endswith("source") and value is None else ""
        raise InvalidConfig(
            f"{label} must be {article(kind)} {kind}, got {type(value).__name__}{hint}"
        )
    return value


def _respelled(item: tuple[str, Any]) -> tuple[str, Any]:
    """Read the deprecated kind name `document` as `file`, with a DeprecationWarning."""
    key, value = item
    if key != "document" and not key.startswith("document_"):
        return item
    new = "file" + key.removeprefix("document")
    warnings.warn(
        f"with_rules({key}=...) is deprecated; the kind is 'file': use {new}=...",
        DeprecationWarning,
        stacklevel=4,
    )
    return new, value


def replace_rules(rules: Rules, overrides: dict[str, Any]) -> Rules:
    """Return `rules` with overrides applied.

    A key naming a field of `Rules` replaces it (`max_request_bytes=...`, `image=ImageRules(...)`);
    a key `<kind>_<field>` replaces one field of a kind's rules (`image_max_bytes=...`,
    `audio_media_types=(...)`, `file_text_types=(...)`). The old spelling `document` (`document=`,
    `document_<field>`) is read as `file`, with a DeprecationWarning.

    Raises:
        InvalidConfig: A key names no rule, or a value is of the wrong form.
    """
    top: dict[str, Any] = {}
    nested: dict[str, dict[str, Any]] = {}
    names = {f.name for f in dataclasses.fields(rules)}
    for key, value in map(_respelled, overrides.items()):
        if key in names:
            top[key] = _checked(key, value, getattr(rules, key))
            continue
        kind, _, field = key.partition("_")
        target = getattr(rules, kind, None) if kind in _KINDS else None
        if target is None or field not in {f.name for f in dataclasses.fields(target)}:
            raise InvalidConfig(
                f"no rule named {excerpt(key)}: use a field of Rules ({', '.join(sorted(names))}) "
                f"or <kind>_<field> with kind one of {', '.join(_KINDS)}"
            )
        current = getattr(target, field)
        nested.setdefault(kind, {})[field] = _checked(field, value, current, label=key)
    for kind, changes in nested.items():
        top[kind] = dataclasses.replace(top.get(kind, getattr(rules, kind)), **changes)
    return dataclasses.replace(rules, **top)
