"""Assert that a rendered payload fits a provider's rules."""

from __future__ import annotations

from typing import Any

from mediaparts import check
from mediaparts._errors import excerpt
from mediaparts.providers import Provider, get

__all__ = ["assert_fits"]


def assert_fits(
    payload: dict[str, Any], provider: str | Provider, model: str | None = None
) -> None:
    """Assert that a rendered payload follows a provider's rules, offline.

    Args:
        payload: What `mp.render` returned, or any payload of that provider's shape.
        provider: The provider name or a `Provider`.
        model: The model, for model-dependent limits.

    Raises:
        AssertionError: The payload breaks a rule; the message lists every violation as
            `path: message (rule)`.
    """
    __tracebackhide__ = True
    violations = check(payload, provider, model=model)
    if violations:
        name = get(provider).name
        count = f"{len(violations)} violation{'s' if len(violations) > 1 else ''}"
        listed = "\n".join(f"  {violation}" for violation in violations)
        raise AssertionError(
            f"the payload does not fit {name} ({count}):\n{listed}\n"
            f"mp.render(..., {excerpt(name)}) normalizes parts to fit; a payload built or edited "
            "by "
            "hand must follow the same rules (mp.check lists them)."
        )
