"""OpenRouter as data: Chat Completions to many vendors' models, its own media rules, and the
upstream vendors' tables by model.

OpenRouter's model names carry their vendor (`openai/gpt-4o`, `anthropic/claude-sonnet-4.5`,
`google/gemini-2.5-flash`, `meta-llama/llama-3.3-70b-instruct`). What OpenRouter documents
holds for every model (its image, PDF and audio pages, openrouter.ai/docs, read 2026-12); what
differs by model is in `MODELS` (rows of `ModelRules` on vendor-prefixed patterns), and the
vision, text and cost tables are the upstream vendors' own, their patterns given the vendor's
prefix, so that `openai/gpt-4o` is sized and counted as OpenAI's gpt-4o.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, TypeVar

from mediaparts.providers import anthropic, gemini, openai
from mediaparts.providers._budgets._model_rows import ModelRule
from mediaparts.providers._budgets._vision import Undocumented
from mediaparts.providers._kind_rules import FileRules, ImageRules, KindRules
from mediaparts.providers._model_rules import ModelRules
from mediaparts.providers._rules import Rules

__all__ = ["COSTS", "MODELS", "PROVIDER", "RULES", "TEXT", "VISION"]

_T = TypeVar("_T")

_DOCS = "openrouter.ai/docs/guides/overview/multimodal/"

# "Supported image content types are: image/png, image/jpeg, image/webp, image/gif"; "The
# `image_url` can either be a URL or a base64-encoded image"; "The number of images you can
# send in a single request varies per provider and per model" (images page, read 2026-12): no
# count, byte or pixel limit documented (None). `detail` is not documented by OpenRouter: the
# Chat Completions shape's levels (openai-python `ImageURL.detail`), passed to the upstream.
_IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp", "image/gif")
_IMAGES = ImageRules(
    media_types=_IMAGE_TYPES,
    url_types=_IMAGE_TYPES,
    animated=False,
    detail_levels=("auto", "low", "high"),
    source=f"{_DOCS}images (read 2026-12); openai-python chat_completion_content_part_image_param"
    ".py (read 2026-12)",
)

# "Audio files must be base64-encoded - direct URLs are not supported"; "Supported audio
# formats vary by provider. Common formats include: wav, mp3, aiff, aac, ogg, flac, m4a,
# pcm16, pcm24" (audio page, read 2026-12). `input_audio.format` in the openai SDK's types is
# "wav" | "mp3", the two this wire writes: the others are left to a later change. No size
# limit documented (None).
_AUDIO = KindRules(
    media_types=("audio/wav", "audio/mpeg"),
    source=f"{_DOCS}audio (read 2026-12); openai-python "
    "chat_completion_content_part_input_audio_param.py (read 2026-12)",
)

# Video goes in a `video_url` part (video/mp4, mpeg, mov, webm; by URL or data URL; videos page,
# read 2026-12), which the openai SDK's Chat Completions types do not have: refused here, left
# to a later change.
_VIDEO = KindRules(source=f"{_DOCS}videos (read 2026-12)")

# "PDFs can be sent as direct URLs or base64-encoded data URLs in the messages array, via the
# file content type. This feature works on any model on OpenRouter"; a model without native
# file input gets the PDF parsed by OpenRouter (the `file-parser` plugin's engines:
# "cloudflare-ai", "mistral-ocr", "native"; "pdf-text" deprecated). The URL goes in
# `file_data` (the `file_urls` quirk). No page or byte limit documented (None) (pdfs page, read
# 2026-12). Text formats are sent as text, as on OpenAI.
_FILES = FileRules(
    media_types=("application/pdf",),
    url_types=("application/pdf",),
    text_types=openai.RULES.file.text_types,
    source=f"{_DOCS}pdfs (read 2026-12)",
)

# The vendors whose tables OpenRouter's models take, by the prefix of their names.
_UPSTREAM = (("openai", openai.RULES), ("anthropic", anthropic.RULES), ("google", gemini.RULES))


def _dotted(pattern: str) -> Iterable[str]:
    """A pattern, and its spelling with a dot in Claude's version (OpenRouter writes
    `claude-opus-4.7` for Anthropic's `claude-opus-4-7`, read 2026-12 from its model ids)."""
    yield pattern
    if "-4-" in pattern:
        yield pattern.replace("-4-", "-4.")


