"""Reading batch result files: answers keyed by the caller's ids, errors as results, hostile
lines bounded and named."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from tests.providers._sdk import SDK_MODULES, sdk_response

# The providers with a batch API (a batch envelope on their record).
BATCHED = [p for p in mp.providers.names() if mp.providers.get(p).batch_request is not None]

CHAT = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 0,
    "model": "gpt-4o",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "A red square."},
            "finish_reason": "stop",
            "logprobs": None,
        }
    ],
}
RESPONSE = {
    "id": "resp_1",
    "object": "response",
    "created_at": 0,
    "model": "gpt-4o",
    "status": "completed",
    "output": [
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "A red square.", "annotations": []}],
        }
    ],
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
}
MESSAGE = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [{"type": "text", "text": "A red square."}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 10, "output_tokens": 4},
}
GENERATED = {
    "candidates": [
        {"content": {"role": "model", "parts": [{"text": "A red square."}]}, "finishReason": "STOP"}
    ],
    "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 4, "totalTokenCount": 14},
}
# A chat completion as Mistral's batch result file holds it (docs.mistral.ai/studio/
# batch-processing, the chat completion tab's result file, read 2026-12).
MISTRAL_CHAT = {
    "id": "85bcfa450e5643f2a2aed46472d97ffd",
    "object": "chat.completion",
    "model": "ministral-3b-latest",
    "usage": {"prompt_tokens": 10, "completion_tokens": 4, "total_tokens": 14},
    "created": 1761577934,
    "choices": [
        {
            "index": 0,
            "finish_reason": "stop",
            "message": {"role": "assistant", "content": "A red square.", "tool_calls": None},
        }
    ],
}
CONVERSE = {
    "output": {"message": {"role": "assistant", "content": [{"text": "A red square."}]}},
    "stopReason": "end_turn",
    "usage": {"inputTokens": 10, "outputTokens": 4, "totalTokens": 14},
    "metrics": {"latencyMs": 5},
}

# Each provider's success line, and the response body in it (what its SDK must take).
SUCCESS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "openai": (
        {
            "id": "batch_req_1",
            "custom_id": "img-1",
            "response": {"status_code": 200, "request_id": "req_1", "body": CHAT},
            "error": None,
        },
        CHAT,
    ),
    "openai-responses": (
        {
            "id": "batch_req_1",
            "custom_id": "img-1",
            "response": {"status_code": 200, "request_id": "req_1", "body": RESPONSE},
            "error": None,
        },
        RESPONSE,
    ),
    "anthropic": (
        {"custom_id": "img-1", "result": {"type": "succeeded", "message": MESSAGE}},
        MESSAGE,
    ),
    "gemini": ({"key": "img-1", "response": GENERATED}, GENERATED),
    "bedrock": (
        {"recordId": "img-1", "modelInput": {"messages": []}, "modelOutput": CONVERSE},
        CONVERSE,
    ),
    "anthropic-vertex": (
        {"custom_id": "img-1", "request": {"messages": []}, "response": MESSAGE, "status": ""},
        MESSAGE,
    ),
    "anthropic-bedrock": (
        {"recordId": "img-1", "modelInput": {"messages": []}, "modelOutput": MESSAGE},
        MESSAGE,
    ),
    "mistral": (
        {
            "id": "batch-cd0da3ab-1-377e2e82-7cbb-4f72-bc67-533512f70955",
            "custom_id": "img-1",
            "response": {"status_code": 200, "body": MISTRAL_CHAT},
            "error": None,
        },
        MISTRAL_CHAT,
    ),
}
# A provider on OpenAI's batch envelope (custom_id, response.body) reads its lines alike.
SUCCESS["groq"] = SUCCESS["azure-openai"] = SUCCESS["openai"]
SUCCESS["azure-openai-responses"] = SUCCESS["openai-responses"]
# The providers with a batch format (OpenRouter has no batch API).
BATCHED = [p for p in mp.providers.names() if mp.providers.get(p).batch_request is not None]

# Error lines: (provider, line, code, status).
ERRORS = [
    (
        "openai",
        {
            "custom_id": "img-2",
            "response": {
                "status_code": 400,
                "body": {"error": {"type": "invalid_request_error", "message": "bad image"}},
            },
            "error": None,
        },
        "invalid_request_error",
        400,
    ),
    (
        "openai",
        {"custom_id": "img-2", "response": {"status_code": 500, "body": {}}, "error": None},
        "http_500",
        500,
    ),
    (
        "openai-responses",
        {
            "custom_id": "img-2",
            "response": None,
            "error": {"code": "batch_expired", "message": "This request could not be executed"},
        },
        "batch_expired",
        None,
    ),
    (
        "anthropic",
        {
            "custom_id": "img-2",
            "result": {
                "type": "errored",
                "error": {
                    "type": "error",
                    "error": {"type": "invalid_request_error", "message": "bad image"},
                },
            },
        },
        "invalid_request_error",
        None,
    ),
    ("anthropic", {"custom_id": "img-2", "result": {"type": "expired"}}, "expired", None),
    ("anthropic", {"custom_id": "img-2", "result": {"type": "canceled"}}, "canceled", None),
    (
        "gemini",
        {"key": "img-2", "error": {"code": 400, "message": "bad", "status": "INVALID_ARGUMENT"}},
        "INVALID_ARGUMENT",
        400,
    ),
    ("gemini", {"key": "img-2", "status": {"code": 13, "message": "internal"}}, "13", 13),
    ("gemini", {"key": "img-2", "error": {"message": "no code"}}, "error", None),
    ("bedrock", {"recordId": "img-2", "error": {"errorMessage": "no code"}}, "error", None),
    (
        "anthropic-vertex",
        {"custom_id": "img-2", "request": {}, "status": "Bad Request: invalid image"},
        "failed",
        None,
    ),
    ("anthropic-vertex", {"custom_id": "img-2", "request": {}}, "failed", None),
    (
        "anthropic-bedrock",
        {"recordId": "img-2", "modelInput": {}, "error": {"errorCode": 400, "errorMessage": "x"}},
        "400",
        400,
    ),
    ("gemini", {"key": "img-2", "error": {"code": [[1]], "status": {}}}, "error", None),
    ("gemini", {"key": "img-2", "error": {"code": 4.5, "status": ""}}, "error", None),
    ("bedrock", {"recordId": "img-2", "error": {"errorCode": {"a": [1]}}}, "error", None),
    (
        "bedrock",
        {"recordId": "img-2", "modelInput": {}, "error": {"errorCode": 400, "errorMessage": "bad"}},
        "400",
        400,
    ),
]


@pytest.mark.parametrize("provider", BATCHED)
def test_read_batch_results_gives_the_answer_under_its_id(provider: str) -> None:
    """A success line reads as the Assistant message, keyed by the caller's id."""
    line, _ = SUCCESS[provider]
    for source in ([line], [json.dumps(line)], [json.dumps(line).encode()]):
        (result,) = mp.read_batch_results(source, provider)
        assert result.custom_id == "img-1" and result.error is None and result.ok
        assert isinstance(result.message, mp.Assistant)
        assert result.message.content == "A red square."
        assert result.line == 1


