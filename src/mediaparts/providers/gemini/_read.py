"""Read a `generateContent` request body (camelCase or snake_case) back into messages.

The inverse of `render`: `render(read(p), prepare) == p` for a body whose media already fit.
Every `Part` maps to one of our parts; a part we do not model (`executableCode`,
`codeExecutionResult`, `toolCall`, ...) becomes a `ProviderPart` holding it as written. The
hints that reproduce the exact spelling go under `native["gemini"]` (listed in the package
docstring).
"""

from __future__ import annotations

import base64
import json
from typing import Any

from mediaparts._errors import InvalidMedia
from mediaparts._messages import Assistant, Message, System, Tool, User
from mediaparts._parts import Part, ProviderPart, ReasoningPart, TextPart, ToolCall
from mediaparts.detection import canonical_media_type, kind_of
from mediaparts.providers._read_common import (
    as_dict,
    as_list,
    file_reference,
    inline_media,
    url_media,
)
from mediaparts.providers.gemini._spelling import copied, pick, spelled_snake

__all__ = ["read", "read_part"]

# `Part` fields that hold its data (the `data` oneof of the REST `Part`; ai.google.dev/api/caching
# #Part and google-genai 3.4 types.Part, read 2026-11). The first five are modelled; the others
# become a ProviderPart.
_MODELLED = ("text", "inlineData", "fileData", "functionCall", "functionResponse")
_UNMODELLED = ("executableCode", "codeExecutionResult", "toolCall", "toolResponse")
# A `fileData.fileUri` that names a file in Google's stores, not a web page: the Files API
# (`files.upload` returns `https://generativelanguage.googleapis.com/v1beta/files/<id>`) and
# Cloud Storage (`gs://`, Vertex AI) (ai.google.dev/gemini-api/docs/files, read 2026-11).
_FILES_API = "https://generativelanguage.googleapis.com/"


def read(payload: Any) -> list[Message]:
    """Read a `generateContent` body, or just its `contents` list, as messages.

    Other call arguments (`model`, `generationConfig`, `tools`, the rest of `config`) are
    ignored. The system instruction is read from `systemInstruction`/`system_instruction` or
    from `config.system_instruction` (the SDK's call), as a `Content` or a string.

    Raises:
        InvalidMedia: Anything not shaped as the API documents, naming its JSON path.
    """
    if isinstance(payload, list):
        return _contents(payload)
    body = as_dict(payload, "payload")
    messages: list[Message] = []
    system = _system(body)
    if system is not None:
        messages.append(system)
    key, contents = pick(body, "contents", "payload")
    if key is None:
        raise InvalidMedia("payload: no 'contents'; a generateContent body holds its turns there")
    messages += _contents(contents)
    return messages


def _system(body: dict[str, Any]) -> System | None:
    key, value = pick(body, "systemInstruction", "payload")
    where = key
    if key is None and "config" in body:
        config = as_dict(body["config"], "config")
        inner, value = pick(config, "systemInstruction", "config")
        where = None if inner is None else f"config.{inner}"
    if where is None or value is None:
        return None
    hint: dict[str, Any] = {"field": where}
    if isinstance(value, str):
        return System([TextPart(value)], native={"gemini": {**hint, "string": True}})
    node = as_dict(value, where)
    if "role" in node:
        hint["role"] = node["role"]
    parts: list[Part] = []
    for i, item in enumerate(as_list(node.get("parts"), f"{where}.parts")):
        part = read_part(item, f"{where}.parts[{i}]", "system")
        if not isinstance(part, TextPart):
            raise InvalidMedia(f"{where}.parts[{i}]: a system instruction holds text parts only")
        parts.append(part)
    return System(parts, native={"gemini": hint})


def _contents(value: Any) -> list[Message]:
    messages: list[Message] = []
    previous: str | None = None
    for i, item in enumerate(as_list(value, "contents")):
        at = f"contents[{i}]"
        node = as_dict(item, at)
        role = node.get("role")
        if role is not None and role not in ("user", "model"):
            raise InvalidMedia(f"{at}.role: expected 'user' or 'model', got {role!r}")
        read = _content(node, at, role or "user")
        first: dict[str, Any] = {}
        if role is None:
            first["no_role"] = True
        if previous == (role or "user"):
            first["split"] = True
        if first:
            read[0] = _with_hint(read[0], first)
        messages += read
        previous = role or "user"
    return messages


