"""Streamed Chat Completions replies: the official SDK's chunks and stream helper, and this
wire's own rules (other choices, custom and legacy calls, audio, hostile and broken chunks).

The recorded streams are `tests/golden/streams/<provider>` of every provider on this wire (the
SDK tests run them all: OpenRouter's, with its keep-alive comments, too); the rules every wire
shares are tested in `tests/providers/test_streams.py`. The SDK is the real `openai` client over an
`httpx2.MockTransport` (the transport its client takes) returning the server-sent events.
"""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from tests.providers._stream_clients import openai_client
from tests.providers._streams import sse_bytes

ROOT = Path(__file__).resolve().parents[2] / "golden" / "streams"
# (provider, case) of every recorded stream of a provider on this wire.
CASES = [
    (path.parent.name, path.stem)
    for path in sorted(ROOT.glob("*/*.json"))
    if path.parent.name in mp.providers.names()
    and mp.providers.get(path.parent.name).wire == "openai"
]
ASK = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Hello"}]}


def _text_deltas(provider: str, name: str) -> bool:
    """Whether every delta's content is text (the openai SDK's stream() helper sums it as a
    string; a reasoning model's thinking chunks, a list, are another SDK's shape)."""
    events = json.loads((ROOT / provider / f"{name}.json").read_text("utf-8"))["events"]
    return not any(
        isinstance(choice.get("delta", {}).get("content"), list)
        for event in events
        for choice in event.get("choices") or ()
    )


# The cases the openai SDK's stream() helper can sum.
HELPER_CASES = [(p, n) for p, n in CASES if _text_deltas(p, n)]


def _case(name: str, provider: str = "openai") -> dict[str, Any]:
    case: dict[str, Any] = json.loads((ROOT / provider / f"{name}.json").read_text("utf-8"))
    return case


def _body(provider: str, case: dict[str, Any]) -> bytes:
    return sse_bytes(provider, case["events"], comments=case.get("sse_comments", ()))


def _deltas(events: list[Any], provider: str = "openai") -> tuple[list[mp.Delta], mp.Assistant]:
    reader = mp.StreamReader(provider)
    deltas = [d for event in events for d in reader.feed(event)]
    return deltas, reader.result()


def _chunk(delta: dict[str, Any], finish: str | None = None, index: int = 0) -> dict[str, Any]:
    choice = {"index": index, "delta": delta, "logprobs": None, "finish_reason": finish}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [choice],
    }


def _call(index: int, **fields: Any) -> dict[str, Any]:
    return _chunk({"tool_calls": [{"index": index, **fields}]})


# -- the official SDK -------------------------------------------------------------------


@pytest.mark.parametrize(("provider", "name"), CASES)
def test_sdk_chunks_read_as_their_dicts(provider: str, name: str) -> None:
    """The SDK's ChatCompletionChunk objects give the deltas and message their dicts give."""
    case = _case(name, provider)
    client = openai_client(_body(provider, case))
    chunks = list(client.chat.completions.create(**ASK, stream=True))
    assert _deltas(chunks, provider) == _deltas(case["events"], provider)
    assert _deltas(chunks, provider)[1] == mp.message_from_response(case["response"], provider)


@pytest.mark.parametrize(("provider", "name"), HELPER_CASES)
def test_sdk_stream_helper_events_read_as_the_chunks(provider: str, name: str) -> None:
    """The stream() helper's events give the same deltas: its derived events are skipped."""
    case = _case(name, provider)
    client = openai_client(_body(provider, case))
    with client.chat.completions.stream(**ASK) as stream:
        events = list(stream)
    if name != "audio":  # the helper derives no event from audio
        assert {e.type for e in events} - {"chunk"}, "the helper derived no events"
    assert _deltas(events, provider) == _deltas(case["events"], provider)
    dumped = [e.model_dump(mode="json") for e in events]
    assert _deltas(dumped, provider) == _deltas(case["events"], provider)


@pytest.mark.parametrize(("provider", "name"), HELPER_CASES)
def test_sdk_async_client_reads_as_the_dicts(provider: str, name: str) -> None:
    """AsyncOpenAI's stream, and its stream() helper, read with amessage_from_stream."""
    case = _case(name, provider)
    body = _body(provider, case)
    expected = mp.message_from_stream(case["events"], provider)

    async def chunks() -> mp.Assistant:
        stream = await openai_client(body, aio=True).chat.completions.create(**ASK, stream=True)
        return await mp.amessage_from_stream(stream, provider)

    async def helper() -> mp.Assistant:
        async with openai_client(body, aio=True).chat.completions.stream(**ASK) as stream:
            return await mp.amessage_from_stream(stream, provider)

    assert asyncio.run(chunks()) == expected
    assert asyncio.run(helper()) == expected


