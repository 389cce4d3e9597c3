"""Deployments: names of the user's that stand for a model (`Provider.with_deployments`).

Azure OpenAI serves a model under a deployment the user names ("my-gpt4o-prod"), and the API's
`model` is that name; a self-hosted server may serve a model under a name of its own. Every
model table of the rules (`vision`, `costs`, `text`, and any other table of `ModelRule` rows)
is keyed by model names, so a deployment gets, in each table, a row of its own matching its
name exactly and holding the row its model takes there. Every entry point that takes `model=`
then treats the deployment as the model, with no code of its own.

A deployment name no mapping gives stays what it was: an unknown model, whose default rules are
used with an `UnknownModelWarning` naming them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from mediaparts._errors import InvalidConfig, excerpt
from mediaparts._models import unknown_model
from mediaparts._surrogates import lone_surrogate
from mediaparts.providers._budgets._model_rows import ModelRule, default_row
from mediaparts.providers._model_rules import ModelRules
from mediaparts.providers._rules import Rules

__all__ = ["deployed"]

# fnmatch's special characters; each is written as a one-character class to match itself.
_SPECIAL = frozenset("*?[")


def deployed(rules: Rules, deployments: Mapping[str, str]) -> Rules:
    """Return `rules` in which each deployment name takes its model's rows.

    A model that no row of the provider's main table (`vision`, else `costs`) matches is
    said at once (`UnknownModelWarning`, or `UnknownModel` when so configured), naming the
    deployment and the default rules it gets; in any table its model matches no row of, the
    deployment takes the default row, so using it is not warned about again (in `models`, a
    row changing nothing: the provider's own rules, as for its model).

    Raises:
        InvalidConfig: `deployments` is not a mapping of names to model names, or a name is
            empty, holds a `/` or surrounding spaces (a model name's prefix and padding are not
            part of what the tables match).
        UnknownModel: A model is unknown, and unknown models are errors.
    """
    if not isinstance(deployments, Mapping):
        raise InvalidConfig(
            "with_deployments takes a mapping of deployment names to model names, got "
            f"{type(deployments).__name__}"
        )
    for name, model in deployments.items():
        _check(name, model)
    tables = _tables(rules)
    main: tuple[ModelRule[Any], ...] = rules.vision or rules.costs
    for name, model in deployments.items():
        if main and not any(row.matches(model) for row in main):
            unknown_model(
                rules.provider,
                f"{model} (deployment {name})",
                tuple(row.pattern for row in main),
                default_row(main).pattern,
            )
    changes: dict[str, Any] = {
        field: _deployed(table, deployments, own=field == "models")
        for field, table in tables.items()
    }
    return dataclasses.replace(rules, **changes)


def _check(name: object, model: object) -> None:
    for label, value in (("deployment name", name), ("model name", model)):
        if not isinstance(value, str) or not value.strip():
            raise InvalidConfig(f"a {label} is a non-empty string, got {excerpt(value)}")
        if lone_surrogate(value):
            raise InvalidConfig(f"the {label} {excerpt(value)} holds a lone surrogate")
    assert isinstance(name, str)
    if "/" in name or name != name.strip():
        raise InvalidConfig(
            f"deployment name {excerpt(name)}: a name with '/' or surrounding spaces cannot be "
            "told apart from a model name's prefix or padding"
        )


def _tables(rules: Rules) -> dict[str, tuple[ModelRule[Any], ...]]:
    """The rules' model tables: each non-empty field that holds `ModelRule` rows."""
    found: dict[str, tuple[ModelRule[Any], ...]] = {}
    for field in dataclasses.fields(rules):
        value = getattr(rules, field.name)
        if isinstance(value, tuple) and value and all(isinstance(r, ModelRule) for r in value):
            found[field.name] = value
    return found


def _deployed(
    table: tuple[ModelRule[Any], ...], deployments: Mapping[str, str], *, own: bool
) -> tuple[ModelRule[Any], ...]:
    """One table with a row per deployment in front; its default row stays the default.

    With `own` (the `models` table, where a model no row matches keeps the provider's own
    rules), a deployment whose model matches no row gets a row changing nothing, so that its
    own name (`gpt-4o-canary` serving gpt-5) matches no other model's row.
    """
    default = default_row(table)
    rows = []
    for name, model in deployments.items():
        row = next((r for r in table if r.matches(model)), None)
        if row is None and own:
            rule: Any = ModelRules({}, f"deployment {name} of {model}: the provider's own rules")
        else:
            rule = _said(name, model, row or default)
        rows.append(ModelRule(_literal(name), rule))
    kept = tuple(dataclasses.replace(r, default=True) if r is default else r for r in table)
    return (*rows, *kept)


def _said(name: str, model: str, row: ModelRule[Any]) -> Any:
    """A row's rule for a deployment; a `models` row (`ModelRules`) says whose it is, as the
    record's `label` and refusals then show it."""
    rule = row.rule
    if isinstance(rule, ModelRules):
        source = f"deployment {name} of {model}, as {row.pattern!r}: {rule.source}"
        return ModelRules(rule.changes, source)
    return rule


def _literal(name: str) -> str:
    """The fnmatch pattern matching `name` alone (its special characters made literal)."""
    return "".join(f"[{c}]" if c in _SPECIAL else c for c in name)
