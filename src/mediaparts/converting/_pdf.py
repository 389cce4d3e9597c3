"""PDF transforms with PDFium (the `[pdf]` extra): exact page counts, splitting, page images.

PDFium is Chrome's PDF engine. pypdfium2's builds have no JavaScript engine (V8) and no XFA,
and nothing here initialises the form-fill environment, so no script or form action of a PDF
runs; the document is read from memory, so PDFium opens no file and no URL the PDF names.

Counting and splitting run in this process: opening a document, walking its page tree and
copying pages into a new document never parse a page's content. Rendering does, and PDFium
parses a page's content without limits: a 3 KB PDF whose form XObjects draw each other thirty
times over takes gigabytes and minutes to load a single page. So pages are rendered in a child
Python process (`_pdf_child.py`) with an address-space cap (where the OS has one) and killed at
the policy's deadline.

PDFium is not thread-safe, even across documents (pypdfium2's docs, "Incompatibility with
Threading"), so every call into it in this process holds one lock.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

from mediaparts._errors import (
    CodecUnavailable,
    InvalidConfig,
    InvalidMedia,
    MediaTooLarge,
    UnsupportedMediaType,
)
from mediaparts.converting._extras import Deadline, require
from mediaparts.converting._pdf_render import PageJob, render_in_child
from mediaparts.converting._policy import TransformPolicy
from mediaparts.converting._result import Converted
from mediaparts.formats import pdf_page_count
from mediaparts.imaging import measured

__all__ = ["page_count", "pdf_pages", "render_pages", "split_pdf"]

PDF = "application/pdf"
_LOCK = threading.Lock()

# FPDF_GetLastError's codes (fpdfview.h): what went wrong when a document does not open.
_ERR_PASSWORD = 4
_ERR_SECURITY = 5
_REASONS = {
    1: "unknown error",
    2: "file not found or could not be opened",
    3: "not a PDF, or damaged beyond repair",
    4: "password required or incorrect",
    5: "unsupported security scheme",
    6: "page not found or content error",
}


def _pdfium(doing: str) -> Any:
    """Import pypdfium2, or raise `CodecUnavailable` naming the `[pdf]` extra."""
    return require("pypdfium2", package="pypdfium2", extra="pdf", media_type=PDF, doing=doing)


@contextmanager
def _document(data: bytes, policy: TransformPolicy, doing: str) -> Iterator[tuple[Any, int]]:
    """Open `data` with PDFium under the lock; yield the document and its checked page count.

    Raises:
        CodecUnavailable: pypdfium2 is not installed.
        UnsupportedMediaType: The PDF is encrypted (providers take only standard PDFs).
        InvalidMedia: PDFium cannot open it, it has no pages, or a page it claims is missing.
        MediaTooLarge: More pages than `policy.max_pages`, or compressed streams inflating
            past the caps of `mediaparts.formats`' page-tree reader.
    """
    pdfium = _pdfium(doing)
    if not isinstance(data, bytes):  # pypdfium2 reads bytes, not a bytearray or memoryview
        data = bytes(data)
    # PDFium repairs what it opens without a bound on the work: 1 MB of corrupt compressed
    # object streams cost it 2.8 s of CPU. The page-tree reader of `mediaparts.formats` caps
    # what it inflates (and refuses more with MediaTooLarge) in a tenth of that: it goes first.
    pdf_page_count(data)
    with _LOCK:
        try:
            document = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            raise _open_error(pdfium.raw.FPDF_GetLastError(), exc) from exc
        try:
            if pdfium.raw.FPDF_GetSecurityHandlerRevision(document.raw) != -1:
                raise UnsupportedMediaType(
                    "this PDF is encrypted (it opens without a password, but its content is "
                    "encrypted); providers take only standard PDFs, without passwords or "
                    "encryption: save it again without security",
                    media_type=PDF,
                )
            count = len(document)
            if count > policy.max_pages:
                raise MediaTooLarge(
                    f"this PDF has {count:,} pages, over TransformPolicy.max_pages="
                    f"{policy.max_pages:,}; refused before reading them",
                    size=count,
                    limit=policy.max_pages,
                    media_type=PDF,
                )
            _check_pages(pdfium, document, count)
            yield document, count
        finally:
            document.close()


def _open_error(code: int, exc: BaseException) -> Exception:
    """The error for a PDF PDFium would not open, from FPDF_GetLastError's code."""
    if code in (_ERR_PASSWORD, _ERR_SECURITY):
        return UnsupportedMediaType(
            f"this PDF is encrypted ({_REASONS[code]}); providers take only standard PDFs, "
            "without passwords or encryption: save it again without security",
            media_type=PDF,
        )
    if code == 0:  # PDFium opened it but found no page
        return InvalidMedia("this PDF has no pages", media_type=PDF)
    reason = _REASONS.get(code, str(exc)[:120])
    return InvalidMedia(f"this PDF could not be read: {reason} (PDFium)", media_type=PDF)


