"""Read a `generateContent` request body (camelCase or snake_case) back into messages.

The inverse of `render`: `render(read(p), prepare) == p` for a body whose media already fit.
Every `Part` maps to one of our parts; a part we do not model (`executableCode`,
`codeExecutionResult`, `toolCall`, ...) becomes a `ProviderPart` holding it as written. The
hints that reproduce the exact shape go under `native["gemini"]` (listed in the package
docstring).
"""

from __future__ import annotations

import base64
from typing import Any, TypeAlias, TypeGuard

from pydantic import BaseModel

from mediaparts._conversation._json_data import data_copy
from mediaparts._conversation._made import made, made_text
from mediaparts._conversation._messages import Assistant, Message, System, Tool, User
from mediaparts._conversation._parts import (
    MediaPart,
    Part,
    ProviderPart,
    ReasoningPart,
    TextPart,
    ToolCall,
)
from mediaparts._errors import InvalidMedia, excerpt
from mediaparts.providers._fitting._normalized import PASSED_URL
from mediaparts.providers._wire._reading import (
    as_list,
    file_reference,
    inline_media,
    json_arguments,
    read_dict,
    shown,
    url_media,
)
from mediaparts.providers._wire._rendering import OWN_FIELDS, OWN_URL, Served
from mediaparts.providers.wires.generate_content._spelling import (
    SYSTEM_FIELDS,
    absent,
    pick,
    spell,
    spelled_snake,
)
from mediaparts.providers.wires.generate_content._stores import FILES_API, WEB

__all__ = ["Read", "read", "read_part"]

Read: TypeAlias = Part | MediaPart
"""A part as a reader makes it (media built from the payload's own type)."""

# The fields of a `Part` that hold its data (the REST `Part`'s `data` oneof;
# ai.google.dev/api/caching#Part and google-genai 3.4 types.Part, read 2026-11). The first
# five are modelled; a part holding one of the others, or none, becomes a ProviderPart.
_MODELLED = ("text", "inlineData", "fileData", "functionCall", "functionResponse")
_UNMODELLED = ("executableCode", "codeExecutionResult", "toolCall", "toolResponse")
# Each spelling of those fields -> the field, and each field's place in that order: a Part is
# read by its own few keys, not by looking up all nine fields in both spellings.
_DATA_FIELDS = {
    spelling: name for name in (*_MODELLED, *_UNMODELLED) for spelling in (name, spell(name, True))
}
_ORDER = {name: index for index, name in enumerate((*_MODELLED, *_UNMODELLED))}


def read(payload: Any, served: Served) -> list[Message]:
    """Read a `generateContent` body, or just its `contents` list, as messages.

    Other call arguments (`model`, `generationConfig`, `tools`, the rest of `config`) are
    ignored. The system instruction is read from `systemInstruction`/`system_instruction`, or
    from `config.system_instruction` (the SDK's call), as a `Content` or a string.

    Raises:
        InvalidMedia: Anything not shaped as the API documents, naming its JSON path.
    """
    if isinstance(payload, list | tuple):
        return _contents(served, payload)
    body = read_dict(payload, "payload")
    key, contents = pick(body, "contents", "payload")
    if key is None:
        raise InvalidMedia("payload: no 'contents'; a generateContent body holds its turns there")
    system = [] if (found := _system(served, body)) is None else [found]
    if isinstance(contents, str):  # the SDK's `contents="..."`: one user turn of text
        return [*system, User(contents, native={served.name: {"contents": "string"}})]
    return [*system, *_contents(served, contents)]


def _system(served: Served, body: dict[str, Any]) -> System | None:
    """Read the system instruction, with where it was written (`native["gemini"]["field"]`)."""
    where, value = pick(body, "systemInstruction", "payload")
    if body.get("config") is not None:
        config = read_dict(_plain(body["config"]), "payload.config")
        inner, found = pick(config, "systemInstruction", "payload.config")
        if inner is not None and found is not None:
            if where is not None and value is not None:  # which one would the call use?
                raise InvalidMedia(
                    f"payload: both {shown(where)} and 'config.{inner}' are given; keep one"
                )
            where, value = f"config.{inner}", found
    if where is None or value is None:
        return None
    assert where in SYSTEM_FIELDS
    hint: dict[str, Any] = {"field": where}
    if isinstance(value, str):
        return System([TextPart(value)], native={served.name: {**hint, "string": True}})
    node = read_dict(_plain(value), where)
    if node.get("role") is not None:
        hint["role"] = data_copy(node["role"], what=f"{where}.role")
    parts: list[Part] = []
    for i, item in enumerate(as_list(node.get("parts"), f"{where}.parts")):
        part = read_part(served, item, f"{where}.parts[{i}]", "system")
        if not isinstance(part, TextPart):
            raise InvalidMedia(f"{where}.parts[{i}]: a system instruction holds text parts only")
        parts.append(part)
    return System(parts=parts, native={served.name: hint})


