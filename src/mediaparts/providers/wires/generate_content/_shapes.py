"""Gemini `Part` shapes: each of our blocks as the part a `generateContent` body holds.

Each writer takes the block and the `native["gemini"]` hints the reader left on it, and writes
the spelling (camelCase or snake_case) and the extra fields those hints record.
"""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any

from typing_extensions import assert_never

from mediaparts._conversation._messages import Message, StopReason, Tool
from mediaparts._conversation._parts import (
    ProviderPart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
)
from mediaparts._errors import InvalidMedia, excerpt
from mediaparts.providers._fitting._normalized import NormalizedPart
from mediaparts.providers._wire._rendering import (
    Prepare,
    Served,
    call_arguments,
    check_names_quirk,
    error_text,
    hints,
    parts,
    text_file,
)
from mediaparts.providers.wires.generate_content._spelling import spell
from mediaparts.providers.wires.generate_content._stores import FILE_URIS, stored_elsewhere

__all__ = [
    "OLDER_MODELS",
    "QUIRKS",
    "STOP_REASONS",
    "blocks",
    "check_name",
    "check_quirks",
    "current_model",
    "function_response",
    "hints_of",
    "media",
    "text",
]

# Media a `functionResponse` carries in its own `parts` (Gemini 3 multimodal function
# responses: images and documents; google-genai 3.4 types.FunctionResponsePart and
# ai.google.dev/gemini-api/docs/function-calling, read 2026-11); anything else follows it as
# a sibling part, unless it was read from inside one. The feature is Gemini 3's: for a model
# given that is older (the `older_models` quirk), all of it follows as sibling parts.
_NESTED_PREFIXES = ("image/", "application/pdf", "text/plain")
# The quirk naming the models (name prefixes) that predate multimodal function responses and
# the validator-skipping thought signature; the record of the provider sets it with its source.
OLDER_MODELS = "older_models"
QUIRKS: Mapping[str, str] = {
    OLDER_MODELS: "the models (name prefixes) older than multimodal function responses and "
    "signature-less replays; a model not given, or not matched, is current",
    FILE_URIS: "the URI prefixes of the file stores the API reads (`fileData.fileUri`); a part "
    "stored elsewhere is refused and flagged; absent: every store",
}


def check_quirks(name: str, quirks: Mapping[str, Any]) -> None:
    """Refuse an `older_models` or `file_uris` quirk that is not a sequence of prefixes.

    Raises:
        InvalidConfig: It is a string, not a sequence, or holds something else than strings.
    """
    check_names_quirk(name, quirks, OLDER_MODELS, "model name prefixes")
    check_names_quirk(name, quirks, FILE_URIS, "URI prefixes")


def current_model(served: Served, model: str | None) -> bool:
    """Tell whether a render is for a current model (or a model not given), not an older one.

    The provider's `older_models` quirk names the older ones by prefix; the name may carry a
    path (`models/<name>`, Vertex AI's `publishers/google/models/<name>`).
    """
    older: Sequence[str] = served.quirks.get(OLDER_MODELS, ())
    return model is None or not model.rsplit("/", 1)[-1].startswith(tuple(older))


def hints_of(thing: Any, provider: str) -> dict[str, Any]:
    """Return the `native[provider]` hints of a message or part (empty when there are none)."""
    return hints(thing, provider)


def _fields(hint: dict[str, Any], key: str) -> dict[str, Any]:
    value = hint.get(key)
    return copy.deepcopy(value) if isinstance(value, dict) else {}


def _shaped(key: str, body: Any, hint: dict[str, Any]) -> dict[str, Any]:
    """Return `{key: body}` in the hinted spelling, with the fields the reader kept."""
    if isinstance(body, dict):
        body = {**body, **_fields(hint, "inner")}
    return {spell(key, hint.get("snake") is True): body, **_fields(hint, "extra")}


def text(part: TextPart, prepare: Prepare) -> dict[str, Any] | None:
    """Return a text part, or None for an empty one the payload did not have."""
    provider = prepare.served.name
    hint = hints_of(part, provider)
    if any(c.provider != prepare.provider for c in part.citations):
        prepare.lose(
            part, "a generateContent request has no place for citations (the text is kept)"
        )
    if not part.text and not hint:
        return None
    return {"text": part.text, **_fields(hint, "extra")}


def blocks(message: Message, prepare: Prepare, role: str) -> list[dict[str, Any]]:
    """Return a user or model message's parts in order, each as a Gemini `Part`."""
    provider = prepare.served.name
    out: list[dict[str, Any]] = []
    for block in parts(message, prepare, assistant_media=True):
        match block:
            case TextPart():
                shaped = text(block, prepare)
                if shaped is not None:
                    out.append(shaped)
            case NormalizedPart():
                if (error := stored_elsewhere(block, prepare.served)) is not None:
                    raise error
                out.append(media(block, provider))
            case ReasoningPart():
                if block.provider is None:
                    prepare.lose(
                        block,
                        f"it names no provider; {prepare.served.name} takes back only its "
                        "own thoughts",
                    )
                elif block.text is None and block.signature is None:
                    prepare.lose(
                        block, "it has no thought text or signature a generateContent turn carries"
                    )
                else:
                    out.append(_thought(block, provider))
            case ToolCall():
                if role == "model":
                    out.append(_call(block, provider))
                else:
                    prepare.lose(
                        block, "a function call belongs to a model turn in generateContent"
                    )
            case RefusalPart():
                if block.text:  # Gemini has no refusal part: the refusal is the text
                    out.append({"text": block.text})
            case ProviderPart():
                out.append(copy.deepcopy(block.data))
            case _:
                assert_never(block)
    return out


