"""A FastAPI app that checks uploads with mediaparts and shows what each provider would receive.

Run it from a clone (mediaparts is not published yet), with the HEIC decoder, in the `.venv`
the README's Quick start made (or in your own virtual environment):

    .venv/bin/pip install -e '.[heif]' fastapi python-multipart uvicorn
    .venv/bin/python -m uvicorn fastapi_app:app --app-dir docs/examples

(once published: `pip install 'mediaparts[heif]' fastapi python-multipart uvicorn`), then
open http://127.0.0.1:8000/ for the upload page (FastAPI's /docs and /redoc are off: they load
their scripts from a CDN; the schema is at /openapi.json), or

    curl -F file=@testdata/photo.jpg http://127.0.0.1:8000/describe

`mp.afrom_upload` reads at most `MAX_BYTES + 1` bytes, types the file by its bytes (the
client's name and content type are only hints), refuses image bombs from the header and strips
EXIF/GPS. Every refusal is an `mp.MediaError`, mapped to a status code by its class; a decoder
missing on the server (`mp.CodecUnavailable`) is a 503, not the file's fault: the uploader is
told the server has a problem, and the log tells the operator what to install.
Starlette has already spooled the whole request body to a temporary file by the time the
handler runs: cap the body in the server or proxy too (e.g. nginx `client_max_body_size`).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, UploadFile
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import UploadFile as FormFile  # what request.form() holds

import mediaparts as mp
from mediaparts import formats
from mediaparts.imaging import FitSpec, fit_image, image_orientation
from mediaparts.testing import summarize  # plain functions: imports no pytest

MAX_BYTES = 5 * 2**20  # per file
MAX_FILES = 8  # per request of the page
MAX_TOTAL_BYTES = 4 * MAX_BYTES  # all files of one request
MAX_MODEL_NAME = 100
MODEL_PATTERNS_SHOWN = 6  # an unknown model's message names this many of the known patterns
ACCEPT = ("image/*", "application/pdf")
PROMPT = "Describe these files."
PAGE = Path(__file__).parent / "upload_page"
# The preview: what was sent, made small (never larger, first frame only), in types browsers show.
THUMBNAIL = FitSpec(
    accepted=("image/jpeg", "image/png", "image/webp"),
    animated_ok=False,
    max_width=320,
    max_height=320,
    max_bytes=200_000,
)
# The first class an error is an instance of picks the status, so subclasses come first.
STATUS: tuple[tuple[type[mp.MediaError], int], ...] = (
    (mp.CodecUnavailable, 503),  # Service Unavailable: the server lacks a decoder, not the file
    (mp.MediaTooLarge, 413),  # Content Too Large
    (mp.UnsupportedMediaType, 415),  # Unsupported Media Type
    (mp.InvalidMedia, 422),  # Unprocessable Content: empty, corrupt, truncated
    (mp.MediaError, 422),  # e.g. ProviderLimitError, an unknown provider or model
)

log = logging.getLogger(__name__)
# /docs and /redoc load their scripts from a CDN, so they are blank offline: `/` is the UI.
app = FastAPI(title="mediaparts upload example", docs_url=None, redoc_url=None)
app.mount("/static", StaticFiles(directory=PAGE), name="static")


def refusal(exc: mp.MediaError) -> dict[str, Any]:
    """Describe a refusal: its class, status and message (and a hint where `ACCEPT` misleads).

    A server fault is logged for the operator (what to install); the uploader is only told that
    the server has a problem, never the library's advice to an operator.
    """
    status = next(code for cls, code in STATUS if isinstance(exc, cls))
    body: dict[str, Any] = {"error": type(exc).__name__, "detail": str(exc), "status": status}
    if isinstance(exc, mp.CodecUnavailable):
        what = f"mediaparts[{exc.extra}]" if exc.extra else exc.package
        log.error("cannot decode %s: install %s on the server (%s)", exc.media_type, what, exc)
        body["detail"] = f"the server cannot decode {exc.media_type}; its operator has been told"
    elif isinstance(exc, mp.UnsupportedMediaType) and exc.media_type == "image/svg+xml":
        body["hint"] = (
            "image/* here means raster images (PNG, JPEG, GIF, WebP, ...); "
            "SVG is refused because it can carry scripts and links"
        )
    return body


@app.exception_handler(mp.MediaError)
async def media_error(request: Request, exc: Exception) -> JSONResponse:
    """Answer a refused request with the status for its error class and the library's message."""
    assert isinstance(exc, mp.MediaError)  # the only class this handler is registered for
    body = refusal(exc)
    return JSONResponse(body, status_code=body.pop("status"))


@app.get("/", include_in_schema=False)
async def page() -> FileResponse:
    """The upload page: plain HTML, CSS and JavaScript, nothing from a CDN."""
    return FileResponse(PAGE / "index.html")


