"""`read_batch_results`: a provider's batch result file back into `Assistant` messages, keyed
by the caller's ids, errors included.

A result file comes from outside: each line is bounded in size, parsed on its own, and read
with the provider's `batch_result` (the envelope) and `read_response` (the body); a line that
cannot be read becomes a result whose error says why and where, and the reading goes on.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from mediaparts._boundary import Boundary
from mediaparts._errors import InvalidConfig, InvalidMedia, MediaError, excerpt, rewrap
from mediaparts._paths import open_path
from mediaparts.providers._batching._lines import batch_provider
from mediaparts.providers._batching._types import BatchResult
from mediaparts.providers._registry import Provider
from mediaparts.providers._wire._reading import plain

__all__ = ["MAX_LINE_BYTES", "read_batch_results"]

# The longest result line read: a response is text, but Bedrock's output lines repeat the
# request (`modelInput`, its images in base64 too).
MAX_LINE_BYTES = 64 * 1024 * 1024

# Only MediaError leaves the reading of batch results (see Boundary).
_READING_RESULTS = Boundary("reading batch results")


def read_batch_results(
    source: str | os.PathLike[str] | Iterable[Any],
    provider: str | Provider,
    *,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> Iterator[BatchResult]:
    """Read a provider's batch result file, one `BatchResult` per line, as they come.

    Args:
        source: A path to a JSONL result file, or an iterable of its lines (bytes or str),
            of the records already parsed (dicts), or of the SDK's result objects (what
            anthropic's `messages.batches.results(id)` yields). Blank lines are skipped.
        provider: A provider name or `Provider` with a batch format.
        max_line_bytes: The longest line read; a longer one is a result with an error.

    Yields:
        For each line: the id, and the `Assistant` message or the error: a `BatchError` when
        the provider reports one (`code`, `message`, `status`), an `InvalidMedia` naming the
        line number when the line is not what the provider writes.

    Raises:
        InvalidConfig: The provider has no batch format or no response reader, or
            `max_line_bytes` is not a positive whole number.
        InvalidMedia: `source` is neither a path nor an iterable of lines; or the path is
            missing, cannot be read, or is not a regular file (a FIFO, a device, a directory:
            raised when the first result is asked for). A file object or iterable given is
            read as it is.
    """
    chosen = batch_provider(provider)
    if chosen.response_reader is None:
        raise InvalidConfig(f"provider {excerpt(chosen.name)} cannot read responses")
    if (
        not isinstance(max_line_bytes, int)
        or isinstance(max_line_bytes, bool)
        or max_line_bytes < 1
    ):
        raise InvalidConfig(
            f"max_line_bytes must be a positive whole number, got {excerpt(max_line_bytes)}"
        )
    if isinstance(source, str | os.PathLike):
        return _from_file(Path(source), chosen, max_line_bytes)
    if isinstance(source, bytes | bytearray | Mapping) or not isinstance(source, Iterable):
        raise InvalidMedia(
            "read_batch_results() takes a path or an iterable of result lines (bytes, str or "
            f"dicts), got {type(source).__name__}"
        )
    return _read(enumerate(source, 1), chosen, max_line_bytes)


def _from_file(path: Path, provider: Provider, limit: int) -> Iterator[BatchResult]:
    # As every path the library reads: a regular file only, opened without blocking, so a
    # FIFO cannot hang the reading and /dev/zero cannot make it endless.
    try:
        with open_path(path) as file:
            yield from _read(_bounded_lines(file, limit), provider, limit)
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _READING_RESULTS.reraise(exc)


def _bounded_lines(file: IO[bytes], limit: int) -> Iterator[tuple[int, bytes | None]]:
    """Yield `(number, line)`, None for a line over `limit` bytes (skipped, never held)."""
    number = 0
    while True:
        line = file.readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) > limit and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # the rest of the long line, dropped
                line = file.readline(1 << 20)
            yield number, None
            continue
        yield number, line


def _read(
    lines: Iterable[tuple[int, Any]], provider: Provider, limit: int
) -> Iterator[BatchResult]:
    # Read lazily, after read_batch_results returned: the boundary is here, in the generator.
    try:
        for number, line in lines:
            if isinstance(line, str | bytes | bytearray) and not line.strip():
                continue
            yield _result(number, line, provider, limit)
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _READING_RESULTS.reraise(exc)


def _result(number: int, line: Any, provider: Provider, limit: int) -> BatchResult:
    """Read one line (or record) into a result; what cannot be read is the result's error."""
    where = f"{provider.name} batch result line {number}"
    if line is None or (isinstance(line, str | bytes | bytearray) and len(line) > limit):
        error = InvalidMedia(f"{where}: over {limit:,} bytes, not read (max_line_bytes)")
        return BatchResult(None, None, error, number)
    try:
        record = _record(line)
        assert provider.batch_result is not None
        found = provider.batch_result(record)
    except MediaError as exc:
        return BatchResult(None, None, rewrap(exc, f"{where}: {exc}"), number)
    if found.error is not None:
        return BatchResult(found.custom_id, None, found.error, number)
    try:
        message = provider.read_response(found.response)
    except MediaError as exc:
        return BatchResult(found.custom_id, None, rewrap(exc, f"{where}: {exc}"), number)
    return BatchResult(found.custom_id, message, None, number)


def _record(line: Any) -> dict[str, Any]:
    """Return one line as a JSON object with string keys."""
    if isinstance(line, Mapping):
        record: Any = line
    elif callable(getattr(line, "model_dump", None)):  # an SDK's result object
        record = plain(line, mode="json", sent=True)
    elif isinstance(line, str | bytes | bytearray):
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
            raise InvalidMedia(f"not JSON ({type(exc).__name__})") from exc
    else:
        raise InvalidMedia(
            f"a line is bytes, str, a dict or an SDK's result object, got {type(line).__name__}"
        )
    if not isinstance(record, Mapping) or not all(isinstance(k, str) for k in record):
        raise InvalidMedia(f"expected a JSON object, got {type(record).__name__}")
    return dict(record)
