"""Render messages as Chat Completions `messages`, and find its media blocks for `check`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typing_extensions import assert_never

from mediaparts._messages import Assistant, Message, System, Tool, User
from mediaparts.detection import canonical_media_type
from mediaparts.providers._normalized import NormalizedPart
from mediaparts.providers._render_common import (
    Item,
    Prepare,
    as_text,
    error_text,
    filename_for,
    is_media,
    items,
    joined_text,
    no_assistant_media,
    unsupported,
)
from mediaparts.providers._sites import Problems, Site, Where, payload_bytes, url_text_site
from mediaparts.providers.openai._tables import RULES

__all__ = ["file_data_site", "media_site", "render"]

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
            out.append(_assistant(message))
        else:
            text, media = _tool(message, prepare)
            out.append({"role": "tool", "tool_call_id": message.tool_call_id, "content": text})
            tool_media.extend(media)
    if tool_media:
        out.append({"role": "user", "content": tool_media})
    return {"messages": out}


def _assistant(message: Assistant) -> dict[str, Any]:
    no_assistant_media(message, RULES.provider)
    text = message.content
    out: dict[str, Any] = {"role": "assistant", "content": text or None}
    if message.tool_calls:
        out["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for call in message.tool_calls
        ]
    elif not text:
        out["content"] = ""  # content may be null only beside tool calls
    return out


def _tool(message: Tool, prepare: Prepare) -> tuple[str, list[dict[str, Any]]]:
    """Return a tool message's text content and the blocks of media to send after it."""
    error = error_text(message)
    parts = ([error] if error else []) + items(message, prepare)
    texts = [p for p in parts if not is_media(p)]
    media = [_block(p) for p in parts if is_media(p)]
    if media:
        texts.append(f"[{_count(parts)} returned by this tool: attached to the next user message]")
        label = f"Media returned by tool call {message.tool_call_id}:"
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
