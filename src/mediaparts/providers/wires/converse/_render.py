"""Render messages as `client.converse` arguments, and find media blocks for `check`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from mediaparts._conversation._merge import merge_runs
from mediaparts._conversation._messages import Assistant, Message, System, Tool, User
from mediaparts._conversation._parts import ReasoningPart
from mediaparts._errors import excerpt
from mediaparts.formats import Kind
from mediaparts.providers._wire._media_sites import Problems, Site, Where, payload_bytes
from mediaparts.providers._wire._rendering import (
    Prepare,
    cache_plan,
    call_ids,
    error_text,
    merge_turns,
    parts,
)
from mediaparts.providers.wires.converse._render_blocks import (
    Names,
    block,
    cache_of,
    cache_point,
    hints_of,
)
from mediaparts.providers.wires.converse._shapes import VALID_NAME, media_type_of

__all__ = ["media_site", "render"]

# botocore bedrock-runtime ToolUseId: pattern [a-zA-Z0-9_.:-]+, 1 to 64 characters (botocore
# 1.44 service model, read 2026-11); another API's longer or stranger id is replaced by call_ids.
_TOOL_USE_ID = re.compile(r"[a-zA-Z0-9_.:-]{1,64}")


def render(messages: Sequence[Message], prepare: Prepare) -> dict[str, Any]:
    """Render messages as the keyword arguments of `client.converse` (beside `modelId`).

    System messages become `system` blocks (one per text part); consecutive messages of one
    role are merged, tool results become `toolResult` blocks at the start of the next user
    turn, and a user turn (or tool result) holding a document but no text gets a short text
    block naming the documents, which the API requires. Document names are made safe and
    unique. A part's `cache` becomes a `cachePoint` after its block. What a payload read by
    `read` wrote in its own way (`native["bedrock"]`) is written back that way.

    Args:
        messages: The conversation, in order.
        prepare: Fits each media part to Bedrock, and reports what Converse cannot carry.

    Returns:
        `{"messages": [...], "system": [...]}`, without `system` when there is none; media as
        raw bytes.

    Raises:
        UnsupportedMediaType: A part has no Converse block, or is a URL other than `s3://`.
        InvalidMedia: A tool call's arguments are not a JSON object.
    """
    provider = prepare.served.name
    for message in messages:
        if not isinstance(message, Tool) and message.name is not None:
            why = (
                f"its name {excerpt(message.name)}: a Converse message has no name "
                "(the content is kept)"
            )
            prepare.lose(message, why)
    ordered = _merged(cache_plan(messages, prepare), provider)
    ids = call_ids(ordered, _TOOL_USE_ID.fullmatch)
    names = Names()
    system: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    for message in ordered:
        hints: Mapping[str, Any] = message.native.get(provider, {})
        if isinstance(message, System) or hints.get("system"):
            # `developer` has no Converse role: it is a system prompt like any other.
            content = _blocks(message, prepare, names, ids)
            if hints.get("in_messages"):
                turns.append({"role": "system", "content": content})
            else:
                system += content
        elif isinstance(message, User):
            turns.append({"role": "user", "content": _blocks(message, prepare, names, ids)})
        elif isinstance(message, Assistant):
            turns.append({"role": "assistant", "content": _blocks(message, prepare, names, ids)})
        else:
            content = _tool_result(message, prepare, names, ids[id(message)])
            turns.append({"role": "user", "content": content})
    merged = merge_turns(turns, first=lambda b: "toolResult" in b)
    payload: dict[str, Any] = {"messages": [_with_text(turn, "content") for turn in merged]}
    if system:
        payload["system"] = system
    return payload


def _merged(messages: Sequence[Message], provider: str) -> list[Message]:
    """Merge runs of same-role messages, but never across system blocks kept in place."""
    out: list[Message] = []
    run: list[Message] = []
    for message in messages:
        if isinstance(message, System) or message.native.get(provider, {}).get("system"):
            out += merge_runs(run)
            run = []
            out.append(message)
        else:
            run.append(message)
    return out + merge_runs(run)


def _blocks(
    message: Message, prepare: Prepare, names: Names, ids: Mapping[int, str]
) -> list[dict[str, Any]]:
    """Return a message's blocks in order, each followed by its cachePoint if it has one."""
    provider = prepare.served.name
    out: list[dict[str, Any]] = []
    for item in parts(message, prepare):
        made = block(item, prepare, names, ids)
        if made is not None:
            out.append(made)
        cache = cache_of(item, provider)
        if cache is not None and isinstance(item, ReasoningPart):
            # As on Anthropic's own API, reasoning takes no cache breakpoint after it.
            prepare.lose(item, "its cache breakpoint: reasoning takes none (the reasoning is kept)")
        elif cache is not None:
            out.append(cache_point(cache, hints_of(item, provider)))
    return out


