"""Rules by model: what one model of a provider takes differently from the provider's rules.

A provider serving many models (Ollama, OpenRouter, DeepSeek, an Azure deployment) cannot say
in one record what each model takes: a text model takes no images, an audio model takes audio.
Its `Rules.models` table holds rows of `ModelRules`, each a set of `with_rules` changes
(`image_media_types=()`, `audio_media_types=(...)`, `vision=...`) with its source;
`Provider.for_model(model)` applies the first row matching the model. A model no row matches,
or `model=None`, keeps the provider's own rules: the table lists what differs, not every model.
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mediaparts._errors import InvalidConfig, excerpt
from mediaparts.providers._budgets._model_rows import ModelRule, check_model

__all__ = ["ModelRules", "model_rules_row"]


@dataclass(frozen=True)
class ModelRules:
    """What one model (a row of `Rules.models`) takes differently from its provider's rules.

    Attributes:
        changes: `with_rules` keys and their values for this model: `image_media_types=()`
            (it takes no images), `audio_media_types=("audio/wav",)`, `vision=<table>`.
        source: Where the facts come from, and when they were read.
    """

    changes: Mapping[str, Any]
    source: str = ""
    _key: tuple[tuple[str, Any], ...] = field(init=False, repr=False, compare=True)

    def __post_init__(self) -> None:
        if not isinstance(self.changes, Mapping) or not all(
            isinstance(key, str) for key in self.changes
        ):
            raise InvalidConfig(
                "ModelRules.changes must be a mapping of with_rules keys to values "
                f"(image_media_types=(), ...), got {excerpt(self.changes)}"
            )
        if "models" in self.changes or "provider" in self.changes:
            raise InvalidConfig(
                "ModelRules.changes cannot change the model table or the provider's name"
            )
        if not isinstance(self.source, str):
            raise InvalidConfig(f"ModelRules.source must be a string, got {excerpt(self.source)}")
        changes = types.MappingProxyType(dict(self.changes))
        object.__setattr__(self, "changes", changes)
        object.__setattr__(self, "_key", tuple(sorted(changes.items(), key=lambda kv: kv[0])))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by its arguments (for worker processes): a mapping proxy does not pickle."""
        return (type(self), (dict(self.changes), self.source))

    def __hash__(self) -> int:
        return hash((self._key, self.source))

    def describe(self) -> str:
        """Say in a few words what the row changes (its keys)."""
        return "changes " + ", ".join(sorted(self.changes)) if self.changes else "no changes"


def model_rules_row(
    table: Sequence[ModelRule[ModelRules]], model: str | None
) -> ModelRule[ModelRules] | None:
    """Return the first row of a `models` table matching `model` (None: no row, or no model).

    Raises:
        InvalidConfig: `model` is neither None nor a string.
    """
    check_model(model)
    if model is None:
        return None
    return next((row for row in table if row.matches(model)), None)
