"""Gemini `render` to a `generateContent` request body, and `media_site` for `check`.

The body is the REST one, in camelCase (`contents`, `systemInstruction`, `inlineData`,
`fileData`, `functionCall`, `functionResponse`); google-genai's `types.Content` accepts each
content as is (googleapis/python-genai 3.4 `types.py`, read 2026-08). Messages read from a
body (snake_case included) carry `native["gemini"]` hints that give its exact shape back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mediaparts._conversation._merge import merge_runs
from mediaparts._conversation._messages import Assistant, Message, System, Tool
from mediaparts._conversation._parts import TextPart, ToolCall
from mediaparts.detection import canonical_media_type, kind_of
from mediaparts.providers._wire._media_sites import Problems, Site, Where, payload_bytes
from mediaparts.providers._wire._rendering import Prepare, tool_names
from mediaparts.providers.wires.generate_content._shapes import (
    blocks,
    check_name,
    current_model,
    function_response,
    hints_of,
    text,
)
from mediaparts.providers.wires.generate_content._spelling import SYSTEM_FIELDS, spell

__all__ = ["SKIP_SIGNATURE", "media_site", "render"]

# Gemini 3 refuses a model turn whose first `functionCall` part carries no `thoughtSignature`
# (HTTP 400 "Function call is missing a thought_signature in functionCall parts"; google-genai
# 3.4 FinishReason.MISSING_THOUGHT_SIGNATURE). The first function call of each step (a model
# Content) of the current turn is checked, the calls after it in a parallel step are not; for
# calls Gemini did not make (another model's tool loop, a hand-made history) Google documents
# this value as the signature that skips the check
# (ai.google.dev/gemini-api/docs/thought-signatures, read 2026-11).
SKIP_SIGNATURE = "skip_thought_signature_validator"

# A generateContent request has no cache breakpoint in its contents: Gemini caches a prefix
# by itself (implicit caching) or reads a cache made beforehand (`cachedContent`, made with
# `caches.create`) (ai.google.dev/gemini-api/docs/caching, read 2026-11). A breakpoint is
# therefore reported as lost, not dropped quietly.
_NO_BREAKPOINTS = (
    "its cache breakpoint: a generateContent request has none (the API caches prefixes by "
    "itself, or reads a cachedContent made beforehand); the part is kept"
)


def render(messages: Sequence[Message], prepare: Prepare) -> dict[str, Any]:
    """Render messages as a `generateContent` request body.

    Roles are `user` and `model`; tool results are `functionResponse` parts in a `user`
    content. Messages read from a Gemini body come back in its exact shape (its contents, their
    order and spelling, from the `native["gemini"]` hints); other consecutive messages of one
    role share a content, tool results first. System texts are joined (blank lines) into
    `systemInstruction`, unless one system message read from a body says where and how it was
    written.

    Args:
        messages: The conversation, in order.
        prepare: Fits each media part to the provider served (normally `mp.normalize` bound
            to it), and reports what it cannot carry.

    Returns:
        `{"contents": [...], "systemInstruction": {"parts": [{"text": ...}]}}`, without
        `systemInstruction` when there is no system message.

    Raises:
        InvalidMedia: A tool call's arguments are not a JSON object, or a tool result names
            no tool and answers no known call.
    """
    provider = prepare.served.name
    system = [m for m in messages if isinstance(m, System)]
    rest: list[Message] = [m for m in messages if not isinstance(m, System)]
    for message in messages:
        if not isinstance(message, Tool) and message.name is not None:
            prepare.lose(message, "a generateContent turn has no name for a participant")
        for part in message.parts:
            if part.cache is not None:
                prepare.lose(part, _NO_BREAKPOINTS)
    contents = _contents(_runs(rest, provider), tool_names(messages), prepare)
    return {
        "contents": _as_string(contents, rest, provider) or contents,
        **_system(system, prepare),
    }


def _contents(
    messages: list[Message], names: dict[str, str], prepare: Prepare
) -> list[dict[str, Any]]:
    """Return the contents, in order, each message's parts in one.

    A message joins the content before it when it was read from that content (`join`), or
    when it has the same role and was not read apart from it (`split`); tool results lead a
    content joined that way, as Gemini wants them after the calls.
    """
    provider = prepare.served.name
    contents: list[dict[str, Any]] = []
    roles: list[str] = []
    merged: set[int] = set()
    first_calls: dict[int, ToolCall] = {}  # a model content's first call, by index
    for message in messages:
        hint = hints_of(message, provider)
        role = "model" if isinstance(message, Assistant) else "user"
        if isinstance(message, Tool):
            parts = function_response(message, check_name(message, names), prepare)
        else:
            parts = blocks(message, prepare, role)
        if not parts:
            continue
        if contents and roles[-1] == role and hint.get("split") is not True:
            if hint.get("join") is not True:
                merged.add(len(contents) - 1)
            contents[-1]["parts"] += parts
        else:
            no_role = hint.get("no_role") is True
            contents.append({"parts": parts} if no_role else {"role": role, "parts": parts})
            roles.append(role)
        call = next((p for p in message.parts if isinstance(p, ToolCall)), None)
        if role == "model" and call is not None:
            first_calls.setdefault(len(contents) - 1, call)
    for index in merged:  # tool results lead the user turn that follows the calls
        found = contents[index]["parts"]
        first = [p for p in found if _is_response(p)]
        contents[index]["parts"] = first + [p for p in found if not _is_response(p)]
    if current_model(prepare.served, prepare.model):
        for index, call in first_calls.items():
            if (
                hints_of(call, provider).get("unsigned") is not True
            ):  # read unsigned: kept as written
                _sign(contents[index]["parts"])
    return contents


def _sign(parts: list[dict[str, Any]]) -> None:
    """Give a model content's first `functionCall` part the sentinel if it has no signature."""
    for part in parts:
        snake = "function_call" in part
        if snake or "functionCall" in part:
            if "thoughtSignature" not in part and "thought_signature" not in part:
                part[spell("thoughtSignature", snake)] = SKIP_SIGNATURE
            return


