"""Office documents to Markdown (and RTF to text): ms per document, and per 1,000 sheet rows.

    python benchmarks/bench_office.py

Each row times `office_to_text` (the ZIP guard, then the library, then the Markdown) against
the same library alone reading the same file's text the plainest way, so the ratio is what
the guard and the Markdown add. The inputs are made here, with the libraries of the [office]
extra: a Word report of 40 sections (heading, paragraphs, a list, a table each), a deck of 30
slides (bullets, a table, notes), a workbook of one sheet of 1,000 rows and one of 20,000 (cut
to its first 1,000; the rows past them are not read), and a 200 KB RTF.
"""

from __future__ import annotations

import datetime
import io
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from harness import Row, median_time  # noqa: E402  (beside this file)

from mediaparts.converting import TransformPolicy, office_to_text  # noqa: E402

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
RTF = "application/rtf"
POLICY = TransformPolicy()


def report(sections: int = 40) -> bytes:
    import docx

    document = docx.Document()
    for n in range(sections):
        document.add_heading(f"Section {n}", level=2)
        paragraph = document.add_paragraph("Revenue grew in every region; ")
        paragraph.add_run("costs held flat").bold = True
        paragraph.add_run(", so margins widened over the quarter. " * 4)
        for item in ("first point", "second point", "third point"):
            document.add_paragraph(item, style="List Bullet")
        grid = document.add_table(rows=5, cols=4)
        for r, row in enumerate(grid.rows):
            for c, cell in enumerate(row.cells):
                cell.text = f"{r * c}"
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def deck(slides: int = 30) -> bytes:
    import pptx
    from pptx.util import Inches

    presentation = pptx.Presentation()
    for n in range(slides):
        slide = presentation.slides.add_slide(presentation.slide_layouts[1])
        slide.shapes.title.text = f"Slide {n}"
        body = slide.placeholders[1].text_frame
        body.text = "Goals"
        for text in ("ship", "measure", "learn"):
            body.add_paragraph().text = text
        shape = slide.shapes.add_table(4, 3, Inches(1), Inches(4), Inches(6), Inches(2))
        for r, row in enumerate(shape.table.rows):
            for c, cell in enumerate(row.cells):
                cell.text = f"{r}/{c}"
        slide.notes_slide.notes_text_frame.text = "Say the goals slowly."
    buffer = io.BytesIO()
    presentation.save(buffer)
    return buffer.getvalue()


def workbook(rows: int) -> bytes:
    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("Data")
    sheet.append(["id", "name", "value", "date", "flag", "a", "b", "c", "d", "e"])
    day = datetime.date(2024, 1, 1)
    for i in range(rows - 1):
        sheet.append([i, f"name {i % 100}", i * 0.5, day, i % 2 == 0, 1, 2, 3, 4, 5])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def memo(paragraphs: int = 2000) -> bytes:
    body = "".join(
        f"{{\\b Item {n}:}} the caf\\'e9 in Z\\u252?rich opens at {n % 12} o'clock.\\par\r\n"
        for n in range(paragraphs)
    )
    return ("{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Arial;}}\r\n" + body + "}").encode("ascii")


def _docx_alone(data: bytes) -> object:
    import docx

    document = docx.Document(io.BytesIO(data))
    texts = [p.text for p in document.paragraphs]
    texts += [cell.text for t in document.tables for row in t.rows for cell in row.cells]
    return texts


def _pptx_alone(data: bytes) -> object:
    import pptx

    texts = []
    for slide in pptx.Presentation(io.BytesIO(data)).slides:
        for shape in slide.shapes:
            if shape.has_text_frame:
                texts.append(shape.text_frame.text)
            elif shape.has_table:
                texts += [cell.text for row in shape.table.rows for cell in row.cells]
        texts.append(slide.notes_slide.notes_text_frame.text)
    return texts


def _xlsx_alone(data: bytes) -> object:
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    rows = [row for sheet in book.worksheets for row in sheet.iter_rows(values_only=True)]
    book.close()
    return rows


def _rtf_alone(data: bytes) -> object:
    from striprtf.striprtf import rtf_to_text

    return rtf_to_text(data.decode("cp1252"), errors="replace")


def run() -> list[Row]:
    """Time each format against its library alone; the xlsx rows per 1,000 rows."""
    cases: list[tuple[str, bytes, str, Any, float]] = [
        ("docx, 40 sections (ms per document)", report(), DOCX, _docx_alone, 1),
        ("pptx, 30 slides (ms per document)", deck(), PPTX, _pptx_alone, 1),
        ("xlsx, 1,000 rows × 10 (per 1,000 rows)", workbook(1000), XLSX, _xlsx_alone, 1),
        ("xlsx, 20,000 rows × 10, cut to 1,000 (per 1,000 rows)", workbook(20_000), XLSX,
         _xlsx_alone, 20),
        ("rtf, 2,000 paragraphs (ms per document)", memo(), RTF, _rtf_alone, 1),
    ]  # fmt: skip
    rows = []
    for name, data, media_type, alone, per in cases:
        ours = median_time(lambda d=data, m=media_type: office_to_text(d, m, POLICY), repeat=5)
        base = median_time(lambda d=data, f=alone: f(d), repeat=5)
        rows.append(
            Row(
                f"office_to_text: {name}",
                ours / per,
                base / per,
                "the library alone reading its text",
                note=f"{len(data) / 1024:,.0f} KB",
            )
        )
    return rows


if __name__ == "__main__":
    from harness import table

    print(table(run()))
