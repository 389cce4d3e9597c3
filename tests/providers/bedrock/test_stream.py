"""Reading Converse streams: through botocore's own event-stream decoding, every content kind
against its non-streamed block, redacted bytes, kept tool text, errors, and hostile events."""

from __future__ import annotations

import base64
import json
import random
from typing import Any

import pytest

import mediaparts as mp
from tests.providers._streams import cases
from tests.providers.bedrock import _eventstream

pytest.importorskip("botocore")

CASES = [c for c in cases() if c.values[0] == "bedrock"]
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAGUlEQVR4nGNkYGhQYGDARCwMCgxYweCUAABobwJe"
    "4J3LcgAAAABJRU5ErkJggg=="
)
START = {"messageStart": {"role": "assistant"}}
STOP = {"messageStop": {"stopReason": "end_turn"}}


def _wrong(value: object) -> Any:
    """`value`, of a type the helper it is passed to would not take: for hostile events."""
    return value


def _delta(index: int, delta: dict[str, Any]) -> dict[str, Any]:
    return {"contentBlockDelta": {"contentBlockIndex": index, "delta": delta}}


def _start(index: int, start: dict[str, Any]) -> dict[str, Any]:
    return {"contentBlockStart": {"contentBlockIndex": index, "start": start}}


def _end(index: int) -> dict[str, Any]:
    return {"contentBlockStop": {"contentBlockIndex": index}}


def _response(*content: dict[str, Any], reason: str = "end_turn") -> dict[str, Any]:
    message = {"role": "assistant", "content": list(content)}
    return {"output": {"message": message}, "stopReason": reason}


def _stream_of(events: list[dict[str, Any]], sizes: Any = None) -> Any:
    """Return `converse_stream(...)["stream"]` of a botocore client answering with `events`."""
    body = b"".join(_eventstream.event_frame(e) for e in events)
    client = _eventstream.client(body, sizes)
    response = client.converse_stream(
        modelId="anthropic.claude-test", messages=[{"role": "user", "content": [{"text": "Hi"}]}]
    )
    return response["stream"]


@pytest.mark.parametrize(("provider", "name", "case"), CASES)
def test_botocore_stream_same_message_as_dicts(provider: str, name: str, case: Any) -> None:
    """botocore's own decoding of the frames, in chunks of any size, reads as the dicts do."""
    rng = random.Random(name)
    sizes = iter(lambda: rng.choice((1, 5, 13, 4096)), None)
    got = mp.message_from_stream(_stream_of(case["events"], sizes), "bedrock", model="m")
    assert got == mp.message_from_stream(case["events"], "bedrock", model="m")
    whole = mp.message_from_response(case["response"], "bedrock")
    assert got == whole.model_copy(update={"model": "m"})


