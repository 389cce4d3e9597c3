"""Anthropic's rules as data: vision tiers, media costs and the limits `render` fits to."""

from __future__ import annotations

from mediaparts.providers._budgets._media_rates import MediaRates, RatesTable
from mediaparts.providers._budgets._text import TextRule, TextTable
from mediaparts.providers._budgets._vision import (
    AnthropicPatches,
    ModelRule,
    VisionGeometry,
    VisionTable,
)
from mediaparts.providers._files import FileStoreRules
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._wire._rendering import TEXT_TYPES

__all__ = [
    "COSTS",
    "COSTS_SOURCE",
    "FILE_STORE",
    "PROVIDER",
    "RULES",
    "TEXT",
    "TEXT_SOURCE",
    "VISION",
    "VISION_SOURCE",
]

_IMAGE_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")

_CLAUDE_STANDARD = AnthropicPatches(max_long_edge=1568, max_tokens=1568)
_CLAUDE_HIGH_RES = AnthropicPatches(max_long_edge=2576, max_tokens=4784)

# The families before the 4.7 generation, named so that any family not named here (a newer one)
# gets the newest rules.
_BEFORE_4_7 = ("opus-4", "sonnet-4", "haiku-4", "2", "instant")

# Anthropic vision and vision-coordinates pages (28-px patches; standard tier 1568 px / 1568
# tokens; high-resolution tier 2576 px / 4784 tokens for "Claude 4.7 and later"), read
# 2026-08. The first row, the default for model=None and unknown names, is the
# standard tier: every current model honours it, and an image fitted to it is never refused,
# as with the 5 MB default. Old names (claude-3-5-sonnet, claude-3-7-sonnet) come before the
# version patterns so that "3-7" is not read as 4.7 or later.
VISION: VisionTable = (
    ModelRule("claude-3*", _CLAUDE_STANDARD),
    ModelRule("claude-*-4-[7-9]*", _CLAUDE_HIGH_RES),
    *(ModelRule[VisionGeometry](f"claude-{old}*", _CLAUDE_STANDARD) for old in _BEFORE_4_7),
    # Any later family (opus, sonnet, haiku 5 and on, fable, mythos): "Claude 4.7 and later".
    ModelRule("claude-*", _CLAUDE_HIGH_RES),
)
VISION_SOURCE = (
    "platform.claude.com/docs/en/build-with-claude/vision and vision-coordinates (read 2026-08)"
)

# Token rates, read 2026-08: Anthropic documents no audio, video or PDF token formula (PDF pages
# cost their text plus an image each, sizes undocumented).
# PDFs, read 2026-11: no formula, but the pdf-support page's "Estimate your costs" says "Each
# page typically uses 1,500-3,000 tokens per page depending on content density", the page's
# image costing more by the image rules. The top of that range is the approximation: counts
# measured on dense pages (2,100 to 3,150 a page) land near it, and a budget should not fall short.
COSTS: RatesTable = (
    ModelRule(
        "*",
        MediaRates(
            "Anthropic",
            not_accepted=frozenset({"audio", "video"}),
            pdf_per_page_approx=3000,
            pdf_approximation="about 3,000 tokens a page (the top of Anthropic's documented "
            "'1,500-3,000 tokens per page', pdf-support page)",
        ),
    ),
)
COSTS_SOURCE = (
    "platform.claude.com pdf-support: no PDF token formula; 1,500-3,000 tokens a page as an "
    "estimate (read 2026-11)"
)

