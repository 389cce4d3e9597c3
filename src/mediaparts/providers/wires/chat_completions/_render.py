"""Render messages as Chat Completions `messages`, and find its media blocks for `check`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typing_extensions import assert_never

from mediaparts._conversation._messages import Assistant, Message, System, Tool, User
from mediaparts._conversation._parts import (
    MediaPart,
    Part,
    ProviderPart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
)
from mediaparts.detection import canonical_media_type
from mediaparts.providers._fitting._normalized import NormalizedPart
from mediaparts.providers._wire._media_sites import (
    Problems,
    Site,
    Where,
    payload_bytes,
    url_text_site,
)
from mediaparts.providers._wire._rendering import (
    Block,
    Prepare,
    call_ids,
    copied,
    filename_for,
    hints,
    parts,
    text_file,
    unsupported,
)
from mediaparts.providers.wires.chat_completions import _variants
from mediaparts.providers.wires.chat_completions._common import (
    REFUSAL_AS_TEXT,
    file_urls,
    tool_error,
    without_breakpoints,
    write_breakpoint,
)
from mediaparts.providers.wires.chat_completions._shapes import (
    AUDIO_FORMATS,
    Shape,
    default_shape,
)

__all__ = ["file_data_site", "media_site", "render"]

_NO_REASONING = "Chat Completions requests carry no reasoning"
_NOT_OWN_REASONING = "reasoning not of this provider, or without its text, is not sent back"
# `prompt_cache_breakpoint` sits on a content part; a tool call and the assistant's `refusal`
# string have no such field (openai-python 3.54
# chat_completion_message_function_tool_call_param.py, read 2026-11).
_NO_CALL_BREAKPOINT = (
    "its cache breakpoint: a Chat Completions tool call takes none (the call is kept)"
)
_REFUSAL_AS_TEXT = "that it is a refusal: this API has no refusal field (its text is sent)"
_NO_REFUSAL_BREAKPOINT = (
    "its cache breakpoint: the assistant's refusal field takes none (the refusal is kept)"
)
# The schemes of a `file_data` that is a URL, not bare base64.
_WEB = ("https://", "http://")
# Content part type → the kind of media it carries (`document_url`: the `document_url` quirk).
_MEDIA_BLOCKS = {
    "image_url": "image",
    "input_audio": "audio",
    "file": "file",
    "document_url": "file",
}


def render(messages: Sequence[Message], prepare: Prepare) -> dict[str, Any]:
    """Render messages as the keyword arguments of `client.chat.completions.create`.

    Each message keeps its place and role (`developer` included); parts keep their order
    within the content, and the spellings a payload was read with (`native[<provider>]`) are
    written back. Tool messages carry text only (the API's rule), so media in a run of tool
    results is sent in one user message right after the run, each group introduced by a line
    naming its tool call. What has no place here goes through `prepare.lose`: reasoning,
    citations from other providers, and (in `parts`) other providers' blocks and files.

    Args:
        messages: The conversation, in order.
        prepare: Fits each media part to the provider served and reports what cannot be carried.

    Returns:
        `{"messages": [...]}`, a list of `ChatCompletionMessageParam` dicts.

    Raises:
        UnsupportedMediaType: A part has no Chat Completions shape (video, audio by URL, a file
            by URL, media from the assistant).
    """
    provider = prepare.served.name
    out: list[dict[str, Any]] = []
    tool_media: list[dict[str, Any]] = []
    messages = without_breakpoints(messages, prepare)
    ids = call_ids(messages)
    for message in messages:
        if tool_media and not isinstance(message, Tool):
            out.append({"role": "user", "content": tool_media})
            tool_media = []
        match message:
            case System() | User():
                blocks = _content(message, prepare)
                role = _role(message, prepare)
                name = _name(message, prepare)
                out.append(_turn(message, role, blocks, False, name, provider))
            case Assistant():
                out.append(_assistant(message, prepare, ids))
            case Tool():
                turn, media = _tool(message, prepare, ids[id(message)])
                out.append(turn)
                tool_media.extend(media)
            case _:
                assert_never(message)
    if tool_media:
        out.append({"role": "user", "content": tool_media})
    return {"messages": out}


def _role(message: System | User, prepare: Prepare) -> str:
    """Return a message's role, a `developer` one as `system` where the API has none."""
    if message.role == "developer" and "developer" not in _variants.roles(
        prepare.served, ("developer",)
    ):
        prepare.lose(message, "its developer role: this API has none (sent as a system message)")
        return "system"
    return message.role


def _name(message: System | User | Assistant, prepare: Prepare) -> str | None:
    """Return a message's name, or None, reporting it lost, where the API's messages have none."""
    if message.name is not None and not _variants.takes(prepare.served, _variants.MESSAGE_NAMES):
        prepare.lose(message, f"its name {message.name!r}: this API's messages have none")
        return None
    return message.name


def _hints(part: Part | MediaPart | Message, provider: str) -> dict[str, Any]:
    """Return the spellings the provider served wrote for a part or message (its `native`)."""
    return hints(part, provider)


def _turn(
    message: Message,
    role: str,
    blocks: list[dict[str, Any]],
    other: bool,
    name: str | None,
    provider: str,
) -> dict[str, Any]:
    """Return a message dict: its role, content in the shape it was written with, its name."""
    out: dict[str, Any] = {**_hints(message, provider).get("fields", {}), "role": role}
    plain = [_is_plain(b) for b in blocks]
    shape: Shape = _hints(message, provider).get("content") or default_shape(role, plain, other)
    if (shape in ("null", "absent") and blocks) or (shape == "string" and not all(plain)):
        shape = default_shape(role, plain, other)
    if shape == "string":
        out["content"] = "\n\n".join(b["text"] for b in blocks)
    elif shape == "list":
        out["content"] = blocks
    elif shape == "null":
        out["content"] = None
    if name is not None:
        out["name"] = name
    return out


def _is_plain(block: dict[str, Any]) -> bool:
    return block.get("type") == "text" and set(block) == {"type", "text"}


def _content(message: Message, prepare: Prepare) -> list[dict[str, Any]]:
    """Return the content parts of a system, user or tool message, in order."""
    provider = prepare.served.name
    out: list[dict[str, Any]] = []
    for block, source in _blocks(message, prepare):
        match block:
            case TextPart():
                out.append(_text(block, prepare))
            case NormalizedPart() if block.file_id is not None and block.kind != "file":
                # Only the `file` part has a `file_id` field (openai-python 3.54, read 2026-11).
                why = f"Chat Completions takes a file id only in a file part, not as {block.kind}"
                prepare.lose(source or block, why)
            case NormalizedPart():
                out.append(_block(block, source, prepare))
            case ProviderPart():
                out.append(copied(block.data))
            case RefusalPart():  # a refusal outside the assistant's turn is just text
                out.append(_extra(block, {"type": "text", "text": block.text}, provider))
            case ReasoningPart():
                prepare.lose(block, _NO_REASONING)
            case ToolCall():
                prepare.lose(block, "Chat Completions takes tool calls only from the assistant")
            case _:
                assert_never(block)
    return out


def _blocks(message: Message, prepare: Prepare) -> list[tuple[Block, Part | MediaPart | None]]:
    """Return `parts(message)` with each prepared media part beside the part it came from.

    The source keeps what the prepared part does not: its cache breakpoint and hints.
    """
    return [(b, b.part if isinstance(b, NormalizedPart) else None) for b in parts(message, prepare)]


def _extra(part: Part | MediaPart, block: dict[str, Any], provider: str) -> dict[str, Any]:
    """Add a part's cache breakpoint and the fields it was written with to its block."""
    hints = _hints(part, provider)
    if part.cache is not None:
        block["prompt_cache_breakpoint"] = write_breakpoint(part.cache, hints.get("breakpoint"))
    return {**hints.get("fields", {}), **block}


def _text(part: TextPart, prepare: Prepare) -> dict[str, Any]:
    provider = prepare.served.name
    if any(c.provider != provider for c in part.citations):
        prepare.lose(part, "Chat Completions requests have no citations (the text is kept)")
    return _extra(part, {"type": "text", "text": part.text}, provider)


def _assistant(message: Assistant, prepare: Prepare, ids: dict[int, str]) -> dict[str, Any]:
    """Return an assistant turn: content, then `refusal`, `audio`, `function_call`, `tool_calls`.

    The API's own `url_citation` annotations are not part of a request, so they are left out
    without a loss; an audio transcript is left out when the audio goes back by id.
    """
    provider = prepare.served.name
    content: list[dict[str, Any]] = []
    thoughts: list[str] = []
    field = _variants.reasoning_field(prepare.served)
    refusals: list[str] = []
    fields: dict[str, Any] = {}
    calls: list[dict[str, Any]] = []
    audio = any(_message_field(p, "audio", provider) for p in message.parts)
    for block in parts(message, prepare):
        match block:
            case TextPart():
                if not (audio and _hints(block, provider).get("transcript")):
                    content.append(_text(block, prepare))
            case RefusalPart() if prepare.served.quirks.get(REFUSAL_AS_TEXT):
                prepare.lose(block, _REFUSAL_AS_TEXT)
                content.append({"type": "text", "text": block.text})
            case RefusalPart():
                if _hints(block, provider).get("in") == "content":
                    content.append(
                        _extra(block, {"type": "refusal", "refusal": block.text}, provider)
                    )
                else:
                    refusals.append(block.text)
                    if block.cache is not None:
                        prepare.lose(block, _NO_REFUSAL_BREAKPOINT)
            case ToolCall():
                if (
                    _hints(block, provider).get("in") == "function_call"
                    and "function_call" not in fields
                ):
                    fields["function_call"] = {"name": block.name, "arguments": block.arguments}
                else:
                    calls.append(_tool_call(block, ids[id(block)], provider))
                if block.cache is not None:
                    prepare.lose(block, _NO_CALL_BREAKPOINT)
            case ProviderPart():
                place = _hints(block, provider).get("in", "content")
                if place == "message":
                    fields.update(copied(block.data))
                elif place == "tool_calls":
                    calls.append(copied(block.data))
                else:
                    content.append(copied(block.data))
            case NormalizedPart():  # refused above
                pass
            case ReasoningPart() if _variants.has(prepare.served, _variants.THINKING):
                if block.provider == provider and block.text is not None:
                    content.append(_variants.thinking_block(block))
                else:
                    prepare.lose(block, _NOT_OWN_REASONING)
            case ReasoningPart() if field is not None:
                if block.provider == provider and block.text is not None:
                    thoughts.append(block.text)
                else:
                    prepare.lose(block, _NOT_OWN_REASONING)
            case ReasoningPart():
                prepare.lose(block, _NO_REASONING)
            case _:
                assert_never(block)
    if thoughts and field is not None:  # its `reasoning_field` quirk
        fields[field] = "\n\n".join(thoughts)
    if refusals:
        fields["refusal"] = "\n\n".join(refusals)
    if calls:
        fields["tool_calls"] = calls
    turn = _turn(message, "assistant", content, bool(fields), _name(message, prepare), provider)
    return {**turn, **fields}


def _message_field(part: Part, key: str, provider: str) -> bool:
    """Tell whether a part is the provider's own message field `key` (`audio`) kept as a block."""
    return (
        isinstance(part, ProviderPart)
        and part.provider == provider
        and _hints(part, provider).get("in") == "message"
        and key in part.data
    )


def _tool_call(call: ToolCall, call_id: str, provider: str) -> dict[str, Any]:
    if _hints(call, provider).get("type") == "custom":
        try:
            spec = call.parsed_arguments()
        except ValueError:
            spec = None
        text = (
            spec["input"] if isinstance(spec, dict) and isinstance(spec.get("input"), str) else None
        )
        custom = {"name": call.name, "input": call.arguments if text is None else text}
        return {"id": call_id, "type": "custom", "custom": custom}
    function = {"name": call.name, "arguments": call.arguments}
    if _hints(call, provider).get("type") == "absent":  # read without `type`
        return {"id": call_id, "function": function}
    return {"id": call_id, "type": "function", "function": function}


def _tool(
    message: Tool, prepare: Prepare, call_id: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Return a tool message (text only) and the blocks of media to send after it."""
    provider = prepare.served.name
    texts: list[dict[str, Any]] = []
    media: list[dict[str, Any]] = []
    error = tool_error(message, prepare)
    if error is not None:
        texts.append({"type": "text", "text": error})
    for block in _content(message, prepare):
        (media if block.get("type") in _MEDIA_BLOCKS else texts).append(block)
    if media:
        note = f"[{_count(media)} returned by this tool: attached to the next user message]"
        texts.append({"type": "text", "text": note})
        label = f"Media returned by tool call {call_id}:"
        media.insert(0, {"type": "text", "text": label})
    if _hints(message, provider).get("role") == "function":
        return _turn(message, "function", texts, False, message.name or "", provider), media
    # Results are paired by id: a tool message has no name.
    return {**_turn(message, "tool", texts, False, None, provider), "tool_call_id": call_id}, media


def _count(blocks: list[dict[str, Any]]) -> str:
    """Describe media blocks: `"1 image"`, `"2 images and 1 file"`."""
    kinds = [_MEDIA_BLOCKS[b["type"]] for b in blocks]
    counts = [
        f"{kinds.count(k)} {k}{'s' if kinds.count(k) > 1 else ''}" for k in dict.fromkeys(kinds)
    ]
    return " and ".join(counts)


def _block(
    item: NormalizedPart, source: Part | MediaPart | None, prepare: Prepare
) -> dict[str, Any]:
    """Return one Chat Completions content part for prepared media (in the shapes the
    provider's quirks name, `_variants`)."""
    served = prepare.served
    provider = served.name
    hints = _hints(source, provider) if source is not None else {}
    block: dict[str, Any]
    if item.text is not None:  # a text file, read as text
        block = {"type": "text", "text": text_file(item)}
        return block if source is None else _extra(source, block, provider)
    inner = hints.get("inner", {})
    match item.kind:
        case "image" if _variants.written_as_string(source, provider) and item.detail is None:
            block = {"type": "image_url", "image_url": _image_url(item)["url"]}
        case "image":
            block = {"type": "image_url", "image_url": {**inner, **_image_url(item)}}
        case "audio" if _variants.has(served, _variants.AUDIO_STRING):
            block = _variants.audio_block(item)
        case "audio":
            block = {"type": "input_audio", "input_audio": {**inner, **_audio(item, provider)}}
        case "file" if _variants.has(served, _variants.DOCUMENT_URL):
            block = _variants.file_block(item, hints)
        case "file":
            spec = _file(item, hints, provider, file_urls(prepare.served))
            block = {"type": "file", "file": {**inner, **spec}}
        case "video":  # Chat Completions has no video input
            raise unsupported(provider, item, "in Chat Completions")
        case _:
            assert_never(item.kind)
    return block if source is None else _extra(source, block, provider)


def _file(item: NormalizedPart, hints: dict[str, Any], provider: str, urls: bool) -> dict[str, Any]:
    if item.file_id is not None:
        named = {"filename": item.filename} if item.filename else {}
        return {"file_id": item.file_id, **named}
    if item.url is not None and urls:  # the `file_urls` quirk: file_data carries the URL
        return {"filename": filename_for(item), "file_data": item.url}
    if item.url is not None:
        raise unsupported(provider, item, "(the file part has no URL field)")
    data = item.base64 if hints.get("file_data") == "base64" else item.data_uri
    if hints.get("filename") is False and item.filename is None:
        return {"file_data": data}
    return {"file_data": data, "filename": filename_for(item)}


def _image_url(item: NormalizedPart) -> dict[str, Any]:
    out: dict[str, Any] = {"url": item.url if item.url is not None else item.data_uri}
    if item.detail is not None:
        out["detail"] = item.detail
    return out


def _audio(item: NormalizedPart, provider: str) -> dict[str, Any]:
    fmt = AUDIO_FORMATS.get(item.media_type)
    if fmt is None or item.url is not None:
        raise unsupported(provider, item, "(input_audio takes base64 wav or mp3 only)")
    return {"data": item.base64, "format": fmt}


def media_site(node: dict[str, Any], at: Where, problems: Problems) -> Site | None:
    """Return the media block of Chat Completions that `node` is, if it is one (for `check`):
    the openai SDK's shapes, and those of the chunk quirks (`_variants.site`)."""
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
        spec = node.get("file", node)
        return file_data_site(spec, f"{at}.file.file_data", problems, urls=True)
    return _variants.site(node, at, problems)


def file_data_site(
    spec: dict[str, Any], where: str, problems: Problems, *, urls: bool = False
) -> Site | None:
    """Return the site of a `file_data` field (a data URI, or bare base64; with `urls`, an
    http(s) URL too), if there is one."""
    if spec.get("file_data") is None:
        return None
    site = url_text_site("file", spec["file_data"], where, problems)
    # In a Chat Completions `file` part an http(s) URL is a URL (sent so under the `file_urls`
    # quirk; the rules say whether the provider fetches it); other text is bare base64.
    web = urls and site.url is not None and site.url.startswith(_WEB)
    if site.data is None and site.url is not None and not web:
        site = Site(where, "file", None, data=payload_bytes(spec["file_data"], where, problems))
    return site
