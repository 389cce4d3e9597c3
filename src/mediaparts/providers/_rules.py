"""Provider rules as data: what each API accepts, how large, measured how.

Each provider module opens with its `RULES`, a `Rules` built from these frozen dataclasses,
one comment per table naming its source and the date it was read. Code reads rules; it does
not hard-code numbers, so `Provider.with_rules(...)` can change any of them.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, get_args

from typing_extensions import Never

from mediaparts._errors import InvalidConfig, NoDocumentedRule, excerpt, rewrap
from mediaparts.formats import Kind
from mediaparts.providers._budgets._media_rates import MediaRates
from mediaparts.providers._budgets._model_rows import ModelRule, check_model, default_row, lookup
from mediaparts.providers._budgets._text import GENERIC_TEXT, TextRule
from mediaparts.providers._budgets._vision import VisionGeometry
from mediaparts.providers._kind_rules import (
    FIELD_TYPES,
    KINDS,
    TABLES,
    FileRules,
    ImageRules,
    KindRules,
    Measure,
    base64_size,
    check_table,
    checked,
    wrong_rules,
)
from mediaparts.providers._model_rules import ModelRules, model_rules_row

_Row = TypeVar("_Row")


__all__ = [
    "FileRules",
    "ImageRules",
    "KindRules",
    "Measure",
    "Rules",
    "base64_size",
    "replace_rules",
]


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
        models: What models take differently (rows of `ModelRules`, first match wins;
            `for_model`); `models_source` says where they come from.
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
    models: tuple[ModelRule[ModelRules], ...] = ()
    models_source: str = ""

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
        for name, expected in FIELD_TYPES.items():
            value = getattr(self, name)
            if not isinstance(value, expected):
                raise InvalidConfig(wrong_rules(f"Rules.{name}", name, expected, value))
        for name in TABLES:
            # A list or other iterable of rows is taken, as a tuple (frozen: hence __setattr__).
            object.__setattr__(self, name, check_table(name, getattr(self, name)))

    def for_model(self, model: str | None) -> Rules:
        """Return one model's rules: these, changed by the first `models` row matching it.

        Raises:
            InvalidConfig: `model` is not a string, or the row's changes name no rule.
        """
        row = model_rules_row(self.models, model) if self.models else None
        return self if row is None else replace_rules(self, dict(row.rule.changes))

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
            top[key] = checked(key, value, getattr(rules, key))
            continue
        kind, _, field = key.partition("_")
        target = getattr(rules, kind, None) if kind in KINDS else None
        if target is None or field not in {f.name for f in dataclasses.fields(target)}:
            raise InvalidConfig(
                f"no rule named {excerpt(key)}: use a field of Rules ({', '.join(sorted(names))}) "
                f"or <kind>_<field> with kind one of {', '.join(KINDS)}"
            )
        current = getattr(target, field)
        nested.setdefault(kind, {})[field] = checked(field, value, current, label=key)
    for kind, changes in nested.items():
        top[kind] = dataclasses.replace(top.get(kind, getattr(rules, kind)), **changes)
    return dataclasses.replace(rules, **top)
