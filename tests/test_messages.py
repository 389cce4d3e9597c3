"""Messages: content and files, tool calls, dict round trips, role aliases, merging runs."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


# -- the conversation model of format version 2 -------------------------------------------


def test_assistant_tool_calls_view_keeps_part_order() -> None:
    """Assistant.tool_calls is the ToolCall parts, in the order they sit among the others."""
    first, second = mp.ToolCall(id="1", name="a"), mp.ToolCall(id="2", name="b")
    message = mp.Assistant(
        parts=[mp.ReasoningPart(text="think"), "Looking.", first, "And:", second]
    )
    assert message.tool_calls == (first, second)
    assert [p.kind for p in message.parts] == [
        "reasoning",
        "text",
        "tool_call",
        "text",
        "tool_call",
    ]
    assert message.content == "Looking.\n\nAnd:"


def test_assistant_tool_calls_argument_appends_after_content(testdata: Path) -> None:
    """`tool_calls=` still works: the calls follow the content and files, in their order."""
    message = mp.Assistant(
        "Zooming.",
        files=[testdata / "palette.png"],
        tool_calls=[
            mp.ToolCall(id="1", name="zoom"),
            {"id": "2", "name": "crop", "arguments": {"x": 1}},
            {"id": "3", "type": "function", "function": {"name": "rotate", "arguments": "{}"}},
        ],
    )
    assert [p.kind for p in message.parts] == [
        "text",
        "image",
        "tool_call",
        "tool_call",
        "tool_call",
    ]
    assert [c.name for c in message.tool_calls] == ["zoom", "crop", "rotate"]
    assert message.tool_calls[1].arguments == '{"x":1}'
    with_parts = mp.Assistant(parts=["a"], tool_calls=[mp.ToolCall(id="9", name="f")])
    assert [p.kind for p in with_parts.parts] == ["text", "tool_call"]
    assert mp.Assistant(tool_calls=[]).parts == ()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: mp.Assistant(tool_calls="zoom"), "must be a list"),
        (lambda: mp.Assistant(tool_calls={"id": "1", "name": "f"}), "must be a list"),
        (lambda: mp.Assistant(tool_calls=[3]), "must be a dict"),
        (lambda: mp.Assistant(tool_calls=[{"function": "f"}]), "function must be a dict"),
        (lambda: mp.Assistant("x", parts=["y"], tool_calls=[]), "not both"),
        (lambda: mp.Assistant(tool_calls=[{"id": "1"}]), "name"),
    ],
)
def test_assistant_tool_calls_argument_refuses_bad_values(
    make: Callable[[], object], message: str
) -> None:
    """A malformed `tool_calls=` is InvalidMedia saying what was expected."""
    with pytest.raises(mp.InvalidMedia, match=message):
        make()


def test_system_developer_role_is_kept() -> None:
    """System(role="developer") keeps the role, through to_dict and message_from_dict."""
    message = mp.System("Use the style guide.", role="developer", name="lead")
    assert (message.role, message.name) == ("developer", "lead")
    out = message.to_dict()
    assert out["role"] == "developer" and out["name"] == "lead"
    assert mp.message_from_dict(out) == message
    assert mp.message_from_dict({"role": "Developer", "content": "x"}).role == "developer"
    assert mp.System("x").role == "system"
    with pytest.raises(mp.InvalidMedia, match="role"):
        mp.System("x", role="user")
    with pytest.raises(mp.InvalidMedia, match="text only"):
        mp.System(parts=[mp.ReasoningPart(text="x")])


@pytest.mark.parametrize("cls", [mp.User, mp.Assistant, mp.System])
def test_message_name_is_kept(cls: type[mp.User]) -> None:
    """User, Assistant and System carry a participant's name, through to_dict."""
    message = cls("hi", name="alice")
    assert message.name == "alice"
    assert mp.message_from_dict(json.loads(json.dumps(message.to_dict()))) == message
    assert cls("hi").name is None and "name" not in cls("hi").to_dict()


