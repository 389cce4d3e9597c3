"""Excel workbooks (xlsx) to Markdown, with openpyxl: each sheet a heading and a table.

Cells give their values, not formulas (the values Excel saved: `data_only`), read row by row
(`read_only`). Each sheet keeps its first `MAX_ROWS` rows, as OpenAI reads spreadsheets
("first 1,000 rows per sheet", file-inputs guide, read 2026-08); what was cut is said in the
steps. Empty rows and columns at the end of a sheet are dropped, and columns after the
`MAX_COLUMNS`th (a row may name column XFD, 16,384 cells for a few bytes of XML). The whole
workbook reads at most `cell_budget` cells, in proportion to the file's size: where they run
out, the sheet is cut and the sheets after it are left out, each said in the steps.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any
from xml.etree.ElementTree import Element, tostring
from xml.etree.ElementTree import iterparse as _iterparse

from mediaparts._errors import InvalidMedia
from mediaparts.converting import _opc
from mediaparts.converting._extras import Deadline
from mediaparts.converting._markdown import TextBudget, table, value_text

__all__ = [
    "CELLS_PER_BYTE",
    "CELL_FLOOR",
    "MAX_COLUMNS",
    "MAX_ROWS",
    "cell_budget",
    "xlsx_markdown",
]

MAX_ROWS = 1000
# Cells read in the whole workbook: `CELLS_PER_BYTE` per byte of the file beyond `CELL_FLOOR`.
# Reading one costs 8-10 us in Python's streaming parser and openpyxl's cell reader, so an
# 822 KB workbook of 50 sheets x 500 rows x 10 numbers (250,000 cells) took 2.5 s; at 0.05 a
# byte a 1 MB file reads at most 150,000 cells, about 1.5 s. Cells of real data take 5-20 bytes
# of the file each, so a workbook is cut by this only where it also is by far over 100,000
# cells in its first 1,000 rows a sheet.
CELL_FLOOR = 100_000
CELLS_PER_BYTE = 0.05
# The width of a legacy .xls sheet (column IV): wider tables are rare, and as Markdown no
# reader (human or model) follows a row across them.
MAX_COLUMNS = 256
_CHECK_EVERY = 256  # cells between deadline checks
_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_ROW, _CELL, _DIMENSION = f"{_MAIN}row", f"{_MAIN}c", f"{_MAIN}dimension"
_VALUE = f"{_MAIN}v"
_STRING, _TEXT, _RUN = f"{_MAIN}si", f"{_MAIN}t", f"{_MAIN}r"
# What of the workbook part the reader uses (local names, whichever namespace): the 1904
# date system, and the sheets.
_WORKBOOK_KEPT = frozenset({"workbookPr", "sheets"})
_DEPTH = 256  # libxml2's limit, which openpyxl's parser keeps
_XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
_DIGITS = "0123456789"
_FLOAT = frozenset(".Ee")  # as openpyxl's _cast_number tells a float from an int


def xlsx_markdown(
    openpyxl: Any, package: bytes, deadline: Deadline, text: TextBudget
) -> tuple[str, list[str]]:
    """Return the Markdown of a checked workbook, and a step for each sheet cut short.

    Args:
        openpyxl: The openpyxl module.
        package: The package, as `verified_package` returned it.
        deadline: Checked every few hundred cells.
        text: Counts each cell's text as it is read.
    """
    reader = _workbook(openpyxl, package)
    budget = cells_left = cell_budget(text.size)
    try:
        sections: list[str] = []
        cuts: list[str] = []
        sheets = [
            (sheet, rel)
            for sheet, rel in reader.parser.find_sheets()
            # as openpyxl's own reader skips them (reader/excel.py, 3.1)
            if rel.target in reader.valid_files and "chartsheet" not in rel.Type
        ]
        for done, (sheet, rel) in enumerate(sheets):
            if cells_left <= 0:
                cuts.append(
                    f"{len(sheets) - done:,} more sheets left out: the workbook's budget of "
                    f"{budget:,} cells ran out"
                )
                break
            deadline.check()
            title = text.take(str(sheet.name))
            with reader.archive.open(rel.target) as source:
                rows, more, columns, declared, cells = _rows(
                    source, _parser(openpyxl, reader), deadline, text, cells_left
                )
            cells_left -= cells
            if more and cells_left <= 0:
                cuts.append(
                    f"{title}: first {len(rows):,} rows, where the workbook's budget of "
                    f"{budget:,} cells ran out"
                )
            elif more:
                # The <dimension> element says how many rows (it may lie, or be absent):
                # rows past the cap are never walked just to count them.
                total = f"{declared:,}" if declared > MAX_ROWS else "more"
                cuts.append(f"{title}: first {MAX_ROWS:,} of {total} rows")
            if columns > MAX_COLUMNS:
                cuts.append(f"{title}: first {MAX_COLUMNS:,} of {columns:,} columns")
            body = table(rows) or "_(empty)_"
            sections.append(f"## {title}\n\n{body}")
    finally:
        reader.archive.close()
    return "\n\n".join(sections) + "\n", cuts


def _workbook(openpyxl: Any, package: bytes) -> Any:
    """Read a workbook's parts as openpyxl's `load_workbook(read_only=True)` does, but not
    its sheets: for each one, openpyxl looks for a `<dimension>` element by parsing the
    whole sheet when there is none (`ReadOnlyWorksheet._get_size`), 200,000 rows for
    nothing. The sheets are read here instead (`_rows`).
    """
    excel = openpyxl.reader.excel
    reader = excel.ExcelReader(
        io.BytesIO(package), read_only=True, keep_vba=False, data_only=True, keep_links=False
    )
    reader.read_manifest()
    strings = reader.package.find(openpyxl.xml.constants.SHARED_STRINGS)
    if strings is not None:
        with reader.archive.open(strings.PartName[1:]) as source:
            reader.shared_strings = _shared_strings(source)
    part = excel._find_workbook_part(reader.package).PartName[1:]
    reader.archive = _Trimmed(reader.archive, part)
    reader.read_workbook()
    excel.apply_stylesheet(reader.archive, reader.wb)  # the styles that make numbers dates
    return reader


class _Trimmed:
    """The package's archive, its workbook part cut to what the reader uses (`_workbook_part`).

    openpyxl builds an object of each element of the workbook part, about 20 µs each: 170,000
    defined names (433 KB of file) cost 3.6 s and 190 MB, for nothing the Markdown shows.
    """

    def __init__(self, archive: Any, part: str) -> None:
        self._archive, self._part = archive, part

    def __getattr__(self, name: str) -> Any:
        return getattr(self._archive, name)

    def read(self, name: Any, *args: Any) -> bytes:
        data: bytes = self._archive.read(name, *args)
        if name == self._part:
            return _workbook_part(data, self._ids())
        return data

    def _ids(self) -> set[str]:
        rels = _opc.rels_name(self._part)
        if rels not in self._archive.namelist():
            return set()
        found = _opc.relationships(self._archive.read(rels), self._part, rels, "xlsx")
        return {rel.id for rel in found}


def _workbook_part(data: bytes, ids: set[str]) -> bytes:
    """The workbook part with only its date system and the sheets whose relationship is in
    the package (`ids`): each other element is dropped once read, so none is held."""
    root: Element | None = None
    path: list[Element] = []
    for event, element in _iterparse(io.BytesIO(data), events=("start", "end")):
        if event == "start":
            root = element if root is None else root
            path.append(element)
            if len(path) > _DEPTH:
                raise InvalidMedia(
                    f"the workbook part of this {_XLSX} nests elements over {_DEPTH} deep "
                    "(excessive depth, as libxml2 refuses it)",
                    media_type=_XLSX,
                )
            continue
        path.pop()
        if len(path) == 1 and _local(element.tag) not in _WORKBOOK_KEPT:
            path[0].remove(element)
        elif len(path) == 2 and (
            _local(path[1].tag) not in _WORKBOOK_KEPT
            or (_local(element.tag) == "sheet" and not ids & _rel_ids(element))
        ):
            path[1].remove(element)
    assert root is not None  # iterparse raises on a document without a root
    return tostring(root)


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _rel_ids(element: Element) -> set[str]:
    """The values of an element's namespaced `id` attributes (`r:id`, strict or not)."""
    return {value for key, value in element.attrib.items() if key.endswith("}id")}


