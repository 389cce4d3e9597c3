"""`Wire`: the one contract an API shape meets, and `Served`: what a wire knows of a provider.

A **wire** is an API shape (Chat Completions, Responses, Anthropic Messages, Gemini
generateContent, Bedrock Converse): how messages are written into its requests, how its
requests and responses are read back, and where media sits in its payloads. A wire never
names a provider: every function that needs one takes the provider it serves (`Served`: its
name, for hints, errors and `native` keys; its rules; its quirks), so one wire serves OpenAI,
Groq or a user's vLLM alike. A **provider** (`_registry.Provider`) is a wire plus data.

A wire is one module (or any object) with these members:

- `render(messages, prepare)`: the keyword arguments of the SDK call. `prepare` (`Prepare`)
  carries the provider served (`prepare.served`, with its name and rules), the model and the
  caller's policy for what cannot be carried.
- `media_site(node, at, problems)`: the block shapes of its API, for `check` — given one JSON
  object of a payload, the `Site` it holds, or None when it is not one of its media blocks.

And, optionally (without them, `mp.messages_from` and `mp.message_from_response` refuse the
providers on that wire with `InvalidConfig`):

- `read(payload, served)`: the messages of a request payload (what `render` returns, or its
  message list) — the inverse of `render`.
- `read_response(response, served)`: the `Assistant` message of one response (the SDK's
  object or its dict).
- `replays(part, served)`: why `render` leaves out a reasoning part (a missing signature or
  id), or None when it sends it; `count_tokens` asks it so that what is not sent costs 0.
- `QUIRKS`: the quirk keys the wire reads from `Served.quirks` (name -> what it means);
  `register` refuses a provider whose quirks name a key its wire does not read.
- `sdk_kwargs(payload, served)`: the keyword arguments of the SDK's call for a payload, where
  they differ from the body `render` returns (`mp.sdk_kwargs`; without it, the payload).
- `check_quirks(name, quirks)`: raise `InvalidConfig` for a quirk of the wrong form, so that
  `register` refuses it (`name` is the provider's, for the message).
- `stream(served)`: a fresh `StreamState` (`_wire/_streaming.py`) reading one streamed
  response: `feed(event)` returns the `Delta`s one event added, `message()` the `Assistant`
  so far, `finished` whether the final event has arrived (`mp.StreamReader`; without it,
  streams of the providers on that wire are refused with `InvalidConfig`).
- `check_request(payload, served)`: what the API would refuse in a payload's conversation
  (unanswered tool calls, unpaired results, role order, empty content, id patterns), as
  `(JSON path, rule, message)` problems for `mp.check`; the turn and pairing rules the wires
  share are in `_wire/_structure.py`.

What belongs to a provider, not to its wire (its file store, its batch envelope, its limits),
is on the `Provider` record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from mediaparts._conversation._messages import Assistant, Message
from mediaparts._conversation._parts import ReasoningPart
from mediaparts._errors import InvalidConfig, excerpt
from mediaparts.providers._batching._types import BatchRecord
from mediaparts.providers._wire._media_sites import Problems, Site, Where
from mediaparts.providers._wire._rendering import Prepare, Served

__all__ = [
    "MEMBERS",
    "OPTIONAL",
    "BatchReader",
    "BatchRequest",
    "Prepare",
    "Reader",
    "Renderer",
    "Replays",
    "ResponseReader",
    "Served",
    "SiteReader",
    "Wire",
    "validated_wire",
]

Renderer = Callable[[Sequence[Message], Prepare], dict[str, Any]]
SiteReader = Callable[[dict[str, Any], Where, Problems], Site | None]
Reader = Callable[[Any], list[Message]]
ResponseReader = Callable[[Any], Assistant]
Replays = Callable[[ReasoningPart], str | None]
BatchRequest = Callable[[str, dict[str, Any], str | None, Mapping[str, Any]], dict[str, Any]]
BatchReader = Callable[[dict[str, Any]], BatchRecord]


class Wire(Protocol):
    """What a wire module defines (a module satisfies it with module-level names)."""

    def render(self, messages: Sequence[Message], prepare: Prepare, /) -> dict[str, Any]:
        """Render messages as the keyword arguments of the SDK call."""
        ...

    def media_site(self, node: dict[str, Any], at: Where, problems: Problems, /) -> Site | None:
        """Return the media site one JSON object of a payload holds, or None."""
        ...


# Each member, and what it must be (for the error message).
MEMBERS = {
    "render": "a function (messages, prepare) -> dict",
    "media_site": "a function (node, at, problems) -> Site | None",
}
# The optional members: absent, or what they say.
OPTIONAL = {
    "read": "a function (payload, served) -> list[Message]",
    "read_response": "a function (response, served) -> Assistant",
    "replays": "a function (part, served) -> str | None",
    "sdk_kwargs": "a function (payload, served) -> dict",
    "check_quirks": "a function (name, quirks) -> None, raising InvalidConfig",
    "check_request": "a function (payload, served) -> list of (path, rule, message)",
    "stream": "a function (served) -> StreamState",
}


def validated_wire(name: str, wire: Any) -> Wire:
    """Return `wire` if it meets `Wire`, else say what it lacks.

    Raises:
        InvalidConfig: Members are missing or are not functions.
    """
    wrong = [f"{m} ({what})" for m, what in MEMBERS.items() if not callable(getattr(wire, m, None))]
    wrong += [
        f"{m} ({what}, or absent)"
        for m, what in OPTIONAL.items()
        if getattr(wire, m, None) is not None and not callable(getattr(wire, m))
    ]
    quirks = getattr(wire, "QUIRKS", {})
    if not isinstance(quirks, Mapping) or not all(isinstance(k, str) for k in quirks):
        wrong.append("QUIRKS (a mapping of quirk names to what they mean, or absent)")
    if wrong:
        raise InvalidConfig(
            f"wire {excerpt(name)} lacks or mistypes {', '.join(wrong)}; a wire defines "
            f"{', '.join(MEMBERS)} (mediaparts.providers.Wire)"
        )
    checked: Wire = wire
    return checked
