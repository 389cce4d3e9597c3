"""Which vision geometry and media token rates each provider and model uses, as dated tables.

Each table is a tuple of `ModelRule`s read by `lookup` (first match wins; `model=None` and
unknown models get the first row). The facts come from the providers' pages, which cite
the providers' pages; every table names its sources and the date they were read.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

from mediaparts._errors import InvalidMedia, MediaError, UnsupportedMediaType
from mediaparts.providers._vision import (
    AnthropicPatches,
    GeminiMediaResolution,
    GeminiTiles,
    ModelRule,
    OpenAIPatches,
    OpenAITiles,
    PatchBudget,
    Undocumented,
    VisionGeometry,
    lookup,
)

__all__ = [
    "ANTHROPIC_VISION",
    "BEDROCK_VISION",
    "COSTS_SOURCES",
    "GEMINI_VISION",
    "MEDIA_COSTS",
    "OPENAI_VISION",
    "VISION_SOURCES",
    "VISION_TABLES",
    "MediaCosts",
    "VisionTable",
    "audio_tokens",
    "image_tokens",
    "media_costs",
    "pdf_tokens",
    "video_tokens",
    "vision_geometry",
]

VisionTable = tuple[ModelRule[VisionGeometry], ...]
T = TypeVar("T")


def _uniform(budget: PatchBudget, multiplier: float) -> OpenAIPatches:
    return OpenAIPatches({"low": budget, "high": budget}, multiplier, auto="high")


_GPT_5_5_HIGH = PatchBudget(2048, 2500)
_GPT_5_5_ORIGINAL = PatchBudget(6000, 10_000)
_EVERY_LEVEL_6144 = PatchBudget(2048, 6144)
_OLD_1536 = PatchBudget(65_535, 1536)  # no pixel box on the older page, only the budget
_GPT_5_TILES = OpenAITiles(base=70, tile=140)
_GPT_4O_TILES = OpenAITiles(base=85, tile=170)
_O_SERIES_TILES = OpenAITiles(base=75, tile=150)

# OpenAI images-vision guide ("Model sizing behavior", "Calculating costs": patch budgets,
# multipliers, tile bases), read 2026-08 (gpt-5.5 `low` from the same
# page's sizing table). Rows after gpt-4.1-mini that the current page drops from its sizing
# table (gpt-5-mini/nano, gpt-4.1-nano, o4-mini: multipliers only) keep the older page's
# 1,536-patch budget. computer-use-preview is from the mid-2025 page. First row = default.
OPENAI_VISION: VisionTable = (
    ModelRule(
        "gpt-5.6*",
        OpenAIPatches(
            {"low": PatchBudget(512), "high": _GPT_5_5_HIGH, "original": PatchBudget(65_535)},
            1.2,
            auto="original",
        ),
    ),
    ModelRule(
        "gpt-5.5*",
        OpenAIPatches(
            {"low": PatchBudget(512), "high": _GPT_5_5_HIGH, "original": _GPT_5_5_ORIGINAL},
            1.2,
            auto="original",
        ),
    ),
    # gpt-5.4, -mini, -nano: `low` has the larger 6,144 budget, so it can cost more than `high`.
    ModelRule(
        "gpt-5.4*",
        OpenAIPatches(
            {"low": _EVERY_LEVEL_6144, "high": _GPT_5_5_HIGH, "original": _GPT_5_5_ORIGINAL},
            1.2,
            auto="high",
        ),
    ),
    ModelRule("gpt-5.2*", _uniform(_EVERY_LEVEL_6144, 1.2)),
    ModelRule("gpt-4.1-mini*", _uniform(_EVERY_LEVEL_6144, 1.62)),
    ModelRule("gpt-5.1*", _GPT_5_TILES),
    ModelRule("gpt-5-mini*", _uniform(_OLD_1536, 1.2)),
    ModelRule("gpt-5-nano*", _uniform(_OLD_1536, 1.5)),
    ModelRule("gpt-4.1-nano*", _uniform(_OLD_1536, 2.46)),
    ModelRule("o4-mini*", _uniform(_OLD_1536, 1.72)),
    ModelRule("gpt-5", _GPT_5_TILES),
    ModelRule("gpt-5-*", _GPT_5_TILES),
    ModelRule("gpt-4o-mini*", OpenAITiles(base=2833, tile=5667)),
    ModelRule("gpt-4o*", _GPT_4O_TILES),
    ModelRule("chatgpt-4o*", _GPT_4O_TILES),
    ModelRule("gpt-4.1*", _GPT_4O_TILES),
    ModelRule("gpt-4.5*", _GPT_4O_TILES),
    ModelRule("o1*", _O_SERIES_TILES),
    ModelRule("o3*", _O_SERIES_TILES),
    ModelRule("computer-use-preview*", OpenAITiles(base=65, tile=129)),
    # Input fidelity "high" adds 4,160 (square) or 6,240 tokens on top; not modelled here.
    ModelRule("gpt-image-1", OpenAITiles(base=65, tile=129, short_side=512)),
)

_CLAUDE_STANDARD = AnthropicPatches(max_long_edge=1568, max_tokens=1568)
_CLAUDE_HIGH_RES = AnthropicPatches(max_long_edge=2576, max_tokens=4784)

# Anthropic vision and vision-coordinates pages (28-px patches; standard tier 1568 px / 1568
# tokens; high-resolution tier 2576 px / 4784 tokens for "Claude 4.7 and later"), read
# 2026-08. The first row, the default for model=None and unknown names, is the
# standard tier: every current model honours it, and an image fitted to it is never refused,
# as with the 5 MB default. Old names (claude-3-5-sonnet, claude-3-7-sonnet) come before the
# version patterns so that "3-7" is not read as 4.7 or later.
ANTHROPIC_VISION: VisionTable = (
    ModelRule("claude-3*", _CLAUDE_STANDARD),
    ModelRule("claude-*-4-[7-9]*", _CLAUDE_HIGH_RES),
    ModelRule("claude-opus-[5-9]*", _CLAUDE_HIGH_RES),
    ModelRule("claude-sonnet-[5-9]*", _CLAUDE_HIGH_RES),
    ModelRule("claude-haiku-[5-9]*", _CLAUDE_HIGH_RES),
    ModelRule("claude-*", _CLAUDE_STANDARD),
)

# Gemini API tokens, image-understanding and media-resolution pages, read 2026-08.
# Gemini 3 per-image counts come from secondary summaries of the media-resolution
# page: confirm them before relying on them. First row (model=None) = Gemini 3.
GEMINI_VISION: VisionTable = (
    ModelRule("gemini-3*", GeminiMediaResolution()),
    ModelRule("gemini-2*", GeminiTiles()),
    ModelRule("gemini-1.5*", GeminiTiles(min_tile_px=256)),
)

# Bedrock Converse (botocore bedrock-runtime service model, read 2026-08): Claude model ids
# (`anthropic.claude-...`, `us.anthropic.claude-...`, ARNs) follow Anthropic's rules; no other
# model family documents an image rule, so those get `Undocumented`.
BEDROCK_VISION: VisionTable = (
    *(ModelRule(f"*{row.pattern}", row.rule) for row in ANTHROPIC_VISION),
    ModelRule("*", Undocumented("Bedrock", "image tokens of non-Claude models")),
)

VISION_TABLES: Mapping[str, VisionTable] = MappingProxyType(
    {
        "openai": OPENAI_VISION,
        "openai-responses": OPENAI_VISION,
        "anthropic": ANTHROPIC_VISION,
        "gemini": GEMINI_VISION,
        "bedrock": BEDROCK_VISION,
    }
)


# Where each provider's model tables come from, for docs/providers.md (the comments above each
# table say more).
_OPENAI_VISION_SOURCE = (
    "developers.openai.com/api/docs/guides/images-vision, model sizing behavior and calculating "
    "costs; computer-use-preview from the mid-2025 page (read 2026-08)"
)
_OPENAI_COSTS_SOURCE = (
    "developers.openai.com/api/docs/guides/images-vision and file-inputs: no audio, video or "
    "PDF token formula documented (read 2026-08)"
)
VISION_SOURCES: Mapping[str, str] = MappingProxyType(
    {
        "openai": _OPENAI_VISION_SOURCE,
        "openai-responses": _OPENAI_VISION_SOURCE,
        "anthropic": "platform.claude.com/docs/en/build-with-claude/vision and "
        "vision-coordinates (read 2026-08)",
        "gemini": "ai.google.dev/gemini-api/docs/tokens, image-understanding and "
        "media-resolution, the last from secondary summaries (read 2026-08)",
        "bedrock": "Anthropic's rules for Claude model ids; botocore bedrock-runtime "
        "service-2.json documents none for other models (read 2026-08)",
    }
)
COSTS_SOURCES: Mapping[str, str] = MappingProxyType(
    {
        "openai": _OPENAI_COSTS_SOURCE,
        "openai-responses": _OPENAI_COSTS_SOURCE,
        "anthropic": "platform.claude.com pdf-support: no PDF token formula documented "
        "(read 2026-08)",
        "gemini": "ai.google.dev/gemini-api/docs/audio, tokens, video-understanding, "
        "document-processing, media-resolution (read 2026-08)",
        "bedrock": "botocore bedrock-runtime service-2.json: no token formula (read 2026-08)",
    }
)


@dataclass(frozen=True)
class MediaCosts:
    """Token rates of audio, video and PDF input; None where no rule is documented.

    Attributes:
        provider: The provider's display name, for messages.
        audio_per_second: Tokens per second of audio.
        video_per_second: Tokens per second of video frames; the audio track is added at
            `audio_per_second` when the video has one.
        pdf_per_page: Tokens per PDF page.
        not_accepted: Kinds (`"audio"`, `"video"`, `"pdf"`) the API does not take at all.
    """

    provider: str
    audio_per_second: int | None = None
    video_per_second: int | None = None
    pdf_per_page: int | None = None
    not_accepted: frozenset[str] = frozenset()

    def _rate(self, kind: str, rate: int | None) -> int:
        if kind in self.not_accepted:
            raise UnsupportedMediaType(
                f"{self.provider} does not accept {kind} input", provider=self.provider
            )
        if rate is None:
            raise MediaError(
                f"{self.provider} documents no token rule for {kind}; no estimate is made",
                provider=self.provider,
            )
        return rate

    def audio_tokens(self, seconds: float) -> int:
        """Return the tokens of `seconds` of audio, rounded up."""
        return math.ceil(_nonnegative(seconds) * self._rate("audio", self.audio_per_second))

    def video_tokens(self, seconds: float, *, has_audio: bool = True) -> int:
        """Return the tokens of `seconds` of video, with its audio track unless told otherwise."""
        frames = math.ceil(_nonnegative(seconds) * self._rate("video", self.video_per_second))
        return frames + (self.audio_tokens(seconds) if has_audio else 0)

    def pdf_tokens(self, pages: int) -> int:
        """Return the tokens of a PDF of `pages` pages (the page images, not extracted text)."""
        return int(_nonnegative(pages)) * self._rate("pdf", self.pdf_per_page)


def _nonnegative(value: float) -> float:
    if not value >= 0:  # also refuses NaN
        raise InvalidMedia(f"a duration or page count must be >= 0, got {value!r}")
    return value


_OPENAI_COSTS = (ModelRule("*", MediaCosts("OpenAI", not_accepted=frozenset({"video"}))),)
# The Responses API has no audio input part either (openai-python 3.54, read 2026-08).
_RESPONSES_COSTS = (
    ModelRule("*", MediaCosts("OpenAI Responses", not_accepted=frozenset({"audio", "video"}))),
)

# Token rates, read 2026-08. Gemini: audio 32/s (audio page);
# video 263/s for the frames on the tokens page, plus 32/s for the audio track: 295/s, which
# is the video page's "approximately 300 tokens per second" (the two pages agree read this way);
# PDF pages 258 (document page), 560 by default on Gemini 3 (media-resolution page, from
# secondary summaries: confirm). OpenAI, Anthropic and Bedrock document no audio, video or
# PDF token formula (PDF pages cost their text plus an image each, sizes undocumented).
MEDIA_COSTS: Mapping[str, tuple[ModelRule[MediaCosts], ...]] = MappingProxyType(
    {
        "openai": _OPENAI_COSTS,
        "openai-responses": _RESPONSES_COSTS,
        "anthropic": (
            ModelRule("*", MediaCosts("Anthropic", not_accepted=frozenset({"audio", "video"}))),
        ),
        "gemini": (
            ModelRule("gemini-3*", MediaCosts("Gemini", 32, 263, pdf_per_page=560)),
            ModelRule("*", MediaCosts("Gemini", 32, 263, pdf_per_page=258)),
        ),
        "bedrock": (ModelRule("*", MediaCosts("Bedrock")),),
    }
)


def _table(tables: Mapping[str, T], provider: str) -> T:
    try:
        return tables[provider]
    except KeyError:
        known = ", ".join(sorted(tables))
        raise MediaError(f"unknown provider {provider!r}; known: {known}") from None


def vision_geometry(provider: str, model: str | None = None) -> VisionGeometry:
    """Return the image geometry a provider applies for a model.

    Args:
        provider: `"openai"`, `"openai-responses"`, `"anthropic"`, `"gemini"` or `"bedrock"`.
        model: The model name; None for the provider's default row.

    Returns:
        The geometry (resize target and token formula).

    Raises:
        MediaError: The provider name is unknown.
    """
    return lookup(_table(VISION_TABLES, provider), model)


def image_tokens(
    provider: str, width: int, height: int, model: str | None = None, detail: str | None = None
) -> int:
    """Return the tokens an upright image of `width` x `height` costs on a provider and model.

    Raises:
        InvalidMedia: The size is not positive, or `detail` is not a level of this model.
        MediaError: The provider documents no image rule for the model.
    """
    return vision_geometry(provider, model).tokens(width, height, detail)


def media_costs(provider: str, model: str | None = None) -> MediaCosts:
    """Return the audio, video and PDF token rates of a provider and model."""
    return lookup(_table(MEDIA_COSTS, provider), model)


def audio_tokens(provider: str, seconds: float, model: str | None = None) -> int:
    """Return the tokens of `seconds` of audio (Gemini: 32 per second, rounded up).

    Raises:
        UnsupportedMediaType: The provider takes no audio (Anthropic).
        MediaError: No rule is documented (OpenAI, Bedrock), or the provider is unknown.
    """
    return media_costs(provider, model).audio_tokens(seconds)


def video_tokens(
    provider: str, seconds: float, model: str | None = None, *, has_audio: bool = True
) -> int:
    """Return the tokens of `seconds` of video (Gemini: 263 per second plus 32 for audio).

    Raises:
        UnsupportedMediaType: The provider takes no video (OpenAI, Anthropic).
        MediaError: No rule is documented (Bedrock), or the provider is unknown.
    """
    return media_costs(provider, model).video_tokens(seconds, has_audio=has_audio)


def pdf_tokens(provider: str, pages: int, model: str | None = None) -> int:
    """Return the tokens of the page images of a PDF (Gemini: 258 per page, 560 on Gemini 3).

    Raises:
        MediaError: No rule is documented (OpenAI, Anthropic, Bedrock), or unknown provider.
    """
    return media_costs(provider, model).pdf_tokens(pages)
