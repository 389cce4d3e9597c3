"""Read Messages API payloads and responses back into messages (the inverse of `render`).

Every block type maps to a part, in order; the hints `render` needs to write a payload back
exactly go under `native[<provider>]`, the name of the provider served (listed in the package
docstring). A block type the parts do not model becomes a `ProviderPart`, kept verbatim:
nothing is dropped.
"""

from __future__ import annotations

from typing import Any

from mediaparts._conversation._made import made, made_text
from mediaparts._conversation._messages import Assistant, Message, System, Tool, Usage, User
from mediaparts._conversation._parts import (
    Citation,
    FilePart,
    ImagePart,
    MediaPart,
    Part,
    ProviderPart,
    ReasoningPart,
    TextPart,
    ToolCall,
)
from mediaparts._errors import InvalidMedia
from mediaparts.formats import Kind
from mediaparts.providers._fitting._normalized import PASSED_URL
from mediaparts.providers._wire._reading import (
    as_dict,
    as_list,
    file_reference,
    inline_media,
    json_arguments,
    maybe,
    need,
    plain,
    shown,
    stop_reason,
    token_count,
    url_media,
    utf8,
)
from mediaparts.providers._wire._rendering import Served
from mediaparts.providers.wires.messages._shapes import STOP_REASONS

__all__ = ["read", "read_response"]

# The fields each modelled block type's part holds (ContentBlockParam members of the SDK
# 2.12, read 2026-11). Any other field (`caller`, `toolset_name`, `transformations`, or a
# field written as null) is kept verbatim in the part's hints under "extra".
_HELD = {
    "text": frozenset({"type", "text", "citations", "cache_control"}),
    "image": frozenset({"type", "source", "cache_control"}),
    "document": frozenset({"type", "source", "cache_control", "title", "context", "citations"}),
    "thinking": frozenset({"type", "thinking", "signature"}),
    "redacted_thinking": frozenset({"type", "data"}),
    "tool_use": frozenset({"type", "id", "name", "input", "cache_control"}),
    "tool_result": frozenset({"type", "tool_use_id", "content", "is_error", "cache_control"}),
}


def read(payload: Any, served: Served) -> list[Message]:
    """Read the keyword arguments of `client.messages.create`, or just its `messages` list.

    Keys other than `system` and `messages` (`model`, `max_tokens`, `tools`, ...) are ignored.
    A user turn gives one `Tool` message per `tool_result` block and `User` messages for the
    blocks around them.

    Raises:
        InvalidMedia: The payload is not shaped as the Messages API takes it; the message
            names the JSON path (`messages[2].content[0].source.data`) and what was expected.
    """
    system: Any = None
    if isinstance(payload, list | tuple):
        turns = list(payload)
    else:
        node = as_dict(payload, "payload")
        turns = as_list(node.get("messages"), "messages")
        system = node.get("system")
    out: list[Message] = [] if system is None else [_top_system(served, system)]
    names: dict[str, str] = {}
    for i, turn in enumerate(turns):
        out.extend(_turn(served, turn, f"messages[{i}]", names))
    return out


def read_response(response: Any, served: Served) -> Assistant:
    """Read a `Message` response (the SDK object or its dict) as an `Assistant` message.

    Usage takes the common meaning: Anthropic's `input_tokens` leaves out the tokens read
    from and written to the cache, so they are added to it.

    Raises:
        InvalidMedia: The response is not shaped as a `Message`, naming the field.
    """
    node = _response_dict(response)
    blocks = as_list(node.get("content"), "content")
    parts = [
        _part(served, _no_nulls(b, f"content[{i}]"), f"content[{i}]") for i, b in enumerate(blocks)
    ]
    reason, raw = stop_reason(node.get("stop_reason"), STOP_REASONS, "stop_reason")
    hints = {k: node[k] for k in ("stop_sequence", "stop_details") if node.get(k) is not None}
    return Assistant(
        parts=parts,
        id=maybe(node, "id", "response", str),
        model=maybe(node, "model", "response", str),
        usage=_usage(node.get("usage")),
        stop_reason=reason,
        stop_reason_raw=raw,
        native=_native(served, hints),
    )