@pytest.mark.parametrize(
    ("fields", "is_error"),
    [
        ({}, False),
        ({"error": "boom"}, True),
        ({"error": "boom", "error_type": "Timeout"}, True),
        ({"is_error": True}, True),
        ({"error": "flagged by us, not by the API", "is_error": False}, False),
    ],
)
def test_tool_is_error_implied_by_error(fields: dict[str, Any], is_error: bool) -> None:
    """`error=` implies is_error unless it is given; the flag survives to_dict either way."""
    message = mp.Tool("result", tool_call_id="c1", **fields)
    assert message.is_error is is_error
    back = mp.message_from_dict(json.loads(json.dumps(message.to_dict())))
    assert isinstance(back, mp.Tool) and back.is_error is is_error and back == message


def test_usage_new_fields_total_and_sum() -> None:
    """Usage holds cache and reasoning tokens (parts of input/output) and adds field by field."""
    one = mp.Usage(input_tokens=100, output_tokens=20, cache_read_tokens=60, cache_write_tokens=30)
    two = mp.Usage(input_tokens=5, output_tokens=50, reasoning_tokens=40)
    assert (one.total_tokens, two.total_tokens) == (120, 55)
    assert one + two == mp.Usage(
        input_tokens=105,
        output_tokens=70,
        cache_read_tokens=60,
        cache_write_tokens=30,
        reasoning_tokens=40,
    )
    assert one + mp.Usage() == one
    assert mp.Usage().model_dump() == dict.fromkeys(
        [
            "input_tokens",
            "output_tokens",
            "cache_read_tokens",
            "cache_write_tokens",
            "reasoning_tokens",
        ],
        0,
    )
    with pytest.raises(TypeError):
        one + 1  # type: ignore[operator]


@pytest.mark.parametrize(
    "fields",
    [
        {"cache_read_tokens": -1},
        {"reasoning_tokens": 1.5},
        {"cache_write_tokens": "many"},
        {"cached_tokens": 3},
    ],
)
def test_usage_refuses_bad_counts(fields: dict[str, object]) -> None:
    """A negative, fractional or unknown count is InvalidMedia."""
    with pytest.raises(mp.InvalidMedia, match="Usage"):
        mp.Usage(**fields)


@pytest.mark.parametrize(
    "reason",
    ["end", "max_tokens", "tool_call", "stop_sequence", "content_filter", "refusal", "other"],
)
def test_assistant_stop_reason_values(reason: str) -> None:
    """Each stop reason of the common vocabulary is accepted, beside the API's own value."""
    message = mp.Assistant("x", stop_reason=reason, stop_reason_raw="whatever_the_api_said")
    assert message.stop_reason == reason
    assert mp.message_from_dict(message.to_dict()) == message


@pytest.mark.parametrize("reason", ["end_turn", "STOP", "", 1, "length"])
def test_assistant_stop_reason_is_validated(reason: object) -> None:
    """A stop reason outside the vocabulary is InvalidMedia (the raw value goes elsewhere)."""
    with pytest.raises(mp.InvalidMedia, match="stop_reason"):
        mp.Assistant("x", stop_reason=reason)
    with pytest.raises(mp.InvalidMedia, match="stop_reason"):
        mp.message_from_dict({"v": 2, "role": "assistant", "parts": [], "stop_reason": reason})


@pytest.mark.parametrize(
    "special",
    [
        mp.TextPart("cited", citations=[mp.Citation(cited_text="c")]),
        mp.TextPart("cached", cache="5m"),
        mp.TextPart("hinted", native={"anthropic": {"x": 1}}),
    ],
    ids=["citations", "cache", "native"],
)
def test_merge_runs_keeps_special_text_parts_apart(special: mp.TextPart) -> None:
    """Text with citations, a cache breakpoint or native hints is never joined to its
    neighbours; plain text around it still is."""
    merged = mp.merge_runs(
        [mp.Assistant(["a", "b"]), mp.Assistant([special]), mp.Assistant(["c"]), mp.Assistant("d")]
    )
    (message,) = merged
    assert message.parts == (mp.TextPart("a"), mp.TextPart("b"), special, mp.TextPart("c\n\nd"))


