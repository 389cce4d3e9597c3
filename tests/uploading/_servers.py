"""Fake file stores behind the official SDK clients: each answers as its API does and records
every request, so tests check what the SDK sent (multipart body, purpose, MIME type, name).

The clients are real (`openai.OpenAI`, `anthropic.Anthropic`, `google.genai.Client`, a boto3
S3 client); only their transport is a `MockTransport` (httpx for openai and google-genai,
httpx2 for anthropic) or, for S3, botocore's `Stubber`.
"""

from __future__ import annotations

import datetime
import email.parser
import email.policy
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

if sys.version_info < (3, 11):  # the SDKs need Python 3.11+
    pytest.skip("the provider SDKs need Python 3.11+", allow_module_level=True)
pytest.importorskip("openai")
pytest.importorskip("anthropic")
pytest.importorskip("google.genai")
pytest.importorskip("botocore")
pytest.importorskip("httpx2")
pytest.importorskip("mistralai")

import anthropic
import botocore.session
import httpx
import httpx2
import openai
from botocore.stub import Stubber as Stubber
from google import genai
from google.genai import types as genai_types
from mistralai import client as mistral_sdk

# The one expiration time the fake Gemini store answers (2026-12-04T00:00:00Z).
GEMINI_EXPIRY = "2026-12-04T00:00:00Z"
GEMINI_EXPIRY_SECONDS: float = datetime.datetime(2026, 12, 4, tzinfo=datetime.UTC).timestamp()


@dataclass(frozen=True)
class Field:
    """One field of a multipart body."""

    name: str
    filename: str | None
    content_type: str | None
    data: bytes


def multipart(content_type: str, body: bytes) -> dict[str, Field]:
    """Parse a `multipart/form-data` body into its fields, by name."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body
    )
    fields = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        fields[str(name)] = Field(
            name=str(name),
            filename=part.get_filename(),
            content_type=part.get_content_type() if part.get("content-type") else None,
            data=payload if isinstance(payload, bytes) else b"",
        )
    return fields


@dataclass
class Store:
    """What a fake store received."""

    requests: list[Any] = field(default_factory=list)
    counter: int = 0

    def next_id(self) -> int:
        self.counter += 1
        return self.counter


class OpenAIFiles(Store):
    """`POST /v1/files`: answers a `FileObject`."""

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        assert request.method == "POST" and request.url.path == "/v1/files"
        fields = multipart(request.headers["content-type"], request.content)
        sent = fields["file"]
        return httpx.Response(
            200,
            json={
                "id": f"file-{self.next_id()}",
                "object": "file",
                "bytes": len(sent.data),
                "created_at": 1764633600,
                "filename": sent.filename,
                "purpose": fields["purpose"].data.decode(),
                "status": "processed",
            },
        )

    def uploads(self) -> list[dict[str, Field]]:
        return [multipart(r.headers["content-type"], r.content) for r in self.requests]

    def client(self, api_key: str | Callable[[], str] = "sk-test") -> openai.OpenAI:
        transport = httpx.MockTransport(self.handle)
        return openai.OpenAI(
            api_key=api_key, http_client=httpx.Client(transport=transport), max_retries=0
        )

    def async_client(self, api_key: str | Callable[[], str] = "sk-test") -> openai.AsyncOpenAI:
        transport = httpx.MockTransport(self.handle)
        return openai.AsyncOpenAI(
            api_key=api_key, http_client=httpx.AsyncClient(transport=transport), max_retries=0
        )


class AzureFiles(OpenAIFiles):
    """An Azure OpenAI resource's `POST /openai/files?api-version=...`: answers a `FileObject`."""

    def handle(self, request: httpx.Request) -> httpx.Response:
        assert request.url.host == "res.openai.azure.com", request.url
        assert request.url.path == "/openai/files" and "api-version" in request.url.params
        # OpenAIFiles checks OpenAI's path; the rest of the exchange is the same.
        request.url = request.url.copy_with(path="/v1/files")
        return super().handle(request)

    def client(self, api_key: str | Callable[[], str] = "azure-key") -> openai.OpenAI:
        transport = httpx.MockTransport(self.handle)
        return openai.AzureOpenAI(
            azure_endpoint="https://res.openai.azure.com",
            api_key=api_key if isinstance(api_key, str) else None,
            azure_ad_token_provider=None if isinstance(api_key, str) else api_key,
            api_version="2024-10-21",
            http_client=httpx.Client(transport=transport),
            max_retries=0,
        )


class MistralFiles(Store):
    """`POST /v1/files`: answers the upload's file object (docs.mistral.ai document QnA page's
    "Upload a File" output, read 2026-12)."""

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        assert request.method == "POST" and request.url.path == "/v1/files"
        fields = multipart(request.headers["content-type"], request.content)
        sent = fields["file"]
        return httpx.Response(
            200,
            json={
                "id": f"9a90b93c-0e7d-4dd7-8520-07d05140{self.next_id()}",
                "object": "file",
                "bytes": len(sent.data),
                "created_at": 1756754478,
                "filename": sent.filename,
                "purpose": fields["purpose"].data.decode(),
                "sample_type": "ocr_input",
                "num_lines": 0,
                "mimetype": sent.content_type,
                "source": "upload",
            },
        )

    def uploads(self) -> list[dict[str, Field]]:
        return [multipart(r.headers["content-type"], r.content) for r in self.requests]

    def client(self) -> mistral_sdk.Mistral:
        transport = httpx.MockTransport(self.handle)
        return mistral_sdk.Mistral(
            api_key="test",
            client=httpx.Client(transport=transport),
            async_client=httpx.AsyncClient(transport=transport),
        )


