"""Uploads to OpenAI's file store (`client.files.create`), shared by both OpenAI APIs."""

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
from mediaparts.providers.openai._tables import FILE_STORE

__all__ = ["FILES"]

_CLIENT = "an openai.OpenAI client (openai.AsyncOpenAI for aupload)"


def _arguments(request: UploadRequest) -> dict[str, Any]:
    # A (name, bytes, type) tuple: the SDK sends it as the multipart `file` field with that
    # content type (openai-python `_files.py`, read 2026-12).
    return {
        "file": (request.filename, request.data, request.media_type),
        "purpose": request.purpose or "user_data",
    }


def _stored(created: Any) -> Stored:
    expires = getattr(created, "expires_at", None)
    return Stored(file_id=str(created.id), expires_at=float(expires) if expires else None)


def upload(client: Any, request: UploadRequest) -> Stored:
    """Store one file in OpenAI's file store with a blocking client."""
    create = member(client, "files.create", "openai", _CLIENT)
    return _stored(answer(create(**_arguments(request)), "openai"))


async def aupload(client: Any, request: UploadRequest) -> Stored:
    """Store one file in OpenAI's file store with an async client."""
    create = member(client, "files.create", "openai", _CLIENT)
    return _stored(await awaited(create(**_arguments(request)), "openai"))


# What openai-python keeps as `api_key` when the key is not one: a key function's client
# (`api_key=""` until a request, then the last key it gave) or workload identity's
# placeholder (openai-python 3.57 `lib/_client_auth.py`, read 2026-12).
_NO_KEY = ("", "workload-identity-auth")


def account(client: Any, location: str | None) -> str | None:
    """Fingerprint the endpoint, key, organization and project a client stores into; None
    when no fixed key names the account (a key function, workload identity)."""
    key = getattr(client, "api_key", None)
    if (
        not isinstance(key, str)
        or key in _NO_KEY
        or getattr(client, "_api_key_provider", None) is not None
        or getattr(client, "workload_identity", None) is not None
    ):
        return None
    return fingerprint(
        "openai",
        getattr(client, "base_url", None),
        getattr(client, "api_key", None),
        getattr(client, "organization", None),
        getattr(client, "project", None),
    )


FILES = FileApi(rules=FILE_STORE, upload=upload, aupload=aupload, account=account)
