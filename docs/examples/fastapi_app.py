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
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, UploadFile
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import FormData
from starlette.datastructures import UploadFile as FormFile  # what request.form() holds
from starlette.exceptions import HTTPException

import mediaparts as mp
from mediaparts import formats
from mediaparts.imaging import FitSpec, fit_image, image_orientation, image_size
from mediaparts.testing import summarize  # plain functions: imports no pytest

# Per file. A phone's 12 MP photo (4000x3000) of a grainy scene at quality 100 weighs about 12 MB
# (measured: Pillow, Gaussian noise of sigma 10); 20 MiB, from_upload's own default, admits it.
MAX_BYTES = 20 * 2**20
MAX_FILES = 8  # per request of the page
MAX_TOTAL_BYTES = 2 * MAX_BYTES  # all files of one request: three such photos
MAX_FIELDS = 50  # form fields other than files (the page sends at most two per provider)
# Pixels, not bytes, are what decoding and resizing cost: a flat 6300x6300 PNG is 131 KB.
MAX_PIXELS = 25_000_000  # per image, from its header (from_upload's default is 50 MP)
MAX_TOTAL_PIXELS = 4 * MAX_PIXELS  # all images of one request, before any is decoded
# Requests doing image work at once; more wait their turn instead of running the server out of
# memory (each decodes one image at a time, at most MAX_PIXELS).
HEAVY = asyncio.Semaphore(2)
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
    """Describe a refusal: its class, status and message (and a hint where the message speaks
    in the library's terms: the page's own cap, or an `ACCEPT` that misleads).

    A server fault is logged for the operator (what to install); the uploader is only told that
    the server has a problem, never the library's advice to an operator.
    """
    status = next(code for cls, code in STATUS if isinstance(exc, cls))
    body: dict[str, Any] = {"error": type(exc).__name__, "detail": str(exc), "status": status}
    if isinstance(exc, mp.CodecUnavailable):
        what = f"{exc.package} (the [{exc.extra}] extra)" if exc.extra else exc.package
        log.error("cannot decode %s: install %s on the server (%s)", exc.media_type, what, exc)
        body["detail"] = f"the server cannot decode {exc.media_type}; its operator has been told"
    elif isinstance(exc, mp.MediaTooLarge) and exc.limit == MAX_BYTES:  # the page's cap
        body["hint"] = f"this page takes files of up to {_binary(MAX_BYTES)} each"
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
        "max_pixels": MAX_PIXELS,
        "max_total_pixels": MAX_TOTAL_PIXELS,
    }


