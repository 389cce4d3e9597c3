"""`check_request`: the conversation rules of Chat Completions, checked before it runs.

From the API's own validation messages (openai-python's `ChatCompletionMessageParam` types and
the API reference, read 2026-12): `messages` is a non-empty list; roles are `system`,
`developer`, `user`, `assistant`, `tool` (and the legacy `function`); a content array is never
empty; an `assistant` message has content, tool calls, a refusal or audio; "an assistant
message with 'tool_calls' must be followed by tool messages responding to each
'tool_call_id'", and "messages with role 'tool' must be a response to a preceding message
with 'tool_calls'". Roles need not alternate. A provider's `roles` quirk narrows the roles;
its `message_names=False` refuses a `name` (but a tool message's) and `refusal_as_text` an
assistant's `refusal`.
"""

from __future__ import annotations

from typing import Any

from mediaparts.providers._wire._media_sites import Problems
from mediaparts.providers._wire._protocol import Served
from mediaparts.providers._wire._structure import Turn, id_of, messages_of, pair_next_turn, role_of
from mediaparts.providers.wires.chat_completions import _variants
from mediaparts.providers.wires.chat_completions._common import REFUSAL_AS_TEXT

__all__ = ["check_request"]

_ROLES = ("system", "developer", "user", "assistant", "tool", "function")


def check_request(payload: dict[str, Any] | list[Any], served: Served) -> Problems:
    """Return what Chat Completions would refuse in a payload's conversation."""
    problems: Problems = []
    turns: list[Turn] = []
    taken = _variants.roles(served, _ROLES)
    for at, message in messages_of(payload, "messages", problems):
        role = role_of(message, at, taken, problems)
        if role is None:
            continue
        content = message.get("content")
        if isinstance(content, list) and not content:
            problems.append((f"{at}.content", "message.empty", "the content array is empty"))
        problems.extend(_unknown_fields(message, role, at, served))
        if role == "tool":
            # Consecutive tool messages answer one assistant turn together.
            if not turns or turns[-1].role != "tool":
                turns.append(Turn("tool", at))
            turns[-1].results.append((id_of(message.get("tool_call_id")), at))
            continue
        turn = Turn(role, at)
        turns.append(turn)
        if role != "assistant":
            continue
        calls = message.get("tool_calls")
        for j, call in enumerate(calls if isinstance(calls, list) else ()):
            if isinstance(call, dict):
                turn.calls.append((id_of(call.get("id")), f"{at}.tool_calls[{j}]"))
        others = (calls, message.get("refusal"), message.get("audio"), message.get("function_call"))
        if content is None and all(value in (None, []) for value in others):
            empty = "an assistant message needs content or tool_calls"
            problems.append((at, "message.empty", empty))
    problems.extend(
        pair_next_turn(turns, call="tool call", result="tool message", answered_by=("tool",))
    )
    return problems


def _unknown_fields(message: dict[str, Any], role: str, at: str, served: Served) -> Problems:
    """The fields the provider's quirks say its messages have none of: a `name` beside a tool
    message's (`message_names=False`), the assistant's `refusal` (`refusal_as_text`)."""
    found: Problems = []
    if (
        role != "tool"
        and "name" in message
        and not _variants.takes(served, _variants.MESSAGE_NAMES)
    ):
        found.append((f"{at}.name", "message.name", "this API's messages take no name"))
    if (
        role == "assistant"
        and message.get("refusal") is not None
        and served.quirks.get(REFUSAL_AS_TEXT)
    ):
        found.append((f"{at}.refusal", "message.refusal", "this API has no refusal field"))
    return found
