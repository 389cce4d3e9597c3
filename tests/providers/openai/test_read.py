"""Reading Chat Completions request payloads: every block, every spelling, hostile input."""

from __future__ import annotations

import base64
import copy
import json
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers import openai
from tests._builders import TESTDATA

CORPUS = Path(__file__).resolve().parents[2] / "conversations" / "corpus" / "openai"
REQUESTS = sorted((CORPUS / "requests").glob("*.json"))
PNG = base64.b64encode((TESTDATA / "palette.png").read_bytes()).decode()
PDF = base64.b64encode((TESTDATA / "document.pdf").read_bytes()).decode()


def _load(path: Path) -> dict[str, Any]:
    payload: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return payload


def _user(*content: dict[str, Any]) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": list(content)}]}


def _round_trip(payload: dict[str, Any]) -> dict[str, Any]:
    messages = mp.messages_from(payload, "openai")
    return mp.render(messages, "openai", urls="pass", on_loss="error")


@pytest.mark.parametrize("path", REQUESTS, ids=[p.stem for p in REQUESTS])
def test_read_corpus_renders_back_identical(path: Path) -> None:
    """Every corpus payload read and rendered again is the payload's `messages`, unchanged."""
    payload = _load(path)
    assert _round_trip(payload) == {"messages": payload["messages"]}


@pytest.mark.parametrize("path", REQUESTS, ids=[p.stem for p in REQUESTS])
def test_read_corpus_survives_to_dict(path: Path) -> None:
    """The messages read keep every hint through `to_dict()` and JSON."""
    messages = mp.messages_from(_load(path), "openai")
    again = [mp.message_from_dict(json.loads(json.dumps(m.to_dict()))) for m in messages]
    assert again == messages


@pytest.mark.parametrize("path", REQUESTS, ids=[p.stem for p in REQUESTS])
def test_read_corpus_payloads_pass_check(path: Path) -> None:
    """The corpus payloads are within OpenAI's limits, as `mp.check` reads them."""
    assert mp.check({"messages": _load(path)["messages"]}, "openai") == []


def test_read_takes_the_message_list_alone() -> None:
    """A bare `messages` list reads like the keyword arguments holding it."""
    payload = _load(CORPUS / "requests" / "01_text_turns.json")
    assert openai.PROVIDER.read(payload["messages"]) == openai.PROVIDER.read(payload)


def test_read_leaves_the_payload_unchanged() -> None:
    """Reading does not mutate the caller's payload."""
    payload = _load(CORPUS / "requests" / "09_refusal_and_names.json")
    before = copy.deepcopy(payload)
    openai.PROVIDER.read(payload)
    assert payload == before


@pytest.mark.parametrize(
    ("message", "role", "name"),
    [
        ({"role": "system", "content": "Be brief."}, "system", None),
        ({"role": "developer", "content": "Be brief."}, "developer", None),
        ({"role": "developer", "content": "Be brief.", "name": "ops"}, "developer", "ops"),
    ],
)
def test_read_system_roles_are_kept(message: dict[str, Any], role: str, name: str | None) -> None:
    """`system` and `developer` both read as `System`, the role and name kept."""
    [made] = openai.PROVIDER.read([message])
    assert isinstance(made, mp.System)
    assert (made.role, made.name, made.content) == (role, name, "Be brief.")


def test_read_user_name_and_text_parts() -> None:
    """A user's name is kept; a list of text parts reads as text parts, in order."""
    [made] = openai.PROVIDER.read(
        [
            {
                "role": "user",
                "name": "ada",
                "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
            }
        ]
    )
    assert isinstance(made, mp.User)
    assert made.name == "ada"
    assert [p.text for p in made.parts if isinstance(p, mp.TextPart)] == ["a", "b"]


@pytest.mark.parametrize(
    ("block", "kind", "check"),
    [
        (
            {
                "type": "image_url",
                "image_url": {"url": f"data:image/png;base64,{PNG}", "detail": "low"},
            },
            "image",
            lambda p: p.media_type == "image/png" and p.detail == "low" and p.url is None,
        ),
        (
            {"type": "image_url", "image_url": {"url": "https://media.example/photo.jpg"}},
            "image",
            lambda p: p.url == "https://media.example/photo.jpg" and p.inline is None,
        ),
        (
            {
                "type": "input_audio",
                "input_audio": {
                    "data": base64.b64encode((TESTDATA / "tone.wav").read_bytes()).decode(),
                    "format": "wav",
                },
            },
            "audio",
            lambda p: p.media_type == "audio/wav",
        ),
        (
            {
                "type": "file",
                "file": {"file_data": f"data:application/pdf;base64,{PDF}", "filename": "a.pdf"},
            },
            "file",
            lambda p: p.media_type == "application/pdf" and p.filename == "a.pdf",
        ),
        (
            {"type": "file", "file": {"file_data": PDF}},
            "file",
            lambda p: (
                p.media_type == "application/pdf"
                and p.native == {"openai": {"filename": False, "file_data": "base64"}}
            ),
        ),
        (
            {"type": "file", "file": {"file_id": "file-abc", "filename": "r.pdf"}},
            "file",
            lambda p: (p.file_id, p.file_provider, p.filename) == ("file-abc", "openai", "r.pdf"),
        ),
    ],
    ids=["image-inline", "image-url", "audio", "pdf", "pdf-bare-base64", "file-id"],
)
def test_read_media_parts(block: dict[str, Any], kind: str, check: Any) -> None:
    """Each media content part reads as a media part of its kind, nothing fetched."""
    [made] = openai.PROVIDER.read(_user(block))
    [part] = made.parts
    assert isinstance(part, mp.MediaPart)
    assert part.kind == kind
    assert check(part)