def media(item: NormalizedPart, provider: str) -> dict[str, Any]:
    """Return an `inlineData` or `fileData` part (or a text part for a text file)."""
    hint = hints_of(item.part, provider)
    snake = hint.get("snake") is True
    if item.text is not None:
        return {"text": text_file(item)}
    declared = item.part.media_type if item.part is not None else item.media_type
    body: dict[str, Any] = {}
    if declared is not None:
        body[spell("mimeType", snake)] = item.media_type
    if item.file_id is not None or item.url is not None:
        body[spell("fileUri", snake)] = item.file_id or item.url
        shaped = _shaped("fileData", body, hint)
    else:
        body["data"] = item.data if hint.get("bytes") is True else item.base64
        shaped = _shaped("inlineData", body, hint)
    if item.detail is not None:  # only set when the model takes it (normalize checks)
        level = {"level": f"MEDIA_RESOLUTION_{item.detail.upper()}"}
        shaped.setdefault(spell("mediaResolution", snake), level)
    return shaped


def _thought(part: ReasoningPart, provider: str) -> dict[str, Any]:
    hint = hints_of(part, provider)
    out: dict[str, Any] = {} if part.text is None else {"text": part.text}
    out["thought"] = True
    if part.signature is not None:
        signature: str | bytes = part.signature
        if hint.get("bytes") is True:
            signature = _bytes(part.signature)
        out[spell("thoughtSignature", hint.get("snake") is True)] = signature
    return {**out, **_fields(hint, "extra")}


def _bytes(text: str) -> str | bytes:
    """Return base64 text as the bytes the SDK types it as (as it is, if it is not base64)."""
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        return text


def _call(call: ToolCall, provider: str) -> dict[str, Any]:
    hint = hints_of(call, provider)
    args = call_arguments(call.id, call.name, call.parsed_arguments())
    body: dict[str, Any] = {} if call.id is None else {"id": call.id}
    body["name"] = call.name
    if args or hint.get("no_args") is not True:
        body["args"] = args
    return _shaped("functionCall", body, hint)


def function_response(message: Tool, name: str, prepare: Prepare) -> list[dict[str, Any]]:
    """Return a tool result's `functionResponse` part, then what it cannot nest."""
    provider = prepare.served.name
    hint = hints_of(message, provider)
    texts: list[str] = []
    nested: list[dict[str, Any]] = []
    siblings: list[dict[str, Any]] = []
    for block in parts(message, prepare, assistant_media=True):
        match block:
            case TextPart() | RefusalPart():
                if isinstance(block, TextPart) and block.citations:
                    text(block, prepare)  # reports the citations it cannot carry
                texts.append(block.text)
            case NormalizedPart():
                if (error := stored_elsewhere(block, prepare.served)) is not None:
                    raise error
                inside = current_model(prepare.served, prepare.model) and (
                    hints_of(block.part, provider).get("nested") is True
                    or (
                        not hints_of(block.part, provider)
                        and block.media_type.startswith(_NESTED_PREFIXES)
                    )
                )
                if block.text is not None:
                    texts.append(text_file(block))
                else:
                    (nested if inside else siblings).append(media(block, provider))
            case ProviderPart():
                siblings.append(copy.deepcopy(block.data))
            case ReasoningPart() | ToolCall():
                prepare.lose(block, "a generateContent function response holds text and media only")
            case _:
                assert_never(block)
    body: dict[str, Any] = {} if message.tool_call_id is None else {"id": message.tool_call_id}
    body["name"] = name
    response = _response(message, texts, hint)
    if response is not None:
        body["response"] = response
    if nested:
        body["parts"] = nested
    return [_shaped("functionResponse", body, hint), *siblings]


def _response(message: Tool, texts: list[str], hint: dict[str, Any]) -> dict[str, Any] | None:
    """Return the `response` object: as read (JSON kept, error as is), else output/error."""
    joined = "\n\n".join(texts)
    kept = hint.get("response")
    if kept == "absent" and not texts:
        return None
    if kept == "error" and message.error is not None and not texts:
        return {"error": message.error}
    if kept == "json":
        try:
            value = json.loads(joined)
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, dict):
            return value
    # "Use "output" key to specify function output and "error" key to specify error details"
    # (google-genai 3.4 FunctionResponse.response, read 2026-11).
    error = error_text(message)
    if error is None and message.is_error:
        return {"error": joined}
    if error is not None:
        return {"error": error, **({"output": joined} if texts else {})}
    return {"output": joined}


def check_name(message: Tool, names: dict[str, str]) -> str:
    """Return the tool's name for a result (Gemini pairs results with calls by name)."""
    name = message.name or names.get(message.tool_call_id or "")
    if name is None:
        raise InvalidMedia(
            "a generateContent function response needs the tool's name, for tool result "
            f"{excerpt(message.tool_call_id)}: set "
            "Tool(name=...) or include the assistant message that made the call"
        )
    return name


# google-genai 3.4 types.FinishReason and BlockedReason, with ai.google.dev/api/generate-content
# #FinishReason (read 2026-11). STOP with function calls in the content is "tool_call" (Gemini
# has no finish reason of its own for it); values not listed are "other".
STOP_REASONS: Mapping[str, StopReason] = {
    "STOP": "end",
    "MAX_TOKENS": "max_tokens",
    "SAFETY": "content_filter",
    "RECITATION": "content_filter",
    "BLOCKLIST": "content_filter",
    "PROHIBITED_CONTENT": "content_filter",
    "SPII": "content_filter",
    "IMAGE_SAFETY": "content_filter",
    "IMAGE_PROHIBITED_CONTENT": "content_filter",
    "IMAGE_RECITATION": "content_filter",
    "MODEL_ARMOR": "content_filter",
}
