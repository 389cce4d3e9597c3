"""Batch files checked line by line with each SDK's own request types, and sent by the real
clients (OpenAI's file upload for `purpose="batch"`, Anthropic's `messages.batches.create`)
over mock transports."""

from __future__ import annotations

import base64
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from tests._builders import TESTDATA
from tests.providers._sdk import SDK_MODULES, converse_shape, strict, validate_request

# The providers with a batch API (a batch envelope on their record).
BATCHED = [p for p in mp.providers.names() if mp.providers.get(p).batch_request is not None]

pytestmark = pytest.mark.skipif(sys.version_info < (3, 11), reason="the SDKs need 3.11+")

NEEDS: dict[str, dict[str, Any]] = {
    "openai": {"model": "gpt-4o", "params": {"max_completion_tokens": 50}},
    "openai-responses": {"model": "gpt-4o", "params": {"max_output_tokens": 50}},
    "anthropic": {"model": "claude-sonnet-4-5", "params": {"max_tokens": 50}},
    "gemini": {"params": {"generationConfig": {"maxOutputTokens": 50, "temperature": 0.2}}},
    "bedrock": {"params": {"inferenceConfig": {"maxTokens": 50}}},
    "groq": {"model": "meta-llama/llama-4-scout-17b-16e-instruct", "params": {"max_tokens": 50}},
    "azure-openai": {"model": "gpt-4o", "params": {"max_completion_tokens": 50}},
    "azure-openai-responses": {"model": "gpt-4o", "params": {"max_output_tokens": 50}},
    "anthropic-vertex": {"params": {"max_tokens": 50}},
    "anthropic-bedrock": {"params": {"max_tokens": 50}},
    "mistral": {"model": "mistral-small-latest", "params": {"max_tokens": 50}},
}


def conversations() -> list[tuple[str, list[mp.Message]]]:
    """Image prompts of a few shapes: one image, two, a system prompt, an earlier turn."""
    image = mp.part(TESTDATA / "alpha.png")
    photo = mp.part(TESTDATA / "gray.jpg")
    return [
        ("one", [mp.User(["What is this?", image])]),
        ("two", [mp.System("Be brief."), mp.User(["Compare.", image, photo])]),
        (
            "turns",
            [mp.User(["Describe.", photo]), mp.Assistant("A gray square."), mp.User("Sure?")],
        ),
    ]


def write(provider: str, out: Path) -> list[bytes]:
    files = mp.write_batch(conversations(), provider, out, workers=1, **NEEDS[provider])
    return [line for f in files for line in f.path.read_bytes().splitlines()]


def _from_wire(value: Any, shape: Any) -> Any:
    """Read Converse JSON as boto3 would take it: the blobs' base64 back to bytes."""
    if shape.type_name == "blob" and isinstance(value, str):
        return base64.b64decode(value)
    if shape.type_name == "structure" and isinstance(value, dict):
        return {
            k: _from_wire(v, shape.members[k]) if k in shape.members else v
            for k, v in value.items()
        }
    if shape.type_name == "list" and isinstance(value, list):
        return [_from_wire(v, shape.member) for v in value]
    return value


def check_openai(record: dict[str, Any]) -> None:
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

    assert set(record) == {"custom_id", "method", "url", "body"}
    assert (record["method"], record["url"]) == ("POST", "/v1/chat/completions")
    strict(CompletionCreateParamsNonStreaming, record["body"])


def check_openai_responses(record: dict[str, Any]) -> None:
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

    assert (record["method"], record["url"]) == ("POST", "/v1/responses")
    strict(ResponseCreateParamsNonStreaming, record["body"])


def check_anthropic(record: dict[str, Any]) -> None:
    from anthropic.types.messages.batch_create_params import Request

    strict(Request, record)
    validate_request("anthropic", record["params"])


def check_gemini(record: dict[str, Any]) -> None:
    from google.genai import types

    assert set(record) == {"key", "request"}
    request = record["request"]
    validate_request("gemini", request)
    types.GenerationConfig.model_validate(request["generationConfig"])
    assert set(request) <= {"contents", "systemInstruction", "generationConfig"}


def check_bedrock(record: dict[str, Any]) -> None:
    from botocore.validate import ParamValidator

    assert set(record) == {"recordId", "modelInput"}
    shape = converse_shape()
    body = _from_wire(record["modelInput"], shape)
    report = ParamValidator().validate({"modelId": "m", **body}, shape)
    assert not report.has_errors(), report.generate_report()
    validate_request("bedrock", body)


def check_groq(record: dict[str, Any]) -> None:
    from groq.types.chat.completion_create_params import CompletionCreateParams

    assert set(record) == {"custom_id", "method", "url", "body"}
    assert (record["method"], record["url"]) == ("POST", "/v1/chat/completions")
    strict(CompletionCreateParams, record["body"])