def _check_pages(pdfium: Any, document: Any, count: int) -> None:
    """Check that every page the page tree counts is there (PDFium trusts the root's /Count).

    Reads each page's size, which finds its dictionary without parsing its content.
    """
    size = pdfium.raw.FS_SIZEF()
    for index in range(count):
        if not pdfium.raw.FPDF_GetPageSizeByIndexF(document.raw, index, size):
            raise InvalidMedia(
                f"this PDF's page tree counts {count:,} pages, but page {index + 1} is missing",
                media_type=PDF,
            )


def pdf_pages(data: bytes, policy: TransformPolicy) -> int:
    """Return the exact number of pages of a PDF, as PDFium (Chrome's PDF engine) reads it.

    Args:
        data: The PDF's bytes.
        policy: The caps (`max_pages`).

    Returns:
        The page count, every page checked to be present.

    Raises:
        CodecUnavailable: pypdfium2 is not installed (the `[pdf]` extra).
        UnsupportedMediaType: The PDF is encrypted, with or without a password.
        InvalidMedia: PDFium cannot open it (its reason is in the message), it has no pages,
            or its page tree counts a page that is not there.
        MediaTooLarge: More pages than `policy.max_pages`.
    """
    with _document(data, policy, "count a PDF's pages") as (_, count):
        return count


def page_count(data: bytes, policy: TransformPolicy) -> int | None:
    """Return a PDF's page count: exact with the `[pdf]` extra (`pdf_pages`), else read from
    its page tree by `mediaparts.formats` (None when that cannot tell).

    For limits and token estimates, which must work without the extra. A PDF that PDFium
    cannot open is counted the same way, not refused: whether it is readable is the
    provider's to judge, and a page limit is judged only on a count.

    Raises:
        UnsupportedMediaType: The PDF is encrypted (providers take only standard PDFs).
        MediaTooLarge: More pages than `policy.max_pages`, or streams inflating past the
            page-tree reader's caps.
    """
    try:
        return pdf_pages(data, policy)
    except (CodecUnavailable, InvalidMedia):
        return pdf_page_count(data)


def split_pdf(
    data: bytes,
    policy: TransformPolicy,
    *,
    max_pages: int | None = None,
    max_bytes: int | None = None,
    measure: Literal["raw", "base64"] = "raw",
) -> list[Converted]:
    """Split a PDF into several PDFs, in page order, each within `max_pages` and `max_bytes`.

    Pages are taken in runs of `max_pages`; a run whose PDF is over `max_bytes` is halved
    until each half fits. A PDF already within both limits comes back as it is, as one piece
    with no steps.

    Args:
        data: The PDF's bytes.
        policy: The caps (`max_pages`, `timeout`).
        max_pages: The most pages of one piece; None for no page limit.
        max_bytes: The most bytes of one piece, counted by `measure`; None for no limit.
        measure: `"raw"` (the file's bytes) or `"base64"` (its base64 text's length).

    Returns:
        The pieces, each `application/pdf` with `pages`, `label` (`"pages 1-100"`, or
        `"page 7"` for one page) and `steps` (`"split 300 pages into 3 PDFs"`, then the label).

    Raises:
        CodecUnavailable: pypdfium2 is not installed (the `[pdf]` extra).
        UnsupportedMediaType: The PDF is encrypted.
        InvalidMedia: PDFium cannot open it, or cannot copy or write a page.
        MediaTooLarge: More pages than `policy.max_pages`; one page alone is over
            `max_bytes`; or the split took longer than `policy.timeout`.
        InvalidConfig: `max_pages` or `max_bytes` is not a positive whole number.
    """
    _check_limit("max_pages", max_pages)
    _check_limit("max_bytes", max_bytes)
    deadline = Deadline(policy.timeout, "splitting this PDF", PDF)
    with _document(data, policy, "split a PDF") as (document, count):
        if (max_pages is None or count <= max_pages) and (
            max_bytes is None or measured(len(data), measure) <= max_bytes
        ):
            return [Converted(PDF, data=data, pages=count, label=_label(0, count))]
        step = count if max_pages is None else max_pages
        pending = [(start, min(start + step, count)) for start in range(0, count, step)]
        pieces: list[tuple[int, int, bytes]] = []
        while pending:
            deadline.check()
            start, stop = pending.pop(0)
            piece = _copy_pages(document, start, stop)
            if max_bytes is None or measured(len(piece), measure) <= max_bytes:
                pieces.append((start, stop, piece))
            elif stop - start == 1:
                raise MediaTooLarge(
                    f"page {start + 1} of this PDF alone is {measured(len(piece), measure):,} "
                    f"bytes ({measure}), over the limit of {max_bytes:,}; it cannot be split "
                    "small enough (try rendering its pages to images instead)",
                    size=measured(len(piece), measure),
                    limit=max_bytes,
                    media_type=PDF,
                )
            else:
                middle = (start + stop) // 2
                pending[:0] = [(start, middle), (middle, stop)]
    split = f"split {count:,} pages into {len(pieces)} PDFs"
    return [
        Converted(
            PDF,
            data=piece,
            pages=stop - start,
            label=_label(start, stop),
            steps=(split, _label(start, stop)),
        )
        for start, stop, piece in pieces
    ]


