"""The bits of Markdown that documents become: tables, emphasis, cell values."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from mediaparts._errors import MediaTooLarge

__all__ = ["TEXT_FLOOR", "TextBudget", "cell_text", "emphasis", "table", "value_text"]

# Beyond `TransformPolicy.text_ratio` characters per byte of the file: a short document's
# text never needs a budget of its own (see docs/security.md).
TEXT_FLOOR = 1 << 20


class TextBudget:
    """Counts the characters a document becomes while they are made, and stops at the
    budget: `TransformPolicy.text_ratio` per byte of the file, beyond `TEXT_FLOOR`.

    A few bytes of XML may make a lot of text (one shared string in thousands of cells, a
    cell spanning thousands of columns), so the text is counted as each piece is read, not
    after the whole document was made.
    """

    def __init__(self, size: int, ratio: float, media_type: str) -> None:
        self.size = size
        self.limit = int(ratio * size) + TEXT_FLOOR
        self.left = self.limit
        self.ratio = ratio
        self.media_type = media_type

    def take(self, text: str, extra: int = 0) -> str:
        """Count `text` (and `extra` characters of markup around it), and return it.

        Raises:
            MediaTooLarge: The document's text is over its budget.
        """
        self.left -= len(text) + extra
        if self.left < 0:
            raise MediaTooLarge(
                f"this {self.media_type} makes more than {self.limit:,} characters of text "
                f"(TransformPolicy.text_ratio={self.ratio:g} per byte of the file, beyond "
                f"{TEXT_FLOOR:,}); refused",
                limit=self.limit,
                media_type=self.media_type,
            )
        return text


def table(rows: Sequence[Sequence[str]]) -> str:
    """Return a GitHub-flavoured Markdown table; the first row is its header.

    Rows are padded to the widest one, since a Markdown table has one width.
    """
    width = max((len(row) for row in rows), default=0)
    if width == 0:
        return ""
    padded = [[cell_text(cell) for cell in row] + [""] * (width - len(row)) for row in rows]
    lines = [_row(padded[0]), _row(["---"] * width)]
    lines.extend(_row(row) for row in padded[1:])
    return "\n".join(lines)


def cell_text(text: str) -> str:
    """Return text fit for one table cell: pipes escaped, line breaks as `<br>`."""
    flat = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    return flat.replace("|", "\\|").replace("\n", "<br>")


def emphasis(text: str, *, bold: bool, italic: bool) -> str:
    """Wrap `text` in `**` and `*`, keeping its outer spaces outside the marks."""
    core = text.strip()
    if not core or not (bold or italic):
        return text
    mark = ("**" if bold else "") + ("*" if italic else "")
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    return f"{lead}{mark}{core}{mark[::-1]}{trail}"


def value_text(value: object) -> str:
    """Return a spreadsheet cell's value as a reader sees it (dates as ISO 8601)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0):
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return str(value)


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"