def _as_string(contents: list[dict[str, Any]], rest: list[Message], provider: str) -> str | None:
    """Return the text of a lone user turn read from `contents="..."` (the SDK's shorthand)."""
    if (
        len(rest) != 1
        or hints_of(rest[0], provider).get("contents") != "string"
        or len(contents) != 1
    ):
        return None
    if contents[0] != {"role": "user", "parts": [{"text": rest[0].content}]}:
        return None
    return rest[0].content or None


def _is_response(part: dict[str, Any]) -> bool:
    return "functionResponse" in part or "function_response" in part


def _runs(messages: list[Message], provider: str) -> list[Message]:
    """Merge consecutive user or model messages (`mp.merge_runs`), but not those read apart."""
    out: list[Message] = []
    for message in messages:
        hint = hints_of(message, provider)
        apart = hint.get("split") is True or hint.get("join") is True
        last = out[-1] if out else None
        if (
            last is None
            or apart
            or isinstance(message, Tool)
            or isinstance(last, Tool)
            or last.role != message.role
        ):
            out.append(message)
        else:
            out[-1:] = merge_runs([last, message])  # two when they cannot merge
    return out


def _system(system: list[System], prepare: Prepare) -> dict[str, Any]:
    """Return the system instruction field: as it was read, or the texts joined."""
    provider = prepare.served.name
    hint = hints_of(system[0], provider) if len(system) == 1 else {}
    field = hint.get("field")
    if field not in SYSTEM_FIELDS:
        texts = [m.content for m in system if m.content]
        if not texts:
            return {}
        return {"systemInstruction": {"parts": [{"text": "\n\n".join(texts)}]}}
    value: Any
    if hint.get("string") is True:
        value = system[0].content
    else:
        shaped = [text(p, prepare) for p in system[0].parts if isinstance(p, TextPart)]
        value = {"parts": [p for p in shaped if p is not None]}
        if "role" in hint:
            value = {"role": hint["role"], **value}
    if field.startswith("config."):
        return {"config": {field.removeprefix("config."): value}}
    return {field: value}


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
