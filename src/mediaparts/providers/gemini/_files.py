"""Uploads to the Gemini File API (`client.files.upload`), waiting until a file is ACTIVE.

The SDK speaks the resumable upload protocol: a `start` request with the file's metadata,
answered with an `x-goog-upload-url`, then the bytes with `upload, finalize`. Video and some
other files are processed before use (state `PROCESSING`); a reference is returned once the
state is `ACTIVE`, within `WAIT_SECONDS`, polling every `POLL_SECONDS`.
"""

from __future__ import annotations

import asyncio
import io
import time
from typing import Any

from mediaparts._errors import FetchError
from mediaparts.providers._files import (
    FileApi,
    Stored,
    UploadRequest,
    answer,
    awaited,
    fingerprint,
    member,
)
from mediaparts.providers.gemini._tables import FILE_STORE

__all__ = ["FILES", "POLL_SECONDS", "WAIT_SECONDS"]

_CLIENT = "a google.genai.Client (its client.aio for aupload)"
POLL_SECONDS = 2.0
WAIT_SECONDS = 600.0


def _config(request: UploadRequest) -> dict[str, Any]:
    return {"mime_type": request.media_type, "display_name": request.filename}


def _state(file: Any) -> str:
    state = getattr(file, "state", None)
    return str(getattr(state, "value", state) or "ACTIVE")


def _stored(file: Any) -> Stored:
    uri = getattr(file, "uri", None)
    if not isinstance(uri, str) or not uri:
        raise FetchError(f"the Gemini File API answered without a file uri ({file.name!r})")
    # Without an expiration time, the upload's clock and the store's `ttl` give one.
    expiry = getattr(file, "expiration_time", None)
    return Stored(file_id=uri, expires_at=expiry.timestamp() if expiry is not None else None)


def _failed(file: Any) -> FetchError:
    error = getattr(file, "error", None)
    return FetchError(
        f"the Gemini File API could not process {file.name!r} (state {_state(file)}): "
        f"{getattr(error, 'message', None) or 'no reason given'}; check the file and upload again"
    )


def _late(file: Any) -> FetchError:
    return FetchError(
        f"the Gemini File API was still processing {file.name!r} after {WAIT_SECONDS:.0f} s; "
        f"it is stored: wait until client.files.get(name={file.name!r}) says ACTIVE, then "
        f"send a part with file_id={getattr(file, 'uri', None)!r}, file_provider='gemini' "
        "and its media_type; or raise mediaparts.providers.gemini._files.WAIT_SECONDS"
    )


def upload(client: Any, request: UploadRequest) -> Stored:
    """Store one file in the Gemini File API with a blocking client; wait until ACTIVE."""
    files = member(client, "files", "gemini", _CLIENT)
    send = member(client, "files.upload", "gemini", _CLIENT)
    file = answer(send(file=io.BytesIO(request.data), config=_config(request)), "gemini")
    deadline = time.monotonic() + WAIT_SECONDS
    while _state(file) == "PROCESSING":
        if time.monotonic() >= deadline:
            raise _late(file)
        time.sleep(POLL_SECONDS)
        file = files.get(name=file.name)
    if _state(file) != "ACTIVE":
        raise _failed(file)
    return _stored(file)


async def aupload(client: Any, request: UploadRequest) -> Stored:
    """Store one file in the Gemini File API with `client.aio`; wait until ACTIVE."""
    files = member(client, "files", "gemini", _CLIENT)
    send = member(client, "files.upload", "gemini", _CLIENT)
    file = await awaited(send(file=io.BytesIO(request.data), config=_config(request)), "gemini")
    deadline = time.monotonic() + WAIT_SECONDS
    while _state(file) == "PROCESSING":
        if time.monotonic() >= deadline:
            raise _late(file)
        await asyncio.sleep(POLL_SECONDS)
        file = await files.get(name=file.name)
    if _state(file) != "ACTIVE":
        raise _failed(file)
    return _stored(file)


def account(client: Any, location: str | None) -> str:
    """Fingerprint the endpoint and the key or project a client stores into (`Client` and
    `client.aio` alike)."""
    # google-genai keeps them on its `_api_client` only (google-genai 3.6, read 2026-12).
    api = getattr(client, "_api_client", None)
    return fingerprint(
        "gemini",
        getattr(getattr(api, "_http_options", None), "base_url", None),
        getattr(api, "api_key", None),
        getattr(api, "project", None),
        getattr(api, "location", None),
        getattr(api, "vertexai", None),
    )


FILES = FileApi(rules=FILE_STORE, upload=upload, aupload=aupload, account=account)
