"""Azure OpenAI (Chat Completions) as data: what differs from OpenAI's rules, with sources.

Azure serves OpenAI's models under deployments the user names; a deployment takes the rules
of the model it serves (`Provider.with_deployments`), and the model tables (vision, text,
costs) are OpenAI's, whose patterns are model names. Every value below was read from
Microsoft's pages (github.com/MicrosoftDocs/azure-ai-docs, `articles/ai-foundry/openai/`,
read 2026-12; each page's `ms.date` in brackets).
"""

from __future__ import annotations

import dataclasses

from mediaparts.providers import openai
from mediaparts.providers._budgets._model_rows import ModelRule
from mediaparts.providers._files import FileStoreRules
from mediaparts.providers._model_rules import ModelRules
from mediaparts.providers._rules import Rules

__all__ = [
    "AZURE_FILE_STORE",
    "IMAGE_RULES",
    "IMAGE_SOURCE",
    "MODELS",
    "MODELS_SOURCE",
    "PROVIDER",
    "RULES",
    "STORE",
]

_DOCS = "learn.microsoft.com/azure/ai-foundry/openai/"

# "For vision-enabled models, images in PNG (.png), JPEG (.jpeg and .jpg), WEBP (.webp) are
# supported" (how-to/responses "Image input" [01/14/2026]): no GIF, which OpenAI takes. The
# vision pages name no types; this list is the one Azure gives, for both APIs.
_IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp")

IMAGE_SOURCE = (
    f"{_DOCS}concepts/gpt-with-vision [01/30/2026], how-to/gpt-with-vision [01/29/2026], "
    "how-to/responses [01/14/2026], quotas-limits [02/17/2026] (read 2026-12)"
)

# concepts/gpt-with-vision, "Input limitations": "The maximum size for input images is restricted
# to 50 MB" (how measured is not said: read as the image's own bytes, MB as 10^6, the smaller
# reading); "When you upload images in Microsoft Foundry portal or the API, there is a limit of
# 10 images per chat call" (how-to/gpt-with-vision says the same: "a limit of 10 images per chat
# request"). quotas-limits gives GPT-4o and GPT-4.1 more: "maximum images per request (number of
# images in the messages array or conversation history) | 50", a per-model rule (`MODELS`).
# Images by URL: "either a valid HTTP or HTTPS URL to an image, or a base-64-encoded image"
# (how-to/gpt-with-vision). `detail`: "Choose one of three values, `low`, `high`, or `auto`"
# (the same page): no `original`. No pixel limit is documented (None).
IMAGE_RULES = dataclasses.replace(
    openai.RULES.image,
    media_types=_IMAGE_TYPES,
    url_types=_IMAGE_TYPES,
    max_bytes=50_000_000,
    measure="raw",
    max_count=10,
    detail_levels=("auto", "low", "high"),
    source=IMAGE_SOURCE,
)

# The GPT-4o and GPT-4.1 families' 50 images (quotas-limits [02/17/2026], read 2026-12); the
# patterns are model names, as OpenAI's tables write them (a deployment takes them through
# `with_deployments`, or by being named after its model).
MODELS_SOURCE = f"{_DOCS}quotas-limits [02/17/2026] (read 2026-12)"
MODELS: tuple[ModelRule[ModelRules], ...] = tuple(
    ModelRule(pattern, ModelRules({"image_max_count": 50}, MODELS_SOURCE))
    for pattern in ("gpt-4o*", "gpt-4.1*")
)

RULES: Rules = dataclasses.replace(
    openai.RULES,
    provider="azure-openai",
    # genai-prices' provider id for Azure OpenAI (genai_prices/data.py, read 2026-12).
    prices_id="azure",
    image=IMAGE_RULES,
    models=MODELS,
    models_source=MODELS_SOURCE,
    # Audio goes to the gpt-4o audio models' deployments as OpenAI's `input_audio` (base64 wav
    # or mp3; audio-completions-python [1/21/2025]); "Message size for audio files | 20 MB"
    # (quotas-limits [02/17/2026]), measured how not said: read as the audio's own bytes.
    audio=dataclasses.replace(
        openai.RULES.audio,
        max_bytes=20_000_000,
        source=f"{_DOCS}includes/audio-completions-python [1/21/2025], quotas-limits "
        "[02/17/2026] (read 2026-12)",
    ),
    # No video input: Chat Completions has no part for it (OpenAI's rules, kept as they are).
    # PDF input is documented for the Responses API only ("Models with vision capabilities
    # support PDF input … as Base64-encoded data or as file IDs", how-to/responses "File input"
    # [01/14/2026]); the Chat Completions pages document no `file` part, so PDFs are refused
    # here (`azure-openai-responses` takes them). Text formats are sent as text, as OpenAI's.
    file=dataclasses.replace(
        openai.RULES.file,
        media_types=(),
        max_bytes=None,
        max_request_pages=None,
        max_request_bytes=None,
        source=f"{_DOCS}how-to/responses [01/14/2026], how-to/chatgpt (read 2026-12)",
    ),
    # No request size is documented (OpenAI's 512 MB is OpenAI's); the quotas page's "Message
    # character limit | 1,048,576" counts characters of a message, not the request's bytes.
    max_request_bytes=None,
    # "Max input file size | 200 MB", "Max requests per file | 100,000" (global-batch-limits);
    # MB read as 10^6.
    batch_max_requests=100_000,
    batch_max_bytes=200_000_000,
    batch_source=f"{_DOCS}includes/global-batch-limits, how-to/batch [01/27/2026] (read 2026-12)",
    source=f"{_DOCS}quotas-limits [02/17/2026] (read 2026-12)",
)

# The provider's name, as every module of this package writes it.
PROVIDER = RULES.provider

# Azure's file store, the resource's own: "A `purpose` of `user_data` is currently not
# supported. As a temporary workaround you will need to set purpose to `assistants`" (how-to/
# responses, "File input" [01/14/2026]); "Maximum file size for assistants and fine-tuning |
# 512 MB via the API" (quotas-limits [02/17/2026]). Files are kept until deleted. The Responses
# API reads a PDF by `input_file.file_id` ("Upload PDF and analyze"); images by id are not
# documented. Azure's Chat Completions documents no file part: `azure-openai` has no file API
# (uploads for the Responses API go through `azure-openai-responses`).
STORE = "azure-openai"
AZURE_FILE_STORE = FileStoreRules(
    store=STORE,
    max_bytes=512 * 2**20,
    kinds=("file",),
    media_types={"file": ("application/pdf",)},
    purposes={"file": "assistants"},
    source=f"{_DOCS}how-to/responses [01/14/2026], quotas-limits [02/17/2026] (read 2026-12)",
)
