"""Gemini Batch API input files: each line `{"key", "request"}`, the request a
`GenerateContentRequest` (the REST body `render` writes, plus `generationConfig`, `tools` and
such from `params`); each output line `{"key", "response"}` or `{"key", "error"|"status":
{"code", "message", "status"}}` (ai.google.dev/gemini-api/docs/batch-mode, read 2026-12-02).
The model is named when the batch job is created, not in the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mediaparts.providers._batching._types import (
    BatchRecord,
    need_id,
    request_fields,
    result_error,
)
from mediaparts.providers._wire._reading import as_dict

__all__ = ["batch_request", "batch_result"]


def batch_request(
    custom_id: str, payload: dict[str, Any], model: str | None, params: Mapping[str, Any]
) -> dict[str, Any]:
    """Wrap one rendered request as a line of a Gemini batch input file.

    Raises:
        InvalidConfig: `params` sets a field the conversation wrote.
    """
    return {"key": custom_id, "request": request_fields(payload, params, "gemini")}


def batch_result(record: dict[str, Any]) -> BatchRecord:
    """Read one line of a Gemini batch output file.

    Raises:
        InvalidMedia: The line's fields are not what the output format has (naming them).
    """
    key = need_id(record.get("key"), "key", "line")
    for field in ("error", "status"):
        error = record.get(field)
        if isinstance(error, dict):
            status = error.get("status")
            code = status if isinstance(status, str) and status else error.get("code")
            return BatchRecord(
                key, None, result_error(code, error.get("message"), error.get("code"))
            )
    return BatchRecord(key, as_dict(record.get("response"), "line.response"), None)
