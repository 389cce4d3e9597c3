"""Read `responses.create` arguments and `Response` objects back into messages.

Every payload and response is hostile input: a wrong type anywhere raises `InvalidMedia` naming
its JSON path. An item or block we do not model becomes a `ProviderPart`, never dropped; the
keys of a modelled shape that the parts do not hold are kept verbatim in the `extra` hint (the
package docstring lists every hint).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeAlias, TypeVar

from mediaparts._conversation._dialogue import Cache
from mediaparts._conversation._json_data import data_copy
from mediaparts._conversation._made import made, made_text, updated
from mediaparts._conversation._messages import Assistant, Message, System, Tool, Usage, User
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
from mediaparts._errors import InvalidMedia, MediaError, excerpt
from mediaparts.providers._wire._reading import (
    as_dict,
    as_list,
    file_reference,
    inline_media,
    located,
    maybe,
    need,
    place,
    plain,
    read_dict,
    stop_reason,
    token_count,
    url_media,
)
from mediaparts.providers._wire._rendering import Served
from mediaparts.providers.wires.chat_completions import read_breakpoint
from mediaparts.providers.wires.responses._shapes import STOP_REASONS

__all__ = ["read", "read_response"]

T = TypeVar("T")
Hints = dict[str, Any]
Piece: TypeAlias = Part | MediaPart
"""A part as a reader makes it (`file_reference` and friends return the `MediaPart` base)."""


class _Node:
    """One JSON object read key by key; the keys not taken are kept as its `extra` hint.

    `node` is the payload's own dict, already checked by `read_dict`: read, never changed or
    kept.
    """

    __slots__ = ("at", "node", "taken")

    def __init__(self, node: dict[str, Any], at: str) -> None:
        self.node = node
        self.at = at
        self.taken: set[str] = set()

    def need(self, key: str, kind: type[T]) -> T:
        self.taken.add(key)
        return need(self.node, key, self.at, kind)

    def maybe(self, key: str, kind: type[T]) -> T | None:
        value = maybe(self.node, key, self.at, kind)
        if value is not None:
            self.taken.add(key)
        return value

    def hints(self, **more: Any) -> Hints:
        """Return this shape's hints: `more` that are set, and the keys not taken."""
        out = {key: value for key, value in more.items() if value not in (None, False)}
        if self.taken.issuperset(self.node):  # every key read (most shapes): no dict to fill
            return out
        out["extra"] = {key: value for key, value in self.node.items() if key not in self.taken}
        return out


def _native(hints: Mapping[str, Any], served: Served) -> dict[str, Hints]:
    """Return `native` holding a part's hints under the name of the provider served."""
    return {served.name: dict(hints)} if hints else {}


def read(payload: Any, served: Served) -> list[Message]:
    """Read `client.responses.create` arguments (or just the `input` list) as messages.

    Args:
        payload: What `mp.render(..., "openai-responses")` returns: `instructions` and `input`
            (a string or a list of items); other call arguments are ignored. Or `input` alone.

    Returns:
        The conversation in order: `instructions` first as a `System`, then one message per
        input message and `function_call_output`, and one `Assistant` per run of
        assistant-side items (assistant messages, reasoning, function calls, other items).

    Raises:
        InvalidMedia: The payload or one of its items is not a Responses shape (the message
            names its JSON path).
    """
    if isinstance(payload, list | tuple):
        return _items(list(payload), "input", served)
    if isinstance(payload, str):  # `input` alone, given as a string
        return [User(payload, native=_native({"string": True}, served))]
    body = as_dict(payload, "payload")
    if "input" not in body and "instructions" not in body:
        # A typo or another API's payload would otherwise read as an empty conversation.
        raise InvalidMedia(
            f"payload: no 'input' (responses.create arguments); its keys are {sorted(body)[:8]}"
        )
    out: list[Message] = []
    instructions = maybe(body, "instructions", "payload", str)
    if instructions is not None:
        out.append(System(instructions, native=_native({"instructions": True}, served)))
    given = body.get("input")
    if isinstance(given, str):
        out.append(User(given, native=_native({"string": True}, served)))
    elif given is not None:
        out += _items(as_list(given, "input"), "input", served)
    return out


