"""Gemini streams: the SDK's own chunks, either spelling, signatures, errors and hostile streams."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from tests.providers._stream_clients import gemini_client
from tests.providers._streams import STREAMS, sse_bytes
from tests.providers.gemini._payloads import SIGNATURE

genai = pytest.importorskip("google.genai")
httpx = pytest.importorskip("httpx")
from google.genai import types  # noqa: E402 - after the SDK is known to be there

CASES = sorted((STREAMS / "gemini").glob("*.json"))
MODEL = "gemini-2.5-flash"


def _case(path: Path) -> dict[str, Any]:
    case: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return case


def _body(events: list[Any]) -> bytes:
    return sse_bytes("gemini", events)


def _chunk(*parts: dict[str, Any], **candidate: Any) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": list(parts)}, **candidate}]}


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_sdk_stream_reads_as_its_dicts(path: Path) -> None:
    """The SDK's GenerateContentResponse chunks give the message and deltas their dicts give."""
    case = _case(path)
    client = gemini_client(_body(case["events"]))
    chunks = list(client.models.generate_content_stream(model=MODEL, contents="Go on"))
    assert all(isinstance(c, types.GenerateContentResponse) for c in chunks)
    from_sdk = mp.StreamReader("gemini")
    from_dicts = mp.StreamReader("gemini")
    sdk_deltas = [d for chunk in chunks for d in from_sdk.feed(chunk)]
    dict_deltas = [d for event in case["events"] for d in from_dicts.feed(event)]
    assert sdk_deltas == dict_deltas
    assert from_sdk.result() == from_dicts.result()
    assert from_sdk.result() == mp.message_from_response(case["response"], "gemini")


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_sdk_async_stream_reads_as_its_dicts(path: Path) -> None:
    """The async client's stream (client.aio) reads as the dicts do."""
    case = _case(path)
    client = gemini_client(_body(case["events"]))

    async def read() -> mp.Assistant:
        stream = await client.aio.models.generate_content_stream(model=MODEL, contents="Go on")
        return await mp.amessage_from_stream(stream, "gemini")

    assert asyncio.run(read()) == mp.message_from_stream(case["events"], "gemini")


@pytest.mark.parametrize("mode", ["json", "python"])
@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_snake_case_dicts_read_as_camel_case(path: Path, mode: str) -> None:
    """The SDK's own dumps (snake_case; bytes as URL-safe base64 or bytes) read as the REST JSON."""
    case = _case(path)
    dumps = [
        types.GenerateContentResponse.model_validate(e).model_dump(mode=mode, exclude_none=True)
        for e in case["events"]
    ]
    assert any("_" in key for d in dumps for key in json.dumps(d, default=str).split('"'))
    assert mp.message_from_stream(dumps, "gemini") == mp.message_from_stream(
        case["events"], "gemini"
    )


SIGNED_TEXT = {"text": "", "thoughtSignature": SIGNATURE}
CALL = {"functionCall": {"name": "f", "args": {}}}


@pytest.mark.parametrize(
    ("chunks", "expected"),
    [
        # The signature on an empty last fragment signs the run it ends.
        (
            [{"text": "a"}, {"text": "b"}, SIGNED_TEXT],
            [{"text": "ab", "thoughtSignature": SIGNATURE}],
        ),
        # On the first fragment: the run keeps growing, signed.
        (
            [{"text": "a", "thoughtSignature": SIGNATURE}, {"text": "b"}],
            [{"text": "ab", "thoughtSignature": SIGNATURE}],
        ),
        # A run takes one signature: a second starts a new part.
        (
            [
                {"text": "a", "thoughtSignature": SIGNATURE},
                {"text": "b", "thoughtSignature": "eA=="},
            ],
            [
                {"text": "a", "thoughtSignature": SIGNATURE},
                {"text": "b", "thoughtSignature": "eA=="},
            ],
        ),
        # Thought and answer are runs of their own; the thought's signature stays on it.
        (
            [
                {"text": "t", "thought": True},
                {"text": "", "thought": True, "thoughtSignature": SIGNATURE},
                {"text": "a"},
            ],
            [{"text": "t", "thought": True, "thoughtSignature": SIGNATURE}, {"text": "a"}],
        ),
        # A signature after a function call has no run to sign: kept where it sits.
        ([CALL, SIGNED_TEXT], [CALL, SIGNED_TEXT]),
        ([CALL, {"thoughtSignature": SIGNATURE}], [CALL, {"thoughtSignature": SIGNATURE}]),
        # Text after a call is a new run; an empty unsigned fragment adds nothing.
        ([{"text": "a"}, CALL, {"text": ""}, {"text": "b"}], [{"text": "a"}, CALL, {"text": "b"}]),
        # A text part with fields beyond text and its signature is kept whole.
        (
            [{"text": "a"}, {"text": "b", "partMetadata": {"k": 1}}, {"text": "c"}],
            [{"text": "a"}, {"text": "b", "partMetadata": {"k": 1}}, {"text": "c"}],
        ),
    ],
)
def test_signature_placement_matches_the_whole_response(
    chunks: list[dict[str, Any]], expected: list[dict[str, Any]]
) -> None:
    """Text runs merge and signatures land on the part the non-streamed response has them on."""
    events = [*(_chunk(part) for part in chunks), _chunk(finishReason="STOP")]
    assert mp.message_from_stream(events, "gemini") == mp.message_from_response(
        _chunk(*expected, finishReason="STOP"), "gemini"
    )


