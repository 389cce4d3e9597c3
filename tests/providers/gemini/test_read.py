"""Reading Gemini request bodies: every Part kind, both spellings, and hostile input."""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers import gemini
from tests.providers.gemini._payloads import PNG, REQUESTS, SIGNATURE, load, model, user


def _parts(payload: dict[str, Any], index: int = -1) -> tuple[Any, ...]:
    return gemini.PROVIDER.read(payload)[index].parts


def test_read_text_turns_become_messages() -> None:
    """User and model contents become User and Assistant messages, in order."""
    messages = gemini.PROVIDER.read(
        {
            "contents": [
                {"role": "user", "parts": [{"text": "Hi"}]},
                {"role": "model", "parts": [{"text": "Hello"}]},
            ]
        }
    )
    assert [(m.role, m.content) for m in messages] == [("user", "Hi"), ("assistant", "Hello")]


def test_read_takes_the_contents_list_alone() -> None:
    """A bare `contents` list reads like a body holding it."""
    contents = [{"role": "user", "parts": [{"text": "Hi"}]}]
    assert gemini.PROVIDER.read(contents) == gemini.PROVIDER.read({"contents": contents})


@pytest.mark.parametrize(
    ("part", "kind", "fields"),
    [
        ({"inlineData": {"mimeType": "image/png", "data": PNG}}, "image", {"url": None}),
        ({"inline_data": {"mime_type": "image/png", "data": PNG}}, "image", {"url": None}),
        (
            {"inlineData": {"mimeType": "image/png", "data": base64.b64decode(PNG)}},
            "image",
            {"url": None},
        ),
        (
            {"fileData": {"mimeType": "image/jpeg", "fileUri": "https://media.example/photo.jpg"}},
            "image",
            {"url": "https://media.example/photo.jpg", "file_id": None},
        ),
        (
            {
                "fileData": {
                    "mimeType": "video/mp4",
                    "fileUri": "https://generativelanguage.googleapis.com/v1beta/files/abc",
                }
            },
            "video",
            {
                "file_id": "https://generativelanguage.googleapis.com/v1beta/files/abc",
                "file_provider": "gemini",
                "url": None,
            },
        ),
        (
            {"file_data": {"mime_type": "application/pdf", "file_uri": "gs://bucket/a.pdf"}},
            "file",
            {"file_id": "gs://bucket/a.pdf", "file_provider": "gemini"},
        ),
        (
            {"fileData": {"fileUri": "gs://bucket/unknown"}},
            "file",
            {"file_id": "gs://bucket/unknown", "media_type": None},
        ),
    ],
)
def test_read_media_parts(part: dict[str, Any], kind: str, fields: dict[str, Any]) -> None:
    """Inline data, URLs and Files API or Cloud Storage URIs become media parts."""
    (read,) = _parts(user(part))
    assert isinstance(read, mp.MediaPart)
    assert read.kind == kind
    for name, value in fields.items():
        assert getattr(read, name) == value


def test_read_a_path_as_file_uri_is_a_reference_never_read() -> None:
    """A `fileUri` that is a local path is a file reference: no local file is opened."""
    (read,) = _parts(user({"fileData": {"mimeType": "text/plain", "fileUri": "/etc/passwd"}}))
    assert isinstance(read, mp.MediaPart)
    assert read.file_id == "/etc/passwd"
    with pytest.raises(mp.InvalidMedia):
        _ = read.data


def test_read_display_name_is_the_filename() -> None:
    """A blob's `displayName` becomes the part's file name."""
    blob = {"mimeType": "image/png", "data": PNG, "displayName": "chart.png"}
    (read,) = _parts(user({"inlineData": blob}))
    assert isinstance(read, mp.ImagePart)
    assert read.filename == "chart.png"


