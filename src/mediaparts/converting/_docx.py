"""Word documents (docx) to Markdown, with python-docx, in document order.

Tables are read from their XML (`w:tr`, `w:tc`), not through python-docx's rows and cells:
its `_Row.cells` yields a cell per grid column a cell spans (`w:gridSpan` may say 2**31 in a
few bytes of XML) and follows a vertical merge up to the row above, again for each row below
it. Here a cell spanning columns is its text then empty cells, up to `MAX_COLUMNS` a row; a
merge's continuation is an empty cell; a table keeps its first `MAX_ROWS` rows, as a sheet of
a workbook does, and a step says what was cut.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

from mediaparts._errors import MediaTooLarge
from mediaparts.converting._extras import Deadline
from mediaparts.converting._markdown import TextBudget, emphasis, table
from mediaparts.converting._xlsx import MAX_COLUMNS, MAX_ROWS

__all__ = ["MAX_CELLS", "docx_markdown"]

_HEADING = re.compile(r"heading (\d)")  # matched on the lower-cased style name
_LIST = re.compile(r"list (bullet|number)(?: (\d))?")
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
# The most table cells one document becomes (each table counted as its rows times its
# widest row): a table is at most MAX_ROWS x MAX_COLUMNS, and a few bytes of XML make a row
# that wide.
MAX_CELLS = 1_000_000
_CHECK_EVERY = 256  # cells between deadline checks
_RUN, _LINK = f"{_W}r", f"{_W}hyperlink"
_PPR, _PSTYLE, _NUMPR = f"{_W}pPr", f"{_W}pStyle", f"{_W}numPr"
_STYLE, _STYLE_ID, _NAME, _VAL = f"{_W}style", f"{_W}styleId", f"{_W}name", f"{_W}val"
_RPR, _BOLD, _ITALIC = f"{_W}rPr", f"{_W}b", f"{_W}i"
_TCPR, _GRID_SPAN, _V_MERGE = f"{_W}tcPr", f"{_W}gridSpan", f"{_W}vMerge"
_TEXTS = tuple(f"{_W}{tag}" for tag in ("br", "cr", "noBreakHyphen", "ptab", "t", "tab"))


def docx_markdown(
    docx: Any, package: bytes, deadline: Deadline, text: TextBudget
) -> tuple[str, list[str]]:
    """Return the Markdown of a checked package (headings, lists, tables, bold and italic),
    and a step for each table cut short.

    Args:
        docx: The python-docx module.
        package: The package, as `verified_package` returned it.
        deadline: Checked between paragraphs and tables, and every few hundred cells.
        text: Counts each paragraph's and cell's text as it is read.

    Raises:
        MediaTooLarge: The tables make over `MAX_CELLS` cells, the text is over its
            budget, or the deadline passed.
    """
    document = docx.Document(io.BytesIO(package))
    # python-docx's `paragraph.style` searches the styles part on every call (the default
    # style too): look each paragraph's style id up in one table instead, read from the XML
    # (a python-docx style object of each cost 10 µs and 1 KB: 120,000 styles, 2 s).
    styles = _style_names(document.styles.element)
    # Each block's lines: an item joins its list's lines (never `+=` on a growing string,
    # which copies the whole list for each item).
    blocks: list[list[str]] = []
    listed = ""  # the previous block's list marker: items of one list join without a gap
    tables = _Tables(deadline, text)
    for block in document.iter_inner_content():
        deadline.check()
        if hasattr(block, "rows"):
            blocks.append([tables.markdown(block._tbl)])
            listed = ""
            continue
        line, marker = _paragraph(block._p, styles)
        if not line:
            continue
        text.take(line, extra=2)
        if marker and marker == listed:
            blocks[-1].append(line)
        else:
            blocks.append([line])
        listed = marker
    markdown = "\n\n".join("\n".join(lines) for lines in blocks if lines != [""])
    return markdown + "\n", tables.cuts


class _Tables:
    """Reads a document's tables from their XML, counting the cells they make."""

    def __init__(self, deadline: Deadline, text: TextBudget) -> None:
        self.deadline = deadline
        self.text = text
        self.cuts: list[str] = []  # a step for each table cut short
        self.number = 0  # of the table being read, from 1
        self.cells = 0  # made so far, in every table
        self.visited = 0  # cells made or skipped, for the deadline checks

    def markdown(self, tbl: Any) -> str:
        """Return one `w:tbl` as a Markdown table."""
        self.number += 1
        rows: list[list[str]] = []
        total = columns = 0
        for tr in tbl.iterchildren(f"{_W}tr"):
            total += 1
            if total > MAX_ROWS:
                self._visit(1)  # counted for the step, never read
                continue
            row, width = self._row(tr)
            rows.append(row)
            columns = max(columns, width)
        if total > MAX_ROWS:
            self.cuts.append(f"table {self.number}: first {MAX_ROWS:,} of {total:,} rows")
        if columns > MAX_COLUMNS:
            self.cuts.append(f"table {self.number}: first {MAX_COLUMNS:,} of {columns:,} columns")
        self.cells += len(rows) * max((len(row) for row in rows), default=0)
        if self.cells > MAX_CELLS:
            raise MediaTooLarge(
                f"this document's tables make over {MAX_CELLS:,} cells; refused",
                size=self.cells,
                limit=MAX_CELLS,
            )
        return table(rows)

    def _row(self, tr: Any) -> tuple[list[str], int]:
        """Return a `w:tr`'s cells (at most MAX_COLUMNS), and how many grid columns it spans."""
        cells: list[str] = []
        width = 0
        for tc in tr.iterchildren(f"{_W}tc"):
            span = _span(tc)
            width += span
            room = MAX_COLUMNS - len(cells)
            if room <= 0:
                self._visit(1)
                continue
            span = min(span, room)
            self._visit(span)
            cells.append("" if _continues(tc) else self.text.take(_cell_text(tc), extra=3))
            cells.extend([""] * (span - 1))
            self.text.take("", extra=3 * (span - 1))
        return cells, width

    def _visit(self, count: int) -> None:
        before = self.visited
        self.visited += count
        if self.visited // _CHECK_EVERY != before // _CHECK_EVERY:
            self.deadline.check()


