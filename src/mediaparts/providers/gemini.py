"""Google Gemini API: its media rules and `render` to a `generateContent` request body.

The body is the REST one, in camelCase (`contents`, `systemInstruction`, `inlineData`,
`fileData`, `functionCall`, `functionResponse`); google-genai's `types.Content` accepts each
content as is (googleapis/python-genai 3.4 `types.py`, read 2026-08).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mediaparts._errors import InvalidMedia
from mediaparts._messages import Assistant, Message, Tool, User
from mediaparts.detection import canonical_media_type, kind_of
from mediaparts.providers._media_costs import CostsTable, MediaCosts
from mediaparts.providers._normalized import NormalizedPart
from mediaparts.providers._render_common import (
    TEXT_TYPES,
    Item,
    Prepare,
    as_text,
    call_arguments,
    error_text,
    is_media,
    items,
    merge_turns,
    split_system,
    tool_names,
)
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._sites import Problems, Site, Where, payload_bytes
from mediaparts.providers._vision import (
    GeminiMediaResolution,
    GeminiTiles,
    ModelRule,
    VisionTable,
)

__all__ = ["COSTS", "COSTS_SOURCE", "RULES", "VISION", "VISION_SOURCE", "media_site", "render"]

_IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp", "image/heic", "image/heif")
_AUDIO_TYPES = ("audio/wav", "audio/mpeg", "audio/aiff", "audio/aac", "audio/ogg", "audio/flac")
# The doc's list "mp4, mpeg, quicktime, avi, x-flv, mpg, webm, wmv, 3gpp" in canonical names
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
COSTS: CostsTable = (
    ModelRule("gemini-3*", MediaCosts("Gemini", 32, 263, pdf_per_page=560)),
    ModelRule("*", MediaCosts("Gemini", 32, 263, pdf_per_page=258)),
)
COSTS_SOURCE = (
    "ai.google.dev/gemini-api/docs/audio, tokens, video-understanding, document-processing, "
    "media-resolution (read 2026-08)"
)

RULES = Rules(
    vision=VISION,
    costs=COSTS,
    vision_source=VISION_SOURCE,
    costs_source=COSTS_SOURCE,
    provider="gemini",
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
    # text (file-input-methods; blog.google gemini-api-new-file-limits, read 2026-08). Text
    # formats (the doc's html, css, plain, xml, csv, javascript, json and more) go as text parts.
    file=FileRules(
        media_types=("application/pdf",),
        url_types=("application/pdf",),
        max_bytes=50_000_000,
        measure="base64",
        text_types=TEXT_TYPES,
        source="ai.google.dev/gemini-api/docs/file-input-methods, document-processing "
        "(read 2026-08)",
    ),
    # Inline data was 20 MB per request before January 2026, 100 MB since; Vertex AI differs
    # (7 MB per inline image) and needs its own rules (Vertex AI documents a different limit).
    max_request_bytes=100_000_000,
    source="ai.google.dev/gemini-api/docs/file-input-methods (read 2026-08)",
)

# Media a `functionResponse` carries in its own `parts` (Gemini 3 multimodal function
# responses: images and documents); anything else follows it as a sibling part.
_NESTED_PREFIXES = ("image/", "application/pdf", "text/plain")


def render(messages: Sequence[Message], prepare: Prepare) -> dict[str, Any]:
    """Render messages as a `generateContent` request body.

    System texts are joined (blank lines) into `systemInstruction`. Roles are `user` and
    `model`; tool results are `functionResponse` parts in a `user` content, placed first in it,
    and consecutive contents of one role are merged.

    Args:
        messages: The conversation, in order.
        prepare: Fits each media part to Gemini (normally `mp.normalize` bound to it).

    Returns:
        `{"contents": [...], "systemInstruction": {"parts": [{"text": ...}]}}`, without
        `systemInstruction` when there is no system message.

    Raises:
        InvalidMedia: A tool call's arguments are not a JSON object, or a tool result names
            no tool and answers no known call.
    """
    system, rest = split_system(messages)
    names = tool_names(messages)
    contents: list[dict[str, Any]] = []
    for message in rest:
        if isinstance(message, User):
            parts = [_part(item) for item in items(message, prepare)]
            contents.append({"role": "user", "parts": parts})
        elif isinstance(message, Assistant):
            parts = [_part(item) for item in items(message, prepare)]
            parts += [
                _function_call(call.id, call.name, call.parsed_arguments())
                for call in message.tool_calls
            ]
            contents.append({"role": "model", "parts": parts})
        elif isinstance(message, Tool):
            contents.append({"role": "user", "parts": _tool(message, prepare, names)})
    payload: dict[str, Any] = {
        "contents": merge_turns(contents, key="parts", first=lambda p: "functionResponse" in p)
    }
    if system:
        payload["systemInstruction"] = {"parts": [{"text": "\n\n".join(system)}]}
    return payload


def _function_call(call_id: str | None, name: str, arguments: Any) -> dict[str, Any]:
    args = call_arguments(call_id, name, arguments)
    if call_id is None:  # Gemini pairs calls and responses by name when they have no id
        return {"functionCall": {"name": name, "args": args}}
    return {"functionCall": {"id": call_id, "name": name, "args": args}}


def _tool(message: Tool, prepare: Prepare, names: dict[str, str]) -> list[dict[str, Any]]:
    """Return a `functionResponse` part, then the media it cannot nest."""
    name = message.name or names.get(message.tool_call_id or "")
    if name is None:
        raise InvalidMedia(
            f"Gemini needs the tool's name for tool result {message.tool_call_id!r}: set "
            "Tool(name=...) or include the assistant message that made the call"
        )
    texts: list[str] = []
    nested: list[dict[str, Any]] = []
    siblings: list[dict[str, Any]] = []
    for item in items(message, prepare):
        if not is_media(item):
            texts.append(as_text(item))
        elif item.media_type.startswith(_NESTED_PREFIXES):
            nested.append(_media(item))
        else:
            siblings.append(_media(item))
    # "Use "output" key to specify function output and "error" key to specify error details"
    # (google-genai FunctionResponse.response, read 2026-08).
    response: dict[str, Any] = {"output": "\n\n".join(texts)}
    error = error_text(message)
    if error is not None:
        response = {"error": error, **({"output": response["output"]} if texts else {})}
    function_response: dict[str, Any] = {"name": name, "response": response}
    if message.tool_call_id is not None:
        function_response = {"id": message.tool_call_id, **function_response}
    if nested:
        function_response["parts"] = nested
    return [{"functionResponse": function_response}, *siblings]


def _part(item: Item) -> dict[str, Any]:
    """Return one text, `inlineData` or `fileData` part."""
    return _media(item) if is_media(item) else {"text": as_text(item)}


def _media(item: NormalizedPart) -> dict[str, Any]:
    if item.url is not None:
        part: dict[str, Any] = {"fileData": {"mimeType": item.media_type, "fileUri": item.url}}
    else:
        part = {"inlineData": {"mimeType": item.media_type, "data": item.base64}}
    if item.detail is not None:  # only set when the model takes it (normalize checks)
        part["mediaResolution"] = {"level": f"MEDIA_RESOLUTION_{item.detail.upper()}"}
    return part


def media_site(node: dict[str, Any], at: Where, problems: Problems) -> Site | None:
    """Return the `inlineData` part that `node` is, if it is one (for `check`).

    REST camelCase and the SDK's snake_case (`inline_data`, `mime_type`) are both read.
    """
    inline = node.get("inlineData", node.get("inline_data"))
    if not isinstance(inline, dict):
        return None
    where = f"{at}.{'inlineData' if 'inlineData' in node else 'inline_data'}.data"
    declared = inline.get("mimeType", inline.get("mime_type"))
    kind = kind_of(canonical_media_type(declared)) if isinstance(declared, str) else "file"
    return Site(where, kind, declared, data=payload_bytes(inline.get("data"), where, problems))
