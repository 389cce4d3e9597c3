"""Rendering for the Responses API: each part kind, each fallback, and what cannot be carried."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.testing import MediaURLs
from tests._builders import TESTDATA
from tests.conversations._corpus import cases, load, media_files, path_of

P = "openai-responses"


def _render(messages: Any, **options: Any) -> dict[str, Any]:
    """Render with warnings as errors (pytest's filter), URLs passed through."""
    return mp.render(messages, P, urls="pass", **options)


def test_render_assistant_parts_in_order() -> None:
    """Our reasoning, text and calls become reasoning, message and function_call items, in order."""
    reasoning = mp.ReasoningPart(
        id="rs_1", summary=("Plan",), text="Think.", data="gAAAA", provider=P
    )
    call = mp.ToolCall(id="call_1", name="zoom", arguments='{"x":1}', item_id="fc_1")
    payload = _render([mp.Assistant([reasoning, "Zooming.", call])])
    assert payload == {
        "input": [
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [{"type": "summary_text", "text": "Plan"}],
                "content": [{"type": "reasoning_text", "text": "Think."}],
                "encrypted_content": "gAAAA",
            },
            {"role": "assistant", "content": "Zooming."},
            {
                "type": "function_call",
                "call_id": "call_1",
                "name": "zoom",
                "arguments": '{"x":1}',
                "id": "fc_1",
            },
        ]
    }


def test_render_call_without_id_gets_a_stable_one() -> None:
    """A call without id (Gemini) and its result share a derived call_id."""
    messages = [
        mp.User("Zoom."),
        mp.Assistant(tool_calls=[mp.ToolCall(name="zoom")]),
        mp.Tool("done", name="zoom"),
    ]
    items = _render(messages)["input"]
    assert items[1]["call_id"] == items[2]["call_id"]
    assert items[1]["call_id"]


def test_render_developer_and_cache_breakpoints() -> None:
    """`developer` is kept; a cache hint becomes prompt_cache_breakpoint (1h → ttl 12h)."""
    messages = [
        mp.System("Rules.", role="developer"),
        mp.User([mp.TextPart("Long prefix.", cache="5m"), mp.TextPart("Question?", cache="1h")]),
    ]
    assert _render(messages) == {
        "input": [
            {"role": "developer", "content": "Rules."},
            {
                "role": "user",
                "content": [
                    {
                        "type": "input_text",
                        "text": "Long prefix.",
                        "prompt_cache_breakpoint": {"mode": "explicit"},
                    },
                    {
                        "type": "input_text",
                        "text": "Question?",
                        "prompt_cache_breakpoint": {"mode": "explicit", "ttl": "12h"},
                    },
                ],
            },
        ]
    }


@pytest.mark.parametrize(
    "part",
    [
        mp.TextPart("Hi", cache="5m"),
        mp.RefusalPart("No.", cache="1h"),
        mp.ToolCall(id="c1", name="f", arguments="{}", cache="5m"),
    ],
    ids=["text", "refusal", "call"],
)
def test_render_cache_on_assistant_items_is_reported(part: Any) -> None:
    """The assistant's items have no breakpoint field: the breakpoint is reported, the part sent."""
    messages = [mp.Assistant([part])]
    with pytest.warns(mp.ConversionWarning, match="its cache breakpoint") as caught:
        payload = mp.render(messages, "openai-responses")
    assert len(caught) == 1
    assert payload == mp.render(messages, "openai-responses", on_loss="drop")
    assert "prompt_cache_breakpoint" not in str(payload)


@pytest.mark.parametrize(
    ("part", "block"),
    [
        (
            mp.ImagePart(file_id="file-1", file_provider="openai", media_type=None),
            {"type": "input_image", "file_id": "file-1", "detail": "auto"},
        ),
        (
            mp.FilePart(file_id="file-2", file_provider="openai", media_type=None),
            {"type": "input_file", "file_id": "file-2"},
        ),
    ],
)
def test_render_openai_file_reference(part: mp.MediaPart, block: dict[str, Any]) -> None:
    """An OpenAI file id (shared with Chat Completions) is sent by id."""
    assert _render([mp.User([part])]) == {"input": [{"role": "user", "content": [block]}]}


def test_render_own_provider_part_verbatim() -> None:
    """A ProviderPart of ours is sent back exactly as the API wrote it."""
    item = {
        "type": "web_search_call",
        "id": "ws_1",
        "status": "completed",
        "action": {"type": "search"},
    }
    assert _render([mp.Assistant([mp.ProviderPart(provider=P, data=item)])]) == {"input": [item]}