@pytest.mark.parametrize(
    ("breakpoint", "cache", "native"),
    [
        ({"mode": "explicit"}, "5m", {}),
        (
            {"mode": "explicit", "ttl": "30m"},
            "5m",
            {"openai": {"breakpoint": {"mode": "explicit", "ttl": "30m"}}},
        ),
        (
            {"mode": "explicit", "ttl": "30m", "future": 1},
            "5m",
            {"openai": {"breakpoint": {"mode": "explicit", "ttl": "30m", "future": 1}}},
        ),
        ({"mode": "explicit", "ttl": "12h"}, "1h", {}),
    ],
)
def test_read_cache_breakpoints(
    breakpoint: dict[str, Any], cache: str, native: dict[str, Any]
) -> None:
    """A `prompt_cache_breakpoint` reads as the part's cache; an explicit 30m TTL as a hint."""
    block = {"type": "text", "text": "long prefix", "prompt_cache_breakpoint": breakpoint}
    [made] = openai.PROVIDER.read(_user(block))
    [part] = made.parts
    assert (part.cache, part.native) == (cache, native)


def test_read_assistant_turn_in_order() -> None:
    """An assistant turn reads as content, refusal, audio, then its calls, each a part."""
    [made] = openai.PROVIDER.read(
        [
            {
                "role": "assistant",
                "content": "Checking.",
                "refusal": "Not that part.",
                "audio": {"id": "audio_1"},
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "f", "arguments": "{}"},
                    },
                    {
                        "id": "call_2",
                        "type": "custom",
                        "custom": {"name": "sql", "input": "SELECT 1"},
                    },
                ],
            }
        ]
    )
    assert isinstance(made, mp.Assistant)
    kinds = [p.kind for p in made.parts]
    assert kinds == ["text", "refusal", "provider", "tool_call", "tool_call"]
    audio = made.parts[2]
    assert isinstance(audio, mp.ProviderPart)
    assert audio.data == {"audio": {"id": "audio_1"}}
    custom = made.tool_calls[1]
    assert (custom.id, custom.name, custom.parsed_arguments()) == (
        "call_2",
        "sql",
        {"input": "SELECT 1"},
    )


def test_read_legacy_function_messages() -> None:
    """A legacy `function_call` reads as a ToolCall without id; a `function` message as a Tool."""
    call, result = openai.PROVIDER.read(
        [
            {
                "role": "assistant",
                "content": None,
                "function_call": {"name": "f", "arguments": '{"a": 1}'},
            },
            {"role": "function", "name": "f", "content": "done"},
        ]
    )
    assert isinstance(call, mp.Assistant) and isinstance(result, mp.Tool)
    assert (call.tool_calls[0].id, call.tool_calls[0].name) == (None, "f")
    assert (result.tool_call_id, result.name, result.content) == (None, "f", "done")


def test_read_unknown_blocks_are_kept_verbatim() -> None:
    """A content part or tool call of a type we do not model becomes a ProviderPart as written."""
    block = {"type": "input_video", "input_video": {"url": "https://media.example/clip.mp4"}}
    call = {"id": "call_9", "type": "mcp", "mcp": {"server": "x"}}
    user, assistant = openai.PROVIDER.read(
        [{"role": "user", "content": [block]}, {"role": "assistant", "tool_calls": [call]}]
    )
    assert user.parts == (mp.ProviderPart(provider="openai", data=block),)
    [kept] = assistant.parts
    assert isinstance(kept, mp.ProviderPart) and kept.data == call
    assert mp.render([user, assistant], "openai")["messages"] == [
        {"role": "user", "content": [block]},
        {"role": "assistant", "tool_calls": [call]},
    ]


