"""docs/examples/fastapi_app.py: real files posted through httpx's ASGI transport (no network)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
import random
import re
import sys
from typing import Any

import httpx
import pytest

import mediaparts as mp
from tests._builders import ROOT, TESTDATA, camera_photo, png_header, read

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
            b"\x89PNG\r\n\x1a\n" + bytes(20 * 2**20),
            "image/png",
            413,
            "MediaTooLarge",
            "over the upload limit of 20,971,520 bytes",
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


def test_example_codec_missing_is_503(
    app: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A server without pillow-heif answers a HEIC with 503 and a short server-problem message;
    what to install is logged for the operator, never shown to the uploader."""
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # makes `import pillow_heif` fail
    with caplog.at_level(logging.ERROR, logger="fastapi_app"):
        response = post(app, "photo.heic", (TESTDATA / "photo.heic").read_bytes(), "image/heic")
    assert response.status_code == 503, response.text
    body = response.json()
    assert body == {
        "error": "CodecUnavailable",
        "detail": "the server cannot decode image/heic; its operator has been told",
    }
    logged = [r.getMessage() for r in caplog.records if r.name == "fastapi_app"]
    assert len(logged) == 1
    assert "pillow-heif" in logged[0]
    assert "photo.heic" not in body["detail"]


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
    assert (body["max_files"], body["max_bytes"], body["max_total_bytes"]) == (
        8,
        20 * 2**20,
        40 * 2**20,
    )
    assert (body["max_pixels"], body["max_total_pixels"]) == (25_000_000, 100_000_000)


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
    assert "its operator has been told" in heic["error"]["detail"]
    assert "operator" not in heic["error"]
    assert png["media_type"] == "image/png"


@pytest.mark.parametrize(
    ("names", "providers", "status", "says"),
    [
        (["photo.jpg"], ["no-such-provider"], 422, "unknown provider 'no-such-provider'"),
        (["photo.jpg"], [], 422, "choose at least one provider"),
        ([], ["anthropic"], 422, "choose at least one file"),
    ],
    ids=["unknown-provider", "no-provider", "no-file"],
)
def test_example_inspect_refuses_request(
    app: Any, names: list[str], providers: list[str], status: int, says: str
) -> None:
    """A request malformed as a whole (no file, no provider, an unknown one) is a 422."""
    response = inspect(app, names, providers)
    assert response.status_code == status, response.text
    assert says in response.json()["detail"]


@pytest.mark.parametrize(
    ("provider", "model", "says"),
    [
        ("anthropic", "gpt-4o", "unknown model 'gpt-4o' for anthropic: its image rules cover"),
        ("openai", "gpt-4o-typo!", "model 'gpt-4o-typo!' for openai is not a model name"),
        ("openai", "claude-sonnet-4", "unknown model 'claude-sonnet-4' for openai"),
    ],
    ids=["unknown-model", "bad-model", "many-patterns"],
)
def test_example_inspect_unknown_model_per_provider(
    app: Any, provider: str, model: str, says: str
) -> None:
    """A mistyped model is that provider's cell error, naming its patterns in a bounded
    message; the other providers are still answered, and their payloads rendered."""
    other = "gemini"
    response = inspect(app, ["photo.jpg"], [provider, other], **{provider: model})
    assert response.status_code == 200, response.text
    body = response.json()
    refused, answered = body["files"][0]["providers"]
    assert (refused["provider"], refused["error"]["error"]) == (provider, "InvalidConfig")
    assert says in refused["error"]["detail"]
    assert len(refused["error"]["detail"]) < 300
    assert (answered["provider"], answered["media_type"]) == (other, "image/jpeg")
    refused_payload, payload = body["payloads"]
    assert refused_payload["error"]["detail"] == refused["error"]["detail"]
    assert "<image/jpeg 480x640" in json.dumps(payload["payload"])


def test_example_unknown_model_names_patterns_bounded(app: Any) -> None:
    """OpenAI's 21 patterns are not all listed: the first few, then how many more."""
    body = inspect(app, ["photo.jpg"], ["openai"], openai="gpt-4x").json()
    detail = body["files"][0]["providers"][0]["error"]["detail"]
    assert "gpt-5.6*" in detail
    assert re.search(r"\(\+\d+ more\)", detail), detail
    assert "gpt-image-1" not in detail  # the last of the 21


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
    total = 2 * len(read("mislabelled.jpg"))
    assert response.json()["detail"] == f"{total:,} bytes in all; at most 3,000 (2.9 KiB) at once"