def test_render_refusal_without_output_message_is_text() -> None:
    """A refusal from elsewhere (no Responses message id) is sent as the assistant's text."""
    assert _render([mp.Assistant([mp.RefusalPart("I can't.")])]) == {
        "input": [{"role": "assistant", "content": "I can't."}]
    }


def test_render_prompt_string_and_empty_conversation() -> None:
    """A prompt is one user message; no messages is an empty input list."""
    assert _render("Write a haiku") == {"input": [{"role": "user", "content": "Write a haiku"}]}
    assert _render([]) == {"input": []}


def test_render_tool_error_is_text() -> None:
    """A tool error becomes the output's first line (function_call_output has no error flag)."""
    messages = [
        mp.Assistant(tool_calls=[mp.ToolCall(id="c", name="f")]),
        mp.Tool(tool_call_id="c", error="timed out", error_type="Timeout"),
    ]
    assert _render(messages)["input"][1] == {
        "type": "function_call_output",
        "call_id": "c",
        "output": "Error (Timeout): timed out",
    }


# (what is lost, the messages holding it, a fragment of the warning)
LOSSES: list[tuple[str, list[mp.Message], str]] = [
    (
        "anthropic thinking",
        [mp.Assistant([mp.ReasoningPart(text="hmm", signature="sig", provider="anthropic"), "Hi"])],
        "only anthropic can read it",
    ),
    (
        "reasoning of nobody",
        [mp.Assistant([mp.ReasoningPart(text="hmm"), "Hi"])],
        "replays only its own reasoning",
    ),
    (
        "own reasoning without id",
        [mp.Assistant([mp.ReasoningPart(summary=("s",), provider=P), "Hi"])],
        "needs its id",
    ),
    (
        "another provider's block",
        [
            mp.Assistant(
                [mp.ProviderPart(provider="anthropic", data={"type": "server_tool_use"}), "Hi"]
            )
        ],
        "only anthropic can read it",
    ),
    (
        "another store's file",
        [mp.User(["Hi", mp.FilePart(file_id="f", file_provider="anthropic", media_type=None)])],
        "anthropic's file store",
    ),
    ("a user's name", [mp.User("Hi", name="ada")], "no name field"),
    (
        "foreign citations in easy text",
        [
            mp.Assistant(
                [mp.TextPart("Hi", citations=(mp.Citation(provider="anthropic", title="T"),))]
            )
        ],
        "annotations only on the output_text",
    ),
    (
        "an error flag without error text",
        [
            mp.Assistant(tool_calls=[mp.ToolCall(id="c", name="f")]),
            mp.Tool("bad", tool_call_id="c", is_error=True),
        ],
        "error flag",
    ),
    (
        "a tool call in a user message",
        [mp.User(["Hi", mp.ToolCall(id="c", name="f")])],
        "cannot hold it",
    ),
]


@pytest.mark.parametrize(("what", "messages", "why"), LOSSES, ids=[loss[0] for loss in LOSSES])
def test_render_loss_warns(what: str, messages: list[mp.Message], why: str) -> None:
    """What Responses cannot carry is named in a ConversionWarning; the rest still renders."""
    with pytest.warns(mp.ConversionWarning, match=why):
        payload = _render(messages)
    assert payload["input"]


@pytest.mark.parametrize(("what", "messages", "why"), LOSSES, ids=[loss[0] for loss in LOSSES])
def test_render_loss_dropped_quietly(what: str, messages: list[mp.Message], why: str) -> None:
    """on_loss="drop" leaves it out without a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _render(messages, on_loss="drop")


@pytest.mark.parametrize(("what", "messages", "why"), LOSSES, ids=[loss[0] for loss in LOSSES])
def test_render_loss_raises_on_error(what: str, messages: list[mp.Message], why: str) -> None:
    """on_loss="error" raises ConversionError naming the provider and the reason."""
    with pytest.raises(mp.ConversionError, match=why) as caught:
        _render(messages, on_loss="error")
    assert caught.value.provider == P


def test_render_own_citations_in_an_output_message() -> None:
    """Our annotations go back on output_text when the message was an output message."""
    note = {
        "type": "url_citation",
        "start_index": 0,
        "end_index": 2,
        "url": "https://a.example",
        "title": "A",
    }
    envelope = {"type": "message", "id": "msg_1", "status": "completed"}
    text = mp.TextPart(
        "Hi",
        citations=(mp.Citation(provider=P, url="https://a.example", title="A", data=note),),
        native={P: {"item": envelope}},
    )
    assert _render([mp.Assistant([text, mp.RefusalPart("But not that.")])]) == {
        "input": [
            {
                **envelope,
                "role": "assistant",
                "content": [
                    {"type": "output_text", "text": "Hi", "annotations": [note]},
                    {"type": "refusal", "refusal": "But not that."},
                ],
            }
        ]
    }


def test_render_foreign_citations_in_an_output_message_are_lost() -> None:
    """In an output message, another provider's citations are named; ours are kept."""
    envelope = {"type": "message", "id": "msg_1", "status": "completed"}
    theirs = mp.Citation(provider="anthropic", cited_text="x", data={"type": "char_location"})
    text = mp.TextPart("Hi", citations=(theirs,), native={P: {"item": envelope}})
    with pytest.warns(mp.ConversionWarning, match="another provider's"):
        payload = _render([mp.Assistant([text])])
    assert payload["input"][0]["content"] == [
        {"type": "output_text", "text": "Hi", "annotations": []}
    ]


