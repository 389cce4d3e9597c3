"""The Ray side: the three dataset functions, each a `map_batches` of a `_tables` function.

Ray is imported when one of them is called, never when `mediaparts.distributed` is imported;
without it the call raises `CodecUnavailable` naming the `[ray]` extra.
"""

from __future__ import annotations

import importlib
import json
import os
import pickle
import warnings
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TextIO

from mediaparts._errors import CodecUnavailable, InvalidConfig, excerpt
from mediaparts.converting import TransformPolicy
from mediaparts.distributed._rows import Errors, Urls
from mediaparts.distributed._rows import options as row_job
from mediaparts.distributed._tables import (
    Columns,
    line_table,
    normalized_table,
    rendered_table,
)
from mediaparts.fetching import FetchPolicy
from mediaparts.providers import (
    BatchFile,
    BatchWriter,
    ForeignReasoning,
    OnLoss,
    Options,
    Provider,
)

if TYPE_CHECKING:
    import pyarrow as pa
    from ray.data import Dataset

__all__ = ["normalize_dataset", "render_dataset", "write_batch_dataset"]

# Rows per task batch: images take tens of milliseconds each to fit, so 8 of them keep Ray's
# per-task cost (about a millisecond) small without leaving a core idle at the end of a job.
BATCH_SIZE = 8


def ray_module() -> ModuleType:
    """Import Ray Data, or raise `CodecUnavailable` naming the extra that installs it."""
    try:
        data = importlib.import_module("ray.data")
        ray = importlib.import_module("ray")
    except ImportError as exc:
        raise CodecUnavailable(
            "mediaparts.distributed runs on Ray Data, which is not installed: "
            "pip install 'ray[data]' (mediaparts' [ray] extra)",
            package="ray[data]",
            extra="ray",
        ) from exc
    # Ray Data's default context sets its own deprecated fields when it is first made, with a
    # DeprecationWarning for each (`use_push_based_shuffle`, `use_polars`, Ray 2.60): Ray's
    # business, not the caller's, so it is made here with those warnings silenced.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=DeprecationWarning, module="ray.data.context")
        data.DataContext.get_current()
    return ray


def _dataset(ds: Any, columns: Columns) -> None:
    """Check `ds` is a Ray Dataset holding the columns read, where Ray already knows them."""
    ray = ray_module()
    if not isinstance(ds, ray.data.Dataset):
        raise InvalidConfig(f"takes a ray.data.Dataset, got {type(ds).__name__}")
    known = ds.columns(fetch_if_missing=False)  # no work is started to learn them
    for name in columns.read():
        if known is not None and name not in known:
            raise InvalidConfig(
                f"the dataset has no column {excerpt(name)}; its columns are "
                f"{excerpt(', '.join(known))}"
            )


