"""`write_batch`: many conversations into a provider's batch files, in worker processes.

Built on `batch_line` and `BatchWriter` only: the lines are made in workers, a chunk at a
time, and written in input order, so feeding `batch_line`'s lines into a `BatchWriter` by hand
gives the same files byte for byte. The input is read lazily and at most a few chunks per
worker are in flight, so memory does not grow with the number of requests.
"""

from __future__ import annotations

import dataclasses
import os
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from mediaparts._boundary import Boundary
from mediaparts._conversation._mediapart import MediaPart
from mediaparts._conversation._messages import Assistant, System, Tool, User
from mediaparts._errors import InvalidConfig, InvalidMedia, MediaError, excerpt, rewrap
from mediaparts.converting import TransformPolicy
from mediaparts.providers._batching._lines import (
    BatchWriter,
    batch_line,
    batch_provider,
    check_id,
    check_params,
)
from mediaparts.providers._batching._types import BatchFile
from mediaparts.providers._fitting._normalize import UrlMode, _check_urls, _policy
from mediaparts.providers._options import ForeignReasoning, OnLoss, Options, resolve
from mediaparts.providers._registry import Provider

__all__ = ["write_batch"]

# Only MediaError leaves write_batch (see Boundary).
_WRITING_BATCH = Boundary("writing batch files")

# Requests per task sent to a worker: large enough that a task's overhead (pickling, a
# round trip) is small beside its work, and about CHUNK_BYTES of lines, so that the chunks in
# flight stay small whether the images are thumbnails or photos. The first chunks, before a
# line's size is known, are FIRST_CHUNK requests.
FIRST_CHUNK = 8
MAX_CHUNK = 64
CHUNK_BYTES = 8 * 1024 * 1024
# The media bytes of the requests in flight (read, not yet written), at most: without it, a
# few chunks a worker of 14 MB photos held 1.4 GB in this process with two workers, and that
# grows with the cores. A chunk ends at its share of it; one request over it still goes alone.
INPUT_BYTES = 256 * 1024 * 1024
# Progress is reported this often when the work is done in this process.
PROGRESS_EVERY = 32
AHEAD = 3


@dataclass(frozen=True)
class _Job:
    """What every worker needs to make a line (picklable: the provider record, settings)."""

    provider: Provider
    params: dict[str, Any]
    options: Options

    def line(self, custom_id: str, conversation: Any) -> bytes:
        try:
            return batch_line(
                custom_id, conversation, self.provider, params=self.params, options=self.options
            )
        except MediaError as exc:
            raise rewrap(exc, f"batch request {excerpt(custom_id)}: {exc}") from exc


# What a worker sends back for a chunk: its `(id, line)` pairs and the warnings raised.
_Made = tuple[list[tuple[str, bytes]], list[tuple[str, type[Warning]]]]


