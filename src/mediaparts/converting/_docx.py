"""Word documents (docx) to Markdown, with python-docx, in document order."""

from __future__ import annotations

import io
import re
from typing import Any

from mediaparts.converting._extras import Deadline
from mediaparts.converting._markdown import emphasis, table

__all__ = ["docx_markdown"]

_HEADING = re.compile(r"heading (\d)")  # matched on the lower-cased style name
_LIST = re.compile(r"list (bullet|number)(?: (\d))?")
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def docx_markdown(docx: Any, package: bytes, deadline: Deadline) -> str:
    """Return the Markdown of a checked package: headings, lists, tables, bold and italic.

    Args:
        docx: The python-docx module.
        package: The package, as `verified_package` returned it.
        deadline: Checked between paragraphs and tables.
    """
    document = docx.Document(io.BytesIO(package))
    # python-docx's `paragraph.style` searches the styles part on every call (the default
    # style too): look each paragraph's style id up in one table instead.
    styles = {style.style_id: str(style.name or "") for style in document.styles}
    blocks: list[str] = []
    listed = ""  # the previous block's list marker: items of one list join without a gap
    for block in document.iter_inner_content():
        deadline.check()
        if hasattr(block, "rows"):
            rows = [[cell.text for cell in row.cells] for row in block.rows]
            blocks.append(table(rows))
            listed = ""
            continue
        text, marker = _paragraph(block, styles)
        if not text:
            continue
        if marker and marker == listed:
            blocks[-1] += "\n" + text
        else:
            blocks.append(text)
        listed = marker
    return "\n\n".join(block for block in blocks if block) + "\n"


def _paragraph(paragraph: Any, styles: dict[str, str]) -> tuple[str, str]:
    """Return a paragraph's Markdown, and its list marker (`-`, `1.`) when it is an item."""
    text = _inline(paragraph).strip()
    if not text:
        return "", ""
    style_id = paragraph._p.style  # w:pPr/w:pStyle/@w:val, or None for the default style
    style = styles.get(style_id, style_id or "") if style_id else ""
    if style.lower() == "title":
        return f"# {_plain(paragraph)}", ""
    heading = _HEADING.fullmatch(style.lower())
    if heading:
        return f"{'#' * min(6, int(heading.group(1)))} {_plain(paragraph)}", ""
    listed = _LIST.fullmatch(style.lower())
    if listed:
        level = int(listed.group(2) or 1) - 1
        mark = "1." if listed.group(1).lower() == "number" else "-"
        return f"{'  ' * level}{mark} {text}", mark
    numbering = paragraph._p.find(f"{_W}pPr/{_W}numPr")  # a list by direct numbering
    if numbering is not None:
        level_element = numbering.find(f"{_W}ilvl")
        level = _int(level_element.get(f"{_W}val") if level_element is not None else None)
        return f"{'  ' * min(level, 8)}- {text}", "-"
    return text, ""


def _inline(paragraph: Any) -> str:
    """Return a paragraph's runs (and hyperlinks' runs) with bold and italic marked."""
    spans: list[tuple[str, bool, bool]] = []
    for item in paragraph.iter_inner_content():
        # A hyperlink has runs (its `url` is not read: a missing relationship raises).
        inner = getattr(item, "runs", None)
        for run in inner if inner is not None else [item]:
            style = (bool(run.bold), bool(run.italic))
            # Adjacent runs of one style are one span: `**ab**`, never `**a****b**`.
            if spans and spans[-1][1:] == style:
                spans[-1] = (spans[-1][0] + run.text, *style)
            else:
                spans.append((run.text, *style))
    return "".join(emphasis(text, bold=bold, italic=italic) for text, bold, italic in spans)


def _plain(paragraph: Any) -> str:
    return " ".join(str(paragraph.text).split())


def _int(value: str | None) -> int:
    try:
        return max(0, int(value or 0))
    except ValueError:
        return 0
