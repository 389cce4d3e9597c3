"""Anthropic Message Batches: one request is `{"custom_id", "params"}`, the params being the
`messages.create` body with `model` and `max_tokens`; one result line (the results file) is
`{"custom_id", "result": {"type": "succeeded", "message"} | {"type": "errored", "error"} |
{"type": "canceled"} | {"type": "expired"}}` (anthropic-sdk-python
`types/messages/batch_create_params.py`, `message_batch_individual_response.py`;
platform.claude.com/docs/en/api/messages/batches/create, read 2026-12-02).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mediaparts._errors import InvalidConfig, ProviderLimitError, excerpt
from mediaparts.providers._batching._types import (
    BatchRecord,
    need_id,
    one_model,
    request_fields,
    result_error,
)
from mediaparts.providers._wire._reading import as_dict, need

__all__ = ["CUSTOM_ID", "batch_request", "batch_result"]

# "minLength: 1, maxLength: 64, pattern: ^[a-zA-Z0-9_-]{1,64}$" (the page above).
CUSTOM_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def batch_request(
    custom_id: str, payload: dict[str, Any], model: str | None, params: Mapping[str, Any]
) -> dict[str, Any]:
    """Wrap one rendered request as a Message Batches request.

    Raises:
        ProviderLimitError: The id is not 1-64 letters, digits, `_` or `-`.
        InvalidConfig: No model, or no `max_tokens` in `params` (both required), or `params`
            sets a field the conversation wrote.
    """
    if not CUSTOM_ID.fullmatch(custom_id):
        raise ProviderLimitError(
            f"anthropic batch custom_id {excerpt(custom_id)} must be 1-64 letters, digits, "
            "'_' or '-'",
            provider="anthropic",
        )
    if model is None and "model" not in params:
        raise InvalidConfig(
            f"an Anthropic batch request names its model: pass model= ({custom_id})"
        )
    if "max_tokens" not in params:
        raise InvalidConfig(
            f"an Anthropic batch request needs max_tokens: pass params={{'max_tokens': ...}} "
            f"({custom_id})"
        )
    one_model(model, params, "anthropic")
    head = {"model": model} if model is not None else {}
    body = request_fields(payload, params, "anthropic")
    return {"custom_id": custom_id, "params": {**head, **body}}


def batch_result(record: dict[str, Any]) -> BatchRecord:
    """Read one line of a Message Batches results file.

    Raises:
        InvalidMedia: The line's fields are not what the results format has (naming them).
    """
    custom_id = need_id(record.get("custom_id"), "custom_id", "line")
    result = as_dict(record.get("result"), "line.result")
    kind = need(result, "type", "line.result", str)
    if kind == "succeeded":
        return BatchRecord(custom_id, as_dict(result.get("message"), "line.result.message"), None)
    if kind == "errored":
        # An ErrorResponse: {"type": "error", "error": {"type", "message"}}.
        found = result.get("error")
        outer: dict[str, Any] = found if isinstance(found, dict) else {}
        nested = outer.get("error")
        inner: dict[str, Any] = nested if isinstance(nested, dict) else outer
        return BatchRecord(custom_id, None, result_error(inner.get("type"), inner.get("message")))
    said = {"canceled": "the batch was canceled first", "expired": "the batch expired first"}
    return BatchRecord(custom_id, None, result_error(kind, said.get(kind, f"result {kind}")))
