"""Validating payloads and responses with the official SDKs' own types.

A rendered payload (or a corpus payload written by hand) is checked key for key against the
SDK's request types: pydantic TypeAdapters over the TypedDicts of openai and anthropic, the
pydantic models of google-genai, and botocore's parameter validator (plus its enums) for
Bedrock. Each check takes the payload's conversation keys only (a corpus payload may hold
`model`, `max_tokens` and other call arguments too). The SDKs need Python 3.11+; callers skip
with `pytest.importorskip(SDK_MODULES[provider])`.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable
from typing import Any

import mediaparts as mp

# The module whose types check each wire's payloads.
WIRE_SDKS = {
    "openai": "openai",
    "openai-responses": "openai",
    "anthropic": "anthropic",
    "gemini": "google.genai",
    "bedrock": "botocore",
}
# Providers with an SDK of their own: its request types check their payloads too (besides
# their wire's), and its module is the one a test needs (`importorskip`).
OWN_SDKS = {"groq": "groq", "mistral": "mistralai"}
# Providers whose quirks change their wire's shapes (Mistral's document_url and bare-string
# audio chunks): their own SDK's types alone check their payloads.
OWN_SHAPES = frozenset({"mistral"})


def wire(provider: str) -> str:
    """Return the wire a provider speaks."""
    return mp.providers.get(provider).wire


# The module each provider's checks import: its own SDK's, else its wire's.
SDK_MODULES = {p: OWN_SDKS.get(p, WIRE_SDKS[wire(p)]) for p in mp.providers.names()}

# The keys of a request payload that hold the conversation (what `render` returns), per
# wire; the others are call arguments the readers ignore.
_CONVERSATION_KEYS = {
    "openai": {"messages"},
    "openai-responses": {"input", "instructions"},
    "anthropic": {"system", "messages"},
    # `config`: the SDK call's `config={"system_instruction": ...}` (its other keys are call
    # arguments; a corpus payload holds only the system instruction there).
    "gemini": {"contents", "systemInstruction", "system_instruction", "config"},
    "bedrock": {"messages", "system"},
}


def conversation(provider: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Return the conversation keys of a payload."""
    keys = _CONVERSATION_KEYS[wire(provider)]
    return {k: v for k, v in payload.items() if k in keys}


def _materialized(value: Any) -> Any:
    """Turn what pydantic validated into plain lists and dicts (Iterable fields are lazy).

    A model stands where a union also takes response models (anthropic's message content
    takes `ContentBlock`s, and a text block with citations validates as one): it counts as
    the fields it was given.
    """
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        return _materialized(value.model_dump(mode="python", exclude_unset=True))
    if isinstance(value, dict):
        return {k: _materialized(v) for k, v in value.items()}
    if isinstance(value, str | bytes | int | float | bool) or value is None:
        return value
    if isinstance(value, Iterable):
        return [_materialized(v) for v in value]
    return value


def strict(annotation: Any, value: Any) -> None:
    """Validate `value` as the TypedDict `annotation`, failing on keys the type does not have.

    Pydantic validates a TypedDict leniently: unknown keys are dropped, not refused, and an
    `Iterable[...]` field is only validated when iterated. Iterating everything and comparing
    the result with the input catches both a wrong key and a wrong item.
    """
    from pydantic import TypeAdapter

    adapter = TypeAdapter(annotation)  # keep it alive: the lazy iterators validate through it
    validated = _materialized(adapter.validate_python(value))
    assert validated == value


def _check_openai(payload: dict[str, Any]) -> None:
    from openai.types.chat import ChatCompletionMessageParam

    assert set(payload) == {"messages"}
    strict(list[ChatCompletionMessageParam], payload["messages"])


def _check_openai_responses(payload: dict[str, Any]) -> None:
    from openai.types.responses import ResponseInputParam

    assert "input" in payload
    if isinstance(payload["input"], str):
        return
    strict(ResponseInputParam, payload["input"])
    assert isinstance(payload.get("instructions", ""), str)


def _check_anthropic(payload: dict[str, Any]) -> None:
    from anthropic.types import MessageParam, TextBlockParam

    assert "messages" in payload
    strict(list[MessageParam], payload["messages"])
    system = payload.get("system", "")
    if not isinstance(system, str):
        strict(list[TextBlockParam], system)
    assert_alternates(payload["messages"])
    assert_cache_rules(payload, "cache_control")


def _ttls(value: Any, key: str) -> Iterable[str]:
    """Yield the TTL of each cache breakpoint (`cache_control` or `cachePoint`), in order."""
    if isinstance(value, dict):
        if isinstance(value.get(key), dict):
            yield value[key].get("ttl", "5m")
        for item in value.values():
            yield from _ttls(item, key)
    elif isinstance(value, list):
        for item in value:
            yield from _ttls(item, key)