def cell_budget(size: int) -> int:
    """The cells a workbook of `size` bytes may have read, in all its sheets."""
    return CELL_FLOOR + int(CELLS_PER_BYTE * size)


def _rows(
    source: Any, parser: Any, deadline: Deadline, text: TextBudget, cells_left: int
) -> tuple[list[list[str]], bool, int, int, int]:
    """Return the sheet's first rows and columns as text, whether rows follow them, how
    many columns its first rows have, the last row its `<dimension>` names (0 if none),
    and how many cells were read (it stops, rows following, when `cells_left` are).

    The cells are read one by one from the sheet's XML, with openpyxl's own cell parser,
    but no row is padded to its last column (a cell in column XFD made openpyxl fill
    16,384 values) and no missing row is filled in; each element is dropped once read, so
    a row of a million cells holds one at a time.
    """
    rows: dict[int, dict[int, str]] = {}
    row: dict[int, str] = {}
    columns = declared = 0  # the last column with a value in the rows kept; the dimension's
    seen = visited = cells = 0  # rows, elements and cells read
    open_elements: list[Any] = []
    in_cell = 0  # how many cells the element read sits in
    for event, element in _iterparse(source, events=("start", "end")):
        if event == "start":
            if element.tag == _CELL and cells >= cells_left:
                # The workbook's budget ran out inside this row: cut here.
                return _kept(rows), True, columns, declared, cells
            open_elements.append(element)
            in_cell += element.tag == _CELL
            if element.tag == _ROW:
                seen += 1
                parser.row_counter = _row_number(element.get("r"), parser.row_counter)
                parser.col_counter = 0
                if seen > MAX_ROWS or parser.row_counter > MAX_ROWS:
                    return _kept(rows), True, columns, declared, cells
                row = rows.setdefault(parser.row_counter, {})
            elif element.tag == _DIMENSION:
                declared = _last_row(element.get("ref"))
            continue
        open_elements.pop()
        visited += 1
        if visited % _CHECK_EVERY == 0:
            deadline.check()
        if element.tag == _CELL:
            in_cell -= 1
            cells += 1
            value, column = _cell(parser, element)
            if value is not None and value != "":
                columns = max(columns, column)
                if column <= MAX_COLUMNS:
                    row[column] = text.take(value_text(value), extra=3)
        if not in_cell and open_elements:
            # Read: the tree keeps none of it (a cell keeps its children until it ends).
            open_elements[-1].remove(element)
    return _kept(rows), False, columns, declared, cells


