"""Bedrock batch inference (`CreateModelInvocationJob`) input records: each line
`{"recordId", "modelInput"}`, the model input being the Converse request body `render` writes
(messages, system, plus `inferenceConfig` and such from `params`), so the job is created with
`modelInvocationType="Converse"` (the default, `InvokeModel`, wants each model's native body).
Output lines (`<input>.jsonl.out`) are `{"recordId", "modelInput", "modelOutput"}`, the output
a Converse response, or `{"recordId", "modelInput", "error": {"errorCode", "errorMessage"}}`
(docs.aws.amazon.com/bedrock/latest/userguide/batch-inference-data.html and
batch-inference-results.html, read 2026-12-02). The model is named when the job is created.
Converse-type jobs take no tools (`BATCH_REFUSED` in `_tables`).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from mediaparts._errors import InvalidConfig
from mediaparts.providers._batching._types import (
    BatchRecord,
    need_id,
    request_fields,
    result_error,
)
from mediaparts.providers._wire._reading import as_dict
from mediaparts.providers.bedrock._tables import BATCH_REFUSED

__all__ = ["batch_request", "batch_result"]


def batch_request(
    custom_id: str, payload: dict[str, Any], model: str | None, params: Mapping[str, Any]
) -> dict[str, Any]:
    """Wrap one rendered request as a Bedrock batch inference record (Converse type).

    Raises:
        InvalidConfig: `params` sets a field the conversation wrote, or one a Converse batch
            record may not carry (`toolConfig`).
    """
    for name, why in BATCH_REFUSED.items():
        if name in params:
            raise InvalidConfig(f"a Bedrock batch record may not set {name}: {why}")
    body = request_fields(_wire(payload), params, "bedrock")
    return {"recordId": custom_id, "modelInput": body}


def _wire(value: Any) -> Any:
    """Return the payload as the Converse JSON has it: boto3 takes blobs (`image.source.bytes`)
    as bytes and sends them base64-encoded, and so does the JSON of a batch record."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, dict):
        return {key: _wire(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_wire(item) for item in value]
    return value


def batch_result(record: dict[str, Any]) -> BatchRecord:
    """Read one line of a Bedrock batch inference output file.

    Raises:
        InvalidMedia: The line's fields are not what the output format has (naming them).
    """
    record_id = need_id(record.get("recordId"), "recordId", "line")
    error = record.get("error")
    if isinstance(error, dict):
        code = error.get("errorCode")
        return BatchRecord(
            record_id,
            None,
            result_error(code, error.get("errorMessage"), code),
        )
    return BatchRecord(record_id, as_dict(record.get("modelOutput"), "line.modelOutput"), None)
