"""Read Chat Completions payloads and responses back into messages (the inverse of `render`).

Everything the payload says is kept: what the common model holds goes into its fields, the
exact spelling into `native[<provider>]`, keyed by the provider served (the keys are listed in
the package docstring), and a block or field we do not model into a `ProviderPart` or the
message's `fields` hint.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeAlias

from mediaparts._conversation._dialogue import Cache
from mediaparts._conversation._made import made, made_text
from mediaparts._conversation._messages import (
    Assistant,
    Message,
    StopReason,
    System,
    Tool,
    Usage,
    User,
)
from mediaparts._conversation._parts import (
    Citation,
    MediaPart,
    Part,
    ProviderPart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
)
from mediaparts._errors import InvalidMedia, MediaError
from mediaparts.providers._wire._reading import (
    as_dict,
    as_list,
    file_reference,
    inline_media,
    maybe,
    need,
    place,
    plain,
    read_dict,
    shown,
    stop_reason,
    token_count,
    url_media,
)
from mediaparts.providers._wire._rendering import Served
from mediaparts.providers.wires.chat_completions import _variants
from mediaparts.providers.wires.chat_completions._common import file_urls, read_breakpoint
from mediaparts.providers.wires.chat_completions._shapes import (
    AUDIO_FORMATS,
    STOP_REASONS,
    Shape,
    default_shape,
)

__all__ = ["finish_reason", "read", "read_citation", "read_response", "read_usage"]

Read: TypeAlias = Part | MediaPart
"""A part as read: one of `Part`, or a media part of the class its bytes call for."""

_MEDIA_TYPES = {fmt: media_type for media_type, fmt in AUDIO_FORMATS.items()}
# The keys each message role has in `ChatCompletionMessageParam` (openai-python 3.54, read
# 2026-11) that are read into the common model; any other key is kept verbatim in `fields`.
_NO_ITEMS: list[Any] = []  # compared with, never changed: no list made per key
_KNOWN = {
    "system": {"role", "content", "name"},
    "developer": {"role", "content", "name"},
    "user": {"role", "content", "name"},
    "assistant": {"role", "content", "name", "refusal", "tool_calls", "function_call", "audio"},
    "tool": {"role", "content", "tool_call_id"},
    "function": {"role", "content", "name"},
}


def read(payload: Any, served: Served) -> list[Message]:
    """Read `chat.completions.create` keyword arguments (or just `messages`) as messages.

    Other call arguments (`model`, `tools`, ...) are ignored.

    Raises:
        InvalidMedia: The payload is not that shape; the message names the JSON path.
    """
    if isinstance(payload, Mapping):
        payload = payload.get("messages")
    messages = as_list(payload, "messages")
    out: list[Message] = []
    for i, node in enumerate(messages):
        at = f"messages[{i}]"
        # An error raised without a JSON path (kept data that is not JSON, a field the message
        # refuses) is given the message's, as `with located(at)` would (without its calls).
        try:
            out.append(_message(read_dict(node, at), at, served))
        except MediaError as exc:
            place(exc, at)
            raise
    return out


def _message(node: dict[str, Any], at: str, served: Served) -> Message:
    role = need(node, "role", at, str)
    if role not in _KNOWN:
        raise InvalidMedia(f"{at}.role: expected one of {', '.join(_KNOWN)}, got {shown(role)}")
    hints: dict[str, Any] = {}
    # The provider's reasoning field (its `reasoning_field` quirk), when it holds text.
    thought = _reasoning(node, at, served) if role == "assistant" else None
    field = _variants.reasoning_field(served) if thought is not None else None
    # Unknown keys, and known ones written as null (or no calls), go back as they were written.
    known = _KNOWN[role]
    extra = {
        k: v
        for k, v in node.items()
        if k != "content" and k != field and (k not in known or v is None or v == _NO_ITEMS)
    }
    if extra:
        hints["fields"] = extra
    content = node.get("content")
    parts = _content(role, content, at, served) if content is not None else []
    more = _assistant_fields(node, at, served) if role == "assistant" else []
    written: Shape = "absent" if "content" not in node else _written_shape(content)
    if written != default_shape(role, [_plain(p, served) for p in parts], bool(more)):
        hints["content"] = written
    native = {served.name: hints} if hints else {}
    name = maybe(node, "name", at, str)
    named = {"name": name} if name is not None and role != "function" else {}
    if role in ("system", "developer"):
        return made(System, parts=parts, role=role, native=native, **named)
    if role == "user":
        return made(User, parts=parts, native=native, **named)
    if role == "assistant":
        first = [thought] if thought is not None else []
        return made(Assistant, parts=first + parts + more, native=native, **named)
    if role == "tool":
        call_id = need(node, "tool_call_id", at, str)
        return made(Tool, parts=parts, tool_call_id=call_id, native=native)
    hints["role"] = "function"
    return Tool(parts=parts, name=need(node, "name", at, str), native={served.name: hints})


def _reasoning(message: dict[str, Any], at: str, served: Served) -> ReasoningPart | None:
    """Read the provider's reasoning field of an assistant message (its `reasoning_field`
    quirk) as a `ReasoningPart`, when the field holds text (null or "": no reasoning, and a
    payload's field is then kept verbatim, as written)."""
    field = _variants.reasoning_field(served)
    if field is None or message.get(field) is None:
        return None
    text = need(message, field, at, str)
    return ReasoningPart(text=text, provider=served.name) if text else None


def _written_shape(content: Any) -> Shape:
    if content is None:
        return "null"
    return "list" if isinstance(content, list) else "string"


def _plain(part: Read, served: Served) -> bool:
    """Tell whether a content part is text that `render` may join into a string."""
    return isinstance(part, TextPart) and part.cache is None and served.name not in part.native


def _content(role: str, content: Any, at: str, served: Served) -> list[Read]:
    where = f"{at}.content"
    if isinstance(content, str):
        return [made_text(content)] if content else []
    blocks = as_list(content, where)
    parts = [
        _block(role, read_dict(b, f"{where}[{i}]"), f"{where}[{i}]", served)
        for i, b in enumerate(blocks)
    ]
    if role in ("system", "developer"):
        for i, piece in enumerate(parts):
            if not isinstance(piece, TextPart):
                raise InvalidMedia(f"{where}[{i}]: a {role} message takes text parts only")
    return parts


# The content part types each role takes (openai-python 3.54, read 2026-11): text everywhere,
# refusal from the assistant, media from the user.
_TYPES = {
    "text": {"system", "developer", "user", "assistant", "tool"},
    "refusal": {"assistant"},
    "image_url": {"user"},
    "input_audio": {"user"},
    "file": {"user"},
}


def _block(role: str, node: dict[str, Any], at: str, served: Served) -> Read:
    """Read one content part; a type we do not model becomes a `ProviderPart`, verbatim.

    A user's chunk in a shape the provider's quirks name (`_variants`) is read as that shape.
    """
    kind = node.get("type")
    variant = _variants.read_block(node, at, served, _cache) if role == "user" else None
    if variant is not None:
        return variant
    if role == "assistant" and kind == "thinking" and _variants.has(served, _variants.THINKING):
        thinking = _variants.read_thinking(node, at, served)
        if thinking is not None:
            return thinking
    if not isinstance(kind, str) or role not in _TYPES.get(kind, ()):
        return ProviderPart(provider=served.name, data=node)
    hints: dict[str, Any] = {}
    extra = {k: v for k, v in node.items() if k not in ("type", kind, "prompt_cache_breakpoint")}
    if extra:
        hints["fields"] = extra
    cache = _cache(node, at, hints)
    if kind == "text":
        text = need(node, "text", at, str)
        return made(TextPart, text=text, **_fields(cache, hints, served.name))
    if kind == "refusal":
        hints["in"] = "content"
        return RefusalPart(need(node, "refusal", at, str), **_fields(cache, hints, served.name))
    spec = need(node, kind, at, dict)
    known = _INNER[kind] - ({"file_data"} if spec.get("file_id") is not None else set())
    if kind == "image_url" and not served.rules.image.detail_levels:
        known = known - {"detail"}  # no detail setting: a `detail` written is kept as written
    inner = {k: v for k, v in spec.items() if k not in known}
    if inner:
        hints["inner"] = inner
    where = f"{at}.{kind}"
    if kind == "image_url":
        return _image(spec, where, _fields(cache, hints, served.name), served)
    if kind == "input_audio":
        return _audio(spec, where, _fields(cache, hints, served.name))
    urls = file_urls(served)
    _file_hints(spec, hints, urls)
    return _file(spec, where, _fields(cache, hints, served.name), served.name, urls)


# The keys inside each media part (openai-python 3.54, read 2026-11); others are kept as hints.
_INNER = {
    "image_url": {"url", "detail"},
    "input_audio": {"data", "format"},
    "file": {"file_data", "file_id", "filename"},
}


def _fields(cache: str | None, hints: dict[str, Any], provider: str) -> dict[str, Any]:
    return {"cache": cache, "native": {provider: hints} if hints else {}}


def _cache(node: dict[str, Any], at: str, hints: dict[str, Any]) -> Cache | None:
    """Read a `prompt_cache_breakpoint` as the part's cache (the exact one as a hint)."""
    spec = node.get("prompt_cache_breakpoint")
    if spec is None:
        return None
    cache, written = read_breakpoint(spec, f"{at}.prompt_cache_breakpoint")
    if written is not None:
        hints["breakpoint"] = written
    return cache


def _image(spec: dict[str, Any], at: str, fields: dict[str, Any], served: Served) -> Read:
    url = need(spec, "url", at, str)
    levels = served.rules.image.detail_levels
    detail = maybe(spec, "detail", at, str) if levels else None  # else kept in `inner`
    if detail is not None and detail not in levels:
        raise InvalidMedia(f"{at}.detail: expected one of {', '.join(levels)}, got {shown(detail)}")
    if detail is not None:
        fields = {**fields, "detail": detail}
    return url_media("image", url, None, f"{at}.url", **fields)


def _audio(spec: dict[str, Any], at: str, fields: dict[str, Any]) -> Read:
    fmt = need(spec, "format", at, str)
    if fmt not in _MEDIA_TYPES:
        raise InvalidMedia(
            f"{at}.format: expected one of {', '.join(_MEDIA_TYPES)}, got {shown(fmt)}"
        )
    data = need(spec, "data", at, str)
    return inline_media("audio", data, _MEDIA_TYPES[fmt], f"{at}.data", **fields)


def _file_hints(spec: dict[str, Any], hints: dict[str, Any], urls: bool) -> None:
    """Note how inline file data was written: without a file name, or as bare base64."""
    if spec.get("file_id") is not None or (urls and _is_url(spec.get("file_data"))):
        return
    if spec.get("filename") is None:
        hints["filename"] = False
    data = spec.get("file_data")
    if isinstance(data, str) and not data.startswith("data:"):
        hints["file_data"] = "base64"


def _is_url(data: Any) -> bool:
    """Tell whether `file_data` is an http(s) URL (read so under the `file_urls` quirk)."""
    return isinstance(data, str) and data.startswith(("https://", "http://"))


def _file(spec: dict[str, Any], at: str, fields: dict[str, Any], provider: str, urls: bool) -> Read:
    filename = maybe(spec, "filename", at, str)
    if filename is not None:
        fields = {**fields, "filename": filename}
    if spec.get("file_id") is not None:
        file_id = need(spec, "file_id", at, str)
        return file_reference("file", file_id, provider, None, f"{at}.file_id", **fields)
    data = need(spec, "file_data", at, str)
    if data.startswith("data:") or (urls and _is_url(data)):
        return url_media("file", data, None, f"{at}.file_data", **fields)
    return inline_media("file", data, None, f"{at}.file_data", **fields)


def _assistant_fields(node: dict[str, Any], at: str, served: Served) -> list[Read]:
    """Read an assistant's refusal, audio and calls, which follow its content."""
    parts: list[Read] = []
    refusal = node.get("refusal")
    if refusal is not None:
        parts.append(RefusalPart(need(node, "refusal", at, str)))
    if node.get("audio") is not None:
        audio = need(node, "audio", at, dict)
        need(audio, "id", f"{at}.audio", str)
        parts.append(_message_field("audio", audio, served.name))
    if node.get("function_call") is not None:
        call = need(node, "function_call", at, dict)
        parts.append(
            _function(call, f"{at}.function_call", None, {"in": "function_call"}, served.name)
        )
    calls = node.get("tool_calls")
    if calls is not None:
        for i, call in enumerate(as_list(calls, f"{at}.tool_calls")):
            where = f"{at}.tool_calls[{i}]"
            parts.append(_tool_call(read_dict(call, where), where, served.name))
    return parts


def _message_field(key: str, value: Any, provider: str) -> ProviderPart:
    """Keep a message field we do not model (`audio`) as a part, placed back by `render`."""
    return ProviderPart(provider=provider, data={key: value}, native={provider: {"in": "message"}})


def _tool_call(node: dict[str, Any], at: str, provider: str) -> Read:
    kind = node.get("type")
    if kind == "function" or ("type" not in node and isinstance(node.get("function"), dict)):
        # A call without `type` (an API whose `type` defaults to "function") goes back so.
        call_id = need(node, "id", at, str)
        hints = {"type": "absent"} if kind is None else {}
        spec = need(node, "function", at, dict)
        return _function(spec, f"{at}.function", call_id, hints, provider)
    if kind == "custom":
        # A custom tool takes free text, not JSON: kept as {"input": text}, so that every
        # provider gets a JSON object, and written back as `custom.input`.
        spec = need(node, "custom", at, dict)
        text = need(spec, "input", f"{at}.custom", str)
        name = need(spec, "name", f"{at}.custom", str)
        arguments = json.dumps({"input": text}, ensure_ascii=False)
        hints = {"type": "custom"}
        return made(
            ToolCall,
            id=need(node, "id", at, str),
            name=name,
            arguments=arguments,
            native={provider: hints},
        )
    return ProviderPart(provider=provider, data=node, native={provider: {"in": "tool_calls"}})


def _function(
    spec: dict[str, Any], at: str, call_id: str | None, hints: dict[str, Any], provider: str
) -> ToolCall:
    name = need(spec, "name", at, str)
    arguments = need(spec, "arguments", at, str)
    native = {provider: hints} if hints else {}
    return made(ToolCall, id=call_id, name=name, arguments=arguments, native=native)


# -- responses ----------------------------------------------------------------------------


def read_response(response: Any, served: Served) -> Assistant:
    """Read a `ChatCompletion` (the SDK object or its dict) as the assistant's message.

    The first choice is read (ask for one, `n=1`, to continue a conversation); its text with
    its `url_citation` annotations as citations, refusal, audio and tool calls in the order
    the API lists them, and `usage` converted (see `Usage`).

    Raises:
        InvalidMedia: The response is not that shape; the message names the JSON path.
    """
    data = plain(response)
    choices = as_list(data.get("choices"), "choices")
    if not choices:
        raise InvalidMedia("choices: the response has no choice to read")
    choice = as_dict(choices[0], "choices[0]")
    message = need(choice, "message", "choices[0]", dict)
    at = "choices[0].message"
    thought = _reasoning(message, at, served)
    parts: list[Read] = [thought] if thought is not None else []
    chunks = message.get("content")
    # Text and thinking chunks (`_variants.reply_chunks`), for a provider that replies so;
    # any other reply's content is a string.
    listed = isinstance(chunks, list) and _variants.has(served, _variants.THINKING)
    if isinstance(chunks, list) and listed:
        parts.extend(_variants.reply_chunks(chunks, f"{at}.content", served))
    content = maybe(message, "content", at, str) if not listed else None
    audio = message.get("audio")
    if content:
        annotations = message.get("annotations") or []
        citations = tuple(
            read_citation(as_dict(a, f"{at}.annotations[{i}]"), served.name)
            for i, a in enumerate(as_list(annotations, f"{at}.annotations"))
        )
        parts.append(TextPart(content, citations=citations))
    if audio is not None:
        audio = need(message, "audio", at, dict)
        transcript = maybe(audio, "transcript", f"{at}.audio", str)
        if transcript:
            # The API takes the audio back by id; the transcript is for other providers.
            parts.append(TextPart(transcript, native={served.name: {"transcript": True}}))
        parts.append(
            _message_field("audio", {"id": need(audio, "id", f"{at}.audio", str)}, served.name)
        )
    refusal = maybe(message, "refusal", at, str)
    if refusal is not None:
        parts.append(RefusalPart(refusal))
    if message.get("function_call") is not None:
        call = need(message, "function_call", at, dict)
        parts.append(
            _function(call, f"{at}.function_call", None, {"in": "function_call"}, served.name)
        )
    for i, call in enumerate(as_list(message.get("tool_calls") or [], f"{at}.tool_calls")):
        where = f"{at}.tool_calls[{i}]"
        parts.append(_tool_call(as_dict(call, where), where, served.name))
    reason, raw = finish_reason(
        choice.get("finish_reason"), refusal is not None, "choices[0].finish_reason"
    )
    return Assistant(
        parts=parts,
        id=maybe(data, "id", "response", str),
        model=maybe(data, "model", "response", str),
        usage=read_usage(data.get("usage")),
        stop_reason=reason,
        stop_reason_raw=raw,
    )


def finish_reason(raw: Any, refused: bool, at: str) -> tuple[StopReason | None, str | None]:
    """Return (our stop reason, the API's own) for a choice's `finish_reason`: a reply that
    refused and stopped naturally stopped as a refusal."""
    reason, said = stop_reason(raw, STOP_REASONS, at)
    if refused and said == "stop":
        reason = "refusal"
    return reason, said


def read_citation(node: dict[str, Any], provider: str) -> Citation:
    """Read one annotation of the message's text as a citation (a `url_citation`, or kept)."""
    spec = node.get("url_citation")
    if node.get("type") != "url_citation" or not isinstance(spec, dict):
        return Citation(provider=provider, data=node)
    title, url = spec.get("title"), spec.get("url")
    return Citation(
        provider=provider,
        title=title if isinstance(title, str) else None,
        url=url if isinstance(url, str) else None,
        data=node,
    )


def read_usage(value: Any) -> Usage | None:
    """Convert `CompletionUsage`: prompt tokens already include cached ones, completion tokens
    reasoning ones (openai-python completion_usage.py, read 2026-11), as `Usage` counts them."""
    if value is None:
        return None
    usage = as_dict(value, "usage")
    ins, outs = "usage.prompt_tokens_details", "usage.completion_tokens_details"
    prompt = as_dict(usage.get("prompt_tokens_details") or {}, ins)
    completion = as_dict(usage.get("completion_tokens_details") or {}, outs)
    return Usage(
        input_tokens=token_count(usage, "prompt_tokens", "usage"),
        output_tokens=token_count(usage, "completion_tokens", "usage"),
        cache_read_tokens=token_count(prompt, "cached_tokens", ins),
        cache_write_tokens=token_count(prompt, "cache_write_tokens", ins),
        reasoning_tokens=token_count(completion, "reasoning_tokens", outs),
    )