def test_sdk_chunk_sent_nulls_read_as_absent() -> None:
    """A chunk object built from the API's JSON reads only the fields the API sent."""
    chat = pytest.importorskip("openai.types.chat")
    events = _case("text_usage")["events"]
    objects = [chat.ChatCompletionChunk.model_validate(e) for e in events]
    assert mp.message_from_stream(objects, "openai") == mp.message_from_stream(events, "openai")


# -- the docs snippet -------------------------------------------------------------------

SNIPPET = """\
import mediaparts as mp
from openai import OpenAI

client = OpenAI()
stream = client.chat.completions.create(
    model="gpt-4o",
    messages=[{"role": "user", "content": "Where is Edinburgh?"}],
    stream=True,
    stream_options={"include_usage": True},
)
reader = mp.StreamReader("openai")
for chunk in stream:
    for delta in reader.feed(chunk):
        if delta.kind == "text":
            print(delta.text, end="", flush=True)
reply = reader.result()  # mp.Assistant: text, tool calls, usage, stop reason
print()
print(reply.usage.input_tokens, reply.stop_reason)
"""


def test_docs_snippet_reads_an_sdk_stream(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The docs snippet, run as written against a mocked API, prints the text and reads it."""
    openai = pytest.importorskip("openai")
    case = _case("text_usage")
    body = sse_bytes("openai", case["events"])
    client = openai_client(body)
    monkeypatch.setattr(openai, "OpenAI", lambda: client)
    scope: dict[str, Any] = {}
    exec(compile(SNIPPET, "snippet", "exec"), scope)
    expected = mp.message_from_response(case["response"], "openai")
    assert scope["reply"] == expected
    assert capsys.readouterr().out == f"{expected.text}\n1234 end\n"


# -- this wire's rules ------------------------------------------------------------------


def test_stream_reads_first_choice_only() -> None:
    """With n=2, the other choice's chunks are skipped, as read_response reads the first."""
    events = [
        _chunk({"role": "assistant", "content": "Yes"}),
        _chunk({"role": "assistant", "content": "No"}, index=1),
        _chunk({"content": "!"}, index=1),
        _chunk({}, "stop"),
        _chunk({}, "length", index=1),
    ]
    reply = mp.message_from_stream(events, "openai")
    assert (reply.text, reply.stop_reason_raw) == ("Yes", "stop")


@pytest.mark.parametrize(
    "event",
    [
        {"object": "something.new.2027", "choices": [{"index": 0, "delta": {"content": "x"}}]},
        {"type": "content.delta", "delta": "x", "snapshot": "x"},
        {"type": "tool_calls.function.arguments.delta", "name": "f", "index": 0},
        {"type": "refusal.done", "refusal": "x"},
    ],
)
def test_stream_unknown_and_derived_events_skipped(event: dict[str, Any]) -> None:
    """Unknown objects and the helper's derived events add nothing."""
    events = [_chunk({"content": "Hi"}), event, _chunk({}, "stop")]
    deltas, reply = _deltas(events)
    assert reply.text == "Hi" and [d.kind for d in deltas] == ["text", "stop"]


def test_stream_chunk_event_dict_read() -> None:
    """A helper `chunk` event's dict is read for the chunk it carries, its snapshot ignored."""
    wrapped = [{"type": "chunk", "chunk": _chunk({"content": "Hi"}), "snapshot": {"x": 1}}]
    reply = mp.message_from_stream([*wrapped, _chunk({}, "stop")], "openai")
    assert reply.text == "Hi"


def test_stream_tool_arguments_never_json_kept() -> None:
    """Tool-call arguments that never become valid JSON are kept as the text that arrived."""
    events = [
        _call(0, id="call_1", type="function", function={"name": "f", "arguments": ""}),
        _call(0, function={"arguments": '{"city": "Par'}),
        _call(0, function={"arguments": "is"}),
        _chunk({}, "tool_calls"),
    ]
    deltas, reply = _deltas(events)
    (call,) = reply.parts
    assert isinstance(call, mp.ToolCall)
    assert call.arguments == '{"city": "Paris'
    assert "".join(d.arguments for d in deltas) == '{"city": "Paris'


def test_stream_custom_tool_input_as_arguments() -> None:
    """A custom tool's input fragments read as the arguments {"input": text}, deltas too."""
    text = 'print("héllo")\n'
    events = [
        _call(0, id="call_1", type="custom", custom={"name": "python", "input": text[:7]}),
        _call(0, custom={"input": text[7:]}),
        _chunk({}, "tool_calls"),
    ]
    deltas, reply = _deltas(events)
    (call,) = reply.parts
    assert isinstance(call, mp.ToolCall)
    assert (call.id, call.name, json.loads(call.arguments)) == ("call_1", "python", {"input": text})
    assert "".join(d.arguments for d in deltas if d.kind == "tool_call") == call.arguments
    whole = {"id": "call_1", "type": "custom", "custom": {"name": "python", "input": text}}
    response = {
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {"role": "assistant", "content": None, "tool_calls": [whole]},
            }
        ]
    }
    assert reply.parts == mp.message_from_response(response, "openai").parts