def test_example_no_favicon_404(app: Any) -> None:
    """The page names an inline icon, and /favicon.ico is an empty 204, never a 404."""
    html = request(app, "GET", "/").text
    assert re.search(r'<link rel="icon" href="data:', html)
    response = request(app, "GET", "/favicon.ico")
    assert response.status_code == 204
    assert response.content == b""


@pytest.mark.parametrize(
    ("path", "status"), [("/docs", 404), ("/redoc", 404), ("/openapi.json", 200)]
)
def test_example_no_cdn_docs_pages(app: Any, path: str, status: int) -> None:
    """FastAPI's /docs and /redoc (scripts from a CDN, blank offline) are off; the schema stays."""
    assert request(app, "GET", path).status_code == status


@pytest.mark.parametrize(
    ("name", "step"),
    [
        ("icon.ico", "ico→png"),
        ("image.tiff", "tiff→png"),
        ("image.bmp", "bmp→png"),
        ("photo.heic", "heic→jpeg"),
    ],
)
def test_example_upload_steps_short_names(app: Any, name: str, step: str) -> None:
    """A conversion on upload is said with the formats' short names (`ico→png`)."""
    body = inspect(app, [name], ["anthropic"]).json()
    assert body["files"][0]["upload_steps"][0] == step


@pytest.mark.parametrize("path", ["/describe", "/inspect"])
def test_example_svg_refusal_explained(app: Any, path: str) -> None:
    """An SVG's 415 says why, though `image/*` is accepted: raster images only, as SVG can
    carry scripts; the library's message is kept."""
    svg = ("drawing.svg", (TESTDATA / "drawing.svg").read_bytes(), "image/svg+xml")
    if path == "/describe":
        response = request(app, "POST", path, files={"file": svg})
        assert response.status_code == 415, response.text
        body = response.json()
    else:
        response = request(app, "POST", path, files=[("file", svg)], data={"provider": "openai"})
        body = response.json()["files"][0]["error"]
        assert body["status"] == 415
    assert "image/svg+xml" in body["detail"]
    assert "raster" in body["hint"]
    assert "scripts" in body["hint"]


SETUP = (
    ".venv/bin/pip install -e '.[heif]' fastapi python-multipart uvicorn",
    ".venv/bin/python -m uvicorn fastapi_app:app --app-dir docs/examples",
)


@pytest.mark.parametrize("where", ["docstring", "docs/uploads.md"])
def test_example_setup_lines_use_the_venv(example: Any, where: str) -> None:
    """The setup lines run in the Quick start's `.venv`: no bare `pip` or `python`."""
    text = example.__doc__ if where == "docstring" else (ROOT / where).read_text()
    assert all(line in text for line in SETUP)
    assert "your own virtual environment" in " ".join(text.split())
    bare = re.findall(r"^\s*(?:pip|python) .*", text, re.M)
    assert not bare, bare


def send(
    app: Any, files: list[tuple[str, bytes]], providers: list[str], **data: Any
) -> httpx.Response:
    """POST `files` (name, bytes) to /inspect for `providers`, with any other form fields."""
    fields = [("file", (name, content, "application/octet-stream")) for name, content in files]
    return request(app, "POST", "/inspect", files=fields, data={"provider": providers, **data})


@pytest.mark.parametrize(
    ("count", "says"),
    [
        (9, "9 files; at most 8 files at once"),
        (10, "more than 9 files; at most 8 files at once"),
        (60, "more than 9 files; at most 8 files at once"),
    ],
)
def test_example_inspect_too_many_files_413(app: Any, count: int, says: str) -> None:
    """Too many files is the documented 413 naming the page's limit, however many were sent
    (Starlette's form parser stops at the tenth with a 400 of its own)."""
    response = send(app, [("a.png", b"")] * count, ["anthropic"])
    assert response.status_code == 413, response.text
    assert response.json() == {"error": "MediaTooLarge", "detail": says}


def test_example_inspect_too_many_fields_413(app: Any) -> None:
    """More form fields than the example reads (51) is a 413 naming the limit, not Starlette's 400."""
    extra = {f"x{i}": "y" for i in range(50)}
    response = send(
        app, [("photo.jpg", (TESTDATA / "photo.jpg").read_bytes())], ["openai"], **extra
    )
    assert response.status_code == 413, response.text
    assert "at most 50 form fields" in response.json()["detail"]


def test_example_inspect_malformed_body_400(app: Any) -> None:
    """A multipart body without its boundary is still Starlette's 400: malformed, not too large."""
    headers = {"content-type": "multipart/form-data"}
    response = request(app, "POST", "/inspect", content=b"--x\r\n", headers=headers)
    assert response.status_code == 400, response.text


