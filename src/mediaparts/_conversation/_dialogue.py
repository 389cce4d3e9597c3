"""The parts of a conversation that are not media: reasoning, tool calls, refusals, provider
blocks, and what every part shares (a cache breakpoint and per-provider shape hints).

Media parts (`_mediapart`, `_parts`) and `TextPart` build on `PartFields` too, so that every
part of a message can carry `cache` and `native` the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, field_validator
from typing_extensions import Never

from mediaparts._conversation._construct import construct, keyword_only, model_hash
from mediaparts._conversation._json_data import (
    JsonData,
    NativeHints,
    Opaque,
    copy_metadata,
    json_text,
)
from mediaparts._conversation._reprs import bounded
from mediaparts._errors import InvalidMedia, excerpt

__all__ = [
    "Cache",
    "Citation",
    "PartFields",
    "ProviderPart",
    "ReasoningPart",
    "RefusalPart",
    "ToolCall",
    "part_dict",
]

Cache: TypeAlias = Literal["5m", "1h"]
"""How long a cache breakpoint after a part should last (Anthropic's two TTLs)."""


def part_dict(model: BaseModel, *, keep: tuple[str, ...] = ()) -> dict[str, Any]:
    """Return a part as JSON data: `None` fields and empty collections left out (but `keep`)."""
    out = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    return {k: v for k, v in out.items() if k in keep or v not in ({}, [], ())}


class PartFields(BaseModel):
    """What every part has beside its own fields.

    Attributes:
        cache: A cache breakpoint after this part (`"5m"` or `"1h"`): Anthropic
            `cache_control`, Bedrock `cachePoint`, OpenAI `prompt_cache_breakpoint`. Where a
            request has no place for it (Gemini, an OpenAI tool call), `render` reports it
            lost through `on_loss`.
        native: Provider name → what that provider's API wrote that the common fields do not
            hold (a spelling, an extra field), so that rendering back to it reproduces the
            payload exactly. Only the named provider reads its entry; the others ignore it.
        metadata: The application's own JSON data about the part (a retrieval id, a tool
            result's artifact, a timing), copied deeply, kept by `to_dict()`, never sent to
            a provider.
    """

    # Built on first use (docs/architecture.md): `import mediaparts` builds no validator.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    cache: Cache | None = None
    native: NativeHints = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("metadata", mode="before")
    @classmethod
    def _json_metadata(cls, value: Any) -> dict[str, Any]:
        return copy_metadata(value)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict that `mp.message_from_dict` reads back as this part."""
        return part_dict(self)

    def __hash__(self) -> int:  # pydantic's frozen hash fails on the `native` dict
        return model_hash(self)

    def __repr_args__(self) -> Any:
        # Reprs end up in logs and tracebacks: empty fields are left out, and text, bytes and
        # provider data are shown bounded (bytes never, only their size and digest).
        for name, value in self._repr_fields():
            yield name, bounded(value)

    def _repr_fields(self) -> Iterator[tuple[str, Any]]:
        for name, value in super().__repr_args__():
            if name is not None and value is not None and value != {} and value != ():
                yield name, value


class Citation(BaseModel):
    """Where a piece of text came from, as the provider reported it.

    Attributes:
        provider: Whose fields `data` holds.
        cited_text: The passage cited, when the provider says.
        title: The cited document's or page's title.
        url: The cited page's URL.
        data: The citation exactly as the provider wrote it.
    """

    # Built on first use (docs/architecture.md): `import mediaparts` builds no validator.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    provider: str | None = None
    cited_text: str | None = None
    title: str | None = None
    url: str | None = None
    data: JsonData = Field(default_factory=dict)

    def __init__(self, /, *given: Never, **values: Any) -> None:
        if given:
            raise keyword_only(
                type(self),
                given,
                use="e.g. {cls}(provider='anthropic', cited_text=..., url=...)",
            )
        construct(self, super().__init__, values)

    def __hash__(self) -> int:  # pydantic's frozen hash fails on the `data` dict
        return model_hash(self)

    def __repr_args__(self) -> Any:
        for name, value in super().__repr_args__():
            if value is not None and value != {}:
                yield name, bounded(value)


class ReasoningPart(PartFields):
    """What the model thought before answering, as its provider returned it.

    Signed or encrypted reasoning must be sent back, unchanged, to the provider that produced
    it (Anthropic requires it in tool loops with extended thinking); other providers cannot
    verify it, and rendering for them leaves it out (see `render(on_loss=...)`).

    Attributes:
        text: The reasoning text, when it is readable.
        summary: A summary of it, in pieces (OpenAI Responses).
        signature: The provider's signature of it (Anthropic `signature`, Gemini
            `thoughtSignature`, Bedrock `reasoningText.signature`).
        data: Redacted or encrypted reasoning (Anthropic `redacted_thinking.data`, Responses
            `encrypted_content`, Bedrock `redactedContent`).
        provider: The provider whose signature or data this is.
        id: The provider's id for it (a Responses `rs_…` item id).
    """

    kind: Literal["reasoning"] = "reasoning"
    text: str | None = None
    summary: tuple[str, ...] = ()
    signature: str | None = None
    data: Opaque | None = None
    provider: str | None = None
    id: str | None = None

    def __init__(self, /, *given: Never, **values: Any) -> None:
        if given:
            raise keyword_only(type(self), given, use="e.g. {cls}(text=..., provider=...)")
        construct(self, super().__init__, values)


class ToolCall(PartFields):
    """A call the model asked for. `arguments` is the JSON text the model produced, as is.

    Attributes:
        id: The id the tool's result answers (Anthropic `tool_use.id`, Responses `call_id`,
            Gemini `functionCall.id`); None when the API gave none (Gemini).
        name: The tool's name.
        arguments: The arguments as JSON text.
        item_id: The provider's own id of the call item, where it has one (Responses `fc_…`).
    """

    kind: Literal["tool_call"] = "tool_call"
    id: str | None = None
    name: str
    arguments: str = "{}"
    item_id: str | None = None

    def __init__(self, /, *given: Never, **values: Any) -> None:
        if given:
            raise keyword_only(
                type(self),
                given,
                use="e.g. {cls}(id='call_1', name='zoom', arguments={'x': 1})",
            )
        args = values.get("arguments")
        if isinstance(args, Mapping):
            # Only a caller's own dict is encoded here; a model's text is never re-encoded.
            values["arguments"] = json_text(args, what="tool call arguments")
        construct(self, super().__init__, values)

    def parsed_arguments(self) -> Any:
        """Return the arguments decoded from JSON.

        Raises:
            InvalidMedia: The model's arguments are not valid JSON.
        """
        try:
            return json.loads(self.arguments)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise InvalidMedia(
                f"the arguments of tool call {excerpt(self.id)} ({self.name}) are not valid JSON: "
                f"{exc}"
            ) from exc


class RefusalPart(PartFields):
    """The model declined to answer; `text` is what it said instead."""

    kind: Literal["refusal"] = "refusal"
    text: str

    def __init__(self, text: str | None = None, /, *given: Never, **values: Any) -> None:
        if given:
            raise keyword_only(type(self), (text, *given), takes="one text")
        if text is not None:
            values["text"] = text
        construct(self, super().__init__, values)


class ProviderPart(PartFields):
    """A block exactly as one provider's API wrote it, for what the common model does not hold.

    Server tool calls and their results (web search), code execution, guard content, and any
    block type a reader does not know. It is rendered verbatim to its own provider and left
    out, through `render(on_loss=...)`, for every other.

    Attributes:
        provider: The provider whose block this is.
        data: The block, as that provider wrote it.
    """

    kind: Literal["provider"] = "provider"
    provider: str
    data: JsonData

    def __init__(self, /, *given: Never, **values: Any) -> None:
        if given:
            raise keyword_only(
                type(self), given, use="e.g. {cls}(provider='anthropic', data={...})"
            )
        construct(self, super().__init__, values)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict; `data` is kept even when it is empty."""
        return part_dict(self, keep=("data",))
