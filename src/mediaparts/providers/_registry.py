"""The provider registry: the `Provider` record, the built-in table, `get` and `register`.

A provider is a wire (the API shape it speaks, `mediaparts.providers.wires`) plus data: its
name, its rules (limits and model tables, each with source and date), its file store, its
batch envelope and its quirks. Each built-in provider is one package of this folder whose
`PROVIDER` is that record; `register` makes a user's provider the same way, and an installed
package names its records in the entry-point group `mediaparts.providers` (read at the first
`names()`, or at the first lookup of a name not registered otherwise).

Its own module, below the generic ones (`_check`, `_normalize`, `_render`, `_estimate`, which
look providers up here), so `mediaparts.providers` can export those without an import cycle.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata
import warnings
from collections.abc import Iterator, Mapping
from typing import Any

from mediaparts._errors import InvalidConfig, UnknownProvider, excerpt
from mediaparts.providers import wires
from mediaparts.providers._files import FileApi
from mediaparts.providers._record import Provider
from mediaparts.providers._rules import Rules
from mediaparts.providers._wire._protocol import (
    BatchReader,
    BatchRequest,
)

__all__ = [
    "PLUGIN_GROUP",
    "Provider",
    "get",
    "names",
    "register",
    "registered",
    "unregister",
]

# The built-in providers: name -> the package of this folder whose `PROVIDER` is the record.
_BUILT_IN = {
    "anthropic": "mediaparts.providers.anthropic",
    "anthropic-bedrock": "mediaparts.providers.anthropic_bedrock",
    "anthropic-vertex": "mediaparts.providers.anthropic_vertex",
    "azure-openai": "mediaparts.providers.azure_openai",
    "azure-openai-responses": "mediaparts.providers.azure_openai_responses",
    "bedrock": "mediaparts.providers.bedrock",
    "deepseek": "mediaparts.providers.deepseek",
    "gemini": "mediaparts.providers.gemini",
    "groq": "mediaparts.providers.groq",
    "mistral": "mediaparts.providers.mistral",
    "ollama": "mediaparts.providers.ollama",
    "openai": "mediaparts.providers.openai",
    "openai-responses": "mediaparts.providers.openai_responses",
    "openrouter": "mediaparts.providers.openrouter",
    "vertex": "mediaparts.providers.vertex",
    "xai": "mediaparts.providers.xai",
    "xai-responses": "mediaparts.providers.xai_responses",
}

# Registered providers: name -> the record, or, for one not yet used, the import path of a
# built-in's package or an installed package's entry point.
_registry: dict[str, Provider | str | importlib.metadata.EntryPoint] = dict(_BUILT_IN)
# Installed packages name their providers in this entry-point group: `name = "pkg.mod:RECORD"`,
# a `Provider` (so the CLI and the pytest plugin know them without code of the user's).
PLUGIN_GROUP = "mediaparts.providers"  # not an import
_plugins = [False]  # whether the group has been read


def _discover() -> None:
    """Read the installed packages' providers once (a name registered in code wins)."""
    if _plugins[0]:
        return
    _plugins[0] = True
    for entry in importlib.metadata.entry_points(group=PLUGIN_GROUP):
        _registry.setdefault(entry.name, entry)


def names() -> tuple[str, ...]:
    """Return the names of the registered providers (built-in and installed ones included)."""
    _discover()
    return tuple(sorted(_registry))


def register(
    name: str,
    module: Any = None,
    *,
    wire: Any = None,
    rules: Rules | None = None,
    files: FileApi | None = None,
    batch_request: BatchRequest | None = None,
    batch_result: BatchReader | None = None,
    quirks: Mapping[str, Any] | None = None,
    replace: bool = False,
) -> Provider:
    """Register a provider: a wire and its rules, under `name`.

    The provider then works everywhere a built-in one does: `render`, `messages_from`,
    `message_from_response`, `check`, `count_tokens`, `normalize`, the CLI and the pytest
    plugin. Its parts, hints and errors carry its own name.

    ```python
    mp.providers.register(
        "my-vllm", wire="openai",
        rules=mp.providers.get("openai").with_rules(image_max_bytes=1_000_000).rules)
    ```

    Args:
        name: The name `get`, `normalize`, `render`, `check` and `estimate_tokens` take.
        module: Deprecated: a module with the members of the old `ProviderModule` (`RULES`,
            `render`, `media_site`, ...); give `wire=` and `rules=` instead.
        wire: The API shape it speaks: a wire's name (`"openai"` or `"chat-completions"`,
            ...; `mediaparts.providers.wires.names()`) or a module meeting `Wire`.
        rules: Its rules (`Rules`), usually another provider's changed by `with_rules`; they
            are renamed to `name` (`rules.provider`).
        files: Its file store (`FileApi`), if it has one.
        batch_request: Wraps one rendered request as a line of its batch input file.
        batch_result: Reads one line of its batch result file.
        quirks: What its wire does differently for it (keys its wire's `QUIRKS` lists).
        replace: Allow replacing a provider already registered under that name.

    Returns:
        The `Provider`.

    Raises:
        InvalidConfig: The wire is unknown or ill-formed, rules are missing or not `Rules`, a
            quirk is one its wire does not read, or the name is taken and `replace` is false.
    """
    if module is not None:
        warnings.warn(
            "mp.providers.register(name, module) is deprecated: register(name, wire=..., "
            "rules=...) takes a wire and rules (docs/architecture.md)",
            DeprecationWarning,
            stacklevel=2,
        )
        provider = _from_module(name, module)
    else:
        if wire is None or rules is None:
            raise InvalidConfig(
                f"register({excerpt(name)}, ...) needs wire= (one of "
                f"{', '.join(wires.names())}) and rules= (e.g. "
                "mp.providers.get('openai').with_rules(...).rules)"
            )
        if not isinstance(rules, Rules):
            raise InvalidConfig(
                f"provider {excerpt(name)}: rules must be a mediaparts.providers.Rules, got "
                f"{type(rules).__name__} (start from mp.providers.get(...).rules)"
            )
        provider = Provider(
            name,
            _renamed(rules, name) if isinstance(name, str) and name else rules,
            wire if isinstance(wire, str) else wires.resolve(wire)[0],
            files=files,
            batch_request=batch_request,
            batch_result=batch_result,
            quirks=quirks if quirks is not None else {},
        )
    if name in _registry and not replace:
        raise InvalidConfig(
            f"a provider named {excerpt(name)} is already registered; pass replace=True to replace "
            "it"
        )
    _ = provider.shape  # a registration checks its wire now, not at the first render
    _registry[name] = provider
    return provider


