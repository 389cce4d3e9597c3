"""Mistral Batch API input lines and output lines (`/v1/chat/completions` jobs).

An input line is `{"custom_id", "body"}`, the body being "the raw request you would have when
calling the original endpoint without batching"; "The `model` field inside `body` is optional
when you specify the model at job creation time". An output line is `{"id", "custom_id",
"response": {"status_code", "body"}, "error"}` (docs.mistral.ai/studio/batch-processing, the
chat completion tab's batch and result files, read 2026-12): OpenAI's result format, read by
its reader.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mediaparts.providers import openai
from mediaparts.providers._batching._types import BatchRecord, one_model, request_fields

__all__ = ["batch_request", "batch_result"]

_PROVIDER = "mistral"


def batch_request(
    custom_id: str, payload: dict[str, Any], model: str | None, params: Mapping[str, Any]
) -> dict[str, Any]:
    """Wrap one rendered request as a line of a Mistral batch input file.

    The model goes into the body when given (else the job's model applies).

    Raises:
        InvalidConfig: `params` sets a field the conversation wrote, or names another model.
    """
    one_model(model, params, _PROVIDER)
    body = request_fields(payload, params, _PROVIDER)
    if model is not None:
        body = {"model": model, **{k: v for k, v in body.items() if k != "model"}}
    return {"custom_id": custom_id, "body": body}


def batch_result(record: dict[str, Any]) -> BatchRecord:
    """Read one line of a Mistral batch result file, as OpenAI's reader reads its own.

    Raises:
        InvalidMedia: The line's fields are not what the output format has (naming them).
    """
    read = openai.PROVIDER.batch_result
    assert read is not None
    return read(record)
