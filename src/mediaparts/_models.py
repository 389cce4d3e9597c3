"""What a model no row of a provider's model table matches does: one policy for the library,
`check` and the command line.

`"warn"` (the default, or `MEDIAPARTS_UNKNOWN_MODELS=warn`): the table's default rules are used,
with an `UnknownModelWarning` naming them; `"error"` (`mp.configure(unknown_models="error")` or
`MEDIAPARTS_UNKNOWN_MODELS=error`): `UnknownModel` is raised. Never silent either way.
"""

from __future__ import annotations

import os
import warnings

from mediaparts._errors import InvalidConfig, UnknownModel, UnknownModelWarning, excerpt

__all__ = [
    "UNKNOWN_MODELS",
    "check_unknown_models",
    "set_unknown_models",
    "unknown_model",
    "unknown_models",
]

UNKNOWN_MODELS = ("warn", "error")
_policy = [os.environ.get("MEDIAPARTS_UNKNOWN_MODELS", "warn").strip().lower()]


def check_unknown_models(policy: object) -> None:
    """Refuse a policy other than "warn" or "error" with `InvalidConfig`."""
    if policy not in UNKNOWN_MODELS:
        raise InvalidConfig(f"unknown_models must be 'warn' or 'error', got {excerpt(policy)}")


def set_unknown_models(policy: str) -> None:
    """Set what a model no row matches does (`mp.configure(unknown_models=...)`).

    Raises:
        InvalidConfig: `policy` is not "warn" or "error".
    """
    check_unknown_models(policy)
    _policy[0] = policy


def unknown_models() -> str:
    """Return what a model no row matches does now: "warn" or "error"."""
    return _policy[0]


def unknown_model(owner: str, model: str, known: tuple[str, ...], used: str) -> None:
    """Warn (or raise, as configured) that no row of `owner`'s table matches `model`, naming
    the row whose rules are used instead (`used`, a pattern of `known`).

    Raises:
        UnknownModel: Unknown models are errors.
        InvalidConfig: `MEDIAPARTS_UNKNOWN_MODELS` holds neither "warn" nor "error".
    """
    if _policy[0] not in UNKNOWN_MODELS:  # a typo in the environment is said, not ignored
        raise InvalidConfig(
            f"MEDIAPARTS_UNKNOWN_MODELS must be 'warn' or 'error', got {excerpt(_policy[0])}"
        )
    who = f"{owner}: " if owner else ""
    message = (
        f"{who}model {excerpt(model)} matches no row of the model table (known patterns: "
        f"{', '.join(known)})"
    )
    if _policy[0] == "error":
        raise UnknownModel(
            f"{message}; pass a known model, or unknown_models='warn' to use the default rules",
            provider=owner,
            model=model,
            known=known,
        )
    warnings.warn(
        f"{message}; using the default rules, for {used!r}", UnknownModelWarning, stacklevel=4
    )
