"""Mistral's chat API (`/v1/chat/completions`) as data: accepted media, limits, model tables.

Pages read in 2026-12 from the docs' source repository (github.com/mistralai/platform-docs-public,
pages synced 2026-08-11, "sync docs to v1.4.0"), each named by its docs.mistral.ai path; chunk
shapes from the mistralai SDK 3.7's request models (`mistralai.client.models`).
"""

from __future__ import annotations

from mediaparts.providers._budgets._media_rates import MediaRates, RatesTable
from mediaparts.providers._budgets._text import TextRule, TextTable
from mediaparts.providers._budgets._vision import (
    AnthropicPatches,
    ModelRule,
    Undocumented,
    VisionGeometry,
    VisionTable,
)
from mediaparts.providers._files import FileStoreRules
from mediaparts.providers._model_rules import ModelRules
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._wire._rendering import TEXT_TYPES

__all__ = [
    "AUDIO_MODELS",
    "AUDIO_TYPES",
    "COSTS",
    "FILE_STORE",
    "MODELS",
    "PROVIDER",
    "ROLES",
    "RULES",
    "TEXT",
    "TEXT_ONLY_MODELS",
    "VISION",
    "VISION_FAMILIES",
]

_VISION_PAGE = "docs.mistral.ai/studio/conversations/vision"
_MODEL_CARDS = "docs.mistral.ai/models (the model cards' capabilities.input and apiNames)"

# "PNG (.png), JPEG (.jpeg and .jpg), WEBP (.webp), Non-animated GIF with only one frame (.gif)"
# (vision page, FAQ "What types of image files are supported?", read 2026-12).
_IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp", "image/gif")

# Audio in chat: `input_audio` takes the file's base64 or a public URL (audio page "Chat with
# Audio": passing an audio file, an audio URL, or an uploaded file's signed URL; read 2026-12).
# No page lists the formats chat takes; the transcription API's are "WAV, MP3, FLAC, OGG, WEBM"
# (docs.mistral.ai/resources/known-limitations, "Audio transcription", read 2026-12), the same
# Voxtral models: assumed for chat.
AUDIO_TYPES = ("audio/wav", "audio/mpeg", "audio/flac", "audio/ogg", "audio/webm")

# Image geometry, from the vision page's FAQ "How many tokens correspond to an image and/or
# what is the maximum resolution?" (read 2026-12): Mistral Large 3, Small 3.2, Medium 3 and
# Ministral 3 at most 1540x1540, "≈ (ResolutionX * ResolutionY) / 784" (28-px patches), ≈ 3025
# at most; Pixtral Large and Pixtral 12B at most 1024x1024, "≈ (ResolutionX * ResolutionY) /
# 256" (16-px patches), ≈ 4096 at most. "If the resolution of the image sent is higher than the
# maximum resolution of the model, the image will be downscaled to its maximum resolution." The
# patch rule counts whole patches (ceil(w/28) * ceil(h/28)), which the page's "≈" allows.
_MISTRAL_3 = AnthropicPatches(max_long_edge=1540, max_tokens=3025, patch=28)
_PIXTRAL = AnthropicPatches(max_long_edge=1024, max_tokens=4096, patch=16)
# Models the model cards list with image input but the vision page's table leaves out.
_NO_IMAGE_RULE: VisionGeometry = Undocumented(
    "Mistral", "image tokens on this model (not in the vision table)"
)
_TAKES_NO_IMAGES: VisionGeometry = Undocumented("Mistral", "images on this model (it takes none)")

# Chat models that take text only (model cards: `capabilities.input` is ['text'], read
# 2026-12); retired ones kept, since their names are still written. Their per-model rules take
# no images; documents they read (`document-qna` is among their features).
TEXT_ONLY_MODELS: tuple[str, ...] = (
    "mistral-large-2402",
    "mistral-large-2407",
    "mistral-large-2411",
    "mistral-medium-2312",
    "mistral-small-2402",
    "mistral-small-2409",
    "mistral-small-2501",
    "ministral-3b-2410",
    "ministral-8b-2410",
    "magistral-medium-2506",
    "magistral-medium-2507",
    "magistral-small-2506",
    "magistral-small-2507",
    "devstral-small-2505",
    "devstral-small-2507",
    "devstral-medium*",
    "devstral-2512",
    "devstral-latest",
    "codestral*",
    "open-*",
    "mistral-saba*",
    "labs-mistral-small-creative*",
    "zai-glm*",
)
# The Voxtral chat models: audio and text in, no images (model cards: Voxtral Small
# `voxtral-small-2507`, `voxtral-small-latest`; Voxtral Mini `voxtral-mini-2507`, read 2026-12).
# `voxtral-mini-latest` now names Voxtral Mini Transcribe 2, a transcription-only model (its card
# lists no chat-completions feature), and the realtime and TTS models are not chat models.
AUDIO_MODELS: tuple[str, ...] = ("voxtral-small*", "voxtral-mini-2507")