def test_stream_legacy_function_call() -> None:
    """The legacy function_call streams as a tool call without an id, after the text."""
    events = [
        _chunk({"role": "assistant", "content": "Let me look."}),
        _chunk({"function_call": {"name": "lookup", "arguments": ""}}),
        _chunk({"function_call": {"arguments": '{"q": 1}'}}),
        _chunk({}, "function_call"),
    ]
    deltas, reply = _deltas(events)
    assert [p.kind for p in reply.parts] == ["text", "tool_call"]
    call = reply.parts[1]
    assert isinstance(call, mp.ToolCall)
    assert (call.name, call.arguments) == ("lookup", '{"q": 1}')
    assert {d.index for d in deltas if d.kind == "tool_call"} == {1}
    assert reply.stop_reason == "tool_call"


def test_stream_audio_final_update_before_stop() -> None:
    """The audio part is announced at its last update when that comes before the stop."""
    events = [
        _chunk({"audio": {"id": "audio_1", "transcript": "Hi"}}),
        _chunk({"audio": {"transcript": " there", "data": "AAAA"}}),
        _chunk({"audio": {"expires_at": 2}}),
        _chunk({}, "stop"),
    ]
    deltas, reply = _deltas(events)
    assert [p.kind for p in reply.parts] == ["text", "provider"]
    assert [(d.kind, d.index) for d in deltas] == [
        ("text", 0),
        ("text", 0),
        ("provider", 1),
        ("stop", None),
    ]


def test_stream_citation_before_text_waits_for_it() -> None:
    """An annotation that arrives before any text is told once the text begins."""
    note = {"type": "url_citation", "url_citation": {"url": "https://a.example", "title": "A"}}
    events = [_chunk({"annotations": [note]}), _chunk({"content": "Hi"}), _chunk({}, "stop")]
    deltas, reply = _deltas(events)
    assert [d.kind for d in deltas] == ["text", "citation", "stop"]
    text = reply.parts[0]
    assert isinstance(text, mp.TextPart)
    assert text.citations[0].url == "https://a.example"


def test_stream_usage_on_last_choice_chunk() -> None:
    """Usage sent on the chunk with the finish_reason (not a separate chunk) is read too."""
    last = _chunk({}, "stop")
    last["usage"] = {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}
    deltas, reply = _deltas([_chunk({"content": "Hi"}), last])
    assert [d.kind for d in deltas] == ["text", "stop", "usage"]
    assert reply.usage == deltas[-1].usage == mp.Usage(input_tokens=3, output_tokens=2)


# -- errors and hostile streams ---------------------------------------------------------

ERROR = {"message": "The server had an error", "type": "server_error", "code": None}


@pytest.mark.parametrize("as_bytes", [False, True], ids=["dicts", "sse-bytes"])
def test_stream_error_mid_stream_raises_with_partial(as_bytes: bool) -> None:
    """An error event raises StreamError carrying the API's error and the reply so far."""
    events = [*_case("text_usage")["events"][:4], {"error": ERROR}]
    fed: list[Any] = [sse_bytes("openai", events)] if as_bytes else events
    with pytest.raises(mp.StreamError, match="server had an error") as caught:
        mp.message_from_stream(fed, "openai")
    assert caught.value.error == ERROR
    assert caught.value.partial is not None
    assert caught.value.partial.text == "Édinburgh is the"
    assert caught.value.partial.stop_reason is None


def test_stream_error_in_the_providers_own_object_raises() -> None:
    """An `error` in the chunk object a provider's `stream_extra` quirk names (Groq's `x_groq`)
    raises StreamError with it; on a provider without the quirk, the object is ignored."""
    events = _case("text_usage")["events"][:3]
    stopped = {**events[2], "choices": [], "x_groq": {"id": "req_1", "error": "over capacity"}}
    with pytest.raises(mp.StreamError, match="over capacity") as caught:
        mp.message_from_stream([*events, stopped], "groq")
    assert caught.value.partial is not None and caught.value.partial.text
    reply = mp.StreamReader("openai")
    for event in [*events, stopped]:
        reply.feed(event)
    assert reply.message.text == caught.value.partial.text


