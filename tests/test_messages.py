"""Messages: content and files, tool calls, dict round trips, role aliases, merging runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mediaparts as mp


def test_user_text_and_files(testdata: Path) -> None:
    """User(text, files=...) holds the text first, then the files, typed by their bytes."""
    msg = mp.User(
        "Describe these",
        files=[
            {"path": str(testdata / "photo.jpg")},
            testdata / "document.pdf",
            (testdata / "tone.wav").read_bytes(),
        ],
    )
    assert msg.role == "user"
    assert msg.content == "Describe these"
    assert [type(p).__name__ for p in msg.parts] == [
        "TextPart",
        "ImagePart",
        "FilePart",
        "AudioPart",
    ]
    assert [f.media_type for f in msg.files] == ["image/jpeg", "application/pdf", "audio/wav"]


def test_user_ordered_list_keeps_order(testdata: Path) -> None:
    """A content list keeps its order; plain strings in it are text."""
    img = mp.ImagePart.from_path(testdata / "alpha.png")
    msg = mp.User(["Compare", img, "with", {"path": str(testdata / "palette.png")}])
    assert [p.kind for p in msg.parts] == ["text", "image", "text", "image"]
    assert msg.parts[1] is img
    assert msg.content == "Compare\n\nwith"


def test_user_accepts_pil_image_and_url() -> None:
    """files= takes PIL images and URLs (URLs stay lazy)."""
    from PIL import Image

    msg = mp.User("Look", files=[Image.new("RGB", (8, 8)), "https://example.com/a.png"])
    image, url = msg.files
    assert image.media_type == "image/png"
    assert url.is_url and not url.is_loaded


def test_system_is_text_only(testdata: Path) -> None:
    """A System message refuses media."""
    assert mp.System("You are terse.").content == "You are terse."
    with pytest.raises(mp.InvalidMedia, match="text only"):
        mp.System("x", files=[testdata / "alpha.png"])


def test_assistant_keeps_tool_call_arguments_verbatim() -> None:
    """Tool call arguments stay the exact JSON text the model produced."""
    raw = '{"x":  1, "y": [1,2]}'
    msg = mp.Assistant(
        "Zooming.",
        tool_calls=[mp.ToolCall(id="c1", name="zoom", arguments=raw)],
        usage=mp.Usage(input_tokens=10, output_tokens=3),
    )
    assert msg.tool_calls[0].arguments == raw
    assert msg.tool_calls[0].parsed_arguments() == {"x": 1, "y": [1, 2]}
    assert msg.usage is not None and msg.usage.total_tokens == 13
    again = mp.message_from_dict(json.loads(json.dumps(msg.to_dict())))
    assert again == msg
    assert isinstance(again, mp.Assistant) and again.tool_calls[0].arguments == raw


def test_tool_call_dict_arguments_encoded_once() -> None:
    """A caller's dict of arguments is encoded as compact JSON."""
    assert mp.ToolCall(id="c", name="f", arguments={"a": "é"}).arguments == '{"a":"é"}'


def test_tool_call_bad_json_is_reported() -> None:
    """Unparseable arguments raise InvalidMedia naming the call."""
    with pytest.raises(mp.InvalidMedia, match="'c9'"):
        mp.ToolCall(id="c9", name="f", arguments="{oops").parsed_arguments()


def test_tool_message_carries_media_and_error(testdata: Path) -> None:
    """A Tool message may hold media, and error/error_type (which imply is_error)."""
    msg = mp.Tool(
        ["Cropped:", {"path": str(testdata / "alpha.png")}], tool_call_id="c1", name="zoom"
    )
    assert msg.files[0].media_type == "image/png"
    failed = mp.Tool(
        "no such region", tool_call_id="c2", error="out of bounds", error_type="ValueError"
    )
    assert (failed.error, failed.error_type) == ("out of bounds", "ValueError")
    assert failed.is_error
    assert mp.Tool("x").tool_call_id is None  # Gemini pairs results by name


