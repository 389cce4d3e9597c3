"""The providers' own SDK clients answering every request with a canned reply, for the docs'
one-line sends: real clients, only their HTTP transport is a mock. Each skips the test when
its SDK is not installed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

# A Chat Completions reply, as OpenAI-compatible APIs return it.
CHAT_REPLY: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 0,
    "model": "m",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "ok"},
            "finish_reason": "stop",
            "logprobs": None,
        }
    ],
}


def _http(reply: dict[str, Any]) -> Any:
    """An httpx client whose every request gets `reply` as JSON."""
    httpx = pytest.importorskip("httpx")
    return httpx.Client(transport=httpx.MockTransport(lambda _: httpx.Response(200, json=reply)))


def groq_client() -> Any:
    """A `groq.Groq` answering every request with `CHAT_REPLY`."""
    groq = pytest.importorskip("groq")
    return groq.Groq(api_key="gsk-test", http_client=_http(CHAT_REPLY), max_retries=0)


# A Responses reply, as Azure's Responses API returns it.
RESPONSES_REPLY: dict[str, Any] = {
    "id": "resp_1",
    "object": "response",
    "created_at": 0,
    "model": "m",
    "status": "completed",
    "output": [
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "ok", "annotations": []}],
        }
    ],
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
}


def _azure(reply: dict[str, Any]) -> Any:
    openai = pytest.importorskip("openai")
    return openai.AzureOpenAI(
        azure_endpoint="https://my-resource.openai.azure.com",
        api_key="azure-test",
        api_version="2024-10-21",
        http_client=_http(reply),
        max_retries=0,
    )


def azure_openai_client() -> Any:
    """An `openai.AzureOpenAI` answering every request with `CHAT_REPLY`."""
    return _azure(CHAT_REPLY)


def azure_openai_responses_client() -> Any:
    """An `openai.AzureOpenAI` answering every request with `RESPONSES_REPLY`."""
    return _azure(RESPONSES_REPLY)


def _openai_at(base_url: str, reply: dict[str, Any] = CHAT_REPLY) -> Any:
    """An `openai.OpenAI` on a provider's documented base URL, answering with `reply`."""
    openai = pytest.importorskip("openai")
    return openai.OpenAI(base_url=base_url, api_key="test", http_client=_http(reply), max_retries=0)


def openrouter_client() -> Any:
    """An `openai.OpenAI` on OpenRouter's base URL, answering with `CHAT_REPLY`."""
    return _openai_at("https://openrouter.ai/api/v1")


# A Messages API reply, as the first-party API, Vertex AI and Bedrock return it.
MESSAGE_REPLY: dict[str, Any] = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "m",
    "content": [{"type": "text", "text": "ok"}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 1, "output_tokens": 1},
}
# A generateContent reply, as the Gemini API and Vertex AI return it.
GENERATED_REPLY: dict[str, Any] = {
    "candidates": [
        {"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}
    ]
}


def _http2(reply: dict[str, Any]) -> Any:
    """An httpx2 client (anthropic 2.x takes no other) whose every request gets `reply`."""
    httpx2 = pytest.importorskip("httpx2")
    answer = httpx2.MockTransport(lambda _: httpx2.Response(200, json=reply))
    return httpx2.Client(transport=answer)


def vertex_client() -> Any:
    """A `google.genai.Client(vertexai=True, ...)` with a token, answering `GENERATED_REPLY`."""
    genai = pytest.importorskip("google.genai")
    from google.genai import types
    from google.oauth2.credentials import Credentials

    return genai.Client(
        vertexai=True,
        project="my-project",
        location="us-central1",
        credentials=Credentials(token="t"),  # type: ignore[no-untyped-call]  # google-auth
        http_options=types.HttpOptions(httpx_client=_http(GENERATED_REPLY)),
    )


def anthropic_vertex_client() -> Any:
    """An `anthropic.AnthropicVertex` with a token, answering `MESSAGE_REPLY`."""
    anthropic = pytest.importorskip("anthropic")
    return anthropic.AnthropicVertex(
        region="us-east5",
        project_id="my-project",
        access_token="t",
        http_client=_http2(MESSAGE_REPLY),
        max_retries=0,
    )


def anthropic_bedrock_client() -> Any:
    """An `anthropic.AnthropicBedrock` with a bearer key (AWS keys are signed with boto3, not a
    dependency here), answering `MESSAGE_REPLY`."""
    anthropic = pytest.importorskip("anthropic")
    return anthropic.AnthropicBedrock(
        aws_region="us-east-1", api_key="k", http_client=_http2(MESSAGE_REPLY), max_retries=0
    )


# A chat completion as Mistral's docs show one (docs.mistral.ai/studio/conversations/vision's
# output, read 2026-12).
MISTRAL_REPLY: dict[str, Any] = {
    "id": "a8251fb1c4a64014b80141bd5685f6c7",
    "object": "chat.completion",
    "created": 1756318369,
    "model": "mistral-small-latest",
    "usage": {"prompt_tokens": 2099, "total_tokens": 2235, "completion_tokens": 136},
    "choices": [
        {
            "index": 0,
            "finish_reason": "stop",
            "message": {"role": "assistant", "tool_calls": None, "content": "ok"},
        }
    ],
}


def mistral_client() -> Any:
    """A `mistralai.client.Mistral` answering every request with `MISTRAL_REPLY`."""
    client = pytest.importorskip("mistralai.client")
    return client.Mistral(api_key="test", client=_http(MISTRAL_REPLY))


# The clients by provider, for the docs' `<!-- given: <provider>_client -->`.
CLIENTS: dict[str, Callable[[], Any]] = {
    "groq": groq_client,
    "azure-openai": azure_openai_client,
    "azure-openai-responses": azure_openai_responses_client,
    "openrouter": openrouter_client,
    "vertex": vertex_client,
    "anthropic-vertex": anthropic_vertex_client,
    "anthropic-bedrock": anthropic_bedrock_client,
    "mistral": mistral_client,
    # The OpenAI SDK at each documented base URL (docs.x.ai, api-docs.deepseek.com, Ollama's
    # OpenAI compatibility page).
    "xai": lambda: _openai_at("https://api.x.ai/v1"),
    "xai-responses": lambda: _openai_at("https://api.x.ai/v1", RESPONSES_REPLY),
    "deepseek": lambda: _openai_at("https://api.deepseek.com"),
    "ollama": lambda: _openai_at("http://localhost:11434/v1/"),
}
