"""Render messages as `client.messages.create` arguments, and find media in such payloads."""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from typing import Any

from typing_extensions import assert_never

from mediaparts._conversation._merge import merge_runs
from mediaparts._conversation._messages import Assistant, Message, System, Tool, User
from mediaparts._conversation._parts import (
    ProviderPart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
)
from mediaparts._errors import UnsupportedMediaType, excerpt
from mediaparts.formats import Kind
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
    Served,
    cache_plan,
    call_arguments,
    call_ids,
    collapse_text,
    error_text,
    hints,
    merge_turns,
    parts,
    unsupported,
)
from mediaparts.providers.wires.messages._shapes import reads_file_ids

__all__ = ["media_site", "render"]

# A tool_use id must match this (the API's 400 names the pattern; anthropic-sdk-python 2.12 does
# not check it), read 2026-11: another API's id (`functions.get:0`) is replaced by call_ids.
_TOOL_USE_ID = re.compile(r"[a-zA-Z0-9_-]+")

_LIST = "__list"  # a turn marked to keep its one text block as a list (removed before return)


def render(messages: Sequence[Message], prepare: Prepare) -> dict[str, Any]:
    """Render messages as the keyword arguments of `client.messages.create`.

    System messages go to the top-level `system` (a string, or text blocks when they carry
    cache breakpoints or were read as blocks); a system message read from inside `messages`
    goes back there. Consecutive messages of one role are merged, tool results become
    `tool_result` blocks at the start of the next user turn, and a turn holding one plain
    text block is sent as a string unless it was read as a list.

    Args:
        messages: The conversation, in order.
        prepare: Fits each media part to the provider served and reports what cannot be carried.

    Returns:
        `{"system": ..., "messages": [...]}`, without `system` when there is none.

    Raises:
        UnsupportedMediaType: A part has no Messages API block (audio, video, other binary
            files, media from the assistant).
        InvalidMedia: A tool call's arguments are not a JSON object.
    """
    provider = prepare.served.name
    messages = cache_plan(messages, prepare)
    top: list[System] = []
    others: list[Message] = []
    for message in messages:
        if isinstance(message, System) and _hints(message, provider).get("system") != "message":
            top.append(message)
        else:
            others.append(message)
    rest = merge_runs(others)
    ids = call_ids(rest, _TOOL_USE_ID.fullmatch)
    turns: list[dict[str, Any]] = []
    for message in rest:
        _lose_name(message, prepare)
        match message:
            case System():
                turns.append(_turn("system", _blocks(message, prepare, ids), message, provider))
            case User():
                turns.append(_turn("user", _blocks(message, prepare, ids), message, provider))
            case Assistant():
                turns.append(_turn("assistant", _blocks(message, prepare, ids), message, provider))
            case Tool():
                result = _tool_result(message, prepare, ids)
                turns.append({"role": "user", "content": [result]})
            case _:
                assert_never(message)
    merged = merge_turns(turns, first=lambda block: block["type"] == "tool_result")
    payload: dict[str, Any] = {}
    system = _system(top, prepare)
    if system:
        payload["system"] = system
    payload["messages"] = [_collapsed(turn) for turn in merged]
    return payload


def _hints(holder: Any, provider: str) -> dict[str, Any]:
    """Return the hints this provider's reader left on a part or message (or {})."""
    return hints(holder, provider)


def _lose_name(message: Message, prepare: Prepare) -> None:
    name = getattr(message, "name", None)
    if name is not None and not isinstance(message, Tool):
        prepare.lose(message, f"its name {excerpt(name)} (the Messages API has no message names)")


def _turn(
    role: str, blocks: list[dict[str, Any]], message: Message, provider: str
) -> dict[str, Any]:
    turn: dict[str, Any] = {"role": role, "content": blocks}
    if _hints(message, provider).get("content") == "list":
        turn[_LIST] = True
    return turn


def _collapsed(turn: dict[str, Any]) -> dict[str, Any]:
    """Return the turn without its marker, its one plain text block as a string if allowed."""
    keep = turn.pop(_LIST, False)
    return turn if keep else {**turn, "content": collapse_text(turn["content"])}


