"""`image_spec`: how to fit an image to a provider's image rules, in `mediaparts.imaging` terms."""

from __future__ import annotations

from collections.abc import Callable

from mediaparts.imaging import FitSpec
from mediaparts.providers._rules import ImageRules

__all__ = ["image_spec"]


def image_spec(
    rules: ImageRules,
    *,
    side: int | None = None,
    target: Callable[[int, int], tuple[int, int]] | None = None,
) -> FitSpec:
    """Return how to fit an image to a provider's image rules: its types, animation, size
    and byte limits, measured its way.

    Args:
        rules: The provider's image rules.
        side: A longest side, in pixels, tighter than the rules' own (trim's smaller copies).
        target: The size the provider would downscale an image to (its vision geometry).
    """

    def capped(limit: int | None) -> int | None:
        return side if limit is None else limit if side is None else min(limit, side)

    return FitSpec(
        accepted=rules.media_types,
        animated_ok=rules.animated,
        max_width=capped(rules.max_width),
        max_height=capped(rules.max_height),
        target=target,
        max_bytes=rules.max_bytes,
        measure=rules.measure,
    )
