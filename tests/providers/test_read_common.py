"""What every reader shares: hostile SDK objects, declared kinds, one stop-reason meaning, token
counts, and JSON paths put on errors raised without one."""

from __future__ import annotations

import base64
import copy
import json
import re
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers._wire._reading import inline_media, located, plain, token_count
from tests._builders import TESTDATA
from tests.conversations._corpus import cases, load, path_of


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


@pytest.mark.parametrize(
    ("node", "expected"),
    [({"n": 3}, 3), ({"n": 0}, 0), ({}, 0), ({"n": None}, 0)],
)
def test_token_count_reads_a_whole_number_or_nothing(node: dict[str, Any], expected: int) -> None:
    """A count is a whole number, 0 or more; missing or null is 0."""
    assert token_count(node, "n", "usage") == expected


@pytest.mark.parametrize("value", [-1, True, False, 2.0, "3", [], {}])
def test_token_count_refuses_what_is_not_a_count(value: Any) -> None:
    """Bools, negatives and non-integers are InvalidMedia naming the JSON path."""
    with pytest.raises(mp.InvalidMedia, match=r"^usage\.n: expected a token count"):
        token_count({"n": value}, "n", "usage")


def test_token_count_required_refuses_missing() -> None:
    """A required count that is missing names its path too."""
    with pytest.raises(mp.InvalidMedia, match=r"^usage\.n: expected a token count.*missing"):
        token_count({}, "n", "usage", required=True)


def test_located_names_the_path_once() -> None:
    """An error without the path gets it; one that already starts with it is left alone."""
    with pytest.raises(mp.InvalidMedia, match=r"^messages\[1\]: bad$"), located("messages[1]"):
        raise mp.InvalidMedia("bad")
    with (
        pytest.raises(mp.InvalidMedia, match=r"^messages\[1\]\.role: bad$"),
        located("messages[1]"),
    ):
        raise mp.InvalidMedia("messages[1].role: bad")


# provider → (a corpus response, the keys down to one count, the JSON path in the error)
COUNTS: dict[str, tuple[str, list[str], str]] = {
    "openai": ("01_text_usage.json", ["usage", "prompt_tokens"], "usage.prompt_tokens"),
    "openai-responses": (
        "01_text_cached_usage.json",
        ["usage", "input_tokens"],
        "usage.input_tokens",
    ),
    "anthropic": ("01_text_cache_usage.json", ["usage", "input_tokens"], "usage.input_tokens"),
    "gemini": (
        "01_text_usage.json",
        ["usageMetadata", "promptTokenCount"],
        "usageMetadata.promptTokenCount",
    ),
    "bedrock": ("01_text_cache_usage.json", ["usage", "inputTokens"], "usage.inputTokens"),
}


@pytest.mark.parametrize("value", [-5, True, "12"])
@pytest.mark.parametrize("provider", list(COUNTS))
def test_every_reader_names_the_path_of_a_bad_token_count(provider: str, value: Any) -> None:
    """All five readers refuse a negative, boolean or textual count naming its JSON path."""
    name, keys, where = COUNTS[provider]
    response = copy.deepcopy(load(path_of(provider, "responses", name)))
    node = response
    for key in keys[:-1]:
        node = node[key]
    node[keys[-1]] = value
    with pytest.raises(mp.InvalidMedia, match=re.escape(where) + ": expected a token count"):
        mp.message_from_response(response, provider)


@pytest.mark.parametrize("provider", mp.providers.names())
def test_reader_refuses_a_payload_with_no_conversation(provider: str) -> None:
    """A dict with none of the provider's conversation keys is refused, never read as empty."""
    with pytest.raises(mp.InvalidMedia, match=r"messages|contents|input"):
        mp.messages_from({"mesages": [{"role": "user", "content": "hi"}]}, provider)


def _deep(levels: int) -> list[Any]:
    top: list[Any] = []
    inner = top
    for _ in range(levels):
        inner.append([])
        inner = inner[0]
    return top


@pytest.mark.parametrize(
    ("provider", "payload"),
    [
        ("anthropic", {"messages": [{"role": _deep(100_000), "content": "x"}]}),
        (
            "openai",
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "text",
                                "text": "x",
                                "prompt_cache_breakpoint": {"mode": _deep(100_000)},
                            }
                        ],
                    }
                ]
            },
        ),
    ],
)
def test_error_messages_show_hostile_values_bounded(provider: str, payload: Any) -> None:
    """A value nested far deeper than JSON allows is named by its type, never repr'd whole."""
    with pytest.raises(mp.InvalidMedia, match="got a list"):
        mp.messages_from(payload, provider)


def test_responses_output_text_drops_parsed_from_any_dict() -> None:
    """`parsed` (what responses.parse() adds) is never replayed, from a dict as from the SDK."""
    path = TESTDATA.parent / "tests/conversations/corpus/openai-responses/responses"

    data = json.loads((path / "01_text_cached_usage.json").read_text(encoding="utf-8"))
    for item in data["output"]:
        for block in item.get("content") or []:
            block["parsed"] = {"answer": 1}
    reply = mp.message_from_response(data, "openai-responses")
    assert "parsed" not in json.dumps(mp.render([mp.User("q"), reply], "openai-responses"))


def test_render_with_an_overridden_file_store() -> None:
    """A provider reading another store still renders its own-name references, by their part."""
    chat = mp.providers.get("openai").with_rules(file_store="azure")
    ref = mp.part({"file_id": "file-1", "provider": "openai", "media_type": "application/pdf"})
    payload = mp.render(mp.User(["Read", ref]), chat, on_loss="error")
    assert "file-1" in str(payload)


def _scribble(value: Any) -> None:
    """Change every object and array inside `value` in place: a key added, an item appended."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["scribbled"] = ["x"]
    elif isinstance(value, list):
        for item in list(value):
            _scribble(item)
        value.append({"scribbled": True})


@pytest.mark.parametrize(("provider", "name"), cases("requests"))
def test_read_leaves_the_payload_and_shares_nothing_with_it(provider: str, name: str) -> None:
    """messages_from changes nothing in the payload, and changing the payload afterwards
    changes nothing in the messages read (readers take the payload's dicts without copying)."""
    payload = load(path_of(provider, "requests", name))
    before = copy.deepcopy(payload)
    messages = mp.messages_from(payload, provider)
    assert payload == before
    read = [m.to_dict() for m in messages]
    _scribble(payload)
    assert [m.to_dict() for m in messages] == read
