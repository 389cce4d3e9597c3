"""Gemini API facts: accepted media types, VISION, COSTS and RULES, with their sources."""

from __future__ import annotations

from mediaparts.providers._budgets._media_rates import MediaRates, RatesTable
from mediaparts.providers._budgets._text import TextRule, TextTable
from mediaparts.providers._budgets._vision import (
    GeminiMediaResolution,
    GeminiTiles,
    ModelRule,
    VisionTable,
)
from mediaparts.providers._files import FileStoreRules
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._wire._rendering import TEXT_TYPES

__all__ = [
    "COSTS",
    "COSTS_SOURCE",
    "FILE_STORE",
    "OLDER_MODELS",
    "PROVIDER",
    "RULES",
    "TEXT",
    "TEXT_SOURCE",
    "VISION",
    "VISION_SOURCE",
]

# Media types Gemini takes, from ai.google.dev/gemini-api/docs image-understanding, audio and
# video-understanding (read 2026-08).
_IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp", "image/heic", "image/heif")
_AUDIO_TYPES = ("audio/wav", "audio/mpeg", "audio/aiff", "audio/aac", "audio/ogg", "audio/flac")
# The video page's list "mp4, mpeg, quicktime, avi, x-flv, mpg, webm, wmv, 3gpp" in canonical names
# (mpg and mpeg are both video/mpeg).
_VIDEO_TYPES = (
    "video/mp4",
    "video/mpeg",
    "video/quicktime",
    "video/x-msvideo",
    "video/x-flv",
    "video/webm",
    "video/x-ms-wmv",
    "video/3gpp",
)

# Gemini API tokens, image-understanding and media-resolution pages, read 2026-08.
# Gemini 3 per-image counts come from secondary summaries of the media-resolution
# page: confirm them before relying on them. First row (model=None) = Gemini 3.
VISION: VisionTable = (
    ModelRule("gemini-3*", GeminiMediaResolution()),
    ModelRule("gemini-2*", GeminiTiles()),
    ModelRule("gemini-1.5*", GeminiTiles(min_tile_px=256)),
)
VISION_SOURCE = (
    "ai.google.dev/gemini-api/docs/tokens, image-understanding and media-resolution, the last "
    "from secondary summaries (read 2026-08)"
)

# Token rates, read 2026-08. Gemini: audio 32/s (audio page);
# video 263/s for the frames on the tokens page, plus 32/s for the audio track: 295/s, which
# is the video page's "approximately 300 tokens per second" (the two pages agree read this way);
# PDF pages 258 (document page), 560 by default on Gemini 3 (media-resolution page, from
# secondary summaries: confirm).
COSTS: RatesTable = (
    ModelRule("gemini-3*", MediaRates("Gemini", 32, 263, pdf_per_page=560)),
    ModelRule("*", MediaRates("Gemini", 32, 263, pdf_per_page=258)),
)
COSTS_SOURCE = (
    "ai.google.dev/gemini-api/docs/audio, tokens, video-understanding, document-processing, "
    "media-resolution (read 2026-08)"
)

# Text, read 2026-11: "For Gemini models, a token is equivalent to about 4 characters"
# (ai.google.dev/gemini-api/docs/tokens). No offline tokenizer ships: google-genai 3.4's
# LocalTokenizer downloads the Gemma SentencePiece model at first use (_local_tokenizer_loader.py,
# requests.get from raw.githubusercontent.com). Framing: none documented. Reasoning: no rule is
# documented for replayed thought text; it is counted as text.
TEXT: TextTable = (
    ModelRule(
        "*",
        TextRule(
            chars_per_token=4,
            approximation="about 4 characters a token ('a token is equivalent to about 4 "
            "characters', ai.google.dev/gemini-api/docs/tokens)",
            reasoning_source="no rule documented for replayed thoughts: counted as text",
        ),
    ),
)
TEXT_SOURCE = (
    "ai.google.dev/gemini-api/docs/tokens; google-genai 3.4 local tokenizer (read 2026-11)"
)