def _tool_result(
    message: Tool, prepare: Prepare, names: Names, call_id: str
) -> list[dict[str, Any]]:
    """Return a `toolResult` block, and a cachePoint after it when a part has a cache.

    A `cachePoint` cannot sit inside a tool result: a part's cache there becomes one after
    the whole result.
    """
    provider = prepare.served.name
    hints: Mapping[str, Any] = message.native.get(provider, {})
    error = error_text(message)
    content: list[dict[str, Any]] = [{"text": error}] if error is not None else []
    point: dict[str, Any] | None = None
    for item in parts(message, prepare):
        made = block(item, prepare, names, ids={}, in_tool=True)
        if made is not None:
            content.append(made)
        cache = cache_of(item, provider)
        if cache is not None:
            point = cache_point(cache, hints_of(item, provider))
    result: dict[str, Any] = {"toolUseId": call_id, "content": content}
    if message.is_error:
        result["status"] = "error"
    elif "status" in hints:
        result["status"] = hints["status"]
    if "type" in hints:
        result["type"] = hints["type"]
    out = [{"toolResult": _with_text(result, "content")}]
    return out if point is None else [*out, point]


def _with_text(holder: dict[str, Any], key: str) -> dict[str, Any]:
    """Add a text block naming the documents to blocks that hold documents but no text."""
    blocks = holder[key]
    documents = [b["document"]["name"] for b in blocks if "document" in b]
    texts = ("text", "citationsContent", "guardContent")
    if documents and not any(k in b for b in blocks for k in texts):
        label = "Attached document" + ("s" if len(documents) > 1 else "")
        return {**holder, key: [*blocks, {"text": f"{label}: {', '.join(documents)}"}]}
    return holder


# Converse block keys and the kind each holds.
_BLOCK_KINDS: tuple[tuple[str, Kind], ...] = (
    ("image", "image"),
    ("document", "file"),
    ("video", "video"),
    ("audio", "audio"),
)


def media_site(node: dict[str, Any], at: Where, problems: Problems) -> Site | None:
    """Return the `image`, `document`, `video` or `audio` block that `node` is (for `check`).

    A document's `name` is checked against Converse's naming rule (`VALID_NAME`).
    """
    for key, kind in _BLOCK_KINDS:
        block = node.get(key)
        if not isinstance(block, dict) or not isinstance(block.get("source"), dict):
            continue
        source = block["source"]
        given = block.get("name")
        name = (given if isinstance(given, str) else "") if kind == "file" else None
        wrong = None
        if name is not None and not VALID_NAME.match(name):
            wrong = (
                f"document name {excerpt(name)} breaks Converse's rules (1-200 letters, digits, "
                "single spaces, hyphens, parentheses, brackets)"
            )
        if "bytes" not in source:
            # An S3 reference or a text document: counted and named, no bytes to check.
            text = kind == "file" and "text" in source
            return Site(f"{at}.{key}", kind, None, name=name, name_problem=wrong) if text else None
        where = f"{at}.{key}.source.bytes"
        declared = media_type_of(kind, block.get("format"))
        data = payload_bytes(source.get("bytes"), where, problems)
        return Site(where, kind, declared, data=data, name=name, name_problem=wrong)
    return None