# Text, read 2026-11. Anthropic publishes no tokenizer for current models (token counts come
# from the count_tokens endpoint only). Approximations: "For Claude, a token approximately
# represents 3.5 English characters" (glossary, platform.claude.com/docs/en/about-claude/
# glossary), for the tokenizer up to the 4.6 generation; the newer tokenizer of "Claude Opus 4.7"
# and later fits "1M tokens ... roughly 2.5M Unicode characters" (models overview), about 30%
# more tokens for the same text (token-counting page). Framing: none documented. Thinking of
# earlier turns (extended-thinking page, "Thinking block preservation by model"): Opus 4.5 and
# later, Sonnet 4.6 and later keep it all, so it counts; earlier models and Haiku through 4.5
# "keep only the last assistant turn's thinking", and "previous thinking blocks are
# automatically stripped from the context window calculation" (context-windows page): thinking
# before the last user turn costs nothing. A family not named (fable, mythos, a later
# Haiku) gets the newest rules: counted, the safe side.
# First row (model=None): the newer tokenizer, thinking kept: the most a request can cost.
_KEPT = "thinking of earlier turns is kept and counts (Anthropic extended-thinking page)"
_STRIPPED = (
    "thinking of previous turns is stripped, not counted as input (Anthropic extended-thinking "
    "and context-windows pages)"
)
_NEW = (
    "about 2.5 characters a token (Claude 4.7 and later: '1M tokens ... roughly 2.5M Unicode "
    "characters', Anthropic models overview)"
)
_OLD = (
    "about 3.5 characters a token ('a token approximately represents 3.5 English characters', "
    "Anthropic glossary)"
)
_NEW_KEPT = TextRule(chars_per_token=2.5, approximation=_NEW, reasoning_source=_KEPT)
_OLD_KEPT = TextRule(chars_per_token=3.5, approximation=_OLD, reasoning_source=_KEPT)
_OLD_STRIPPED = TextRule(
    chars_per_token=3.5,
    approximation=_OLD,
    reasoning="earlier_turns_free",
    reasoning_source=_STRIPPED,
)
TEXT: TextTable = (
    ModelRule("claude-*-4-[7-9]*", _NEW_KEPT),
    ModelRule("claude-3*", _OLD_STRIPPED),
    ModelRule("claude-opus-4-[56]*", _OLD_KEPT),
    ModelRule("claude-sonnet-4-6*", _OLD_KEPT),
    *(ModelRule(f"claude-{old}*", _OLD_STRIPPED) for old in _BEFORE_4_7),
    ModelRule("claude-*", _NEW_KEPT),  # any later family, as the 4.7 generation
)
TEXT_SOURCE = (
    "platform.claude.com/docs/en: about-claude/glossary, models overview, build-with-claude/"
    "token-counting, extended-thinking and context-windows (read 2026-11)"
)

