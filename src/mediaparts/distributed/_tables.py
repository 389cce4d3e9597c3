"""Arrow batches in and out: the row functions of `_rows` applied to one block of a Dataset.

Each function takes a `pyarrow.Table` (one batch of `map_batches`) and returns one, with a
fixed schema, so that every block of the output has the same columns and types whether its
rows worked or failed. pyarrow comes with `ray[data]`; it is imported when a batch is built.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from mediaparts._errors import InvalidConfig, MediaError, excerpt
from mediaparts.distributed._rows import (
    ERROR_COLUMNS,
    NORMALIZED_COLUMNS,
    RowJob,
    batch_row,
    conversation_of,
    guarded,
    normalized_row,
    prompt_conversation,
    rendered_row,
)

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "LINE_COLUMNS",
    "Columns",
    "line_table",
    "normalized_table",
    "rendered_table",
]

RENDERED_COLUMNS = ("payload", "warnings")
# The columns of the lines `write_batch_dataset` makes; `error_pickle` carries the exception
# itself (made by our own task, read by our own driver) so the driver raises what
# `mp.write_batch` would have raised, class and attributes kept.
LINE_COLUMNS = ("custom_id", "line", "error_type", "error", "error_pickle")


def _schema(columns: tuple[str, ...]) -> pa.Schema:
    import pyarrow as pa

    types: dict[str, pa.DataType] = {
        "media_type": pa.string(),
        "data": pa.binary(),
        "url": pa.string(),
        "text": pa.string(),
        "filename": pa.string(),
        "width": pa.int64(),
        "height": pa.int64(),
        "detail": pa.string(),
        "tokens": pa.int64(),
        "steps": pa.list_(pa.string()),
        "payload": pa.string(),
        "warnings": pa.list_(pa.string()),
        "custom_id": pa.string(),
        "line": pa.binary(),
        "error_type": pa.string(),
        "error": pa.string(),
        "error_pickle": pa.binary(),
    }
    return pa.schema([(name, types[name]) for name in columns])


class Columns:
    """Which input columns a job reads: one value column, or a prompt and a media column."""

    __slots__ = ("custom_id", "media", "prompt", "value")

    def __init__(
        self,
        value: str | None,
        *,
        prompt: str | None = None,
        media: str | None = None,
        custom_id: str | None = None,
    ) -> None:
        for name in (value, prompt, media, custom_id):
            if name is not None and not isinstance(name, str):
                raise InvalidConfig(f"a column name must be a string, got {excerpt(name)}")
        self.value = None if prompt is not None or media is not None else value
        self.prompt, self.media, self.custom_id = prompt, media, custom_id

    def read(self) -> tuple[str, ...]:
        """The columns read, in order."""
        named = (self.custom_id, self.value, self.prompt, self.media)
        return tuple(name for name in named if name is not None)


def _values(table: pa.Table, name: str | None) -> list[Any]:
    if name is None:
        return [None] * table.num_rows
    if name not in table.column_names:
        raise InvalidConfig(
            f"the dataset has no column {excerpt(name)}; its columns are "
            f"{excerpt(', '.join(table.column_names))}"
        )
    values: list[Any] = table.column(name).to_pylist()
    return values


def _join(table: pa.Table, rows: list[dict[str, Any]], columns: tuple[str, ...]) -> pa.Table:
    """Append the new columns to the batch; an input column of the same name is refused."""
    import pyarrow as pa

    clash = [name for name in columns if name in table.column_names]
    if clash:
        raise InvalidConfig(
            f"the dataset already has the column(s) {', '.join(clash)} that this job writes; "
            "rename or drop them first (Dataset.rename_columns, drop_columns)"
        )
    new = pa.Table.from_pylist(
        [{name: row.get(name) for name in columns} for row in rows], schema=_schema(columns)
    )
    for name in columns:
        table = table.append_column(new.schema.field(name), new.column(name))
    return table


def normalized_table(table: pa.Table, opts: RowJob, columns: Columns) -> pa.Table:
    """Normalize the value column of one batch: the columns of `NORMALIZED_COLUMNS` added."""
    values = _values(table, columns.value)
    rows = [guarded(opts, partial(normalized_row, v, opts)) for v in values]
    return _join(table, rows, NORMALIZED_COLUMNS + ERROR_COLUMNS)


def rendered_table(table: pa.Table, opts: RowJob, columns: Columns) -> pa.Table:
    """Render each row's conversation: `payload` (JSON text) and `warnings` added."""
    rows = [
        guarded(opts, partial(rendered_row, messages, opts))
        for messages in _conversations(table, opts, columns)
    ]
    return _join(table, rows, RENDERED_COLUMNS + ERROR_COLUMNS)


def _conversations(
    table: pa.Table, opts: RowJob, columns: Columns
) -> list[Callable[[], list[Any]]]:
    """Each row's conversation, read when its own work runs (so its errors are its own)."""
    if columns.value is not None:
        return [partial(conversation_of, v, opts) for v in _values(table, columns.value)]
    prompts, medias = _values(table, columns.prompt), _values(table, columns.media)
    return [partial(prompt_conversation, p, m) for p, m in zip(prompts, medias, strict=True)]


def line_table(table: pa.Table, opts: RowJob, columns: Columns) -> pa.Table:
    """Make each row's batch line (`mp.batch_line`); errors always as data."""
    import pyarrow as pa

    ids = _values(table, columns.custom_id)
    rows = []
    for custom_id, messages in zip(ids, _conversations(table, opts, columns), strict=True):
        try:
            made = guarded(opts, partial(_line, custom_id, messages, opts))
        except MediaError as exc:  # opts.errors == "raise": the driver raises it, in order
            made = {"error_type": type(exc).__name__, "error": str(exc)}
            made["error_pickle"] = pickle.dumps(exc)
        rows.append({"custom_id": custom_id if isinstance(custom_id, str) else None, **made})
    return pa.Table.from_pylist(rows, schema=_schema(LINE_COLUMNS))


def _line(custom_id: Any, messages: Callable[[], list[Any]], opts: RowJob) -> dict[str, Any]:
    return {"line": batch_row(custom_id, messages, opts)}