def test_merge_runs_assistant_fields() -> None:
    """Merged assistant turns keep every part in order; the later model and stop reason win."""
    call = mp.ToolCall(id="1", name="f")
    first = mp.Assistant(
        [mp.ReasoningPart(text="r")], model="m1", stop_reason="end", stop_reason_raw="stop"
    )
    second = mp.Assistant(
        parts=[call], model="m2", stop_reason="tool_call", usage=mp.Usage(reasoning_tokens=2)
    )
    (merged,) = mp.merge_runs([first, second])
    assert isinstance(merged, mp.Assistant)
    assert merged.parts == (mp.ReasoningPart(text="r"), call)
    assert (merged.model, merged.stop_reason, merged.stop_reason_raw) == ("m2", "tool_call", "stop")
    assert merged.usage == mp.Usage(reasoning_tokens=2)


def test_to_dict_writes_version_2_and_only_what_is_set() -> None:
    """to_dict() writes "v": 2 first, the role, fields not at their default, then the parts."""
    assert mp.User("hi").to_dict() == {
        "v": 2,
        "role": "user",
        "parts": [{"kind": "text", "text": "hi"}],
    }
    out = mp.Assistant(
        "ok",
        id="msg_1",
        model="m",
        stop_reason="end",
        usage=mp.Usage(input_tokens=1),
        native={"anthropic": {"b": b"\x00"}},
    ).to_dict()
    assert list(out) == ["v", "role", "id", "native", "usage", "model", "stop_reason", "parts"]
    assert out["native"] == {"anthropic": {"b": {"$bytes": "AA=="}}}
    assert json.loads(json.dumps(out)) == out


# Dicts exactly as the previous release (format version 1, no "v") wrote them.
V1_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEANl9ngAAAAABJRU5ErkJggg=="
)
V1_DICTS: list[tuple[dict[str, object], mp.Message]] = [
    (
        {"role": "system", "id": "s1", "parts": [{"kind": "text", "text": "Be brief."}]},
        mp.System("Be brief.", id="s1"),
    ),
    (
        {
            "role": "user",
            "parts": [
                {"kind": "text", "text": "Describe"},
                {"kind": "image", "media_type": "image/png", "data": V1_PNG, "detail": "low"},
                {
                    "kind": "file",
                    "media_type": "application/pdf",
                    "filename": "document.pdf",
                    "url": "https://media.example/document.pdf",
                },
            ],
        },
        mp.User(
            [
                "Describe",
                mp.part({"data": V1_PNG}, detail="low"),
                mp.part("https://media.example/document.pdf", media_type="application/pdf"),
            ]
        ),
    ),
    (
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "call_1", "name": "zoom", "arguments": '{"x":  1}'},
                {"id": "call_2", "name": "crop", "arguments": "{}"},
            ],
            "usage": {"input_tokens": 10, "output_tokens": 3},
            "output": {"answer": 42},
            "parts": [{"kind": "text", "text": "Zooming."}],
        },
        mp.Assistant(
            parts=[
                "Zooming.",
                mp.ToolCall(id="call_1", name="zoom", arguments='{"x":  1}'),
                mp.ToolCall(id="call_2", name="crop"),
            ],
            usage=mp.Usage(input_tokens=10, output_tokens=3),
            output={"answer": 42},
        ),
    ),
    (
        {
            "role": "tool",
            "tool_call_id": "call_1",
            "name": "zoom",
            "error": "partial",
            "error_type": "Timeout",
            "parts": [{"kind": "text", "text": "done"}],
        },
        mp.Tool("done", tool_call_id="call_1", name="zoom", error="partial", error_type="Timeout"),
    ),
    (
        {
            "role": "assistant",
            "parts": [],
            "tool_calls": [{"id": "c", "name": "f", "arguments": "{}"}],
        },
        mp.Assistant(tool_calls=[mp.ToolCall(id="c", name="f")]),
    ),
]