# Streams of each content kind, with the `converse` content block the same content is.
KINDS: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {
    "server_tool": (
        [
            _start(0, {"toolUse": {"toolUseId": "s1", "name": "web", "type": "server_tool_use"}}),
            _delta(0, {"toolUse": {"input": '{"q": "sea'}}),
            _delta(0, {"toolUse": {"input": '"}'}}),
            _end(0),
            _start(1, {"toolResult": {"toolUseId": "s1", "type": "web", "status": "success"}}),
            _delta(1, {"toolResult": [{"text": "Waves "}]}),
            _delta(1, {"toolResult": [{"text": "and foam"}, {"json": {"n": 2}}]}),
            _end(1),
        ],
        [
            {
                "toolUse": {
                    "toolUseId": "s1",
                    "name": "web",
                    "type": "server_tool_use",
                    "input": {"q": "sea"},
                }
            },
            {
                "toolResult": {
                    "toolUseId": "s1",
                    "type": "web",
                    "status": "success",
                    "content": [{"text": "Waves and foam"}, {"json": {"n": 2}}],
                }
            },
        ],
    ),
    "image_bytes": (
        [
            _start(0, {"image": {"format": "png"}}),
            _delta(0, {"image": {"source": {"bytes": PNG[:20]}}}),
            _delta(0, {"image": {"source": {"bytes": PNG[20:]}}}),
            _end(0),
        ],
        [{"image": {"format": "png", "source": {"bytes": PNG}}}],
    ),
    "image_s3": (
        [
            _start(0, {"image": {"format": "png"}}),
            _delta(0, {"image": {"source": {"s3Location": {"uri": "s3://b/k.png"}}}}),
            _end(0),
        ],
        [{"image": {"format": "png", "source": {"s3Location": {"uri": "s3://b/k.png"}}}}],
    ),
    "empty_text_block": (
        [_end(0), _delta(1, {"text": "Hi"}), _end(1)],
        [{"text": ""}, {"text": "Hi"}],
    ),
    "tool_no_input": (
        [_start(0, {"toolUse": {"toolUseId": "t1", "name": "now"}}), _end(0)],
        [{"toolUse": {"toolUseId": "t1", "name": "now", "input": {}}}],
    ),
    "citation_before_text": (
        [
            _delta(0, {"citation": {"title": "Doc", "sourceContent": [{"text": "q"}]}}),
            _delta(0, {"text": "Quoted."}),
            _end(0),
        ],
        [
            {
                "citationsContent": {
                    "content": [{"text": "Quoted."}],
                    "citations": [{"title": "Doc", "sourceContent": [{"text": "q"}]}],
                }
            }
        ],
    ),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_stream_content_kind_same_as_block(kind: str) -> None:
    """Each content kind streamed reads as the `converse` block of the same content."""
    events, content = KINDS[kind]
    got = mp.message_from_stream([START, *events, STOP], "bedrock")
    assert got == mp.message_from_response(_response(*content), "bedrock")


def test_stream_server_tool_is_provider_deltas() -> None:
    """A tool the API runs itself grows a ProviderPart, with provider deltas."""
    events, _ = KINDS["server_tool"]
    reader = mp.StreamReader("bedrock")
    deltas = [d for e in [START, *events, STOP] for d in reader.feed(e)]
    assert [p.kind for p in reader.result().parts] == ["provider", "provider"]
    assert {(d.kind, d.index, d.name) for d in deltas if d.index is not None} == {
        ("provider", 0, "toolUse"),
        ("provider", 1, "toolResult"),
    }


def test_stream_unknown_block_kept_as_provider_part() -> None:
    """A block of a kind the reader does not know is kept as it arrived, never dropped."""
    events = [
        START,
        _start(0, {"somethingNew2027": {"id": "x"}}),
        _delta(0, {"somethingNew2027": {"piece": 1}}),
        _end(0),
        _delta(1, {"otherNew2027": "y"}),
        STOP,
    ]
    reader = mp.StreamReader("bedrock")
    deltas = [d for e in events for d in reader.feed(e)]
    first, second = reader.result().parts
    assert first == mp.ProviderPart(
        provider="bedrock",
        data={
            "somethingNew2027": {
                "start": {"somethingNew2027": {"id": "x"}},
                "deltas": [{"somethingNew2027": {"piece": 1}}],
            }
        },
    )
    assert isinstance(second, mp.ProviderPart)
    assert second.data == {"otherNew2027": {"deltas": [{"otherNew2027": "y"}]}}
    assert [(d.kind, d.index) for d in deltas[:-1]] == [("provider", 0)] * 2 + [("provider", 1)]


def test_stream_unknown_start_member_left_out() -> None:
    """A start member added later is left out; the tool call reads as without it."""
    events = [START, _start(0, {"toolUse": {"toolUseId": "t", "name": "f", "new2027": 1}}), STOP]
    (call,) = mp.message_from_stream(events, "bedrock").tool_calls
    assert (call.id, call.name, call.arguments) == ("t", "f", "{}")


def test_stream_unknown_member_of_known_block_skipped() -> None:
    """A delta member added later, for a text block, is skipped; the text stays."""
    events = [START, _delta(0, {"text": "Hi"}), _delta(0, {"textNew2027": {"x": 1}}), STOP]
    assert mp.message_from_stream(events, "bedrock").text == "Hi"


@pytest.mark.parametrize("encoded", [False, True])
def test_stream_redacted_reasoning_bytes(encoded: bool) -> None:
    """redactedContent bytes (or their base64 in JSON) add up to the ReasoningPart's data."""
    pieces = [b"\x00\x01secret", b"\xffmore"]
    events = [
        START,
        *[
            _delta(0, {"reasoningContent": {"redactedContent": base64.b64encode(p).decode()}})
            if encoded
            else _delta(0, {"reasoningContent": {"redactedContent": p}})
            for p in pieces
        ],
        _end(0),
        _delta(1, {"text": "Done."}),
        STOP,
    ]
    reader = mp.StreamReader("bedrock")
    deltas = [d for e in events for d in reader.feed(e)]
    reply = reader.result()
    whole = _response(
        {"reasoningContent": {"redactedContent": b"".join(pieces)}}, {"text": "Done."}
    )
    assert reply == mp.message_from_response(whole, "bedrock")
    reasoning = reply.parts[0]
    assert isinstance(reasoning, mp.ReasoningPart)
    assert reasoning.data == b"".join(pieces)
    assert [d.kind for d in deltas if d.index == 0] == ["reasoning", "reasoning"]
    via_botocore = mp.message_from_stream(_stream_of(events), "bedrock")
    assert via_botocore == reply


@pytest.mark.parametrize(
    "raw",
    ['{"city": "Par', "[1, 2]", '"text"', "NaN", '{"a": 1e999}', "[" * 100_000, "not json"],
)
def test_stream_tool_input_not_an_object_kept_as_text(raw: str) -> None:
    """Tool input that never becomes a JSON object is kept as the text that arrived."""
    cut = len(raw) // 2
    events = [
        START,
        _start(0, {"toolUse": {"toolUseId": "t1", "name": "weather"}}),
        _delta(0, {"toolUse": {"input": raw[:cut]}}),
        _delta(0, {"toolUse": {"input": raw[cut:]}}),
        _end(0),
        {"messageStop": {"stopReason": "tool_use"}},
    ]
    reader = mp.StreamReader("bedrock")
    deltas = [d for e in events for d in reader.feed(e)]
    (call,) = reader.result().tool_calls
    assert (call.id, call.name, call.arguments) == ("t1", "weather", raw)
    assert "".join(d.arguments for d in deltas if d.kind == "tool_call") == raw


def test_stream_partial_tool_call_holds_text_so_far() -> None:
    """Mid-call, the message so far holds the arguments that arrived."""
    reader = mp.StreamReader("bedrock")
    for event in [START, _start(0, {"toolUse": {"toolUseId": "t", "name": "f"}})]:
        reader.feed(event)
    reader.feed(_delta(0, {"toolUse": {"input": '{"a": '}}))
    assert reader.message.tool_calls[0].arguments == '{"a": '
    reader.feed(_delta(0, {"toolUse": {"input": "1}"}}))
    assert reader.message.tool_calls[0].parsed_arguments() == {"a": 1}
    assert not reader.finished and reader.message.stop_reason is None


ERRORS = [
    "internalServerException",
    "modelStreamErrorException",
    "validationException",
    "throttlingException",
    "serviceUnavailableException",
]


@pytest.mark.parametrize("kind", ERRORS)
def test_stream_error_event_raises_stream_error(kind: str) -> None:
    """An error event mid-stream is StreamError: its dict as `.error`, the reply so far."""
    error = {kind: {"message": "Too many requests, please wait."}}
    events = [START, _delta(0, {"text": "Once upon"}), error, _delta(0, {"text": " a time"})]
    with pytest.raises(mp.StreamError, match=kind) as caught:
        mp.message_from_stream(events, "bedrock")
    assert caught.value.error == error
    assert caught.value.partial is not None and caught.value.partial.text == "Once upon"


def test_botocore_error_frame_raises_its_own_error() -> None:
    """Through botocore, an error frame raises botocore's EventStreamError; the reader holds
    the reply so far."""
    from botocore.exceptions import EventStreamError

    body = _eventstream.event_frame(START) + _eventstream.event_frame(_delta(0, {"text": "Hi"}))
    body += _eventstream.exception_frame("throttlingException", "slow down")
    response = _eventstream.client(body).converse_stream(modelId="m", messages=[])
    reader = mp.StreamReader("bedrock")
    with pytest.raises(EventStreamError):
        list(reader.relay(response["stream"]))
    assert reader.message.text == "Hi" and not reader.finished


HOSTILE = [
    (_delta(10**18, {"text": "x"}), r"contentBlockDelta\.contentBlockIndex"),
    (
        _start(10**18, {"toolUse": {"toolUseId": "t", "name": "f"}}),
        r"contentBlockStart\.contentBlockIndex",
    ),
    (_end(10**18), r"contentBlockStop\.contentBlockIndex"),
    (_delta(-1, {"text": "x"}), r"contentBlockDelta\.contentBlockIndex"),
    (_delta(True, {"text": "x"}), r"contentBlockDelta\.contentBlockIndex"),
    (_delta(_wrong("0"), {"text": "x"}), r"contentBlockDelta\.contentBlockIndex"),
    (_delta(2, {"text": "x"}), r"contentBlockDelta\.contentBlockIndex: index 2"),
    (_delta(1, {"toolUse": {"input": "{}"}}), r"delta\.toolUse: block 1 was never started"),
    (_delta(1, {"image": {"source": {"bytes": PNG}}}), r"delta\.image: block 1 was never started"),
    (_start(0, {"toolUse": {"toolUseId": "t", "name": "f"}}), r"block 0 has already started"),
    (_delta(0, {"toolUse": {"input": "{}"}}), r"delta\.toolUse: block 0 is a text block"),
    (_delta(0, {"text": 5}), r"contentBlockDelta\.delta\.text: expected a string"),
    (_delta(0, {"text": "a", "citation": {}}), r"contentBlockDelta\.delta: expected an object"),
    (_delta(0, {"citation": {"title": 3}}), r"delta\.citation\.title"),
    (_delta(0, {"reasoningContent": {"text": "t"}}), r"block 0 is a text block"),
    ({"contentBlockDelta": {"contentBlockIndex": 0}}, r"contentBlockDelta\.delta: missing"),
    (_start(1, {"toolUse": {"name": "f"}}), r"start\.toolUse\.toolUseId: missing"),
    (_start(1, {"image": {}}), r"start\.image\.format: missing"),
    (_start(1, {"toolUse": {"toolUseId": "t", "name": 3}}), r"start\.toolUse\.name: expected"),
    (_start(1, {"toolResult": {"toolUseId": "t", "status": []}}), r"toolResult\.status: expected"),
    ({"messageStart": {"role": "user"}}, r"messageStart\.role"),
    ({"messageStop": {"stopReason": 7}}, r"messageStop\.stopReason"),
    ({"metadata": {"usage": {"inputTokens": -1}}}, r"metadata\.usage\.inputTokens"),
    ({"metadata": {"usage": "many"}}, r"metadata\.usage: expected an object"),
    ({"contentBlockDelta": "x"}, r"contentBlockDelta: expected an object"),
    ({"a": {}, "b": {}}, r"stream event: expected an object with exactly one key"),
    (["contentBlockDelta"], r"stream event: expected an object"),
]


@pytest.mark.parametrize(("event", "names"), HOSTILE)
def test_stream_hostile_event_is_invalid_media(event: Any, names: str) -> None:
    """A malformed or out-of-order event is InvalidMedia naming its field, never a crash."""
    reader = mp.StreamReader("bedrock")
    reader.feed(START)
    reader.feed(_delta(0, {"text": "Hi"}))
    with pytest.raises(mp.InvalidMedia, match=names) as caught:
        reader.feed(event)
    assert not isinstance(caught.value, mp.StreamError)
    assert reader.message.text == "Hi"


def test_stream_metadata_cannot_reach_the_content() -> None:
    """metadata members the response has not (`output`, `stopReason`) are left out."""
    events = [START, _delta(0, {"text": "Hi"}), STOP]
    hostile: dict[str, Any] = {
        "metadata": {"output": {"message": {"role": "assistant", "content": []}}}
    }
    hostile["metadata"]["stopReason"] = "max_tokens"
    reply = mp.message_from_stream([*events, hostile], "bedrock")
    assert reply == mp.message_from_stream(events, "bedrock")


def test_stream_redacted_after_text_is_invalid_media() -> None:
    """One reasoning block cannot hold both readable and redacted reasoning."""
    reader = mp.StreamReader("bedrock")
    reader.feed(_delta(0, {"reasoningContent": {"text": "hmm"}}))
    with pytest.raises(mp.InvalidMedia, match=r"redactedContent: block 0 holds reasoning text"):
        reader.feed(_delta(0, {"reasoningContent": {"redactedContent": b"x"}}))


def test_stream_twenty_thousand_deltas_read() -> None:
    """A stream of 20,000 text and 20,000 tool input deltas reads whole."""
    events: list[Any] = [START]
    events += [_delta(0, {"text": "ab"}) for _ in range(20_000)]
    events.append(_start(1, {"toolUse": {"toolUseId": "t", "name": "f"}}))
    events.append(_delta(1, {"toolUse": {"input": '{"k": ['}}))
    events += [_delta(1, {"toolUse": {"input": "1, "}}) for _ in range(20_000)]
    events += [_delta(1, {"toolUse": {"input": "1]}"}}), STOP]
    reply = mp.message_from_stream(events, "bedrock")
    assert reply.text == "ab" * 20_000
    assert json.loads(reply.tool_calls[0].arguments) == {"k": [1] * 20_001}


# The docs' example: reading a boto3 `converse_stream` with mp.StreamReader (`client` is
# `boto3.client("bedrock-runtime")`; the test gives a botocore client on a stubbed network).
SNIPPET = """\
import mediaparts as mp

conversation = [mp.User("Write a haiku about the sea.")]
model_id = "anthropic.claude-sonnet-4-5-20250929-v1:0"

reader = mp.StreamReader("bedrock", model=model_id)
response = client.converse_stream(modelId=model_id, **mp.render(conversation, "bedrock"))
for event in response["stream"]:
    for delta in reader.feed(event):
        if delta.kind == "text":
            print(delta.text, end="", flush=True)
reply = reader.result()  # mp.Assistant: text, tool calls, usage, stop reason
conversation.append(reply)
"""


def test_docs_snippet_reads_a_botocore_stream(capsys: pytest.CaptureFixture[str]) -> None:
    """The docs' snippet, run as written on a botocore client, prints and keeps the reply."""
    case = next(c.values[2] for c in CASES if c.values[1] == "text_with_usage")
    body = b"".join(_eventstream.event_frame(e) for e in case["events"])
    scope: dict[str, Any] = {"client": _eventstream.client(body)}
    exec(compile(SNIPPET, "snippet", "exec"), scope)
    reply = scope["conversation"][-1]
    assert capsys.readouterr().out == reply.text
    assert reply.model == "anthropic.claude-sonnet-4-5-20250929-v1:0"
    assert reply.usage == mp.Usage(input_tokens=12, output_tokens=9)
    assert mp.render(scope["conversation"], "bedrock")["messages"][1] == {
        "role": "assistant",
        "content": [{"text": reply.text}],
    }