# What these models take differently from the provider's rules (`Rules.models`, read by
# `Provider.for_model`). The provider's own rules (model=None, or a model no row names) are
# everything the chat API takes: images, documents and audio. A text-only model takes no
# images and no audio; a model with image input takes no audio; a Voxtral model takes no
# images. Documents every chat model reads (`document-qna` is on each chat model's card).
_NO_IMAGES = {"image_media_types": (), "image_url_types": ()}
_NO_AUDIO = {"audio_media_types": (), "audio_url_types": ()}
_TEXT_ONLY = ModelRules(
    {**_NO_IMAGES, **_NO_AUDIO}, source=f"{_MODEL_CARDS}: input text only (read 2026-12)"
)
_VISION_MODEL = ModelRules(_NO_AUDIO, source=f"{_MODEL_CARDS}: input text, image (read 2026-12)")
_VOXTRAL = ModelRules(
    _NO_IMAGES, source=f"{_MODEL_CARDS}: input audio, text; the audio page (read 2026-12)"
)
# The families with image input (model cards, read 2026-12), after the text-only names above.
VISION_FAMILIES: tuple[str, ...] = (
    "pixtral-*",
    "mistral-large*",
    "mistral-medium*",
    "mistral-small*",
    "ministral-*",
    "magistral-*",
    "devstral-small*",
    "labs-devstral-small*",
    "labs-leanstral*",
)
MODELS: tuple[ModelRule[ModelRules], ...] = (
    *(ModelRule(pattern, _TEXT_ONLY) for pattern in TEXT_ONLY_MODELS),
    *(ModelRule(pattern, _VOXTRAL) for pattern in AUDIO_MODELS),
    *(ModelRule(pattern, _VISION_MODEL) for pattern in VISION_FAMILIES),
)
MODELS_SOURCE = (
    f"{_MODEL_CARDS}; docs.mistral.ai/studio/audio/speech_to_text/offline_transcription "
    "(read 2026-12)"
)

VISION: VisionTable = (
    ModelRule("pixtral-*", _PIXTRAL),
    *(ModelRule(pattern, _TAKES_NO_IMAGES) for pattern in (*TEXT_ONLY_MODELS, *AUDIO_MODELS)),
    # Large 3 (`mistral-large-2512`, `-latest`): the default row, the rule of every current
    # model of the vision page's table.
    ModelRule("mistral-large*", _MISTRAL_3, default=True),
    # Medium 3, 3.1 and 3.5; Small 3.1, 3.2 and 4; Ministral 3 (3B, 8B, 14B). The table names
    # Medium 3 and Small 3.2: the same rule assumed for their siblings with image input.
    ModelRule("mistral-medium*", _MISTRAL_3),
    ModelRule("mistral-small*", _MISTRAL_3),
    ModelRule("ministral-*", _MISTRAL_3),
    # Image input on their model cards, but no row in the vision page's table.
    ModelRule("magistral-*", _NO_IMAGE_RULE),
    ModelRule("devstral-small*", _NO_IMAGE_RULE),
    ModelRule("labs-devstral-small*", _NO_IMAGE_RULE),
    ModelRule("labs-leanstral*", _NO_IMAGE_RULE),
)
VISION_SOURCE = (
    f"{_VISION_PAGE} FAQ (max resolution and token formula per model); {_MODEL_CARDS} "
    "(read 2026-12)"
)

# No audio or PDF token rule is documented for chat (the audio page gives lengths, ≈20 minutes
# of audio a chat request; Document QnA gives no per-page figure), read 2026-12; no video input
# (the SDK's `ContentChunk` has no video chunk, mistralai 3.7).
COSTS: RatesTable = (ModelRule("*", MediaRates("Mistral", not_accepted=frozenset({"video"}))),)
COSTS_SOURCE = (
    "docs.mistral.ai/studio/audio/speech_to_text/offline_transcription and "
    "studio/document-processing/document_qna: no audio or document token rule (read 2026-12)"
)

# Text: Mistral's tokenizers (SentencePiece v1-v3, and Tekken, a BPE with its own vocabulary run
# by tiktoken, in mistral-common) are no tiktoken encoding this library counts with, and the
# docs give no characters-per-token figure (the docs repository's tokenization guide,
# src/content/en/docs/_guides/tokenization, read 2026-12): the generic approximation, one row.
TEXT: TextTable = (
    ModelRule(
        "*",
        TextRule(
            approximation="about 4 characters a token (Mistral documents no figure: the rule "
            "of thumb OpenAI and Google publish)",
            # Framing tokens (control tokens around messages) are not documented as counts.
            # "always replay the full assistant message (including ThinkChunk)"; the thinking
            # tokens of turn 1 "are replayed as prompt tokens in turn 2" (docs.mistral.ai/
            # studio/conversations/reasoning, "Multi-turn conversations", read 2026-12).
            reasoning="counted",
            reasoning_source="Mistral's reasoning page: thinking chunks sent back are prompt "
            "tokens",
        ),
    ),
)
TEXT_SOURCE = (
    "Mistral's tokenization guide (platform-docs-public _guides/tokenization): its own "
    "tokenizers, no characters-per-token figure; the generic approximation (read 2026-12)"
)

