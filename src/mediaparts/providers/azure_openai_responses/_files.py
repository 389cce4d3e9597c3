"""Uploads for Azure's Responses API: the resource's store, as Chat Completions uploads to it."""

from __future__ import annotations

import dataclasses

from mediaparts.providers import azure_openai
from mediaparts.providers.azure_openai_responses._tables import FILE_STORE

__all__ = ["FILES"]

_CHAT_FILES = azure_openai.PROVIDER.files
assert _CHAT_FILES is not None
FILES = dataclasses.replace(_CHAT_FILES, rules=FILE_STORE)