RULES = Rules(
    vision=VISION,
    text=TEXT,
    text_source=TEXT_SOURCE,
    costs=COSTS,
    vision_source=VISION_SOURCE,
    costs_source=COSTS_SOURCE,
    provider="gemini",
    # Its provider id in genai-prices' data, for mp.cost: the Gemini API is `google`
    # (genai_prices/data.py 0.2.3, read 2026-11).
    prices_id="google",
    # A batch input file: "The maximum size for an input file is 2GB"; no request count is
    # documented (ai.google.dev/gemini-api/docs/batch-mode, read 2026-12-02).
    batch_max_bytes=2_000_000_000,
    batch_source="ai.google.dev/gemini-api/docs/batch-mode (read 2026-12-02)",
    # ai.google.dev/gemini-api/docs/image-understanding (read 2026-08). No per-image byte limit:
    # the request limit below applies. Gemini fetches external URLs ("External or signed URLs:
    # 100 MB", file-input-methods), so URLs pass through as `fileData`.
    image=ImageRules(
        media_types=_IMAGE_TYPES,
        url_types=_IMAGE_TYPES,
        animated=False,
        # Gemini 3's per-part media resolution (ai.google.dev/gemini-api/docs/media-resolution,
        # via secondary summaries, read 2026-08; google-genai types.PartMediaResolutionLevel).
        detail_levels=("low", "medium", "high", "ultra_high"),
        source="ai.google.dev/gemini-api/docs/image-understanding, file-input-methods "
        "(read 2026-08)",
    ),
    # ai.google.dev/gemini-api/docs/audio (read 2026-08): wav, mp3, aiff, aac, ogg, flac;
    # 32 tokens per second, at most 9.5 hours per prompt.
    audio=KindRules(
        media_types=_AUDIO_TYPES,
        url_types=_AUDIO_TYPES,
        source="ai.google.dev/gemini-api/docs/audio (read 2026-08)",
    ),
    # ai.google.dev/gemini-api/docs/file-input-methods, video MIME list (read 2026-08).
    video=KindRules(
        media_types=_VIDEO_TYPES,
        url_types=_VIDEO_TYPES,
        source="ai.google.dev/gemini-api/docs/file-input-methods (read 2026-08)",
    ),
    # "100 MB per request or payload (50 MB for PDFs)"; the Jan 2026 raise counts the base64
    # text (file-input-methods; blog.google gemini-api-new-file-limits, read 2026-08; re-read
    # 2026-12: "PDFs are limited to 50MB for this method"). Text formats (the doc's html, css,
    # plain, xml, csv, javascript, json and more) go as text parts.
    file=FileRules(
        media_types=("application/pdf",),
        url_types=("application/pdf",),
        max_bytes=50_000_000,
        measure="base64",
        text_types=TEXT_TYPES,
        # Up to 1,000 pages a document (document-processing page).
        max_pages=1000,
        source="ai.google.dev/gemini-api/docs/file-input-methods (read 2026-12), "
        "document-processing (read 2026-08)",
    ),
    # "we are increasing the maximum payload size for inline data from 20MB to 100MB (base64
    # encoded, with varying limits based on data types)" (blog.google, "Increased file size
    # limits and expanded inputs support in Gemini API", January 2026, read 2026-12): 100 MB of
    # the request's JSON, where media are base64 text. Vertex AI differs (7 MB per inline image)
    # and needs its own rules.
    max_request_bytes=100_000_000,
    source="ai.google.dev/gemini-api/docs/file-input-methods; blog.google "
    "gemini-api-new-file-limits (read 2026-12)",
)

# The provider's name, as every module of this package writes it (in `native`, `provider=`).
PROVIDER = RULES.provider

# The Gemini File API: "up to 20 GB of files per project, with a per-file maximum size of
# 2 GB. Files are stored for 48 hours"; every kind is referenced as `fileData.fileUri`
# (ai.google.dev/gemini-api/docs/files and document-processing, read 2026-12). The upload's
# answer carries the file's own `expirationTime`, which wins over `ttl`.
FILE_STORE = FileStoreRules(
    store="gemini",
    max_bytes=2 * 2**30,
    kinds=("image", "audio", "video", "file"),
    ttl=48 * 3600,
    source="ai.google.dev/gemini-api/docs/files (read 2026-12)",
)

# Gemini models before 3, by name prefix (ai.google.dev/gemini-api/docs/models, read 2026-11):
# the `older_models` quirk of its wire. Gemini 3 takes media inside a function response
# (ai.google.dev/gemini-api/docs/function-calling, read 2026-11) and a replayed call without its
# thought signature when it carries the validator-skipping sentinel; the version-less aliases
# (`gemini-flash-latest`, `gemini-pro-latest`) name the current Gemini 3 models.
OLDER_MODELS: tuple[str, ...] = ("gemini-1", "gemini-2")
