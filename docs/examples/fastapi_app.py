"""A FastAPI app that checks an upload with mediaparts and says what a provider would receive.

Run it (needs `pip install fastapi python-multipart uvicorn`):

    uvicorn fastapi_app:app --app-dir docs/examples
    curl -F file=@testdata/photo.jpg http://127.0.0.1:8000/describe

`mp.afrom_upload` reads at most `MAX_BYTES + 1` bytes, types the file by its bytes (the
client's name and content type are only hints), refuses image bombs from the header and strips
EXIF/GPS. Every refusal is an `mp.MediaError`, mapped to a status code by its class. Starlette
has already spooled the whole request body to a temporary file by the time the handler runs:
cap the body in the server or proxy too (e.g. nginx `client_max_body_size`).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request, UploadFile
from fastapi.responses import JSONResponse

import mediaparts as mp

MAX_BYTES = 5 * 2**20
ACCEPT = ("image/*", "application/pdf")
# The first class an error is an instance of picks the status, so subclasses come first.
STATUS: tuple[tuple[type[mp.MediaError], int], ...] = (
    (mp.MediaTooLarge, 413),  # Content Too Large
    (mp.UnsupportedMediaType, 415),  # Unsupported Media Type
    (mp.InvalidMedia, 422),  # Unprocessable Content: empty, corrupt, truncated
    (mp.MediaError, 422),  # e.g. ProviderLimitError: cannot be fitted for the provider
)

app = FastAPI(title="mediaparts upload example")


@app.exception_handler(mp.MediaError)
async def media_error(request: Request, exc: Exception) -> JSONResponse:
    """Answer a refused upload with the status for its error class and the library's message."""
    status = next(code for cls, code in STATUS if isinstance(exc, cls))
    return JSONResponse({"error": type(exc).__name__, "detail": str(exc)}, status_code=status)


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
