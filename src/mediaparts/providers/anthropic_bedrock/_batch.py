"""Bedrock batch inference (`CreateModelInvocationJob`, type `InvokeModel`, the default) for
Claude: each input line `{"recordId", "modelInput"}`, the model input the Messages body of
`InvokeModel` (with `anthropic_version` and `max_tokens`, no `model`: the job names it); each
output line adds `modelOutput` (the Message) or `error` (`{"errorCode", "errorMessage"}`)
(docs.aws.amazon.com/bedrock/latest/userguide/batch-inference-data.html,
batch-inference-results.html and batch-inference-example.html, read 2026-12). Output lines are
read as Bedrock's Converse records are (`bedrock.PROVIDER.batch_result`): the envelope is the
same, only the body differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mediaparts.providers import bedrock
from mediaparts.providers.anthropic import batch_body
from mediaparts.providers.anthropic_bedrock._tables import ANTHROPIC_VERSION, PROVIDER

__all__ = ["batch_request", "batch_result"]


def batch_request(
    custom_id: str, payload: dict[str, Any], model: str | None, params: Mapping[str, Any]
) -> dict[str, Any]:
    """Wrap one rendered request as a Bedrock batch inference record of Claude's own body.

    Raises:
        InvalidConfig: No `max_tokens` in `params` (required), `params` names a model (the
            job does) or sets a field the conversation wrote.
    """
    body = batch_body(custom_id, payload, params, PROVIDER, ANTHROPIC_VERSION)
    return {"recordId": custom_id, "modelInput": body}


batch_result = bedrock.PROVIDER.batch_result
assert batch_result is not None