@pytest.mark.parametrize(("value", "expected"), V1_DICTS, ids=lambda v: str(getattr(v, "role", "")))
def test_message_from_dict_reads_version_1(value: dict[str, object], expected: mp.Message) -> None:
    """A version 1 dict loads: its tool_calls list follows the content, as v1 rendered it."""
    message = mp.message_from_dict(json.loads(json.dumps(value)))
    assert message == expected
    assert mp.message_from_dict({**value, "v": 1}) == expected
    upgraded = message.to_dict()
    assert upgraded["v"] == 2 and "tool_calls" not in upgraded
    assert mp.message_from_dict(upgraded) == expected


def test_message_from_dict_version_1_tool_is_error() -> None:
    """A v1 tool dict with an error reads as is_error (v1 had no flag; error implied it)."""
    tool = mp.message_from_dict(V1_DICTS[3][0])
    assert isinstance(tool, mp.Tool) and tool.is_error


@pytest.mark.parametrize("version", [3, 99, 0, -1, "2", 2.0, True, None, [2], {"v": 2}])
def test_message_from_dict_refuses_unknown_versions(version: object) -> None:
    """A version this release does not write or read (a newer one, or not an int) is refused."""
    with pytest.raises(mp.InvalidMedia, match="version"):
        mp.message_from_dict({"v": version, "role": "user", "parts": []})


def test_message_from_dict_does_not_mutate_its_input(testdata: Path) -> None:
    """Reading a dict leaves it as it was (nested parts, native hints and tool calls too)."""
    message = mp.Assistant(
        parts=[
            mp.TextPart("t", citations=[mp.Citation(data={"k": [1]})]),
            mp.ProviderPart(provider="bedrock", data={"b": b"\x01", "l": [{"x": 1}]}),
            mp.ToolCall(id="1", name="f"),
        ],
        native={"openai": {"k": [1]}},
        usage=mp.Usage(input_tokens=2),
    )
    value = json.loads(json.dumps(message.to_dict()))
    before = copy.deepcopy(value)
    back = mp.message_from_dict(value)
    assert value == before
    assert back == message
    v1 = copy.deepcopy(V1_DICTS[2][0])
    mp.message_from_dict(v1)
    assert v1 == V1_DICTS[2][0]


def test_merge_runs_keeps_messages_whose_names_differ() -> None:
    """Two users with different names stay two messages: merging would lose the second name."""
    merged = mp.merge_runs([mp.User("a", name="alice"), mp.User("b", name="bob")])
    assert [m.name for m in merged] == ["alice", "bob"]
    assert len(mp.merge_runs([mp.User("a", name="x"), mp.User("b", name="x")])) == 1