def test_example_inspect_pixel_budget_413(
    app: Any, example: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More pixels in all than MAX_TOTAL_PIXELS is a 413 for the request, read from the headers
    before any file is read as a part or normalized."""
    monkeypatch.setattr(example, "MAX_TOTAL_PIXELS", 600_000)
    called: list[str] = []

    async def spy(*args: Any, **kwargs: Any) -> Any:
        called.append("decoded")
        raise AssertionError("nothing is read or normalized past the budget")

    monkeypatch.setattr(mp, "afrom_upload", spy)
    monkeypatch.setattr(mp, "anormalize", spy)
    photo = (TESTDATA / "photo.jpg").read_bytes()  # 640x480: 307,200 pixels
    response = send(app, [("a.jpg", photo), ("b.jpg", photo)], ["anthropic"])
    assert response.status_code == 413, response.text
    assert response.json()["detail"] == (
        "614,400 pixels in all; at most 600,000 at once: send fewer or smaller images"
    )
    assert called == []


@pytest.mark.parametrize("path", ["/describe", "/inspect"])
def test_example_page_pixel_cap(app: Any, path: str) -> None:
    """An image over the page's MAX_PIXELS (25 MP, below from_upload's default 50 MP) is
    refused from its header: eight of them are eight refusals, not the request's budget."""
    bomb = png_header(6300, 6300)  # 39.7 MP, refused before decoding
    if path == "/describe":
        response = request(app, "POST", path, files={"file": ("big.png", bomb, "image/png")})
        assert response.status_code == 413, response.text
        details = [response.json()["detail"]]
    else:
        response = send(app, [("big.png", bomb)] * 8, ["anthropic", "gemini"])
        assert response.status_code == 200, response.text
        errors = [f["error"] for f in response.json()["files"]]
        assert {e["status"] for e in errors} == {413}
        details = [e["detail"] for e in errors]
    assert all("exceeds max_pixels=25,000,000" in d for d in details), details


