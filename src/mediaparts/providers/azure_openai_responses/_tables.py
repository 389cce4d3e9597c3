"""Azure OpenAI's Responses API as data: OpenAI's Responses tables with Azure's limits.

Azure's image limits, store and batch limits are the same for both of its APIs
(`azure_openai._tables`); the documents differ from both OpenAI's Responses API and Azure's
Chat Completions (read 2026-12 from github.com/MicrosoftDocs/azure-ai-docs,
`articles/ai-foundry/openai/`; each page's `ms.date` in brackets).
"""

from __future__ import annotations

import dataclasses

from mediaparts.providers import azure_openai, openai_responses
from mediaparts.providers._rules import Rules

__all__ = ["FILE_STORE", "PROVIDER", "RULES"]

_AZURE = azure_openai.RULES
_PDF = ("application/pdf",)

RULES: Rules = dataclasses.replace(
    openai_responses.RULES,
    provider="azure-openai-responses",
    prices_id=_AZURE.prices_id,
    # The resource's store, shared with Chat Completions.
    file_store=azure_openai.STORE,
    image=azure_openai.IMAGE_RULES,
    models=azure_openai.MODELS,
    models_source=azure_openai.MODELS_SOURCE,
    # "Models with vision capabilities support PDF input. PDF files can be provided either as
    # Base64-encoded data or as file IDs" (how-to/responses "File input" [01/14/2026]): PDF
    # only (no Office documents, which OpenAI's Responses API reads), no `file_url`. "In a
    # single API request, the size of content uploaded across multiple inputs (files) should
    # be within the model's context length": no byte or page figure (None). "Only models that
    # support both text and image inputs can accept PDF files as input".
    file=dataclasses.replace(
        openai_responses.RULES.file,
        media_types=_PDF,
        url_types=(),
        max_bytes=None,
        max_request_pages=None,
        max_request_bytes=None,
        source="learn.microsoft.com/azure/ai-foundry/openai/how-to/responses [01/14/2026] "
        "(read 2026-12)",
    ),
    max_request_bytes=_AZURE.max_request_bytes,
    batch_max_requests=_AZURE.batch_max_requests,
    batch_max_bytes=_AZURE.batch_max_bytes,
    batch_source=_AZURE.batch_source,
    source=_AZURE.source,
)

# The provider's name, as every module of this package writes it.
PROVIDER = RULES.provider

# The resource's store (its facts: `azure_openai.AZURE_FILE_STORE`).
FILE_STORE = azure_openai.AZURE_FILE_STORE