@pytest.mark.parametrize(
    "message",
    [
        {"role": "assistant", "content": "Hi", "refusal": None, "x_trace": {"id": 7}},
        {"role": "assistant", "content": "Hi", "tool_calls": []},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "assistant", "content": None, "audio": None, "refusal": "No."},
        {"role": "user", "content": []},
        {"role": "user", "content": ""},
        {"role": "tool", "tool_call_id": "c", "content": [{"type": "text", "text": "ok"}]},
        {"role": "tool", "tool_call_id": "c", "content": "ok", "name": "f"},
        {"role": "function", "name": "f", "content": None},
        {"role": "tool", "tool_call_id": "c", "content": [{"type": "output_json", "json": {}}]},
        {"role": "user", "content": [{"type": "text", "text": "x", "x_lang": "en"}]},
        {"role": "user", "content": [{"type": "file", "file": {"file_id": "file-1", "x": 1}}]},
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": "https://media.example/a.png", "x": 2}}
            ],
        },
    ],
)
def test_read_spellings_render_back_as_written(message: dict[str, Any]) -> None:
    """Keys the model does not hold, nulls and content shapes render back as written."""
    assert _round_trip({"messages": [message]}) == {"messages": [message]}


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ("hello", "messages"),
        ({"model": "gpt-5"}, "messages"),
        ({"messages": {"role": "user"}}, "messages"),
        ({"messages": ["hi"]}, r"messages\[0\]"),
        ({"messages": [{"content": "hi"}]}, r"messages\[0\]\.role"),
        ({"messages": [{"role": "robot", "content": "hi"}]}, r"messages\[0\]\.role"),
        ({"messages": [{"role": "user", "content": 7}]}, r"messages\[0\]\.content"),
        ({"messages": [{"role": "user", "content": [7]}]}, r"messages\[0\]\.content\[0\]"),
        ({"messages": [{"role": "user", "name": 3, "content": "x"}]}, r"messages\[0\]\.name"),
        (_user({"type": "text", "text": None}), r"content\[0\]\.text"),
        (_user({"type": "image_url", "image_url": "https://x"}), r"content\[0\]\.image_url"),
        (_user({"type": "image_url", "image_url": {"url": 5}}), r"content\[0\]\.image_url\.url"),
        (
            _user({"type": "image_url", "image_url": {"url": "data:image/png;base64,@@"}}),
            r"image_url\.url",
        ),
        (
            _user({"type": "input_audio", "input_audio": {"data": "AAAA", "format": "ogg"}}),
            r"input_audio\.format",
        ),
        (_user({"type": "file", "file": {"file_data": 1}}), r"file\.file_data"),
        (_user({"type": "file", "file": {}}), r"content\[0\]\.file"),
        (
            _user({"type": "image_url", "image_url": {"url": "https://x/a.png", "detail": "max"}}),
            r"image_url\.detail: expected one of auto, low, high, original",
        ),
        (
            _user({"type": "text", "text": "x", "prompt_cache_breakpoint": {"mode": "auto"}}),
            "prompt_cache_breakpoint",
        ),
        (
            _user(
                {
                    "type": "text",
                    "text": "x",
                    "prompt_cache_breakpoint": {"mode": "explicit", "ttl": "1d"},
                }
            ),
            r"prompt_cache_breakpoint\.ttl",
        ),
        (
            _user(
                {
                    "type": "text",
                    "text": "x",
                    "prompt_cache_breakpoint": {"mode": "explicit", "ttl": []},
                }
            ),
            r"prompt_cache_breakpoint\.ttl",
        ),
        (
            {
                "messages": [
                    {
                        "role": "system",
                        "content": [{"type": "image_url", "image_url": {"url": "https://x/a.png"}}],
                    }
                ]
            },
            r"messages\[0\]\.content\[0\]",
        ),
        (
            {"messages": [{"role": "assistant", "tool_calls": {"id": 1}}]},
            r"messages\[0\]\.tool_calls",
        ),
        (
            {
                "messages": [
                    {
                        "role": "assistant",
                        "tool_calls": [
                            {"type": "function", "function": {"name": "f", "arguments": "{}"}}
                        ],
                    }
                ]
            },
            r"tool_calls\[0\]\.id",
        ),
        (
            {
                "messages": [
                    {
                        "role": "assistant",
                        "tool_calls": [
                            {
                                "id": "c",
                                "type": "function",
                                "function": {"name": "f", "arguments": {}},
                            }
                        ],
                    }
                ]
            },
            r"tool_calls\[0\]\.function\.arguments",
        ),
        ({"messages": [{"role": "assistant", "audio": {"id": 5}}]}, r"messages\[0\]\.audio\.id"),
        ({"messages": [{"role": "assistant", "refusal": ["no"]}]}, r"messages\[0\]\.refusal"),
        ({"messages": [{"role": "tool", "content": "x"}]}, r"messages\[0\]\.tool_call_id"),
        ({"messages": [{"role": "function", "content": "x"}]}, r"messages\[0\]\.name"),
        (_user({"type": "input_video", "video": {1, 2}}), r"^messages\[0\]: .*JSON"),
        ({"messages": [{"role": "user", "content": "x", "x_id": object()}]}, r"^messages\[0\]: "),
    ],
)
def test_read_hostile_payload_names_the_path(payload: Any, path: str) -> None:
    """Malformed input raises InvalidMedia naming the JSON path, never a bare error."""
    with pytest.raises(mp.InvalidMedia, match=path):
        mp.messages_from(payload, "openai")


def test_read_never_reads_a_local_path() -> None:
    """An image URL that is a local path is refused, not read."""
    payload = _user({"type": "image_url", "image_url": {"url": str(TESTDATA / "photo.jpg")}})
    with pytest.raises(mp.MediaError):
        mp.messages_from(payload, "openai")