def _batch_size(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidConfig(f"batch_size must be a positive whole number, got {excerpt(value)}")
    return value


def _mapped(ds: Dataset, work: Callable[[pa.Table], pa.Table], batch_size: int) -> Dataset:
    """`map_batches` on Arrow batches, in a copy of `ds`'s context that keeps row order.

    The copy leaves the caller's dataset as it was: a Ray Dataset shares its context with
    those made from it.
    """
    ray = ray_module()
    # Blocks of `batch_size` rows, streamed (no shuffle): one task works on one block, and a
    # table of 100,000 paths is one block as read, which would be one task on one CPU.
    blocks = ds.repartition(target_num_rows_per_block=batch_size)
    out: Dataset = blocks.map_batches(work, batch_format="pyarrow", batch_size=batch_size)
    out = ray.data.Dataset.copy(out, _deep_copy=True)
    out.context.execution_options.preserve_order = True
    # A row's error of ours reaches the caller as our class (Ray's task error subclasses
    # it), not as Ray's `UserCodeException` around its text.
    out.context.raise_original_map_exception = True
    # Ray Data reserves each operator a share of the CPUs; the repartition above is an operator
    # of its own, so the map got half of them (on 2 CPUs, one task at a time: no speed-up over
    # 1 CPU, measured). Without the reservation the map's tasks take every free CPU.
    out.context.op_resource_reservation_enabled = False
    return out


def normalize_dataset(
    ds: Dataset,
    provider: str | Provider,
    *,
    column: str = "source",
    model: str | None = None,
    detail: str | None = None,
    urls: Urls = "auto",
    transforms: TransformPolicy | None = None,
    fetch: FetchPolicy | None = None,
    base_dir: str | os.PathLike[str] | None = None,
    errors: Errors = "raise",
    batch_size: int = BATCH_SIZE,
    options: Options | None = None,
) -> Dataset:
    """Normalize the media in one column of a Ray Dataset, as `mp.normalize` does each.

    Each row's `column` holds a path, a URL, a data URI or bytes. The output keeps every
    input column and adds `media_type`, `data` (the bytes to send), `url` (a URL passed
    through), `text` (a text file read as text), `filename`, `width`, `height`, `detail`,
    `tokens`, `steps`, `error_type` and `error`, in the input's order. The work runs when the
    dataset is consumed (`write_parquet`, `iter_rows`, ...), in Ray tasks.

    Rows are untrusted: a path is read only inside `base_dir` (none without it), a URL is
    fetched under `fetch`. A part that becomes several pieces for the provider (video
    frames, a split PDF) cannot be one row: it is an error; `render_dataset` sends it.

    Args:
        ds: The dataset.
        provider: A provider name (or a built-in `Provider`).
        column: The column holding each row's media.
        model: The model, for model-dependent rules.
        detail: The image detail level (see `mp.normalize`).
        urls: `"auto"`, `"inline"` or `"pass"` (see `mp.normalize`).
        transforms: A `TransformPolicy`; None for the one in force here (`mp.configure`).
        fetch: A `FetchPolicy`; None for the one in force here.
        base_dir: The one directory whose files rows may name.
        errors: `"raise"` stops the job at the first row that fails, with our error (Ray's
            task error, which is also an instance of our class); `"keep"` writes the error's
            class name and message into the row's `error_type` and `error` and goes on.
        batch_size: Rows per Ray task batch.
        options: `model`, `detail`, `urls` and `transforms` as one `mp.Options` value; a
            keyword above that is given wins over its field.

    Raises:
        CodecUnavailable: Ray Data is not installed (the `[ray]` extra).
        InvalidConfig: An option is wrong, or `ds` is no Dataset or lacks `column`.
        UnknownProvider: No provider has that name.
    """
    opts = row_job(
        "mediaparts.distributed.normalize_dataset()",
        provider,
        model=model,
        detail=detail,
        urls=urls,
        transforms=transforms,
        fetch=fetch,
        base_dir=base_dir,
        errors=errors,
        settings=options,
    )
    columns = Columns(column)
    _dataset(ds, columns)
    work = partial(normalized_table, opts=opts, columns=columns)
    return _mapped(ds, work, _batch_size(batch_size))


def render_dataset(
    ds: Dataset,
    provider: str | Provider,
    *,
    column: str = "conversation",
    prompt: str | None = None,
    media: str | None = None,
    model: str | None = None,
    urls: Urls = "auto",
    on_loss: OnLoss = "warn",
    foreign_reasoning: ForeignReasoning = "drop",
    transforms: TransformPolicy | None = None,
    fetch: FetchPolicy | None = None,
    base_dir: str | os.PathLike[str] | None = None,
    errors: Errors = "raise",
    batch_size: int = BATCH_SIZE,
    options: Options | None = None,
) -> Dataset:
    """Render each row's conversation into the provider's SDK call, as `mp.render` does.

    A row's conversation is `column`: a list of message dicts (`to_dict()` output or
    `{"role", "content"}` dicts), or their JSON text. Or name `prompt` and/or `media`
    columns: each row is then one user message, its prompt text followed by its media (a
    path, URL, data URI or bytes). The output keeps every input column and adds `payload`
    (the keyword arguments as compact JSON text, bytes as base64), `warnings` (what
    `on_loss="warn"` reported: parts the provider cannot carry), `error_type` and `error`.

    Args:
        ds: The dataset.
        provider: A provider name (or a built-in `Provider`).
        column: The conversation column (unused when `prompt` or `media` is given).
        prompt: A column of prompt text.
        media: A column of media.
        model: The model, for model-dependent rules.
        urls: `"auto"`, `"inline"` or `"pass"` (see `mp.render`).
        on_loss: `"warn"`, `"drop"` or `"error"` (see `mp.render`).
        foreign_reasoning: `"drop"` or `"text"` (see `mp.render`).
        transforms: A `TransformPolicy`; None for the one in force here.
        fetch: A `FetchPolicy`; None for the one in force here.
        base_dir: The one directory whose files rows may name.
        errors: `"raise"` or `"keep"` (see `normalize_dataset`).
        batch_size: Rows per Ray task batch.
        options: The settings as one `mp.Options` value, as for `mp.render`; a keyword
            above that is given wins over its field.

    Raises:
        CodecUnavailable: Ray Data is not installed (the `[ray]` extra).
        InvalidConfig: An option is wrong, or `ds` is no Dataset or lacks a column.
        UnknownProvider: No provider has that name.
    """
    opts = row_job(
        "mediaparts.distributed.render_dataset()",
        provider,
        model=model,
        urls=urls,
        on_loss=on_loss,
        foreign_reasoning=foreign_reasoning,
        transforms=transforms,
        fetch=fetch,
        base_dir=base_dir,
        errors=errors,
        settings=options,
    )
    columns = Columns(column, prompt=prompt, media=media)
    _dataset(ds, columns)
    work = partial(rendered_table, opts=opts, columns=columns)
    return _mapped(ds, work, _batch_size(batch_size))


def write_batch_dataset(
    ds: Dataset,
    provider: str | Provider,
    out_dir: str | os.PathLike[str],
    *,
    id_column: str = "custom_id",
    column: str = "conversation",
    prompt: str | None = None,
    media: str | None = None,
    model: str | None = None,
    params: Mapping[str, Any] | None = None,
    urls: Urls = "auto",
    on_loss: OnLoss = "warn",
    foreign_reasoning: ForeignReasoning = "drop",
    transforms: TransformPolicy | None = None,
    fetch: FetchPolicy | None = None,
    base_dir: str | os.PathLike[str] | None = None,
    prefix: str = "batch",
    max_requests: int | None = None,
    max_bytes: int | None = None,
    errors: Errors = "raise",
    batch_size: int = BATCH_SIZE,
    options: Options | None = None,
) -> list[BatchFile]:
    """Write a dataset's requests as the provider's batch files, as `mp.write_batch` does.

    Each line is made by `mp.batch_line` in a Ray task; the driver reads the lines back in
    the dataset's order and writes them with one `mp.BatchWriter`, so the files are the
    bytes `mp.write_batch` writes for the same requests, split at the same limits.

    Args:
        ds: The dataset: one request per row.
        provider: A provider name (or a built-in `Provider`).
        out_dir: The folder the files are written to.
        id_column: The column of each request's custom id (unique, non-empty text).
        column: The conversation column (unused when `prompt` or `media` is given).
        prompt: A column of prompt text (see `render_dataset`).
        media: A column of media (see `render_dataset`).
        model: The model every request names.
        params: Further request fields every request carries (`max_tokens`, ...).
        urls: `"auto"`, `"inline"` or `"pass"` (see `mp.render`).
        on_loss: `"warn"`, `"drop"` or `"error"` (see `mp.render`); a warning is said in
            the Ray worker that made the line.
        foreign_reasoning: `"drop"` or `"text"` (see `mp.render`).
        transforms: A `TransformPolicy`; None for the one in force here.
        fetch: A `FetchPolicy`; None for the one in force here.
        base_dir: The one directory whose files rows may name.
        prefix: The files' name prefix (`mp.BatchWriter`).
        max_requests: Fewer requests per file than the provider's documented limit.
        max_bytes: Fewer bytes per file than the provider's documented limit.
        errors: `"raise"` stops at the first row (in order) that fails, raising the error
            `mp.write_batch` would raise; `"keep"` leaves the row out and writes its custom
            id, `error_type` and `error` as one JSON line of `<prefix>-errors.jsonl`.
        batch_size: Rows per Ray task batch.
        options: The settings as one `mp.Options` value, as for `mp.render`; a keyword
            above that is given wins over its field.

    Returns:
        The files written (`mp.BatchFile`), in order.

    Raises:
        CodecUnavailable: Ray Data is not installed (the `[ray]` extra).
        InvalidConfig: An option is wrong, or `ds` is no Dataset or lacks a column.
        MediaError: With `errors="raise"`, what the first failing row raised.
    """
    opts = row_job(
        "mediaparts.distributed.write_batch_dataset()",
        provider,
        model=model,
        urls=urls,
        on_loss=on_loss,
        foreign_reasoning=foreign_reasoning,
        transforms=transforms,
        fetch=fetch,
        base_dir=base_dir,
        errors=errors,
        params=params,
        settings=options,
    )
    columns = Columns(column, prompt=prompt, media=media, custom_id=id_column)
    _dataset(ds, columns)
    writer = BatchWriter(
        opts.provider, out_dir, prefix=prefix, max_requests=max_requests, max_bytes=max_bytes
    )  # its settings are checked here, before any task starts
    errors_file = Path(out_dir) / f"{prefix}-errors.jsonl"
    if opts.errors == "keep" and errors_file.exists():
        raise InvalidConfig(
            f"{errors_file.name} already exists in {excerpt(os.fspath(out_dir))}; choose an "
            "empty folder or another prefix"
        )
    work = partial(line_table, opts=opts, columns=columns)
    lines = _mapped(ds.select_columns(list(columns.read())), work, _batch_size(batch_size))
    with writer, _Failures(errors_file) as failures:
        for batch in lines.iter_batches(batch_format="pyarrow", batch_size=256):
            table: pa.Table = batch  # batch_format="pyarrow"
            for row in table.to_pylist():
                if row["error_type"] is None:
                    writer.add(row["custom_id"], row["line"])
                elif row["error_pickle"] is not None:
                    raise pickle.loads(row["error_pickle"])  # our own task's, never a row's
                else:
                    failures.add({k: row[k] for k in ("custom_id", "error_type", "error")})
        files = writer.close()
    return files


class _Failures:
    """The `<prefix>-errors.jsonl` of `errors="keep"`: made at the first failure, written as
    the rows come (never held), closed at the end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: TextIO | None = None

    def __enter__(self) -> _Failures:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            self._file.close()

    def add(self, failure: dict[str, Any]) -> None:
        if self._file is None:
            try:
                self._file = self.path.open("x", encoding="utf-8")
            except OSError as exc:
                raise InvalidConfig(
                    f"cannot create {self.path.name} for the failed rows: {exc.strerror}"
                ) from exc
        self._file.write(json.dumps(failure, ensure_ascii=False) + "\n")