def test_render_audio_is_unsupported() -> None:
    """Audio has no Responses input block: UnsupportedMediaType, as before."""
    audio = mp.AudioPart(data=b"RIFF\x24\x00\x00\x00WAVEfmt ", media_type="audio/wav")
    with pytest.raises(mp.UnsupportedMediaType):
        _render([mp.User([audio])])


def test_render_keeps_read_empty_texts_around_fetched_media(media_urls: MediaURLs) -> None:
    """An empty input_text read from a list stays, also beside an image fetched and inlined."""
    media_urls.add("https://media.example/photo.jpg", TESTDATA / "photo.jpg")
    image = {"type": "input_image", "image_url": "https://media.example/photo.jpg", "detail": "low"}
    payload = [
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": ""},
                image,
                {"type": "input_text", "text": "After."},
            ],
        }
    ]
    (item,) = mp.render(mp.messages_from(payload, P), P, urls="inline")["input"]
    assert [block["type"] for block in item["content"]] == [
        "input_text",
        "input_image",
        "input_text",
    ]
    assert item["content"][1]["image_url"].startswith("data:image/jpeg;base64,")
    assert item["content"][2] == {"type": "input_text", "text": "After."}


def test_render_easy_assistant_message_is_a_string_with_citations_lost() -> None:
    """An assistant message read without an id is one string; citations there are reported."""
    note = mp.Citation(provider=P, url="https://x")
    messages = [mp.User("q"), mp.Assistant(["a", mp.TextPart("b", citations=(note,))])]
    with pytest.warns(mp.ConversionWarning, match="annotations only on the output_text"):
        payload = _render(messages)
    assert payload["input"][1] == {"role": "assistant", "content": "a\n\nb"}


def test_render_foreign_assistant_citations_and_refusal_join_into_a_string() -> None:
    """Anthropic's cited text and a refusal become one string, never input_text blocks."""
    note = mp.Citation(provider="anthropic", cited_text="c", data={"type": "char_location"})
    turn = mp.Assistant([mp.TextPart("Cited.", citations=(note,)), mp.RefusalPart("No more.")])
    payload = _render([mp.User("q"), turn], on_loss="drop")
    assert payload["input"][1] == {"role": "assistant", "content": "Cited.\n\nNo more."}


def _input_blocks_of_assistant_items(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        block
        for item in items
        if item.get("role") == "assistant" and isinstance(item.get("content"), list)
        for block in item["content"]
        if str(block.get("type", "")).startswith("input_")
    ]


@pytest.mark.mediaparts(assert_all_requested=False)
@pytest.mark.parametrize("case", cases("requests"), ids="/".join)
def test_render_no_assistant_item_of_any_corpus_holds_an_input_block(
    case: tuple[str, str], media_urls: MediaURLs
) -> None:
    """Every corpus conversation of every provider renders with no input_* block from the
    assistant (the API takes only output_text and refusal there)."""
    for url, path in media_files().items():
        media_urls.add(url, path)
    provider, name = case
    messages = mp.messages_from(load(path_of(provider, "requests", name)), provider)
    try:
        payload = mp.render(messages, P, on_loss="drop")
    except mp.UnsupportedMediaType:  # audio or video: no Responses block at all
        return
    items = payload["input"] if isinstance(payload["input"], list) else []
    assert _input_blocks_of_assistant_items(items) == []


def test_render_read_input_text_from_the_assistant_goes_back_as_a_string() -> None:
    """A payload's assistant input_text list (which the API rejects) is written as a string."""
    payload = [
        {
            "role": "assistant",
            "content": [{"type": "input_text", "text": "a"}, {"type": "input_text", "text": "b"}],
        }
    ]
    assert _render(mp.messages_from(payload, P)) == {
        "input": [{"role": "assistant", "content": "a\n\nb"}]
    }
