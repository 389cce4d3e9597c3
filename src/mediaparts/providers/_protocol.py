"""`ProviderModule`: the one contract a provider module meets, checked when it is registered.

A provider is one module (or any object) with these members; everything generic (`normalize`,
`render`, `check`, `estimate_tokens`, the docs' table) reads a provider only through them:

- `RULES`: its `Rules` — accepted types per kind, limits, the model tables `vision` (image
  geometry and tokens) and `costs` (audio, video and PDF rates), each with source and date;
  `RULES.provider` is the name it is registered under.
- `render(messages, prepare)`: the keyword arguments of the SDK call.
- `media_site(node, at, problems)`: the block shapes of its API, for `check` — given one JSON
  object of a payload, the `Site` it holds, or None when it is not one of its media blocks.

And, optionally (without them, `mp.messages_from` and `mp.message_from_response` refuse the
provider with `InvalidConfig`):

- `read(payload)`: the messages of a request payload (what `render` returns, or its message
  list) — the inverse of `render`.
- `read_response(response)`: the `Assistant` message of one response (the SDK's object or
  its dict).
- `replays(part)`: why `render` leaves out a reasoning part of its own provider (a missing
  signature or id), or None when it sends it; `count_tokens` asks it so that what is not sent
  costs 0. Without it, a provider's own reasoning counts as sent.
- `batch_request(custom_id, payload, model, params)`: one request of its batch API's input
  file (a JSON object), wrapping what `render` returned; `batch_result(record)`: one line of
  its batch result file read as a `BatchRecord` (id, response body or error). Without them,
  `mp.batch_line` and `mp.read_batch_results` refuse the provider. The per-file limits are
  `RULES.batch_max_requests` and `RULES.batch_max_bytes`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from mediaparts._errors import InvalidConfig, excerpt
from mediaparts._messages import Assistant, Message
from mediaparts._parts import ReasoningPart
from mediaparts.providers._batch_types import BatchRecord
from mediaparts.providers._render_common import Prepare
from mediaparts.providers._rules import Rules
from mediaparts.providers._sites import Problems, Site, Where

__all__ = [
    "MEMBERS",
    "OPTIONAL",
    "BatchReader",
    "BatchRequest",
    "Prepare",
    "ProviderModule",
    "Reader",
    "Renderer",
    "Replays",
    "ResponseReader",
    "SiteReader",
    "validated",
]

Renderer = Callable[[Sequence[Message], Prepare], dict[str, Any]]
SiteReader = Callable[[dict[str, Any], Where, Problems], Site | None]
Reader = Callable[[Any], list[Message]]
ResponseReader = Callable[[Any], Assistant]
Replays = Callable[[ReasoningPart], str | None]
BatchRequest = Callable[[str, dict[str, Any], str | None, Mapping[str, Any]], dict[str, Any]]
BatchReader = Callable[[dict[str, Any]], BatchRecord]


class ProviderModule(Protocol):
    """What a provider module defines (a module satisfies it with module-level names)."""

    RULES: Rules

    def render(self, messages: Sequence[Message], prepare: Prepare, /) -> dict[str, Any]:
        """Render messages as the keyword arguments of the provider's SDK call."""
        ...

    def media_site(self, node: dict[str, Any], at: Where, problems: Problems, /) -> Site | None:
        """Return the media site one JSON object of a payload holds, or None."""
        ...


# Each member, and what it must be (for the error message).
MEMBERS = {
    "RULES": "a mediaparts.providers.Rules",
    "render": "a function (messages, prepare) -> dict",
    "media_site": "a function (node, at, problems) -> Site | None",
}
# The optional members: absent, or what they say.
OPTIONAL = {
    "read": "a function (payload) -> list[Message]",
    "read_response": "a function (response) -> Assistant",
    "replays": "a function (part) -> str | None",
    "batch_request": "a function (custom_id, payload, model, params) -> dict",
    "batch_result": "a function (record) -> BatchRecord",
}


def validated(name: Any, module: Any) -> ProviderModule:
    """Return `module` if it meets `ProviderModule` under `name`, else say what it lacks.

    Raises:
        InvalidConfig: The name is not a non-empty string, or members are missing or ill-typed.
    """
    if not isinstance(name, str) or not name:
        raise InvalidConfig(f"a provider's name is a non-empty string, got {excerpt(name)}")
    rules = getattr(module, "RULES", None)
    wrong = [
        f"{member} ({what})"
        for member, what in MEMBERS.items()
        if not (
            isinstance(rules, Rules)
            if member == "RULES"
            else callable(getattr(module, member, None))
        )
    ]
    wrong += [
        f"{member} ({what}, or absent)"
        for member, what in OPTIONAL.items()
        if getattr(module, member, None) is not None and not callable(getattr(module, member))
    ]
    if wrong:
        raise InvalidConfig(
            f"provider {excerpt(name)} lacks or mistypes {', '.join(wrong)}; a provider module "
            "defines "
            f"{', '.join(MEMBERS)} (mediaparts.providers.ProviderModule)"
        )
    assert isinstance(rules, Rules)
    if rules.provider != name:
        raise InvalidConfig(
            f"provider {excerpt(name)} has RULES.provider {excerpt(rules.provider)}; they must be "
            "the same name"
        )
    checked: ProviderModule = module
    return checked
