"""Rendering conversations for Chat Completions: each part kind, and each fallback or loss."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import mediaparts as mp
from tests.providers._sdk import validate_request

CALL = mp.ToolCall(id="call_1", name="lookup", arguments='{"q": "x"}')


def _render(*messages: mp.Message, on_loss: Any = "error") -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = mp.render(list(messages), "openai", urls="pass", on_loss=on_loss)[
        "messages"
    ]
    return out


def test_render_developer_role_and_names() -> None:
    """`developer` stays developer; system, user and assistant names are carried."""
    assert _render(
        mp.System("Rules.", role="developer", name="ops"),
        mp.User("Hi", name="ada"),
        mp.Assistant("Hello", name="bot"),
    ) == [
        {"role": "developer", "content": "Rules.", "name": "ops"},
        {"role": "user", "content": "Hi", "name": "ada"},
        {"role": "assistant", "content": "Hello", "name": "bot"},
    ]


def test_render_refusal_goes_to_the_refusal_field() -> None:
    """A RefusalPart from another provider renders as the assistant's `refusal`."""
    assert _render(mp.Assistant(parts=[mp.RefusalPart("No.")])) == [
        {"role": "assistant", "content": None, "refusal": "No."}
    ]


def test_render_refusal_from_the_user_is_text() -> None:
    """A refusal outside the assistant's turn is sent as text."""
    assert _render(mp.User(parts=[mp.RefusalPart("No.")])) == [{"role": "user", "content": "No."}]


def test_render_tool_calls_keep_their_ids_and_derive_missing_ones() -> None:
    """Calls without an id (Gemini) get a stable derived one, shared with their result."""
    call = mp.ToolCall(name="lookup", arguments="{}")
    messages = _render(
        mp.Assistant(parts=[call, CALL]),
        mp.Tool("found", name="lookup"),
        mp.Tool("also", tool_call_id="call_1"),
    )
    derived = messages[0]["tool_calls"][0]["id"]
    assert messages[0]["tool_calls"][1]["id"] == "call_1"
    assert messages[1] == {"role": "tool", "tool_call_id": derived, "content": "found"}


@pytest.mark.parametrize(
    ("cache", "native", "breakpoint"),
    [
        ("5m", {}, {"mode": "explicit"}),
        ("1h", {}, {"mode": "explicit", "ttl": "12h"}),
        (
            "5m",
            {"openai": {"breakpoint": {"mode": "explicit", "ttl": "30m"}}},
            {"mode": "explicit", "ttl": "30m"},
        ),
    ],
)
def test_render_cache_becomes_a_breakpoint(
    cache: Any, native: dict[str, Any], breakpoint: dict[str, Any]
) -> None:
    """A part's cache renders as its `prompt_cache_breakpoint`; the content becomes a list."""
    [turn] = _render(mp.User(parts=[mp.TextPart("prefix", cache=cache, native=native)]))
    assert turn["content"] == [
        {"type": "text", "text": "prefix", "prompt_cache_breakpoint": breakpoint}
    ]


def test_render_tool_error_flag_without_text_is_a_reported_loss() -> None:
    """A result flagged as an error without error text: the flag is lost, the content sent."""
    flagged = mp.Tool("timed out", tool_call_id="call_1", is_error=True)
    with pytest.warns(mp.ConversionWarning, match="error flag"):
        [_, turn] = _render(mp.Assistant(parts=[CALL]), flagged, on_loss="warn")
    assert turn["content"] == "timed out"


def test_render_tool_error_text_is_the_first_line() -> None:
    """A tool error's text is sent as the content's first line, its type in the label."""
    [_, turn] = _render(
        mp.Assistant(parts=[CALL]),
        mp.Tool("partial", tool_call_id="call_1", error="took too long", error_type="Timeout"),
    )
    assert turn["content"] == "Error (Timeout): took too long\n\npartial"


def test_render_own_file_reference() -> None:
    """An OpenAI file id renders as a `file` part with that id."""
    part = mp.FilePart(file_id="file-abc", file_provider="openai", media_type=None)
    [turn] = _render(mp.User(parts=[part]))
    assert turn["content"] == [{"type": "file", "file": {"file_id": "file-abc"}}]


