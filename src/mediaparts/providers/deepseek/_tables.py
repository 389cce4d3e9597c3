"""DeepSeek as data: accepted media, limits, and which models take images.

Read 2026-12 from api-docs.deepseek.com (stored copies of its guides; the live site was not
reachable from here): the Vision guide (guides/vision.md) and the Files API guide
(guides/files_api.md).
"""

from __future__ import annotations

from mediaparts.providers._budgets._media_rates import MediaRates, RatesTable
from mediaparts.providers._budgets._text import TextRule, TextTable
from mediaparts.providers._budgets._vision import ModelRule
from mediaparts.providers._model_rules import ModelRules
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._wire._rendering import TEXT_TYPES

__all__ = ["COSTS", "IMAGE", "MODELS", "PROVIDER", "QUIRKS", "RULES", "TEXT"]

PROVIDER = "deepseek"

_VISION = "api-docs.deepseek.com/guides/vision (read 2026-12)"
_FILES = "api-docs.deepseek.com/guides/files_api (read 2026-12)"
_THINKING = "api-docs.deepseek.com/guides/thinking_mode (read 2026-12)"
_TOKENS = "api-docs.deepseek.com/quick_start/token_usage (read 2026-12)"

# The Vision guide (read 2026-12): "The `deepseek-flash` model accepts images alongside text";
# "Supported image formats: JPEG, PNG, GIF, and WebP. The format is detected from the actual
# file content". Inline images go as `image_url` data URLs and "count toward the 48 MiB
# request body limit"; an external image URL is downloaded by DeepSeek (at most 8192
# characters, the image file at most 32 MiB, fetched within 60 seconds: the same guide).
# The Files API guide names "the 32 MiB per-image inline limit" (read as the image's raw
# bytes: neither page says base64). Animated GIFs: not documented, sent as stills.
# Not encoded, so None: the guide's "Limits" section could not be read here (third-party
# restatements of it give 600 images a request and 8192 px a side, 4096 px from 15 images
# on). `detail`: not on the part of DeepSeek's page read, so no levels are listed.
_IMAGE_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")
IMAGE = ImageRules(
    media_types=_IMAGE_TYPES,
    url_types=_IMAGE_TYPES,
    max_bytes=32 * 2**20,
    animated=False,
    source=f"{_VISION}; {_FILES}",
)

# No image token formula is on the pages read: no vision table, so image estimates raise
# NoDocumentedRule and counts label them unknown.
COSTS: RatesTable = (
    ModelRule("*", MediaRates("DeepSeek", not_accepted=frozenset({"audio", "video", "pdf"}))),
)

# Which models take images. The Vision guide names `deepseek-flash` (DeepSeek-V4.1-Flash) and
# its retired alias `deepseek-v4-flash-vision-exp` ("still accepted, but the model has been
# retired and its requests are served by the latest Flash model"), and no other model. The
# base rules (model=None, and a name no row matches) are the endpoint's, as `deepseek-flash`
# takes them. DeepSeek's other model names take no images: `deepseek-v4-pro`, and the legacy
# aliases `deepseek-chat` and `deepseek-reasoner`. `deepseek-v4-flash` has no row: a
# third-party copy of DeepSeek's pricing page says it is now served by V4.1-Flash, which the
# guides read do not say either way.
_TEXT_ONLY = ModelRules(
    {"image_media_types": (), "image_url_types": ()},
    f"{_VISION}: only deepseek-flash and its alias deepseek-v4-flash-vision-exp take images",
)
MODELS: tuple[ModelRule[ModelRules], ...] = (
    ModelRule("deepseek-v4-pro*", _TEXT_ONLY),
    ModelRule("deepseek-chat", _TEXT_ONLY),
    ModelRule("deepseek-reasoner", _TEXT_ONLY),
)

# Text: "1 English character ≈ 0.3 token. 1 Chinese character ≈ 0.6 token" (Token & Token
# Usage, read 2026-12): 1/0.3 characters a token for English (the page's tokenizer is a
# download, not a package). Reasoning: thinking mode is on by default and returns
# `reasoning_content` beside `content`; between two user messages, a turn without tool calls
# need not send it back (it is ignored), a turn with tool calls must send it back in every
# later request, or the API answers 400 (Thinking Mode guide, read 2026-12). Counted, the
# larger reading: the ignored turns' reasoning is counted too.
TEXT: TextTable = (
    ModelRule(
        "*",
        TextRule(
            chars_per_token=1 / 0.3,
            approximation=f"about 0.3 tokens an English character, 0.6 a Chinese one ({_TOKENS})",
            reasoning="counted",
            reasoning_source=f"{_THINKING}: reasoning_content of turns with tool calls is sent "
            "back and read; of other turns, ignored (counted here too)",
        ),
    ),
)

# The wire's quirk for DeepSeek: its reasoning comes and goes back in `reasoning_content`
# (the Thinking Mode guide, read 2026-12). No `prompt_cache_breakpoint`: DeepSeek caches
# prompt prefixes by itself (no breakpoint is documented).
QUIRKS = {"reasoning_field": "reasoning_content"}

RULES = Rules(
    provider=PROVIDER,
    image=IMAGE,
    audio=KindRules(source=f"{_VISION}: images only, no audio input"),
    video=KindRules(source=f"{_VISION}: images only, no video input"),
    # Documents are uploaded and referenced by `file_id` for DeepSeek's document parsing (the
    # Files API guide, read 2026-12), not sent inline: none inline here. Text files go as text.
    file=FileRules(text_types=TEXT_TYPES, source=f"{_FILES}: no inline documents"),
    # "the 48 MiB request body limit" (Vision guide, read 2026-12).
    max_request_bytes=48 * 2**20,
    vision_source=f"{_VISION}: no image token formula",
    costs=COSTS,
    costs_source=f"{_VISION}: no media token rates",
    text=TEXT,
    text_source=f"{_TOKENS}; {_THINKING}",
    models=MODELS,
    models_source=_VISION,
    source=_VISION,
)
