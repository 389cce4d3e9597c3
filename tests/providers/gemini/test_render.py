"""Rendering conversations for Gemini: exact round trips, each part kind, each loss and fallback."""

from __future__ import annotations

import base64
import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from tests.providers.gemini._payloads import PNG, REQUESTS, RESPONSES, SIGNATURE, load

types = pytest.importorskip("google.genai.types")

# What a body may hold beside the conversation, which `read` ignores and `render` never writes.
_CALL_ARGUMENTS = ("model", "generationConfig", "tools")


def _conversation(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k not in _CALL_ARGUMENTS}


def _quiet(messages: Any, **options: Any) -> dict[str, Any]:
    """Render for Gemini, failing on any warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return mp.render(messages, "gemini", **options)


def _validate(payload: dict[str, Any]) -> None:
    """Check a body with google-genai's own types, as the REST JSON it is sent as."""
    for content in payload["contents"]:
        types.Content.model_validate_json(json.dumps(content))
    for key in ("systemInstruction", "system_instruction"):
        if key in payload:
            types.GenerateContentConfig.model_validate_json(
                json.dumps({"system_instruction": payload[key]})
            )
    if "config" in payload:
        types.GenerateContentConfig.model_validate_json(json.dumps(payload["config"]))


@pytest.mark.parametrize("path", REQUESTS, ids=lambda p: p.stem)
def test_render_reproduces_each_corpus_body(path: Path) -> None:
    """`render(messages_from(p))` is `p`, key for key, in its own spelling."""
    payload = load(path)
    rendered = _quiet(mp.messages_from(payload, "gemini"))
    assert rendered == _conversation(payload)
    _validate(rendered)


@pytest.mark.parametrize("path", REQUESTS, ids=lambda p: p.stem)
def test_render_reproduces_a_body_after_to_dict(path: Path) -> None:
    """The hints survive `to_dict()`, JSON and `message_from_dict`."""
    payload = load(path)
    dumped = json.dumps([m.to_dict() for m in mp.messages_from(payload, "gemini")])
    messages = [mp.message_from_dict(d) for d in json.loads(dumped)]
    assert _quiet(messages) == _conversation(payload)


def test_render_replays_a_response_with_its_signatures() -> None:
    """A reply read from a response goes back with its thought signature on the call."""
    raw = load(next(p for p in RESPONSES if "tool_calls" in p.stem))
    reply = mp.message_from_response(raw, "gemini")
    rendered = _quiet(
        [
            mp.User("Weather in Paris and Oslo?"),
            reply,
            mp.Tool("21C", tool_call_id="9nqf2k1a", name="get_weather"),
            mp.Tool("5C", tool_call_id="r5tm0c3b", name="get_weather"),
        ]
    )
    assert rendered["contents"][1] == raw["candidates"][0]["content"]
    _validate(rendered)


def test_render_call_without_id_writes_none() -> None:
    """A call and a result without ids are written without ids (Gemini pairs them by name)."""
    rendered = _quiet(
        [
            mp.User("Go."),
            mp.Assistant(tool_calls=[mp.ToolCall(name="f", arguments="{}")]),
            mp.Tool("ok", name="f"),
        ],
        model="gemini-2.5-flash",  # no validator-skipping signature (see below)
    )
    assert rendered["contents"][1:] == [
        {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "f", "response": {"output": "ok"}}}],
        },
    ]


@pytest.mark.parametrize(
    ("tool", "response"),
    [
        (mp.Tool("bad input", tool_call_id="c1", name="f", is_error=True), {"error": "bad input"}),
        (mp.Tool(tool_call_id="c1", name="f", error="boom"), {"error": "Error: boom"}),
        (mp.Tool("42", tool_call_id="c1", name="f"), {"output": "42"}),
    ],
)
def test_render_tool_results(tool: mp.Tool, response: dict[str, Any]) -> None:
    """A result is `output`, an error (flagged or given) is `error`."""
    rendered = _quiet([mp.User("Go."), tool])
    assert rendered["contents"][0]["parts"][0]["functionResponse"]["response"] == response


def test_render_edited_json_result_falls_back_to_output() -> None:
    """A JSON result whose text no longer is a JSON object is sent as `output`."""
    body = {
        "contents": [
            {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"a": 1}}}]}
        ]
    }
    (tool,) = mp.messages_from(body, "gemini")
    edited = tool.model_copy(update={"parts": (mp.TextPart("not json"),)})
    response = _quiet([edited])["contents"][0]["parts"][0]["functionResponse"]["response"]
    assert response == {"output": "not json"}