def _content(node: dict[str, Any], at: str, role: str) -> list[Message]:
    """Return the messages one Content holds: one per run of parts, one per tool result."""
    items = as_list(node.get("parts"), f"{at}.parts")
    if not items:
        raise InvalidMedia(f"{at}.parts: empty; a Content holds at least one part")
    side = "model" if role == "model" else "user"
    out: list[Message] = []
    run: list[Part] = []
    for i, item in enumerate(items):
        read = read_part(item, f"{at}.parts[{i}]", side)
        if isinstance(read, Tool):
            if run:
                out.append(User(run))
                run = []
            out.append(read)
        else:
            run.append(read)
    if run:
        out.append(Assistant(run) if side == "model" else User(run))
    return [out[0], *(_with_hint(m, {"join": True}) for m in out[1:])]


def _with_hint(message: Message, hint: dict[str, Any]) -> Message:
    native = {**message.native, "gemini": {**message.native.get("gemini", {}), **hint}}
    return message.model_copy(update={"native": native})


def read_part(value: Any, at: str, side: str) -> Part | Tool:
    """Read one `Part`; `side` is `"user"`, `"model"` or `"system"` (what it may hold)."""
    node = as_dict(value, at)
    found = [(name, *pick(node, name, at)) for name in (*_MODELLED, *_UNMODELLED)]
    present = [(name, key, data) for name, key, data in found if key is not None]
    if len(present) > 1:
        keys = ", ".join(repr(key) for _, key, _ in present)
        raise InvalidMedia(f"{at}: a Part holds one kind of data, got {keys}")
    if not present or present[0][0] in _UNMODELLED:
        return ProviderPart(provider="gemini", data=copied(node, at))
    name, key, data = present[0]
    assert key is not None
    thought = node.get("thought")
    if name == "functionResponse" and side == "user":
        return _tool(node, key, at)
    if (name == "functionCall" and side != "model") or (thought is True and side != "model"):
        return ProviderPart(provider="gemini", data=copied(node, at))
    if name == "functionResponse":
        return ProviderPart(provider="gemini", data=copied(node, at))
    sig_key, signature = pick(node, "thoughtSignature", at)
    hint: dict[str, Any] = {}
    if spelled_snake(key) or (sig_key is not None and spelled_snake(sig_key)):
        hint["snake"] = True
    if name == "text" and thought is True:
        return _reasoning(node, data, sig_key, signature, hint, at)
    extra = {k: copied(v, at) for k, v in node.items() if k != key}
    if extra:
        hint["extra"] = extra
    if name == "text":
        if not isinstance(data, str):
            raise InvalidMedia(f"{at}.{key}: expected a string, got {type(data).__name__}")
        if not data:
            hint["empty"] = True
        return TextPart(data, native=_native(hint))
    if name == "functionCall":
        return _call(data, f"{at}.{key}", hint)
    return _media(name, data, f"{at}.{key}", hint)