@app.get("/favicon.ico", include_in_schema=False)
async def favicon() -> Response:
    """No icon: the page names an inline one; this answers browsers that ask anyway."""
    return Response(status_code=204)


@app.get("/limits")
async def limits() -> dict[str, Any]:
    """What the page may send: the registered providers and the request's caps."""
    return {
        "providers": list(mp.providers.names()),
        "max_files": MAX_FILES,
        "max_bytes": MAX_BYTES,
        "max_total_bytes": MAX_TOTAL_BYTES,
    }


@app.post("/describe")
async def describe(file: UploadFile) -> dict[str, Any]:
    """Check the uploaded file and describe it, and what Anthropic's API would be sent."""
    part = await mp.afrom_upload(file, max_bytes=MAX_BYTES, accept=ACCEPT)
    sent = await mp.anormalize(part, "anthropic")
    return {
        "filename": part.filename,
        "media_type": part.media_type,
        "kind": part.kind,
        "size": part.size,
        "width": part.width if isinstance(part, mp.ImagePart) else None,
        "height": part.height if isinstance(part, mp.ImagePart) else None,
        "client": part.metadata,  # what the client claimed: for logs, never trusted
        "anthropic": {
            "media_type": sent.media_type,
            "byte_size": sent.byte_size,
            "width": sent.width,
            "height": sent.height,
            "tokens": sent.tokens,
            "steps": list(sent.steps),
        },
    }


@app.post("/inspect")
async def inspect(request: Request) -> dict[str, Any]:
    """Check each uploaded file (`file` fields) for each chosen provider (`provider` fields).

    A `model.<provider>` field names that provider's model (empty: its default). A request
    malformed as a whole is refused with a status (413 too many files or bytes, 422 no file, no
    provider or an unknown one); each file's own refusal, and each provider's (a model its rules
    do not know), is reported in the answer instead.
    """
    async with request.form(max_files=MAX_FILES + 1, max_fields=50) as form:
        files = [f for f in form.getlist("file") if isinstance(f, FormFile)]
        chosen = [_choice(p, form.get(f"model.{p}")) for p in _providers(form)]
        _check_sizes(files)
        parts = [await _read(upload) for upload in files]
        previews: dict[bytes, str | None] = {}
        results = [
            await _file(upload, part, chosen, previews)
            for upload, part in zip(files, parts, strict=True)
        ]
    payloads = []
    for provider, model in chosen:  # each provider is sent the files it took
        if isinstance(model, mp.MediaError):
            payloads.append({"provider": provider, "model": None, "error": refusal(model)})
            continue
        taken = [
            part
            for part, result in zip(parts, results, strict=True)
            for sent in result.get("providers", ())
            if isinstance(part, mp.MediaPart)
            and sent["provider"] == provider
            and "error" not in sent
        ]
        payloads.append(await _payload(taken, provider, model))
    return {"files": results, "payloads": payloads}


def _providers(form: Any) -> list[str]:
    names = [str(name) for name in form.getlist("provider")][: len(mp.providers.names())]
    if not names:
        raise mp.InvalidConfig("choose at least one provider")
    return [mp.providers.get(name).name for name in dict.fromkeys(names)]  # UnknownProvider: 422


# A provider's choice: its model (None: its default), or why the model named is refused.
Choice = tuple[str, str | mp.MediaError | None]


def _choice(provider: str, value: object) -> Choice:
    """`provider` with the model named for it (None: its default), checked against its image
    rules; a model they do not know comes back as the error for that provider's cells, so the
    other providers are still answered."""
    if not isinstance(value, str) or not value.strip():
        return provider, None
    model = value.strip()
    shown = model[:60] + ("..." if len(model) > 60 else "")
    if len(model) > MAX_MODEL_NAME or not re.fullmatch(r"[\w.:/@+-]+", model):
        return provider, mp.InvalidConfig(f"model {shown!r} for {provider} is not a model name")
    rows = mp.providers.get(provider).rules.vision
    if not any(row.matches(model) for row in rows):
        known = ", ".join(row.pattern for row in rows[:MODEL_PATTERNS_SHOWN])
        if len(rows) > MODEL_PATTERNS_SHOWN:
            known += f" (+{len(rows) - MODEL_PATTERNS_SHOWN} more)"
        return provider, mp.InvalidConfig(
            f"unknown model {shown!r} for {provider}: its image rules cover {known}; "
            "leave the model empty for the provider's default"
        )
    return provider, model


def _check_sizes(files: list[FormFile]) -> None:
    if not files:
        raise mp.InvalidMedia("choose at least one file")
    if len(files) > MAX_FILES:
        raise mp.MediaTooLarge(f"at most {MAX_FILES} files at once", size=len(files))
    total = sum(upload.size or 0 for upload in files)
    if total > MAX_TOTAL_BYTES:
        raise mp.MediaTooLarge(
            f"{_binary(total)} in all; at most {_binary(MAX_TOTAL_BYTES)} at once",
            size=total,
            limit=MAX_TOTAL_BYTES,
        )


