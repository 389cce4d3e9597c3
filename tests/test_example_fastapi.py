"""docs/examples/fastapi_app.py: real files posted through httpx's ASGI transport (no network)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import random
import sys
from typing import Any

import httpx
import pytest

import mediaparts as mp
from tests._builders import ROOT, TESTDATA, png_header

pytest.importorskip("fastapi")
if not (importlib.util.find_spec("python_multipart") or importlib.util.find_spec("multipart")):
    pytest.skip("FastAPI needs python-multipart to read forms", allow_module_level=True)

EXAMPLE = ROOT / "docs" / "examples" / "fastapi_app.py"


@pytest.fixture
def example() -> Any:
    """The example's module, loaded from its file."""
    spec = importlib.util.spec_from_file_location("fastapi_app", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def app(example: Any) -> Any:
    """The example's FastAPI app."""
    return example.app


def post(app: Any, name: str, content: bytes, content_type: str) -> httpx.Response:
    """POST one file to /describe in-process."""
    return request(app, "POST", "/describe", files={"file": (name, content, content_type)})


def request(app: Any, method: str, path: str, **kwargs: Any) -> httpx.Response:
    """Send one request to the app in-process."""

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://example") as client:
            return await client.request(method, path, **kwargs)

    return asyncio.run(send())


def inspect(app: Any, names: list[str], providers: list[str], **models: str) -> httpx.Response:
    """POST testdata files to /inspect for `providers`; `models` maps a provider to its model."""
    files = [("file", (name, (TESTDATA / name).read_bytes(), "image/jpeg")) for name in names]
    data: dict[str, Any] = {"provider": providers}
    data |= {f"model.{provider}": model for provider, model in models.items()}
    return request(app, "POST", "/inspect", files=files, data=data)


def test_example_photo_described(app: Any) -> None:
    """photo.jpg comes back upright (480x640), stripped, and needs no change for Anthropic."""
    response = post(app, "photo.jpg", (TESTDATA / "photo.jpg").read_bytes(), "image/jpeg")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["media_type"] == "image/jpeg"
    assert (body["kind"], body["width"], body["height"]) == ("image", 480, 640)
    assert body["anthropic"]["steps"] == []  # already upright and within limits
    assert body["anthropic"]["tokens"] > 0


@pytest.mark.parametrize(
    ("name", "file", "content_type", "media_type", "kind"),
    [
        ("photo.jpg", "mislabelled.jpg", "image/jpeg", "image/png", "image"),
        ("document.pdf", "document.pdf", "application/pdf", "application/pdf", "file"),
        ("scan.jpg", "document.pdf", "image/jpeg", "application/pdf", "file"),
        ("anim.gif", "animated.gif", "image/gif", "image/gif", "image"),
    ],
)
def test_example_typed_by_bytes(
    app: Any, name: str, file: str, content_type: str, media_type: str, kind: str
) -> None:
    """The type in the answer is the bytes' type; the client's claim is echoed as a hint."""
    response = post(app, name, (TESTDATA / file).read_bytes(), content_type)
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["media_type"], body["kind"], body["filename"]) == (media_type, kind, name)
    assert body["client"] == {"client_filename": name, "client_content_type": content_type}
    assert body["size"] > 0


@pytest.mark.parametrize(
    ("name", "content", "content_type", "status", "error", "says"),
    [
        (
            "big.png",
            b"\x89PNG\r\n\x1a\n" + bytes(6 * 2**20),
            "image/png",
            413,
            "MediaTooLarge",
            "5,242,880",
        ),
        (
            "bomb.png",
            png_header(40000, 40000),
            "image/png",
            413,
            "MediaTooLarge",
            "1,600,000,000 pixels",
        ),
        (
            "evil.png",
            (TESTDATA / "notes.txt").read_bytes(),
            "image/png",
            415,
            "UnsupportedMediaType",
            "text/plain",
        ),
        (
            "song.jpg",
            (TESTDATA / "tone.wav").read_bytes(),
            "image/jpeg",
            415,
            "UnsupportedMediaType",
            "audio/wav",
        ),
        ("empty.jpg", b"", "image/jpeg", 422, "InvalidMedia", "empty"),
        (
            "cut.jpg",
            (TESTDATA / "upright.jpg").read_bytes()[:3000],
            "image/jpeg",
            422,
            "InvalidMedia",
            "image/jpeg",
        ),
    ],
    ids=["oversized", "bomb", "text-as-png", "wav-as-jpeg", "empty", "truncated"],
)
def test_example_refusals(
    app: Any, name: str, content: bytes, content_type: str, status: int, error: str, says: str
) -> None:
    """Refusals map to 413, 415 and 422 by error class, with the library's message."""
    response = post(app, name, content, content_type)
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == error
    assert says in body["detail"]