def check_claude_route(record: dict[str, Any], keys: tuple[str, str], version: str) -> None:
    """A Claude line of Vertex AI or Bedrock: the Messages body, with the route's version and
    no model (the job names it), is what anthropic's `messages.create` types take."""
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

    id_key, body_key = keys
    assert set(record) == {id_key, body_key}
    body = dict(record[body_key])
    assert body.pop("anthropic_version") == version and "model" not in body
    strict(MessageCreateParamsNonStreaming, {"model": "claude-test-model", **body})
    validate_request("anthropic", body)


def check_mistral(record: dict[str, Any]) -> None:
    from mistralai.client.models import BatchRequestTypedDict, ChatCompletionRequestTypedDict

    assert set(record) == {"custom_id", "body"}
    strict(BatchRequestTypedDict, record)
    strict(ChatCompletionRequestTypedDict, record["body"])


CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "openai": check_openai,
    "openai-responses": check_openai_responses,
    "anthropic": check_anthropic,
    "gemini": check_gemini,
    "bedrock": check_bedrock,
    "groq": check_groq,
    "azure-openai": check_openai,  # OpenAI's envelope, the deployment's name as the model
    "azure-openai-responses": check_openai_responses,
    "anthropic-vertex": lambda record: check_claude_route(
        record, ("custom_id", "request"), "vertex-2023-10-16"
    ),
    "anthropic-bedrock": lambda record: check_claude_route(
        record, ("recordId", "modelInput"), "bedrock-2023-05-31"
    ),
    "mistral": check_mistral,
}
# The providers with a batch format (OpenRouter has no batch API).
BATCHED = [p for p in mp.providers.names() if mp.providers.get(p).batch_request is not None]


@pytest.mark.parametrize("provider", BATCHED)
def test_batch_file_lines_validate_with_the_sdk_types(provider: str, tmp_path: Path) -> None:
    """Every line of a written batch file is what the provider's SDK types take."""
    pytest.importorskip(SDK_MODULES[provider])
    lines = write(provider, tmp_path)
    assert len(lines) == 3
    for line in lines:
        CHECKS[provider](json.loads(line))


def test_bedrock_job_takes_the_converse_invocation_type() -> None:
    """The job that reads Converse-shaped records exists: CreateModelInvocationJob's
    modelInvocationType has "Converse" (botocore's bedrock service model)."""
    pytest.importorskip("botocore")
    import botocore.session

    model = botocore.session.get_session().get_service_model("bedrock")
    shape = model.operation_model("CreateModelInvocationJob").input_shape
    assert "Converse" in shape.members["modelInvocationType"].enum


def test_openai_client_uploads_the_batch_file(tmp_path: Path) -> None:
    """openai's client uploads a written file for purpose "batch", byte for byte."""
    pytest.importorskip("openai")
    httpx2 = pytest.importorskip("httpx2")
    import openai

    (batch,) = mp.write_batch(conversations(), "openai", tmp_path, workers=1, **NEEDS["openai"])
    seen: list[Any] = []

    def handler(request: Any) -> Any:
        seen.append(request)
        reply = {
            "id": "file-1",
            "object": "file",
            "bytes": batch.bytes,
            "created_at": 0,
            "filename": batch.path.name,
            "purpose": "batch",
            "status": "processed",
        }
        return httpx2.Response(200, json=reply)

    with httpx2.Client(transport=httpx2.MockTransport(handler)) as http:
        client = openai.OpenAI(api_key="x", http_client=http, max_retries=0)
        with batch.path.open("rb") as file:
            uploaded = client.files.create(file=file, purpose="batch")
    assert uploaded.id == "file-1"
    (request,) = seen
    assert request.url.path == "/v1/files"
    body = request.read()
    assert b'name="purpose"\r\n\r\nbatch' in body
    assert batch.path.read_bytes() in body
    assert f'filename="{batch.path.name}"'.encode() in body


def test_anthropic_client_sends_the_batch_requests(tmp_path: Path) -> None:
    """anthropic's client sends the file's requests to messages.batches.create unchanged."""
    pytest.importorskip("anthropic")
    httpx2 = pytest.importorskip("httpx2")
    import anthropic

    files = mp.write_batch(conversations(), "anthropic", tmp_path, workers=1, **NEEDS["anthropic"])
    requests = [json.loads(line) for f in files for line in f.path.read_bytes().splitlines()]
    bodies: list[Any] = []

    def handler(request: Any) -> Any:
        bodies.append(json.loads(request.read()))
        reply = {
            "id": "msgbatch_1",
            "type": "message_batch",
            "processing_status": "in_progress",
            "request_counts": {
                "processing": 3,
                "succeeded": 0,
                "errored": 0,
                "canceled": 0,
                "expired": 0,
            },
            "created_at": "2026-12-02T00:00:00Z",
            "expires_at": "2026-12-03T00:00:00Z",
            "ended_at": None,
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": None,
        }
        return httpx2.Response(200, json=reply)

    with httpx2.Client(transport=httpx2.MockTransport(handler)) as http:
        client = anthropic.Anthropic(api_key="x", http_client=http, max_retries=0)
        created = client.messages.batches.create(requests=requests)
    assert created.id == "msgbatch_1"
    assert bodies == [{"requests": requests}]
