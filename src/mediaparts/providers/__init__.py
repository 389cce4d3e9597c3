"""Providers: each API's media rules as data, and how to render messages for it.

import mediaparts as mp

mp.providers.names()                      # ('anthropic', 'bedrock', 'gemini', ...)
claude = mp.providers.get("anthropic")
claude.rules.image.max_bytes              # 5242880, measured on the base64 text
roomy = claude.with_rules(image_max_bytes=10 * 2**20)   # the direct API's limit
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mediaparts._errors import InvalidMedia
from mediaparts.providers._normalized import NormalizedPart
from mediaparts.providers._rules import DocumentRules, ImageRules, KindRules, Rules, replace_rules

if TYPE_CHECKING:
    from mediaparts._messages import Message
    from mediaparts._parts import MediaPart

__all__ = [
    "DocumentRules",
    "ImageRules",
    "KindRules",
    "NormalizedPart",
    "Provider",
    "Rules",
    "get",
    "names",
]

Prepare = Callable[["MediaPart"], NormalizedPart]
Renderer = Callable[[Sequence["Message"], Prepare], dict[str, Any]]

# Provider name -> module in this package that defines RULES and render().
_MODULES = {
    "anthropic": "anthropic",
    "bedrock": "bedrock",
    "gemini": "gemini",
    "openai": "openai",
    "openai-responses": "openai_responses",
}


@dataclass(frozen=True)
class Provider:
    """One provider: its rules and its renderer.

    Attributes:
        name: The provider's name, as `get()` takes it.
        rules: What it accepts (`Rules`), overridable with `with_rules`.
        renderer: Maps messages to the SDK call's keyword arguments.
    """

    name: str
    rules: Rules
    renderer: Renderer = field(repr=False, compare=False)

    def with_rules(self, **overrides: Any) -> Provider:
        """Return a copy with some rules changed.

        Keys name a field of `Rules` (`max_request_bytes=...`) or one field of a kind's rules
        as `<kind>_<field>` (`image_max_bytes=...`, `audio_media_types=(...)`).

        Raises:
            InvalidMedia: A key names no rule.
        """
        return dataclasses.replace(self, rules=replace_rules(self.rules, overrides))


_loaded: dict[str, Provider] = {}


def names() -> tuple[str, ...]:
    """Return the names of the built-in providers, sorted."""
    return tuple(sorted(_MODULES))


def get(name: str | Provider) -> Provider:
    """Return the built-in provider of that name (a `Provider` is returned as is).

    Raises:
        InvalidMedia: No provider has that name.
    """
    if isinstance(name, Provider):
        return name
    if not isinstance(name, str):
        raise InvalidMedia(
            f"a provider is a name ({', '.join(names())}) or a Provider, got {type(name).__name__}"
        )
    provider = _loaded.get(name)
    if provider is not None:
        return provider
    module_name = _MODULES.get(name) if isinstance(name, str) else None
    if module_name is None:
        raise InvalidMedia(f"unknown provider {name!r}; the providers are {', '.join(names())}")
    module = importlib.import_module(f"{__name__}.{module_name}")
    provider = Provider(name=name, rules=module.RULES, renderer=module.render)
    _loaded[name] = provider
    return provider
