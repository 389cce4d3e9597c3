"""Bedrock Converse facts: format names, name rules, VISION, COSTS and RULES, with sources.

Shapes and limits come from botocore's `bedrock-runtime` service model (botocore 1.44,
`botocore/data/bedrock-runtime/2023-09-30/service-2.json`, read 2026-08): `image`,
`document`, `video` and `audio` blocks with raw `bytes` (botocore base64-encodes them) or an
`s3Location`; `toolUse` and `toolResult` blocks; `system` as a list of text blocks.
"""

from __future__ import annotations

import dataclasses
import re

from typing_extensions import assert_never

from mediaparts._messages import StopReason
from mediaparts.formats import Kind
from mediaparts.providers import anthropic
from mediaparts.providers._media_costs import CostsTable, MediaCosts
from mediaparts.providers._render_common import TEXT_TYPES
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._text import GENERIC_TEXT, TextTable
from mediaparts.providers._vision import ModelRule, Undocumented, VisionTable

__all__ = [
    "COSTS",
    "COSTS_SOURCE",
    "FORMAT_NAMES",
    "NAME_BAD",
    "NAME_MAX",
    "PROVIDER",
    "RULES",
    "STOP_REASONS",
    "TEXT",
    "TEXT_SOURCE",
    "VALID_NAME",
    "VISION",
    "VISION_SOURCE",
    "formats",
    "media_type_of",
]

# botocore's format enums (ImageFormat, DocumentFormat, VideoFormat, AudioFormat), keyed by the
# canonical media type each format name stands for.
_IMAGE_FORMATS = {
    "image/png": "png",
    "image/jpeg": "jpeg",
    "image/gif": "gif",
    "image/webp": "webp",
}
_DOCUMENT_FORMATS = {
    "application/pdf": "pdf",
    "text/csv": "csv",
    "application/msword": "doc",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.ms-excel": "xls",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "text/html": "html",
    "text/plain": "txt",
    "text/markdown": "md",
}
_VIDEO_FORMATS = {
    "video/x-matroska": "mkv",
    "video/quicktime": "mov",
    "video/mp4": "mp4",
    "video/webm": "webm",
    "video/x-flv": "flv",
    "video/mpeg": "mpeg",
    "video/x-ms-wmv": "wmv",
    "video/3gpp": "three_gp",
}
# AudioFormat also lists opus (an Ogg stream here), x-aac, mpga and pcm (no container).
_AUDIO_FORMATS = {
    "audio/mpeg": "mp3",
    "audio/wav": "wav",
    "audio/aac": "aac",
    "audio/flac": "flac",
    "audio/mp4": "m4a",
    "audio/ogg": "ogg",
    "audio/x-matroska": "mka",
    "audio/webm": "webm",
}

# Every format name botocore's enums list (read 2026-11) → the media type it stands for, for
# reading payloads back. Names the tables above do not hold are aliases `render` writes only
# when a payload used them; `pcm` (raw samples, no container) has no media type here.
FORMAT_NAMES: dict[Kind, dict[str, str]] = {
    "image": {name: media_type for media_type, name in _IMAGE_FORMATS.items()},
    "file": {name: media_type for media_type, name in _DOCUMENT_FORMATS.items()},
    "video": {**{name: t for t, name in _VIDEO_FORMATS.items()}, "mpg": "video/mpeg"},
    "audio": {
        **{name: media_type for media_type, name in _AUDIO_FORMATS.items()},
        "mp4": "audio/mp4",
        "mpeg": "audio/mpeg",
        "mpga": "audio/mpeg",
        "x-aac": "audio/aac",
        "mkv": "audio/x-matroska",
        "opus": "audio/ogg",
    },
}

