"""Uploads to OpenAI's file store (`client.files.create`), shared by both OpenAI APIs."""

from __future__ import annotations

import functools
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

__all__ = ["FILES", "acreate_file", "create_file"]

_CLIENT = "an openai.OpenAI client (openai.AsyncOpenAI for aupload)"


def _arguments(request: UploadRequest, purpose: str) -> dict[str, Any]:
    # A (name, bytes, type) tuple: the SDK sends it as the multipart `file` field with that
    # content type (openai-python `_files.py`, read 2026-12).
    return {
        "file": (request.filename, request.data, request.media_type),
        "purpose": request.purpose or purpose,
    }


def _stored(created: Any) -> Stored:
    expires = getattr(created, "expires_at", None)
    return Stored(file_id=str(created.id), expires_at=float(expires) if expires else None)


def create_file(
    store: str, clients: str, purpose: str, client: Any, request: UploadRequest
) -> Stored:
    """Store one file with an openai SDK client's blocking `files.create` (`store` names the
    store in errors, `clients` the clients that do, `purpose` the default purpose)."""
    create = member(client, "files.create", store, clients)
    return _stored(answer(create(**_arguments(request, purpose)), store))


async def acreate_file(
    store: str, clients: str, purpose: str, client: Any, request: UploadRequest
) -> Stored:
    """`create_file` with an async client."""
    create = member(client, "files.create", store, clients)
    return _stored(await awaited(create(**_arguments(request, purpose)), store))


# Partials of module functions, so the record pickles for worker processes.
upload = functools.partial(create_file, "openai", _CLIENT, "user_data")
aupload = functools.partial(acreate_file, "openai", _CLIENT, "user_data")


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