def test_render_new_message_after_a_read_conversation() -> None:
    """A message added after reading follows the usual shape."""
    messages = mp.messages_from(load(REQUESTS[0]), "gemini")
    rendered = _quiet([*messages[:-1], mp.User("Now about rivers.")])
    assert rendered["contents"][-1] == {"role": "user", "parts": [{"text": "Now about rivers."}]}


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            mp.Assistant([mp.RefusalPart("I can't help with that.")]),
            [{"text": "I can't help with that."}],
        ),
        (
            mp.Assistant(
                [
                    mp.TextPart(
                        "Cited.", citations=(mp.Citation(provider="gemini", url="https://a"),)
                    )
                ]
            ),
            [{"text": "Cited."}],
        ),
        (
            mp.Assistant([mp.ReasoningPart(text="Hm.", signature=SIGNATURE, provider="gemini")]),
            [{"text": "Hm.", "thought": True, "thoughtSignature": SIGNATURE}],
        ),
        (
            mp.Assistant(
                [mp.ProviderPart(provider="gemini", data={"executableCode": {"code": "1"}})]
            ),
            [{"executableCode": {"code": "1"}}],
        ),
    ],
)
def test_render_fallbacks_and_no_ops(message: mp.Assistant, expected: list[Any]) -> None:
    """Refusals become text; Gemini's own citations are no-ops; own blocks go as is."""
    rendered = _quiet([mp.User("Q"), message])
    assert rendered["contents"][1]["parts"] == expected


def test_render_developer_falls_back_to_system() -> None:
    """A developer message is Gemini's system instruction."""
    rendered = _quiet([mp.System("Be brief.", role="developer"), mp.User("Hi")])
    assert rendered["systemInstruction"] == {"parts": [{"text": "Be brief."}]}


def test_render_ignores_hints_it_does_not_know() -> None:
    """Garbage in the gemini hints falls back to the usual shape rather than failing."""
    system = mp.System("Be brief.", native={"gemini": {"field": "evil", "string": 3}})
    text = mp.TextPart("Hi", native={"gemini": {"extra": 5, "snake": "yes"}})
    rendered = _quiet([system, mp.User([text])])
    assert rendered == {
        "contents": [{"role": "user", "parts": [{"text": "Hi"}]}],
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
    }


# (what is lost, the messages holding it, what the warning says)
LOSSES: list[tuple[str, Callable[[], list[mp.Message]], str]] = [
    (
        "anthropic thinking",
        lambda: [
            mp.User("Q"),
            mp.Assistant([mp.ReasoningPart(text="t", signature="s", provider="anthropic"), "A"]),
        ],
        "only anthropic can read it",
    ),
    (
        "unsigned reasoning",
        lambda: [mp.User("Q"), mp.Assistant([mp.ReasoningPart(text="t"), "A"])],
        "only its own thoughts",
    ),
    (
        "anthropic block",
        lambda: [
            mp.User("Q"),
            mp.Assistant(
                [mp.ProviderPart(provider="anthropic", data={"type": "server_tool_use"}), "A"]
            ),
        ],
        "only anthropic can read it",
    ),
    (
        "openai file",
        lambda: [mp.User(["Q", mp.FilePart(file_id="file-abc", file_provider="openai")])],
        "openai's file store",
    ),
    (
        "citations",
        lambda: [
            mp.User("Q"),
            mp.Assistant([mp.TextPart("A", citations=(mp.Citation(provider="anthropic"),))]),
        ],
        "citations",
    ),
    ("user name", lambda: [mp.User("Q", name="ann")], "no name"),
    (
        "call from the user",
        lambda: [mp.User([mp.TextPart("Q"), mp.ToolCall(name="f")])],
        "belongs to a model turn",
    ),
]


@pytest.mark.parametrize(("what", "messages", "why"), LOSSES, ids=[x[0] for x in LOSSES])
def test_render_loss_warns_by_default(
    what: str, messages: Callable[[], list[mp.Message]], why: str
) -> None:
    """What Gemini cannot carry is named in a ConversionWarning, and the rest is rendered."""
    with pytest.warns(mp.ConversionWarning, match=why):
        rendered = mp.render(messages(), "gemini")
    _validate(rendered)
    text = json.dumps(rendered)
    assert '"Q"' in text