def read_response(response: Any, served: Served) -> Assistant:
    """Read a `Response` (the SDK object or its dict) as one assistant message.

    The API's counts already have our meaning: `input_tokens` includes the cached tokens and
    `output_tokens` the reasoning tokens.

    Raises:
        InvalidMedia: The response is not a Responses `Response` shape.
    """
    # By alias: a function call's `async` is `async_` in the SDK's model.
    body = plain(response, mode="json", by_alias=True)
    parts: list[Piece] = []
    for index, raw in enumerate(as_list(body.get("output"), "response.output")):
        at = f"response.output[{index}]"
        with located(at):
            parts += _assistant_side(raw, at, served)
    details = body.get("incomplete_details")
    reason = None
    if details is not None:
        at = "response.incomplete_details"
        reason = maybe(as_dict(details, at), "reason", at, str)
    if reason is not None:
        stop, raw_stop = stop_reason(reason, STOP_REASONS, "response.incomplete_details.reason")
    else:
        stop, raw_stop = stop_reason(body.get("status"), STOP_REASONS, "response.status")
    if stop == "end" and any(isinstance(p, ToolCall) for p in parts):
        stop = "tool_call"
    elif stop == "end" and any(isinstance(p, RefusalPart) for p in parts):
        stop = "refusal"
    with located("response.usage"):
        usage = _usage(body.get("usage"), "response.usage")
    return Assistant(
        parts=parts,
        id=maybe(body, "id", "response", str),
        model=maybe(body, "model", "response", str),
        usage=usage,
        stop_reason=stop,
        stop_reason_raw=raw_stop,
    )


def _usage(raw: Any, at: str) -> Usage | None:
    """Return the usage: the input count includes cached tokens, the output reasoning."""
    if raw is None:
        return None
    usage = as_dict(raw, at)
    ins, outs = f"{at}.input_tokens_details", f"{at}.output_tokens_details"
    inputs = as_dict(_or_empty(usage.get("input_tokens_details")), ins)
    outputs = as_dict(_or_empty(usage.get("output_tokens_details")), outs)
    return Usage(
        input_tokens=token_count(usage, "input_tokens", at, required=True),
        output_tokens=token_count(usage, "output_tokens", at, required=True),
        cache_read_tokens=token_count(inputs, "cached_tokens", ins),
        cache_write_tokens=token_count(inputs, "cache_write_tokens", ins),
        reasoning_tokens=token_count(outputs, "reasoning_tokens", outs),
    )


def _or_empty(value: Any) -> Any:
    return {} if value is None else value


# -- input items ---------------------------------------------------------------------------------


def _items(items: list[Any], at: str, served: Served) -> list[Message]:
    """Read an `input` list; consecutive assistant-side items make one `Assistant`."""
    out: list[Message] = []
    run: list[Piece] = []
    for index, raw in enumerate(items):
        where = f"{at}[{index}]"
        item = read_dict(raw, where)
        kind = item.get("type")
        is_message = kind is None or kind == "message"
        try:  # as `with located(where)`, without its calls for each item
            if (is_message and item.get("role") != "assistant") or kind == "function_call_output":
                if run:
                    out.append(made(Assistant, parts=run))
                    run = []
                reader = _input_message if is_message else _tool_output
                out.append(reader(item, where, served))
            elif is_message and item.get("role") == "assistant":  # as `_assistant_side` reads it
                run += _assistant_message(item, where, served)
            else:
                run += _assistant_side(item, where, served)
        except MediaError as exc:
            place(exc, where)
            raise
    if run:
        out.append(made(Assistant, parts=run))
    return out