def test_message_from_dict_refuses_keys_it_would_drop() -> None:
    """A typed content part with fields this reader does not keep is refused, not trimmed."""
    cached = {"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}
    with pytest.raises(mp.InvalidMedia, match=r"cache_control.*messages_from"):
        mp.message_from_dict({"role": "user", "content": [cached]})
    by_id = {"type": "file", "file": {"file_id": "file-1"}}
    with pytest.raises(mp.InvalidMedia, match=r"file\.file_id"):
        mp.message_from_dict({"role": "user", "content": [by_id]})


def test_message_from_dict_takes_empty_fields_it_does_not_keep() -> None:
    """An empty value (`"annotations": []`, as SDK dumps write) loses nothing and is taken."""
    made = mp.message_from_dict(
        {"role": "assistant", "content": [{"type": "output_text", "text": "hi", "annotations": []}]}
    )
    assert made.content == "hi"


def test_merge_runs_merges_a_message_without_id_either_way() -> None:
    """An id on either side is kept; two different ids merge too, keeping the first."""
    for pair in ([mp.User("a"), mp.User("b", id="m2")], [mp.User("a", id="m1"), mp.User("b")]):
        (merged,) = mp.merge_runs(pair)
        assert merged.id in ("m1", "m2")
    (merged,) = mp.merge_runs([mp.User("a", id="m1"), mp.User("b", id="m2")])
    assert merged.id == "m1"


MESSAGE_CLASSES = [mp.User, mp.Assistant, mp.Tool]


@pytest.mark.parametrize("cls", MESSAGE_CLASSES, ids=lambda c: c.__name__)
def test_message_with_several_contents_says_to_use_a_list(cls: type[Any]) -> None:
    """`mp.User("look", part)` raises InvalidMedia saying to put them in one list (a System's
    advice, texts only, is tested below)."""
    with pytest.raises(mp.InvalidMedia) as caught:
        cls("look", "at this")
    message = str(caught.value)
    assert message.startswith(f"{cls.__name__} takes one content and keyword fields (")
    assert f"mp.{cls.__name__}(['Describe this', part])" in message


@pytest.mark.parametrize("cls", MESSAGE_CLASSES, ids=lambda c: c.__name__)
def test_message_content_keyword_says_to_pass_it_first(cls: type[Any]) -> None:
    """`mp.User(content="hi")` says content is the first argument, not a pydantic error."""
    with pytest.raises(mp.InvalidMedia, match=r"takes its content as the first argument"):
        cls(content="hi")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: mp.User(123), "message content must be text, media or a list of them, got int"),
        (lambda: mp.User("x", name=5), "name: Input should be a valid string"),
        (lambda: mp.Assistant("x", stop_reason="sleepy"), "stop_reason: Input should be"),
        (lambda: mp.Tool("x", is_error="yes"), "is_error: Input should be a valid boolean"),
    ],
)
def test_message_field_of_wrong_type_is_invalid_media(
    make: Callable[[], object], message: str
) -> None:
    """A wrong-typed message field raises InvalidMedia (a ValueError), never a pydantic error."""
    with pytest.raises(mp.InvalidMedia, match=re.escape(message)) as caught:
        make()
    assert isinstance(caught.value, ValueError)


class _MyUser(mp.User):
    """A caller's own subclass, which mediaparts does not export."""


@pytest.mark.parametrize(
    ("cls", "advice"),
    [
        (mp.System, "mp.System('one text') or mp.System(['one', 'two'])"),
        (mp.User, "mp.User(['Describe this', part])"),
        (_MyUser, "_MyUser(['Describe this', part])"),
    ],
    ids=["system", "user", "subclass"],
)
def test_message_called_with_two_contents_says_what_to_pass(cls: type[Any], advice: str) -> None:
    """Two positional contents are refused with advice the class accepts: texts for a System,
    text and parts for the others; a caller's subclass is not called mp.<name>."""
    with pytest.raises(mp.InvalidMedia) as caught:
        cls("a", "b")
    assert str(caught.value).endswith(advice)
    assert "mp._MyUser" not in str(caught.value)


# -- the application's metadata ------------------------------------------------------------

METADATA_CLASSES = [mp.System, mp.User, mp.Assistant, mp.Tool]


@pytest.mark.parametrize("cls", METADATA_CLASSES, ids=lambda c: c.__name__)
def test_message_metadata_is_a_deep_copy(cls: type[Any]) -> None:
    """Every message keeps metadata as JSON data that shares nothing with the caller's dict."""
    given: dict[str, Any] = {"trace": {"ids": ("t1", "t2")}, "rating": 4.5, "ok": None}
    message = cls("hello", metadata=given)
    given["trace"]["ids"] = ["changed"]
    given["rating"] = 0
    assert message.metadata == {"trace": {"ids": ["t1", "t2"]}, "rating": 4.5, "ok": None}
    assert cls("hello").metadata == {}