RULES = Rules(
    vision=VISION,
    text=TEXT,
    text_source=TEXT_SOURCE,
    costs=COSTS,
    vision_source=VISION_SOURCE,
    costs_source=COSTS_SOURCE,
    provider="anthropic",
    # Its provider id in genai-prices' data, for mp.cost (genai_prices/data.py 0.2.3, read
    # 2026-11).
    prices_id="anthropic",
    # One Message Batch: "up to 100,000 Message requests or 256 MB in size, whichever is
    # reached first" (platform.claude.com/docs/en/build-with-claude/batch-processing, read
    # 2026-12-02). The 256 MB is the whole create body, which wraps the lines in
    # {"requests":[...]} with a comma between them: 100 kB of the 256 MB (10^6-byte MB) is
    # kept for that framing.
    batch_max_requests=100_000,
    batch_max_bytes=255_900_000,
    batch_source="platform.claude.com/docs/en/build-with-claude/batch-processing (read 2026-12-02)",
    # platform.claude.com/docs/en/build-with-claude/vision and the SDK's Base64ImageSourceParam
    # Literal (read 2026-08). These rules are the first-party API's (Claude on Vertex AI and on
    # Bedrock are `anthropic-vertex` and `anthropic-bedrock`). Per image: 10 MB of base64 on the
    # direct API, 5 MB on Bedrock and Google Cloud (read 2026-08; re-read 2026-12 in the page's
    # platform notes, German and Indonesian editions: the 5 MB of base64 is noted for Bedrock
    # and Google Cloud, none for the Claude API), MB read as 2^20 as the API's older error did
    # ("image exceeds 5 MB maximum: … bytes > 5242880 bytes"), measured on the base64 text.
    # Images per request: 100 for 200k-context models, 600 for the others; 100 is safe for all.
    # 8000×8000 px at most (both re-read on the vision page, 2026-12). Animations: "only the
    # first frame is used". Sources: "base64", "url" and "file_id returned by the Files API"
    # (the vision page, re-read 2026-12): the direct API fetches image URLs
    # (`URLImageSourceParam`) and reads its Files API's ids (`FILE_STORE`).
    image=ImageRules(
        media_types=_IMAGE_TYPES,
        url_types=_IMAGE_TYPES,
        max_bytes=10 * 2**20,
        measure="base64",
        max_count=100,
        max_width=8000,
        max_height=8000,
        animated=False,
        source="platform.claude.com/docs/en/build-with-claude/vision; anthropic-sdk-python "
        "types/base64_image_source_param.py (read 2026-08)",
    ),
    # The Messages API has no audio or video blocks (SDK content block params, read 2026-08).
    audio=KindRules(source="anthropic-sdk-python types/message_param.py (read 2026-08)"),
    video=KindRules(source="anthropic-sdk-python types/message_param.py (read 2026-08)"),
    # PDFs as `base64` documents ("Standard PDF (no passwords/encryption)"; "Maximum pages per
    # request 600 (100 when the request's context window is under 1M tokens)", pdf-support
    # page, read 2026-11: 100 here, which holds for every model); text files as `text` documents
    # (PlainTextSourceParam takes media_type "text/plain" only). PDF URLs are fetched by the
    # direct API (`URLPDFSourceParam`), as images are.
    file=FileRules(
        media_types=("application/pdf",),
        url_types=("application/pdf",),
        max_request_pages=100,
        text_types=TEXT_TYPES,
        source="Anthropic pdf-support page; anthropic-sdk-python document_block_param.py, "
        "plain_text_source_param.py (read 2026-08)",
    ),
    # "32 MB for the Messages API, 256 MB for Message Batches, and 500 MB for the Files API"
    # (an Anthropic maintainer, anthropic-sdk-python#938, 2026-08-05, citing the API
    # overview's "Request size limits"); the vision page: "32 MB for standard endpoints; lower
    # on some partner-operated platforms" (read 2026-12). MB read as 10^6 bytes, the smaller
    # reading. This is the first-party API's limit: Amazon Bedrock's 20 MB and Google Cloud's
    # 30 MB are those of `anthropic-bedrock` and `anthropic-vertex`.
    max_request_bytes=32_000_000,
    source="Anthropic API overview, request size limits; anthropic-sdk-python#938 (read 2026-12)",
)

# The provider's name, as every module of this package writes it (in `native`, `provider=`).
PROVIDER = RULES.provider

# Anthropic's Files API (beta `files-api-2025-04-14`): "Maximum file size: 500 MB per file"
# ("500 MB for the Files API", an Anthropic maintainer, anthropic-sdk-python#938, read 2026-12);
# files are kept until deleted; a Messages request references images (`image` block) and PDFs
# and plain text (`document` block) by `file_id`; other types only serve the code execution
# tool (docs.claude.com/en/docs/build-with-claude/files, read 2026-12). Not on Bedrock or
# Vertex AI ("only base64-encoded sources", the vision page, read 2026-12).
# The beta the Files API needs on every request that uploads or references a file (the same
# page); anthropic-sdk-python 2.15 sends it only when asked (`betas=`).
FILES_BETA = "files-api-2025-04-14"
FILE_STORE = FileStoreRules(
    store="anthropic",
    max_bytes=500 * 2**20,
    kinds=("image", "file"),
    media_types={"file": ("application/pdf", "text/plain")},
    source="docs.claude.com/en/docs/build-with-claude/files (read 2026-12)",
)