def _shared_strings(source: Any) -> list[str]:
    """Read the shared-string table as openpyxl's `read_string_table` does (each `si`'s `t`,
    then its runs' `t`, phonetic runs left out; `x005F_` escapes dropped), at a third of its
    cost per string, each string's elements cleared once read."""
    strings: list[str] = []
    for _, element in _iterparse(source):
        if element.tag != _STRING:
            continue
        pieces = [
            (child.text or "") if child.tag == _TEXT else (child.findtext(_TEXT) or "")
            for child in element
            if child.tag in (_TEXT, _RUN)
        ]
        strings.append("".join(pieces).replace("x005F_", ""))
        element.clear()
    return strings


def _parser(openpyxl: Any, reader: Any) -> Any:
    """Return openpyxl's worksheet parser as its read-only worksheet builds it (shared
    strings, the 1900 or 1904 epoch, the styles that make numbers dates)."""
    workbook = reader.wb
    return openpyxl.worksheet._reader.WorkSheetParser(
        None,
        reader.shared_strings,
        data_only=True,
        epoch=workbook.epoch,
        date_formats=workbook._date_formats,
        timedelta_formats=workbook._timedelta_formats,
    )


def _last_row(ref: str | None) -> int:
    """Return the last row a `<dimension ref="A1:D5000">` names, or 0."""
    digits = (ref or "").rpartition(":")[2].lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ$")
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) < 12 else 0


def _cell(parser: Any, element: Any) -> tuple[object, int]:
    """Return a `c` element's value and column: numbers and shared strings here (most cells,
    at half the cost), the rest by openpyxl's `parse_cell` (dates, booleans, inline strings,
    errors, and anything odd, which it reads or refuses)."""
    ref, kind, style = element.get("r"), element.get("t", "n"), element.get("s")
    letters = (ref or "").rstrip(_DIGITS)
    plain = kind == "s" or not style or (style.isdigit() and int(style) not in parser.date_formats)
    if kind in ("n", "s") and plain and 0 < len(letters) <= 3 and letters.isupper():
        column = 0
        for letter in letters:
            column = column * 26 + ord(letter) - 64
        parser.col_counter = column
        value = element.findtext(_VALUE) or None
        if value is None:
            return None, column
        with contextlib.suppress(ValueError, IndexError):
            if kind == "s":
                return parser.shared_strings[int(value)], column
            return (float(value) if _FLOAT.intersection(value) else int(value)), column
    cell = parser.parse_cell(element)
    return cell["value"], cell["column"]


def _row_number(value: str | None, previous: int) -> int:
    """Return a row's number: its `r`, else the row after the previous one."""
    if value is not None and value.isascii() and value.isdigit() and len(value) < 12:
        return int(value)
    return previous + 1


def _kept(rows: dict[int, dict[int, str]]) -> list[list[str]]:
    """Return the rows as lists, up to the last row and column with a value."""
    last = max((number for number, row in rows.items() if row), default=0)
    width = max((max(row) for row in rows.values() if row), default=0)
    return [
        [rows.get(number, {}).get(column, "") for column in range(1, width + 1)]
        for number in range(1, min(last, MAX_ROWS) + 1)
    ]
