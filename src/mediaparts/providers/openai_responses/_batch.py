"""OpenAI Batch API lines for the Responses API: the Chat Completions envelope
(`openai._batch`) at `url: "/v1/responses"`; results are read the same way, their bodies
being `Response` objects (platform.openai.com/docs/guides/batch, read 2026-12-02).
"""

from __future__ import annotations

from mediaparts.providers import openai
from mediaparts.providers.openai import batch_writer

__all__ = ["batch_request", "batch_result"]

batch_request = batch_writer("/v1/responses", "openai-responses")
# Results are read as Chat Completions reads them (the envelope is the same).
batch_result = openai.PROVIDER.batch_result
assert batch_result is not None