def _plain(value: Any) -> Any:
    """Return an SDK object (`types.Content`, `types.GenerateContentConfig`) as its dict.

    The dump is the SDK's snake_case with bytes, so it renders back as such a dict.
    """
    if type(value) is not dict and isinstance(value, BaseModel):  # a dict: no ABC check
        return value.model_dump(mode="python", exclude_none=True)
    return value


def _contents(served: Served, value: Any) -> list[Message]:
    messages: list[Message] = []
    previous: str | None = None
    for i, item in enumerate(as_list(value, "contents")):
        at = f"contents[{i}]"
        node = read_dict(item if type(item) is dict else _plain(item), at)
        role = node.get("role")
        if role is not None and role not in ("user", "model"):
            raise InvalidMedia(f"{at}.role: expected 'user' or 'model', got {shown(role)}")
        parts = node.get("parts")
        if role is not None and role != previous and len(node) == 2 and _one_text(parts):
            # The commonest Content, one Part of text alone: what `_content` makes of it (no
            # hint, no call to sign), without its questions.
            part = made_text(parts[0]["text"], native={})
            speaker: type[Assistant | User] = Assistant if role == "model" else User
            messages.append(made(speaker, parts=[part]))
            previous = role
            continue
        first: dict[str, Any] = {}
        if role is None:
            first["no_role"] = True
        if previous == (role or "user"):
            first["split"] = True
        read = _content(served, node, at, role or "user")
        if first:
            read[0] = _hinted(served, read[0], first)
        messages += read
        previous = role or "user"
    return messages


def _one_text(parts: Any) -> TypeGuard[list[dict[str, Any]]]:
    """Tell whether a Content's `parts` is one Part holding a non-empty text alone."""
    if type(parts) is not list or len(parts) != 1:
        return False
    only = parts[0]
    return (
        type(only) is dict
        and len(only) == 1
        and type(only.get("text")) is str
        and bool(only["text"])
    )


def _content(served: Served, node: dict[str, Any], at: str, role: str) -> list[Message]:
    """Return the messages one Content holds: a run of parts each, a tool result each."""
    items = node.get("parts")
    if type(items) is not list:  # a list is read as it is (never changed): no path, no copy
        items = as_list(items, f"{at}.parts")
    if not items:
        raise InvalidMedia(f"{at}.parts: empty; a Content holds at least one part")
    out: list[Message] = []
    run: list[Read] = []
    for i, item in enumerate(items):
        read = read_part(served, item, f"{at}.parts[{i}]", role)
        if isinstance(read, Tool):
            if run:
                out.append(made(User, parts=run))
                run = []
            out.append(read)
        else:
            run.append(read)
    if run:
        if role == "model":
            out.append(made(Assistant, parts=_unsigned(served, run)))
        else:
            out.append(made(User, parts=run))
    if len(out) > 1:
        out[1:] = [_hinted(served, m, {"join": True}) for m in out[1:]]
    return out


def _unsigned(served: Served, run: list[Read]) -> list[Read]:
    """Mark the first function call of a model Content read without a `thoughtSignature`.

    The renderer signs such a call with Gemini's validator-skipping sentinel for Gemini 3
    (`_render.SKIP_SIGNATURE`); the hint keeps a body read here unsigned, as it was written.
    """
    for i, part in enumerate(run):
        if isinstance(part, ToolCall):
            hint = part.native.get(served.name, {})  # what `_call` wrote: a dict
            extra = hint.get("extra", {})
            if "thoughtSignature" in extra or "thought_signature" in extra:
                return run
            native = {**part.native, served.name: {**hint, "unsigned": True}}
            return [*run[:i], part.model_copy(update={"native": native}), *run[i + 1 :]]
    return run


def _hinted(served: Served, message: Message, hint: dict[str, Any]) -> Message:
    if not hint:
        return message
    native = {**message.native, served.name: {**message.native.get(served.name, {}), **hint}}
    return message.model_copy(update={"native": native})


