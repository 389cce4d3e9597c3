"""Azure OpenAI global batch lines for the Responses API: `"url": "/v1/responses"`, `model`
the deployment's name (includes/batch/batch-python, read 2026-12)."""

from __future__ import annotations

from mediaparts.providers import azure_openai
from mediaparts.providers.openai import batch_writer

__all__ = ["batch_request", "batch_result"]

batch_request = batch_writer("/v1/responses", "azure-openai-responses")
batch_result = azure_openai.PROVIDER.batch_result
assert batch_result is not None