@pytest.mark.parametrize("snake", [False, True])
def test_read_thought_is_reasoning_with_its_signature(snake: bool) -> None:
    """A `thought: true` part is a ReasoningPart signed by Gemini."""
    key = "thought_signature" if snake else "thoughtSignature"
    (reasoning,) = _parts(model({"text": "Plan.", "thought": True, key: SIGNATURE}))
    assert reasoning == mp.ReasoningPart(
        text="Plan.",
        signature=SIGNATURE,
        provider="gemini",
        native={"gemini": {"snake": True}} if snake else {},
    )


def test_read_thought_signature_as_bytes_is_kept_as_base64() -> None:
    """The SDK's bytes signature is kept as base64 text (and rendered back as bytes)."""
    raw = base64.b64decode(SIGNATURE)
    (reasoning,) = _parts(model({"text": "", "thought": True, "thought_signature": raw}))
    assert isinstance(reasoning, mp.ReasoningPart)
    assert reasoning.signature == SIGNATURE


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (
            {"functionCall": {"id": "c1", "name": "f", "args": {"x": 1}}},
            mp.ToolCall(
                id="c1", name="f", arguments='{"x": 1}', native={"gemini": {"unsigned": True}}
            ),
        ),
        (
            {"functionCall": {"name": "f", "args": {}}},
            mp.ToolCall(id=None, name="f", arguments="{}", native={"gemini": {"unsigned": True}}),
        ),
        (
            {"function_call": {"name": "f"}},
            mp.ToolCall(
                id=None,
                name="f",
                arguments="{}",
                native={"gemini": {"snake": True, "no_args": True, "unsigned": True}},
            ),
        ),
        (
            {"functionCall": {"name": "f", "args": {}}, "thoughtSignature": SIGNATURE},
            mp.ToolCall(
                name="f",
                arguments="{}",
                native={
                    "gemini": {
                        "extra": {"thoughtSignature": SIGNATURE},
                        "own_fields": ["thoughtSignature"],
                    }
                },
            ),
        ),
    ],
)
def test_read_function_calls(call: dict[str, Any], expected: mp.ToolCall) -> None:
    """A `functionCall` is a ToolCall (a missing id stays None); a first unsigned one says so."""
    (read,) = _parts(model(call))
    assert isinstance(read, mp.ToolCall)
    assert read.model_copy(update={"arguments": "{}"}) == expected.model_copy(
        update={"arguments": "{}"}
    )
    assert json.loads(read.arguments) == json.loads(expected.arguments)


@pytest.mark.parametrize(
    ("response", "text", "fields"),
    [
        ({"output": "done"}, "done", {"error": None, "is_error": False}),
        ({"error": "boom"}, None, {"error": "boom", "is_error": True}),
        ({"temperature": 21.5}, '{"temperature": 21.5}', {"error": None, "is_error": False}),
        ({"error": {"code": 3}}, '{"error": {"code": 3}}', {"error": None, "is_error": True}),
    ],
)
def test_read_function_response_keeps_its_structure(
    response: dict[str, Any], text: str | None, fields: dict[str, Any]
) -> None:
    """`output` is the text, `error` the error; any other object is kept as its JSON."""
    body = user({"functionResponse": {"id": "c1", "name": "f", "response": response}})
    (tool,) = gemini.PROVIDER.read(body)
    assert isinstance(tool, mp.Tool)
    assert (tool.tool_call_id, tool.name) == ("c1", "f")
    if text is not None and text.startswith("{"):
        assert json.loads(tool.content) == json.loads(text)
    else:
        assert (tool.content or None) == text
    for name, value in fields.items():
        assert getattr(tool, name) == value


def test_read_function_response_media_is_nested() -> None:
    """Media inside a `functionResponse` is part of the Tool message."""
    nested = {"inlineData": {"mimeType": "image/png", "data": PNG}}
    body = user({"functionResponse": {"name": "zoom", "response": {}, "parts": [nested]}})
    (tool,) = gemini.PROVIDER.read(body)
    assert isinstance(tool, mp.Tool)
    assert tool.tool_call_id is None
    assert [p.kind for p in tool.parts] == ["text", "image"]