def _input_message(item: dict[str, Any], at: str, served: Served) -> Message:
    """Read a user, system or developer message (an easy message or a `message` item).

    A system or developer message holding media (the API allows it, `System` is text only)
    is read as a `User` whose `role` hint renders it back with its own role.
    """
    content = item.get("content")
    if len(item) == 2 and item.get("role") == "user" and type(content) is str and content:
        # An easy user message of text (the commonest): what the general path below makes of
        # it (every key taken, no hints), made without its questions.
        return made(User, parts=[made_text(content)], native={})
    node = _Node(item, at)
    role = node.need("role", str)
    if role not in ("user", "system", "developer"):
        raise InvalidMedia(
            f"{at}.role: expected user, assistant, system or developer, got {excerpt(role)}"
        )
    parts, listed = _content(node, _input_block, served)
    if role == "user" or not all(isinstance(p, TextPart) for p in parts):
        hints = node.hints(list=listed, role=None if role == "user" else role)
        return made(User, parts=parts, native=_native(hints, served))
    return made(System, parts=parts, role=role, native=_native(node.hints(list=listed), served))


def _content(
    node: _Node, block: Callable[[Any, str, Served], Piece], served: Served
) -> tuple[list[Piece], bool]:
    """Return a message's content as parts, and whether text-only content was a list."""
    content = node.node.get("content")
    node.taken.add("content")
    if isinstance(content, str):
        return ([made_text(content)] if content else []), False
    blocks = as_list(content, f"{node.at}.content")
    parts = [block(raw, f"{node.at}.content[{j}]", served) for j, raw in enumerate(blocks)]
    return parts, _listed(parts)


def _listed(parts: list[Piece]) -> bool:
    """Tell whether content read from a list needs the `list` hint to be written as one: it
    is text only (else it would be joined into a string), or it has empty texts (else they
    would be left out)."""
    return all(_plain_text(p) for p in parts) or any(
        isinstance(p, TextPart) and not p.text for p in parts
    )


def _plain_text(part: Piece) -> bool:
    """Tell whether `part` is text that the renderer joins into a string content."""
    return isinstance(part, TextPart) and part.cache is None and not part.native


def _input_block(raw: Any, at: str, served: Served) -> Piece:
    """Read an `input_text`, `input_image` or `input_file` block; another type is kept."""
    node = _Node(read_dict(raw, at), at)
    kind = node.need("type", str)
    cache, point = _cache(node)
    if kind == "input_text":
        text = node.need("text", str)
        native = _native(node.hints(breakpoint=point), served)
        return made(TextPart, text=text, cache=cache, native=native)
    if kind == "input_image":
        return _image(node, cache, point, served)
    if kind == "input_file":
        return _file(node, cache, point, served)
    return _provider(node.node, served)


def _cache(node: _Node) -> tuple[Cache | None, dict[str, Any] | None]:
    """Return the `cache` a `prompt_cache_breakpoint` asks for, and the breakpoint itself
    when `cache` alone would render another."""
    raw = node.node.get("prompt_cache_breakpoint")
    if raw is None:
        return None, None
    node.taken.add("prompt_cache_breakpoint")
    return read_breakpoint(raw, f"{node.at}.prompt_cache_breakpoint")


def _image(node: _Node, cache: Any, point: Any, served: Served) -> Piece:
    """Read an `input_image`: a URL or data URL, or a file id of the provider's store."""
    detail = node.maybe("detail", str)
    levels = served.rules.image.detail_levels  # `input_image.detail`, as Chat's (openai 3.54)
    if detail is not None and detail not in levels:
        raise InvalidMedia(
            f"{node.at}.detail: expected one of {', '.join(levels)}, got {excerpt(detail)}"
        )
    file_id = node.maybe("file_id", str)
    url = node.maybe("image_url", str)
    if (file_id is None) == (url is None):
        raise InvalidMedia(f"{node.at}: expected an image_url or a file_id (one of them)")
    # `detail` is optional in a tool output's image; the renderer writes it unless told not to.
    omit = ["detail"] if "detail" not in node.node else None
    native = _native(node.hints(breakpoint=point, omit=omit), served)
    fields = {"detail": detail, "cache": cache, "native": native}
    if file_id is not None:
        return file_reference("image", file_id, served.rules.store, None, node.at, **fields)
    return url_media("image", url, None, f"{node.at}.image_url", **fields)