def assert_cache_rules(payload: dict[str, Any], key: str) -> None:
    """At most 4 breakpoints, and no 1-hour one after a 5-minute one, system first.

    Anthropic's API (and Claude on Bedrock) refuses both with a 400; the SDK types do not
    check them (Anthropic prompt-caching docs, read 2026-11).
    """
    ttls = [*_ttls(payload.get("system"), key), *_ttls(payload.get("messages"), key)]
    assert len(ttls) <= 4, ttls
    assert "5m" not in ttls or "1h" not in ttls[ttls.index("5m") :], ttls


def assert_alternates(turns: list[dict[str, Any]]) -> None:
    """No two adjacent turns share a role (what Anthropic, Gemini and Bedrock require)."""
    roles = [turn.get("role") for turn in turns]
    assert all(a != b for a, b in itertools.pairwise(roles)), roles


def _check_gemini(payload: dict[str, Any]) -> None:
    from google.genai import types

    assert "contents" in payload
    assert_alternates(payload["contents"])
    for content in payload["contents"]:
        # JSON mode, as the REST body is sent: bytes fields read base64 there.
        model = types.Content.model_validate_json(json.dumps(content))
        # "Useful to set for multi-turn conversations, otherwise can be left blank or unset"
        # (ai.google.dev/api/caching#Content, read 2026-11).
        single = len(payload["contents"]) == 1
        assert model.role in ("user", "model") or (model.role is None and single)
        camel = model.model_dump(mode="json", by_alias=True, exclude_none=True)
        snake = model.model_dump(mode="json", by_alias=False, exclude_none=True)
        assert _normalized_b64(content) in (_normalized_b64(camel), _normalized_b64(snake))
    config = payload.get("config", {})
    types.GenerateContentConfig.model_validate_json(json.dumps(config))
    system = payload.get(
        "systemInstruction", payload.get("system_instruction", config.get("system_instruction"))
    )
    if isinstance(system, dict):
        types.GenerateContentConfig(system_instruction=types.Content.model_validate(system))
    elif system is not None:
        assert isinstance(system, str)


def _normalized_b64(value: Any) -> Any:
    """Map pydantic's URL-safe base64 output back to the standard alphabet for comparison."""
    if isinstance(value, dict):
        return {
            k: v.replace("-", "+").replace("_", "/")
            if k in ("data", "thoughtSignature", "thought_signature") and isinstance(v, str)
            else _normalized_b64(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_normalized_b64(v) for v in value]
    return value


def converse_shape() -> Any:
    """Return botocore's input shape of bedrock-runtime's Converse operation."""
    import botocore.session

    service = botocore.session.get_session().get_service_model("bedrock-runtime")
    return service.operation_model("Converse").input_shape


def enum_errors(value: Any, shape: Any, path: str = "$") -> Iterable[str]:
    """Yield the strings that are not in their shape's enum (ParamValidator skips enums)."""
    if shape.type_name == "structure" and isinstance(value, dict):
        for key, item in value.items():
            if key in shape.members:
                yield from enum_errors(item, shape.members[key], f"{path}.{key}")
    elif shape.type_name == "list" and isinstance(value, list):
        for i, item in enumerate(value):
            yield from enum_errors(item, shape.member, f"{path}[{i}]")
    elif shape.type_name == "string" and shape.enum and value not in shape.enum:
        yield f"{path}: {value!r} is not one of {shape.enum}"


def _check_bedrock(payload: dict[str, Any]) -> None:
    from botocore.validate import ParamValidator

    shape = converse_shape()
    report = ParamValidator().validate({"modelId": "m", **payload}, shape)
    assert not report.has_errors(), report.generate_report()
    assert list(enum_errors(payload, shape)) == []
    assert_alternates(payload["messages"])
    assert_cache_rules(payload, "cachePoint")


def _check_groq(payload: dict[str, Any]) -> None:
    from groq.types.chat import ChatCompletionMessageParam

    strict(list[ChatCompletionMessageParam], payload["messages"])


def _check_mistral(payload: dict[str, Any]) -> None:
    from mistralai.client.models import ChatCompletionRequestMessageTypedDict

    assert set(payload) == {"messages"}
    strict(list[ChatCompletionRequestMessageTypedDict], payload["messages"])


# Each wire's check (its first provider's SDK), and the own SDK's check of a provider with one.
_CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "openai": _check_openai,
    "openai-responses": _check_openai_responses,
    "anthropic": _check_anthropic,
    "gemini": _check_gemini,
    "bedrock": _check_bedrock,
}
_OWN_CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "groq": _check_groq,
    "mistral": _check_mistral,
}


def validate_request(provider: str, payload: dict[str, Any]) -> None:
    """Assert that the payload's conversation keys are what its wire's SDK types accept, and
    its own SDK's, for a provider with one (that alone, for one whose quirks change the
    wire's shapes)."""
    sent = _without_reasoning(provider, conversation(provider, payload))
    if provider not in OWN_SHAPES:
        _CHECKS[wire(provider)](sent)
    if provider in _OWN_CHECKS:
        _OWN_CHECKS[provider](sent)