def _chunk(job: _Job, items: list[tuple[str, Any]]) -> _Made:
    """Make the lines of one chunk (in a worker); the warnings go back to be raised there."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lines = [
            (custom_id, job.line(custom_id, conversation)) for custom_id, conversation in items
        ]
    return lines, [(str(w.message), w.category) for w in caught]


def _weight(conversation: Any) -> int:
    """The media bytes a conversation holds already (its loaded parts), to bound the flight."""
    if isinstance(conversation, MediaPart):
        return conversation.size or 0  # None until a URL part is loaded
    if isinstance(conversation, bytes | bytearray | memoryview):
        return len(conversation)
    if isinstance(conversation, System | User | Assistant | Tool):
        return sum(_weight(part) for part in conversation.parts)
    if isinstance(conversation, list | tuple):
        return sum(_weight(item) for item in conversation if not isinstance(item, list | tuple))
    return 0


def _take(
    pairs: Iterator[tuple[str, Any]], size: int, budget: int
) -> tuple[list[tuple[str, Any]], int]:
    """The next chunk: `size` requests, or fewer whose media reach `budget` bytes."""
    chunk: list[tuple[str, Any]] = []
    weight = 0
    for pair in pairs:
        chunk.append(pair)
        weight += _weight(pair[1])
        if len(chunk) >= size or weight >= budget:
            break
    return chunk, weight


def _pairs(requests: Iterable[tuple[str, Any]]) -> Iterator[tuple[str, Any]]:
    """Yield the `(id, conversation)` pairs, each checked, lazily."""
    if isinstance(requests, str | bytes | Mapping) or not isinstance(requests, Iterable):
        raise InvalidMedia(
            f"write_batch() takes an iterable of (id, conversation) pairs, got "
            f"{type(requests).__name__}"
        )
    for index, item in enumerate(requests):
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise InvalidMedia(
                f"request {index} of write_batch() is not an (id, conversation) pair: "
                f"{type(item).__name__}"
            )
        yield check_id(item[0]), item[1]


def write_batch(
    requests: Iterable[tuple[str, Any]],
    provider: str | Provider,
    out_dir: str | os.PathLike[str],
    *,
    model: str | None = None,
    params: Mapping[str, Any] | None = None,
    prefix: str = "batch",
    max_requests: int | None = None,
    max_bytes: int | None = None,
    workers: int | None = None,
    progress: Callable[[int], object] | None = None,
    urls: UrlMode = "auto",
    transforms: TransformPolicy | None = None,
    on_loss: OnLoss = "warn",
    foreign_reasoning: ForeignReasoning = "drop",
    options: Options | None = None,
) -> list[BatchFile]:
    """Write a provider's batch input files from `(id, conversation)` pairs.

    Each conversation becomes one line (`mp.batch_line`) and the lines go, in input order,
    into a `mp.BatchWriter`, which starts a new file at the provider's per-file limits. The
    lines are made in worker processes (all cores when `workers` is None; `workers=1` works
    in this process), a few chunks at a time: the input is read as it is needed, so it may
    be a generator over millions of requests.

    Args:
        requests: `(custom_id, conversation)` pairs; a conversation is anything `mp.render`
            takes.
        provider: A provider name or `Provider` with a batch format.
        out_dir: The folder for the files (created if missing).
        model, params: As for `mp.batch_line`, the same for every request.
        prefix, max_requests, max_bytes: As for `mp.BatchWriter`.
        workers: Worker processes; None for one per core.
        progress: Called with the number of requests written so far, after each chunk.
        urls, transforms, on_loss, foreign_reasoning, options: As for `mp.render` (a
            keyword that is given wins over its field of `options`). Losses are reported as
            warnings in this process.

    Returns:
        The files written, in order. On an error, the files written until then are closed
        and left in place.

    Raises:
        InvalidConfig: A setting is wrong (checked before any work), or the provider has no
            batch format.
        InvalidMedia: An item is not an `(id, conversation)` pair.
        ProviderLimitError: An id is repeated, or one request alone is over the byte limit.
        MediaError: What `mp.batch_line` raises for a request, its message naming the id;
            or a worker process died (killed for memory, most likely), naming where.
    """
    try:
        opts = resolve(
            options,
            model=model,
            urls=urls,
            transforms=transforms,
            on_loss=on_loss,
            foreign_reasoning=foreign_reasoning,
        )
        _check_urls(opts.urls, opts.model)
        chosen = batch_provider(provider)
        if workers is not None and (
            not isinstance(workers, int) or isinstance(workers, bool) or workers < 1
        ):
            raise InvalidConfig(f"workers must be a positive whole number, got {excerpt(workers)}")
        if progress is not None and not callable(progress):
            raise InvalidConfig(
                f"progress must be a function of the count done, got {type(progress).__name__}"
            )
        # The policy in force here, fixed: a worker process does not inherit it.
        opts = dataclasses.replace(opts, transforms=_policy(opts.transforms))
        job = _Job(chosen, check_params(params), opts)
        writer = BatchWriter(
            chosen, out_dir, prefix=prefix, max_requests=max_requests, max_bytes=max_bytes
        )
        pairs = _pairs(requests)
        count = workers or os.cpu_count() or 1
        with writer:
            if count == 1:
                _in_process(job, pairs, writer, progress)
            else:
                _in_workers(job, pairs, writer, progress, count)
        return writer.close()
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _WRITING_BATCH.reraise(exc)


def _in_process(
    job: _Job,
    pairs: Iterator[tuple[str, Any]],
    writer: BatchWriter,
    progress: Callable[[int], object] | None,
) -> None:
    done = 0
    for custom_id, conversation in pairs:
        writer.add(custom_id, job.line(custom_id, conversation))
        done += 1
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress(done)
    if progress is not None and done % PROGRESS_EVERY:
        progress(done)


def _in_workers(
    job: _Job,
    pairs: Iterator[tuple[str, Any]],
    writer: BatchWriter,
    progress: Callable[[int], object] | None,
    count: int,
) -> None:
    # Each chunk in flight: its lines to come, its media bytes, its first id.
    pending: deque[tuple[Future[_Made], int, str]] = deque()
    done = written = flying = 0
    size = FIRST_CHUNK
    budget = max(1, INPUT_BYTES // (count * AHEAD))
    pool = ProcessPoolExecutor(max_workers=count)
    try:
        while True:
            while len(pending) < count * AHEAD and (not pending or flying < INPUT_BYTES):
                chunk, weight = _take(pairs, size, budget)
                if not chunk:
                    break
                pending.append((pool.submit(_chunk, job, chunk), weight, chunk[0][0]))
                flying += weight
            if not pending:
                break
            future, weight, first = pending.popleft()
            flying -= weight
            try:
                lines, caught = future.result()
            except BrokenProcessPool as exc:
                raise MediaError(
                    f"a worker process died while making batch requests from {excerpt(first)} "
                    "on (killed, most likely for memory: try fewer workers or smaller media); "
                    "the files written until then are left in place"
                ) from exc
            for message, category in caught:
                warnings.warn(message, category, stacklevel=4)
            for custom_id, line in lines:
                writer.add(custom_id, line)
                written += len(line)
            done += len(lines)
            size = max(1, min(MAX_CHUNK, CHUNK_BYTES * done // max(written, 1)))
            if progress is not None:
                progress(done)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
