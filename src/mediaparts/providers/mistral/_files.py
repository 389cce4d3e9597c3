"""Uploads to Mistral's Files API (`client.files.upload`, `upload_async`)."""

from __future__ import annotations

from typing import Any

from mediaparts.providers._files import (
    FileApi,
    Stored,
    UploadRequest,
    answer,
    awaited,
    fingerprint,
    member,
)
from mediaparts.providers.mistral._tables import FILE_STORE, PROVIDER

__all__ = ["FILES"]

_CLIENT = "a mistralai.client.Mistral client"


def _arguments(request: UploadRequest) -> dict[str, Any]:
    # `file` is the SDK's `File`: `file_name`, `content` (bytes), `content_type`; `purpose` one
    # of its `FilePurpose` values (mistralai 3.7 models/file.py, filepurpose.py, read 2026-12).
    file = {"file_name": request.filename, "content": request.data}
    return {
        "file": {**file, "content_type": request.media_type},
        "purpose": request.purpose or "ocr",
    }


def _stored(created: Any, request_ttl: float | None) -> Stored:
    created_at = getattr(created, "created_at", None)
    expires = (
        float(created_at) + request_ttl
        if isinstance(created_at, int | float) and request_ttl is not None
        else None
    )
    return Stored(file_id=str(created.id), expires_at=expires)


def upload(client: Any, request: UploadRequest) -> Stored:
    """Store one file in Mistral's Files API with a blocking call."""
    send = member(client, "files.upload", PROVIDER, _CLIENT)
    return _stored(answer(send(**_arguments(request)), PROVIDER), FILE_STORE.ttl)


async def aupload(client: Any, request: UploadRequest) -> Stored:
    """Store one file in Mistral's Files API with the client's async call (`upload_async`)."""
    send = member(client, "files.upload_async", PROVIDER, _CLIENT)
    return _stored(await awaited(send(**_arguments(request)), PROVIDER), FILE_STORE.ttl)


def account(client: Any, location: str | None) -> str | None:
    """Fingerprint the server and key a client stores into; None when it has no fixed key
    (a key function, or none)."""
    configuration = getattr(client, "sdk_configuration", None)
    security = getattr(configuration, "security", None)
    key = getattr(security, "api_key", None)
    if not isinstance(key, str) or not key:
        return None
    return fingerprint(PROVIDER, getattr(configuration, "server_url", None), key)


FILES = FileApi(rules=FILE_STORE, upload=upload, aupload=aupload, account=account)