@pytest.mark.parametrize(
    "make",
    [
        lambda d: mp.System("Be brief.", id="s1"),
        lambda d: mp.User(
            "Describe", files=[d / "photo.jpg", d / "tone.wav", "https://example.com/x.pdf"]
        ),
        lambda d: mp.Assistant(
            "ok", tool_calls=[mp.ToolCall(id="1", name="f", arguments="{}")], output={"answer": 42}
        ),
        lambda d: mp.Tool(
            ["done", d / "alpha.png"], tool_call_id="1", error="partial", error_type="Timeout"
        ),
    ],
)
def test_message_round_trips_through_json(testdata: Path, make: object) -> None:
    """message_from_dict(m.to_dict()) == m, through JSON text."""
    msg = make(testdata)  # type: ignore[operator]
    assert mp.message_from_dict(json.loads(json.dumps(msg.to_dict()))) == msg


@pytest.mark.parametrize(
    ("role", "cls"),
    [
        ("human", mp.User),
        ("ai", mp.Assistant),
        ("developer", mp.System),
        ("model", mp.Assistant),
        ("USER", mp.User),
    ],
)
def test_message_from_dict_role_aliases(role: str, cls: type) -> None:
    """Role aliases map to the right class."""
    assert type(mp.message_from_dict({"role": role, "content": "hi"})) is cls


def test_message_from_openai_style_dict(testdata: Path) -> None:
    """OpenAI Chat Completions message dicts are read, parts and tool calls included."""
    uri = mp.ImagePart.from_path(testdata / "alpha.png").to_data_uri()
    user = mp.message_from_dict(
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is this?"},
                {"type": "image_url", "image_url": {"url": uri, "detail": "low"}},
                {"type": "image_url", "image_url": {"url": "https://example.com/b.jpg"}},
            ],
        }
    )
    first, second = user.files
    assert (
        isinstance(first, mp.ImagePart)
        and first.detail == "low"
        and first.media_type == "image/png"
    )
    assert second.url == "https://example.com/b.jpg"
    assistant = mp.message_from_dict(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "zoom", "arguments": '{"x":1}'},
                }
            ],
        }
    )
    assert isinstance(assistant, mp.Assistant)
    assert assistant.tool_calls == (mp.ToolCall(id="call_1", name="zoom", arguments='{"x":1}'),)
    tool = mp.message_from_dict({"role": "tool", "tool_call_id": "call_1", "content": "done"})
    assert isinstance(tool, mp.Tool) and tool.content == "done"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"role": "wizard", "content": "hi"}, "unknown message role"),
        ({"content": "hi"}, "unknown message role"),
        ({"role": "user", "content": [{"type": "hologram"}]}, "hologram"),
        ({"role": "user", "content": "a", "parts": []}, "not both"),
        ({"role": "user", "content": [{"pth": "x.png"}]}, "allowed keys"),
    ],
)
def test_message_from_dict_rejects_bad_input(value: dict[str, object], message: str) -> None:
    """Malformed message dicts raise InvalidMedia naming the problem."""
    with pytest.raises(mp.InvalidMedia, match=message):
        mp.message_from_dict(value)


def test_message_from_dict_bytes_content_is_one_part(testdata: Path) -> None:
    """Bytes as a dict's content are one piece of media, as in mp.User(b"..."), not ints."""
    raw = (testdata / "alpha.png").read_bytes()
    message = mp.message_from_dict({"role": "user", "content": raw})
    assert message == mp.User(raw)
    assert [part.media_type for part in message.files] == ["image/png"]


def test_merge_runs_joins_same_role(testdata: Path) -> None:
    """Consecutive same-role messages merge: text with a blank line, files in order."""
    a = mp.User("First", files=[testdata / "alpha.png"])
    b = mp.User("Second")
    c = mp.User("Third", files=[testdata / "tone.wav"])
    merged = mp.merge_runs([mp.System("s"), a, b, c])
    assert [m.role for m in merged] == ["system", "user"]
    user = merged[1]
    assert user.content == "First\n\nSecond\n\nThird"
    assert [f.media_type for f in user.files] == ["image/png", "audio/wav"]
    assert a.content == "First"  # inputs are untouched