def _native(hint: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {"gemini": hint} if hint else {}


def _reasoning(
    node: dict[str, Any],
    text: Any,
    sig_key: str | None,
    signature: Any,
    hint: dict[str, Any],
    at: str,
) -> ReasoningPart:
    if not isinstance(text, str):
        raise InvalidMedia(f"{at}.text: expected a string, got {type(text).__name__}")
    extra = {k: copied(v, at) for k, v in node.items() if k not in ("text", "thought", sig_key)}
    if extra:
        hint["extra"] = extra
    if isinstance(signature, bytes):
        signature = base64.b64encode(signature).decode("ascii")
        hint["bytes"] = True
    elif signature is not None and not isinstance(signature, str):
        raise InvalidMedia(
            f"{at}.{sig_key}: expected base64 text or bytes, got {type(signature).__name__}"
        )
    return ReasoningPart(text=text, signature=signature, provider="gemini", native=_native(hint))


def _call(value: Any, at: str, hint: dict[str, Any]) -> ToolCall:
    node = as_dict(value, at)
    name = node.get("name")
    if not isinstance(name, str):
        raise InvalidMedia(f"{at}.name: expected the function's name, got {name!r}")
    call_id = node.get("id")
    if call_id is not None and not isinstance(call_id, str):
        raise InvalidMedia(f"{at}.id: expected a string, got {type(call_id).__name__}")
    inner = {k: copied(v, at) for k, v in node.items() if k not in ("id", "name", "args")}
    if inner:
        hint["inner"] = inner
    if "args" not in node:
        hint["no_args"] = True
    args = as_dict(node.get("args", {}), f"{at}.args")
    return ToolCall(id=call_id, name=name, arguments=_json(args, f"{at}.args"), native=_native(hint))


def _json(value: Any, at: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidMedia(f"{at}: not JSON data ({exc})") from exc


def _media(name: str, value: Any, at: str, hint: dict[str, Any]) -> Part:
    """Read an `inlineData` (Blob) or `fileData` (FileData) as a media part."""
    node = as_dict(value, at)
    type_key, media_type = pick(node, "mimeType", at)
    if media_type is not None and not isinstance(media_type, str):
        raise InvalidMedia(f"{at}.{type_key}: expected a media type, got {media_type!r}")
    if name == "inlineData":
        data_key = "data"
        data = node.get("data")
        if media_type is None or data is None:
            raise InvalidMedia(f"{at}: inline data needs 'mimeType' and 'data'")
        if isinstance(data, bytes):
            hint["bytes"] = True
        used = {type_key, data_key}
    else:
        uri_key, uri = pick(node, "fileUri", at)
        if not isinstance(uri, str):
            raise InvalidMedia(f"{at}.fileUri: expected the file's URI, got {uri!r}")
        used = {type_key, uri_key}
    inner = {k: copied(v, at) for k, v in node.items() if k not in used}
    if inner:
        hint["inner"] = inner
    native = _native(hint)
    kind = kind_of(canonical_media_type(media_type)) if media_type else None
    if name == "inlineData":
        return inline_media(kind, data, media_type, f"{at}.data", native=native)
    if uri.startswith(("gs://", _FILES_API)) or not uri.startswith(("https://", "http://")):
        return file_reference(kind or "file", uri, "gemini", media_type, at, native=native)
    return url_media(kind, uri, media_type, f"{at}.{uri_key}", native=native)


def _tool(node: dict[str, Any], key: str, at: str) -> Tool:
    """Read a `functionResponse` part as a Tool message, its `response` kept exactly."""
    where = f"{at}.{key}"
    response = as_dict(node[key], where)
    name = response.get("name")
    if not isinstance(name, str):
        raise InvalidMedia(f"{where}.name: expected the function's name, got {name!r}")
    call_id = response.get("id")
    if call_id is not None and not isinstance(call_id, str):
        raise InvalidMedia(f"{where}.id: expected a string, got {type(call_id).__name__}")
    hint: dict[str, Any] = {"snake": True} if spelled_snake(key) else {}
    extra = {k: copied(v, at) for k, v in node.items() if k != key}
    if extra:
        hint["extra"] = extra
    inner = {
        k: copied(v, at) for k, v in response.items() if k not in ("id", "name", "response", "parts")
    }
    if inner:
        hint["inner"] = inner
    parts: list[Part] = []
    fields: dict[str, Any] = {}
    body = response.get("response")
    if body is None:
        hint["response"] = "absent"
    else:
        body = as_dict(body, f"{where}.response")
        if set(body) == {"output"} and isinstance(body["output"], str):
            parts.append(TextPart(body["output"]))
        elif set(body) == {"error"} and isinstance(body["error"], str):
            fields["error"] = body["error"]
            hint["response"] = "error"
        else:
            parts.append(TextPart(_json(body, f"{where}.response")))
            hint["response"] = "json"
            fields["is_error"] = "error" in body
    for i, item in enumerate(as_list(response.get("parts", []), f"{where}.parts")):
        part_at = f"{where}.parts[{i}]"
        part_node = as_dict(item, part_at)
        found = [(n, *pick(part_node, n, part_at)) for n in ("inlineData", "fileData")]
        present = [(n, k, d) for n, k, d in found if k is not None]
        if len(present) != 1:
            raise InvalidMedia(f"{part_at}: expected one 'inlineData' or 'fileData'")
        n, k, d = present[0]
        assert k is not None
        part_hint: dict[str, Any] = {"nested": True}
        if spelled_snake(k):
            part_hint["snake"] = True
        part_extra = {x: copied(v, at) for x, v in part_node.items() if x != k}
        if part_extra:
            part_hint["extra"] = part_extra
        parts.append(_media(n, d, f"{part_at}.{k}", part_hint))
    return Tool(parts, tool_call_id=call_id, name=name, native=_native(hint), **fields)