@pytest.mark.parametrize("value", ["", 5, ["x_groq"]])
def test_stream_extra_quirk_must_name_a_key(value: Any) -> None:
    """The `stream_extra` quirk is a non-empty key; anything else is refused at registration."""
    with pytest.raises(mp.InvalidConfig, match="stream_extra quirk is a chunk key"):
        mp.providers.register(
            "bad-extra",
            wire="openai",
            rules=mp.providers.get("openai").rules,
            quirks={"stream_extra": value},
        )


INDEX_AT = "choices[0].delta.tool_calls[0].index"


@pytest.mark.parametrize("index", [10**18, 2, -1, "0", True, None])
def test_stream_tool_call_index_out_of_reach_invalid(index: Any) -> None:
    """A tool-call index the stream could not have reached is InvalidMedia naming it."""
    first = _call(0, id="c", type="function", function={"name": "f", "arguments": ""})
    reader = mp.StreamReader("openai")
    reader.feed(first)
    with pytest.raises(mp.InvalidMedia) as caught:
        reader.feed(_call(index, function={"arguments": "x"}))
    assert str(caught.value).startswith(INDEX_AT)
    call = reader.message.parts[0]
    assert isinstance(call, mp.ToolCall)
    assert call.name == "f"


def _broken(at: list[Any], value: Any) -> dict[str, Any]:
    chunk = copy.deepcopy(_call(0, id="c", type="function", function={"name": "f"}))
    chunk["choices"][0]["delta"]["content"] = "Hi"
    chunk["usage"] = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    node: Any = chunk
    for key in at[:-1]:
        node = node[key]
    node[at[-1]] = value
    return chunk


@pytest.mark.parametrize(
    ("at", "value", "named"),
    [
        (["choices"], "x", "choices"),
        (["choices", 0], 5, "choices[0]"),
        (["choices", 0, "index"], "0", "choices[0].index"),
        (["choices", 0, "delta"], [], "choices[0].delta"),
        (["choices", 0, "delta", "content"], 5, "choices[0].delta.content"),
        (["choices", 0, "delta", "refusal"], {}, "choices[0].delta.refusal"),
        (["choices", 0, "delta", "annotations"], "x", "choices[0].delta.annotations"),
        (["choices", 0, "delta", "audio"], "x", "choices[0].delta.audio"),
        (["choices", 0, "delta", "tool_calls"], {}, "choices[0].delta.tool_calls"),
        (["choices", 0, "delta", "tool_calls", 0], 1, "choices[0].delta.tool_calls[0]"),
        (["choices", 0, "delta", "tool_calls", 0, "id"], 7, "choices[0].delta.tool_calls[0].id"),
        (
            ["choices", 0, "delta", "tool_calls", 0, "function"],
            "f",
            "choices[0].delta.tool_calls[0].function",
        ),
        (
            ["choices", 0, "delta", "tool_calls", 0, "function", "arguments"],
            {},
            "choices[0].delta.tool_calls[0].function.arguments",
        ),
        (["choices", 0, "finish_reason"], 3, "choices[0].finish_reason"),
        (["usage", "prompt_tokens"], -1, "usage.prompt_tokens"),
        (["usage"], [], "usage"),
        (["model"], 5, "chunk.model"),
    ],
)
def test_stream_malformed_field_names_its_path(at: list[Any], value: Any, named: str) -> None:
    """A malformed field is InvalidMedia naming its JSON path, never a bare exception."""
    with pytest.raises(mp.InvalidMedia) as caught:
        mp.StreamReader("openai").feed(_broken(at, value))
    assert named in str(caught.value)


@pytest.mark.parametrize("event", [5, "5", [1], None, object()])
def test_stream_event_not_an_object_invalid(event: Any) -> None:
    """An event that is neither a chunk object nor a dict is InvalidMedia."""
    with pytest.raises(mp.InvalidMedia):
        mp.StreamReader("openai").feed(event)


@pytest.mark.parametrize("kind", ["text", "tool_call"])
def test_stream_twenty_thousand_deltas_read(kind: str) -> None:
    """A stream of 20,000 one-character fragments reads whole (fragments are never re-joined)."""
    n = 20_000
    if kind == "text":
        events = [_chunk({"content": "a"}) for _ in range(n)]
    else:
        first = _call(0, id="c", type="function", function={"name": "f", "arguments": '"'})
        events = [first, *(_call(0, function={"arguments": "a"}) for _ in range(n)), _call(0)]
        events[-1]["choices"][0]["delta"]["tool_calls"][0]["function"] = {"arguments": '"'}
    reader = mp.StreamReader("openai")
    count = sum(len(reader.feed(e)) for e in [*events, _chunk({}, "stop")])
    reply = reader.result()
    assert count >= n + 1
    if kind == "text":
        assert reply.text == "a" * n
    else:
        call = reply.parts[0]
        assert isinstance(call, mp.ToolCall)
        assert call.arguments == '"' + "a" * n + '"'