# Bedrock Converse (botocore bedrock-runtime service model, read 2026-08): Claude model ids
# (`anthropic.claude-...`, `us.anthropic.claude-...`, ARNs) follow Anthropic's rules; no other
# model family documents an image rule, so those get `Undocumented`.
VISION: VisionTable = (
    *(ModelRule(f"*{row.pattern}", row.rule) for row in anthropic.VISION),
    ModelRule("*", Undocumented("Bedrock", "image tokens of non-Claude models")),
)
VISION_SOURCE = (
    "Anthropic's rules for Claude model ids; botocore bedrock-runtime service-2.json documents "
    "none for other models (read 2026-08)"
)

# Token rates, read 2026-08: Bedrock documents no audio, video or PDF token formula. For
# Claude ids, the Bedrock user guide's Claude page (read 2026-11) says a 3-page PDF uses
# "approximately 1,000 tokens" in Converse's text-only document chat (what `render` sends: no
# citations), "approximately 7,000" with citations: about 334 a page, approximate.
COSTS: CostsTable = (
    ModelRule(
        "*claude*",
        MediaCosts(
            "Bedrock",
            pdf_per_page_approx=334,
            pdf_approximation="about 334 tokens a page (Bedrock's Claude guide: a 3-page PDF "
            "uses 'approximately 1,000 tokens' in text-only Converse document chat)",
        ),
    ),
    ModelRule("*", MediaCosts("Bedrock")),
)
COSTS_SOURCE = (
    "botocore bedrock-runtime service-2.json: no token formula (read 2026-08); Bedrock's "
    "Claude guide for PDFs in Converse (read 2026-11)"
)

# Text, read 2026-11: Claude model ids follow Anthropic's rules (its approximations; thinking
# of earlier turns as Anthropic's table says per model); other model families publish no rule
# through Bedrock, so they get the generic 4 characters a token. The tokenizer depends on the
# model; Bedrock's CountTokens operation is an API call, not an offline rule.
TEXT: TextTable = (
    *(ModelRule(f"*{row.pattern}", row.rule) for row in anthropic.TEXT),
    ModelRule(
        "*",
        dataclasses.replace(
            GENERIC_TEXT,
            approximation="about 4 characters a token (Bedrock documents no rule for this "
            "model family: the rule of thumb OpenAI and Google publish)",
        ),
    ),
)
TEXT_SOURCE = (
    "Anthropic's rules for Claude model ids; none documented for other models (read 2026-11)"
)

RULES = Rules(
    vision=VISION,
    text=TEXT,
    text_source=TEXT_SOURCE,
    costs=COSTS,
    vision_source=VISION_SOURCE,
    costs_source=COSTS_SOURCE,
    provider="bedrock",
    # Its provider id in genai-prices' data, for mp.cost: `aws`, where Bedrock's own model ids
    # (`anthropic.claude-...`, `us.anthropic.claude-...`, `amazon.nova-...`) are priced
    # (genai_prices/data.py 0.2.3, read 2026-11).
    prices_id="aws",
    # Batch inference quotas, defaults per model and account, raised on request: "Records per
    # input file per batch inference job" 50,000 and "Batch inference input file size" 1 GB
    # (10^9 bytes, the smaller reading); a job also needs a minimum number of records (100 for
    # most models), which a file split cannot give (docs.aws.amazon.com/bedrock/latest/
    # userguide/quotas.html, batch-inference-data.html, read 2026-12-02). A raised quota is
    # `with_rules(batch_max_requests=..., batch_max_bytes=...)`.
    batch_max_requests=50_000,
    batch_max_bytes=1_000_000_000,
    batch_source="docs.aws.amazon.com/bedrock/latest/userguide/quotas.html (read 2026-12-02)",
    # Message.content (read 2026-08): "up to 20 images. Each image's size, height, and width must
    # be no more than 3.75 MB, 8000 px, and 8000 px" (raw bytes; 3.75 MB is Anthropic's 5 MB of
    # base64 × 3/4; an inference, as the docs do not say). The 20 is per message. Only `s3://`
    # URIs can be given instead of bytes, so no http(s) URL passes through.
    image=ImageRules(
        media_types=tuple(_IMAGE_FORMATS),
        max_bytes=3_932_160,
        max_count=20,
        count_scope="message",
        max_width=8000,
        max_height=8000,
        animated=False,
        source="botocore bedrock-runtime service-2.json Message, ImageFormat (read 2026-08)",
    ),
    # AudioFormat (read 2026-08); no size limit is documented.
    audio=KindRules(
        media_types=tuple(_AUDIO_FORMATS),
        source="botocore bedrock-runtime service-2.json AudioFormat (read 2026-08)",
    ),
    # VideoSource: "base64-encoded string as long as the encoded file is less than 25MB"
    # (read 2026-08); up to 1 GB from S3.
    video=KindRules(
        media_types=tuple(_VIDEO_FORMATS),
        max_bytes=25 * 2**20,
        measure="base64",
        source="botocore bedrock-runtime service-2.json VideoSource, VideoFormat (read 2026-08)",
    ),
    # Message.content: "up to five documents. Each document's size must be no more than 4.5 MB"
    # (per message). DocumentFormat's types are sent as bytes; other text formats are sent as
    # `txt` documents with a `text` source.
    file=FileRules(
        media_types=tuple(_DOCUMENT_FORMATS),
        max_bytes=4_718_592,
        max_count=5,
        count_scope="message",
        text_types=tuple(t for t in TEXT_TYPES if t not in _DOCUMENT_FORMATS),
        source="botocore bedrock-runtime service-2.json Message, DocumentFormat (read 2026-08)",
    ),
    # Converse documents no request size (InvokeModel's body is ≤25,000,000 bytes).
    source="botocore bedrock-runtime service-2.json (read 2026-08)",
)