@pytest.mark.skipif(sys.version_info < (3, 11), reason="the SDKs need 3.11+")
@pytest.mark.parametrize("provider", BATCHED)
def test_read_batch_results_fixtures_are_sdk_responses(provider: str) -> None:
    """The response bodies these tests read are what the SDKs parse (so the shapes are real)."""
    pytest.importorskip(SDK_MODULES[provider])
    line, body = SUCCESS[provider]
    sdk_response(provider, body)
    if provider == "anthropic":
        from anthropic.types.messages import MessageBatchIndividualResponse

        MessageBatchIndividualResponse.model_validate(line)
        for p, error_line, _, _ in ERRORS:
            if p == "anthropic":
                MessageBatchIndividualResponse.model_validate(error_line)


@pytest.mark.parametrize(
    ("provider", "line", "code", "status"),
    ERRORS,
    ids=[f"{p}-{c}" for p, _, c, _ in ERRORS],
)
def test_read_batch_results_reports_the_provider_error(
    provider: str, line: dict[str, Any], code: str, status: int | None
) -> None:
    """An error line is a result with the provider's code, message and status, no message."""
    (result,) = mp.read_batch_results([line], provider)
    assert result.custom_id == "img-2" and result.message is None and not result.ok
    assert isinstance(result.error, mp.BatchError)
    assert (result.error.code, result.error.status) == (code, status)
    assert result.error.message