def _response_dict(response: Any) -> dict[str, Any]:
    """Return the response as a dict: an SDK object dumped as the API wrote it.

    Only the fields the API sent are dumped (a citation's `document_title` is required even
    when null, and a field the API did not send must not be sent back either).
    """
    return plain(response, sent=True)


def _no_nulls(block: Any, at: str) -> dict[str, Any]:
    """Return a response block without its null fields (a request block has none of them)."""
    return {k: v for k, v in as_dict(block, at).items() if v is not None}


def _usage(value: Any) -> Usage | None:
    """Return the response's usage, cache reads and writes counted in the input."""
    if value is None:
        return None
    node = as_dict(value, "usage")
    read, written = (
        token_count(node, "cache_read_input_tokens", "usage"),
        token_count(node, "cache_creation_input_tokens", "usage"),
    )
    details = node.get("output_tokens_details")
    thinking = 0
    if details is not None:
        at = "usage.output_tokens_details"
        thinking = token_count(as_dict(details, at), "thinking_tokens", at)
    return Usage(
        input_tokens=token_count(node, "input_tokens", "usage", required=True) + read + written,
        output_tokens=token_count(node, "output_tokens", "usage", required=True),
        cache_read_tokens=read,
        cache_write_tokens=written,
        reasoning_tokens=thinking,
    )


def _top_system(served: Served, value: Any) -> System:
    """Read the top-level `system`: a string, or text blocks (remembered as blocks)."""
    if isinstance(value, str):
        return System(parts=[TextPart(value)])
    blocks = as_list(value, "system")
    parts = [_system_text(served, block, f"system[{i}]") for i, block in enumerate(blocks)]
    return System(parts=parts, native={served.name: {"system": "blocks"}})


def _system_text(served: Served, block: Any, at: str) -> TextPart:
    node = as_dict(block, at)
    if node.get("type") != "text":
        raise InvalidMedia(
            f"{at}.type: a system prompt holds text blocks only, got {shown(node.get('type'))}"
        )
    return _text(served, node, at)


def _turn(served: Served, turn: Any, at: str, names: dict[str, str]) -> list[Message]:
    """Read one turn of `messages` (a user turn may give several messages)."""
    node = as_dict(turn, at)
    role = node.get("role")
    content = node.get("content")
    if role not in ("user", "assistant", "system"):
        raise InvalidMedia(
            f"{at}.role: expected 'user', 'assistant' or 'system', got {shown(role)}"
        )
    if isinstance(content, str):
        hints: dict[str, Any] = {"system": "message"} if role == "system" else {}
        kinds: dict[str, type[Message]] = {"user": User, "assistant": Assistant, "system": System}
        kind = kinds[role]
        return [made(kind, parts=[made_text(content)], native=_native(served, hints))]
    blocks = as_list(content, f"{at}.content")
    hints = _content_hint(blocks)
    if role == "system":
        texts = [_system_text(served, b, f"{at}.content[{i}]") for i, b in enumerate(blocks)]
        return [System(parts=texts, native={served.name: {"system": "message", **hints}})]
    if role == "assistant":
        parts = [_part(served, b, f"{at}.content[{i}]", names) for i, b in enumerate(blocks)]
        return [made(Assistant, parts=parts, native=_native(served, hints))]
    return _user(served, blocks, at, names, hints)


def _content_hint(blocks: list[Any]) -> dict[str, Any]:
    """Return {"content": "list"} when one plain text block was written as a list."""
    if len(blocks) == 1:
        only = blocks[0]
        if isinstance(only, dict) and only.get("type") == "text" and set(only) == {"type", "text"}:
            return {"content": "list"}
    return {}


