"""`messages_from` and `message_from_response`: provider shapes back into messages."""

from __future__ import annotations

from typing import Any

from mediaparts._boundary import Boundary
from mediaparts._conversation._messages import Assistant, Message
from mediaparts._sources import untrusted_paths
from mediaparts.providers._registry import Provider, get

__all__ = ["message_from_response", "messages_from", "settled"]

# Only MediaError leaves message_from_response (see Boundary).
_READING_A_RESPONSE = Boundary("reading a provider response")

# Only MediaError leaves messages_from (see Boundary).
_READING_A_PAYLOAD = Boundary("reading a provider payload")


def messages_from(payload: Any, provider: str | Provider) -> list[Message]:
    """Read a provider's request payload back into messages: the inverse of `render`.

    `render(messages_from(p, X), X) == p` for a payload whose media already fit `X`; the
    other call arguments a payload may hold (`model`, `tools`, `max_tokens`, ...) are not
    part of the conversation and are ignored.

    The payload is untrusted input: media comes from its inline bytes, URLs (fetched later,
    under the fetch policy) and file ids only; nothing in it is read as a local path (a
    plain path where a URL belongs is `InvalidMedia`, a `file:` URL `BlockedURL` when loaded).

    Args:
        payload: What `render` returns for the provider (its keyword arguments), or just its
            list of messages (`contents` for Gemini, `input` items for Responses).
        provider: A provider name or `Provider`.

    Returns:
        The conversation, in order.

    Raises:
        InvalidMedia: The payload is malformed (the message names the JSON path).
        UnsupportedMediaType: A block's bytes are not the kind the block says.
        InvalidConfig: The provider has no reader.
        UnknownProvider: No provider has that name.
    """
    try:
        chosen = get(provider)
        with untrusted_paths("mp.messages_from()", None):  # a second guard: readers name no path
            return chosen.read(payload)
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _READING_A_PAYLOAD.reraise(exc)


def message_from_response(response: Any, provider: str | Provider) -> Assistant:
    """Read one response of a provider into an `Assistant` message.

    Args:
        response: The SDK's response object (`anthropic.types.Message`, `ChatCompletion`,
            `Response`, `GenerateContentResponse`) or its dict (Bedrock's `converse` returns
            a dict).
        provider: A provider name or `Provider`.

    Returns:
        The reply, in order (reasoning, text, tool calls, refusals), with `usage`, `model`,
        `stop_reason` (and the API's own `stop_reason_raw`) and the response's `id`. A reply
        holding tool calls has `stop_reason="tool_call"` whenever the API said it ended.

    Raises:
        InvalidMedia: The response is malformed (the message names the field).
        UnsupportedMediaType: A block's bytes are not the kind the block says.
        InvalidConfig: The provider has no response reader.
        UnknownProvider: No provider has that name.
    """
    try:
        chosen = get(provider)
        with untrusted_paths("mp.message_from_response()", None):
            return settled(chosen.read_response(response))
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _READING_A_RESPONSE.reraise(exc)


def settled(reply: Assistant) -> Assistant:
    """Return a reply with one meaning of its stop reason for every API: a reply that asks for
    tools stopped for them, even where the API said "stop" (OpenAI does, for a forced tool
    choice; the raw value is kept)."""
    if reply.stop_reason == "end" and reply.tool_calls:
        return reply.model_copy(update={"stop_reason": "tool_call"})
    return reply
