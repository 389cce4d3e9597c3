"""`check_request`: the conversation rules of the Responses API, checked before it runs.

From the API's validation messages ("No tool output found for function call call_…", "No tool
call found for function call output with call_id …") and openai-python's
`ResponseInputItemParam` (read 2026-12): `input` is text or a list of items; a message item's
role is `user`, `assistant`, `system` or `developer` and its content array is not empty;
every `function_call` (and `custom_tool_call`) has an output with its `call_id` later in the
input, and every output answers a call before it — unless the request continues a stored
response or conversation (`previous_response_id`, `conversation`), whose calls the input
does not show. Items need not alternate.
"""

from __future__ import annotations

from typing import Any

from mediaparts._errors import excerpt
from mediaparts.providers._wire._media_sites import Problems
from mediaparts.providers._wire._protocol import Served
from mediaparts.providers._wire._structure import id_of, messages_of, role_of

__all__ = ["check_request"]

_ROLES = ("user", "assistant", "system", "developer")
# Each call item type, and the type of the item that answers it.
_OUTPUTS = {
    "function_call": "function_call_output",
    "custom_tool_call": "custom_tool_call_output",
}
_CALLS = {output: call for call, output in _OUTPUTS.items()}


def check_request(payload: dict[str, Any] | list[Any], served: Served) -> Problems:
    """Return what the Responses API would refuse in a payload's input items."""
    problems: Problems = []
    given = payload if isinstance(payload, dict) else {}
    if isinstance(given.get("input"), str):
        return problems
    continued = given.get("previous_response_id") or given.get("conversation")
    calls: dict[tuple[str, str], str] = {}  # (call type, call_id) -> path, until answered
    for at, item in messages_of(payload, "input", problems, required=False):
        kind = item.get("type", "message")
        if kind == "message":
            role_of(item, at, _ROLES, problems)
            if item.get("content") == []:
                problems.append((f"{at}.content", "message.empty", "the content array is empty"))
        elif kind in _OUTPUTS:
            calls[kind, id_of(item.get("call_id"))] = at
        elif kind in _CALLS:
            key = (_CALLS[kind], id_of(item.get("call_id")))
            if calls.pop(key, None) is None and not continued:
                problems.append(
                    (
                        at,
                        "tool.unpaired",
                        f"{kind} for {excerpt(key[1])} answers no {key[0]} before it",
                    )
                )
    for (kind, call_id), at in calls.items():
        problems.append(
            (at, "tool.unanswered", f"{kind} {excerpt(call_id)} has no output after it")
        )
    return problems