def _user(
    served: Served, blocks: list[Any], at: str, names: dict[str, str], hints: dict[str, Any]
) -> list[Message]:
    """Read a user turn: each `tool_result` is a `Tool` message, the rest `User` messages."""
    out: list[Message] = []
    run: list[Part] = []
    for i, block in enumerate(blocks):
        where = f"{at}.content[{i}]"
        if isinstance(block, dict) and block.get("type") == "tool_result":
            if run:
                out.append(made(User, parts=run))
                run = []
            out.append(_tool_result(served, block, where, names))
        else:
            run.append(_part(served, block, where, names))
    if run or not out:
        out.append(made(User, parts=run, native=_native(served, hints)))
    return out


def _tool_result(served: Served, node: dict[str, Any], at: str, names: dict[str, str]) -> Tool:
    """Read a `tool_result` block as a `Tool` message, its content as parts in order."""
    call_id = need(node, "tool_use_id", at, str)
    is_error = maybe(node, "is_error", at, bool)
    content = node.get("content")
    hints: dict[str, Any] = {}
    parts: list[Part] = []
    if isinstance(content, str):
        parts, hints["content"] = [made_text(content)], "str"
    elif content is not None:
        items = as_list(content, f"{at}.content")
        parts = [_part(served, b, f"{at}.content[{i}]", names) for i, b in enumerate(items)]
        if not items:
            hints["content"] = "list"  # an empty list written out
    extra = _extra(node, "tool_result")
    if node.get("cache_control") is not None:
        cache, ttl = _cache(node, at)
        if parts:
            # A breakpoint after the result is one after its last part; "on_result" puts it
            # back on the tool_result block rather than on that part's own block.
            last = parts[-1]
            own = {**last.native.get(served.name, {}), "on_result": True, **ttl}
            parts[-1] = last.model_copy(
                update={"cache": cache, "native": {**last.native, served.name: own}}
            )
        else:
            extra["cache_control"] = node["cache_control"]
    if is_error is False:
        extra["is_error"] = False  # written out although it is the default
    if extra:
        hints["extra"] = extra
    return made(
        Tool,
        parts=parts,
        tool_call_id=call_id,
        name=names.get(call_id),
        is_error=bool(is_error),
        native=_native(served, hints),
    )


def _part(served: Served, block: Any, at: str, names: dict[str, str] | None = None) -> Part:
    """Read one content block as a part; a block type the parts do not model is kept whole."""
    node = as_dict(block, at)
    kind = need(node, "type", at, str)
    match kind:
        case "text":
            return _text(served, node, at)
        case "image":
            return _media_block(served, "image", node, at)
        case "document":
            return _media_block(served, "file", node, at)
        case "thinking":
            return ReasoningPart(
                text=need(node, "thinking", at, str),
                signature=need(node, "signature", at, str),
                provider=served.name,
                native=_native(served, _extra_hint(node, kind)),
            )
        case "redacted_thinking":
            data = need(node, "data", at, str)
            return ReasoningPart(
                data=data, provider=served.name, native=_native(served, _extra_hint(node, kind))
            )
        case "tool_use":
            return _tool_use(served, node, at, names)
        case _:
            return ProviderPart(provider=served.name, data=node)


def _tool_use(
    served: Served, node: dict[str, Any], at: str, names: dict[str, str] | None
) -> ToolCall:
    call_id, name = need(node, "id", at, str), need(node, "name", at, str)
    if names is not None:
        names[call_id] = name
    cache, ttl = _cache(node, at)
    return made(
        ToolCall,
        id=call_id,
        name=name,
        arguments=json_arguments(node.get("input"), f"{at}.input"),
        cache=cache,
        native=_native(served, {**ttl, **_extra_hint(node, "tool_use")}),
    )


def _text(served: Served, node: dict[str, Any], at: str) -> TextPart:
    text = need(node, "text", at, str)
    cache, ttl = _cache(node, at)
    hints = {**ttl, **_extra_hint(node, "text")}
    citations: tuple[Citation, ...] = ()
    if node.get("citations") is not None:
        items = as_list(node["citations"], f"{at}.citations")
        citations = tuple(_citation(served, c, f"{at}.citations[{i}]") for i, c in enumerate(items))
        if not items:
            hints["citations"] = []  # an empty list written out
    return made(
        TextPart, text=text, citations=citations, cache=cache, native=_native(served, hints)
    )