def test_example_payload_renders_what_was_normalized(
    app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each payload is rendered from the parts `normalize` made for that provider (their
    dimensions, nothing left to fit), never from the upload again: no image is resized twice."""
    from PIL import Image

    from tests._builders import encode

    wide = encode(Image.new("RGB", (2400, 1200), (200, 120, 40)), "PNG")
    given: dict[str, list[mp.MediaPart]] = {}
    render = mp.arender

    async def spy(messages: Any, provider: str, **kwargs: Any) -> Any:
        given[provider] = [p for p in messages[0].parts if isinstance(p, mp.MediaPart)]
        return await render(messages, provider, **kwargs)

    monkeypatch.setattr(mp, "arender", spy)
    providers = ["anthropic", "gemini"]
    response = send(app, [("wide.png", wide), ("photo.jpg", read("photo.jpg"))], providers)
    assert response.status_code == 200, response.text
    cells = [f["providers"] for f in response.json()["files"]]
    assert cells[0][0]["steps"] != []  # Anthropic's long side is 1568: it was resized once
    for index, provider in enumerate(providers):
        parts = given[provider]
        sizes = [(p.width, p.height) for p in parts if isinstance(p, mp.ImagePart)]
        assert sizes == [(row[index]["width"], row[index]["height"]) for row in cells]
        assert [mp.normalize(p, provider).steps for p in parts] == [(), ()]


def test_example_heavy_work_queues(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Parallel requests take turns at the image work: at most two at once (HEAVY), the rest
    wait, rather than all decoding and resizing together."""
    active, most = 0, 0
    normalize = mp.anormalize

    async def spy(*args: Any, **kwargs: Any) -> Any:
        nonlocal active, most
        active += 1
        most = max(most, active)
        await asyncio.sleep(0.05)  # hold the work, so that overlapping requests would show
        active -= 1
        return await normalize(*args, **kwargs)

    monkeypatch.setattr(mp, "anormalize", spy)
    photo = ("photo.jpg", read("photo.jpg"), "image/jpeg")

    async def send_all() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://example") as client:
            posts = [
                client.post("/inspect", files=[("file", photo)], data={"provider": "gemini"})
                for _ in range(5)
            ]
            return await asyncio.gather(*posts)

    responses = asyncio.run(send_all())
    assert [r.status_code for r in responses] == [200] * 5
    assert most == 2


@pytest.fixture(scope="module")
def phone_photo() -> bytes:
    """A 12 MP phone photo of about 12 MB (grain, quality 100)."""
    photo = camera_photo()
    assert 11e6 < len(photo) < 13e6
    return photo


@pytest.mark.slow  # a 12 MP photo, made and fitted
def test_example_phone_photo_fitted(app: Any, phone_photo: bytes) -> None:
    """A 12 MB phone photo is accepted (under MAX_BYTES, within the decode budget) and fitted:
    Anthropic is sent it resized, the providers that take it whole are sent it unchanged."""
    response = send(app, [("PXL_0001.jpg", phone_photo)], ["anthropic", "gemini"])
    assert response.status_code == 200, response.text
    body = response.json()
    (photo,) = body["files"]
    assert (photo["media_type"], photo["width"], photo["height"]) == ("image/jpeg", 4000, 3000)
    assert photo["size"] == len(phone_photo)
    anthropic, gemini = photo["providers"]
    assert anthropic["steps"][0] == "resize 4000x3000→1270x952"
    assert anthropic["bytes"] < 500_000
    assert (gemini["width"], gemini["steps"]) == (4000, [])
    assert anthropic["preview"].startswith("data:image/jpeg;base64,")
    assert (body["ready"], body["refused"]) == (1, 0)


def test_example_over_max_bytes_refused_clearly(app: Any, example: Any) -> None:
    """One byte over MAX_BYTES is a 413 naming the exact limit, and the page's cap in MiB."""
    over = b"\xff\xd8\xff\xe0" + bytes(example.MAX_BYTES - 3)
    body = send(app, [("huge.jpg", over)], ["openai"]).json()
    error = body["files"][0]["error"]
    assert (error["status"], error["error"]) == (413, "MediaTooLarge")
    assert "is 20,971,521 bytes, over the upload limit of 20,971,520 bytes" in error["detail"]
    assert error["hint"] == "this page takes files of up to 20 MiB each"


EMPTY = ("empty.png", b"")
SVG = ("drawing.svg", read("drawing.svg"))


@pytest.mark.parametrize(
    ("files", "providers", "models", "counts", "reasons"),
    [
        (["photo.jpg", "document.pdf"], ["anthropic", "openai"], {}, (2, 0), [None, None]),
        (["photo.jpg", EMPTY], ["gemini"], {}, (1, 1), [None, "is empty (0 bytes)"]),
        (
            [EMPTY, SVG, "mislabelled.jpg"],
            ["openai"],
            {},
            (1, 2),
            ["is empty (0 bytes)", "image/svg+xml", None],
        ),
        (
            ["photo.jpg"],
            ["anthropic"],
            {"anthropic": "gpt-4o"},
            (0, 1),
            ["no provider chosen takes it (anthropic: unknown model 'gpt-4o' for anthropic"],
        ),
        (
            ["photo.jpg"],
            ["anthropic", "gemini"],
            {"anthropic": "gpt-4o"},
            (1, 0),
            [None],
        ),
    ],
    ids=["all-ready", "one-empty", "two-refused", "every-provider-refuses", "one-provider-takes"],
)
def test_example_inspect_counts(
    app: Any,
    files: list[str | tuple[str, bytes]],
    providers: list[str],
    models: dict[str, str],
    counts: tuple[int, int],
    reasons: list[str | None],
) -> None:
    """The answer counts the files ready (some provider chosen takes them) and refused (the
    upload, or every provider chosen, refused them); each refused file says why, and only it."""
    named = [(f, read(f)) if isinstance(f, str) else f for f in files]
    fields = {f"model.{provider}": model for provider, model in models.items()}
    response = send(app, named, providers, **fields)
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["ready"], body["refused"]) == counts
    for result, reason in zip(body["files"], reasons, strict=True):
        assert result["ready"] is (reason is None)
        if reason is None:
            assert "reason" not in result
        else:
            assert reason in result["reason"]


def test_example_pixel_budget_skips_oversized(
    app: Any, example: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The request's pixel budget does not read a file declared over MAX_BYTES (afrom_upload
    refuses it from that size): only its first 256 KiB are read, to say what its bytes are."""
    from starlette.datastructures import UploadFile

    reads: list[tuple[str | None, int]] = []
    read_upload = UploadFile.read

    async def spy(self: UploadFile, size: int = -1) -> bytes:
        reads.append((self.filename, size))
        return await read_upload(self, size)

    monkeypatch.setattr(UploadFile, "read", spy)
    huge = b"\xff\xd8\xff\xe0" + bytes(example.MAX_BYTES)
    response = send(app, [("huge.jpg", huge), ("photo.jpg", read("photo.jpg"))], ["gemini"])
    assert response.status_code == 200, response.text
    assert [size for name, size in reads if name == "huge.jpg"] == [256 * 2**10]
    assert (response.json()["ready"], response.json()["refused"]) == (1, 1)
