"""The Converse API's names, no provider's: format enums, document name rules, stop reasons.

From botocore's `bedrock-runtime` service model (botocore 1.44,
`botocore/data/bedrock-runtime/2023-09-30/service-2.json`, read 2026-08 and 2026-11). The
rules of a provider on this wire (which formats it takes) start from these tables.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from typing_extensions import assert_never

from mediaparts._conversation._messages import StopReason
from mediaparts.formats import Kind

__all__ = [
    "FORMAT_NAMES",
    "NAME_BAD",
    "NAME_MAX",
    "STOP_REASONS",
    "VALID_NAME",
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

# StopReason (botocore bedrock-runtime ConverseResponse, read 2026-11) → ours. A context window
# filled up stops the output as a token limit does.
STOP_REASONS: Mapping[str, StopReason] = {
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
