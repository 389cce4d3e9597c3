"""PDF transforms on testdata/300-pages.pdf: rendering and splitting, per page.

Rendering draws each page at 1568 px on its long side in a child process (PDFium parses a page
without limits, so the child is what bounds its memory and time); the baseline is the obvious
way, pypdfium2 in this process drawing the same pages at the same size and saving them as PNG.
The difference is the child's start (an interpreter, pypdfium2 and Pillow imported: paid once
per call) and the JPEG tried beside each PNG. Splitting into 100-page PDFs is compared with
pypdfium2's `import_pages` and `save` done directly, and the exact page count with the regular
expression count it replaces.
"""

from __future__ import annotations

import importlib.util
import io
from typing import Any

from harness import ROOT, Row, median_time

from mediaparts.converting import TransformPolicy, _pdf
from mediaparts.converting._pdf import pdf_pages, render_pages, split_pdf
from mediaparts.formats._pdf import pdf_page_count

PAGES = 300
RENDERED = 20  # pages drawn per timed run (every page of 300 is the same kind of page)
SIDE = 1568


def _direct_render(pdfium: Any, data: bytes, count: int) -> None:
    document = pdfium.PdfDocument(data)
    for index in range(count):
        page = document[index]
        width, height = page.get_size()
        bitmap = page.render(scale=SIDE / max(width, height))
        out = io.BytesIO()
        bitmap.to_pil().save(out, "PNG")
        bitmap.close()
        page.close()
    document.close()


def _direct_split(pdfium: Any, data: bytes, run: int) -> None:
    source = pdfium.PdfDocument(data)
    for start in range(0, len(source), run):
        piece = pdfium.PdfDocument.new()
        piece.import_pages(source, list(range(start, min(start + run, len(source)))))
        piece.save(io.BytesIO())
        piece.close()
    source.close()


def run() -> list[Row]:
    """The rows of the `pdf` section (none when pypdfium2 is not installed)."""
    if importlib.util.find_spec("pypdfium2") is None:
        print("pdf: pypdfium2 is not installed ([pdf] extra); section skipped")
        return []
    import pypdfium2

    pdfium: Any = pypdfium2
    data = (ROOT / "testdata" / "300-pages.pdf").read_bytes()
    policy = TransformPolicy()
    assert pdf_pages(data, policy) == PAGES
    ours_render = median_time(
        lambda: render_pages(data, policy, max_side=SIDE, last=RENDERED), repeat=3
    )
    direct_render = median_time(lambda: _direct_render(pdfium, data, RENDERED), repeat=3)
    one_page = median_time(lambda: render_pages(data, policy, max_side=SIDE, last=1), repeat=5)
    direct_one = median_time(lambda: _direct_render(pdfium, data, 1), repeat=5)
    ours_split = median_time(lambda: split_pdf(data, policy, max_pages=100), repeat=5)
    direct_split = median_time(lambda: _direct_split(pdfium, data, 100), repeat=5)
    # A first count of these bytes (the child's start included): counts are then remembered
    # by content, so the cache is emptied before each run.
    ours_count = median_time(lambda: _first_count(data, policy), repeat=9)
    cached_count = median_time(lambda: pdf_pages(data, policy), repeat=9)
    regex_count = median_time(lambda: pdf_page_count(data), repeat=9)
    return [
        Row(
            f"render_pages at {SIDE} px, per page ({RENDERED} pages of 300-pages.pdf)",
            ours_render / RENDERED,
            direct_render / RENDERED,
            "pypdfium2 in process, PNG",
            note="child process: memory cap and deadline; PNG, or JPEG when half the size",
        ),
        Row(
            f"render_pages at {SIDE} px, one page (the child's start included)",
            one_page,
            direct_one,
            "pypdfium2 in process, PNG",
        ),
        Row(
            "split_pdf into 100-page PDFs, per page (300 pages)",
            ours_split / PAGES,
            direct_split / PAGES,
            "pypdfium2 import_pages + save",
            note="includes the exact count and every page checked present",
        ),
        Row(
            "pdf_pages (exact, PDFium in a child process), 300 pages, first count",
            ours_count,
            regex_count,
            "formats' regular expression count",
        ),
        Row(
            "pdf_pages, 300 pages, the same bytes again (remembered)",
            cached_count,
            regex_count,
            "formats' regular expression count",
        ),
    ]


def _first_count(data: bytes, policy: TransformPolicy) -> int:
    _pdf._COUNTS.clear()
    return pdf_pages(data, policy)
