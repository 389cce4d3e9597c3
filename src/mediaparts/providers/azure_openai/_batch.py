"""Azure OpenAI global batch lines: OpenAI's envelope, whose `model` is the deployment's name.

"The `model` attribute must be set to match the name of the Global Batch deployment … The same
Global Batch model deployment name must be present on each line of the batch file"; lines of
the v1 API go to `"url": "/v1/chat/completions"` or `"/v1/responses"` (older api-version files
wrote `/chat/completions`); output lines are OpenAI's (how-to/batch and includes/batch/
batch-python, batch-rest, github.com/MicrosoftDocs/azure-ai-docs, read 2026-12).
"""

from __future__ import annotations

from mediaparts.providers import openai
from mediaparts.providers.openai import batch_writer

__all__ = ["batch_request", "batch_result"]

# `model=` is the deployment's name, as the call's is: the envelope writes what it is given.
batch_request = batch_writer("/v1/chat/completions", "azure-openai")
batch_result = openai.PROVIDER.batch_result
assert batch_result is not None