def formats(kind: Kind) -> dict[str, str]:
    """Return the Converse `format` name of each media type of a kind."""
    match kind:
        case "image":
            return _IMAGE_FORMATS
        case "audio":
            return _AUDIO_FORMATS
        case "video":
            return _VIDEO_FORMATS
        case "file":
            return _DOCUMENT_FORMATS
        case _:
            assert_never(kind)


# DocumentBlock.name (botocore, read 2026-08): 1-200 characters; alphanumerics, whitespace (no
# more than one in a row), hyphens, parentheses and square brackets. The service checks with
# ASCII classes (re.ASCII: Python's own \s also takes \x1c-\x1f, NBSP, U+3000), over the whole
# name (\Z: `$` also matches before a final newline, letting a 201st character through).
# `.{0,199}` rather than `.*`: a name that passes is at most 200 characters anyway; DOTALL so
# the look-ahead also sees a double space after a newline (a newline is whitespace here).
_NAME_CHARS = r"A-Za-z0-9\s\-()\[\]"
VALID_NAME = re.compile(rf"\A(?!.{{0,199}}\s\s)[{_NAME_CHARS}]{{1,200}}\Z", re.ASCII | re.DOTALL)


def media_type_of(kind: Kind, fmt: object) -> str | None:
    """Return the canonical media type a Converse `format` name stands for, or None."""
    for media_type, name in formats(kind).items():
        if name == fmt:
            return media_type
    return None


NAME_BAD = re.compile(rf"[^{_NAME_CHARS}]+", re.ASCII)
NAME_MAX = 200

# The provider's name, as every module of this package writes it (in `native`, `provider=`).
PROVIDER = RULES.provider

# StopReason (botocore bedrock-runtime ConverseResponse, read 2026-11) → ours. A context window
# filled up stops the output as a token limit does.
STOP_REASONS: dict[str, StopReason] = {
    "end_turn": "end",
    "tool_use": "tool_call",
    "max_tokens": "max_tokens",
    "model_context_window_exceeded": "max_tokens",
    "stop_sequence": "stop_sequence",
    "guardrail_intervened": "content_filter",
    "content_filtered": "content_filter",
    "malformed_model_output": "other",
    "malformed_tool_use": "other",
}