@app.post("/describe")
async def describe(file: UploadFile) -> dict[str, Any]:
    """Check the uploaded file and describe it, and what Anthropic's API would be sent."""
    async with HEAVY:
        part = await mp.afrom_upload(
            file, max_bytes=MAX_BYTES, accept=ACCEPT, max_pixels=MAX_PIXELS
        )
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
    malformed as a whole is refused with a status (413 too many files, fields, bytes or pixels,
    422 no file, no provider or an unknown one); each file's own refusal, and each provider's
    (a model its rules do not know), is reported in the answer instead. The answer counts the
    files `ready` (some provider chosen takes them) and `refused` (the upload was refused, or
    every provider chosen refused it); each refused file says why in its `reason`.
    """
    async with _form(request) as form:
        files = [f for f in form.getlist("file") if isinstance(f, FormFile)]
        chosen = [_choice(p, form.get(f"model.{p}")) for p in _providers(form)]
        _check_sizes(files)
        await _check_pixels(files)
        async with HEAVY:
            parts = [await _read(upload) for upload in files]
            previews: dict[bytes, str | None] = {}
            cells = [
                await _file(upload, part, chosen, previews)
                for upload, part in zip(files, parts, strict=True)
            ]
            payloads = [
                await _payload([sent[p] for _, sent in cells if p in sent], p, model)
                for p, model in chosen  # each provider is sent the files it took
            ]
    results = [result for result, _ in cells]
    ready = sum(result["ready"] for result in results)
    return {"files": results, "payloads": payloads, "ready": ready, "refused": len(results) - ready}


@asynccontextmanager
async def _form(request: Request) -> AsyncIterator[FormData]:
    """The request's form, closed afterwards; Starlette's 400 for too many files or fields
    becomes the 413 the page documents, naming the limit (a malformed body stays a 400)."""
    try:
        form = await request.form(max_files=MAX_FILES + 1, max_fields=MAX_FIELDS)
    except HTTPException as exc:  # Starlette stops at the first file or field past its cap
        detail = str(exc.detail)
        if detail.startswith("Too many files"):
            raise mp.MediaTooLarge(
                f"more than {MAX_FILES + 1} files; at most {MAX_FILES} files at once",
                limit=MAX_FILES,
            ) from exc
        if detail.startswith("Too many fields"):
            raise mp.MediaTooLarge(
                f"more than {MAX_FIELDS} form fields; at most {MAX_FIELDS} form fields at once",
                limit=MAX_FIELDS,
            ) from exc
        raise
    try:
        yield form
    finally:
        await form.close()


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
    rules = mp.providers.get(provider).rules
    if rules.model_row(model) is None:  # the row normalize and count_tokens would take
        patterns = rules.model_patterns
        known = ", ".join(patterns[:MODEL_PATTERNS_SHOWN])
        if len(patterns) > MODEL_PATTERNS_SHOWN:
            known += f" (+{len(patterns) - MODEL_PATTERNS_SHOWN} more)"
        return provider, mp.InvalidConfig(
            f"unknown model {shown!r} for {provider}: its image rules cover {known}; "
            "leave the model empty for the provider's default"
        )
    return provider, model


def _check_sizes(files: list[FormFile]) -> None:
    if not files:
        raise mp.InvalidMedia("choose at least one file")
    if len(files) > MAX_FILES:
        raise mp.MediaTooLarge(
            f"{len(files)} files; at most {MAX_FILES} files at once",
            size=len(files),
            limit=MAX_FILES,
        )
    total = sum(upload.size or 0 for upload in files)
    if total > MAX_TOTAL_BYTES:
        raise mp.MediaTooLarge(
            f"{total:,} bytes in all; at most {MAX_TOTAL_BYTES:,} ({_binary(MAX_TOTAL_BYTES)}) "
            "at once",
            size=total,
            limit=MAX_TOTAL_BYTES,
        )


async def _check_pixels(files: list[FormFile]) -> None:
    """Refuse the request when its images hold more than MAX_TOTAL_PIXELS in all, read from
    their headers before anything is decoded. A file `afrom_upload` refuses from its header or
    size at no cost (over MAX_PIXELS or MAX_BYTES), or that is no image, counts 0."""
    total = 0
    for upload in files:
        if (upload.size or 0) > MAX_BYTES:  # refused from its declared size: not worth reading
            continue
        await upload.seek(0)
        data = await upload.read(MAX_BYTES + 1)
        await upload.seek(0)
        if len(data) <= MAX_BYTES:
            total += await asyncio.to_thread(_pixels, data)
    if total > MAX_TOTAL_PIXELS:
        raise mp.MediaTooLarge(
            f"{total:,} pixels in all; at most {MAX_TOTAL_PIXELS:,} at once: "
            "send fewer or smaller images",
            size=total,
            limit=MAX_TOTAL_PIXELS,
        )


def _pixels(data: bytes) -> int:
    """The pixels of an image mediaparts would decode, from its header (as `afrom_upload`
    reads them); 0 for anything else, or for an image over MAX_PIXELS."""
    media_type = mp.detect(data).media_type
    size = image_size(data, media_type) if media_type in formats.readable() else None
    pixels = size[0] * size[1] if size is not None else 0
    return pixels if pixels <= MAX_PIXELS else 0


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
        return await mp.afrom_upload(
            upload, max_bytes=MAX_BYTES, accept=ACCEPT, max_pixels=MAX_PIXELS
        )
    except mp.MediaError as exc:
        return refusal(exc)


async def _file(
    upload: FormFile,
    part: mp.MediaPart | dict[str, Any],
    chosen: list[Choice],
    previews: dict[bytes, str | None],
) -> tuple[dict[str, Any], dict[str, mp.MediaPart]]:
    """The file's card, and per provider that took it the part to render: what was sent."""
    await upload.seek(0)
    head = await upload.read(256 * 2**10)  # a prefix: what the bytes were before any change
    found = mp.detect(head).media_type
    result: dict[str, Any] = {"filename": (upload.filename or "")[:255], "size": upload.size}
    if not isinstance(part, mp.MediaPart):
        refused = {"error": part, "ready": False, "reason": part["detail"]}
        return {**result, "detected": found, **refused}, {}
    width, height = (part.width, part.height) if isinstance(part, mp.ImagePart) else (None, None)
    steps = _upload_steps(found, part, head)
    result |= {"media_type": part.media_type, "kind": part.kind, "width": width, "height": height}
    result |= {"upload_steps": steps, "stored_bytes": part.size}
    cells = [await _sent(part, p, m, previews) for p, m in chosen]
    result["providers"] = [cell for cell, _ in cells]
    result |= _verdict(result["providers"])
    return result, {p: sent for (p, _), (_, sent) in zip(chosen, cells, strict=True) if sent}


