"""Uploads to Anthropic's Files API (`client.beta.files.upload`)."""

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
from mediaparts.providers.anthropic._tables import FILE_STORE, FILES_BETA

__all__ = ["FILES"]

_CLIENT = "an anthropic.Anthropic client (anthropic.AsyncAnthropic for aupload)"


def _file(request: UploadRequest) -> tuple[str, bytes, str]:
    # The SDK sends a (name, bytes, type) tuple as the multipart `file` field
    # (anthropic-sdk-python resources/beta/files.py, read 2026-12).
    return (request.filename, request.data, request.media_type)


def upload(client: Any, request: UploadRequest) -> Stored:
    """Store one file in Anthropic's Files API with a blocking client."""
    send = member(client, "beta.files.upload", "anthropic", _CLIENT)
    return Stored(
        file_id=str(answer(send(file=_file(request), betas=[FILES_BETA]), "anthropic").id)
    )


async def aupload(client: Any, request: UploadRequest) -> Stored:
    """Store one file in Anthropic's Files API with an async client."""
    send = member(client, "beta.files.upload", "anthropic", _CLIENT)
    return Stored(
        file_id=str((await awaited(send(file=_file(request), betas=[FILES_BETA]), "anthropic")).id)
    )


def account(client: Any, location: str | None) -> str | None:
    """Fingerprint the endpoint and key (or token) a client stores into; None when it has
    neither (its credentials come from a provider, a profile or workload identity, which
    name no fixed account here)."""
    if getattr(client, "api_key", None) is None and getattr(client, "auth_token", None) is None:
        return None
    return fingerprint(
        "anthropic",
        getattr(client, "base_url", None),
        getattr(client, "api_key", None),
        getattr(client, "auth_token", None),
    )


FILES = FileApi(rules=FILE_STORE, upload=upload, aupload=aupload, account=account)
