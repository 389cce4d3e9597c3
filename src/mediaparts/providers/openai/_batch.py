"""OpenAI Batch API input lines and output lines, for Chat Completions and (through
`openai_responses`) the Responses API.

An input line is `{"custom_id", "method": "POST", "url", "body"}`, the body being the call's
JSON with `model`; an output line is `{"id", "custom_id", "response": {"status_code",
"request_id", "body"}, "error": {"code", "message"}}` (openai-python 2.x
`types/batch_request_input.py`-era docs, platform.openai.com/docs/guides/batch and
/docs/api-reference/batch/request-output, read 2026-12-02).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from mediaparts._errors import InvalidConfig, excerpt
from mediaparts.providers._batching._types import (
    BatchRecord,
    need_id,
    one_model,
    request_fields,
    result_error,
)
from mediaparts.providers._wire._reading import as_dict, maybe

__all__ = ["batch_request", "batch_result", "batch_writer"]

BatchRequest = Callable[[str, dict[str, Any], str | None, Mapping[str, Any]], dict[str, Any]]


def batch_writer(url: str, provider: str) -> BatchRequest:
    """Return the `batch_request` of one OpenAI endpoint (`/v1/chat/completions`, ...); a
    partial of a module function, so it pickles (worker processes receive it)."""
    return functools.partial(_request, url, provider)


def _request(
    url: str,
    provider: str,
    custom_id: str,
    payload: dict[str, Any],
    model: str | None,
    params: Mapping[str, Any],
) -> dict[str, Any]:
    """Wrap one rendered request as a line of an OpenAI Batch input file.

    Raises:
        InvalidConfig: No model (the body must name one), or `params` sets a field the
            conversation wrote.
    """
    if model is None and "model" not in params:
        raise InvalidConfig(
            f"an OpenAI batch request names its model: pass model= ({provider}, "
            f"{excerpt(custom_id)})"
        )
    one_model(model, params, provider)
    body = request_fields(payload, params, provider)
    if model is not None:
        body = {"model": model, **{k: v for k, v in body.items() if k != "model"}}
    return {"custom_id": custom_id, "method": "POST", "url": url, "body": body}


batch_request = batch_writer("/v1/chat/completions", "openai")


def batch_result(record: dict[str, Any]) -> BatchRecord:
    """Read one line of an OpenAI Batch output (or error) file.

    A line with `error` set, or with a response whose `status_code` is not 2xx, is an error
    (the body's `error.type`/`code` and `message` when it has them).

    Raises:
        InvalidMedia: The line's fields are not what the output format has (naming them).
    """
    custom_id = need_id(record.get("custom_id"), "custom_id", "line")
    error = maybe(record, "error", "line", dict)
    if error is not None:
        return BatchRecord(custom_id, None, result_error(error.get("code"), error.get("message")))
    response = as_dict(record.get("response"), "line.response")
    status = response.get("status_code")
    body = as_dict(response.get("body"), "line.response.body")
    if type(status) is int and not 200 <= status < 300:
        found = body.get("error")
        detail: dict[str, Any] = found if isinstance(found, dict) else {}
        code = detail.get("type") or detail.get("code") or f"http_{status}"
        message = detail.get("message", f"HTTP {status}")
        return BatchRecord(custom_id, None, result_error(code, message, status))
    return BatchRecord(custom_id, body, None)
