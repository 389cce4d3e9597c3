"""Ollama's `/v1/chat/completions` as data: what the endpoint takes, and which models see.

Read 2026-12 from ollama/ollama (fb30760, 2026-08-21): docs/api/openai-compatibility.mdx,
docs/capabilities/vision.mdx, openai/openai.go (how `/v1` reads a request), server/images.go
and server/prompt.go, and the integration tests' model lists.
"""

from __future__ import annotations

from mediaparts.providers._budgets._media_rates import MediaRates, RatesTable
from mediaparts.providers._budgets._text import TextRule, TextTable
from mediaparts.providers._budgets._vision import ModelRule
from mediaparts.providers._model_rules import ModelRules
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._wire._rendering import TEXT_TYPES

__all__ = ["COSTS", "IMAGE", "MODELS", "PROVIDER", "QUIRKS", "RULES", "TEXT"]

PROVIDER = "ollama"

_COMPAT = "ollama docs/api/openai-compatibility.mdx (read 2026-12)"
_SOURCE = "ollama openai/openai.go (read 2026-12)"

# Images: "Base64 encoded image" checked, "Image URL" unchecked (openai-compatibility.mdx,
# read 2026-12); `/v1` answers an http(s) URL with "image URLs are not currently supported,
# please use base64 encoded data instead", and takes a data URI of image/jpeg, image/jpg,
# image/png or image/webp only (anything else: "invalid image input"; openai/openai.go
# `decodeImageURL`, read 2026-12): no GIF. `image_url` may be the OpenAI object or a bare
# string; its `detail` is not read (only `url`), so no levels. No byte, pixel or count limit
# is documented: the model's own processor resizes (None). The mllama family
# (llama3.2-vision) takes one image per message on `/api/chat` (server/prompt.go); `/v1`
# makes each content part a message of its own, so that limit does not apply there.
_IMAGE_TYPES = ("image/jpeg", "image/png", "image/webp")
IMAGE = ImageRules(
    media_types=_IMAGE_TYPES,
    animated=False,
    source=f"{_COMPAT}; {_SOURCE}",
)

# A local model's image tokens are its own processor's: nothing is documented to count by (no
# vision table: image estimates raise NoDocumentedRule, counts label them unknown).
COSTS: RatesTable = (
    ModelRule("*", MediaRates("Ollama", not_accepted=frozenset({"audio", "video", "pdf"}))),
)

# What the model decides. Ollama refuses media a model lacks the capability for (`vision`,
# `audio`: server/images.go `CheckCapabilities`, read 2026-12); the base rules (model=None,
# and a model no row matches) are the endpoint's, for a vision model: a text model named here
# refuses images before the request is sent. Vision models: gemma4, qwen3.6, qwen3.5,
# nemotron3, ministral-3 (the release tests' vision lists, integration/reg_release_test.go),
# gemma3, llama3.2-vision, minicpm-v (integration/vision_test.go), llama4, qwen2.5vl,
# mistral-small3.1 (Ollama blog "Ollama's new engine for multimodal models", 2025-05-15),
# qwen3-vl, mistral-small3.2, granite3.2-vision, llava, llava-llama3, llava-phi3, bakllava,
# moondream (the library inventory, integration/reg_library_test.go, whose names say vision;
# their pages were not read). Text models: gemma3's 270m and 1b sizes (Gemma 3's model card:
# the 1B model is text-only; not re-read here), Llama 3, 3.1 and 3.2's 1B and 3B, Qwen 2.5
# and 3 (their vision models are qwen2.5vl and qwen3-vl), gpt-oss and deepseek-r1 (text
# models per their makers; not re-read here). Order matters: first match wins.
_VISION_MODEL = ModelRules({}, f"{_COMPAT}: a vision model takes the endpoint's images")
_TEXT_MODEL = ModelRules(
    {"image_media_types": ()},
    "ollama server/images.go (read 2026-12): a model without the vision capability takes no images",
)
MODELS: tuple[ModelRule[ModelRules], ...] = (
    ModelRule("gemma3:270m*", _TEXT_MODEL),
    ModelRule("gemma3:1b*", _TEXT_MODEL),
    *(
        ModelRule(pattern, _VISION_MODEL)
        for pattern in (
            "gemma3*",
            "gemma4*",
            "llama3.2-vision*",
            "llama4*",
            "qwen2.5vl*",
            "qwen3-vl*",
            "qwen3.5*",
            "qwen3.6*",
            "minicpm-v*",
            "mistral-small3.1*",
            "mistral-small3.2*",
            "ministral-3*",
            "granite3.2-vision*",
            "nemotron3*",
            "llava*",
            "bakllava*",
            "moondream*",
        )
    ),
    *(
        ModelRule(pattern, _TEXT_MODEL)
        for pattern in (
            "llama3",
            "llama3:*",
            "llama3.1*",
            "llama3.2",
            "llama3.2:*",
            "qwen2.5",
            "qwen2.5:*",
            "qwen3",
            "qwen3:*",
            "gpt-oss*",
            "deepseek-r1*",
        )
    ),
)

# Text: each model has its own tokenizer, and Ollama documents no approximation: the common
# rule of thumb, said so. Reasoning: `/v1` returns a thinking model's thoughts in the message's
# `reasoning` field (and `delta.reasoning` when streamed) and reads `reasoning` of an
# assistant message back as its thinking (openai/openai.go `Message.Reasoning`,
# `Delta.Reasoning`, read 2026-12); what the model's template keeps of it is the model's.
TEXT: TextTable = (
    ModelRule(
        "*",
        TextRule(
            approximation="about 4 characters a token (Ollama documents none: each model "
            "tokenizes its own way; the common rule of thumb)",
            reasoning="unknown",
            reasoning_source=f"{_SOURCE}: reasoning is sent back; the model's template decides "
            "what of it the prompt keeps",
        ),
    ),
)

# The wire's quirk for Ollama: reasoning in the message's `reasoning` field, both ways.
QUIRKS = {"reasoning_field": "reasoning"}

RULES = Rules(
    provider=PROVIDER,
    image=IMAGE,
    # Audio: not in the compatibility page's list; `/v1` decodes an `input_audio` part's base64
    # and hands the bytes to the model whatever its `format` (openai/openai.go, read 2026-12),
    # for audio models (gemma4:e2b, gemma4:e4b, nemotron3: the release tests' audio list).
    # Undocumented, so refused here: `with_rules(audio_media_types=("audio/wav",))` opens it.
    audio=KindRules(source=f"{_COMPAT}: no audio listed; {_SOURCE} reads input_audio"),
    video=KindRules(source=f"{_COMPAT}: no video input"),
    # No documents: a `file` content part is "invalid message format" (openai/openai.go, read
    # 2026-12). Text files are sent as text.
    file=FileRules(text_types=TEXT_TYPES, source=f"{_SOURCE}: no file content part"),
    vision_source=f"{_COMPAT}: no image token formula (the model's own)",
    costs=COSTS,
    costs_source=f"{_COMPAT}: no media token rates",
    text=TEXT,
    text_source=f"{_SOURCE}; no text rule documented",
    models=MODELS,
    models_source=f"{_COMPAT}; ollama server/images.go and integration tests (read 2026-12)",
    source=_COMPAT,
)