def _prefixed(
    table: Iterable[ModelRule[_T]], vendor: str, default: bool
) -> tuple[ModelRule[_T], ...]:
    """A vendor's table with its vendor's prefix on each pattern; its default row stays the
    default when `default` (the first vendor's: OpenAI's, what `model=None` gets)."""
    rows = tuple(table)
    marked = next((r for r in rows if r.default), rows[0]) if default and rows else None
    return tuple(
        ModelRule(f"{vendor}/{pattern}", row.rule, default=row is marked)
        for row in rows
        for pattern in _dotted(row.pattern)
    )


def _upstream(field: str) -> tuple[ModelRule[Any], ...]:
    return tuple(
        row
        for i, (vendor, rules) in enumerate(_UPSTREAM)
        for row in _prefixed(getattr(rules, field), vendor, i == 0)
    )


def _chat_text(rows: tuple[ModelRule[Any], ...]) -> tuple[ModelRule[Any], ...]:
    """The text rows, reasoning not counted: this wire sends no reasoning back."""
    return tuple(
        dataclasses.replace(
            row,
            rule=dataclasses.replace(
                row.rule,
                reasoning="not_sent",
                reasoning_source="Chat Completions requests carry no reasoning",
            ),
        )
        for row in rows
    )


# The text models of `MODELS` are known models with no image rule (they take no images).
_TEXT_FAMILIES = ("llama-3-", "llama-3.1-", "llama-3.3-")
VISION = (
    *_upstream("vision"),
    *(
        ModelRule(f"meta-llama/{family}*", Undocumented("Meta", "images for its text models"))
        for family in _TEXT_FAMILIES
    ),
)
COSTS = _upstream("costs")
TEXT = _chat_text(_upstream("text"))
_TABLES_SOURCE = "the upstream vendors' tables ({}), their patterns prefixed with the vendor"

# What models take differently. Anthropic's Messages API takes no audio (its rules, read
# 2026-08). Meta's Llama 3, 3.1 and 3.3 are text models ("Input modalities: Multilingual Text",
# the Llama 3.1 and 3.3 model cards, "text in/text out"; read 2026-12): no images or audio
# (PDFs still, parsed by OpenRouter). A model no row matches takes OpenRouter's own rules.
_META_CARDS = "Meta Llama 3.1 and 3.3 model cards, 'text in/text out' (read 2026-12)"
_TEXT_ONLY = {"image_media_types": (), "image_url_types": (), "audio_media_types": ()}
MODELS: tuple[ModelRule[ModelRules], ...] = (
    ModelRule(
        "anthropic/*",
        ModelRules(
            {"audio_media_types": ()},
            "platform.claude.com/docs/en/build-with-claude/vision: no audio input (read 2026-08)",
        ),
    ),
    *(
        ModelRule(f"meta-llama/{family}*", ModelRules(_TEXT_ONLY, _META_CARDS))
        for family in _TEXT_FAMILIES
    ),
)

RULES = Rules(
    provider="openrouter",
    image=_IMAGES,
    audio=_AUDIO,
    video=_VIDEO,
    file=_FILES,
    models=MODELS,
    models_source=f"{_DOCS}images, audio, pdfs; {_META_CARDS}",
    vision=VISION,
    vision_source=_TABLES_SOURCE.format("; ".join(f"{v}: {r.vision_source}" for v, r in _UPSTREAM)),
    costs=COSTS,
    costs_source=_TABLES_SOURCE.format("; ".join(f"{v}: {r.costs_source}" for v, r in _UPSTREAM)),
    text=TEXT,
    text_source=_TABLES_SOURCE.format("; ".join(f"{v}: {r.text_source}" for v, r in _UPSTREAM)),
    # genai-prices' provider id for OpenRouter (genai_prices/data.py, read 2026-12).
    prices_id="openrouter",
    # No request size is documented on the multimodal pages (None). No batch API: the tags of
    # its OpenAPI document, as far as read, name none (openrouter.ai/docs/api/api-reference,
    # read 2026-12; it has a Files tag, but no page read says a chat request reads a file id).
    source=f"{_DOCS}images, pdfs, audio, videos; openrouter.ai/docs/api/api-reference "
    "(read 2026-12)",
)

# The provider's name, as every module of this package writes it.
PROVIDER = RULES.provider