def test_signed_reply_renders_back_with_its_signature_on_the_same_part() -> None:
    """A signature streamed on an empty last chunk goes back on the text it signs."""
    events = [_chunk({"text": "Hi"}), _chunk({"text": " there"}), _chunk(SIGNED_TEXT)]
    events[-1]["candidates"][0]["finishReason"] = "STOP"
    reply = mp.message_from_stream(events, "gemini")
    payload = mp.render([mp.User("Hello"), reply, mp.User("Go on")], "gemini")
    assert payload["contents"][1]["parts"] == [{"text": "Hi there", "thoughtSignature": SIGNATURE}]


def test_error_chunk_raises_stream_error_with_partial() -> None:
    """An error chunk is StreamError carrying the API's error and the reply so far."""
    error = {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}
    events = [_chunk({"text": "Half a"}), {"error": error}]
    with pytest.raises(mp.StreamError, match="UNAVAILABLE") as caught:
        mp.message_from_stream(events, "gemini")
    assert caught.value.error == error
    assert isinstance(caught.value.partial, mp.Assistant)
    assert caught.value.partial.text == "Half a"


def test_only_the_first_candidate_is_read() -> None:
    """Of several candidates, the one whose index is 0 grows the reply, wherever it sits."""
    other = {"index": 1, "content": {"parts": [{"text": "other"}]}, "finishReason": "STOP"}
    first = {"index": 0, "content": {"parts": [{"text": "first"}]}, "finishReason": "STOP"}
    reply = mp.message_from_stream([{"candidates": [other, first]}], "gemini")
    assert reply.text == "first"


def test_long_stream_of_small_chunks_reads() -> None:
    """Twenty thousand one-character chunks read into one text part."""
    events = [_chunk({"text": "x"}) for _ in range(20_000)]
    events.append(_chunk({"text": "", "thoughtSignature": SIGNATURE}, finishReason="STOP"))
    reply = mp.message_from_stream(events, "gemini")
    assert len(reply.parts) == 1
    assert reply.text == "x" * 20_000


def test_many_parts_in_one_chunk_read_in_order() -> None:
    """A chunk of many parts (calls between texts) keeps each where it sits."""
    parts: list[dict[str, Any]] = []
    for i in range(2_000):
        parts += [{"text": str(i)}, {"functionCall": {"name": "f", "args": {"i": i}}}]
    reply = mp.message_from_stream([_chunk(*parts, finishReason="STOP")], "gemini")
    assert len(reply.parts) == 4_000
    assert reply.stop_reason == "tool_call"


@pytest.mark.parametrize(
    ("event", "named"),
    [
        ({"candidates": "x"}, "event[0].candidates"),
        ({"candidates": [3]}, "event[0].candidates[0]"),
        (_chunk({"text": 5}), "event[0].candidates[0].content.parts[0].text"),
        (_chunk({"text": "a", "thoughtSignature": 5}), "parts[0].thoughtSignature"),
        (_chunk({"functionCall": {"args": {}}}), "parts[0].functionCall.name"),
        ({"candidates": [{"finishReason": 7}]}, "event[0].candidates[0].finishReason"),
        ({"usageMetadata": {"promptTokenCount": "many"}}, "event[0].usageMetadata"),
        ({"modelVersion": 3}, "event[0].modelVersion"),
        ({"promptFeedback": []}, "event[0].promptFeedback"),
        ({"candidates": [{"citationMetadata": {"citations": 1}}]}, "citationMetadata.citations"),
        (
            _chunk({"functionCall": {"name": "f", "partialArgs": [{"jsonPath": "a"}]}}),
            "partialArgs[0].jsonPath",
        ),
        ("[[[", "not JSON"),
        (42, "expected"),
    ],
)
def test_malformed_chunk_is_invalid_media_naming_the_field(event: Any, named: str) -> None:
    """A malformed chunk is InvalidMedia naming where it is wrong."""
    with pytest.raises(mp.InvalidMedia) as caught:
        mp.StreamReader("gemini").feed(event)
    assert named in str(caught.value)
    assert not isinstance(caught.value, mp.StreamError)


