"""xAI (Grok) on Chat Completions as data: accepted media, limits, models that take images.

Read 2026-12 from docs.x.ai (the stored copies of its pages; the live site was not reachable
from here) and xai-sdk-python (4dab6a4, 2026-08-18).
"""

from __future__ import annotations

from mediaparts.providers._budgets._media_rates import MediaRates, RatesTable
from mediaparts.providers._budgets._text import TextRule, TextTable
from mediaparts.providers._budgets._vision import ModelRule
from mediaparts.providers._model_rules import ModelRules
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._wire._rendering import TEXT_TYPES

__all__ = [
    "COSTS",
    "IMAGE",
    "IMAGE_SOURCE",
    "MODELS",
    "PROVIDER",
    "QUIRKS",
    "RULES",
    "TEXT",
]

PROVIDER = "xai"

IMAGE_SOURCE = "docs.x.ai/developers/model-capabilities/images/understanding (read 2026-12)"

# "Image input general limits" (docs.x.ai/developers/model-capabilities/images/understanding,
# read 2026-12): "Maximum image size: 20MiB", "Maximum number of images: No limit",
# "Supported image file types: jpg/jpeg or png". The page does not say whether the 20 MiB is
# the file or its base64 text: read as the file's raw bytes. "The image_url.url can also be
# the image's url on the Internet" (xAI fetches it). `detail`: "auto", "low", "high" (same
# page; xai-sdk chat.py `image(detail=...)`, read 2026-12). Conflicts: the older guide
# (docs.x.ai/docs/guides/image-understanding) and xai-sdk's `image()` docstring say 10 MiB;
# the current page wins. No pixel limit is documented (None).
_IMAGE_TYPES = ("image/jpeg", "image/png")
IMAGE = ImageRules(
    media_types=_IMAGE_TYPES,
    url_types=_IMAGE_TYPES,
    max_bytes=20 * 2**20,
    max_count=None,
    animated=False,
    detail_levels=("auto", "low", "high"),
    source=IMAGE_SOURCE,
)

# xAI documents no image token formula ("Image tokens: Visual content analysis", the models
# page's pricing notes, read 2026-12): no vision table, so image estimates raise
# NoDocumentedRule and counts label them unknown. Nor audio, video or PDF token rates; Chat
# Completions takes none of those here.
COSTS: RatesTable = (
    ModelRule("*", MediaRates("xAI", not_accepted=frozenset({"audio", "video", "pdf"}))),
)

_MODELS_PAGE = "docs.x.ai/developers/models (read 2026-12)"

_RECORDED = (
    "api.x.ai traffic recorded in charmbracelet/fantasy's provider test cassettes "
    "(xai-grok-code-fast/tool_streaming.yaml, read 2026-12)"
)
# Reasoning: xAI's Chat Completions returns a reasoning model's thoughts as
# `reasoning_content` (`delta.reasoning_content` when streamed), and a request carrying it back
# on the assistant message is answered (recorded traffic above); the pages read document
# neither. The wire's quirk says so.
QUIRKS = {"reasoning_field": "reasoning_content"}

# Text: xAI documents no approximation on the pages read (its token counts come back in
# `usage`); the common rule of thumb, said so. What reasoning sent back costs: not documented.
TEXT: TextTable = (
    ModelRule(
        "*",
        TextRule(
            approximation="about 4 characters a token (xAI documents none; the common rule of "
            "thumb)",
            reasoning="unknown",
            reasoning_source=f"reasoning_content is sent back ({_RECORDED}); what it costs is "
            "not documented",
        ),
    ),
)
# Which models take images. The models page (read 2026-12) lists grok-4.20 (reasoning,
# non-reasoning, multi-agent) and grok-4-1-fast (reasoning, non-reasoning) as "text, image ->
# text": the base rules (model=None, and a name no row matches) are theirs. Its 2024-12
# version (the same address, read 2026-12 in its archived copy) lists grok-2-vision-1212 and
# grok-vision-beta as taking images and grok-2-1212 and grok-beta as text only. Models whose
# modalities were not on the pages read (grok-code-fast-1, grok-3, grok-4-0709) have no row.
_TAKES_IMAGES = ModelRules({}, f"{_MODELS_PAGE}: text, image -> text")
_TEXT_ONLY = ModelRules(
    {"image_media_types": (), "image_url_types": ()},
    "docs.x.ai/docs/models, its 2024-12 version (read 2026-12): text input only",
)
MODELS: tuple[ModelRule[ModelRules], ...] = (
    ModelRule("grok-4.20*", _TAKES_IMAGES),
    ModelRule("grok-4-1-fast*", _TAKES_IMAGES),
    ModelRule("grok-2-vision*", _TAKES_IMAGES),
    ModelRule("grok-vision-beta", _TAKES_IMAGES),
    ModelRule("grok-2-1212", _TEXT_ONLY),
    ModelRule("grok-beta", _TEXT_ONLY),
)

RULES = Rules(
    provider=PROVIDER,
    image=IMAGE,
    # xAI documents no audio or video input for its chat models (models page: "text, image ->
    # text" for every Grok chat model; read 2026-12).
    audio=KindRules(source="docs.x.ai/developers/models (read 2026-12): no audio input"),
    video=KindRules(source="docs.x.ai/developers/models (read 2026-12): no video input"),
    # Documents go to the Responses API as `input_file` attachments (docs.x.ai/developers/
    # model-capabilities/files/chat-with-files, read 2026-12); Chat Completions, "offered as a
    # legacy endpoint", documents no file part. Text files are sent as text.
    file=FileRules(
        text_types=TEXT_TYPES,
        source="docs.x.ai/developers/model-capabilities/legacy/chat-completions and files/"
        "chat-with-files (read 2026-12): no file part on Chat Completions",
    ),
    vision_source="docs.x.ai/developers/models (read 2026-12): no image token formula",
    costs=COSTS,
    costs_source="docs.x.ai/developers/models (read 2026-12): no media token rates",
    text=TEXT,
    text_source=f"{_MODELS_PAGE}: no text rule documented",
    models=MODELS,
    models_source=_MODELS_PAGE,
    # No request size is documented (None).
    source=IMAGE_SOURCE,
)
