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


# The clients by provider, for the docs' `<!-- given: <provider>_client -->`.
CLIENTS: dict[str, Callable[[], Any]] = {"groq": groq_client}