# Vertex AI's streamed function-call arguments (`streamFunctionCallArguments`).
_STREAMED_CALL = [
    _chunk({"functionCall": {"name": "get_weather", "willContinue": True}}),
    _chunk(
        {
            "functionCall": {
                "partialArgs": [
                    {"jsonPath": "$.location", "stringValue": "Bos", "willContinue": True},
                ],
                "willContinue": True,
            },
            "thoughtSignature": SIGNATURE,
        }
    ),
    _chunk(
        {
            "functionCall": {
                "name": "get_weather",
                "partialArgs": [
                    {"jsonPath": "$.location", "stringValue": "ton"},
                    {"jsonPath": "$.unit", "stringValue": "C"},
                    {"jsonPath": "$['days'][0]", "numberValue": 1.0},
                    {"jsonPath": "$.days[1]", "numberValue": 2.5},
                    {"jsonPath": "$.country", "nullValue": "NULL_VALUE"},
                    {"jsonPath": "$.opts.metric", "boolValue": True},
                ],
                "willContinue": False,
            }
        }
    ),
    _chunk({"text": "Calling it."}, finishReason="STOP"),
]
_WHOLE_CALL: dict[str, Any] = {
    "functionCall": {
        "name": "get_weather",
        "args": {
            "location": "Boston",
            "unit": "C",
            "days": [1, 2.5],
            "country": None,
            "opts": {"metric": True},
        },
    },
    "thoughtSignature": SIGNATURE,
}


def test_streamed_arguments_add_up_to_the_whole_call() -> None:
    """partialArgs pieces give the call the non-streamed response holds."""
    reply = mp.message_from_stream(_STREAMED_CALL, "gemini")
    whole = _chunk(_WHOLE_CALL, {"text": "Calling it."}, finishReason="STOP")
    assert reply == mp.message_from_response(whole, "gemini")
    assert reply.stop_reason == "tool_call"


def test_streamed_arguments_deltas_name_then_arguments() -> None:
    """A streamed call's deltas: its name first, its whole arguments once they are complete."""
    reader = mp.StreamReader("gemini")
    deltas = [d for event in _STREAMED_CALL for d in reader.feed(event)]
    calls = [d for d in deltas if d.kind == "tool_call"]
    assert [(d.index, d.name, bool(d.arguments)) for d in calls] == [
        (0, "get_weather", False),
        (0, None, True),
    ]
    assert json.loads(calls[1].arguments) == _WHOLE_CALL["functionCall"]["args"]
    part = reader.result().parts[0]
    assert isinstance(part, mp.ToolCall) and part.arguments == calls[1].arguments


def test_streamed_call_cut_short_holds_what_arrived() -> None:
    """A call whose arguments are still streaming is in the reply so far with what came."""
    reader = mp.StreamReader("gemini")
    for event in _STREAMED_CALL[:2]:
        reader.feed(event)
    (part,) = reader.message.parts
    assert isinstance(part, mp.ToolCall)
    assert json.loads(part.arguments) == {"location": "Bos"}


# The snippet docs/ shows for reading an SDK stream (tested as written, on a mock transport).
SNIPPET = """
import mediaparts as mp
from google import genai

client = genai.Client()
stream = client.models.generate_content_stream(
    model="gemini-2.5-flash", contents="Why is the sky blue?"
)
reader = mp.StreamReader("gemini", model="gemini-2.5-flash")
for chunk in stream:
    for delta in reader.feed(chunk):
        if delta.kind == "text":
            print(delta.text, end="", flush=True)
reply = reader.result()  # mp.Assistant: text, thoughts, tool calls, usage, stop reason
"""


