"""Excel workbooks (xlsx) to Markdown, with openpyxl: each sheet a heading and a table.

Cells give their values, not formulas (the values Excel saved: `data_only`), read row by row
(`read_only`). Each sheet keeps its first `MAX_ROWS` rows, as OpenAI reads spreadsheets
("first 1,000 rows per sheet", file-inputs guide, read 2026-08); what was cut is said in the
steps. Empty rows and columns at the end of a sheet are dropped, and columns after the
`MAX_COLUMNS`th (a row may name column XFD, 16,384 cells for a few bytes of XML).
"""

from __future__ import annotations

import io
from typing import Any

from mediaparts.converting._extras import Deadline
from mediaparts.converting._markdown import table, value_text

__all__ = ["MAX_COLUMNS", "MAX_ROWS", "xlsx_markdown"]

MAX_ROWS = 1000
# The width of a legacy .xls sheet (column IV): wider tables are rare, and as Markdown no
# reader (human or model) follows a row across them.
MAX_COLUMNS = 256
_CHECK_EVERY = 256  # rows between deadline checks


def xlsx_markdown(openpyxl: Any, package: bytes, deadline: Deadline) -> tuple[str, list[str]]:
    """Return the Markdown of a checked workbook, and a step for each sheet cut short.

    Args:
        openpyxl: The openpyxl module.
        package: The package, as `verified_package` returned it.
        deadline: Checked every few hundred rows.
    """
    workbook = openpyxl.load_workbook(
        io.BytesIO(package), read_only=True, data_only=True, keep_links=False
    )
    try:
        sections: list[str] = []
        cuts: list[str] = []
        for sheet in workbook.worksheets:
            deadline.check()
            rows, total, columns = _rows(sheet, deadline)
            if total > MAX_ROWS:
                cuts.append(f"{sheet.title}: first {MAX_ROWS:,} of {total:,} rows")
            if columns > MAX_COLUMNS:
                cuts.append(f"{sheet.title}: first {MAX_COLUMNS:,} of {columns:,} columns")
            body = table(rows) or "_(empty)_"
            sections.append(f"## {sheet.title}\n\n{body}")
    finally:
        workbook.close()
    return "\n\n".join(sections) + "\n", cuts


def _rows(sheet: Any, deadline: Deadline) -> tuple[list[list[str]], int, int]:
    """Return the sheet's first rows and columns as text, how many rows it has, and how many
    columns its first rows have.

    Rows count to the last row with a value, columns to the last column with a value in the
    rows kept; the empty ones after those are dropped.
    """
    # The <dimension> element may lie (or be absent): let each row be as wide as its cells.
    sheet.reset_dimensions()
    kept: list[list[str]] = []
    last = 0  # the number of the last row with a value
    columns = 0  # the number of the last column with a value, in the rows kept
    for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
        if number % _CHECK_EVERY == 0:
            deadline.check()
        width = _width(values)
        if width:
            last = number
        if number <= MAX_ROWS:
            columns = max(columns, width)
            kept.append([value_text(value) for value in values[: min(width, MAX_COLUMNS)]])
    kept = kept[: min(last, MAX_ROWS)]
    return kept, last, columns


def _width(values: tuple[object, ...]) -> int:
    """Return the number of the last cell with a value (0 when the row is empty)."""
    for index in range(len(values), 0, -1):
        value = values[index - 1]
        if value is not None and value != "":
            return index
    return 0