def test_read_batch_results_streams_a_file_and_counts_lines(tmp_path: Path) -> None:
    """A path is read line by line; blank lines are skipped but counted; order is kept."""
    ok, _ = SUCCESS["gemini"]
    path = tmp_path / "predictions.jsonl"
    text = json.dumps(ok) + "\n\n" + json.dumps({**ok, "key": "img-3"}) + "\n"
    path.write_text(text)
    results = list(mp.read_batch_results(path, "gemini"))
    assert [(r.custom_id, r.line) for r in results] == [("img-1", 1), ("img-3", 3)]
    assert list(mp.read_batch_results(str(path), "gemini")) == results


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (b"{not json", "line 1: not JSON"),
        (b"\xff\xfe", "line 1: not JSON"),
        ("[1, 2]", "line 1: expected a JSON object, got list"),
        ("[" * 100_000 + "]" * 100_000, "line 1: not JSON"),
        ({"custom_id": 7, "result": {}}, "custom_id: expected a string id"),
        ({"custom_id": "a", "result": "x"}, "line.result: expected an object"),
        ({"custom_id": "a"}, "line.result: expected an object"),
        ({"custom_id": "a", "result": {"type": 5}}, "line.result.type"),
        (3.5, "a line is bytes, str, a dict or an SDK's result object"),
    ],
)
def test_read_batch_results_names_an_unreadable_line(line: Any, words: str) -> None:
    """A line that is not the provider's format is a result whose InvalidMedia says why and
    where; the lines after it are still read."""
    good, _ = SUCCESS["anthropic"]
    first, second = mp.read_batch_results([line, good], "anthropic")
    assert isinstance(first.error, mp.InvalidMedia)
    assert words in str(first.error) and "anthropic batch result line 1" in str(first.error)
    assert first.message is None
    assert second.ok and second.line == 2


def deep(depth: int) -> list[Any]:
    """A list nested `depth` levels, built without recursion."""
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("provider", "line"),
    [
        ("gemini", {"key": "k", "error": {"code": deep(100_000), "message": "m"}}),
        ("bedrock", {"recordId": "k", "error": {"errorCode": deep(100_000)}}),
    ],
)
def test_read_batch_results_survives_a_code_nested_past_the_stack(
    provider: str, line: dict[str, Any]
) -> None:
    """An error code that is no number or text is 'error', never turned into text (which
    overflowed the stack for a deep one)."""
    first, second = mp.read_batch_results([line, SUCCESS[provider][0]], provider)
    assert isinstance(first.error, mp.BatchError) and first.error.code == "error"
    assert first.custom_id == "k" and second.ok


def test_read_batch_results_keeps_the_id_of_an_unreadable_response() -> None:
    """A response body the reader refuses is an error under the line's id."""
    line = {"custom_id": "img-9", "result": {"type": "succeeded", "message": {"content": 5}}}
    (result,) = mp.read_batch_results([line], "anthropic")
    assert result.custom_id == "img-9"
    assert isinstance(result.error, mp.InvalidMedia)


def test_read_batch_results_bounds_the_line_length(tmp_path: Path) -> None:
    """A line over max_line_bytes is not read (nor held): an error names it, reading goes on."""
    ok, _ = SUCCESS["bedrock"]
    path = tmp_path / "out.jsonl.out"
    small = json.dumps(ok)
    path.write_text(json.dumps({**ok, "pad": "x" * 5000}) + "\n" + small + "\n")
    first, second = mp.read_batch_results(path, "bedrock", max_line_bytes=len(small) + 1)
    assert isinstance(first.error, mp.InvalidMedia) and "max_line_bytes" in str(first.error)
    assert second.ok and second.line == 2
    (long,) = mp.read_batch_results(["x" * 100], "bedrock", max_line_bytes=10)
    assert "over 10 bytes" in str(long.error)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and /dev/zero are POSIX")