def _file(node: _Node, cache: Any, point: Any, served: Served) -> Piece:
    """Read an `input_file`: inline `file_data` (a data URL), a `file_url` or a file id."""
    data = node.maybe("file_data", str)
    url = node.maybe("file_url", str)
    file_id = node.maybe("file_id", str)
    if sum(value is not None for value in (data, url, file_id)) != 1:
        raise InvalidMedia(f"{node.at}: expected one of file_data, file_url or file_id")
    # The renderer writes a `filename` beside `file_data` only; elsewhere it stays in `extra`.
    filename = maybe(node.node, "filename", node.at, str)
    if data is not None:
        node.taken.add("filename")
    omit = ["filename"] if data is not None and "filename" not in node.node else None
    bare = data is not None and not data.startswith("data:")
    native = _native(node.hints(breakpoint=point, omit=omit, bare=bare), served)
    fields = {"filename": filename, "cache": cache, "native": native}
    if file_id is not None:
        return file_reference("file", file_id, served.rules.store, None, node.at, **fields)
    if url is not None:
        return url_media("file", url, None, f"{node.at}.file_url", **fields)
    if bare:
        return inline_media("file", data, None, f"{node.at}.file_data", **fields)
    return url_media("file", data, None, f"{node.at}.file_data", **fields)


def _tool_output(item: dict[str, Any], at: str, served: Served) -> Tool:
    """Read a `function_call_output` as a `Tool` (its `name` is written back when given)."""
    node = _Node(item, at)
    node.taken.update(("type", "output"))
    call_id = node.maybe("call_id", str)
    name = node.maybe("name", str)
    output = item.get("output")
    listed = False
    if isinstance(output, str):
        parts: list[Piece] = [TextPart(output)] if output else []
    else:
        blocks = as_list(output, f"{at}.output")
        parts = [_input_block(raw, f"{at}.output[{j}]", served) for j, raw in enumerate(blocks)]
        listed = _listed(parts)
    hints = node.hints(list=listed, name=name is not None)
    return made(Tool, parts=parts, tool_call_id=call_id, name=name, native=_native(hints, served))


# -- assistant-side items ------------------------------------------------------------------------


def _assistant_side(raw: Any, at: str, served: Served) -> list[Piece]:
    """Read an assistant message, a function call, reasoning, or any other item verbatim."""
    item = read_dict(raw, at)
    kind = maybe(item, "type", at, str)
    if kind in (None, "message") and item.get("role") == "assistant":
        return _assistant_message(item, at, served)
    if kind == "function_call":
        return [_function_call(item, at, served)]
    if kind == "reasoning":
        return [_reasoning(item, at, served)]
    if kind is None or kind == "message":
        need(item, "role", at, str)  # an input message where only output items may be
        raise InvalidMedia(f"{at}: expected an output item, got a {excerpt(item['role'])} message")
    return [_provider(item, served)]


def _provider(data: Mapping[str, Any], served: Served, **hints: Any) -> ProviderPart:
    """Keep an item or block we do not model exactly as the API wrote it."""
    return ProviderPart(provider=served.name, data=data, native=_native(hints, served))


def _assistant_message(item: dict[str, Any], at: str, served: Served) -> list[Piece]:
    """Read an assistant message; its first part carries the message's envelope (`item`)."""
    node = _Node(item, at)
    node.taken.add("role")
    content = item.get("content")
    if type(content) is str and content:  # an easy message (the commonest): its one part
        node.taken.add("content")
        # What the general path below makes of it (`made_text`, then `updated`), made once.
        return [made_text(content, native={served.name: {"item": _envelope(node)}})]
    parts, _ = _content(node, _output_block, served)
    hints: Hints = {"item": _envelope(node)}
    # An output message's content is always a list; an easy one's is written back as a string
    # (the API takes no `input_*` block from the assistant, and a cache hint is a no-op there).
    if not parts:
        if isinstance(item.get("content"), list):
            hints["empty"] = True
        parts = [TextPart("")]
    first = parts[0]
    own = {**first.native.get(served.name, {}), **hints}
    parts[0] = updated(first, native={**first.native, served.name: own})
    return parts