def test_merge_runs_assistant_tool_calls_and_usage() -> None:
    """Assistant runs concatenate tool calls and add usage."""
    one = mp.Assistant(
        "a",
        tool_calls=[mp.ToolCall(id="1", name="f")],
        usage=mp.Usage(input_tokens=1, output_tokens=2),
    )
    two = mp.Assistant(
        "b",
        tool_calls=[mp.ToolCall(id="2", name="g")],
        usage=mp.Usage(input_tokens=3, output_tokens=4),
    )
    (merged,) = mp.merge_runs([one, two])
    assert isinstance(merged, mp.Assistant)
    assert [c.id for c in merged.tool_calls] == ["1", "2"]
    assert merged.usage == mp.Usage(input_tokens=4, output_tokens=6)


def test_merge_runs_never_merges_tool_messages() -> None:
    """Each tool message answers its own call, so they stay apart."""
    msgs = [mp.Tool("a", tool_call_id="1"), mp.Tool("b", tool_call_id="2")]
    assert mp.merge_runs(msgs) == msgs


@pytest.mark.parametrize(
    ("output", "kept"),
    [
        ((1, 2), [1, 2]),
        ({"pair": (1, (2, 3))}, {"pair": [1, [2, 3]]}),
        ([], []),
        ("text", "text"),
    ],
)
def test_assistant_output_is_kept_as_json_data(output: object, kept: object) -> None:
    """Structured output is kept as the JSON data to_dict() holds: tuples become lists."""
    message = mp.Assistant(output=output)
    assert message.output == kept
    assert message.to_dict()["output"] == kept
    assert mp.message_from_dict(json.loads(json.dumps(message.to_dict()))) == message


def test_assistant_output_is_a_copy() -> None:
    """The message shares nothing with the caller's output object."""
    output = {"items": [1]}
    message = mp.Assistant(output=output)
    output["items"].append(2)
    assert message.output == {"items": [1]}


def test_assistant_output_nested_too_deeply_is_invalid() -> None:
    """Output nested deeper than JSON can encode raises InvalidMedia, not RecursionError."""
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(mp.InvalidMedia, match="nested too deeply"):
        mp.Assistant(output=deep)
    with pytest.raises(mp.InvalidMedia, match="nested too deeply"):
        mp.part(b"%PDF-1.4\n", metadata={"deep": deep})


def test_message_text_lone_surrogates_are_replaced() -> None:
    """Lone surrogates in text, names, ids and tool calls become U+FFFD, so payloads encode."""
    body = json.loads(
        '{"role": "assistant", "content": "hi \\ud800", "id": "m\\udc00",'
        ' "tool_calls": [{"id": "c\\ud801", "type": "function",'
        ' "function": {"name": "f\\udfff", "arguments": "{\\"a\\": \\"\\ud800\\"}"}}]}'
    )
    message = mp.message_from_dict(body)
    assert isinstance(message, mp.Assistant)
    assert message.content == "hi \ufffd"
    assert message.id == "m\ufffd"
    assert (message.tool_calls[0].id, message.tool_calls[0].name) == ("c\ufffd", "f\ufffd")
    for provider in mp.providers.names():
        payload = mp.render([mp.User("q"), message], provider)
        json.dumps(payload, ensure_ascii=False, default=repr).encode("utf-8")


def test_tool_call_arguments_nested_too_deeply_are_invalid() -> None:
    """A caller's arguments dict nested past what JSON can encode is InvalidMedia."""
    deep: dict[str, object] = {}
    for _ in range(100_000):
        deep = {"a": deep}
    body = {
        "role": "assistant",
        "tool_calls": [{"id": "1", "function": {"name": "f", "arguments": deep}}],
    }
    with pytest.raises(mp.InvalidMedia, match="nested too deeply"):
        mp.message_from_dict(body)