def _verdict(cells: list[dict[str, Any]]) -> dict[str, Any]:
    """Ready when some provider chosen takes the file; else refused, with each one's reason."""
    if any("error" not in cell for cell in cells):
        return {"ready": True}
    reasons = "; ".join(f"{cell['provider']}: {cell['error']['detail']}" for cell in cells)
    return {"ready": False, "reason": f"no provider chosen takes it ({reasons})"}


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
) -> tuple[dict[str, Any], mp.MediaPart | None]:
    """What `provider` would be sent for `part`, with a preview and the token count; and the
    part to render for it (None when refused)."""
    if isinstance(model, mp.MediaError):  # the model named is refused: this provider's cell
        return {"provider": provider, "model": None, "error": refusal(model)}, None
    result: dict[str, Any] = {"provider": provider, "model": model}
    try:
        sent = await mp.anormalize(part, provider, model=model)
    except mp.MediaError as exc:
        return {**result, "error": refusal(exc)}, None
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
    return result, _as_sent(sent)


def _as_sent(sent: mp.NormalizedPart) -> mp.MediaPart:
    """A part of the bytes `normalize` made: rendering it fits nothing a second time (it
    passes from the header alone), where the original would be decoded and resized again."""
    assert sent.part is not None  # normalize always keeps the part it was made from
    if sent.data is None:  # text, a URL or a file reference: nothing decoded to redo
        return sent.part
    made = type(sent.part)  # the same kind: an image stays an image, a PDF a file
    return made.from_bytes(sent.data, media_type=sent.media_type, filename=sent.filename)


def _preview(data: bytes, media_type: str) -> str | None:
    """A small data: URI of what is sent (upright and converted), made by mediaparts itself."""
    try:
        small = fit_image(data, media_type, THUMBNAIL)
    except mp.MediaError:
        return None
    return f"data:{small.media_type};base64,{base64.b64encode(small.data).decode('ascii')}"


async def _payload(
    parts: list[mp.MediaPart], provider: str, model: str | mp.MediaError | None
) -> dict[str, Any]:
    """The request `provider` would get for the files it takes (as normalized for it), media
    summarised; or why its model is refused."""
    if isinstance(model, mp.MediaError):
        return {"provider": provider, "model": None, "error": refusal(model)}
    result: dict[str, Any] = {"provider": provider, "model": model}
    if not parts:
        return {**result, "error": None, "note": "no file to send"}
    try:
        payload = await mp.arender([mp.User([PROMPT, *parts])], provider, model=model)
    except mp.MediaError as exc:
        return {**result, "error": refusal(exc)}
    return {**result, "payload": summarize(payload)}
