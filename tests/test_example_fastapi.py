"""docs/examples/fastapi_app.py: real files posted through httpx's ASGI transport (no network)."""

from __future__ import annotations

import asyncio
import importlib.util
import random
from typing import Any

import httpx
import pytest

from tests._builders import ROOT, TESTDATA, png_header

pytest.importorskip("fastapi")
if not (importlib.util.find_spec("python_multipart") or importlib.util.find_spec("multipart")):
    pytest.skip("FastAPI needs python-multipart to read forms", allow_module_level=True)

EXAMPLE = ROOT / "docs" / "examples" / "fastapi_app.py"


@pytest.fixture
def app() -> Any:
    """The example's FastAPI app, loaded from its file."""
    spec = importlib.util.spec_from_file_location("fastapi_app", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.app


def post(app: Any, name: str, content: bytes, content_type: str) -> httpx.Response:
    """POST one file to /describe in-process."""

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://example") as client:
            files = {"file": (name, content, content_type)}
            return await client.post("/describe", files=files)

    return asyncio.run(send())


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
