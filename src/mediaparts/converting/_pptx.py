"""PowerPoint decks (pptx) to Markdown, with python-pptx: a section per slide.

Each slide is `## Slide N: title`, then its shapes in their order on the slide (groups
opened): text as paragraphs or bullets, tables as Markdown tables, then the speaker notes.
A paragraph is a bullet when it says so (`a:buChar`, `a:buAutoNum`) or when it sits in a
body or content placeholder, whose bullets come from the slide master, and not when it says
`a:buNone`.
"""

from __future__ import annotations

import io
import itertools
from typing import Any

from mediaparts.converting._extras import Deadline
from mediaparts.converting._markdown import TextBudget, emphasis, table
from mediaparts.converting._xlsx import MAX_COLUMNS, MAX_ROWS

__all__ = ["pptx_markdown"]

_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_TITLES = frozenset({"TITLE", "CENTER_TITLE", "VERTICAL_TITLE"})
_BULLETED = frozenset({"BODY", "OBJECT", "VERTICAL_BODY", "VERTICAL_OBJECT"})
_MAX_GROUP_DEPTH = 32  # groups in groups: PowerPoint itself stops far sooner


def pptx_markdown(pptx: Any, package: bytes, deadline: Deadline, text: TextBudget) -> str:
    """Return the Markdown of a checked deck.

    Args:
        pptx: The python-pptx module.
        package: The package, as `verified_package` returned it.
        deadline: Checked between slides and shapes.
        text: Counts each block's and cell's text as it is read.

    Raises:
        MediaTooLarge: The text is over its budget, or the deadline passed.
    """
    presentation = pptx.Presentation(io.BytesIO(package))
    slides: list[str] = []
    for number, slide in enumerate(presentation.slides, start=1):
        deadline.check()
        title_shape = slide.shapes.title
        title = " ".join(str(title_shape.text).split()) if title_shape is not None else ""
        heading = f"## Slide {number}: {title}" if title else f"## Slide {number}"
        blocks = [text.take(heading, extra=2)]
        for shape in slide.shapes:
            if title_shape is not None and shape.shape_id == title_shape.shape_id:
                continue
            blocks.extend(_shape(shape, deadline, 0, text))
        if slide.has_notes_slide:
            frame = slide.notes_slide.notes_text_frame
            notes = str(frame.text).strip() if frame is not None else ""
            if notes:
                blocks.append(text.take(f"### Notes\n\n{notes}", extra=2))
        slides.append("\n\n".join(block for block in blocks if block))
    return "\n\n".join(slides) + "\n"


def _shape(shape: Any, deadline: Deadline, depth: int, text: TextBudget) -> list[str]:
    """Return the Markdown blocks of one shape (a group's shapes, in order)."""
    deadline.check()
    if hasattr(shape, "shapes"):  # a group
        if depth >= _MAX_GROUP_DEPTH:
            return []
        return [
            block for inner in shape.shapes for block in _shape(inner, deadline, depth + 1, text)
        ]
    if getattr(shape, "has_table", False):
        return _table(shape.table, deadline, text)
    if not getattr(shape, "has_text_frame", False):
        return []
    kind = shape.placeholder_format.type.name if shape.is_placeholder else ""
    if kind in _TITLES:
        title = " ".join(str(shape.text).split())
        return [text.take(f"### {title}", extra=2)] if title else []
    lines: list[str] = []
    paragraphs: list[str] = []
    for paragraph in shape.text_frame.paragraphs:
        line = _inline(paragraph)
        if not line:
            continue
        if _bullet(paragraph, kind in _BULLETED):
            indent = "  " * _level(paragraph._p)
            lines.append(text.take(f"{indent}- " + line.replace("\n", f"\n{indent}  "), 1))
        else:
            if lines:
                paragraphs.append("\n".join(lines))
                lines = []
            paragraphs.append(text.take(line, extra=2))
    if lines:
        paragraphs.append("\n".join(lines))
    return paragraphs


def _inline(paragraph: Any) -> str:
    """Return a paragraph's runs and fields with bold and italic marked, line breaks kept."""
    pieces: list[str] = []
    for child in paragraph._p.content_children:  # a:r, a:br and a:fld, in order
        if child.tag == f"{_A}br":
            pieces.append("\n")
            continue
        properties = child.find(f"{_A}rPr")
        flags = properties.attrib if properties is not None else {}
        bold, italic = (flags.get(flag) in ("1", "true") for flag in ("b", "i"))
        pieces.append(emphasis(str(child.text), bold=bold, italic=italic))
    return "\n".join(line.strip() for line in "".join(pieces).split("\n")).strip()


def _level(p: Any) -> int:
    """A paragraph's outline level (`a:pPr/@lvl`, 0 to 8), read without python-pptx's
    `paragraph.level`, which adds an `a:pPr` to every paragraph it reads (a new element
    each, a third of a deck's reading time)."""
    properties = p.find(f"{_A}pPr")
    value = properties.get("lvl", "0") if properties is not None else "0"
    return min(int(value), 8) if value.isascii() and value.isdigit() and len(value) < 3 else 0


def _bullet(paragraph: Any, default: bool) -> bool:
    properties = paragraph._p.pPr
    if properties is None:
        return default
    if properties.find(f"{_A}buNone") is not None:
        return False
    if properties.find(f"{_A}buChar") is not None or properties.find(f"{_A}buAutoNum") is not None:
        return True
    return default


def _table(shape_table: Any, deadline: Deadline, text: TextBudget) -> list[str]:
    """A slide's table as Markdown, at most `MAX_ROWS` rows of `MAX_COLUMNS` cells (as a
    workbook's sheets): a 30 KB deck of 3,000 x 3,000 cells made 27 MB of text uncut."""
    rows: list[list[str]] = []
    cut = False
    for index, row in enumerate(shape_table.rows):
        if index == MAX_ROWS:
            cut = True
            break
        deadline.check()
        cells = list(itertools.islice(row.cells, MAX_COLUMNS + 1))
        cut = cut or len(cells) > MAX_COLUMNS
        rows.append([text.take(str(cell.text), extra=3) for cell in cells[:MAX_COLUMNS]])
    blocks = [table(rows)]
    if cut:
        blocks.append(
            f"(the table is cut to its first {MAX_ROWS:,} rows and {MAX_COLUMNS} columns)"
        )
    return blocks
