"""`check_request`: the conversation rules of generateContent, checked before it runs.

From the API's validation messages (read 2026-12): `contents` is not empty and every content
has parts; "please ensure that function response turn comes immediately after a function call
turn", and "that the number of function response parts is equal to the number of function
call parts of the function call turn". A call turn last in the request is the model's turn
in progress, not an error. Roles need not alternate. A `fileData` naming a file store the
provider does not read (its `file_uris` quirk, `_stores`) is flagged too.
"""

from __future__ import annotations

from typing import Any

from mediaparts.providers._wire._media_sites import Problems
from mediaparts.providers._wire._protocol import Served
from mediaparts.providers._wire._structure import messages_of, role_of
from mediaparts.providers.wires.generate_content._stores import file_uri_problems

__all__ = ["check_request"]

_ROLES = (None, "user", "model", "function")


def check_request(payload: dict[str, Any] | list[Any], served: Served) -> Problems:
    """Return what generateContent would refuse in a payload's contents."""
    problems: Problems = []
    turns: list[tuple[str, int, int]] = []  # each content's path, calls and responses
    for at, content in messages_of(payload, "contents", problems):
        role_of(content, at, _ROLES, problems)
        parts = content.get("parts")
        if not isinstance(parts, list) or not parts:
            problems.append((f"{at}.parts", "message.empty", "a content needs at least one part"))
            parts = []
        called = sum(isinstance(p, dict) and isinstance(p.get("functionCall"), dict) for p in parts)
        answered = sum(
            isinstance(p, dict) and isinstance(p.get("functionResponse"), dict) for p in parts
        )
        turns.append((at, called, answered))
    problems.extend(_counts(turns))
    problems.extend(file_uri_problems(payload, served))
    return problems


def _counts(turns: list[tuple[str, int, int]]) -> Problems:
    """Each response turn right after a call turn, with as many responses as calls."""
    problems: Problems = []
    for i, (at, _, answered) in enumerate(turns):
        if not answered:
            continue
        before = turns[i - 1] if i else None
        if before is None or not before[1]:
            problems.append(
                (
                    at,
                    "tool.unpaired",
                    "a functionResponse turn must come right after a functionCall turn",
                )
            )
        elif before[1] != answered:
            problems.append(
                (
                    at,
                    "tool.unanswered",
                    f"{answered} functionResponse parts answer {before[1]} functionCall parts of "
                    "the turn before; the numbers must be equal",
                )
            )
    for i, (at, called, _) in enumerate(turns[:-1]):
        if called and not turns[i + 1][2]:
            problems.append(
                (
                    at,
                    "tool.unanswered",
                    "a functionCall turn must be followed by a functionResponse turn",
                )
            )
    return problems