@pytest.mark.parametrize(
    ("metadata", "problem"),
    [
        (None, "metadata must be a dict, got NoneType"),
        (["a"], "metadata must be a dict, got list"),
        ("trace", "metadata must be a dict, got str"),
        ({"when": object()}, "metadata (it is kept in to_dict()) must be JSON data"),
        ({"raw": b"\x00"}, "must be JSON data"),
        ({"score": float("nan")}, "must be JSON data"),
        ({1: "one"}, "metadata keys must be strings (JSON's are), got 1"),
        ({"deep": [{2: "x"}]}, "metadata keys must be strings (JSON's are), got 2"),
    ],
)
@pytest.mark.parametrize("cls", METADATA_CLASSES, ids=lambda c: c.__name__)
def test_message_metadata_refuses_what_is_not_json(
    cls: type[Any], metadata: object, problem: str
) -> None:
    """Metadata that is not a dict of JSON data is InvalidMedia, saying what was wrong."""
    with pytest.raises(mp.InvalidMedia, match=re.escape(problem)):
        cls("hello", metadata=metadata)


def test_part_metadata_refuses_keys_that_are_not_strings() -> None:
    """A media part's metadata follows the same rule: JSON would turn 1 into "1" silently."""
    with pytest.raises(mp.InvalidMedia, match="metadata keys must be strings"):
        mp.part(b"%PDF-1.4\n", metadata={"pages": {1: "cover"}})


def test_message_metadata_round_trips_and_is_written_before_parts() -> None:
    """to_dict() writes metadata (a copy) just before parts; message_from_dict reads it back."""
    message = mp.Assistant("Done.", metadata={"run": "r1", "steps": [1, 2]}, model="m")
    out = message.to_dict()
    assert list(out) == ["v", "role", "model", "metadata", "parts"]
    out["metadata"]["steps"].append(3)
    assert message.metadata == {"run": "r1", "steps": [1, 2]}
    back = mp.message_from_dict(json.loads(json.dumps(message.to_dict())))
    assert back == message and back.metadata == {"run": "r1", "steps": [1, 2]}
    assert "metadata" not in mp.User("no metadata").to_dict()


def test_message_metadata_is_read_from_an_openai_style_dict() -> None:
    """A `{"role", "content", "metadata"}` dict keeps its metadata."""
    made = mp.message_from_dict({"role": "user", "content": "hi", "metadata": {"from": "form"}})
    assert made.metadata == {"from": "form"}


def test_message_metadata_repr_is_last_and_bounded() -> None:
    """The repr shows metadata after the message's own fields, long values cut."""
    message = mp.User("hi", name="alice", metadata={"note": "x" * 500})
    shown = repr(message)
    assert shown.endswith(f"name='alice', metadata={{'note': '{'x' * 80}'…(+420 chars)}})")
    assert "metadata" not in repr(mp.User("hi"))


def test_message_metadata_makes_messages_differ() -> None:
    """Two messages that differ only in metadata are not equal."""
    assert mp.User("hi", metadata={"a": 1}) != mp.User("hi", metadata={"a": 2})
    assert mp.User("hi", metadata={"a": 1}) == mp.User("hi", metadata={"a": 1})


def test_merge_runs_keeps_messages_whose_metadata_differs() -> None:
    """Two users with different metadata stay two: merging would lose one's metadata."""
    first, second = mp.User("a", metadata={"n": 1}), mp.User("b", metadata={"n": 2})
    assert mp.merge_runs([first, second]) == [first, second]
    (merged,) = mp.merge_runs([mp.User("a", metadata={"n": 1}), mp.User("b", metadata={"n": 1})])
    assert (merged.content, merged.metadata) == ("a\n\nb", {"n": 1})


def _secret(name: str) -> dict[str, Any]:
    return {f"key-{name}": f"secret-{name}", "nested": {"deep": [f"secret-{name}-deep"]}}


