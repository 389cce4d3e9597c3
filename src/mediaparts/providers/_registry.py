"""The provider registry: the `Provider` record, the built-in table, `get` and `register`.

Its own module, below the generic ones (`_check`, `_normalize`, `_render`, `_estimate`, which
look providers up here), so `mediaparts.providers` can export those without an import cycle.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from mediaparts._errors import InvalidConfig, UnknownProvider, excerpt
from mediaparts.providers._protocol import (
    BatchReader,
    BatchRequest,
    ProviderModule,
    Reader,
    Renderer,
    Replays,
    ResponseReader,
    SiteReader,
    validated,
)
from mediaparts.providers._rules import Rules, replace_rules

__all__ = ["Provider", "get", "names", "register", "registered", "unregister"]

# The built-in providers: name -> the module of this package that is the provider. Adding a
# provider is one module here and one line in this table.
_BUILT_IN = {
    "anthropic": "mediaparts.providers.anthropic",
    "bedrock": "mediaparts.providers.bedrock",
    "gemini": "mediaparts.providers.gemini",
    "openai": "mediaparts.providers.openai",
    "openai-responses": "mediaparts.providers.openai_responses",
}


@dataclass(frozen=True)
class Provider:
    """One provider: its rules, its renderer and its block shapes.

    Attributes:
        name: The provider's name, as `get()` takes it.
        rules: What it accepts (`Rules`), overridable with `with_rules`.
        renderer: Maps messages to the SDK call's keyword arguments.
        media_site: Reads its API's media blocks in a payload, for `check`.
        reader: Reads its request payloads back into messages, if it can.
        response_reader: Reads one of its responses into an `Assistant`, if it can.
        replays: Says why it leaves out one of its own reasoning parts (None: sent), if it
            has such a rule.
        batch_request: Wraps one rendered request as a line of its batch input file, if it
            has a batch API.
        batch_result: Reads one line of its batch result file, if it has a batch API.
    """

    name: str
    rules: Rules
    renderer: Renderer = field(repr=False, compare=False)
    media_site: SiteReader = field(repr=False, compare=False)
    reader: Reader | None = field(default=None, repr=False, compare=False)
    response_reader: ResponseReader | None = field(default=None, repr=False, compare=False)
    replays: Replays | None = field(default=None, repr=False, compare=False)
    batch_request: BatchRequest | None = field(default=None, repr=False, compare=False)
    batch_result: BatchReader | None = field(default=None, repr=False, compare=False)

    def with_rules(self, **overrides: Any) -> Provider:
        """Return a copy with some rules changed.

        Keys name a field of `Rules` (`max_request_bytes=...`) or one field of a kind's rules
        as `<kind>_<field>` (`image_max_bytes=...`, `audio_media_types=(...)`).

        Raises:
            InvalidConfig: A key names no rule, or a value is of the wrong form.
        """
        return dataclasses.replace(self, rules=replace_rules(self.rules, overrides))


# Registered providers: name -> the module (or, for a built-in not yet used, its import path).
_registry: dict[str, ProviderModule | str] = dict(_BUILT_IN)
_loaded: dict[str, Provider] = {}


def names() -> tuple[str, ...]:
    """Return the names of the registered providers (built-in ones included), sorted."""
    return tuple(sorted(_registry))


def register(name: str, module: ProviderModule, *, replace: bool = False) -> Provider:
    """Register a provider: a module (or any object) meeting `ProviderModule`, under `name`.

    Args:
        name: The name `get`, `normalize`, `render`, `check` and `estimate_tokens` take; the
            module's `RULES.provider` must be the same.
        module: The provider's module.
        replace: Allow replacing a provider already registered under that name.

    Returns:
        The `Provider` made from it.

    Raises:
        InvalidConfig: A member of `ProviderModule` is missing or ill-typed (the message names
            it), or the name is taken and `replace` is false.
    """
    checked = validated(name, module)
    if name in _registry and not replace:
        raise InvalidConfig(
            f"a provider named {excerpt(name)} is already registered; pass replace=True to replace "
            "it"
        )
    _registry[name] = checked
    _loaded.pop(name, None)
    return get(name)


def unregister(name: str) -> None:
    """Remove a provider from the registry (to restore a built-in one, register its module).

    Raises:
        UnknownProvider: No provider has that name.
    """
    if name not in _registry:
        raise UnknownProvider(name, names())
    del _registry[name]
    _loaded.pop(name, None)


def get(name: str | Provider) -> Provider:
    """Return the registered provider of that name (a `Provider` is returned as is).

    Raises:
        UnknownProvider: No provider has that name (also when `name` is not a string).
    """
    if isinstance(name, Provider):
        return name
    provider = _loaded.get(name) if isinstance(name, str) else None
    if provider is not None:
        return provider
    entry = _registry.get(name) if isinstance(name, str) else None
    if entry is None:
        raise UnknownProvider(name, names())
    assert isinstance(name, str)
    module = validated(name, importlib.import_module(entry) if isinstance(entry, str) else entry)
    provider = Provider(
        name,
        module.RULES,
        module.render,
        module.media_site,
        getattr(module, "read", None),
        getattr(module, "read_response", None),
        getattr(module, "replays", None),
        getattr(module, "batch_request", None),
        getattr(module, "batch_result", None),
    )
    _loaded[name] = provider
    return provider


def registered() -> Iterator[Provider]:
    """Yield every registered provider, in `names()` order (imports built-ins not yet used)."""
    for name in names():
        yield get(name)
