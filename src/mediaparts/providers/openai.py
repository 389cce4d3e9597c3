"""OpenAI Chat Completions: its media rules and `render` to `chat.completions.create` arguments.

The shapes follow the openai SDK's `ChatCompletionMessageParam` (openai-python 3.54, read
2026-08): text, `image_url`, `input_audio` and `file` content parts; assistant `tool_calls`;
`tool` messages whose content is text only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typing_extensions import assert_never

from mediaparts._messages import Assistant, Message, System, Tool, User
from mediaparts.detection import canonical_media_type
from mediaparts.providers._media_costs import CostsTable, MediaCosts
from mediaparts.providers._normalized import NormalizedPart
from mediaparts.providers._render_common import (
    TEXT_TYPES,
    Item,
    Prepare,
    as_text,
    call_ids,
    error_text,
    filename_for,
    is_media,
    items,
    joined_text,
    no_assistant_media,
    unsupported,
)
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._sites import Problems, Site, Where, payload_bytes, url_text_site
from mediaparts.providers._vision import (
    ModelRule,
    OpenAIPatches,
    OpenAITiles,
    PatchBudget,
    VisionTable,
)

__all__ = [
    "COSTS",
    "COSTS_SOURCE",
    "OFFICE_TYPES",
    "RULES",
    "VISION",
    "VISION_SOURCE",
    "file_data_site",
    "media_site",
    "render",
]

_IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp", "image/gif")

# Binary documents OpenAI reads: "doc, docx, rtf, odt; ppt, pptx; … xls, xlsx" beside PDF
# (developers.openai.com/api/docs/guides/file-inputs, read 2026-08). Only PDFs on vision models
# get page images; the others are read as text by OpenAI.
OFFICE_TYPES: tuple[str, ...] = (
    "application/msword",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/rtf",
    "application/vnd.oasis.opendocument.text",
    "application/vnd.ms-powerpoint",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.ms-excel",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
)


def _uniform(budget: PatchBudget, multiplier: float) -> OpenAIPatches:
    return OpenAIPatches({"low": budget, "high": budget}, multiplier, auto="high")


_GPT_5_5_HIGH = PatchBudget(2048, 2500)
_GPT_5_5_ORIGINAL = PatchBudget(6000, 10_000)
_EVERY_LEVEL_6144 = PatchBudget(2048, 6144)
_OLD_1536 = PatchBudget(65_535, 1536)  # no pixel box on the older page, only the budget
_GPT_5_TILES = OpenAITiles(base=70, tile=140)
_GPT_4O_TILES = OpenAITiles(base=85, tile=170)
_O_SERIES_TILES = OpenAITiles(base=75, tile=150)

# OpenAI images-vision guide ("Model sizing behavior", "Calculating costs": patch budgets,
# multipliers, tile bases), read 2026-08 (gpt-5.5 `low` from the same
# page's sizing table). Rows after gpt-4.1-mini that the current page drops from its sizing
# table (gpt-5-mini/nano, gpt-4.1-nano, o4-mini: multipliers only) keep the older page's
# 1,536-patch budget. computer-use-preview is from the mid-2025 page. First row = default.
VISION: VisionTable = (
    ModelRule(
        "gpt-5.6*",
        OpenAIPatches(
            {"low": PatchBudget(512), "high": _GPT_5_5_HIGH, "original": PatchBudget(65_535)},
            1.2,
            auto="original",
        ),
    ),
    ModelRule(
        "gpt-5.5*",
        OpenAIPatches(
            {"low": PatchBudget(512), "high": _GPT_5_5_HIGH, "original": _GPT_5_5_ORIGINAL},
            1.2,
            auto="original",
        ),
    ),
    # gpt-5.4, -mini, -nano: `low` has the larger 6,144 budget, so it can cost more than `high`.
    ModelRule(
        "gpt-5.4*",
        OpenAIPatches(
            {"low": _EVERY_LEVEL_6144, "high": _GPT_5_5_HIGH, "original": _GPT_5_5_ORIGINAL},
            1.2,
            auto="high",
        ),
    ),
    ModelRule("gpt-5.2*", _uniform(_EVERY_LEVEL_6144, 1.2)),
    ModelRule("gpt-4.1-mini*", _uniform(_EVERY_LEVEL_6144, 1.62)),
    ModelRule("gpt-5.1*", _GPT_5_TILES),
    ModelRule("gpt-5-mini*", _uniform(_OLD_1536, 1.2)),
    ModelRule("gpt-5-nano*", _uniform(_OLD_1536, 1.5)),
    ModelRule("gpt-4.1-nano*", _uniform(_OLD_1536, 2.46)),
    ModelRule("o4-mini*", _uniform(_OLD_1536, 1.72)),
    ModelRule("gpt-5", _GPT_5_TILES),
    ModelRule("gpt-5-*", _GPT_5_TILES),
    ModelRule("gpt-4o-mini*", OpenAITiles(base=2833, tile=5667)),
    ModelRule("gpt-4o*", _GPT_4O_TILES),
    ModelRule("chatgpt-4o*", _GPT_4O_TILES),
    ModelRule("gpt-4.1*", _GPT_4O_TILES),
    ModelRule("gpt-4.5*", _GPT_4O_TILES),
    ModelRule("o1*", _O_SERIES_TILES),
    ModelRule("o3*", _O_SERIES_TILES),
    ModelRule("computer-use-preview*", OpenAITiles(base=65, tile=129)),
    # Input fidelity "high" adds 4,160 (square) or 6,240 tokens on top; not modelled here.
    ModelRule("gpt-image-1", OpenAITiles(base=65, tile=129, short_side=512)),
)

VISION_SOURCE = (
    "developers.openai.com/api/docs/guides/images-vision, model sizing behavior and calculating "
    "costs; computer-use-preview from the mid-2025 page (read 2026-08)"
)

# Token rates, read 2026-08: OpenAI documents no audio, video or PDF token formula (PDF pages
# cost their text plus an image each, sizes undocumented).
COSTS: CostsTable = (ModelRule("*", MediaCosts("OpenAI", not_accepted=frozenset({"video"}))),)
COSTS_SOURCE = (
    "developers.openai.com/api/docs/guides/images-vision and file-inputs: no audio, video or "
    "PDF token formula documented (read 2026-08)"
)


RULES = Rules(
    vision=VISION,
    costs=COSTS,
    vision_source=VISION_SOURCE,
    costs_source=COSTS_SOURCE,
    provider="openai",
    # developers.openai.com/api/docs/guides/images-vision (read 2026-08): PNG, JPEG, WEBP and
    # non-animated GIF; "Up to 1,500 images per request"; no per-image byte limit on the current
    # page (older pages said 20 MB, then 50 MB in total). URLs are fetched by OpenAI. `original`
    # is in the SDK's chat `ImageURL.detail` Literal as of openai-python 3.54 (2026-08).
    image=ImageRules(
        media_types=_IMAGE_TYPES,
        url_types=_IMAGE_TYPES,
        max_count=1500,
        animated=False,
        detail_levels=("auto", "low", "high", "original"),
        source="developers.openai.com/api/docs/guides/images-vision; openai-python "
        "chat_completion_content_part_image_param.py (read 2026-08)",
    ),
    # `input_audio` takes base64 data with format "wav" | "mp3" only; it has no URL field
    # (openai-python chat_completion_content_part_input_audio_param.py, read 2026-08).
    audio=KindRules(
        media_types=("audio/wav", "audio/mpeg"),
        source="openai-python chat_completion_content_part_input_audio_param.py (read 2026-08)",
    ),
    # Chat Completions has no video input (no content part type for it, SDK read 2026-08).
    video=KindRules(source="openai-python chat_completion_content_part_param.py (read 2026-08)"),
    # The `file` part takes `file_data` or `file_id`, not a URL. PDFs: "up to 100 pages and 32MB
    # of total content in a single request … across multiple file inputs" (pdf-files guide, the
    # newest figure found), used here as a per-file bound. Text formats go as text parts.
    file=FileRules(
        media_types=("application/pdf", *OFFICE_TYPES),
        max_bytes=32_000_000,
        text_types=TEXT_TYPES,
        source="developers.openai.com/api/docs/guides/file-inputs and pdf-files; openai-python "
        "chat_completion_content_part_param.py (read 2026-08)",
    ),
    # "Up to 512 MB total payload per request" (images-vision guide, read 2026-08).
    max_request_bytes=512_000_000,
    source="developers.openai.com/api/docs/guides/images-vision (read 2026-08)",
)

_AUDIO_FORMATS = {"audio/wav": "wav", "audio/mpeg": "mp3"}


def render(messages: Sequence[Message], prepare: Prepare) -> dict[str, Any]:
    """Render messages as the keyword arguments of `client.chat.completions.create`.

    System messages stay in place as `system` messages. Tool messages carry text only (the
    API's rule), so media in a run of tool results is sent in one user message right after
    the run, each group introduced by a line naming its tool call.

    Args:
        messages: The conversation, in order.
        prepare: Fits each media part to OpenAI (normally `mp.normalize` bound to it).

    Returns:
        `{"messages": [...]}`, a list of `ChatCompletionMessageParam` dicts.

    Raises:
        UnsupportedMediaType: A part has no Chat Completions shape (video, audio by URL, a file
            by URL, media from the assistant).
    """
    out: list[dict[str, Any]] = []
    tool_media: list[dict[str, Any]] = []
    ids = call_ids(messages)
    for message in messages:
        if tool_media and not isinstance(message, Tool):
            out.append({"role": "user", "content": tool_media})
            tool_media = []
        if isinstance(message, System):
            out.append({"role": "system", "content": message.content})
        elif isinstance(message, User):
            parts = items(message, prepare)
            text = joined_text(parts)
            content = text if text is not None else [_block(item) for item in parts]
            out.append({"role": "user", "content": content})
        elif isinstance(message, Assistant):
            out.append(_assistant(message, ids))
        else:
            text, media = _tool(message, prepare, ids[id(message)])
            out.append({"role": "tool", "tool_call_id": ids[id(message)], "content": text})
            tool_media.extend(media)
    if tool_media:
        out.append({"role": "user", "content": tool_media})
    return {"messages": out}


def _assistant(message: Assistant, ids: dict[int, str]) -> dict[str, Any]:
    no_assistant_media(message, RULES.provider)
    text = message.content
    out: dict[str, Any] = {"role": "assistant", "content": text or None}
    if message.tool_calls:
        out["tool_calls"] = [
            {
                "id": ids[id(call)],
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for call in message.tool_calls
        ]
    elif not text:
        out["content"] = ""  # content may be null only beside tool calls
    return out


def _tool(message: Tool, prepare: Prepare, call_id: str) -> tuple[str, list[dict[str, Any]]]:
    """Return a tool message's text content and the blocks of media to send after it."""
    error = error_text(message)
    parts = ([error] if error else []) + items(message, prepare)
    texts = [p for p in parts if not is_media(p)]
    media = [_block(p) for p in parts if is_media(p)]
    if media:
        texts.append(f"[{_count(parts)} returned by this tool: attached to the next user message]")
        label = f"Media returned by tool call {call_id}:"
        media.insert(0, {"type": "text", "text": label})
    return joined_text(texts) or "", media


def _count(parts: list[Item]) -> str:
    """Describe the media among `parts`: `"1 image"`, `"2 images and 1 file"`."""
    kinds = [p.kind for p in parts if is_media(p)]
    counts = [
        f"{kinds.count(k)} {k}{'s' if kinds.count(k) > 1 else ''}" for k in dict.fromkeys(kinds)
    ]
    return " and ".join(counts)


def _block(item: Item) -> dict[str, Any]:
    """Return one Chat Completions content part."""
    if not is_media(item):
        return {"type": "text", "text": as_text(item)}
    match item.kind:
        case "image":
            return {"type": "image_url", "image_url": _image_url(item)}
        case "audio":
            return _audio(item)
        case "file":
            if item.url is not None:
                raise unsupported(RULES.provider, item, "(the file part has no URL field)")
            file = {"file_data": item.data_uri, "filename": filename_for(item)}
            return {"type": "file", "file": file}
        case "video":  # Chat Completions has no video input
            raise unsupported(RULES.provider, item, "in Chat Completions")
        case _:
            assert_never(item.kind)


def _image_url(item: NormalizedPart) -> dict[str, Any]:
    out: dict[str, Any] = {"url": item.url if item.url is not None else item.data_uri}
    if item.detail is not None:
        out["detail"] = item.detail
    return out


def _audio(item: NormalizedPart) -> dict[str, Any]:
    fmt = _AUDIO_FORMATS.get(item.media_type)
    if fmt is None or item.url is not None:
        raise unsupported(RULES.provider, item, "(input_audio takes base64 wav or mp3 only)")
    return {"type": "input_audio", "input_audio": {"data": item.base64, "format": fmt}}


def media_site(node: dict[str, Any], at: Where, problems: Problems) -> Site | None:
    """Return the media block of Chat Completions that `node` is, if it is one (for `check`)."""
    kind_tag = node.get("type")
    if kind_tag == "image_url" and isinstance(node.get("image_url"), dict):
        spec = node["image_url"]
        where = f"{at}.image_url.url"
        return url_text_site("image", spec.get("url"), where, problems, detail=spec.get("detail"))
    if kind_tag == "input_audio" and isinstance(node.get("input_audio"), dict):
        spec = node["input_audio"]
        where = f"{at}.input_audio.data"
        declared = f"audio/{spec.get('format')}" if spec.get("format") else None
        declared = canonical_media_type(declared) if declared else None
        return Site(where, "audio", declared, data=payload_bytes(spec.get("data"), where, problems))
    if kind_tag == "file" and isinstance(node.get("file", node), dict):
        return file_data_site(node.get("file", node), f"{at}.file.file_data", problems)
    return None


def file_data_site(spec: dict[str, Any], where: str, problems: Problems) -> Site | None:
    """Return the site of a `file_data` field (a data URI, or bare base64), if there is one."""
    if spec.get("file_data") is None:
        return None
    site = url_text_site("file", spec["file_data"], where, problems)
    if site.data is None and site.url is not None:  # bare base64
        site = Site(where, "file", None, data=payload_bytes(spec["file_data"], where, problems))
    return site