RULES = Rules(
    provider="mistral",
    models=MODELS,
    models_source=MODELS_SOURCE,
    vision=VISION,
    vision_source=VISION_SOURCE,
    costs=COSTS,
    costs_source=COSTS_SOURCE,
    text=TEXT,
    text_source=TEXT_SOURCE,
    # Batch: "Maximum batch file size: 512 MB", "Maximum requests per batch: 100,000"
    # (known-limitations, read 2026-12); the batch page says "up to 1 million requests in a
    # single batch" (read 2026-12): the smaller figure, MB read as 10^6 bytes.
    batch_max_requests=100_000,
    batch_max_bytes=512_000_000,
    batch_source="docs.mistral.ai/resources/known-limitations; studio/batch-processing "
    "(read 2026-12)",
    # Vision page FAQ (read 2026-12): "The current file size limit is 10Mb" (read as 10 MB,
    # 10^6 bytes each, of the file: raw bytes); "The maximum number images per request via API
    # is 8"; "An error will be sent if the resolution is higher than 10000x10000". Images go by
    # public URL or base64 data URI (page "Sending an Image"). The known-limitations page says
    # "20 MB per image" and that the count "depends on the model and total token budget": the
    # vision page's smaller figures are kept. The SDK's `ImageURL.detail` ("low", "auto",
    # "high") is not documented anywhere in the docs: no detail levels.
    image=ImageRules(
        media_types=_IMAGE_TYPES,
        url_types=_IMAGE_TYPES,
        max_bytes=10_000_000,
        max_count=8,
        max_width=10_000,
        max_height=10_000,
        animated=False,
        source=f"{_VISION_PAGE} FAQ; docs.mistral.ai/resources/known-limitations (read 2026-12)",
    ),
    # Audio, inline (base64) or by URL: only the Voxtral models take it (the other models'
    # rows take none). Chat with audio: "≈20 minutes" of audio a request (audio page FAQ, read
    # 2026-12), a length the rules do not hold; no byte limit given for chat.
    audio=KindRules(
        media_types=AUDIO_TYPES,
        url_types=AUDIO_TYPES,
        source="docs.mistral.ai/studio/audio/speech_to_text/offline_transcription; "
        "resources/known-limitations (read 2026-12)",
    ),
    # No video chunk (mistralai 3.7 `ContentChunk`: text, image_url, document_url, file,
    # input_audio, reference, thinking, resource, resource_link).
    video=KindRules(source="mistralai 3.7 models/contentchunk.py (read 2026-12)"),
    # Document QnA: a `document_url` chunk holding a public URL, a base64 data URI, or an
    # uploaded file's signed URL; every example is a PDF. "Uploaded document files must not
    # exceed 50 MB in size and should be no longer than 1,000 pages" (document_qna FAQ, read
    # 2026-12): per document, 10^6-byte MB. The OCR processor reads more formats (docx, pptx,
    # ...; basic_ocr FAQ) but no chat page says `document_url` takes them: PDF only, and
    # `normalize` sends other Office documents as their text. Text formats go as text.
    file=FileRules(
        media_types=("application/pdf",),
        url_types=("application/pdf",),
        max_bytes=50_000_000,
        max_pages=1000,
        text_types=TEXT_TYPES,
        source="docs.mistral.ai/studio/document-processing/document_qna (read 2026-12); "
        "mistralai 3.7 models/documenturlchunk.py",
    ),
    # No request size is documented (read 2026-12).
    source="docs.mistral.ai/studio/conversations/vision; resources/known-limitations "
    "(read 2026-12)",
)

# The provider's name, as every module of this package writes it.
PROVIDER = RULES.provider

# The message roles of a chat request: system, user, assistant, tool (mistralai 3.7
# `ChatCompletionRequestMessage`; the API reference's `messages` union, docs.mistral.ai/api/
# endpoint/chat, read 2026-12). No `developer` and no legacy `function` role. Only a tool
# message has a `name` (`ToolMessage.name`; `SystemMessage`, `UserMessage`, `AssistantMessage`
# have none), and the assistant has no `refusal` field (`AssistantMessage`: content,
# tool_calls, prefix): the record's `message_names` and `refusals` quirks are False.
ROLES: tuple[str, ...] = ("system", "user", "assistant", "tool")

# Mistral's Files API (`client.files.upload`): "Maximum file size: 512 MB" (10^6-byte MB, the
# smaller reading), "Uploaded files are retained for 30 days unless deleted earlier"
# (docs.mistral.ai/resources/known-limitations, "File uploads", read 2026-12). Chat takes a
# stored file by id in a `file` chunk (`FileChunk.file_id`, under the user message's content in
# the chat completion API reference, docs.mistral.ai/api/endpoint/chat, read 2026-12); Document
# QnA uploads documents with purpose "ocr" (document_qna page, read 2026-12). Images and audio
# go by URL or inline: the docs give them no file-id chunk.
FILE_STORE = FileStoreRules(
    store="mistral",
    max_bytes=512_000_000,
    kinds=("file",),
    ttl=30 * 24 * 3600,
    purposes={"file": "ocr"},
    source="docs.mistral.ai/resources/known-limitations; api/endpoint/chat (FileChunk); "
    "studio/document-processing/document_qna (read 2026-12)",
)