def _system(top: list[System], prepare: Prepare) -> str | list[dict[str, Any]] | None:
    """Return the top-level `system`: text blocks where needed, else the texts joined."""
    provider = prepare.served.name
    blocks: list[dict[str, Any]] = []
    for message in top:
        _lose_name(message, prepare)
        for part in message.parts:
            if isinstance(part, TextPart | RefusalPart):
                made = _text(part, prepare)
                if made is not None:
                    blocks.append(made)
            else:
                prepare.lose(part, "the Messages API's system prompt holds only text")
    if not blocks:
        return None
    as_blocks = any(_hints(m, provider).get("system") == "blocks" for m in top)
    if as_blocks or any(set(b) != {"type", "text"} for b in blocks):
        return blocks
    return "\n\n".join(b["text"] for b in blocks)


def _blocks(message: Message, prepare: Prepare, ids: dict[int, str]) -> list[dict[str, Any]]:
    """Return a message's blocks in order (what cannot be carried goes to `prepare.lose`)."""
    out: list[dict[str, Any]] = []
    for block in parts(message, prepare):
        if isinstance(block, ToolCall) and not isinstance(message, Assistant):
            prepare.lose(block, "only an assistant turn holds tool_use blocks")
        elif isinstance(message, System) and not isinstance(block, TextPart | RefusalPart):
            prepare.lose(block, "a system message holds only text")
        elif (made := _block(block, prepare, ids)) is not None:
            out.append(made)
    return out


def _block(block: Block, prepare: Prepare, ids: dict[int, str]) -> dict[str, Any] | None:
    """Return the Messages API block for one part, or None when it is not carried."""
    provider = prepare.served.name
    match block:
        case TextPart() | RefusalPart():  # a refusal is sent as the text it is
            return _text(block, prepare)
        case NormalizedPart():
            return _media(block, prepare.served)
        case ReasoningPart():
            return _reasoning(block, prepare)
        case ToolCall():
            args = call_arguments(block.id, block.name, block.parsed_arguments())
            made = {"type": "tool_use", "id": ids[id(block)], "name": block.name, "input": args}
            return _finish(made, block, provider)
        case ProviderPart():
            return _finish(copy.deepcopy(block.data), block, provider)
        case _:
            assert_never(block)


def _text(part: TextPart | RefusalPart, prepare: Prepare) -> dict[str, Any] | None:
    provider = prepare.served.name
    if not part.text and part.cache is None:
        return None  # the API refuses empty text blocks
    block: dict[str, Any] = {"type": "text", "text": part.text}
    if isinstance(part, TextPart):
        own = [copy.deepcopy(c.data) for c in part.citations if c.provider == provider]
        if len(own) < len(part.citations):
            prepare.lose(part, f"its citations are not {provider}'s (the text is kept)")
        if own or "citations" in _hints(part, provider):
            block["citations"] = own
    return _finish(block, part, provider)


def replays(part: ReasoningPart, served: Served) -> str | None:
    """Say why a reasoning part is not sent back to the provider served, or None if it is."""
    provider = served.name
    if part.provider != provider:
        return f"{provider} takes back only thinking it signed"
    if not isinstance(part.data, str) and (part.text is None or part.signature is None):
        return "thinking in the Messages API needs its text and signature, or redacted data"
    return None


def _reasoning(part: ReasoningPart, prepare: Prepare) -> dict[str, Any] | None:
    """Return a thinking or redacted_thinking block: Anthropic's own, signed, only."""
    provider = prepare.served.name
    why = replays(part, prepare.served)
    if why is not None:
        prepare.lose(part, why)
        return None
    if part.cache is not None:
        prepare.lose(part, "thinking blocks take no cache_control (the thinking is kept)")
    if isinstance(part.data, str):
        block = {"type": "redacted_thinking", "data": part.data}
    else:
        assert part.text is not None  # replays checked both
        assert part.signature is not None
        block = {"type": "thinking", "thinking": part.text, "signature": part.signature}
    block.update(copy.deepcopy(_hints(part, provider).get("extra", {})))
    return block