@pytest.mark.parametrize(
    ("name", "content_type"),
    [("report.pdf", "application/pdf"), ("photo.jpg", "image/jpeg"), ("blob", "application/pdf")],
)
def test_example_unidentified_bytes_refused(app: Any, name: str, content_type: str) -> None:
    """Bytes that identify no type get 415 whatever the client's name and type say."""
    noise = random.Random(10).randbytes(20_000)
    response = post(app, name, noise, content_type)
    assert response.status_code == 415, response.text
    body = response.json()
    assert body["error"] == "UnsupportedMediaType"
    assert "could not be identified" in body["detail"]
    assert content_type in body["detail"]


def test_example_codec_missing_is_503(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server without pillow-heif answers a HEIC with 503 for its operator, not 415."""
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # makes `import pillow_heif` fail
    response = post(app, "photo.heic", (TESTDATA / "photo.heic").read_bytes(), "image/heic")
    assert response.status_code == 503, response.text
    body = response.json()
    assert body["error"] == "CodecUnavailable"
    assert body["detail"] == (
        "the server cannot decode image/heic: install mediaparts[heif] on the server"
    )
    assert "pillow-heif" in body["operator"]


def test_example_page_served(app: Any) -> None:
    """GET / is the upload page, whose CSS and script the app serves itself (no CDN)."""
    response = request(app, "GET", "/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "cdn" not in response.text.lower()
    for asset in ("/static/page.js", "/static/page.css"):
        assert asset in response.text
        assert request(app, "GET", asset).status_code == 200


def test_example_limits_list_the_registered_providers(app: Any) -> None:
    """GET /limits offers the registered providers and the request's caps."""
    body = request(app, "GET", "/limits").json()
    assert body["providers"] == list(mp.providers.names())
    assert (body["max_files"], body["max_bytes"]) == (8, 5 * 2**20)


def test_example_inspect_files_per_provider(app: Any) -> None:
    """/inspect answers per file and provider: type, size, tokens, steps and a preview."""
    names = ["photo.jpg", "photo.heic", "document.pdf"]
    response = inspect(app, names, ["anthropic", "openai"])
    assert response.status_code == 200, response.text
    body = response.json()
    photo, heic, pdf = body["files"]
    assert (photo["width"], photo["height"], photo["upload_steps"][0]) == (
        480,
        640,
        "exif-transpose",
    )
    assert heic["upload_steps"][0] == "heic→jpeg"
    sent = photo["providers"][0]
    assert (sent["provider"], sent["media_type"], sent["method"]) == (
        "anthropic",
        "image/jpeg",
        "exact",
    )
    assert sent["preview"].startswith("data:image/jpeg;base64,")
    assert pdf["providers"][1]["method"] == "unknown"  # OpenAI documents no PDF token rule
    assert "not an image" in pdf["providers"][1]["note"]
    payload = json.dumps(body["payloads"])
    assert "<image/jpeg 480x640" in payload
    assert ";base64,/9j/" not in payload  # media summarised


def test_example_inspect_refusal_per_file(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file's own refusal, and a codec the server lacks (503), are reported on that file."""
    monkeypatch.setitem(sys.modules, "pillow_heif", None)
    body = inspect(app, ["photo.heic", "mislabelled.jpg"], ["gemini"]).json()
    heic, png = body["files"]
    assert (heic["error"]["status"], heic["error"]["error"]) == (503, "CodecUnavailable")
    assert "install mediaparts[heif] on the server" in heic["error"]["detail"]
    assert png["media_type"] == "image/png"


@pytest.mark.parametrize(
    ("providers", "models", "status", "says"),
    [
        (["mistral"], {}, 422, "unknown provider 'mistral'"),
        ([], {}, 422, "choose at least one provider"),
        (["anthropic"], {"anthropic": "gpt-4o"}, 422, "unknown model 'gpt-4o' for anthropic"),
        (["openai"], {"openai": "<script>"}, 422, "is not a model name"),
    ],
    ids=["unknown-provider", "no-provider", "unknown-model", "bad-model"],
)
def test_example_inspect_refuses_request(
    app: Any, providers: list[str], models: dict[str, str], status: int, says: str
) -> None:
    """Unknown providers and models refuse the whole request with 422 and what to do."""
    response = inspect(app, ["photo.jpg"], providers, **models)
    assert response.status_code == status, response.text
    assert says in response.json()["detail"]


def test_example_inspect_bounds_the_request(
    app: Any, example: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More files than MAX_FILES, or more bytes in all than MAX_TOTAL_BYTES, is a 413."""
    response = inspect(app, ["mislabelled.jpg"] * 9, ["anthropic"])
    assert response.status_code == 413, response.text
    assert "at most 8 files" in response.json()["detail"]
    monkeypatch.setattr(example, "MAX_TOTAL_BYTES", 3000)
    response = inspect(app, ["mislabelled.jpg"] * 2, ["anthropic"])
    assert response.status_code == 413, response.text
    assert "at most 3,000 bytes at once" in response.json()["detail"]