def test_docs_snippet_reads_an_sdk_stream(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The docs' snippet prints the text as it comes and ends with the whole reply."""
    case = _case(STREAMS / "gemini" / "text_chunks.json")
    mock = gemini_client(_body(case["events"]))
    monkeypatch.setattr(genai, "Client", lambda *args, **kwargs: mock)
    scope: dict[str, Any] = {}
    exec(compile(SNIPPET, "snippet", "exec"), scope)  # the snippet under test, as written
    reply = scope["reply"]
    assert capsys.readouterr().out == reply.text
    assert reply == mp.message_from_response(case["response"], "gemini")


def test_streamed_call_ended_by_the_next_says_its_arguments() -> None:
    """A call still streaming when the next call starts ends with its arguments delta."""

    def chunk(parts: list[dict[str, Any]], finish: str | None = None) -> dict[str, Any]:
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
        return {"candidates": [candidate | ({"finishReason": finish} if finish else {})]}

    first = {"name": "a", "partialArgs": [{"jsonPath": "$.x", "stringValue": "hel"}],
             "willContinue": True}  # fmt: skip
    second = {"name": "b", "partialArgs": [{"jsonPath": "$.y", "numberValue": 1}]}
    events = [
        chunk([{"functionCall": first}]),
        chunk([{"functionCall": second}]),
        chunk([], "STOP"),
    ]
    reader = mp.StreamReader("gemini")
    deltas = [d for event in events for d in reader.feed(event)]
    calls = reader.result().tool_calls
    for index, call in enumerate(calls):
        said = "".join(d.arguments for d in deltas if d.kind == "tool_call" and d.index == index)
        assert json.loads(said) == json.loads(call.arguments)
    assert [c.name for c in calls] == ["a", "b"]


def _streamed_call(*pieces: dict[str, Any], name: Any = "f") -> list[dict[str, Any]]:
    call: dict[str, Any] = {"name": name, "partialArgs": list(pieces), "willContinue": False}
    parts = [{"functionCall": call}]
    return [{"candidates": [{"content": {"role": "model", "parts": parts}, "index": 0}]}]


# Streamed function-call pieces that are malformed, and the words the refusal names.
BAD_PIECES = [
    pytest.param({"jsonPath": "x", "stringValue": "a"}, "starting with", id="no-dollar"),
    pytest.param({"jsonPath": "$", "stringValue": "a"}, "names no argument", id="root"),
    pytest.param({"jsonPath": "$.", "stringValue": "a"}, "empty name", id="empty-name"),
    pytest.param({"jsonPath": "$['a", "stringValue": "a"}, "unclosed name", id="unclosed"),
    pytest.param({"jsonPath": "$[x]", "stringValue": "a"}, "expected an index", id="bad-index"),
    pytest.param({"jsonPath": "$[1234567890]", "stringValue": "a"}, "expected an index", id="long-index"),
    pytest.param({"jsonPath": "$a", "stringValue": "a"}, "unexpected", id="bare-name"),
    pytest.param({"jsonPath": "$" + ".a" * 65, "stringValue": "a"}, "more than", id="deep"),
    pytest.param({"jsonPath": "$[0]", "stringValue": "a"}, "does not fit", id="index-on-object"),
    pytest.param({"jsonPath": "$.a", "stringValue": "a", "numberValue": 1}, "one value", id="two-values"),
    pytest.param({"jsonPath": "$.a", "numberValue": True}, "expected a number", id="bool-number"),
    pytest.param({"jsonPath": "$.a", "boolValue": "yes"}, "expected a bool", id="string-bool"),
    pytest.param({"jsonPath": "$.a", "stringValue": 5}, "expected a string", id="number-string"),
]  # fmt: skip


@pytest.mark.parametrize(("piece", "words"), BAD_PIECES)
def test_streamed_call_malformed_piece_is_invalid_media(piece: dict[str, Any], words: str) -> None:
    """A malformed piece of streamed arguments is InvalidMedia saying what is wrong."""
    with pytest.raises(mp.InvalidMedia, match=words):
        mp.StreamReader("gemini").feed(_streamed_call(piece)[0])


@pytest.mark.parametrize(
    ("pieces", "arguments"),
    [
        ([{"jsonPath": "$['a b']", "stringValue": "x"}], {"a b": "x"}),
        ([{"jsonPath": "$.a[0].b", "numberValue": 2.0}], {"a": [{"b": 2}]}),
        ([{"jsonPath": "$.a", "nullValue": "NULL_VALUE"}, {"jsonPath": "$.b", "boolValue": False}],
         {"a": None, "b": False}),
        ([{"jsonPath": "$.a", "numberValue": 0.5}], {"a": 0.5}),
    ],
)  # fmt: skip
def test_streamed_call_pieces_build_the_arguments(
    pieces: list[dict[str, Any]], arguments: dict[str, Any]
) -> None:
    """Pieces at names, quoted names and indices build the arguments, numbers as JSON writes them."""
    events = [*_streamed_call(*pieces), {"candidates": [{"finishReason": "STOP", "index": 0}]}]
    reply = mp.message_from_stream(events, "gemini")
    assert json.loads(reply.tool_calls[0].arguments) == arguments


@pytest.mark.parametrize(
    ("name", "words"), [(5, "function's name"), (None, "starts with its name")]
)
def test_streamed_call_without_a_name_is_invalid_media(name: Any, words: str) -> None:
    """A streamed call starts with its function's name, a string."""
    with pytest.raises(mp.InvalidMedia, match=words):
        mp.StreamReader("gemini").feed(
            _streamed_call({"jsonPath": "$.a", "stringValue": "x"}, name=name)[0]
        )