def _span(tc: Any) -> int:
    """Return the grid columns a `w:tc` spans (`w:tcPr/w:gridSpan/@w:val`), at least 1."""
    properties = tc.find(_TCPR)
    element = properties.find(_GRID_SPAN) if properties is not None else None
    value = element.get(f"{_W}val") if element is not None else None
    if value is None or not value.isascii() or not value.isdigit() or len(value) > 12:
        return 1
    return max(1, int(value))


def _continues(tc: Any) -> bool:
    """Whether a `w:tc` continues a vertical merge: a `w:vMerge` whose value is not
    `restart` (left out, it means `continue`)."""
    properties = tc.find(_TCPR)
    merge = properties.find(_V_MERGE) if properties is not None else None
    return merge is not None and merge.get(f"{_W}val", "continue") != "restart"


def _cell_text(tc: Any) -> str:
    """Return a cell's text as python-docx's `_Cell.text` does: its paragraphs, a line each
    (a table nested in it is left out)."""
    return "\n".join(_text(p) for p in tc.iterchildren(f"{_W}p"))


def _style_names(element: Any) -> dict[str, str]:
    """Each `w:style`'s id and name (`w:name/@w:val`; matched lower-cased, so python-docx's
    renaming of built-in styles, `heading 1` to `Heading 1`, changes nothing)."""
    names: dict[str, str] = {}
    for style in element.iterchildren(_STYLE):
        name = style.find(_NAME)
        names[style.get(_STYLE_ID) or ""] = (name.get(_VAL) if name is not None else None) or ""
    return names


def _paragraph(p: Any, styles: dict[str, str]) -> tuple[str, str]:
    """Return a `w:p`'s Markdown, and its list marker (`-`, `1.`) when it is an item."""
    text = _inline(p).strip()
    if not text:
        return "", ""
    # One child lookup at a time: lxml compiles a path (`w:pPr/w:pStyle`) on every call.
    properties = p.find(_PPR)
    style_element = properties.find(_PSTYLE) if properties is not None else None
    style_id = style_element.get(f"{_W}val") if style_element is not None else None
    style = styles.get(style_id, style_id or "") if style_id else ""
    if style.lower() == "title":
        return f"# {_plain(p)}", ""
    heading = _HEADING.fullmatch(style.lower())
    if heading:
        return f"{'#' * min(6, int(heading.group(1)))} {_plain(p)}", ""
    listed = _LIST.fullmatch(style.lower())
    if listed:
        level = int(listed.group(2) or 1) - 1
        mark = "1." if listed.group(1).lower() == "number" else "-"
        return f"{'  ' * level}{mark} {text}", mark
    numbering = properties.find(_NUMPR) if properties is not None else None
    if numbering is not None:
        level_element = numbering.find(f"{_W}ilvl")
        level = _int(level_element.get(f"{_W}val") if level_element is not None else None)
        return f"{'  ' * min(level, 8)}- {text}", "-"
    return text, ""


# python-docx's `Paragraph` and `Run` ask lxml to compile an XPath on every call (about 50
# µs, so a document of 100,000 short paragraphs took 7 s): the runs are read here with
# `iterchildren`, as python-docx reads them (docx/oxml/text/run.py, paragraph.py, 1.2).
def _runs(p: Any) -> Iterator[Any]:
    """Yield a `w:p`'s runs, and its hyperlinks' runs, in order."""
    for child in p.iterchildren(_RUN, _LINK):
        yield from child.iterchildren(_RUN) if child.tag == _LINK else (child,)


def _run_text(r: Any) -> str:
    """A run's text as python-docx's `CT_R.text` makes it (tabs, breaks, hyphens kept)."""
    return "".join(str(e) for e in r.iterchildren(*_TEXTS))


def _flag(r: Any, name: str) -> bool:
    """Whether a run sets `w:b` or `w:i` on directly (as python-docx's `run.bold`)."""
    properties = r.find(_RPR)
    element = properties.find(name) if properties is not None else None
    if element is None:
        return False
    return str(element.get(f"{_W}val", "1")).lower() not in ("0", "false", "off")


def _inline(p: Any) -> str:
    """Return a paragraph's runs (and hyperlinks' runs) with bold and italic marked."""
    spans: list[tuple[str, bool, bool]] = []
    for run in _runs(p):
        style = (_flag(run, _BOLD), _flag(run, _ITALIC))
        text = _run_text(run)
        # Adjacent runs of one style are one span: `**ab**`, never `**a****b**`.
        if spans and spans[-1][1:] == style:
            spans[-1] = (spans[-1][0] + text, *style)
        else:
            spans.append((text, *style))
    return "".join(emphasis(text, bold=bold, italic=italic) for text, bold, italic in spans)


def _text(p: Any) -> str:
    return "".join(_run_text(run) for run in _runs(p))


def _plain(p: Any) -> str:
    return " ".join(_text(p).split())


def _int(value: str | None) -> int:
    try:
        return max(0, int(value or 0))
    except ValueError:
        return 0
