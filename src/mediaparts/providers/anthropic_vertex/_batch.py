"""Vertex AI batch prediction for Claude: each input line `{"custom_id", "request"}`, the
request a Messages body with `anthropic_version` and `max_tokens` and no `model` (the model is
named when the job is created); the output adds `response` (the Message) and `status` (empty,
or why the request failed) to each line (docs.cloud.google.com/vertex-ai/generative-ai/docs/
partner-models/claude/batch, read 2026-12).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mediaparts.providers._batching._types import BatchRecord, need_id, result_error
from mediaparts.providers.anthropic import batch_body
from mediaparts.providers.anthropic_vertex._tables import ANTHROPIC_VERSION, PROVIDER

__all__ = ["batch_request", "batch_result"]


def batch_request(
    custom_id: str, payload: dict[str, Any], model: str | None, params: Mapping[str, Any]
) -> dict[str, Any]:
    """Wrap one rendered request as a line of a Vertex AI batch input file for Claude.

    Raises:
        InvalidConfig: No `max_tokens` in `params` (required), `params` names a model (the
            job does) or sets a field the conversation wrote.
    """
    body = batch_body(custom_id, payload, params, PROVIDER, ANTHROPIC_VERSION)
    return {"custom_id": custom_id, "request": body}


def batch_result(record: dict[str, Any]) -> BatchRecord:
    """Read one line of a Vertex AI batch output file for Claude.

    Raises:
        InvalidMedia: The line names no `custom_id`.
    """
    custom_id = need_id(record.get("custom_id"), "custom_id", "line")
    status = record.get("status")
    response = record.get("response")
    if isinstance(response, dict) and not status:
        return BatchRecord(custom_id, response, None)
    return BatchRecord(custom_id, None, result_error("failed", status or "no response"))
