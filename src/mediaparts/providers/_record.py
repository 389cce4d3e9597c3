"""The `Provider` record: a wire plus the data that make it one provider.

Its own module, below the registry: each built-in provider's package makes its record here
(`PROVIDER = Provider(...)`) without importing the registry, which imports those packages.
"""

from __future__ import annotations

import dataclasses
import importlib
import types
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mediaparts._conversation._messages import Assistant, Message
from mediaparts._conversation._parts import ReasoningPart
from mediaparts._errors import InvalidConfig, excerpt
from mediaparts.providers import wires
from mediaparts.providers._deployments import deployed
from mediaparts.providers._files import FileApi
from mediaparts.providers._model_rules import model_rules_row
from mediaparts.providers._rules import Rules, replace_rules
from mediaparts.providers._wire._protocol import (
    BatchReader,
    BatchRequest,
    Renderer,
    SiteReader,
    Wire,
)

__all__ = ["Provider", "built_in", "former_names"]

_NO_QUIRKS: Mapping[str, Any] = types.MappingProxyType({})
# The most model records one provider keeps (`for_model`), its names being the callers'.
_MODELS_KEPT = 256


@dataclass(frozen=True)
class Provider:
    """One provider: a wire and the data that make it this provider.

    Attributes:
        name: The provider's name, as `get()` takes it (and the `native` key of its hints).
        rules: What it accepts (`Rules`), overridable with `with_rules`.
        wire: The name of the API shape it speaks (`mediaparts.providers.wires`): `"openai"`
            for Chat Completions, `"openai-responses"`, `"anthropic"`, `"gemini"`, `"bedrock"`.
        files: Its file API (`FileApi`: the store's rules and upload calls), if it has one.
        batch_request: Wraps one rendered request as a line of its batch input file, if it
            has a batch API.
        batch_result: Reads one line of its batch result file, if it has a batch API.
        quirks: What its wire does differently for it, as data (keys the wire's `QUIRKS`
            documents).
    """

    name: str
    rules: Rules
    wire: str
    files: FileApi | None = field(default=None, repr=False, compare=False)
    batch_request: BatchRequest | None = field(default=None, repr=False, compare=False)
    batch_result: BatchReader | None = field(default=None, repr=False, compare=False)
    quirks: Mapping[str, Any] = field(default_factory=lambda: _NO_QUIRKS, repr=False)
    _shape: Wire | None = field(init=False, default=None, repr=False, compare=False)
    # `for_model`: the records made for models (model -> record), and, on one of those, the
    # record it was made from and the model and row it is for.
    _for_models: dict[str, Provider] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )
    _model: tuple[Provider, str, str] | None = field(
        init=False, default=None, repr=False, compare=False
    )
    # The caller's `with_rules` changes, kept so that they win over a model's row too.
    _overrides: Mapping[str, Any] = field(
        init=False, default_factory=lambda: _NO_QUIRKS, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        _check_record(self)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle by value for worker processes: the wire goes by its name (a wire module of
        the user's, by its module's name), the quirks as a dict."""
        state = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        state["quirks"] = dict(self.quirks)
        shape = state.pop("_shape")
        state.pop("_for_models")  # made again when asked
        state["_overrides"] = dict(self._overrides)
        if self.wire not in wires.names() and isinstance(shape, types.ModuleType):
            state["_module"] = shape.__name__
        elif self.wire not in wires.names():
            state["_shape"] = shape  # an object of the user's: pickled as it pickles
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore a pickled record (its wire imported again when it was a module)."""
        module = state.pop("_module", None)
        state["quirks"] = types.MappingProxyType(state["quirks"])
        state.setdefault("_shape", None)
        state["_for_models"] = {}
        state.setdefault("_model", None)
        state["_overrides"] = types.MappingProxyType(state.get("_overrides", {}))
        for name, value in state.items():
            object.__setattr__(self, name, value)
        if module is not None:
            object.__setattr__(self, "_shape", wires.resolve(importlib.import_module(module))[1])

    @property
    def shape(self) -> Wire:
        """The wire module itself (a built-in one is imported at its first use)."""
        if self._shape is None:
            object.__setattr__(self, "_shape", wires.get(self.wire))
        assert self._shape is not None
        return self._shape

    @property
    def renderer(self) -> Renderer:
        """Map messages to the SDK call's keyword arguments (the wire's `render`)."""
        return self.shape.render

    @property
    def media_site(self) -> SiteReader:
        """Read its API's media blocks in a payload, for `check` (the wire's `media_site`)."""
        return self.shape.media_site

    @property
    def reader(self) -> Callable[[Any], list[Message]] | None:
        """Read its request payloads back into messages, or None when its wire cannot."""
        read = getattr(self.shape, "read", None)
        return None if read is None else lambda payload: _messages(read(payload, self))

    @property
    def response_reader(self) -> Callable[[Any], Assistant] | None:
        """Read one of its responses into an `Assistant`, or None when its wire cannot."""
        read = getattr(self.shape, "read_response", None)
        return None if read is None else lambda response: _reply(read(response, self))

    def read(self, payload: Any) -> list[Message]:
        """Read one of its request payloads (or its message list) back into messages.

        Raises:
            InvalidConfig: Its wire cannot read payloads (it has no `read`).
        """
        reader = self.reader
        if reader is None:
            raise InvalidConfig(
                f"provider {excerpt(self.name)} cannot read payloads "
                f"(its wire {self.wire} has no read())"
            )
        return reader(payload)

    def read_response(self, response: Any) -> Assistant:
        """Read one of its responses (the SDK's object or its dict) into an `Assistant`.

        Raises:
            InvalidConfig: Its wire cannot read responses (it has no `read_response`).
        """
        reader = self.response_reader
        if reader is None:
            raise InvalidConfig(
                f"provider {excerpt(self.name)} cannot read responses "
                f"(its wire {self.wire} has no read_response())"
            )
        return reader(response)

    @property
    def replays(self) -> Callable[[ReasoningPart], str | None] | None:
        """Say why its wire leaves out one of its reasoning parts (None: sent), or None."""
        replays = getattr(self.shape, "replays", None)
        return None if replays is None else lambda part: _why(replays(part, self))

    def for_model(self, model: str | None) -> Provider:
        """Return this provider as it serves one model: its rules changed by the first row of
        `rules.models` matching the model (`Rules.for_model`), or itself when none matches.

        The record returned says which row it used (`model_rules`) and its refusals name the
        model (`label`); it is made once per row.

        Raises:
            InvalidConfig: `model` is not a string, or the row's changes name no rule.
        """
        base = self._model[0] if self._model is not None else self
        if not base.rules.models:
            return base
        # Every name asked for is remembered, those no row matches too (as the base itself):
        # a render per request then costs one lookup, not a scan of the rows.
        made = base._for_models.get(model) if isinstance(model, str) else None
        if made is not None:
            return made
        row = model_rules_row(base.rules.models, model)
        if row is None:
            made = base
        else:
            assert model is not None
            rules = base.rules.for_model(model)
            if base._overrides:  # the caller's own changes win over the model's row
                rules = replace_rules(rules, dict(base._overrides))
            made = base._copy(rules)
            object.__setattr__(made, "_model", (base, model, row.pattern))
        if model is not None:
            if len(base._for_models) >= _MODELS_KEPT:  # names come from callers: bounded
                base._for_models.clear()
            base._for_models[model] = made
        return made

    @property
    def model_rules(self) -> str | None:
        """The pattern of the `rules.models` row this record serves (`for_model`), or None."""
        return None if self._model is None else self._model[2]

    @property
    def label(self) -> str:
        """Its name, and the model its rules are for when they are a model's (`for_model`):
        `deepseek (model deepseek-chat)`, as refusals say it."""
        if self._model is None:
            return self.name
        return f"{self.name} (model {excerpt(self._model[1])}, rules for {self._model[2]!r})"

    def with_rules(self, **overrides: Any) -> Provider:
        """Return a copy with some rules changed.

        Keys name a field of `Rules` (`max_request_bytes=...`) or one field of a kind's rules
        as `<kind>_<field>` (`image_max_bytes=...`, `audio_media_types=(...)`). They hold for
        every model: a row of `rules.models` (`for_model`) does not undo them.

        Raises:
            InvalidConfig: A key names no rule, or a value is of the wrong form.
        """
        made = self._copy(replace_rules(self.rules, overrides))
        object.__setattr__(made, "_overrides", {**self._overrides, **overrides})
        return made

    def _copy(self, rules: Rules) -> Provider:
        """Return a copy with these rules, keeping the caller's `with_rules` changes."""
        made = dataclasses.replace(self, rules=rules)
        object.__setattr__(made, "_overrides", self._overrides)
        return made

    def with_deployments(self, deployments: Mapping[str, str]) -> Provider:
        """Return a copy in which each deployment name takes the rules of its model.

        Azure OpenAI's `model` is a deployment the user names, serving one model:
        `get("azure-openai").with_deployments({"my-prod": "gpt-4o"})` sizes, counts and checks
        `model="my-prod"` as gpt-4o in every model table. A deployment named after its model
        needs no mapping; another unmapped name is an unknown model (its default rules, said
        by an `UnknownModelWarning`). A mapped model the tables do not know is said at once.

        Raises:
            InvalidConfig: `deployments` is not a mapping of deployment names to model names.
            UnknownModel: A mapped model is unknown, and unknown models are errors.
        """
        base = self._model[0] if self._model is not None else self  # not a model's rules
        return base._copy(deployed(base.rules, deployments))


def _messages(value: Any) -> list[Message]:
    return list(value)


def _reply(value: Any) -> Assistant:
    assert isinstance(value, Assistant)
    return value


def _why(value: Any) -> str | None:
    assert value is None or isinstance(value, str)
    return value


def _check_record(provider: Provider) -> None:
    """Check a record's fields and resolve its wire; say what is wrong with `InvalidConfig`."""
    name = provider.name
    if not isinstance(name, str) or not name:
        raise InvalidConfig(f"a provider's name is a non-empty string, got {excerpt(name)}")
    if not isinstance(provider.rules, Rules):
        raise InvalidConfig(
            f"provider {excerpt(name)}: rules must be a mediaparts.providers.Rules, got "
            f"{type(provider.rules).__name__} (start from mp.providers.get(...).rules)"
        )
    if provider.rules.provider != name:
        raise InvalidConfig(
            f"provider {excerpt(name)} has rules of {excerpt(provider.rules.provider)}; "
            "register() renames them, a Provider record must name itself"
        )
    # A wire named is imported at its first use (a built-in record is made while its wire's
    # package may still be loading); a wire given as a module is checked now.
    if isinstance(provider.wire, str):
        object.__setattr__(provider, "wire", wires.canonical(provider.wire))
    else:
        wire_name, shape = wires.resolve(provider.wire)
        object.__setattr__(provider, "wire", wire_name)
        object.__setattr__(provider, "_shape", shape)
    if provider.files is not None and not isinstance(provider.files, FileApi):
        raise InvalidConfig(
            f"provider {excerpt(name)}: files must be a mediaparts.providers.FileApi or None"
        )
    for member in ("batch_request", "batch_result"):
        if getattr(provider, member) is not None and not callable(getattr(provider, member)):
            raise InvalidConfig(f"provider {excerpt(name)}: {member} must be a function or None")
    if (provider.batch_request is None) != (provider.batch_result is None):
        raise InvalidConfig(
            f"provider {excerpt(name)}: give both batch_request and batch_result, or neither"
        )
    if not isinstance(provider.quirks, Mapping):
        raise InvalidConfig(f"provider {excerpt(name)}: quirks must be a mapping")
    known: Mapping[str, str] = getattr(provider.shape, "QUIRKS", {}) if provider.quirks else {}
    unknown = sorted(str(k) for k in provider.quirks if k not in known)
    if unknown:
        reads = ", ".join(sorted(known)) or "none"
        raise InvalidConfig(
            f"provider {excerpt(name)}: its wire {provider.wire} reads no quirk "
            f"{', '.join(unknown)} (it reads: {reads})"
        )
    check_quirks = getattr(provider.shape, "check_quirks", None) if provider.quirks else None
    if check_quirks is not None:
        check_quirks(name, provider.quirks)
    object.__setattr__(provider, "quirks", types.MappingProxyType(dict(provider.quirks)))


def built_in(rules: Rules, wire: str, files: FileApi, batch: Any, **quirks: Any) -> Provider:
    """Return a built-in provider's record: its rules, wire, file store, batch module (its
    `batch_request` and `batch_result`) and quirks."""
    return Provider(
        rules.provider,
        rules,
        wire,
        files=files,
        batch_request=batch.batch_request,
        batch_result=batch.batch_result,
        quirks=quirks,
    )


# What a provider package exported before wires were apart, now on its wire (with the
# provider to serve as the second argument of the readers).
_MOVED = ("render", "media_site", "read", "read_response", "replays")
# What a provider package exported before it became a record, now read from the record.
_ON_RECORD: Mapping[str, str] = types.MappingProxyType(
    {
        "COSTS": "rules.costs",
        "COSTS_SOURCE": "rules.costs_source",
        "TEXT": "rules.text",
        "TEXT_SOURCE": "rules.text_source",
        "VISION": "rules.vision",
        "VISION_SOURCE": "rules.vision_source",
        "FILES": "files",
        "FILE_STORE": "files.rules",
        "batch_request": "batch_request",
        "batch_result": "batch_result",
    }
)


def former_names(
    module: str,
    wire: str,
    provider: Callable[[], Provider],
    elsewhere: Mapping[str, str] = types.MappingProxyType({}),
) -> Any:
    """Return the `__getattr__` of a provider package: the names it no longer exports.

    A provider package exports its record (`PROVIDER`) and its `RULES`. What it exported
    before still works, with a `DeprecationWarning` saying where it is now: its wire's
    functions (`mediaparts.providers.openai.read(payload)` reads through the wire), the tables
    and calls now on the record (`VISION` is `PROVIDER.rules.vision`), and the names in
    `elsewhere` (name -> where it is now, as `module:NAME`).
    """

    def __getattr__(name: str) -> Any:
        served = provider()
        if name in _ON_RECORD:
            path = _ON_RECORD[name]
            value: Any = served
            for step in path.split("."):
                value = getattr(value, step)
            _deprecated(f"{module}.{name}", f"mp.providers.get({served.name!r}).{path}")
            return value
        if name in elsewhere:
            path, _, attribute = elsewhere[name].partition(":")
            _deprecated(f"{module}.{name}", f"{path}.{attribute}")
            return getattr(importlib.import_module(path), attribute)
        function = getattr(served.shape, name, None) if name in _MOVED else None
        if function is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        _deprecated(
            f"{module}.{name}",
            f"mp.providers.get({served.name!r}) (.renderer, .read, ...) or "
            f"mediaparts.providers.wires.get({wire!r}).{name}",
        )
        if name in ("render", "media_site"):
            return function
        return lambda value: function(value, served)

    return __getattr__


def _deprecated(old: str, new: str) -> None:
    warnings.warn(f"{old} is deprecated; use {new}", DeprecationWarning, stacklevel=3)