def _native(served: Served, hint: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {served.name: hint} if hint else {}


def _rest(node: dict[str, Any], used: tuple[str | None, ...], at: str) -> dict[str, Any]:
    """Return the fields of `node` not in `used`, copied (kept verbatim as a hint)."""
    return {k: data_copy(v, what=f"{at}.{k}") for k, v in node.items() if k not in used}


def read_part(served: Served, value: Any, at: str, role: str) -> Read | Tool:
    """Read one `Part` of a `role` ("user", "model" or "system") Content.

    A `functionResponse` in a user Content is a `Tool` message; what a Content of that role
    cannot hold in our model (a function call or a thought from the user) is a ProviderPart.
    """
    node = read_dict(value, at)
    if len(node) == 1 and type(text := node.get("text")) is str:  # most Parts: text alone
        # What the rest of this function makes of it, without its other questions.
        if text:
            return made_text(text, native={})
        return made(TextPart, text=text, native=_native(served, {"empty": True}))
    key: str | None
    if len(node) == 1 and (only := next(iter(node))) in _DATA_FIELDS:  # another one-field Part
        key, name, data = only, _DATA_FIELDS[only], node[only]
    else:
        written = [k for k in node if k in _DATA_FIELDS]
        if len(written) == 1:  # its one data field, in one spelling, beside other fields
            key = written[0]
            name, data = _DATA_FIELDS[key], node[key]
        else:
            name, key, data = _data_field(node, written, at)
    thought = node.get("thought") is True
    if key is not None and name == "functionResponse" and role == "user":
        return _tool(served, node, key, at)
    from_model = name == "functionCall" or thought
    if (
        key is None
        or name not in _MODELLED
        or name == "functionResponse"  # from the model: not a tool result of ours
        or (from_model and role != "model")
    ):
        return ProviderPart(provider=served.name, data=data_copy(node, what=at))
    # A Part of its data field alone (most are) has no other field to look up.
    sig_key = pick(node, "thoughtSignature", at)[0] if len(node) > 1 else None
    hint: dict[str, Any] = {}
    if spelled_snake(key) or (sig_key is not None and spelled_snake(sig_key)):
        hint["snake"] = True
    if name == "text" and thought:
        return _reasoning(served, node, sig_key, hint, at)
    extra = _rest(node, (key,), at) if len(node) > 1 else None
    if extra:
        hint["extra"] = extra
        hint[OWN_FIELDS] = sorted(extra)  # what no other API carries: reported if left out
    if name == "text":
        if not isinstance(data, str):
            raise InvalidMedia(f"{at}.text: expected a string, got {type(data).__name__}")
        if not data:
            hint["empty"] = True
        return made(TextPart, text=data, native=_native(served, hint))
    if name == "functionCall":
        return _call(served, data, f"{at}.{key}", hint)
    return _media(served, name, data, f"{at}.{key}", hint)


def _data_field(node: dict[str, Any], written: list[str], at: str) -> tuple[str, str | None, Any]:
    """Return a Part's data field, the key it is written under and its value, of the keys
    `written` in `node` that name one (none: `("", None, None)`).

    Raises:
        InvalidMedia: It holds two data fields, or one in both spellings.
    """
    named = sorted({_DATA_FIELDS[k] for k in written}, key=_ORDER.__getitem__)
    present = [(name, *pick(node, name, at)) for name in named]
    if len(present) > 1:
        keys = ", ".join(excerpt(key) for _, key, _ in present)
        raise InvalidMedia(f"{at}: a Part holds one kind of data, got {keys}")
    return present[0] if present else ("", None, None)


def _reasoning(
    served: Served, node: dict[str, Any], sig_key: str | None, hint: dict[str, Any], at: str
) -> ReasoningPart:
    text = node["text"]
    if not isinstance(text, str):
        raise InvalidMedia(f"{at}.text: expected a string, got {type(text).__name__}")
    extra = _rest(node, ("text", "thought", sig_key), at)
    if extra:
        hint["extra"] = extra
    signature = None if sig_key is None else node[sig_key]
    if isinstance(signature, bytes):  # the SDK's own type for it
        signature = base64.b64encode(signature).decode("ascii")
        hint["bytes"] = True
    elif signature is not None and not isinstance(signature, str):
        raise InvalidMedia(
            f"{at}.{sig_key}: expected base64 text or bytes, got {type(signature).__name__}"
        )
    return ReasoningPart(
        text=text, signature=signature, provider=served.name, native=_native(served, hint)
    )


def _call(served: Served, value: Any, at: str, hint: dict[str, Any]) -> ToolCall:
    node = read_dict(value, at)
    name = node.get("name")
    if not isinstance(name, str) or not name:
        raise InvalidMedia(f"{at}.name: expected the function's name, got {shown(name)}")
    call_id = node.get("id")
    if call_id is not None and not isinstance(call_id, str):
        raise InvalidMedia(f"{at}.id: expected a string, got {type(call_id).__name__}")
    inner = _rest(node, ("id", "name", "args"), at)
    if inner:
        hint["inner"] = inner
    if node.get("args") is None:
        hint["no_args"] = True
    arguments = json_arguments(absent(node.get("args"), {}), f"{at}.args")
    native = _native(served, hint)
    return made(ToolCall, id=call_id, name=name, arguments=arguments, native=native)


def _media(served: Served, name: str, value: Any, at: str, hint: dict[str, Any]) -> MediaPart:
    """Read an `inlineData` (Blob) or `fileData` (FileData) as a media part."""
    node = read_dict(value, at)
    type_key, media_type = pick(node, "mimeType", at)
    if media_type is not None and not isinstance(media_type, str):
        raise InvalidMedia(f"{at}.{type_key}: expected a media type, got {shown(media_type)}")
    _, display = pick(node, "displayName", at)
    fields: dict[str, Any] = {"filename": display} if isinstance(display, str) else {}
    if name == "inlineData":
        data = node.get("data")
        if media_type is None or data is None:
            raise InvalidMedia(f"{at}: inline data needs 'mimeType' and 'data'")
        if isinstance(data, bytes):  # the SDK's own type for it
            hint["bytes"] = True
        inner = _rest(node, (type_key, "data"), at)
        if inner:
            hint["inner"] = inner
        return inline_media(
            None, data, media_type, f"{at}.data", native=_native(served, hint), **fields
        )
    uri_key, uri = pick(node, "fileUri", at)
    if not isinstance(uri, str) or not uri:
        raise InvalidMedia(f"{at}.fileUri: expected the file's URI, got {shown(uri)}")
    inner = _rest(node, (type_key, uri_key), at)
    if inner:
        hint["inner"] = inner
    # a page on the web, not a file in a store (`_stores`)
    if uri.startswith(WEB) and not uri.startswith(FILES_API):
        hint[PASSED_URL] = True  # Gemini fetched it: rendering it back fetches nothing
        # A link Gemini reads itself (a YouTube video, a web page): no other provider is
        # given it, and nothing is fetched for one (`left_out`).
        hint[OWN_URL] = True
        return url_media(
            None, uri, media_type, f"{at}.{uri_key}", native=_native(served, hint), **fields
        )
    return file_reference(
        None, uri, served.name, media_type, at, native=_native(served, hint), **fields
    )


def _tool(served: Served, node: dict[str, Any], key: str, at: str) -> Tool:
    """Read a `functionResponse` part as a Tool message, its `response` kept exactly.

    `{"output": text}` is the text; `{"error": text}` is the error; any other object is kept
    as its JSON text (with the hint `"response": "json"`, so Gemini gets the object back).
    """
    where = f"{at}.{key}"
    response = read_dict(node[key], where)
    name = response.get("name")
    if not isinstance(name, str) or not name:
        raise InvalidMedia(f"{where}.name: expected the function's name, got {shown(name)}")
    call_id = response.get("id")
    if call_id is not None and not isinstance(call_id, str):
        raise InvalidMedia(f"{where}.id: expected a string, got {type(call_id).__name__}")
    hint: dict[str, Any] = {"snake": True} if spelled_snake(key) else {}
    extra = _rest(node, (key,), at)
    if extra:
        hint["extra"] = extra
    inner = _rest(response, ("id", "name", "response", "parts"), where)
    if inner:
        hint["inner"] = inner
    parts: list[Read] = []
    fields: dict[str, Any] = {}
    body = response.get("response")
    if body is None:
        hint["response"] = "absent"
    else:
        body = read_dict(body, f"{where}.response")
        if set(body) == {"output"} and isinstance(body["output"], str):
            parts.append(TextPart(body["output"]))
        elif set(body) == {"error"} and isinstance(body["error"], str):
            fields["error"] = body["error"]
            hint["response"] = "error"
        else:
            parts.append(TextPart(json_arguments(body, f"{where}.response")))
            hint["response"] = "json"
            fields["is_error"] = "error" in body
    for i, item in enumerate(as_list(absent(response.get("parts"), []), f"{where}.parts")):
        parts.append(_nested(served, item, f"{where}.parts[{i}]"))
    native = _native(served, hint)
    return made(Tool, parts=parts, tool_call_id=call_id, name=name, native=native, **fields)


def _nested(served: Served, value: Any, at: str) -> MediaPart:
    """Read a `FunctionResponsePart`: media inside a function response."""
    node = read_dict(value, at)
    found = [(n, *pick(node, n, at)) for n in ("inlineData", "fileData")]
    present = [(n, k, d) for n, k, d in found if k is not None]
    if len(present) != 1:
        raise InvalidMedia(f"{at}: expected one of 'inlineData' or 'fileData'")
    name, key, data = present[0]
    assert key is not None
    hint: dict[str, Any] = {"nested": True}
    if spelled_snake(key):
        hint["snake"] = True
    extra = _rest(node, (key,), at)
    if extra:
        hint["extra"] = extra
        hint[OWN_FIELDS] = sorted(extra)
    return _media(served, name, data, f"{at}.{key}", hint)