@pytest.mark.parametrize(("what", "messages", "why"), LOSSES, ids=[x[0] for x in LOSSES])
def test_render_loss_drop_is_quiet(
    what: str, messages: Callable[[], list[mp.Message]], why: str
) -> None:
    """on_loss="drop" leaves the part out without a warning."""
    _quiet(messages(), on_loss="drop")


@pytest.mark.parametrize(("what", "messages", "why"), LOSSES, ids=[x[0] for x in LOSSES])
def test_render_loss_error_raises(
    what: str, messages: Callable[[], list[mp.Message]], why: str
) -> None:
    """on_loss="error" raises ConversionError naming the provider and why."""
    with pytest.raises(mp.ConversionError, match=why) as caught:
        mp.render(messages(), "gemini", on_loss="error")
    assert caught.value.provider == "gemini"


def test_render_contents_given_as_a_string_comes_back_as_one() -> None:
    """The SDK's `contents="..."` shorthand is read as one user turn and written back as is."""
    payload = {"contents": "Write a haiku.", "config": {"system_instruction": "Be a poet."}}
    messages = mp.messages_from(payload, "gemini")
    assert [(m.role, m.content) for m in messages] == [
        ("system", "Be a poet."),
        ("user", "Write a haiku."),
    ]
    assert _quiet(messages) == payload


def test_render_web_video_url_with_its_type_passes_through() -> None:
    """A `fileData` web URL with its `mimeType` (a YouTube video) is sent back as it was."""
    video = {"mimeType": "video/mp4", "fileUri": "https://www.youtube.com/watch?v=9hE5-98ZeCg"}
    payload = {"contents": [{"role": "user", "parts": [{"fileData": video}, {"text": "Sum up."}]}]}
    assert _quiet(mp.messages_from(payload, "gemini")) == payload


def test_render_keeps_consecutive_contents_of_one_role_apart() -> None:
    """Two user contents in a row (or two model ones) come back as two, not merged."""
    payload = {
        "contents": [
            {"role": "user", "parts": [{"text": "First."}]},
            {"role": "user", "parts": [{"text": "Second."}]},
            {"role": "model", "parts": [{"text": "One."}]},
            {"role": "model", "parts": [{"text": "Two."}]},
        ]
    }
    assert _quiet(mp.messages_from(payload, "gemini")) == payload


def test_render_keeps_each_part_in_its_own_spelling() -> None:
    """Parts of one content spelled differently come back each as it was."""
    payload = {
        "contents": [
            {
                "role": "user",
                "parts": [
                    {"fileData": {"mimeType": "application/pdf", "fileUri": "gs://b/a.pdf"}},
                    {"file_data": {"mime_type": "audio/mpeg", "file_uri": "gs://b/a.mp3"}},
                    {"text": "Compare."},
                ],
            }
        ]
    }
    assert _quiet(mp.messages_from(payload, "gemini")) == payload