def _without_reasoning(provider: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Set aside a provider's reasoning field (the Chat Completions `reasoning_field` quirk,
    which the SDKs' types do not name), checked to be text: the SDK sends a message's keys as
    given."""
    field = mp.providers.get(provider).quirks.get("reasoning_field")
    if field is None or not isinstance(payload.get("messages"), list):
        return payload
    messages = []
    for message in payload["messages"]:
        if isinstance(message, dict) and field in message:
            assert isinstance(message[field], str), message
            message = {k: v for k, v in message.items() if k != field}
        messages.append(message)
    return {**payload, "messages": messages}


def _response_openai(data: dict[str, Any]) -> Any:
    from openai.types.chat import ChatCompletion

    return ChatCompletion.model_validate(data)


def _response_openai_responses(data: dict[str, Any]) -> Any:
    from openai.types.responses import Response

    return Response.model_validate(data)


def _response_anthropic(data: dict[str, Any]) -> Any:
    from anthropic.types import Message

    return Message.model_validate(data)


def _response_gemini(data: dict[str, Any]) -> Any:
    from google.genai import types

    return types.GenerateContentResponse.model_validate(data)


def _response_bedrock(data: dict[str, Any]) -> Any:
    """Bedrock's client returns a dict: check it against botocore's output shape."""
    import botocore.session

    service = botocore.session.get_session().get_service_model("bedrock-runtime")
    shape = service.operation_model("Converse").output_shape
    missing = [name for name in shape.required_members if name not in data]
    assert not missing, missing
    unknown = [key for key in data if key not in shape.members and key != "ResponseMetadata"]
    assert not unknown, unknown
    assert list(enum_errors(data, shape)) == []
    return data


def _response_groq(data: dict[str, Any]) -> Any:
    from groq.types.chat import ChatCompletion

    return ChatCompletion.model_validate(data)


def _response_mistral(data: dict[str, Any]) -> Any:
    from mistralai.client.models import ChatCompletionResponse

    return ChatCompletionResponse.model_validate(data)


_RESPONSES: dict[str, Callable[[dict[str, Any]], Any]] = {
    "openai": _response_openai,
    "openai-responses": _response_openai_responses,
    "anthropic": _response_anthropic,
    "gemini": _response_gemini,
    "bedrock": _response_bedrock,
}
_OWN_RESPONSES: dict[str, Callable[[dict[str, Any]], Any]] = {
    "groq": _response_groq,
    "mistral": _response_mistral,
}


def sdk_response(provider: str, data: dict[str, Any]) -> Any:
    """Return the SDK's response object for a response dict (its own SDK's, for a provider
    with one; Bedrock: the dict, checked)."""
    own = _OWN_RESPONSES.get(provider)
    return own(data) if own is not None else _RESPONSES[wire(provider)](data)


def xai_messages(payload: dict[str, Any]) -> list[Any]:
    """Build xai-sdk's own gRPC messages (`xai_sdk.chat.user(...)`, ...) from a Chat Completions
    payload rendered for xAI: each content part has an xai-sdk counterpart, or this fails.

    xai-sdk speaks gRPC, not the REST body `render` returns (xAI documents the OpenAI SDK on
    `https://api.x.ai/v1` for that); building its messages shows the content is representable.
    """
    # xai-sdk ships no type information (no py.typed): its objects are Any here.
    from xai_sdk import chat  # type: ignore[import-untyped]
    from xai_sdk.proto import chat_pb2  # type: ignore[import-untyped]

    def contents(content: Any) -> list[Any]:
        if isinstance(content, str):
            return [chat.text(content)]
        made = []
        for block in content or []:
            if block["type"] == "text":
                made.append(chat.text(block["text"]))
            else:
                assert block["type"] == "image_url", block  # jpg/png only: no other media
                spec = block["image_url"]
                made.append(chat.image(spec["url"], detail=spec.get("detail", "auto")))
        return made

    out = []
    for message in payload["messages"]:
        role = message["role"]
        if role == "tool":
            made = chat.tool_result(message["content"], tool_call_id=message["tool_call_id"])
        elif role == "assistant":
            made = chat.assistant(*contents(message.get("content")))
            for call in message.get("tool_calls", []):
                made.tool_calls.append(
                    chat_pb2.ToolCall(
                        id=call["id"],
                        function=chat_pb2.FunctionCall(
                            name=call["function"]["name"], arguments=call["function"]["arguments"]
                        ),
                    )
                )
            if "reasoning_content" in message:
                made.reasoning_content = message["reasoning_content"]
        else:
            make = chat.system if role == "system" else chat.user
            made = make(*contents(message["content"]))
        out.append(made)
    return out
