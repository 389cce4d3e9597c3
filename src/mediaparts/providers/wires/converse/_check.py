"""`check_request`: the conversation rules of Converse, checked before it runs.

From Bedrock's validation messages and the bedrock-runtime service model (botocore
`service-2.json`, 2023-09-30, read 2026-12): "a conversation must start with a user message"
and "must alternate between user and assistant roles" (a `system` message in place is no
turn); a message's content is not empty ("the content field in the Message object … is
empty") and a text block not blank; images and documents only in `user` messages; a message
with a document also holds a text block; each `toolUse` is answered by a `toolResult` in the
message right after it (a server tool's `toolUse`, `"type": "server_tool_use"`, is answered
by Bedrock itself), and each `toolResult` answers a `toolUse` of the message before;
`toolUseId` matches `[a-zA-Z0-9_.:-]+` (1 to 64 characters) and a tool's `name`
`[a-zA-Z0-9_-]+` (1 to 64).
"""

from __future__ import annotations

import re
from typing import Any

from mediaparts._errors import excerpt
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

__all__ = ["check_request"]

_ID = re.compile(r"[a-zA-Z0-9_.:-]{1,64}")
_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_ROLES = ("user", "assistant", "system")


def check_request(payload: dict[str, Any] | list[Any], served: Served) -> Problems:
    """Return what Converse would refuse in a payload's conversation."""
    problems: Problems = []
    turns: list[Turn] = []
    for at, message in messages_of(payload, "messages", problems):
        role = role_of(message, at, _ROLES, problems)
        if role is None:
            continue
        turn = Turn(role, at)
        _content(message.get("content"), turn, problems)
        if role == "system":
            continue
        if not turns and role != "user":
            first = "a conversation must start with a user message"
            problems.append((at, "conversation.first", first))
        elif turns and turns[-1].role == role:
            problems.append(
                (
                    at,
                    "conversation.alternation",
                    f"two {role} messages in a row; roles alternate between user and assistant",
                )
            )
        turns.append(turn)
    problems.extend(
        pair_next_turn(turns, call="toolUse", result="toolResult", answered_by=("user",))
    )
    return problems


def _content(content: Any, turn: Turn, problems: Problems) -> None:
    """Note one message's calls and results, and what its content breaks."""
    at = turn.path
    if not isinstance(content, list) or not content:
        problems.append((f"{at}.content", "message.empty", "the message's content is empty"))
        return
    kinds: set[str] = set()
    for j, block in enumerate(content):
        if not isinstance(block, dict):
            continue
        where = f"{at}.content[{j}]"
        kinds.update(block)
        if "text" in block and blank(block["text"]):
            problems.append((f"{where}.text", "text.empty", "the text is blank"))
        use = block.get("toolUse")
        if isinstance(use, dict) and use.get("type") != "server_tool_use":
            problems.extend(
                check_id(use.get("toolUseId"), f"{where}.toolUse.toolUseId", _ID, "toolUseId")
            )
            name = use.get("name")
            if not isinstance(name, str) or not _NAME.fullmatch(name):
                problems.append(
                    (
                        f"{where}.toolUse.name",
                        "tool.name",
                        f"tool name {excerpt(name)} does not match {_NAME.pattern}",
                    )
                )
            turn.calls.append((id_of(use.get("toolUseId")), where))
        result = block.get("toolResult")
        if isinstance(result, dict):
            key = result.get("toolUseId")
            problems.extend(check_id(key, f"{where}.toolResult.toolUseId", _ID, "toolUseId"))
            turn.results.append((id_of(key), where))
    media = sorted(kinds & {"image", "document"})
    if media and turn.role != "user":
        problems.append(
            (
                f"{at}.content",
                "message.media",
                f"{' and '.join(media)} blocks are taken in user messages only",
            )
        )
    if "document" in kinds and "text" not in kinds:
        problems.append(
            (f"{at}.content", "file.text", "a message with a document must also hold a text block")
        )