def _conversation(testdata: Path, tag: Callable[[str], dict[str, Any]]) -> list[mp.Message]:
    """A conversation whose every message, and every part that takes metadata, has `tag(name)`."""
    png = (testdata / "palette.png").read_bytes()
    return [
        mp.System("Be brief.", metadata=tag("system")),
        mp.User(
            [
                mp.TextPart("What is this?", metadata=tag("text")),
                mp.part(png, metadata=tag("image")),
            ],
            metadata=tag("user"),
        ),
        mp.Assistant(
            parts=[mp.TextPart("Looking.", metadata=tag("said"))],
            tool_calls=[
                mp.ToolCall(id="call_1", name="zoom", arguments='{"x": 1}', metadata=tag("call"))
            ],
            metadata=tag("assistant"),
        ),
        mp.Tool("A palette.", tool_call_id="call_1", name="zoom", metadata=tag("tool")),
        mp.Assistant("A palette of colours.", metadata=tag("answer")),
        mp.User("Thanks.", metadata=tag("last")),
    ]


@pytest.mark.parametrize("provider", mp.providers.names())
def test_message_metadata_is_never_sent(testdata: Path, provider: str) -> None:
    """Rendering for any provider sends none of the messages' or parts' metadata, keys or values."""
    payload = mp.render(_conversation(testdata, _secret), provider)
    sent = json.dumps(payload, default=repr)
    assert "Thanks." in sent  # the conversation is there...
    assert "secret-" not in sent and "key-" not in sent and "nested" not in sent  # ...not this
    assert payload == mp.render(_conversation(testdata, lambda _: {}), provider)


# -- text and reasoning ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "text"),
    [
        (mp.System("Be brief."), "Be brief."),
        (mp.User(["Compare", mp.part(b"%PDF-1.4\n"), "these"]), "Compare\n\nthese"),
        (mp.Assistant(tool_calls=[mp.ToolCall(id="1", name="f")]), ""),
        (
            mp.Assistant(
                parts=[mp.ReasoningPart(text="hmm"), "One.", mp.RefusalPart("No."), "Two."]
            ),
            "One.\n\nTwo.",
        ),
        (mp.Tool("42", tool_call_id="1"), "42"),
    ],
)
def test_message_text_joins_the_text_parts(message: mp.Message, text: str) -> None:
    """Every message's `text` is its text parts joined with a blank line, and `content` too."""
    assert message.text == text
    assert message.content == text


@pytest.mark.parametrize(
    ("parts", "reasoning"),
    [
        (
            [mp.ReasoningPart(text="First."), "Answer.", mp.ReasoningPart(text="Then.")],
            "First.\n\nThen.",
        ),
        (
            [mp.ReasoningPart(summary=["Looked up.", "Compared."], data="enc")],
            "Looked up.\n\nCompared.",
        ),
        ([mp.ReasoningPart(text="Full.", summary=["Short."])], "Full."),
        ([mp.ReasoningPart(data=b"\x00redacted", provider="anthropic", signature="s")], ""),
        ([mp.ReasoningPart(text="")], ""),
        (["No reasoning."], ""),
    ],
)
def test_assistant_reasoning_joins_readable_reasoning(parts: list[Any], reasoning: str) -> None:
    """`reasoning` is each reasoning part's text, else its summary; opaque data adds nothing."""
    message = mp.Assistant(parts=parts)
    assert message.reasoning == reasoning
    assert reasoning == "" or reasoning not in message.text


def test_assistant_views_read_a_provider_response() -> None:
    """text, reasoning and tool_calls read an Anthropic reply with thinking and a tool call."""
    reply = mp.message_from_response(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [
                {"type": "thinking", "thinking": "Need the weather.", "signature": "sig"},
                {"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "tu1", "name": "weather", "input": {"city": "Paris"}},
            ],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 5, "output_tokens": 7},
        },
        "anthropic",
    )
    assert isinstance(reply, mp.Assistant)
    assert (reply.text, reply.reasoning) == ("Checking.", "Need the weather.")
    assert [(c.id, c.name) for c in reply.tool_calls] == [("tu1", "weather")]
