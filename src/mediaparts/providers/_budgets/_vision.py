"""Vision geometry: the size a provider shrinks an image to, and what the image costs.

The numbers are data (frozen dataclasses); the formulas are methods. Every geometry answers the
same questions about an upright image of `width` x `height` pixels:

- `target_size(width, height, detail)`: the size the provider resizes it to, never larger;
- `tokens(width, height, detail)`: the input tokens it costs;
- `detail_levels` and `describe()`: what `detail` accepts, and one line for the docs' table.

`detail=None` means the provider default (`"auto"`); an unknown level raises `InvalidMedia`.
Which geometry a model uses is a table of `ModelRule`s, read by `lookup`; each provider module
holds its own table (`VISION` in `openai.py`, `anthropic.py`, ...), with its sources.
The formulas come from the providers' vision and token pages (read 2026-08); the tests
reproduce every worked example those pages give.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

from mediaparts._errors import InvalidConfig, InvalidMedia, NoDocumentedRule, excerpt
from mediaparts.formats import Size
from mediaparts.providers._budgets._model_rows import ModelRule, check_model, default_row, lookup

__all__ = [
    "AnthropicPatches",
    "GeminiMediaResolution",
    "GeminiTiles",
    "ModelRule",
    "OpenAIPatches",
    "OpenAITiles",
    "PatchBudget",
    "Undocumented",
    "VisionGeometry",
    "VisionTable",
    "check_model",
    "default_row",
    "lookup",
]


def _ceil_div(n: int, d: int) -> int:
    return -(-n // d)


def _scale(n: int, num: int, den: int, *, nearest: bool = False) -> int:
    """Return n * num / den rounded down (or to nearest, halves up), at least 1 pixel."""
    value = (2 * n * num + den) // (2 * den) if nearest else n * num // den
    return max(1, value)


def _fit(width: int, height: int, max_side: int, *, nearest: bool = False) -> Size:
    """Fit within a max_side square, preserving the aspect ratio and never enlarging."""
    long = max(width, height)
    if long <= max_side:
        return width, height
    return (
        _scale(width, max_side, long, nearest=nearest),
        _scale(height, max_side, long, nearest=nearest),
    )


class VisionGeometry(ABC):
    """How one provider (and model) resizes images and counts their tokens.

    Attributes:
        documented: False for `Undocumented`, whose `tokens` refuses to guess.
    """

    documented: ClassVar[bool] = True

    @property
    @abstractmethod
    def detail_levels(self) -> tuple[str, ...]:
        """The `detail` values this geometry accepts (`None` means `"auto"`)."""

    @abstractmethod
    def target_size(self, width: int, height: int, detail: str | None = None) -> Size:
        """Return the size the provider resizes an upright image to; never larger than it."""

    @abstractmethod
    def tokens(self, width: int, height: int, detail: str | None = None) -> int:
        """Return the input tokens an upright image of this size costs."""

    @abstractmethod
    def describe(self) -> str:
        """Return one line describing the rule, for the docs' provider table."""

    def check_detail(self, detail: str | None) -> str:
        """Return the level `detail` names (`None` is `"auto"`).

        Raises:
            InvalidMedia: The level is not one of `detail_levels`; the message names them.
        """
        return self._level(detail)

    def _level(self, detail: str | None) -> str:
        level = "auto" if detail is None else detail.strip().lower()
        if level not in self.detail_levels:
            allowed = ", ".join(repr(d) for d in self.detail_levels)
            raise InvalidMedia(
                f"unknown image detail level {excerpt(detail)} for {excerpt(self.describe())}; "
                f"use one of {allowed} (or None for the default)"
            )
        return level


def _check(width: int, height: int) -> None:
    if width < 1 or height < 1:
        raise InvalidMedia(f"image size must be positive, got {width}x{height}")


@dataclass(frozen=True)
class OpenAITiles(VisionGeometry):
    """OpenAI's tile rule: base tokens plus tokens per 512-px tile of the resized image.

    `low` costs `base` whatever the size (the model sees a 512 x 512 version). `high` and `auto`
    fit the image in a `max_side` square, then scale a short side over `short_side` down to it
    (the other side rounded down), never enlarging, as the current page says (the older text
    also enlarged small images to a 768-px short side).
    """

    base: int
    tile: int
    max_side: int = 2048
    short_side: int = 768
    tile_px: int = 512
    low_side: int = 512

    @property
    def detail_levels(self) -> tuple[str, ...]:
        return ("low", "high", "auto")

    def target_size(self, width: int, height: int, detail: str | None = None) -> Size:
        _check(width, height)
        if self._level(detail) == "low":
            return _fit(width, height, self.low_side)
        long, short = max(width, height), min(width, height)
        num, den = (self.max_side, long) if long > self.max_side else (1, 1)
        if short * num > self.short_side * den:  # the short side is still over short_side
            num, den = self.short_side, short
        return _scale(width, num, den), _scale(height, num, den)

    def tokens(self, width: int, height: int, detail: str | None = None) -> int:
        if self._level(detail) == "low":
            _check(width, height)
            return self.base
        w, h = self.target_size(width, height, detail)
        return self.base + self.tile * _ceil_div(w, self.tile_px) * _ceil_div(h, self.tile_px)

    def describe(self) -> str:
        return (
            f"tiles {self.tile_px} px, base {self.base} + {self.tile}/tile, fit {self.max_side} "
            f"then short side {self.short_side}; low = {self.base}"
        )