def _renamed(rules: Rules, name: str) -> Rules:
    """Return `rules` as `name`'s own (its file store kept only when it names another)."""
    return rules if rules.provider == name else dataclasses.replace(rules, provider=name)


def _from_module(name: Any, module: Any) -> Provider:
    """A provider from a module of the old `ProviderModule` shape (deprecated)."""
    if not isinstance(name, str) or not name:
        raise InvalidConfig(f"a provider's name is a non-empty string, got {excerpt(name)}")
    rules = getattr(module, "RULES", None)
    if not isinstance(rules, Rules):
        raise InvalidConfig(f"provider {excerpt(name)} lacks or mistypes RULES (a Rules)")
    if rules.provider != name:
        raise InvalidConfig(
            f"provider {excerpt(name)} has RULES.provider {excerpt(rules.provider)}; they must be "
            "the same name"
        )
    return Provider(
        name,
        rules,
        wires.resolve(_ModuleWire(name, module))[0],
        files=getattr(module, "FILES", None),
        batch_request=getattr(module, "batch_request", None),
        batch_result=getattr(module, "batch_result", None),
    )


class _ModuleWire:
    """An old provider module as a wire: its readers take no provider (they serve one)."""

    def __init__(self, name: str, module: Any) -> None:
        self.__name__ = f"module:{name}"
        self.render = getattr(module, "render", None)
        self.media_site = getattr(module, "media_site", None)
        for member in ("read", "read_response", "replays"):
            found = getattr(module, member, None)
            setattr(self, member, None if found is None else _dropping_served(found))


def _dropping_served(function: Any) -> Any:
    if not callable(function):
        return function  # left for validated_wire to refuse, naming it
    return lambda value, served: function(value)


def unregister(name: str) -> None:
    """Remove a provider from the registry (a built-in one comes back by registering it).

    Raises:
        UnknownProvider: No provider has that name.
    """
    if name not in _registry:
        raise UnknownProvider(name, names())
    del _registry[name]


def get(name: str | Provider, model: str | None = None) -> Provider:
    """Return the registered provider of that name (a `Provider` is returned as is), as it
    serves `model` when one is given (`Provider.for_model`: a model of its `rules.models`
    table gets that row's rules).

    Raises:
        UnknownProvider: No provider has that name (also when `name` is not a string).
        InvalidConfig: `model` is not a string.
    """
    if isinstance(name, Provider):
        return name if model is None else name.for_model(model)
    entry = _registry.get(name) if isinstance(name, str) else None
    if isinstance(entry, Provider):
        return entry if model is None else entry.for_model(model)
    if entry is None and isinstance(name, str) and not _plugins[0]:
        _discover()
        entry = _registry.get(name)
    if entry is None:
        raise UnknownProvider(name, names())
    assert isinstance(name, str)
    if isinstance(entry, str):
        provider = importlib.import_module(entry).PROVIDER
    else:
        assert isinstance(entry, importlib.metadata.EntryPoint)
        provider = _installed(name, entry)
    assert isinstance(provider, Provider), entry
    _registry[name] = provider
    return provider if model is None else provider.for_model(model)


def _installed(name: str, entry: importlib.metadata.EntryPoint) -> Provider:
    """Load an installed package's provider, checking it is a `Provider` of that name.

    Raises:
        InvalidConfig: It cannot be loaded, or it is not a `Provider` named `name`.
    """
    where = f"the entry point {name} = {entry.value!r} of group {PLUGIN_GROUP}"
    try:
        provider = entry.load()
    except Exception as exc:  # an installed package's import: any error, named and kept
        raise InvalidConfig(f"{where} could not be loaded: {exc!r}") from exc
    if not isinstance(provider, Provider) or provider.name != name:
        raise InvalidConfig(
            f"{where} gives {excerpt(provider)}; it must give a mediaparts.providers.Provider "
            f"named {name!r} (e.g. mp.providers.Provider({name!r}, rules, 'openai'))"
        )
    return provider


def registered() -> Iterator[Provider]:
    """Yield every registered provider, in `names()` order (imports built-ins not yet used)."""
    for name in names():
        yield get(name)
