"""Uploads to an Azure OpenAI resource's file store (`client.files.create`), for both its APIs.

The openai SDK's clients store there: `openai.AzureOpenAI` (`azure_endpoint=...`) or
`openai.OpenAI` with the resource's `/openai/v1/` base URL (how-to/responses, read 2026-12).
"""

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
from mediaparts.providers.azure_openai._tables import AZURE_FILE_STORE, STORE

__all__ = ["FILES"]

_CLIENT = (
    "an openai.AzureOpenAI client, or openai.OpenAI on the resource's /openai/v1/ URL "
    "(the async clients for aupload)"
)


def _arguments(request: UploadRequest) -> dict[str, Any]:
    # Azure refuses `user_data`; `assistants` is its documented stand-in (how-to/responses,
    # "File input", read 2026-12).
    return {
        "file": (request.filename, request.data, request.media_type),
        "purpose": request.purpose or "assistants",
    }


def _stored(created: Any) -> Stored:
    expires = getattr(created, "expires_at", None)
    return Stored(file_id=str(created.id), expires_at=float(expires) if expires else None)


def upload(client: Any, request: UploadRequest) -> Stored:
    """Store one file in the Azure OpenAI resource's store with a blocking client."""
    create = member(client, "files.create", STORE, _CLIENT)
    return _stored(answer(create(**_arguments(request)), STORE))


async def aupload(client: Any, request: UploadRequest) -> Stored:
    """Store one file in the Azure OpenAI resource's store with an async client."""
    create = member(client, "files.create", STORE, _CLIENT)
    return _stored(await awaited(create(**_arguments(request)), STORE))


# What the openai SDK keeps as `api_key` when the client authenticates otherwise: Entra ID's
# token provider leaves "<missing API key>" (openai-python 3.63 `lib/azure.py`, read 2026-12),
# a key function "" until its first request.
_NO_KEY = ("", "<missing API key>")


def account(client: Any, location: str | None) -> str | None:
    """Fingerprint the resource and key a client stores with; None when no fixed key names
    the account (Entra ID tokens, a key function)."""
    key = getattr(client, "api_key", None)
    if (
        not isinstance(key, str)
        or key in _NO_KEY
        or getattr(client, "_azure_ad_token_provider", None) is not None
        or getattr(client, "_api_key_provider", None) is not None
    ):
        return None
    return fingerprint(STORE, getattr(client, "base_url", None), key)


FILES = FileApi(rules=AZURE_FILE_STORE, upload=upload, aupload=aupload, account=account)