def _envelope(node: _Node) -> dict[str, Any]:
    """Return an assistant item's own fields (those `node` has not taken), copied as validation
    would copy them (`updated` does not validate): the part must not share the caller's lists
    and dicts."""
    envelope = node.hints().get("extra")
    return {} if envelope is None else data_copy(envelope, what="a provider's data")


def _output_block(raw: Any, at: str, served: Served) -> Piece:
    """Read `output_text` (annotations as citations), `refusal`, or an `input_text` block."""
    node = _Node(read_dict(raw, at), at)
    kind = node.need("type", str)
    if kind == "refusal":
        return RefusalPart(node.need("refusal", str), native=_native(node.hints(), served))
    if kind == "output_text":
        text = node.need("text", str)
        # `parsed` is what `client.responses.parse()` adds; no request may carry it back.
        node.taken.update(("annotations", "parsed"))
        notes = as_list(node.node.get("annotations"), f"{at}.annotations")
        citations = [_citation(n, f"{at}.annotations[{j}]", served) for j, n in enumerate(notes)]
        native = _native(node.hints(), served)
        return made(TextPart, text=text, citations=tuple(citations), native=native)
    if kind == "input_text":
        return _input_block(raw, at, served)
    return _provider(node.node, served, block=True)


def _citation(raw: Any, at: str, served: Served) -> Citation:
    """Read an annotation (`url_citation`, `file_citation`, ...), kept whole as `data`."""
    note = read_dict(raw, at)
    need(note, "type", at, str)
    title = maybe(note, "title", at, str) or maybe(note, "filename", at, str)
    url = maybe(note, "url", at, str)
    return Citation(provider=served.name, title=title, url=url, data=note)


def _function_call(item: dict[str, Any], at: str, served: Served) -> ToolCall:
    """Read a `function_call`: `call_id` is the id results answer, `id` the item's (fc_…)."""
    node = _Node(item, at)
    # `parsed_arguments` is what `client.responses.parse()` and the SDK's stream helper add;
    # no request may carry it back.
    node.taken.update(("type", "parsed_arguments"))
    return made(
        ToolCall,
        id=node.need("call_id", str),
        name=node.need("name", str),
        arguments=node.need("arguments", str),
        item_id=node.maybe("id", str),
        native=_native(node.hints(), served),
    )


def _reasoning(item: dict[str, Any], at: str, served: Served) -> Piece:
    """Read a reasoning item: summary texts, reasoning text, `encrypted_content` as `data`.

    An item whose summary or content holds a block type we do not model is kept whole.
    """
    node = _Node(item, at)
    node.taken.add("type")
    node.taken.update(("summary", "content"))
    summary = _texts(as_list(item.get("summary"), f"{at}.summary"), f"{at}.summary", "summary_text")
    texts = None
    if item.get("content") is not None:
        texts = _texts(as_list(item["content"], f"{at}.content"), f"{at}.content", "reasoning_text")
    elif "content" in item:
        node.taken.discard("content")  # an explicit null, kept in `extra`
    if summary is None or (item.get("content") is not None and texts is None):
        return _provider(item, served)
    text = "\n\n".join(texts) if texts else None
    several = texts if texts is not None and len(texts) != 1 else None
    return ReasoningPart(
        text=text,
        summary=tuple(summary),
        data=node.maybe("encrypted_content", str),
        provider=served.name,
        id=node.need("id", str),
        native=_native(node.hints(texts=several), served),
    )


def _texts(raw: list[Any], at: str, kind: str) -> list[str] | None:
    """Return the texts of `{"type": kind, "text": ...}` blocks, None if another shape is there."""
    texts = []
    for j, value in enumerate(raw):
        block = as_dict(value, f"{at}[{j}]")
        if block.get("type") != kind or set(block) != {"type", "text"}:
            return None
        texts.append(need(block, "text", f"{at}[{j}]", str))
    return texts
