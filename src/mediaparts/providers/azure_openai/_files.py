"""Uploads to an Azure OpenAI resource's file store (`client.files.create`), for both its APIs.

The openai SDK's clients store there: `openai.AzureOpenAI` (`azure_endpoint=...`) or
`openai.OpenAI` with the resource's `/openai/v1/` base URL (how-to/responses, read 2026-12).
"""

from __future__ import annotations

import functools
from typing import Any

from mediaparts.providers._files import FileApi, fingerprint
from mediaparts.providers.azure_openai._tables import AZURE_FILE_STORE, STORE
from mediaparts.providers.openai import acreate_file, create_file

__all__ = ["FILES"]

_CLIENT = (
    "an openai.AzureOpenAI client, or openai.OpenAI on the resource's /openai/v1/ URL "
    "(the async clients for aupload)"
)


# Azure refuses `user_data`; `assistants` is its documented stand-in (how-to/responses, "File
# input", read 2026-12). Partials of OpenAI's upload calls, so the record pickles.
upload = functools.partial(create_file, STORE, _CLIENT, "assistants")
aupload = functools.partial(acreate_file, STORE, _CLIENT, "assistants")


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
