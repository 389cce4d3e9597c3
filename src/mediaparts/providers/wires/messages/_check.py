"""`check_request`: the conversation rules of the Messages API, checked before it runs.

From the API reference and the tool-use guide (platform.claude.com/docs, read 2026-12):
consecutive `user` or `assistant` messages are combined into one turn (so alternation is not
required), and a `system` message in place (anthropic-sdk-python 2.17 `SystemMessageParam`)
is no turn; every message but an optional final `assistant` one has content, and a text block
holds non-whitespace text; each `tool_use` is answered by a `tool_result` in the turn right
after it, whose `tool_result` blocks come before any other content; every `tool_result`
answers a `tool_use` of the turn before; tool-use ids match `^[a-zA-Z0-9_-]+$` (the API's
validation message) and are unique. For a provider whose API reads no Files API ids (the
`file_sources` quirk), an image or document given by `file_id` is flagged.
"""

from __future__ import annotations

import re
from typing import Any

from mediaparts.providers._wire._media_sites import Problems
from mediaparts.providers._wire._protocol import Served
from mediaparts.providers._wire._structure import (
    Turn,
    blank,
    check_id,
    id_of,
    messages_of,
    pair_next_turn,
    role_of,
)
from mediaparts.providers.wires.messages._shapes import reads_file_ids

__all__ = ["check_request"]

_ID = re.compile(r"[a-zA-Z0-9_-]+")
_ROLES = ("user", "assistant", "system")


def check_request(payload: dict[str, Any] | list[Any], served: Served) -> Problems:
    """Return what the Messages API would refuse in a payload's conversation."""
    problems: Problems = []
    messages = messages_of(payload, "messages", problems)
    turns: list[Turn] = []
    last = messages[-1][0] if messages else ""
    for at, message in messages:
        role = role_of(message, at, _ROLES, problems)
        if role is None:
            continue
        if role == "system":  # instructions in place (SystemMessageParam): text, no turn
            _content(message.get("content"), at, Turn(role, at), False, problems)
            continue
        if not turns or turns[-1].role != role:
            turns.append(Turn(role, at))
        _content(
            message.get("content"), at, turns[-1], at == last and role == "assistant", problems
        )
        if not reads_file_ids(served):
            problems.extend(_file_ids(message.get("content"), f"{at}.content", served.name))
    problems.extend(
        pair_next_turn(turns, call="tool_use", result="tool_result", answered_by=("user",))
    )
    return problems


def _file_ids(content: Any, at: str, provider: str) -> Problems:
    """Flag each image or document given by Files API id (a `file` source), tool results'
    content included, for a provider whose API reads none (the `file_sources` quirk)."""
    problems: Problems = []
    if not isinstance(content, list):
        return problems
    for j, block in enumerate(content):
        if not isinstance(block, dict):
            continue
        where = f"{at}[{j}]"
        source = block.get("source")
        if block.get("type") in ("image", "document") and isinstance(source, dict):
            if source.get("type") == "file":
                kind = "image" if block["type"] == "image" else "file"
                message = f"{provider} reads no Files API file ids: send the file's bytes"
                problems.append((f"{where}.source", f"{kind}.file_id", message))
        elif block.get("type") == "tool_result":
            problems.extend(_file_ids(block.get("content"), f"{where}.content", provider))
    return problems


def _content(content: Any, at: str, turn: Turn, final: bool, problems: Problems) -> None:
    """Note the calls and results of one message, and its empty text."""
    if isinstance(content, str):
        if not content and not final:
            problems.append((f"{at}.content", "message.empty", "the message has no content"))
        elif blank(content) and not final:
            problems.append((f"{at}.content", "text.empty", "the text is only whitespace"))
        return
    if not isinstance(content, list):
        return  # the SDK's types refuse it; not a rule of the conversation
    if not content and not final:
        problems.append((f"{at}.content", "message.empty", "the message has no content"))
    # Results open their turn: any other block before one (in this message, or an earlier
    # message of the same merged turn) puts it out of place.
    for j, block in enumerate(content):
        where = f"{at}.content[{j}]"
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text" and blank(block.get("text")):
            problems.append((f"{where}.text", "text.empty", "a text block holds no text"))
        if kind == "tool_use":
            problems.extend(check_id(block.get("id"), f"{where}.id", _ID, "tool_use id"))
            turn.calls.append((id_of(block.get("id")), where))
        elif kind == "tool_result":
            key = block.get("tool_use_id")
            problems.extend(check_id(key, f"{where}.tool_use_id", _ID, "tool_use_id"))
            turn.results.append((id_of(key), where))
            if turn.other:
                problems.append(
                    (
                        where,
                        "tool.order",
                        "a tool_result comes after other content; tool_result blocks come first "
                        "in their turn",
                    )
                )
        else:
            turn.other = True
