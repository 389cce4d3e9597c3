"""Read `client.converse` arguments and responses back into messages (the inverse of `render`).

A user turn's `toolResult` blocks become `Tool` messages (in order, around the user's own
parts); a `cachePoint` becomes the `cache` of the block before it; the top-level `system`
blocks become `System` messages, and a `system` role turn inside `messages` (a mid-conversation
system message) a `System` marked `in_messages`. Field names and enums: botocore 1.44's
bedrock-runtime service model (service-2.json, read 2026-11).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeAlias

from mediaparts._conversation._dialogue import Cache
from mediaparts._conversation._made import made
from mediaparts._conversation._messages import Assistant, Message, System, Tool, Usage, User
from mediaparts._conversation._parts import TextPart
from mediaparts._errors import InvalidMedia
from mediaparts.providers._wire._reading import (
    as_dict,
    as_list,
    maybe,
    need,
    plain,
    read_dict,
    shown,
    stop_reason,
    token_count,
)
from mediaparts.providers._wire._rendering import Served
from mediaparts.providers.wires.converse._read_blocks import (
    Extra,
    Made,
    cache_point,
    json_result,
    one_key,
    part,
    provider_part,
)
from mediaparts.providers.wires.converse._shapes import STOP_REASONS

__all__ = ["read", "read_response", "read_usage"]

Point: TypeAlias = tuple[Cache, Extra, Any]
"""A `cachePoint` that follows a block: its TTL, its hints, and the block as written."""


def read(payload: Any, served: Served) -> list[Message]:
    """Return the messages of `client.converse` arguments (or of just their `messages` list).

    Other call arguments (`modelId`, `inferenceConfig`, `toolConfig`, ...) are ignored.

    Raises:
        InvalidMedia: A field is not what the Converse shapes allow (naming its JSON path).
    """
    if isinstance(payload, list | tuple):
        return _messages(served, list(payload), "messages")
    body = as_dict(payload, "payload")
    if "messages" not in body and "system" not in body:
        # A typo or another API's payload would otherwise read as an empty conversation.
        raise InvalidMedia(
            f"payload: no 'messages' (Converse arguments); its keys are {sorted(body)[:8]}"
        )
    system = [] if body.get("system") is None else as_list(body["system"], "system")
    turns = [] if body.get("messages") is None else as_list(body["messages"], "messages")
    return _system(served, system, "system", {}) + _messages(served, turns, "messages")


def read_response(response: Any, served: Served) -> Assistant:
    """Return the assistant message of a `client.converse` response (the dict boto3 returns).

    `usage.inputTokens` counts only the input that was neither read from nor written to the
    cache (AWS prompt-caching guide, read 2026-11); `Usage.input_tokens` adds both back.

    Raises:
        InvalidMedia: A field is not what `ConverseResponse` allows (naming its JSON path).
    """
    body = plain(response)
    output = need(body, "output", "response", dict)
    message = need(output, "message", "output", dict)
    role = message.get("role")
    if role != "assistant":
        raise InvalidMedia(f"output.message.role: expected 'assistant', got {shown(role)}")
    content = as_list(message.get("content"), "output.message.content")
    parts = [_part(served, *block) for block in _walk(content, "output.message.content")]
    reason, raw = stop_reason(body.get("stopReason"), STOP_REASONS, "stopReason")
    usage = None if body.get("usage") is None else read_usage(as_dict(body["usage"], "usage"))
    return Assistant(parts=parts, usage=usage, stop_reason=reason, stop_reason_raw=raw)


def read_usage(usage: Mapping[str, Any], at: str = "usage") -> Usage:
    """Return a `TokenUsage` (of a response, or of a stream's `metadata` at `at`) as `Usage`."""
    counts = {
        key: token_count(usage, key, at)
        for key in ("inputTokens", "outputTokens", "cacheReadInputTokens", "cacheWriteInputTokens")
    }
    read, written = counts["cacheReadInputTokens"], counts["cacheWriteInputTokens"]
    return Usage(
        input_tokens=counts["inputTokens"] + read + written,
        output_tokens=counts["outputTokens"],
        cache_read_tokens=read,
        cache_write_tokens=written,
    )


def _messages(served: Served, turns: list[Any], at: str) -> list[Message]:
    out: list[Message] = []
    for i, turn in enumerate(turns):
        where = f"{at}[{i}]"
        node = read_dict(turn, where)
        role = need(node, "role", where, str)
        content = as_list(node.get("content"), f"{where}.content")
        blocks = f"{where}.content"
        if role == "user":
            out += _user(served, content, blocks)
        elif role == "assistant":
            out.append(made(Assistant, parts=[_part(served, *b) for b in _walk(content, blocks)]))
        elif role == "system":
            out += _system(served, content, blocks, {"in_messages": True})
        else:
            raise InvalidMedia(
                f"{where}.role: expected user, assistant or system, got {shown(role)}"
            )
    return out


def _walk(blocks: list[Any], at: str) -> Iterator[tuple[str, str, Any, Point | None]]:
    """Yield each block as (its path, key, value, the cachePoint right after it, if any).

    A cachePoint taken as the cache of the block before it is not yielded on its own; one that
    follows nothing (or another cachePoint) is, and is kept as written.
    """
    i = 0
    while i < len(blocks):
        where = f"{at}[{i}]"
        key, value = one_key(blocks[i], where)
        point: Point | None = None
        if key != "cachePoint" and i + 1 < len(blocks):
            after = blocks[i + 1]
            raw = (
                after.get("cachePoint") if isinstance(after, Mapping) and len(after) == 1 else None
            )
            found = cache_point(raw)
            if found is not None:
                cache, explicit = found
                point = (cache, {"ttl": True} if explicit and cache == "5m" else {}, raw)
                i += 1
        yield f"{where}.{key}", key, value, point
        i += 1


def _part(served: Served, at: str, key: str, value: Any, point: Point | None) -> Made:
    cache, hints = (point[0], point[1]) if point is not None else (None, {})
    return part(served, key, value, at, hints, cache)


def _user(served: Served, blocks: list[Any], at: str) -> list[Message]:
    """Return a user turn as its tool results and the user's own parts, in order."""
    out: list[Message] = []
    pending: list[Made] = []
    for where, key, value, point in _walk(blocks, at):
        if key != "toolResult":
            pending.append(_part(served, where, key, value, point))
            continue
        if pending:
            out.append(made(User, parts=pending))
            pending = []
        tool, orphan = _tool_result(served, value, where, point)
        out.append(tool)
        if orphan is not None:
            pending.append(orphan)
    if pending or not out:
        out.append(made(User, parts=pending))
    return out


def _tool_result(
    served: Served, value: Any, at: str, point: Point | None
) -> tuple[Tool, Made | None]:
    """Return a `toolResult` as a Tool message; a cachePoint after it caches its last part.

    Returns:
        The message, and the cachePoint as a `ProviderPart` when the result has no parts to
        carry it.
    """
    block = read_dict(value, at)
    extra = sorted(set(block) - {"toolUseId", "content", "status", "type"})
    if extra:
        raise InvalidMedia(f"{at}: unexpected key {shown(extra[0])}")
    call_id = need(block, "toolUseId", at, str)
    content = as_list(block.get("content"), f"{at}.content")
    parts: list[Made] = []
    for j, item in enumerate(content):
        where = f"{at}.content[{j}]"
        key, inner = one_key(item, where)
        last = point if j == len(content) - 1 else None
        cache, hints = (last[0], last[1]) if last is not None else (None, {})
        if key == "json":
            parts.append(json_result(served, inner, f"{where}.json", hints, cache))
        elif key in ("text", "image", "document", "video"):
            parts.append(part(served, key, inner, f"{where}.{key}", hints, cache))
        else:  # searchResult, and any block type added after 2026-11
            parts.append(provider_part(served, key, inner, f"{where}.{key}", hints, cache))
    status = maybe(block, "status", at, str)
    if status not in (None, "success", "error"):
        raise InvalidMedia(f"{at}.status: expected success or error, got {shown(status)}")
    hints = {"status": status} if status == "success" else {}
    kind = maybe(block, "type", at, str)
    if kind is not None:
        hints["type"] = kind
    native = {served.name: hints} if hints else {}
    tool = made(Tool, parts=parts, tool_call_id=call_id, is_error=status == "error", native=native)
    orphan = None
    if point is not None and not parts:
        orphan = provider_part(served, "cachePoint", point[2], f"{at} (after it)", {}, None)
    return tool, orphan


def _system(served: Served, blocks: list[Any], at: str, hints: Extra) -> list[Message]:
    """Return system blocks: runs of text as `System` messages, anything else kept apart.

    `System` holds text only, so a guarded image, a `toolAddition` or a stray cachePoint goes
    in a `User` message marked `system` (rendered back among the system blocks).
    """
    out: list[Message] = []
    texts: list[TextPart] = []
    others: list[Made] = []
    native = {served.name: hints} if hints else {}
    for where, key, value, point in _walk(blocks, at):
        made = _part(served, where, key, value, point)
        if isinstance(made, TextPart):
            if others:
                out.append(User(parts=others, native={served.name: {**hints, "system": True}}))
                others = []
            texts.append(made)
        else:
            if texts:
                out.append(System(parts=texts, native=native))
                texts = []
            others.append(made)
    if texts or (not others and hints):
        out.append(System(parts=texts, native=native))
    if others:
        out.append(User(parts=others, native={served.name: {**hints, "system": True}}))
    return out