def _binary(size: int) -> str:
    """A byte count in the page's binary units: `812 B`, `2.9 KiB`, `20 MiB`."""
    if size < 1024:
        return f"{size} B"
    value, unit = size / 1024, "KiB"
    if value >= 1024:
        value, unit = value / 1024, "MiB"
    return f"{value:.1f}".removesuffix(".0") + f" {unit}"


async def _read(upload: FormFile) -> mp.MediaPart | dict[str, Any]:
    """The part the app would keep (typed, checked, stripped), or the file's refusal."""
    try:
        return await mp.afrom_upload(upload, max_bytes=MAX_BYTES, accept=ACCEPT)
    except mp.MediaError as exc:
        return refusal(exc)


async def _file(
    upload: FormFile,
    part: mp.MediaPart | dict[str, Any],
    chosen: list[Choice],
    previews: dict[bytes, str | None],
) -> dict[str, Any]:
    await upload.seek(0)
    head = await upload.read(256 * 2**10)  # a prefix: what the bytes were before any change
    found = mp.detect(head).media_type
    result: dict[str, Any] = {"filename": (upload.filename or "")[:255], "size": upload.size}
    if not isinstance(part, mp.MediaPart):
        return {**result, "detected": found, "error": part}
    width, height = (part.width, part.height) if isinstance(part, mp.ImagePart) else (None, None)
    steps = _upload_steps(found, part, head)
    result |= {"media_type": part.media_type, "kind": part.kind, "width": width, "height": height}
    result |= {"upload_steps": steps, "stored_bytes": part.size}
    result["providers"] = [await _sent(part, p, m, previews) for p, m in chosen]
    return result


def _upload_steps(found: str, part: mp.MediaPart, head: bytes) -> list[str]:
    """What `afrom_upload` did to the file: converted, turned upright, metadata stripped."""
    stored = part.media_type or found
    if part.kind != "image":
        return []
    steps = [] if found == stored else [f"{_short(found)}→{_short(stored)}"]
    if image_orientation(head) != 1:
        steps.append("exif-transpose")
    return [*steps, "metadata stripped"]


def _short(media_type: str) -> str:
    """The format's short name, as `mp.normalize`'s steps say it: `ico` for vnd.microsoft.icon."""
    record = formats.get(media_type)
    return record.name if record is not None else media_type.rpartition("/")[2]


async def _sent(
    part: mp.MediaPart,
    provider: str,
    model: str | mp.MediaError | None,
    previews: dict[bytes, str | None],
) -> dict[str, Any]:
    """What `provider` would be sent for `part`, with a preview and the token count."""
    if isinstance(model, mp.MediaError):  # the model named is refused: this provider's cell
        return {"provider": provider, "model": None, "error": refusal(model)}
    result: dict[str, Any] = {"provider": provider, "model": model}
    try:
        sent = await mp.anormalize(part, provider, model=model)
    except mp.MediaError as exc:
        return {**result, "error": refusal(exc)}
    counted = await asyncio.to_thread(mp.count_tokens, part, provider, model=model)
    count = counted.messages[0].parts[0]
    result |= {"media_type": sent.media_type, "width": sent.width, "height": sent.height}
    result |= {"bytes": sent.byte_size, "steps": list(sent.steps)}
    result |= {"tokens": count.tokens, "method": count.method, "how": count.how}
    if sent.kind == "image" and sent.data is not None:
        key = hashlib.sha256(sent.data).digest()
        if key not in previews:
            previews[key] = await asyncio.to_thread(_preview, sent.data, sent.media_type)
        result["preview"] = previews[key]
    else:
        result["note"] = f"not an image: a {sent.kind} ({sent.media_type}), no picture"
    return result


def _preview(data: bytes, media_type: str) -> str | None:
    """A small data: URI of what is sent (upright and converted), made by mediaparts itself."""
    try:
        small = fit_image(data, media_type, THUMBNAIL)
    except mp.MediaError:
        return None
    return f"data:{small.media_type};base64,{base64.b64encode(small.data).decode('ascii')}"


async def _payload(parts: list[mp.MediaPart], provider: str, model: str | None) -> dict[str, Any]:
    """The request `provider` would get for the files it takes, media summarised."""
    result: dict[str, Any] = {"provider": provider, "model": model}
    if not parts:
        return {**result, "error": None, "note": "no file to send"}
    try:
        payload = await mp.arender([mp.User([PROMPT, *parts])], provider, model=model)
    except mp.MediaError as exc:
        return {**result, "error": refusal(exc)}
    return {**result, "payload": summarize(payload)}
