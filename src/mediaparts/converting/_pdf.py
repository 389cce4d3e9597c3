"""PDF transforms with PDFium (the `[pdf]` extra): exact page counts, splitting, page images.

PDFium is Chrome's PDF engine. pypdfium2's builds have no JavaScript engine (V8) and no XFA,
and nothing here initialises the form-fill environment, so no script or form action of a PDF
runs; the document is read from memory, so PDFium opens no file and no URL the PDF names.

PDFium is never called in this process. It works without limits: opening a document inflates
every compressed object and cross-reference stream it finds (900 KB that inflate to 1.85 GB
abort the interpreter under a memory limit), and loading a page parses all its content. So
every call, a count included, runs in a child process (`_pdf_render`, `_pdf_child.py`) with a
memory and CPU cap, killed at the policy's deadline: about 60 ms to start it (measured), paid
once per call. The page-tree reader of `mediaparts.formats` goes first, cheaply refusing what
it can see, and a count is remembered for the same bytes and caps (a small LRU keyed by their
SHA-256), so counting again (token counts, rendering after inspect) starts no child.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Literal

from mediaparts._errors import CodecUnavailable, InvalidConfig, InvalidMedia
from mediaparts.converting._pdf_render import require_pdfium, run_in_child
from mediaparts.converting._policy import TransformPolicy
from mediaparts.converting._result import Converted
from mediaparts.formats import pdf_page_count

__all__ = ["page_count", "pdf_pages", "render_pages", "split_pdf"]

PDF = "application/pdf"
_COUNTS: OrderedDict[tuple[bytes, int, float], int] = OrderedDict()
_COUNTS_KEPT = 64
_COUNTS_LOCK = threading.Lock()


def _checked(data: bytes) -> bytes:
    """`data` as bytes, after the bounded page-tree reader (MediaTooLarge on what it sees).

    PDFium repairs what it opens without a bound on the work: 1 MB of corrupt compressed
    object streams cost it 2.8 s of CPU. The page-tree reader caps what it inflates in a tenth
    of that, in this process, so it goes first.
    """
    data = bytes(data) if not isinstance(data, bytes) else data
    pdf_page_count(data)
    return data


def _remember(data: bytes, policy: TransformPolicy, count: int | None = None) -> int | None:
    """The count remembered for `data` under `policy`'s caps; with `count`, remember it."""
    key = (hashlib.sha256(data).digest(), policy.max_pages, policy.timeout)
    with _COUNTS_LOCK:
        if count is None:
            known = _COUNTS.get(key)
            if known is not None:
                _COUNTS.move_to_end(key)
            return known
        _COUNTS[key] = count
        while len(_COUNTS) > _COUNTS_KEPT:
            _COUNTS.popitem(last=False)
    return count


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
        MediaTooLarge: More pages than `policy.max_pages`; streams inflating past the caps
            of `mediaparts.formats`' page-tree reader; PDFium needed more memory (about 1 GB)
            or time (`policy.timeout`) than its child process may use.
    """
    require_pdfium("count a PDF's pages")  # whether or not the count is remembered
    data = _checked(data)
    known = _remember(data, policy)
    if known is not None:
        return known
    count, _ = run_in_child(
        "count", data, policy, seconds=policy.timeout, doing="count a PDF's pages"
    )
    _remember(data, policy, count)
    return count


def page_count(data: bytes, policy: TransformPolicy) -> int | None:
    """Return a PDF's page count: exact with the `[pdf]` extra (`pdf_pages`), else read from
    its page tree by `mediaparts.formats` (None when that cannot tell).

    For limits and token estimates, which must work without the extra. A PDF that PDFium
    cannot open is counted the same way, not refused: whether it is readable is the
    provider's to judge, and a page limit is judged only on a count.

    Raises:
        UnsupportedMediaType: The PDF is encrypted (providers take only standard PDFs).
        MediaTooLarge: More pages than `policy.max_pages`, streams inflating past the
            page-tree reader's caps, or PDFium needed more memory or time than its child
            process may use.
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
            `max_bytes`; the split took longer than `policy.timeout`, or PDFium needed more
            memory than its child process may use.
        InvalidConfig: `max_pages` or `max_bytes` is not a positive whole number.
    """
    _check_limit("max_pages", max_pages)
    _check_limit("max_bytes", max_bytes)
    data = _checked(data)
    count, frames = run_in_child(
        "split",
        data,
        policy,
        seconds=policy.timeout,
        doing="split a PDF",
        max_bytes=max_bytes,
        measure=measure,
        piece_pages=max_pages,
    )
    _remember(data, policy, count)
    if not frames or frames[0][0].get("whole"):
        return [Converted(PDF, data=data, pages=count, label=_label(0, count))]
    split = f"split {count:,} pages into {len(frames)} PDFs"
    pieces = [(int(head["start"]), int(head["stop"]), body) for head, body in frames]
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
    data = _checked(data)
    side = min(max_side, policy.max_pixels)
    count, frames = run_in_child(
        "render",
        data,
        policy,
        seconds=policy.timeout,
        doing="render a PDF's pages",
        pixels=min(side * side, policy.max_pixels),
        max_side=max_side,
        max_pixels=policy.max_pixels,
        first=first,
        last=last,
    )
    _remember(data, policy, count)
    images = []
    for head, body in frames:
        page, width, height = int(head["page"]) + 1, int(head["width"]), int(head["height"])
        media_type = str(head["type"])
        images.append(
            Converted(
                media_type,
                data=body,
                width=width,
                height=height,
                label=f"page {page}",
                steps=(f"page {page}→{media_type[6:]} {width}x{height}",),
            )
        )
    return images
