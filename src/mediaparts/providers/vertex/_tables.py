"""Gemini on Vertex AI: its rules as data, each value with its source and the date read.

The model tables (image geometry, media token rates, text) are the Gemini API's
(`mediaparts.providers.gemini`): Vertex AI serves the same models under the same ids, and
its media pages give the same token figures ("Default resolution tokens: 1120" a Gemini 3
image, 560 a PDF page, 70 a video frame, docs.cloud.google.com/vertex-ai/generative-ai/docs/
multimodal/image-understanding, document-understanding and video-understanding, read 2026-12).
What differs is below: Vertex AI's own limits, which its pages give per model.
"""

from __future__ import annotations

import dataclasses

from mediaparts.providers import gemini
from mediaparts.providers._budgets._model_rows import ModelRule
from mediaparts.providers._model_rules import ModelRules
from mediaparts.providers._rules import FileRules, ImageRules, KindRules

__all__ = ["FILE_URIS", "PROVIDER", "RULES"]

_GEMINI = gemini.RULES

_IMAGES = "docs.cloud.google.com/vertex-ai/generative-ai/docs/multimodal/image-understanding"
_DOCUMENTS = "docs.cloud.google.com/vertex-ai/generative-ai/docs/multimodal/document-understanding"
_AUDIO = "docs.cloud.google.com/vertex-ai/generative-ai/docs/multimodal/audio-understanding"
_VIDEO = "docs.cloud.google.com/vertex-ai/generative-ai/docs/multimodal/video-understanding"

# Image understanding (read 2026-12): "image/png, image/jpeg, image/webp, image/heic,
# image/heif" for every model (no GIF, as on the Gemini API).
_IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp", "image/heic", "image/heif")
# Audio understanding (read 2026-12): "audio/x-aac, audio/flac, audio/mp3, audio/m4a,
# audio/mpeg, audio/mpga, audio/mp4, audio/ogg, audio/pcm, audio/wav, audio/webm", in their
# canonical names (x-aac is aac; mp3 and mpga are mpeg; m4a is mp4). No AIFF, which the Gemini
# API takes.
_AUDIO_TYPES = (
    "audio/aac",
    "audio/flac",
    "audio/mpeg",
    "audio/mp4",
    "audio/ogg",
    "audio/pcm",
    "audio/wav",
    "audio/webm",
)
# Video understanding (read 2026-12): "video/x-flv, video/quicktime, video/mpeg, video/mpegs,
# video/mpg, video/mp4, video/webm, video/wmv, video/3gpp" (mpg is mpeg, wmv is x-ms-wmv;
# "video/mpegs" names no registered type and is left out). No AVI, which the Gemini API takes.
_VIDEO_TYPES = (
    "video/x-flv",
    "video/quicktime",
    "video/mpeg",
    "video/mp4",
    "video/webm",
    "video/x-ms-wmv",
    "video/3gpp",
)

# What the Gemini 2.x models take differently from the defaults below, which are the smallest
# limits documented for a current model (Gemini 3 Pro: "Maximum images per prompt: 900",
# "Maximum number of pages per file: 900"). Gemini 2.5 Pro, Flash and Flash-Lite (read
# 2026-12): "Maximum images per prompt: 3,000", "Maximum number of pages per file: 1,000",
# "Maximum number of audio files per prompt: 1". The newest models' rows give larger limits
# (3,000 pages, 1,000 audio files, inline parts of 256 MB, 2 GiB minus 500 KiB from Cloud
# Storage, 15 MiB from public URLs) without a model name the pages' tables could be read by
# here: not encoded (`with_rules` raises them).
_GEMINI_2 = ModelRules(
    {"image_max_count": 3000, "file_max_pages": 1000, "audio_max_count": 1},
    source=f"{_IMAGES}, {_DOCUMENTS}, {_AUDIO} (read 2026-12)",
)
MODELS = (ModelRule("gemini-2*", _GEMINI_2),)

RULES = dataclasses.replace(
    _GEMINI,
    provider="vertex",
    models=MODELS,
    models_source=f"{_IMAGES}, {_DOCUMENTS}, {_AUDIO}: limits per model (read 2026-12)",
    # Its provider id in genai-prices' data, for mp.cost: Google's models, as the Gemini API's
    # (genai_prices/data.py 0.2.5, read 2026-12).
    prices_id="google",
    # Vertex AI's batch input lines are `{"request": {...}}` with no id of the caller's
    # (docs.cloud.google.com/vertex-ai/generative-ai/docs/multimodal/
    # batch-prediction-from-cloud-storage, read 2026-12): this provider writes no batch files.
    batch_max_requests=None,
    batch_max_bytes=None,
    batch_source="",
    # "Maximum file size per file for inline data or direct uploads through the console: 7 MB",
    # and 30 MB from Cloud Storage, for every model but the newest (image-understanding, read
    # 2026-12): a file's size, so raw bytes, MB read as 10^6 (the smaller reading). Whether
    # Vertex AI fetches web URLs is documented for the newest models only ("from public HTTP or
    # HTTPS URLs: 15 MiB"): no URL passes through by default, a Cloud Storage object goes by
    # reference (`file_id="gs://..."`, `file_provider="vertex"`).
    image=ImageRules(
        media_types=_IMAGE_TYPES,
        max_bytes=7_000_000,
        max_count=900,
        animated=False,
        detail_levels=_GEMINI.image.detail_levels,
        source=f"{_IMAGES} (read 2026-12)",
    ),
    # "Maximum audio length per prompt: Approximately 8.4 hours, or up to 1 million tokens";
    # no size per inline file is documented (audio-understanding, read 2026-12).
    audio=KindRules(media_types=_AUDIO_TYPES, source=f"{_AUDIO} (read 2026-12)"),
    # "Maximum number of videos per prompt: 10"; lengths ("Approximately 45 minutes" with
    # audio, "1 hour" without) but no size per inline file (video-understanding, read 2026-12).
    video=KindRules(media_types=_VIDEO_TYPES, max_count=10, source=f"{_VIDEO} (read 2026-12)"),
    # PDF and plain text: "Maximum file size per file for the API or Cloud Storage imports:
    # 50 MB" (a file's size: raw bytes), pages per file as `models` says
    # (document-understanding, read 2026-12). Other text formats go as text parts, as for the
    # Gemini API.
    file=FileRules(
        media_types=("application/pdf",),
        max_bytes=50_000_000,
        max_pages=900,
        text_types=_GEMINI.file.text_types,
        source=f"{_DOCUMENTS} (read 2026-12)",
    ),
    # No size of a whole generateContent request is documented on these pages (read 2026-12).
    max_request_bytes=None,
    source=f"{_IMAGES}, {_DOCUMENTS}, {_AUDIO}, {_VIDEO} (read 2026-12)",
)

# The provider's name, as every module of this package writes it.
PROVIDER = RULES.provider

# The stores whose files Vertex AI reads by `fileData.fileUri`: Cloud Storage ("Maximum file
# size per file from Google Cloud Storage: 30 MB", image-understanding; gs:// URIs in every
# request sample, read 2026-12). The Gemini API's Files API (`files/...`) is not Vertex AI's.
FILE_URIS = ("gs://",)
