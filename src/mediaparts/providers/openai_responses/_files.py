"""Uploads for the Responses API: OpenAI's file store, as Chat Completions uploads to it."""

from __future__ import annotations

import dataclasses

from mediaparts.providers import openai
from mediaparts.providers.openai_responses._tables import FILE_STORE

__all__ = ["FILES"]

# The same calls and store; only which kinds the API takes by reference differ.
_CHAT_FILES = openai.PROVIDER.files
assert _CHAT_FILES is not None
FILES = dataclasses.replace(_CHAT_FILES, rules=FILE_STORE)
