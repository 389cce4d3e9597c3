"""Reading Chat Completions responses: content, calls, citations, usage and stop reasons."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers import openai

CORPUS = Path(__file__).resolve().parents[2] / "conversations" / "corpus" / "openai"
RESPONSES = sorted((CORPUS / "responses").glob("*.json"))


def _load(name: str) -> dict[str, Any]:
    response: dict[str, Any] = json.loads(
        (CORPUS / "responses" / f"{name}.json").read_text("utf-8")
    )
    return response


def _response(message: dict[str, Any], finish: str = "stop", **more: Any) -> dict[str, Any]:
    choice = {"index": 0, "finish_reason": finish, "message": {"role": "assistant", **message}}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [choice],
        **more,
    }


@pytest.mark.parametrize("path", RESPONSES, ids=[p.stem for p in RESPONSES])
def test_read_response_sdk_object_reads_like_its_dict(path: Path) -> None:
    """The SDK's `ChatCompletion` and its dict read as the same assistant message."""
    chat = pytest.importorskip("openai.types.chat")
    data = json.loads(path.read_text("utf-8"))
    made = mp.message_from_response(chat.ChatCompletion.model_validate(data), "openai")
    assert made == openai.PROVIDER.read_response(data)
    assert made.model == data["model"] and made.id == data["id"]


def test_read_response_usage_counts_cache_and_reasoning() -> None:
    """Usage keeps prompt tokens as all input (cached included) and completion tokens as output."""
    made = openai.PROVIDER.read_response(_load("01_text_usage"))
    assert made.usage == mp.Usage(
        input_tokens=2048,
        output_tokens=300,
        cache_read_tokens=1536,
        cache_write_tokens=256,
        reasoning_tokens=256,
    )
    assert (made.content, made.stop_reason, made.stop_reason_raw) == (
        "Rome is the capital of Italy.",
        "end",
        "stop",
    )


def test_read_response_tool_calls() -> None:
    """Parallel tool calls read as ToolCall parts with their ids, in order."""
    made = openai.PROVIDER.read_response(_load("02_tool_calls"))
    assert [(c.id, c.name) for c in made.tool_calls] == [
        ("call_Paris01", "get_weather"),
        ("call_Tokyo02", "get_weather"),
    ]
    assert made.stop_reason == "tool_call"
    assert made.parts == made.tool_calls


def test_read_response_refusal() -> None:
    """A refusal reads as a RefusalPart, and the stop reason says so (the API's own is kept)."""
    made = openai.PROVIDER.read_response(_load("03_refusal"))
    assert made.parts == (mp.RefusalPart("I'm sorry, I can't help with that request."),)
    assert (made.stop_reason, made.stop_reason_raw) == ("refusal", "stop")


def test_read_response_citations_and_length() -> None:
    """`url_citation` annotations become citations of the text; `length` is max_tokens."""
    made = openai.PROVIDER.read_response(_load("04_length_citations"))
    [text] = made.parts
    assert isinstance(text, mp.TextPart)
    [citation] = text.citations
    assert (citation.provider, citation.url, citation.title) == (
        "openai",
        "https://www.lemonde.fr/culture/article/2026/louvre",
        "Le Louvre rouvre son aile est",
    )
    assert citation.data["url_citation"]["start_index"] == 42
    assert made.stop_reason == "max_tokens"


def test_read_response_audio_goes_back_by_id() -> None:
    """An audio reply keeps its transcript as text and goes back to OpenAI as its id only."""
    made = openai.PROVIDER.read_response(_load("05_audio"))
    assert made.content == "That is a pure sine tone at 440 hertz."
    payload = mp.render([mp.User("Hi"), made], "openai", on_loss="error")
    assert payload["messages"][1] == {
        "role": "assistant",
        "content": None,
        "audio": {"id": "audio_68a1c2f0e4b88190a3b9c1d2e3f40506"},
    }


def test_read_response_continues_the_conversation() -> None:
    """A response read and rendered back is the assistant message the API expects next."""
    made = openai.PROVIDER.read_response(_load("02_tool_calls"))
    [turn] = mp.render([made], "openai", on_loss="error")["messages"]
    message = _load("02_tool_calls")["choices"][0]["message"]
    assert turn == {"role": "assistant", "content": None, "tool_calls": message["tool_calls"]}


def test_read_response_own_citations_are_not_a_loss() -> None:
    """OpenAI's own annotations are left out of a request without a warning."""
    made = openai.PROVIDER.read_response(_load("04_length_citations"))
    [turn] = mp.render([made], "openai", on_loss="error")["messages"]
    assert turn["content"] == made.content


@pytest.mark.parametrize(
    ("finish", "reason"),
    [
        ("stop", "end"),
        ("length", "max_tokens"),
        ("tool_calls", "tool_call"),
        ("function_call", "tool_call"),
        ("content_filter", "content_filter"),
        ("something_new", "other"),
    ],
)
def test_read_response_stop_reasons(finish: str, reason: str) -> None:
    """Each finish_reason maps to one stop reason; the raw value is kept."""
    made = openai.PROVIDER.read_response(_response({"content": "x"}, finish))
    assert (made.stop_reason, made.stop_reason_raw) == (reason, finish)


def test_read_response_without_usage() -> None:
    """A response without usage reads with `usage=None`."""
    assert openai.PROVIDER.read_response(_response({"content": "x"})).usage is None


@pytest.mark.parametrize(
    ("response", "path"),
    [
        ([], "response"),
        ({"choices": {}}, "choices"),
        ({"choices": []}, "choices"),
        ({"choices": ["x"]}, r"choices\[0\]"),
        ({"choices": [{"finish_reason": "stop"}]}, r"choices\[0\]\.message"),
        (_response({"content": 5}), r"choices\[0\]\.message\.content"),
        (_response({"content": "x", "annotations": "y"}), r"message\.annotations"),
        (_response({"refusal": 1}), r"message\.refusal"),
        (
            _response(
                {
                    "tool_calls": [
                        {"id": "c", "type": "function", "function": {"name": 1, "arguments": "{}"}}
                    ]
                }
            ),
            r"tool_calls\[0\]\.function\.name",
        ),
        (_response({"audio": {"transcript": "x"}}), r"message\.audio\.id"),
        (_response({"content": "x"}, usage={"prompt_tokens": -1}), r"usage\.prompt_tokens"),
        (
            _response(
                {"content": "x"},
                usage={"prompt_tokens": 1, "prompt_tokens_details": {"cached_tokens": "2"}},
            ),
            r"usage\.prompt_tokens_details\.cached_tokens",
        ),
        (_response({"content": "x"}, usage=[1]), "usage"),
    ],
)
def test_read_response_hostile_names_the_path(response: Any, path: str) -> None:
    """A malformed response raises InvalidMedia naming the JSON path."""
    with pytest.raises(mp.InvalidMedia, match=path):
        mp.message_from_response(response, "openai")