def test_read_text_and_results_in_one_content_keep_their_order() -> None:
    """A user Content of a result then text is a Tool then a User joined to it."""
    body = user(
        {"functionResponse": {"name": "f", "response": {"output": "1"}}},
        {"text": "And now?"},
    )
    tool, question = gemini.PROVIDER.read(body)
    assert isinstance(tool, mp.Tool)
    assert isinstance(question, mp.User)
    assert question.native == {"gemini": {"join": True}}


@pytest.mark.parametrize(
    "part",
    [
        {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
        {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1\n"}},
        {"toolCall": {"id": "t1", "toolType": "GOOGLE_SEARCH_WEB", "args": {}}},
        {"somethingNew": {"x": 1}},
    ],
)
def test_read_unmodelled_parts_become_provider_parts(part: dict[str, Any]) -> None:
    """A Part kind we do not model is kept verbatim as a ProviderPart."""
    (read,) = _parts(model(part))
    assert read == mp.ProviderPart(provider="gemini", data=part)


@pytest.mark.parametrize(
    ("body", "field", "native"),
    [
        ({"systemInstruction": {"parts": [{"text": "Be brief."}]}}, "Be brief.", {}),
        ({"system_instruction": "Be brief."}, "Be brief.", {"string": True}),
        ({"config": {"system_instruction": "Be brief."}}, "Be brief.", {"string": True}),
        (
            {"systemInstruction": {"role": "user", "parts": [{"text": "A"}, {"text": "B"}]}},
            "A\n\nB",
            {"role": "user"},
        ),
    ],
)
def test_read_system_instruction_in_each_spelling(
    body: dict[str, Any], field: str, native: dict[str, Any]
) -> None:
    """The system instruction is read from the body or the SDK's config, string or Content."""
    system, _ = gemini.PROVIDER.read({**body, "contents": [{"parts": [{"text": "Hi"}]}]})
    assert isinstance(system, mp.System)
    assert system.content == field
    where = next(iter(body))
    if where == "config":
        where = "config.system_instruction"
    assert system.native == {"gemini": {"field": where, **native}}


def test_read_system_instruction_beside_a_config_without_one() -> None:
    """A top-level system instruction stays the one read when `config` holds other settings."""
    body = {
        "systemInstruction": "Be brief.",
        "config": {"temperature": 0, "system_instruction": None},
        "contents": [{"role": "user", "parts": [{"text": "Hi"}]}],
    }
    system, _ = gemini.PROVIDER.read(body)
    assert isinstance(system, mp.System)
    assert system.content == "Be brief."
    assert system.native["gemini"]["field"] == "systemInstruction"


def test_read_ignores_other_call_arguments() -> None:
    """`model`, `generationConfig`, `tools` and the rest of `config` are not messages."""
    body = {
        "model": "gemini-2.5-flash",
        "generationConfig": {"maxOutputTokens": 5},
        "tools": [{"functionDeclarations": []}],
        "config": {"temperature": 0},
        "contents": [{"role": "user", "parts": [{"text": "Hi"}]}],
    }
    assert [m.role for m in gemini.PROVIDER.read(body)] == ["user"]


@pytest.mark.parametrize("path", REQUESTS, ids=lambda p: p.stem)
def test_read_does_not_change_the_payload(path: Any) -> None:
    """Reading leaves the caller's payload as it was."""
    payload = load(path)
    before = copy.deepcopy(payload)
    gemini.PROVIDER.read(payload)
    assert payload == before


_DEEP: dict[str, Any] = {}
_node = _DEEP
for _ in range(5000):
    _node["a"] = {}
    _node = _node["a"]

# (payload, what the error names)
HOSTILE: list[tuple[Any, str]] = [
    (42, "payload: expected an object"),
    ({}, "payload: no 'contents'"),
    ({"contents": 5}, "contents: expected an array"),
    ({"contents": ["Hi"]}, "contents[0]: expected an object"),
    ({"contents": [{"role": "system", "parts": []}]}, "contents[0].role"),
    ({"contents": [{"role": "user"}]}, "contents[0].parts: expected an array"),
    ({"contents": [{"role": "user", "parts": []}]}, "contents[0].parts: empty"),
    (user("Hi"), "contents[0].parts[0]: expected an object"),  # type: ignore[arg-type]
    (user({"text": 5}), "contents[0].parts[0].text"),
    (user({"text": "a", "inlineData": {}}), "contents[0].parts[0]: a Part holds one"),
    (user({"inlineData": "x"}), "contents[0].parts[0].inlineData: expected an object"),
    (user({"inlineData": {"data": PNG}}), "contents[0].parts[0].inlineData: inline data"),
    (
        user({"inlineData": {"mimeType": "image/png", "data": "!!"}}),
        "contents[0].parts[0].inlineData.data",
    ),
    (
        user({"inlineData": {"mimeType": 7, "data": PNG}}),
        "contents[0].parts[0].inlineData.mimeType",
    ),
    (user({"fileData": {"fileUri": 3}}), "contents[0].parts[0].fileData.fileUri"),
    (
        user({"inlineData": {"mimeType": "image/png", "data": PNG}, "inline_data": {}}),
        "contents[0].parts[0]: both 'inlineData' and 'inline_data'",
    ),
    (model({"functionCall": {"args": {}}}), "contents[1].parts[0].functionCall.name"),
    (model({"functionCall": {"name": "f", "id": 1}}), "contents[1].parts[0].functionCall.id"),
    (model({"functionCall": {"name": "f", "args": [1]}}), "contents[1].parts[0].functionCall.args"),
    (model({"functionCall": {"name": "f", "args": _DEEP}}), "parts[0].functionCall.args"),
    (model({"text": "t", "partMetadata": _DEEP}), "parts[0].partMetadata"),
    (
        model({"text": "t", "thought": True, "thoughtSignature": 5}),
        "contents[1].parts[0].thoughtSignature",
    ),
    (
        user({"functionResponse": {"name": "f", "response": "ok"}}),
        "contents[0].parts[0].functionResponse.response",
    ),
    (user({"functionResponse": {"response": {}}}), "contents[0].parts[0].functionResponse.name"),
    (
        user({"functionResponse": {"name": "f", "parts": [{"text": "x"}]}}),
        "contents[0].parts[0].functionResponse.parts[0]",
    ),
    ({"contents": [], "systemInstruction": 5}, "systemInstruction: expected an object"),
    (
        {"contents": [], "systemInstruction": {"parts": [{"inlineData": {}}]}},
        "systemInstruction.parts[0]",
    ),
    ({"contents": [], "config": []}, "payload.config: expected an object"),
    (
        {"contents": [], "systemInstruction": "a", "config": {"system_instruction": "b"}},
        "payload: both 'systemInstruction' and 'config.system_instruction' are given",
    ),
    (
        {"contents": [], "system_instruction": "a", "config": {"systemInstruction": "b"}},
        "payload: both 'system_instruction' and 'config.systemInstruction' are given",
    ),
]


@pytest.mark.parametrize(("payload", "named"), HOSTILE, ids=[h[1] for h in HOSTILE])
def test_read_hostile_input_names_the_path(payload: Any, named: str) -> None:
    """A malformed body is InvalidMedia naming the JSON path, never a bare Python error."""
    with pytest.raises(mp.InvalidMedia) as caught:
        mp.messages_from(payload, "gemini")
    assert named in str(caught.value)


def test_read_takes_the_sdks_own_objects() -> None:
    """`types.Content` and `types.GenerateContentConfig` objects read as their dicts."""
    types = pytest.importorskip("google.genai.types")
    contents = [
        types.Content(role="user", parts=[types.Part(text="Hi")]),
        types.Content(role="model", parts=[types.Part(text="Hello")]),
    ]
    config = types.GenerateContentConfig(system_instruction="Be brief.")
    messages = gemini.PROVIDER.read({"contents": contents, "config": config})
    assert [(m.role, m.content) for m in messages] == [
        ("system", "Be brief."),
        ("user", "Hi"),
        ("assistant", "Hello"),
    ]