LOSSES = [
    (
        "reasoning",
        mp.Assistant(parts=[mp.ReasoningPart(text="thinking"), mp.TextPart("Answer")]),
        "thinking",
    ),
    (
        "signed-reasoning",
        mp.Assistant(
            parts=[
                mp.ReasoningPart(text="hmm", signature="sig", provider="anthropic"),
                mp.TextPart("A"),
            ]
        ),
        "anthropic",
    ),
    (
        "provider-part",
        mp.Assistant(
            parts=[
                mp.ProviderPart(provider="anthropic", data={"type": "server_tool_use"}),
                mp.TextPart("A"),
            ]
        ),
        "server_tool_use",
    ),
    (
        "foreign-citation",
        mp.Assistant(
            parts=[
                mp.TextPart("A", citations=(mp.Citation(provider="anthropic", url="https://x"),))
            ]
        ),
        "citations",
    ),
    (
        "image-file-id",
        mp.User(parts=[mp.ImagePart(file_id="file-img", file_provider="openai"), mp.TextPart("Q")]),
        "file-img",
    ),
    (
        "foreign-file",
        mp.User(
            parts=[
                mp.FilePart(file_id="files/abc", file_provider="gemini", media_type=None),
                mp.TextPart("Q"),
            ]
        ),
        "files/abc",
    ),
]


@pytest.mark.parametrize(
    ("message", "named"), [(m, n) for _, m, n in LOSSES], ids=[i for i, _, _ in LOSSES]
)
def test_render_loss_warns_naming_the_part(message: mp.Message, named: str) -> None:
    """What Chat Completions cannot carry warns by default, naming the part."""
    with pytest.warns(mp.ConversionWarning, match=named):
        mp.render([message], "openai", urls="pass")