def _media(item: NormalizedPart, served: Served) -> dict[str, Any]:
    """Return one image or document block."""
    provider = served.name
    if item.file_id is not None and not reads_file_ids(served):
        raise UnsupportedMediaType(
            f"{provider} reads no Files API file ids ({excerpt(item.file_id)}): give the "
            "file's bytes (they are sent base64)",
            media_type=item.media_type,
            provider=provider,
        )
    hints = _hints(item.part, provider)
    if item.text is not None:
        source = {"type": "text", "media_type": "text/plain", "data": item.text}
        return _document(item, source, hints, provider)
    match item.kind:
        case "image":
            return _finish({"type": "image", "source": _source(item)}, item.part, provider)
        case "file" if item.media_type == "application/pdf" or item.file_id is not None:
            return _document(item, _source(item), hints, provider)
        case "file" | "audio" | "video":  # the Messages API has no block for them
            raise unsupported(provider, item, "(Messages API blocks: images, PDFs, text)")
        case _:
            assert_never(item.kind)


def _source(item: NormalizedPart) -> dict[str, Any]:
    """Return a block's `file`, `url` or `base64` source."""
    if item.file_id is not None:
        return {"type": "file", "file_id": item.file_id}
    if item.url is not None:
        return {"type": "url", "url": item.url}
    return {"type": "base64", "media_type": item.media_type, "data": item.base64}


def _document(
    item: NormalizedPart, source: dict[str, Any], hints: dict[str, Any], provider: str
) -> dict[str, Any]:
    """Return a document block, titled with the file name unless read without a title."""
    block: dict[str, Any] = {"type": "document", "source": source}
    title = hints.get("title", item.filename)
    if title:
        block["title"] = title
    for key in ("context", "citations"):
        if key in hints:
            block[key] = copy.deepcopy(hints[key])
    return _finish(block, item.part, provider)


def _finish(block: dict[str, Any], part: Any, provider: str) -> dict[str, Any]:
    """Add the part's cache breakpoint and the fields kept verbatim by the reader."""
    hints = _hints(part, provider)
    cache = getattr(part, "cache", None)
    if cache is not None and not hints.get("on_result"):
        block["cache_control"] = _control(cache, hints)
    block.update(copy.deepcopy(hints.get("extra", {})))
    return block


def _control(cache: str, hints: dict[str, Any]) -> dict[str, Any]:
    """Return `cache_control`; the default TTL (5m) is written only when it was read so."""
    if cache == "5m" and not hints.get("ttl"):
        return {"type": "ephemeral"}
    return {"type": "ephemeral", "ttl": cache}


def _tool_result(message: Tool, prepare: Prepare, ids: dict[int, str]) -> dict[str, Any]:
    """Return a tool_result block: the error first, then the parts a result can hold."""
    provider = prepare.served.name
    error = error_text(message)
    content: list[dict[str, Any]] = [{"type": "text", "text": error}] if error else []
    result_cache: Any = None
    for block in parts(message, prepare):
        if isinstance(block, ToolCall | ReasoningPart):
            prepare.lose(block, "a tool_result holds no tool calls or thinking")
            continue
        made = _block(block, prepare, ids)
        source = block.part if isinstance(block, NormalizedPart) else block
        if _hints(source, provider).get("on_result"):
            result_cache = source
        if made is not None:
            content.append(made)
    out: dict[str, Any] = {"type": "tool_result", "tool_use_id": ids[id(message)]}
    hints = _hints(message, provider)
    if hints.get("content") == "str" and len(content) == 1 and set(content[0]) == {"type", "text"}:
        out["content"] = content[0]["text"]
    elif content or hints.get("content") == "list":
        out["content"] = content
    if message.is_error:
        out["is_error"] = True
    if result_cache is not None and result_cache.cache is not None:
        out["cache_control"] = _control(result_cache.cache, _hints(result_cache, provider))
    out.update(copy.deepcopy(hints.get("extra", {})))
    return out


def media_site(node: dict[str, Any], at: Where, problems: Problems) -> Site | None:
    """Return the `image` or `document` block that `node` is, if it is one (for `check`).

    Only `base64` and `url` sources carry media to check; a `text`, `content` or `file`
    source does not.
    """
    kind_tag = node.get("type")
    if kind_tag not in ("image", "document") or not isinstance(node.get("source"), dict):
        return None
    source = node["source"]
    kind: Kind = "image" if kind_tag == "image" else "file"
    if source.get("type") == "base64":
        where = f"{at}.source.data"
        declared = source.get("media_type")
        return Site(where, kind, declared, data=payload_bytes(source.get("data"), where, problems))
    if source.get("type") == "url":
        return url_text_site(kind, source.get("url"), f"{at}.source.url", problems)
    return None