def test_render_results_and_text_of_one_content_keep_their_order() -> None:
    """A user content of text, then a function response, is not reordered."""
    payload = {
        "contents": [
            {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
            {
                "role": "user",
                "parts": [
                    {"text": "Here you go:"},
                    {"functionResponse": {"name": "f", "response": {"output": "1"}}},
                    {"text": "Go on."},
                ],
            },
        ]
    }
    assert _quiet(mp.messages_from(payload, "gemini")) == payload


def test_render_gives_bytes_back_where_the_sdk_dict_had_bytes() -> None:
    """A Python SDK dict with bytes (inline data, signatures) renders back with the same bytes."""
    png = base64.b64decode(PNG)
    signature = base64.b64decode(SIGNATURE)
    payload = {
        "contents": [
            {"role": "user", "parts": [{"inline_data": {"mime_type": "image/png", "data": png}}]},
            {
                "role": "model",
                "parts": [
                    {"text": "Look.", "thought": True, "thought_signature": signature},
                    {"function_call": {"name": "f", "args": {}}, "thought_signature": signature},
                ],
            },
        ]
    }
    messages = mp.messages_from(payload, "gemini")
    assert _quiet(messages) == payload
    dumped = json.dumps([m.to_dict() for m in messages])
    assert _quiet([mp.message_from_dict(d) for d in json.loads(dumped)]) == payload


def test_render_web_url_without_a_type_passes_back_unfetched() -> None:
    """A YouTube link without `mimeType` goes back to Gemini as it was, nothing fetched."""
    video = {"fileUri": "https://www.youtube.com/watch?v=9hE5-98ZeCg"}
    payload = {"contents": [{"role": "user", "parts": [{"fileData": video}, {"text": "Sum up."}]}]}
    with mp.offline():
        assert _quiet(mp.messages_from(payload, "gemini")) == payload


def _tool_image(model: str | None) -> list[dict[str, Any]]:
    image = mp.part(base64.b64decode(PNG))
    messages = [
        mp.User("Draw."),
        mp.Assistant(tool_calls=[mp.ToolCall(id="c1", name="draw")]),
        mp.Tool(["Done.", image], tool_call_id="c1"),
    ]
    parts: list[dict[str, Any]] = _quiet(messages, model=model)["contents"][-1]["parts"]
    return parts


@pytest.mark.parametrize("model", [None, "gemini-3-pro-preview"])
def test_render_gemini_3_nests_function_response_media(model: str | None) -> None:
    """For Gemini 3 (or no model), a tool's image is nested in its `functionResponse`."""
    (only,) = _tool_image(model)
    assert "inlineData" in only["functionResponse"]["parts"][0]


@pytest.mark.parametrize("model", ["gemini-2.5-flash", "gemini-2.0-flash"])
def test_render_older_models_get_function_response_media_as_siblings(model: str) -> None:
    """Before Gemini 3, a tool's image follows its `functionResponse` as a part of the turn."""
    response, image = _tool_image(model)
    assert "parts" not in response["functionResponse"]
    assert "inlineData" in image


def test_render_media_read_nested_goes_as_siblings_before_gemini_3() -> None:
    """Media read from inside a `functionResponse` is moved out of it for Gemini 2.5."""
    nested = {"inlineData": {"mimeType": "image/png", "data": PNG}}
    payload = {
        "contents": [
            {"role": "model", "parts": [{"functionCall": {"name": "draw", "args": {}}}]},
            {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "name": "draw",
                            "response": {"output": "Done."},
                            "parts": [nested],
                        }
                    }
                ],
            },
        ]
    }
    messages = mp.messages_from(payload, "gemini")
    assert _quiet(messages) == payload
    parts = _quiet(messages, model="gemini-2.5-pro")["contents"][1]["parts"]
    assert parts == [
        {"functionResponse": {"name": "draw", "response": {"output": "Done."}}},
        nested,
    ]


def test_render_unsigned_gemini_thought_is_sent_back() -> None:
    """A Gemini thought without a signature goes back as a `thought` part, nothing lost."""
    thought = mp.ReasoningPart(text="Let me see.", provider="gemini")
    rendered = _quiet([mp.User("Q"), mp.Assistant([thought, "A"])])
    assert rendered["contents"][1]["parts"] == [
        {"text": "Let me see.", "thought": True},
        {"text": "A"},
    ]


@pytest.mark.parametrize(
    "message",
    [
        mp.System(parts=[mp.TextPart("Be brief.", cache="1h")]),
        mp.User(parts=[mp.TextPart("Long document…", cache="5m")]),
        mp.Assistant(parts=[mp.TextPart("Cached.", cache="1h")]),
        mp.Assistant(parts=[mp.ToolCall(id="c1", name="f", arguments="{}", cache="5m")]),
    ],
    ids=["system", "user", "assistant", "tool-call"],
)
def test_render_reports_cache_breakpoints(message: mp.Message) -> None:
    """Gemini has no cache breakpoints: each one is named, the part kept; "error" raises."""
    messages: list[mp.Message] = [mp.User("Q"), message]
    with pytest.warns(mp.ConversionWarning) as caught:
        payload = mp.render(messages, "gemini")
    (lost,) = [str(w.message) for w in caught]
    assert lost.startswith(f"gemini cannot carry {type(message.parts[0]).__name__}")
    assert "in message 1" in lost and "its cache breakpoint" in lost
    assert payload == _quiet(messages, on_loss="drop")
    with pytest.raises(mp.ConversionError, match="cache breakpoint"):
        mp.render(messages, "gemini", on_loss="error")
