"""Chat messages that carry media: System, User, Assistant and Tool.

Content is an ordered tuple of parts. Anything `mp.part()` takes can be given as content or
`files=`; a plain `str` inside a content list is text.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, field_validator

from mediaparts._build import is_single_source, part, part_from_mapping
from mediaparts._errors import InvalidMedia
from mediaparts._fields import construct, json_copy, json_text
from mediaparts._parts import MediaPart, Part, TextPart
from mediaparts._sources import untrusted_paths

__all__ = [
    "Assistant",
    "Message",
    "System",
    "Tool",
    "ToolCall",
    "Usage",
    "User",
    "merge_runs",
    "message_from_dict",
]

AnyPart = Annotated[Part, Field(discriminator="kind")]
_SEPARATOR = "\n\n"


class ToolCall(BaseModel):
    """A call the model asked for. `arguments` is the JSON text the model produced, as is."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    arguments: str = "{}"

    def __init__(self, /, **values: Any) -> None:
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
        except json.JSONDecodeError as exc:
            raise InvalidMedia(
                f"the arguments of tool call {self.id!r} ({self.name}) are not valid JSON: {exc}"
            ) from exc


class Usage(BaseModel):
    """Token counts a provider reported for one response."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)

    def __init__(self, /, **values: Any) -> None:
        construct(self, super().__init__, values)

    @property
    def total_tokens(self) -> int:
        """Input and output tokens together."""
        return self.input_tokens + self.output_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
        )


def _to_parts(content: Any, files: Iterable[Any] | None) -> tuple[Any, ...]:
    parts: list[Any] = []
    if content is None:
        pass
    elif isinstance(content, str):
        if content:
            parts.append(TextPart(content))
    elif isinstance(content, TextPart | MediaPart) or is_single_source(content):
        parts.append(part(content))
    elif isinstance(content, Mapping):
        parts.append(_item(content))
    elif isinstance(content, Iterable):
        parts.extend(_item(item) for item in content)
    else:
        raise InvalidMedia(
            f"message content must be text, media or a list of them, got {type(content).__name__}"
        )
    if files is not None:
        if isinstance(files, str | Mapping) or is_single_source(files):
            files = [files]
        elif not isinstance(files, Iterable):
            raise InvalidMedia(f"files= takes a list of media, got {type(files).__name__}")
        for item in files:
            made = part(item)
            if not isinstance(made, MediaPart):
                raise InvalidMedia("files= takes media (paths, URLs, bytes, parts), not text")
            parts.append(made)
    return tuple(parts)


def _item(item: Any) -> TextPart | MediaPart:
    if isinstance(item, str):
        return TextPart(item)
    if isinstance(item, Mapping) and ("type" in item and "kind" not in item):
        return _typed_part(item)
    made: TextPart | MediaPart = part(item)
    return made


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    role: str
    id: str | None = None
    parts: tuple[AnyPart, ...] = ()

    def __init__(
        self, content: Any = None, /, *, files: Iterable[Any] | None = None, **values: Any
    ) -> None:
        if content is not None or files is not None:
            if "parts" in values:
                raise InvalidMedia("give content (and files=) or parts=, not both")
            values["parts"] = _to_parts(content, files)
        elif "parts" in values:
            values["parts"] = _to_parts(values["parts"], None)
        construct(self, super().__init__, values)

    @property
    def content(self) -> str:
        """The message's text parts, joined with blank lines."""
        return _SEPARATOR.join(p.text for p in self.parts if isinstance(p, TextPart))

    @property
    def files(self) -> tuple[MediaPart, ...]:
        """The message's media parts, in order."""
        return tuple(p for p in self.parts if isinstance(p, MediaPart))

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict that `mp.message_from_dict` turns back into this message."""
        out: dict[str, Any] = {"role": self.role}
        for name in type(self).model_fields:
            if name in ("role", "parts"):
                continue
            value = getattr(self, name)
            if value is None or value == ():
                continue
            if isinstance(value, BaseModel):
                value = value.model_dump(mode="json")
            elif isinstance(value, tuple):  # tool_calls: a tuple of models
                value = [
                    v.model_dump(mode="json") if isinstance(v, BaseModel) else v for v in value
                ]
            out[name] = value
        out["parts"] = [p.to_dict() for p in self.parts]
        return out


class System(_Message):
    """Instructions for the model. Text only."""

    role: Literal["system"] = "system"

    def __init__(
        self, content: Any = None, /, *, files: Iterable[Any] | None = None, **values: Any
    ) -> None:
        super().__init__(content, files=files, **values)
        if self.files:
            raise InvalidMedia("a System message holds text only; put media in a User message")


class User(_Message):
    """What the person says: text and media, in order."""

    role: Literal["user"] = "user"

    def __init__(
        self, content: Any = None, /, *, files: Iterable[Any] | None = None, **values: Any
    ) -> None:
        # Declared in each class so type checkers use it, not pydantic's field-based __init__.
        super().__init__(content, files=files, **values)


class Assistant(_Message):
    """What the model said: text (and media), tool calls, usage and structured output."""

    role: Literal["assistant"] = "assistant"

    def __init__(
        self, content: Any = None, /, *, files: Iterable[Any] | None = None, **values: Any
    ) -> None:
        # Declared in each class so type checkers use it, not pydantic's field-based __init__.
        super().__init__(content, files=files, **values)

    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage | None = None
    output: Any = None

    @field_validator("output")
    @classmethod
    def _json_output(cls, value: Any) -> Any:
        # Kept as the JSON data to_dict() will hold (a tuple becomes a list), and as a copy
        # that shares nothing with the caller's object.
        return json_copy(value, what="output")


class Tool(_Message):
    """The result of a tool call; may carry media (e.g. a cropped image)."""

    role: Literal["tool"] = "tool"

    def __init__(
        self, content: Any = None, /, *, files: Iterable[Any] | None = None, **values: Any
    ) -> None:
        # Declared in each class so type checkers use it, not pydantic's field-based __init__.
        super().__init__(content, files=files, **values)

    tool_call_id: str
    name: str | None = None
    error: str | None = None
    error_type: str | None = None


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
    """Make a message from `to_dict()` output or a `{"role", "content"}` dict.

    `content` is text, or a list of text, parts, shorthands and type-tagged content parts
    (`{"type": "text" | "image_url" | "input_audio" | "file", ...}`, the OpenAI Chat shape).

    Roles `human`, `ai`, `model` and `developer` are read as `user`, `assistant`,
    `assistant` and `system`.

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
        InvalidMedia: The dict has no known role or a malformed field, or `base_dir` is not
            a directory.
    """
    with untrusted_paths("mp.message_from_dict()", base_dir):
        return _message_from_dict(value)


def _message_from_dict(value: Mapping[str, Any]) -> Message:
    if not isinstance(value, Mapping):
        raise InvalidMedia(f"a message dict is needed, got {type(value).__name__}")
    if not all(isinstance(key, str) for key in value):
        raise InvalidMedia("a message dict's keys must be strings")
    role = value.get("role")
    cls = _ROLES.get(role.lower()) if isinstance(role, str) else None
    if cls is None:
        raise InvalidMedia(
            f"unknown message role {value.get('role')!r}; expected one of {', '.join(_ROLES)}"
        )
    fields = {k: v for k, v in value.items() if k not in ("role", "content", "parts")}
    calls = fields.pop("tool_calls", None)
    if calls is not None:
        if isinstance(calls, str | Mapping) or not isinstance(calls, Sequence):
            raise InvalidMedia(f"tool_calls must be a list, got {type(calls).__name__}")
        fields["tool_calls"] = tuple(_tool_call(c) for c in calls)
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


def _tool_call(value: Any) -> ToolCall:
    if isinstance(value, ToolCall):
        return value
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise InvalidMedia(f"a tool call must be a dict with string keys, got {value!r:.60}")
    if "function" in value:  # {"id", "type": "function", "function": {"name", "arguments"}}
        fn = value["function"]
        if not isinstance(fn, Mapping):
            raise InvalidMedia(f"a tool call's function must be a dict, got {type(fn).__name__}")
        return ToolCall(
            id=value.get("id", ""), name=fn.get("name", ""), arguments=fn.get("arguments", "{}")
        )
    return ToolCall(**value)


def _spec(item: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    spec = item.get(key)
    if not isinstance(spec, Mapping):
        raise InvalidMedia(f"a {key!r} content part needs a dict under {key!r}")
    return spec


def _typed_part(item: Mapping[str, Any]) -> TextPart | MediaPart:
    """Read one type-tagged content part: a dict shape of our own, documented for dict input.

    `{"type": "text", "text": ...}` (also `input_text`, `output_text`), `{"type": "image_url",
    "image_url": {"url", "detail"}}` (or the URL alone), `{"type": "input_audio", "input_audio":
    {"data", "format"}}` and `{"type": "file", "file": {"file_data", "filename"}}`. This is the
    shape OpenAI Chat Completions uses, so such messages read as they are; reading each
    provider's own payloads is the providers' business (they sit above this module).
    """
    kind = item.get("type")
    if kind in ("text", "input_text", "output_text"):
        text = item.get("text")
        if not isinstance(text, str):
            raise InvalidMedia(f"a text part's text must be a string, got {type(text).__name__}")
        return TextPart(text)
    if kind == "image_url":
        spec = item.get("image_url")
        url = spec.get("url") if isinstance(spec, Mapping) else spec
        detail = spec.get("detail") if isinstance(spec, Mapping) else None
        return part(url, **({"detail": detail} if detail else {}))
    if kind == "input_audio":
        spec = _spec(item, "input_audio")
        fmt = str(spec.get("format", "wav"))
        made = part_from_mapping({"data": spec.get("data"), "media_type": f"audio/{fmt}"})
        assert isinstance(made, MediaPart)
        return made
    if kind == "file":
        spec = _spec(item, "file")
        made = part_from_mapping({"data": spec.get("file_data"), "filename": spec.get("filename")})
        assert isinstance(made, MediaPart)
        return made
    raise InvalidMedia(f"unknown content part type {kind!r}")


def merge_runs(messages: Sequence[Message]) -> list[Message]:
    """Merge consecutive messages of the same role into one, returning new messages.

    Text is joined with a blank line, media and tool calls are concatenated in order, usage
    is added up; tool messages are never merged (each answers its own call).
    """
    if isinstance(messages, str | Mapping) or not isinstance(messages, Iterable):
        raise InvalidMedia(f"merge_runs() takes a list of messages, got {type(messages).__name__}")
    merged: list[Message] = []
    for message in messages:
        if not isinstance(message, System | User | Assistant | Tool):
            raise InvalidMedia(
                f"merge_runs() takes messages (mp.User, ...), got {type(message).__name__}; "
                "use mp.message_from_dict() for dicts"
            )
        last = merged[-1] if merged else None
        if last is None or last.role != message.role or isinstance(message, Tool):
            merged.append(message)
            continue
        merged[-1] = _merge(last, message)
    return merged


def _merge(first: Message, second: Message) -> Message:
    parts: list[Any] = list(first.parts)
    for p in second.parts:
        if parts and isinstance(p, TextPart) and isinstance(parts[-1], TextPart):
            parts[-1] = TextPart(parts[-1].text + _SEPARATOR + p.text)
        else:
            parts.append(p)
    extra: dict[str, Any] = {}
    if isinstance(first, Assistant) and isinstance(second, Assistant):
        extra["tool_calls"] = first.tool_calls + second.tool_calls
        usages = [u for u in (first.usage, second.usage) if u is not None]
        extra["usage"] = sum(usages[1:], usages[0]) if usages else None
        extra["output"] = second.output if second.output is not None else first.output
    made = type(first)(parts=tuple(parts), id=first.id, **extra)
    assert isinstance(made, System | User | Assistant | Tool)
    return made
