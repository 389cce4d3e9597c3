"""What every reader shares: hostile SDK objects, declared kinds, and one stop-reason meaning."""

from __future__ import annotations

import base64
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers._read_common import inline_media, plain
from tests._builders import TESTDATA


class _Broken:
    def model_dump(self, **_: Any) -> dict[str, Any]:
        raise ValueError("no")


def test_plain_reports_a_failing_model_dump_as_ours() -> None:
    """An object whose model_dump raises is refused with InvalidMedia, not its own error."""
    with pytest.raises(mp.InvalidMedia, match=r"_Broken.model_dump\(\) failed"):
        plain(_Broken())


def test_inline_media_refuses_text_declared_as_an_image_or_pdf() -> None:
    """A block declared image/png or application/pdf whose bytes are text is refused."""
    text = base64.b64encode(b"just some words\n").decode()
    for declared in ("image/png", "application/pdf"):
        with pytest.raises(mp.UnsupportedMediaType, match=r"at\.data"):
            inline_media(None, text, declared, "at.data")
    pdf = (TESTDATA / "document.pdf").read_bytes()
    assert inline_media(None, pdf, "application/pdf", "x").media_type == "application/pdf"


def test_reply_with_tool_calls_stopped_for_them() -> None:
    """An OpenAI reply with tool calls and finish_reason "stop" reads as stop_reason tool_call."""
    completion = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "gpt-4o",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{}"},
                        }
                    ],
                },
            }
        ],
    }
    reply = mp.message_from_response(completion, "openai")
    assert (reply.stop_reason, reply.stop_reason_raw) == ("tool_call", "stop")


def test_provider_data_refuses_numbers_no_api_means() -> None:
    """A number beyond 64 bits in a provider's block is refused (it could not even be printed)."""
    with pytest.raises(mp.InvalidMedia, match="too large"):
        mp.ProviderPart(provider="anthropic", data={"n": 10**5000})
