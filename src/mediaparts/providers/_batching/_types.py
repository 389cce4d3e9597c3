"""What batch files and their results are made of, shared by the generic batch code and each
provider's `_batch` module: `BatchFile`, `BatchError`, `BatchResult`, `BatchRecord` and the one
JSON-line encoder.

A helper module, like `_wire/_reading`: it imports no registry and no generic operation, so a
provider package may import it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from mediaparts._conversation._messages import Assistant
from mediaparts._errors import InvalidConfig, InvalidMedia, MediaError, excerpt
from mediaparts.providers._wire._reading import shown

__all__ = [
    "BatchError",
    "BatchFile",
    "BatchRecord",
    "BatchResult",
    "json_line",
    "need_id",
    "one_model",
    "request_fields",
    "result_error",
]


@dataclass(frozen=True, slots=True)
class BatchFile:
    """One batch input file written.

    Attributes:
        path: Where it is.
        requests: How many request lines it holds.
        bytes: Its size in bytes.
    """

    path: Path
    requests: int
    bytes: int


@dataclass(frozen=True, slots=True)
class BatchError:
    """Why one request of a batch has no answer, as the provider's result file says.

    Attributes:
        code: The provider's error type or code (`"invalid_request_error"`, `"expired"`,
            `"canceled"`, `"ValidationException"`, ...), or `"unreadable"` for a result line
            that could not be read.
        message: What the provider (or the reader) said, at most 1,000 characters.
        status: The HTTP status the provider gave, when it gave one.
    """

    code: str
    message: str
    status: int | None = None


@dataclass(frozen=True, slots=True)
class BatchResult:
    """One line of a batch result file, read.

    Attributes:
        custom_id: The caller's id of the request (None when the line names none).
        message: The model's answer, or None when there is an error.
        error: A `BatchError` (the provider's), a `MediaError` (a response body the reader
            refused), or None.
        line: The line's number in its source, from 1.
    """

    custom_id: str | None
    message: Assistant | None
    error: BatchError | MediaError | None
    line: int = 0

    @property
    def ok(self) -> bool:
        """True when the request has an answer."""
        return self.error is None


class BatchRecord(NamedTuple):
    """What a provider's `batch_result` finds in one result line: the id, the response body
    to read (None on error) and the error (None on success)."""

    custom_id: str | None
    response: Any
    error: BatchError | None


_MESSAGE_CHARS = 1000


def result_error(code: Any, message: Any, status: Any = None) -> BatchError:
    """Return a `BatchError` from hostile values: strings kept short, a status only if whole."""
    text = message if isinstance(message, str) else shown(message)
    if type(code) is int:  # Bedrock's errorCode, Gemini's code: numbers
        code = str(code)
    return BatchError(
        code=code[:200] if isinstance(code, str) and code else "error",
        message=text[:_MESSAGE_CHARS],
        status=status if type(status) is int else None,
    )


def json_line(value: Any) -> bytes:
    """Return `value` as one compact JSON line ending in a newline (deterministic bytes).

    Raises:
        InvalidConfig: Something in it is not JSON, or holds a lone surrogate (a `params`
            value, most likely: ids, model names, keys and message text are checked or
            cleaned before).
    """
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidConfig(f"a batch request must be JSON: {exc}") from exc
    try:
        return text.encode() + b"\n"
    except UnicodeEncodeError as exc:
        near = text[max(exc.start - 30, 0) : exc.end + 30]
        raise InvalidConfig(
            f"a batch request holds a lone surrogate, which cannot be encoded as UTF-8, near "
            f"{excerpt(near)} (a params value?); decode the text it came from correctly"
        ) from exc


def request_fields(
    payload: dict[str, Any], params: Mapping[str, Any], provider: str
) -> dict[str, Any]:
    """Return the rendered payload with the caller's extra request fields after it.

    Raises:
        InvalidConfig: A param names a field the rendering wrote (`messages`, `system`, ...).
    """
    clash = sorted(set(params) & set(payload))
    if clash:
        raise InvalidConfig(
            f"params may not set {', '.join(map(excerpt, clash))}: the conversation rendered "
            f"for {provider} writes it"
        )
    return {**payload, **params}


def one_model(model: str | None, params: Mapping[str, Any], provider: str) -> None:
    """Refuse a model given twice, as `model=` and as `params["model"]`, differently.

    Raises:
        InvalidConfig: The two differ (which would win is nobody's guess).
    """
    if model is not None and "model" in params and params["model"] != model:
        raise InvalidConfig(
            f"{provider} batch request: model={excerpt(model)} and params['model']="
            f"{excerpt(params['model'])} differ; give the model once"
        )


def need_id(value: Any, key: str, line: str) -> str:
    """Return a result line's id, or raise naming the field."""
    if not isinstance(value, str):
        raise InvalidMedia(f"{line}.{key}: expected a string id, got {shown(value)}")
    return value