def _copy_pages(document: Any, start: int, stop: int) -> bytes:
    """Write pages [start, stop) of `document` as a new PDF (under the lock, held by the caller).

    PDFium copies each page's dictionary and the objects it references; no content is parsed.
    """
    pdfium = _pdfium("split a PDF")
    piece = pdfium.PdfDocument.new()
    try:
        piece.import_pages(document, list(range(start, stop)))
        out = _Sink()
        piece.save(out)
    except pdfium.PdfiumError as exc:
        raise InvalidMedia(
            f"pages {start + 1}-{stop} of this PDF could not be copied: {str(exc)[:120]}",
            media_type=PDF,
        ) from exc
    finally:
        piece.close()
    return out.getvalue()


class _Sink:
    """A write-only byte buffer (pypdfium2 saves to anything with `write`)."""

    def __init__(self) -> None:
        self._chunks: list[bytes] = []

    def write(self, chunk: bytes) -> int:
        self._chunks.append(bytes(chunk))
        return len(chunk)

    def getvalue(self) -> bytes:
        return b"".join(self._chunks)


def _label(start: int, stop: int) -> str:
    """`"pages 1-100"`, or `"page 7"` for one page (0-based, stop exclusive)."""
    return f"page {start + 1}" if stop - start == 1 else f"pages {start + 1}-{stop}"


def _check_limit(name: str, value: int | None) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise InvalidConfig(f"{name} must be a positive whole number or None, got {value!r}")


def render_pages(
    data: bytes,
    policy: TransformPolicy,
    *,
    max_side: int = 1568,
    first: int | None = None,
    last: int | None = None,
) -> list[Converted]:
    """Render pages of a PDF to images, each page's long side at `max_side` pixels.

    Every page is drawn at `max_side` on its long side whatever size its page box claims (so
    a 200-inch page costs what a letter page does), and never with more pixels than
    `policy.max_pixels`. Each page is a PNG (crisp text), or a JPEG (quality 90, no chroma
    subsampling) when that is less than half the PNG's size: pages that are mostly photos.

    Args:
        data: The PDF's bytes.
        policy: The caps (`max_pages`, `max_pixels`, `timeout`).
        max_side: The long side of each image, in pixels.
        first: The first page to render, from 1; None for the first page.
        last: The last page to render (inclusive); None, or past the end, for the last page.

    Returns:
        One image per page, in order, each with `label` `"page 3"`, `width` and `height`, and
        steps (`"page 3→png 1109x1568"`).

    Raises:
        CodecUnavailable: pypdfium2 is not installed (the `[pdf]` extra).
        UnsupportedMediaType: The PDF is encrypted.
        InvalidMedia: PDFium cannot open it, or cannot read or draw a page.
        MediaTooLarge: More pages than `policy.max_pages`; rendering took longer than
            `policy.timeout`, or a page needed more memory than rendering may use.
        InvalidConfig: `max_side`, `first` or `last` is out of range.
    """
    _check_limit("max_side", max_side)
    _check_limit("first", first)
    _check_limit("last", last)
    started = time.monotonic()
    pdfium = _pdfium("render a PDF's pages")
    with _document(data, policy, "render a PDF's pages") as (document, count):
        begin = 1 if first is None else first
        end = count if last is None else min(last, count)
        if begin > end:
            raise InvalidConfig(
                f"render_pages was asked for pages {begin}-{end} of a {count}-page PDF"
            )
        jobs = [
            PageJob(index, *_page_pixels(pdfium, document, index, max_side, policy.max_pixels))
            for index in range(begin - 1, end)
        ]
    remaining = policy.timeout - (time.monotonic() - started)
    images = render_in_child(data, jobs, seconds=remaining, policy=policy)
    return [
        Converted(
            image.media_type,
            data=image.data,
            width=job.width,
            height=job.height,
            label=f"page {job.index + 1}",
            steps=(f"page {job.index + 1}→{image.media_type[6:]} {job.width}x{job.height}",),
        )
        for job, image in zip(jobs, images, strict=True)
    ]


def _page_pixels(
    pdfium: Any, document: Any, index: int, max_side: int, max_pixels: int
) -> tuple[int, int]:
    """The size in pixels to draw page `index` at: its long side at `max_side`, its aspect
    ratio kept, within `max_pixels`, at least 1x1."""
    size = pdfium.raw.FS_SIZEF()
    pdfium.raw.FPDF_GetPageSizeByIndexF(document.raw, index, size)
    width, height = float(size.width), float(size.height)
    if not (math.isfinite(width) and math.isfinite(height) and width > 0 and height > 0):
        width = height = 1.0  # PDFium replaces broken boxes with Letter; never divide by zero
    scale = max_side / max(width, height)
    scale = min(scale, math.sqrt(max_pixels / (width * height)))
    w, h = max(1, min(max_side, round(width * scale))), max(1, min(max_side, round(height * scale)))
    while w * h > max_pixels and max(w, h) > 1:  # rounding may overshoot by a row
        w, h = (w - 1, h) if w >= h else (w, h - 1)
    return w, h