@pytest.mark.parametrize("message", [m for _, m, _ in LOSSES], ids=[i for i, _, _ in LOSSES])
def test_render_loss_drop_is_quiet(message: mp.Message) -> None:
    """`on_loss="drop"` leaves the part out without a warning; the rest is rendered."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        payload = mp.render([message], "openai", urls="pass", on_loss="drop")
    assert "A" in str(payload) or "Q" in str(payload) or "Answer" in str(payload)


@pytest.mark.parametrize("message", [m for _, m, _ in LOSSES], ids=[i for i, _, _ in LOSSES])
def test_render_loss_error_raises(message: mp.Message) -> None:
    """`on_loss="error"` raises ConversionError naming the provider."""
    with pytest.raises(mp.ConversionError) as caught:
        mp.render([message], "openai", urls="pass", on_loss="error")
    assert caught.value.provider == "openai"


def test_render_custom_tool_call_with_other_arguments() -> None:
    """A custom call whose arguments lost their `input` key sends the arguments as its input."""
    call = mp.ToolCall(
        id="c", name="sql", arguments='{"q": 1}', native={"openai": {"type": "custom"}}
    )
    [turn] = _render(mp.Assistant(parts=[call]))
    assert turn["tool_calls"] == [
        {"id": "c", "type": "custom", "custom": {"name": "sql", "input": '{"q": 1}'}}
    ]


def _foreign_conversation() -> list[mp.Message]:
    """A tool loop as another provider wrote it: signed thinking, citations, blocks, cache."""
    photo = mp.ImagePart.from_url("https://media.example/photo.jpg")
    call = mp.ToolCall(id="toolu_1", name="crop", arguments='{"box": [0, 0, 4, 4]}', cache="1h")
    return [
        mp.System(parts=[mp.TextPart("Use the tools.", cache="5m")]),
        mp.User(["Crop this.", photo]),
        mp.Assistant(
            parts=[
                mp.ReasoningPart(text="I should crop.", signature="c2ln", provider="anthropic"),
                mp.ReasoningPart(data="cmVkYWN0ZWQ=", provider="anthropic"),
                mp.TextPart(
                    "Cropping.",
                    citations=(mp.Citation(provider="anthropic", cited_text="crop"),),
                ),
                mp.ProviderPart(provider="anthropic", data={"type": "server_tool_use", "id": "s"}),
                call,
            ]
        ),
        mp.Tool(["Done.", photo], tool_call_id="toolu_1", is_error=True),
        mp.Assistant(parts=[mp.RefusalPart("I can't say more.")]),
    ]


def test_render_foreign_conversation_validates() -> None:
    """Another provider's tool loop renders to a payload the openai SDK's types accept."""
    with pytest.warns(mp.ConversionWarning):
        payload = mp.render(_foreign_conversation(), "openai", urls="pass")
    pytest.importorskip("openai")
    validate_request("openai", payload)
    roles = [m["role"] for m in payload["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "user", "assistant"]
    assert payload["messages"][0]["content"] == [
        {"type": "text", "text": "Use the tools.", "prompt_cache_breakpoint": {"mode": "explicit"}}
    ]
    assert payload["messages"][2]["tool_calls"][0]["function"]["name"] == "crop"
    assert payload["messages"][3]["content"].startswith("Done.")
    assert payload["messages"][5] == {
        "role": "assistant",
        "content": None,
        "refusal": "I can't say more.",
    }


def test_render_foreign_conversation_names_each_loss() -> None:
    """Each thing left out is named in its own warning: reasoning twice, citations, the block,
    the tool call's cache breakpoint, the tool result's error flag."""
    with pytest.warns(mp.ConversionWarning) as caught:
        mp.render(_foreign_conversation(), "openai", urls="pass")
    found = [str(w.message) for w in caught]
    assert len(found) == 6
    assert any(
        m.startswith("openai cannot carry ToolCall crop(") and "cache breakpoint" in m
        for m in found
    )
    assert sum("ReasoningPart" in m for m in found) == 2
    assert any("error flag" in m for m in found)
    assert any("citations" in m for m in found)
    assert any("server_tool_use" in m for m in found)


@pytest.mark.parametrize(
    "part",
    [mp.ToolCall(id="c1", name="f", arguments="{}", cache="5m"), mp.RefusalPart("No.", cache="1h")],
    ids=["call", "refusal"],
)
def test_render_cache_on_a_call_or_refusal_is_reported(part: Any) -> None:
    """A tool call and the `refusal` field have no breakpoint: it is reported, the part sent."""
    messages = [mp.User("Q"), mp.Assistant([part])]
    with pytest.warns(mp.ConversionWarning, match="its cache breakpoint") as caught:
        payload = mp.render(messages, "openai")
    assert len(caught) == 1
    assert payload == mp.render(messages, "openai", on_loss="drop")
    assert "prompt_cache_breakpoint" not in str(payload)
    with pytest.raises(mp.ConversionError, match="cache breakpoint"):
        mp.render(messages, "openai", on_loss="error")


def test_render_refusal_as_text_for_an_api_without_refusals() -> None:
    """With the `refusal_as_text` quirk (Groq's), a refusal goes as the assistant's text, and
    that it was a refusal is reported lost; without it, the `refusal` field carries it."""
    turn = mp.Assistant(parts=[mp.TextPart(text="Here is why."), mp.RefusalPart(text="No.")])
    with pytest.warns(mp.ConversionWarning, match="no refusal field"):
        payload = mp.render([mp.User("Help?"), turn], "groq", on_loss="warn")
    sent = payload["messages"][1]
    assert "refusal" not in sent
    assert sent["content"] == "Here is why.\n\nNo."
    plain = mp.render([mp.User("Help?"), turn], "openai")
    assert plain["messages"][1]["refusal"] == "No."


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_refusal_as_text_quirk_is_true_or_false(value: Any) -> None:
    """The quirk is a bool; anything else is refused at registration."""
    with pytest.raises(mp.InvalidConfig, match="refusal_as_text quirk is true or false"):
        mp.providers.register(
            "bad-refusal",
            wire="openai",
            rules=mp.providers.get("openai").rules,
            quirks={"refusal_as_text": value},
        )


def _reply(message: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": message}],
    }


def test_read_response_groq_reasoning_field() -> None:
    """Groq's `message.reasoning` is read as its reasoning (its `reasoning_field` quirk), and
    goes back on the assistant turn; OpenAI's reply has no such field to read."""
    reply = _reply({"role": "assistant", "content": "42", "reasoning": "6 times 7"})
    message = mp.message_from_response(reply, "groq")
    assert [type(p).__name__ for p in message.parts] == ["ReasoningPart", "TextPart"]
    sent = mp.render([mp.User("Why?"), message], "groq")["messages"][1]
    assert sent["reasoning"] == "6 times 7" and sent["content"] == "42"


@pytest.mark.parametrize("provider", ["openai", "groq", "deepseek"])
def test_read_response_content_list_only_where_the_quirk_says(provider: str) -> None:
    """A reply whose content is a list of chunks is Mistral's shape (`thinking_chunks`); for a
    provider without the quirk it is refused, not read as reasoning it never sent."""
    chunks = [{"type": "thinking", "thinking": [{"type": "text", "text": "t"}]}]
    reply = _reply({"role": "assistant", "content": [*chunks, {"type": "text", "text": "hi"}]})
    with pytest.raises(mp.InvalidMedia, match="content: expected a string"):
        mp.message_from_response(reply, provider)
    assert mp.message_from_response(reply, "mistral").text == "hi"


@pytest.mark.parametrize("field", ["content", "tool_calls", "role"])
def test_reasoning_field_quirk_refuses_a_field_the_wire_writes(field: str) -> None:
    """The reasoning field cannot be one the wire writes itself (its text would be read
    twice, or over a tool call)."""
    with pytest.raises(mp.InvalidConfig, match="not one the wire writes"):
        mp.providers.register(
            "bad-reasoning",
            wire="openai",
            rules=mp.providers.get("openai").rules,
            quirks={"reasoning_field": field},
        )


def test_stream_extra_error_ends_a_stream_whose_chunk_has_usage() -> None:
    """An error in the provider's own chunk object stops the stream even when the chunk also
    carries top-level usage."""
    chunk = {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        "x_groq": {"error": "over capacity"},
    }
    with pytest.raises(mp.StreamError, match="over capacity"):
        mp.message_from_stream([chunk], "groq")
