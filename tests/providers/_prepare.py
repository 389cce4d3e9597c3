"""A stand-in for the `prepare` that `mp.render` gives a provider's renderer.

Tests that call a renderer directly pass it a fitting function of their own; this wraps one
into what the `Prepare` protocol asks for, and fails the test on any loss it is told of.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mediaparts as mp
from mediaparts.providers import NormalizedPart, Rules


class StandIn:
    """`Prepare` over a function: fits with it, and raises `AssertionError` on a loss."""

    def __init__(self, rules: Rules, fit: Callable[[mp.MediaPart], NormalizedPart]) -> None:
        self.served = mp.providers.get(rules.provider)
        self.provider = rules.provider
        self.rules = rules
        self.model: str | None = None
        self._fit = fit

    def __call__(self, part: mp.MediaPart, /) -> NormalizedPart:
        return self._fit(part)

    def lose(self, part: Any, why: str, /) -> None:
        raise AssertionError(f"lost {part!r}: {why}")
