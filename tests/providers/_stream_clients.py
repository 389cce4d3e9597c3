"""The official SDKs' clients answering with a recorded stream, for the stream tests and the
docs' examples: real clients, only their HTTP transport is a mock serving the stream's body.

A stream's body is made from a case of `tests/golden/streams` (`_streams.sse_bytes`); the
clients skip the test when their SDK is not installed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.providers._streams import STREAMS, sse_bytes


def case(provider: str, name: str) -> dict[str, Any]:
    """The recorded stream `tests/golden/streams/<provider>/<name>.json`."""
    loaded: dict[str, Any] = json.loads((STREAMS / provider / f"{name}.json").read_text("utf-8"))
    return loaded


def body(provider: str, name: str) -> bytes:
    """The `text/event-stream` body of a recorded stream, as the API writes it."""
    recorded = case(provider, name)
    return sse_bytes(
        provider,
        recorded["events"],
        names=recorded.get("sse_event_names", False),
        comments=recorded.get("sse_comments", ()),
    )


def _answer(content: bytes) -> Any:
    httpx = pytest.importorskip("httpx")

    def answer(request: Any) -> Any:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=content)

    return answer


def openai_client(content: bytes, *, aio: bool = False) -> Any:
    """An `openai.OpenAI` (`AsyncOpenAI` with `aio`) whose every request gets `content`."""
    openai = pytest.importorskip("openai")
    httpx = pytest.importorskip("httpx")
    transport = httpx.MockTransport(_answer(content))
    if aio:
        http: Any = httpx.AsyncClient(transport=transport)
        return openai.AsyncOpenAI(api_key="sk-test", http_client=http, max_retries=0)
    return openai.OpenAI(
        api_key="sk-test", http_client=httpx.Client(transport=transport), max_retries=0
    )


def mistral_client(content: bytes) -> Any:
    """A `mistralai.client.Mistral` whose every request gets `content`."""
    client = pytest.importorskip("mistralai.client")
    httpx = pytest.importorskip("httpx")
    http = httpx.Client(transport=httpx.MockTransport(_answer(content)))
    return client.Mistral(api_key="test", client=http)


def anthropic_client(content: bytes, *, aio: bool = False) -> Any:
    """An `anthropic.Anthropic` (`AsyncAnthropic` with `aio`) whose every request gets `content`."""
    anthropic = pytest.importorskip("anthropic")
    httpx2 = pytest.importorskip("httpx2")

    def answer(request: Any) -> Any:
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=content)

    transport = httpx2.MockTransport(answer)
    if aio:
        http: Any = httpx2.AsyncClient(transport=transport)
        return anthropic.AsyncAnthropic(api_key="test", http_client=http, max_retries=0)
    http = httpx2.Client(transport=transport)
    return anthropic.Anthropic(api_key="test", http_client=http, max_retries=0)


def gemini_client(content: bytes) -> Any:
    """A `google.genai.Client` (its `.aio` too) whose every request gets `content`."""
    genai = pytest.importorskip("google.genai")
    httpx = pytest.importorskip("httpx")
    answer = _answer(content)

    async def aanswer(request: Any) -> Any:
        return answer(request)

    options = genai.types.HttpOptions(
        httpx_client=httpx.Client(transport=httpx.MockTransport(answer)),
        httpx_async_client=httpx.AsyncClient(transport=httpx.MockTransport(aanswer)),
    )
    return genai.Client(api_key="test-key", http_options=options)


def response_body(content: bytes) -> Any:
    """An `httpx.Response` holding `content`: what `httpx.stream(...)` gives an application."""
    httpx = pytest.importorskip("httpx")
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=content)


def bedrock_client(events: list[Any]) -> Any:
    """A botocore `bedrock-runtime` client whose `converse_stream` answers with `events`, as
    AWS event-stream frames (boto3's client is this one)."""
    pytest.importorskip("botocore")
    from tests.providers.bedrock._eventstream import client, event_frame

    return client(b"".join(event_frame(event) for event in events))