@dataclass(frozen=True)
class PatchBudget:
    """The limits of one OpenAI detail level: a pixel box and an optional patch budget."""

    max_side: int
    budget: int | None = None


@dataclass(frozen=True)
class OpenAIPatches(VisionGeometry):
    """OpenAI's patch rule: 32-px patches within a per-level box and budget, times a multiplier.

    Steps A-D of the doc: fit within the level's `max_side` (no enlarging, rounded to whole
    pixels); count patches; over the budget, shrink by the doc's adjusted factor and round the
    size down; multiply the patch count by `multiplier` and round up.
    """

    levels: Mapping[str, PatchBudget] = field(hash=False)
    multiplier: float = 1.0
    auto: str = "high"
    patch_px: int = 32

    def __post_init__(self) -> None:
        if self.auto not in self.levels:
            raise InvalidConfig(
                f"auto={excerpt(self.auto)} names no level in {sorted(self.levels)}"
            )
        object.__setattr__(self, "levels", dict(self.levels))  # a private copy; picklable

    @property
    def detail_levels(self) -> tuple[str, ...]:
        return (*self.levels, "auto") if "auto" not in self.levels else tuple(self.levels)

    def target_size(self, width: int, height: int, detail: str | None = None) -> Size:
        _check(width, height)
        level = self._level(detail)
        spec = self.levels[self.auto if level == "auto" else level]
        w, h = _fit(width, height, spec.max_side, nearest=True)
        if spec.budget is None or self._patches(w, h) <= spec.budget:
            return w, h
        return self._shrink(w, h, spec.budget)

    def _patches(self, width: int, height: int) -> int:
        return _ceil_div(width, self.patch_px) * _ceil_div(height, self.patch_px)

    def _shrink(self, w: int, h: int, budget: int) -> Size:
        # Step B in exact arithmetic (billing's floats can differ by one token, says the doc):
        # w * shrink / 32 = sqrt(budget * w / h), so its floor is isqrt(budget * w // h), and
        # the side whose floor loses the larger fraction sets the adjusted factor.
        fw = math.isqrt(budget * w // h)
        fh = math.isqrt(budget * h // w)
        p = self.patch_px
        if fw * h <= fh * w:  # width binds: it becomes fw whole patches
            return max(1, p * fw), _scale(h, p * fw, w)
        return _scale(w, p * fh, h), max(1, p * fh)

    def tokens(self, width: int, height: int, detail: str | None = None) -> int:
        w, h = self.target_size(width, height, detail)
        # The multiplier is a decimal in the doc (1.2, 1.62); Fraction keeps ceil exact.
        return math.ceil(self._patches(w, h) * Fraction(str(self.multiplier)))

    def describe(self) -> str:
        parts = []
        for name, spec in self.levels.items():
            budget = f", {spec.budget:,} patches" if spec.budget is not None else ""
            parts.append(f"{name}: fit {spec.max_side}{budget}")
        return (
            f"{self.patch_px}-px patches x{self.multiplier}; "
            + "; ".join(parts)
            + f"; auto = {self.auto}"
        )


@dataclass(frozen=True)
class AnthropicPatches(VisionGeometry):
    """Anthropic's 28-px rule: tokens = ceil(w/28) * ceil(h/28), within two limits.

    Mistral's rules are the same with its own patch and limits (1540 px and 28-px patches for
    Mistral Large 3 and its siblings, 1024 px and 16-px patches for Pixtral).

    An image over `max_long_edge` or `max_tokens` is resized to the largest aspect-preserving
    size meeting both, found as in the doc's reference implementation: a binary search on the
    long edge, the short edge from Python's `round()` (halves to even), and the long edge
    compared once padded to a multiple of 28. The image is then padded (bottom, right) to
    whole patches, which costs nothing extra.
    """

    max_long_edge: int = 1568
    max_tokens: int = 1568
    patch: int = 28

    @property
    def detail_levels(self) -> tuple[str, ...]:
        return ("auto",)

    def _fits(self, long: int, short: int) -> bool:
        p = self.patch
        cost = _ceil_div(long, p) * _ceil_div(short, p)
        return _ceil_div(long, p) * p <= self.max_long_edge and cost <= self.max_tokens

    def target_size(self, width: int, height: int, detail: str | None = None) -> Size:
        _check(width, height)
        self._level(detail)
        long, short = max(width, height), min(width, height)
        if self._fits(long, short):
            return width, height

        def other(edge: int) -> int:
            return max(1, round(short * edge / long))

        lo, hi = 1, long - 1  # cost only grows with the edge, so the search is exact
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._fits(mid, other(mid)):
                lo = mid
            else:
                hi = mid - 1
        return (lo, other(lo)) if width >= height else (other(lo), lo)

    def tokens(self, width: int, height: int, detail: str | None = None) -> int:
        w, h = self.target_size(width, height, detail)
        return _ceil_div(w, self.patch) * _ceil_div(h, self.patch)

    def describe(self) -> str:
        return (
            f"{self.patch}-px patches, ceil(w/{self.patch})*ceil(h/{self.patch}); long edge "
            f"<= {self.max_long_edge} px and <= {self.max_tokens} tokens"
        )


@dataclass(frozen=True)
class GeminiTiles(VisionGeometry):
    """Gemini 2.x: 258 tokens when both sides are <= 384 px, else 258 per 768 x 768 tile.

    No official worked example exists for the tile case, so this follows the
    sentence of the docs literally: ceil(w/768) * ceil(h/768) tiles. With `min_tile_px` set it
    is the Gemini 1.5 variant: the tile side is min(w, h) / 1.5, clamped to
    [min_tile_px, tile_px]. Gemini documents no downscale size, so `target_size` is the input.
    """

    small: int = 384
    tile_px: int = 768
    tokens_per_tile: int = 258
    min_tile_px: int | None = None

    @property
    def detail_levels(self) -> tuple[str, ...]:
        return ("auto",)

    def target_size(self, width: int, height: int, detail: str | None = None) -> Size:
        _check(width, height)
        self._level(detail)
        return width, height

    def tokens(self, width: int, height: int, detail: str | None = None) -> int:
        w, h = self.target_size(width, height, detail)
        if w <= self.small and h <= self.small:
            return self.tokens_per_tile
        tile = Fraction(self.tile_px)
        if self.min_tile_px is not None:
            tile = min(tile, max(Fraction(self.min_tile_px), Fraction(2 * min(w, h), 3)))
        return math.ceil(w / tile) * math.ceil(h / tile) * self.tokens_per_tile

    def describe(self) -> str:
        side = (
            f"min(w,h)/1.5 clamped to {self.min_tile_px}-{self.tile_px} px"
            if self.min_tile_px is not None
            else f"{self.tile_px} px"
        )
        return (
            f"{self.tokens_per_tile} if both sides <= {self.small} px, else "
            f"{self.tokens_per_tile} per tile of {side}"
        )


def _default_resolutions() -> Mapping[str, int]:
    return {"low": 280, "medium": 560, "high": 1120, "ultra_high": 2240}


@dataclass(frozen=True)
class GeminiMediaResolution(VisionGeometry):
    """Gemini 3: a fixed token count per image, chosen by the part's media resolution.

    `detail` takes the level names (`"low"`, `"medium"`, `"high"`, `"ultra_high"`, also spelled
    `"MEDIA_RESOLUTION_HIGH"` as in the API); `"auto"` is `default`. No downscale size is
    documented, so `target_size` is the input.
    """

    levels: Mapping[str, int] = field(default_factory=_default_resolutions, hash=False)
    default: str = "high"

    def __post_init__(self) -> None:
        if self.default not in self.levels:
            raise InvalidConfig(
                f"default={excerpt(self.default)} names no level in {sorted(self.levels)}"
            )
        object.__setattr__(self, "levels", dict(self.levels))  # a private copy; picklable

    @property
    def detail_levels(self) -> tuple[str, ...]:
        return (*self.levels, "auto")

    def _level(self, detail: str | None) -> str:
        if detail is not None:
            detail = detail.strip().lower().removeprefix("media_resolution_")
        return super()._level(detail)

    def target_size(self, width: int, height: int, detail: str | None = None) -> Size:
        _check(width, height)
        self._level(detail)
        return width, height

    def tokens(self, width: int, height: int, detail: str | None = None) -> int:
        _check(width, height)
        level = self._level(detail)
        return self.levels[self.default if level == "auto" else level]

    def describe(self) -> str:
        fixed = ", ".join(f"{name} {n}" for name, n in self.levels.items())
        return f"fixed per image: {fixed}; auto = {self.default}"


@dataclass(frozen=True)
class Undocumented(VisionGeometry):
    """A model with no documented image rule: no resize, and token estimates refuse to guess."""

    documented: ClassVar[bool] = False

    provider: str
    what: str = "image tokens"

    @property
    def detail_levels(self) -> tuple[str, ...]:
        return ("auto",)

    def _level(self, detail: str | None) -> str:
        return "auto"  # nothing is known about levels either; accept what the caller sends

    def target_size(self, width: int, height: int, detail: str | None = None) -> Size:
        _check(width, height)
        return width, height

    def tokens(self, width: int, height: int, detail: str | None = None) -> int:
        raise NoDocumentedRule(
            f"{self.provider} documents no rule for {self.what}; no estimate is made",
            provider=self.provider,
        )

    def describe(self) -> str:
        return f"no documented rule for {self.what}"


VisionTable = tuple[ModelRule[VisionGeometry], ...]
"""A provider's model-keyed image geometry, first match wins (each provider's `VISION`)."""