def _citation(served: Served, value: Any, at: str) -> Citation:
    """Read one citation; its fields are kept whole in `data`."""
    node = as_dict(value, at)
    need(node, "type", at, str)
    # Document locations have `document_title`, web and search results `title`; `url` is a
    # web result's, `source` a search result's (SDK 2.12 text_citation_param.py, 2026-11).
    title_key = "document_title" if "document_title" in node else "title"
    url_key = "url" if "url" in node else "source"
    return Citation(
        provider=served.name,
        cited_text=maybe(node, "cited_text", at, str),
        title=maybe(node, title_key, at, str),
        url=maybe(node, url_key, at, str),
        data=node,
    )


def _media_block(served: Served, kind: Kind, node: dict[str, Any], at: str) -> Part:
    """Read an `image` or `document` block (a `content` document is kept whole)."""
    source = as_dict(node.get("source"), f"{at}.source")
    if kind == "file" and source.get("type") == "content":
        return ProviderPart(provider=served.name, data=node)
    cache, ttl = _cache(node, at)
    hints: dict[str, Any] = {**ttl, **_extra_hint(node, "image" if kind == "image" else "document")}
    if source.get("type") == "url":
        hints[PASSED_URL] = True  # the API fetched it: sent back as a URL, not fetched here
    title = maybe(node, "title", at, str) if kind == "file" else None
    if kind == "file":
        if title is None and source.get("type") == "url":
            hints["title"] = None  # the part's name comes from the URL; no title was sent
        for key in ("context", "citations"):
            if node.get(key) is not None:
                hints[key] = node[key]
    fields: dict[str, Any] = {"cache": cache, "native": _native(served, hints)}
    if kind == "file" and title is not None:
        fields["filename"] = title
    made = _media(served, kind, source, f"{at}.source", fields)
    assert isinstance(made, ImagePart | FilePart)  # what an image or a file source makes
    return made


def _media(
    served: Served, kind: Kind, source: dict[str, Any], at: str, fields: dict[str, Any]
) -> MediaPart:
    """Return the part a `base64`, `url`, `text` or Files API `file` source holds."""
    match source.get("type"):
        case "base64":
            media_type = need(source, "media_type", at, str)
            return inline_media(kind, source.get("data"), media_type, f"{at}.data", **fields)
        case "url":
            pdf = "application/pdf" if kind == "file" else None  # URLPDFSourceParam
            return url_media(kind, source.get("url"), pdf, f"{at}.url", **fields)
        case "text" if kind == "file":
            text = need(source, "data", at, str)
            return inline_media(kind, utf8(text), "text/plain", f"{at}.data", **fields)
        case "file":
            file_id = source.get("file_id")
            return file_reference(kind, file_id, served.name, None, f"{at}.file_id", **fields)
        case other:
            raise InvalidMedia(
                f"{at}.type: expected a source type of the block, got {shown(other)}"
            )


def _cache(node: dict[str, Any], at: str) -> tuple[Any, dict[str, Any]]:
    """Return a block's cache TTL, and {"ttl": True} when the TTL was written out."""
    value = node.get("cache_control")
    if value is None:
        return None, {}
    control = as_dict(value, f"{at}.cache_control")
    ttl = control.get("ttl", "5m")
    if control.get("type") != "ephemeral" or ttl not in ("5m", "1h") or len(control) > 2:
        raise InvalidMedia(
            f"{at}.cache_control: expected {{'type': 'ephemeral'}} with an optional ttl of "
            f"'5m' or '1h', got {shown(control)}"
        )
    return ttl, ({"ttl": True} if "ttl" in control else {})


def _extra_hint(node: dict[str, Any], kind: str) -> dict[str, Any]:
    """Return {"extra": {...}} for the block's fields the part does not hold, if any."""
    extra = _extra(node, kind)
    return {"extra": extra} if extra else {}


def _extra(node: dict[str, Any], kind: str) -> dict[str, Any]:
    held = _HELD[kind]
    return {k: v for k, v in node.items() if k not in held or v is None}


def _native(served: Served, hints: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {served.name: hints} if hints else {}
