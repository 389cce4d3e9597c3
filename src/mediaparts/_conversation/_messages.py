"""Chat messages: System, User, Assistant and Tool, each an ordered tuple of parts.

Anything `mp.part()` takes can be given as content or `files=`; a plain `str` inside a content
list is text. Parts are text and media, and in assistant turns also reasoning, tool calls and
refusals, kept in the order the model produced them; `ProviderPart` holds any block of one
provider's API that the common model does not.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, field_validator
from typing_extensions import Never

from mediaparts._boundary import Boundary
from mediaparts._conversation._construct import construct, keyword_only, model_hash, public_name
from mediaparts._conversation._json_data import (
    NativeHints,
    copy_metadata,
    json_copy,
    reading_dicts,
)
from mediaparts._conversation._make_part import is_single_source
from mediaparts._conversation._message_content import to_parts
from mediaparts._conversation._parts import MediaPart, Part, ReasoningPart, TextPart, ToolCall
from mediaparts._conversation._reprs import bounded, verbatim
from mediaparts._conversation._stamps import stamp
from mediaparts._errors import InvalidMedia, excerpt
from mediaparts._sources import untrusted_paths

__all__ = [
    "FORMAT_VERSION",
    "MAX_TOKENS",
    "Assistant",
    "Message",
    "StopReason",
    "System",
    "Tool",
    "ToolCall",
    "Usage",
    "User",
    "message_from_dict",
    "tool_calls_of",
]

# Only MediaError leaves message_from_dict (see Boundary).
_READING_A_DICT = Boundary("reading a message dict")

AnyPart = Annotated[Part, Field(discriminator="kind")]
_REPR_PARTS = 8
_ONE_LIST = "put text and parts in one list: {cls}(['Describe this', part])"
_ONE_TEXT = "put the text in one string or list: {cls}('one text') or {cls}(['one', 'two'])"
_SEPARATOR = "\n\n"
# The start of RFC 3339 date-time text: a date, T (or a space), hours and minutes.
_RFC3339_START = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}")
# `to_dict()` writes this version; `message_from_dict` reads it and every earlier one.
FORMAT_VERSION = 2

StopReason: TypeAlias = Literal[
    "end", "max_tokens", "tool_call", "stop_sequence", "content_filter", "refusal", "other"
]
"""Why the model stopped, in one vocabulary for every provider."""


# No API reports more than a signed 64-bit count; a bigger one is hostile (its digits alone
# cost quadratic time to print, and prices of it overflow Decimal's context).
MAX_TOKENS = 2**63 - 1


class Usage(BaseModel):
    """Token counts a provider reported for one response.

    `input_tokens` counts all input, cached included (`cache_read_tokens` and
    `cache_write_tokens` are parts of it); `output_tokens` counts all output, reasoning
    included (`reasoning_tokens` is part of it), whatever the API reported, converted.
    """

    # Built on first use (docs/architecture.md): `import mediaparts` builds no validator.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    input_tokens: int = Field(default=0, ge=0, le=MAX_TOKENS)
    output_tokens: int = Field(default=0, ge=0, le=MAX_TOKENS)
    cache_read_tokens: int = Field(default=0, ge=0, le=MAX_TOKENS)
    cache_write_tokens: int = Field(default=0, ge=0, le=MAX_TOKENS)
    reasoning_tokens: int = Field(default=0, ge=0, le=MAX_TOKENS)

    def __init__(self, /, **values: Any) -> None:
        construct(self, super().__init__, values)

    @property
    def total_tokens(self) -> int:
        """Input and output tokens together."""
        return self.input_tokens + self.output_tokens

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented  # a TypeError, not an AttributeError from deep inside
        return Usage(
            **{name: getattr(self, name) + getattr(other, name) for name in type(self).model_fields}
        )


class _Message(BaseModel):
    """What every message has.

    Attributes:
        metadata: The application's own JSON data about the message (a trace id, who wrote
            it, a rating), kept by `to_dict()` and never sent to any provider. Copied deeply
            when the message is made, so it shares nothing with the dict given.
    """

    # Built on first use (docs/architecture.md): `import mediaparts` builds no validator.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    role: str
    id: str | None = None
    created_at: datetime | None = None
    parts: tuple[AnyPart, ...] = ()
    native: NativeHints = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)

    _use: ClassVar[str] = _ONE_LIST  # what to pass instead of more than one positional content

    def __init__(
        self,
        content: Any = None,
        /,
        *given: Never,
        files: Iterable[Any] | None = None,
        **values: Any,
    ) -> None:
        if given:
            raise keyword_only(type(self), (content, *given), takes="one content", use=self._use)
        if "content" in values:
            raise InvalidMedia(
                f"{type(self).__name__} takes its content as the first argument, not content=: "
                f"{public_name(type(self))}('...') (or parts=[...])"
            )
        if content is not None or files is not None:
            if "parts" in values:
                raise InvalidMedia("give content (and files=) or parts=, not both")
            values["parts"] = to_parts(content, files)
        elif "parts" in values:
            values["parts"] = to_parts(values["parts"], None)
        stamp(values)  # an id and a time for a new message, when mp.configure asks
        construct(self, super().__init__, values)

    def __hash__(self) -> int:  # pydantic's frozen hash fails on the `native` dict
        return model_hash(self)

    def __repr_args__(self) -> Any:
        # Bounded, as parts' reprs are: empty fields left out, at most _REPR_PARTS parts;
        # the application's metadata last, after what the message says.
        for name, value in super().__repr_args__():
            if name == "parts":
                shown = ", ".join(repr(p) for p in value[:_REPR_PARTS])
                more = len(value) - _REPR_PARTS
                yield name, verbatim(f"({shown}{f', … +{more} parts' if more > 0 else ''})")
            elif value is not None and value != {} and name != "metadata":
                yield name, bounded(value)
        if self.metadata:
            yield "metadata", bounded(self.metadata)

    @field_validator("metadata", mode="before")
    @classmethod
    def _json_metadata(cls, value: Any) -> dict[str, Any]:
        return copy_metadata(value)

    @field_validator("created_at", mode="before")
    @classmethod
    def _aware(cls, value: Any) -> Any:
        # A number, or digits in a string, would be read as a Unix time, and a naive time
        # means nothing once stored: only a datetime, or RFC 3339 text, is read.
        if value is not None and not isinstance(value, str | datetime):
            raise ValueError(
                "created_at must be a timezone-aware datetime or ISO 8601 text with an offset"
            )
        if isinstance(value, str) and not _RFC3339_START.match(value):
            raise ValueError(
                f"created_at text must be RFC 3339 (2026-11-24T09:00:00Z), got {excerpt(value)}"
            )
        return value

    @field_validator("created_at")
    @classmethod
    def _aware_after(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.utcoffset() is None:
            raise ValueError(
                "created_at must be timezone-aware (datetime.now(timezone.utc), or text "
                "ending in Z or +00:00); a naive time is ambiguous once stored"
            )
        return value

    @property
    def text(self) -> str:
        """The message's text parts, joined with blank lines ("" when it has none).

        Only `TextPart`s: reasoning, refusals, tool calls and media are not the message's
        text (`Assistant.reasoning` is the reasoning's).
        """
        return _SEPARATOR.join(p.text for p in self.parts if isinstance(p, TextPart))

    @property
    def content(self) -> str:
        """The message's text parts, joined with blank lines: the same as `text`."""
        return self.text

    @property
    def files(self) -> tuple[MediaPart, ...]:
        """The message's media parts, in order."""
        return tuple(p for p in self.parts if isinstance(p, MediaPart))

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict that `mp.message_from_dict` turns back into this message.

        It carries `"v": 2`, the format version; fields at their default are left out, and
        `metadata`, when there is any, comes just before `parts`.
        """
        out: dict[str, Any] = {"v": FORMAT_VERSION, "role": self.role}
        out.update(
            self.model_dump(
                mode="json", exclude={"role", "parts", "metadata"}, exclude_defaults=True
            )
        )
        if self.metadata:  # a copy: the dict returned shares nothing with the message
            out.update(self.model_dump(mode="json", include={"metadata"}))
        out["parts"] = [p.to_dict() for p in self.parts]
        return out


class System(_Message):
    """Instructions for the model. Text only.

    `role="developer"` keeps OpenAI's developer role; providers without one read it as system.
    """

    role: Literal["system", "developer"] = "system"
    name: str | None = None

    _use: ClassVar[str] = _ONE_TEXT

    def __init__(
        self,
        content: Any = None,
        /,
        *given: Never,
        files: Iterable[Any] | None = None,
        **values: Any,
    ) -> None:
        super().__init__(content, *given, files=files, **values)
        if any(not isinstance(p, TextPart) for p in self.parts):
            raise InvalidMedia("a System message holds text only; put media in a User message")


class User(_Message):
    """What the person says: text and media, in order. `name` tells participants apart."""

    role: Literal["user"] = "user"
    name: str | None = None

    if TYPE_CHECKING:  # for type checkers, not pydantic's field-based __init__

        def __init__(
            self,
            content: Any = None,
            /,
            *given: Never,
            files: Iterable[Any] | None = None,
            **values: Any,
        ) -> None: ...


class Assistant(_Message):
    """What the model said, in order: reasoning, text, tool calls, refusals (and media).

    `tool_calls=` appends `ToolCall` parts after the content; `tool_calls` is the view of
    them. `stop_reason` is one of `StopReason`, `stop_reason_raw` the API's own value.
    """

    role: Literal["assistant"] = "assistant"
    name: str | None = None
    usage: Usage | None = None
    output: Any = None
    model: str | None = None
    stop_reason: StopReason | None = None
    stop_reason_raw: str | None = None

    def __init__(
        self,
        content: Any = None,
        /,
        *given: Never,
        files: Iterable[Any] | None = None,
        tool_calls: Iterable[Any] | None = None,
        **values: Any,
    ) -> None:
        if given:
            raise keyword_only(type(self), (content, *given), takes="one content", use=self._use)
        if tool_calls is not None:
            calls = tool_calls_of(tool_calls)
            if content is not None or files is not None:
                if "parts" in values:
                    raise InvalidMedia("give content (and files=) or parts=, not both")
                values["parts"] = to_parts(content, files) + calls
                content = files = None
            else:
                values["parts"] = to_parts(values.get("parts"), None) + calls
        super().__init__(content, files=files, **values)

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        """The tool calls among the parts, in order."""
        return tuple(p for p in self.parts if isinstance(p, ToolCall))

    @property
    def reasoning(self) -> str:
        """The readable reasoning, joined with blank lines ("" when there is none).

        Each `ReasoningPart` gives its `text`, or, where the provider returned only a summary
        (OpenAI Responses), its summary's pieces. Encrypted or redacted reasoning has no
        text and adds nothing: it stays in `parts`, with its signature, for the replay.
        """
        said = [
            piece
            for p in self.parts
            if isinstance(p, ReasoningPart)
            for piece in ((p.text,) if p.text is not None else p.summary)
        ]
        return _SEPARATOR.join(said)

    @field_validator("output")
    @classmethod
    def _json_output(cls, value: Any) -> Any:
        # Kept as the JSON data to_dict() will hold (a tuple becomes a list), and as a copy
        # that shares nothing with the caller's object.
        return json_copy(value, what="output")


class Tool(_Message):
    """The result of a tool call; may carry media (e.g. a cropped image).

    `tool_call_id` is the call it answers (None where the API pairs results by name, as
    Gemini may); `is_error` is the API's error flag, implied by `error=`.
    """

    role: Literal["tool"] = "tool"
    tool_call_id: str | None = None
    name: str | None = None
    error: str | None = None
    error_type: str | None = None
    is_error: bool = Field(default=False, strict=True)

    def __init__(
        self,
        content: Any = None,
        /,
        *given: Never,
        files: Iterable[Any] | None = None,
        **values: Any,
    ) -> None:
        if values.get("error") is not None:
            values.setdefault("is_error", True)
        super().__init__(content, *given, files=files, **values)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict; `is_error` is written when it is not what `error` implies."""
        out = super().to_dict()
        if self.error is not None:  # `error` implies the flag: write it only when it says no
            out.pop("is_error", None)
            if not self.is_error:
                parts = out.pop("parts")
                out["is_error"], out["parts"] = False, parts  # parts stay last
        return out


Message: TypeAlias = System | User | Assistant | Tool

_ROLES: dict[str, type[_Message]] = {
    "system": System,
    "developer": System,
    "user": User,
    "human": User,
    "assistant": Assistant,
    "ai": Assistant,
    "model": Assistant,
    "tool": Tool,
}


def message_from_dict(
    value: Mapping[str, Any], *, base_dir: str | os.PathLike[str] | None = None
) -> Message:
    """Make a message from `to_dict()` output (any version) or a `{"role", "content"}` dict.

    `content` is text, or a list of text, parts, shorthands and type-tagged content parts
    (`{"type": "text" | "image_url" | "input_audio" | "file", ...}`, the OpenAI Chat shape).
    Roles `human`, `ai` and `model` are read as `user`, `assistant` and `assistant`;
    `developer` stays a `System` message with role `developer`. A version 1 dict (no `"v"`)
    keeps its `tool_calls` list; they follow the content, as version 1 rendered them.
    Each provider's own payloads are read by `mp.messages_from`.

    The dict is untrusted input (it may come from a client's request body): it may not name
    a local file. A `{"path": ...}` part, an `image_url` whose URL is a plain path, or any
    other path inside it raises `BlockedPath`, unless `base_dir` is given; then paths are
    resolved against `base_dir` and read only when their real path (symlinks followed) lies
    inside it. Inline data and URLs (fetched later, under the fetch policy) are unaffected.

    Args:
        value: The message dict.
        base_dir: The one directory whose files the dict may name, if any.

    Raises:
        BlockedPath: The dict names a local file, and no `base_dir` allows it.
        InvalidMedia: The dict has no known role, an unknown version or a malformed field,
            or `base_dir` is not a directory.
    """
    try:
        with untrusted_paths("mp.message_from_dict()", base_dir), reading_dicts():
            return _message_from_dict(value)
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _READING_A_DICT.reraise(exc)


def _message_from_dict(value: Mapping[str, Any]) -> Message:
    if not isinstance(value, Mapping):
        raise InvalidMedia(f"a message dict is needed, got {type(value).__name__}")
    if not all(isinstance(key, str) for key in value):
        raise InvalidMedia("a message dict's keys must be strings")
    version = value.get("v", 1)
    if type(version) is not int or not 1 <= version <= FORMAT_VERSION:
        raise InvalidMedia(
            f"unknown message dict version {excerpt(version)}; this release reads 1 to "
            f"{FORMAT_VERSION} (a newer mediaparts wrote it?)"
        )
    role = value.get("role")
    cls = _ROLES.get(role.lower()) if isinstance(role, str) else None
    if cls is None:
        raise InvalidMedia(
            f"unknown message role {excerpt(value.get('role'))}; expected one of "
            f"{', '.join(_ROLES)}"
        )
    fields = {k: v for k, v in value.items() if k not in ("v", "role", "content", "parts")}
    if cls is System:
        assert isinstance(role, str)
        fields["role"] = "developer" if role.lower() == "developer" else "system"
    if "parts" in value and "content" in value:
        raise InvalidMedia("a message dict has either 'parts' or 'content', not both")
    source = value.get("parts", value.get("content"))
    # Bytes are a Sequence too, but of ints: one piece of media, as in mp.User(b"...").
    single = isinstance(source, str | Mapping) or is_single_source(source)
    if source is not None and not single and not isinstance(source, Sequence):
        raise InvalidMedia(f"message content must be text or a list, got {type(source).__name__}")
    items = [source] if single else list(source or ())
    made = cls(items, **fields)
    assert isinstance(made, System | User | Assistant | Tool)
    return made


def tool_calls_of(calls: Any) -> tuple[ToolCall, ...]:
    """Return `tool_calls=` as ToolCall parts: ToolCalls, their dicts, or OpenAI's shape.

    Raises:
        InvalidMedia: It is not a list, or an item is not a tool call.
    """
    if isinstance(calls, str | bytes | Mapping) or not isinstance(calls, Iterable):
        raise InvalidMedia(f"tool_calls must be a list, got {type(calls).__name__}")
    return tuple(_tool_call(c) for c in calls)


def _tool_call(value: Any) -> ToolCall:
    if isinstance(value, ToolCall):
        return value
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise InvalidMedia(
            f"a tool call must be a dict with string keys, got {type(value).__name__}"
        )
    if "function" in value:  # {"id", "type": "function", "function": {"name", "arguments"}}
        fn = value["function"]
        if not isinstance(fn, Mapping):
            raise InvalidMedia(f"a tool call's function must be a dict, got {type(fn).__name__}")
        return ToolCall(
            id=value.get("id"), name=fn.get("name", ""), arguments=fn.get("arguments", "{}")
        )
    return ToolCall(**{k: v for k, v in value.items() if k != "kind"})