class AnthropicFiles(Store):
    """`POST /v1/files` (beta): answers a `FileMetadata`."""

    def handle(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        assert request.method == "POST" and request.url.path == "/v1/files"
        sent = multipart(request.headers["content-type"], request.content)["file"]
        return httpx2.Response(
            200,
            json={
                "id": f"file_{self.next_id():04d}",
                "type": "file",
                "filename": sent.filename,
                "mime_type": sent.content_type,
                "size_bytes": len(sent.data),
                "created_at": "2026-12-02T00:00:00Z",
            },
        )

    def uploads(self) -> list[dict[str, Field]]:
        return [multipart(r.headers["content-type"], r.content) for r in self.requests]

    def client(self, api_key: str = "sk-ant-test") -> anthropic.Anthropic:
        transport = httpx2.MockTransport(self.handle)
        return anthropic.Anthropic(
            api_key=api_key, http_client=httpx2.Client(transport=transport), max_retries=0
        )

    def async_client(self, api_key: str = "sk-ant-test") -> anthropic.AsyncAnthropic:
        transport = httpx2.MockTransport(self.handle)
        return anthropic.AsyncAnthropic(
            api_key=api_key, http_client=httpx2.AsyncClient(transport=transport), max_retries=0
        )


class GeminiFiles(Store):
    """The File API's resumable upload (`start`, then `upload, finalize`) and `files.get`.

    `states` is what successive answers say of a file's state (the upload's first, then each
    `get`), the last one repeated: `["PROCESSING", "ACTIVE"]` makes the SDK poll once.
    """

    def __init__(self, states: tuple[str, ...] = ("ACTIVE",), drop: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.states = list(states)
        self.drop = drop  # keys left out of every file it answers
        self.answered = 0

    def _file(self, name: str, mime_type: str) -> dict[str, Any]:
        state = self.states[min(self.answered, len(self.states) - 1)]
        self.answered += 1
        body: dict[str, Any] = {
            "name": name,
            "uri": f"https://generativelanguage.googleapis.com/v1beta/{name}",
            "mimeType": mime_type,
            "state": state,
            "expirationTime": GEMINI_EXPIRY,
        }
        if state == "FAILED":
            body["error"] = {"code": 3, "message": "the video could not be decoded"}
        return {key: value for key, value in body.items() if key not in self.drop}

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        command = request.headers.get("x-goog-upload-command")
        if command == "start":
            number = self.next_id()
            return httpx.Response(
                200, headers={"x-goog-upload-url": f"https://upload.test/session/{number}"}
            )
        if command == "upload, finalize":
            number = request.url.path.rsplit("/", 1)[-1]
            mime = request.headers["x-goog-upload-header-content-type"]
            return httpx.Response(
                200,
                headers={"x-goog-upload-status": "final"},
                json={"file": self._file(f"files/f{number}", mime)},
            )
        assert request.method == "GET", request
        name = request.url.path.split("/v1beta/", 1)[-1]
        return httpx.Response(200, json=self._file(name, "video/mp4"))

    def starts(self) -> list[httpx.Request]:
        return [r for r in self.requests if r.headers.get("x-goog-upload-command") == "start"]

    def bodies(self) -> list[httpx.Request]:
        return [
            r for r in self.requests if r.headers.get("x-goog-upload-command") == "upload, finalize"
        ]

    def client(self, api_key: str = "gemini-test-key", base_url: str | None = None) -> genai.Client:
        transport = httpx.MockTransport(self.handle)
        options = genai_types.HttpOptions(
            base_url=base_url,
            httpx_client=httpx.Client(transport=transport),
            httpx_async_client=httpx.AsyncClient(transport=transport),
        )
        return genai.Client(api_key=api_key, http_options=options)


def start_json(request: httpx.Request) -> Any:
    """The JSON body of a Gemini `start` request."""
    return json.loads(request.content)


def s3_client() -> Any:
    """An S3 client with made-up credentials (a Stubber answers it): botocore's, which is
    what `boto3.client("s3")` returns too."""
    return botocore.session.get_session().create_client(
        "s3",
        region_name="us-east-1",
        aws_access_key_id="AKIDTEST",
        aws_secret_access_key="secret-test",
    )


def expect_put(stubber: Stubber, bucket: str, key: str, body: bytes, content_type: str) -> None:
    """Expect one `put_object` with exactly these parameters."""
    stubber.add_response(
        "put_object",
        {"ETag": '"etag"'},
        {"Bucket": bucket, "Key": key, "Body": body, "ContentType": content_type},
    )


def docs_client(name: str) -> Any:
    """A client for the docs' examples, answered by a fake store (`s3`: a Stubber's)."""
    match name:
        case "openai":
            return OpenAIFiles().client()
        case "async-openai":
            return OpenAIFiles().async_client()
        case "anthropic":
            return AnthropicFiles().client()
        case "gemini":
            return GeminiFiles().client()
        case _:
            client = s3_client()
            stubber = Stubber(client)
            for _ in range(8):
                stubber.add_response("put_object", {"ETag": '"etag"'})
            stubber.activate()
            return client