@pytest.mark.parametrize(("special", "words"), [("fifo", "is a FIFO"), ("/dev/zero", "device")])
def test_read_batch_results_reads_regular_files_only(
    tmp_path: Path, special: str, words: str
) -> None:
    """A FIFO (which would block for ever) or /dev/zero (which never ends) is InvalidMedia
    when the first result is asked for, as every path the library reads."""
    path = Path(special)
    if special == "fifo":
        path = tmp_path / "results.jsonl"
        os.mkfifo(path)
    results = mp.read_batch_results(path, "openai")
    with pytest.raises(mp.InvalidMedia, match=f"{words}.*only regular files are read"):
        next(iter(results))


def test_read_batch_results_missing_file() -> None:
    """A missing file is InvalidMedia naming it, not a bare OSError."""
    with pytest.raises(mp.InvalidMedia, match=r"no file at 'no-such-results\.jsonl'"):
        list(mp.read_batch_results("no-such-results.jsonl", "openai"))


def test_read_batch_results_reads_a_given_file_object_as_it_is(tmp_path: Path) -> None:
    """A file object the caller opened is read as an iterable of lines, not as a path."""
    ok, _ = SUCCESS["bedrock"]
    path = tmp_path / "out.jsonl.out"
    path.write_text(json.dumps(ok) + "\n")
    with path.open("rb") as file:
        (result,) = mp.read_batch_results(file, "bedrock")
    assert result.ok


def test_read_batch_results_error_messages_are_bounded() -> None:
    """A provider's huge error message is kept short."""
    line = {"recordId": "a", "error": {"errorCode": 400, "errorMessage": "m" * 100_000}}
    (result,) = mp.read_batch_results([line], "bedrock")
    assert isinstance(result.error, mp.BatchError) and len(result.error.message) == 1000


@pytest.mark.parametrize(
    ("source", "kwargs", "error"),
    [
        (b"{}", {}, mp.InvalidMedia),
        ({"custom_id": "a"}, {}, mp.InvalidMedia),
        (5, {}, mp.InvalidMedia),
        ([], {"max_line_bytes": 0}, mp.InvalidConfig),
        ([], {"max_line_bytes": True}, mp.InvalidConfig),
    ],
)
def test_read_batch_results_refuses_a_wrong_source(
    source: Any, kwargs: dict[str, Any], error: type[Exception]
) -> None:
    """A source that is neither a path nor an iterable of lines is refused at once."""
    with pytest.raises(error):
        mp.read_batch_results(source, "openai", **kwargs)


def test_read_batch_results_needs_a_response_reader() -> None:
    """A provider with a batch format but no response reader is refused at once."""
    import types

    from mediaparts.providers import openai

    # A wire of Chat Completions' render and sites, with no readers.
    wire = types.SimpleNamespace(
        __name__="no-readers",
        render=openai.PROVIDER.renderer,
        media_site=openai.PROVIDER.media_site,
    )
    mp.providers.register(
        "noreader",
        wire=wire,
        rules=openai.RULES,
        batch_request=openai.PROVIDER.batch_request,
        batch_result=openai.PROVIDER.batch_result,
    )
    try:
        with pytest.raises(mp.InvalidConfig, match="cannot read responses"):
            mp.read_batch_results([], "noreader")
    finally:
        mp.providers.unregister("noreader")


@pytest.mark.skipif(sys.version_info < (3, 11), reason="the SDKs need 3.11+")
def test_read_batch_results_takes_the_sdk_result_objects() -> None:
    """What anthropic's batches.results() yields is read as its JSON lines are."""
    pytest.importorskip("anthropic")
    from anthropic.types.messages import MessageBatchIndividualResponse

    lines = [SUCCESS["anthropic"][0], *(line for p, line, _, _ in ERRORS if p == "anthropic")]
    objects = [MessageBatchIndividualResponse.model_validate(line) for line in lines]
    assert list(mp.read_batch_results(objects, "anthropic")) == list(
        mp.read_batch_results(lines, "anthropic")
    )
