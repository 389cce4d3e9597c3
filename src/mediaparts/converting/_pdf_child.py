"""Every PDFium call of mediaparts, in a child process started by `_pdf_render.run_in_child`.

Run as a script (`python -I -S _pdf_child.py`, in an empty working directory), so it imports
nothing of mediaparts: only the standard library, pypdfium2 and (to draw) Pillow, from the
directories the parent names. It reads one JSON line and then the PDF on stdin, and writes
frames on stdout (see `_pdf_render`). Before touching the PDF it caps its own address space
and CPU time (having first asked to die with its parent, which passes its pid as the only
argument) and gives PDFium an empty list of system fonts, so that PDFium reads no file at
all (it draws text in fonts that are not embedded with its own built-in ones).

Three jobs, each opening the document once and checking it first (not encrypted, within
`max_pages`, every page the tree counts present), then writing a `count` frame:
- `count`: nothing more.
- `split`: a `whole` frame when the PDF fits, else one frame per piece (`start`, `stop`).
- `render`: one frame per page (`page`, `type`, `width`, `height`).
Then a last `done` frame, or an `error` frame (`kind`, `message`, and the numbers the parent
words its error with).
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import io
import json
import math
import os
import signal
import sys
import time
from typing import Any

# Pillow writes PNG (crisp text) unless JPEG is less than half its size (a page of photos).
_JPEG_QUALITY = 90
_JPEG_WINS_BELOW = 0.5
# What PDFium may call back until it is shut down at exit, kept alive here.
_KEEP: list[object] = []


class _Stop(Exception):
    """Ends the job with an error frame."""

    def __init__(self, kind: str, message: str = "", **numbers: int) -> None:
        super().__init__(message)
        self.head: dict[str, object] = {"error": kind, "message": message, **numbers}


def _frame(head: dict[str, object], body: bytes = b"") -> None:
    encoded = json.dumps({**head, "length": len(body)}).encode("utf-8")
    out = sys.stdout.buffer
    out.write(len(encoded).to_bytes(4, "big") + encoded + body)
    out.flush()


def _cap(memory: int, cpu: int) -> None:
    """Cap this process's address space and CPU seconds where the OS enforces them (the CPU
    cap ends an orphan whose parent could not kill it; macOS refuses RLIMIT_AS)."""
    try:
        import resource
    except ImportError:  # Windows: bounded by the parent's deadline only
        return
    # At the CPU cap the OS sends SIGXCPU, which ends the process; a second later, SIGKILL.
    for limit, soft, hard in (
        (resource.RLIMIT_AS, memory, memory),
        (resource.RLIMIT_CPU, cpu, cpu + 1),
    ):
        with contextlib.suppress(ValueError, OSError):  # a lower hard limit stays
            resource.setrlimit(limit, (soft, hard))


def _no_system_fonts(raw: Any) -> object:
    """Install a system-font list with no fonts: PDFium then uses only its built-in fonts.

    Returns the structure, which must stay alive while PDFium may call it.
    """
    info = raw.FPDF_SYSFONTINFO()
    info.version = 1
    kinds = dict(raw.FPDF_SYSFONTINFO._fields_)
    answers: dict[str, Any] = {
        "Release": None,
        "EnumFonts": None,
        "MapFont": None,
        "GetFont": None,
        "GetFontData": 0,
        "GetFaceName": 0,
        "GetFontCharset": 0,
        "DeleteFont": None,
    }
    for name, answer in answers.items():
        setattr(info, name, kinds[name](lambda *_, answer=answer: answer))
    raw.FPDF_SetSystemFontInfo(info)
    return info


def _open(pdfium: Any, data: bytes, max_pages: int) -> tuple[Any, int]:
    """Open the PDF and check it: not encrypted, within `max_pages`, every page present."""
    raw = pdfium.raw
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise _Stop("open", str(exc), code=int(raw.FPDF_GetLastError())) from None
    if raw.FPDF_GetSecurityHandlerRevision(document.raw) != -1:
        raise _Stop("encrypted")
    count = len(document)
    if count == 0:
        raise _Stop("open", code=0)
    if count > max_pages:
        raise _Stop("pages", count=count)
    size = raw.FS_SIZEF()
    for index in range(count):  # PDFium trusts the root's /Count: find each page's dictionary
        if not raw.FPDF_GetPageSizeByIndexF(document.raw, index, size):
            raise _Stop("missing", count=count, page=index + 1)
    return document, count


def _measured(size: int, measure: str) -> int:
    return 4 * math.ceil(size / 3) if measure == "base64" else size


def _split(pdfium: Any, document: Any, count: int, size: int, job: dict[str, Any]) -> None:
    """Pages in runs of `max_pages`; a run over `max_bytes` halved until each half fits."""
    most, limit, measure = job["piece_pages"], job["max_bytes"], job["measure"]
    if (most is None or count <= most) and (limit is None or _measured(size, measure) <= limit):
        _frame({"whole": True})
        return
    step = count if most is None else most
    pending = [(start, min(start + step, count)) for start in range(0, count, step)]
    while pending:
        _check_time(job)
        start, stop = pending.pop(0)
        piece = _copy_pages(pdfium, document, start, stop)
        length = _measured(len(piece), measure)
        if limit is None or length <= limit:
            _frame({"start": start, "stop": stop}, piece)
        elif stop - start == 1:
            raise _Stop("page_size", measure, page=start + 1, size=length, limit=limit)
        else:
            middle = (start + stop) // 2
            pending[:0] = [(start, middle), (middle, stop)]


def _copy_pages(pdfium: Any, document: Any, start: int, stop: int) -> bytes:
    """Pages [start, stop) as a new PDF: page dictionaries and what they reference, no content
    parsed."""
    piece = pdfium.PdfDocument.new()
    out = io.BytesIO()
    try:
        piece.import_pages(document, list(range(start, stop)))
        piece.save(out)
    except pdfium.PdfiumError as exc:
        message = f"pages {start + 1}-{stop} of this PDF could not be copied: {str(exc)[:120]}"
        raise _Stop("invalid", message) from None
    finally:
        piece.close()
    return out.getvalue()


def _check_time(job: dict[str, Any]) -> None:
    if time.monotonic() > job["end"]:
        raise _Stop("timeout")


def _page_pixels(raw: Any, document: Any, index: int, side: int, pixels: int) -> tuple[int, int]:
    """The size in pixels to draw page `index` at: its long side at `side`, its aspect ratio
    kept, within `pixels`, at least 1x1, whatever size its page box claims."""
    size = raw.FS_SIZEF()
    raw.FPDF_GetPageSizeByIndexF(document.raw, index, size)
    width, height = float(size.width), float(size.height)
    if not (math.isfinite(width) and math.isfinite(height) and width > 0 and height > 0):
        width = height = 1.0  # PDFium replaces broken boxes with Letter; never divide by zero
    scale = min(side / max(width, height), math.sqrt(pixels / (width * height)))
    w, h = max(1, min(side, round(width * scale))), max(1, min(side, round(height * scale)))
    while w * h > pixels and max(w, h) > 1:  # rounding may overshoot by a row
        w, h = (w - 1, h) if w >= h else (w, h - 1)
    return w, h


def _render(pdfium: Any, document: Any, count: int, job: dict[str, Any]) -> None:
    """Draw pages `first`..`last` (from 1; `last` past the end means the end)."""
    begin, end = job["first"] or 1, min(job["last"] or count, count)
    if begin > end:
        raise _Stop("config", f"render_pages was asked for pages {begin}-{end} of a "
                    f"{count}-page PDF")  # fmt: skip
    for index in range(begin - 1, end):
        _check_time(job)
        width, height = _page_pixels(
            pdfium.raw, document, index, job["max_side"], job["max_pixels"]
        )
        try:
            media_type, body = _encode(_draw(pdfium.raw, document.raw, index, width, height))
        except LookupError as exc:
            raise _Stop("invalid", str(exc)) from None
        except MemoryError as exc:
            message = f"page {index + 1} of this PDF needed more memory than allowed: {exc}"
            raise _Stop("memory", message) from None
        _frame({"page": index, "type": media_type, "width": width, "height": height}, body)


def _draw(raw: Any, document: Any, index: int, width: int, height: int) -> Any:
    """Draw one page at width x height on white; return it as a Pillow RGB image."""
    image_module = importlib.import_module("PIL.Image")
    page = raw.FPDF_LoadPage(document, index)
    if not page:
        raise LookupError(f"PDFium could not load page {index + 1}")
    try:
        bitmap = raw.FPDFBitmap_CreateEx(width, height, raw.FPDFBitmap_BGR, None, 0)
        if not bitmap:
            raise MemoryError(f"no memory for a {width}x{height} bitmap")
        try:
            raw.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xFFFFFFFF)
            flags = raw.FPDF_ANNOT | raw.FPDF_RENDER_LIMITEDIMAGECACHE
            raw.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, flags)
            stride = raw.FPDFBitmap_GetStride(bitmap)
            pixels = ctypes.string_at(raw.FPDFBitmap_GetBuffer(bitmap), stride * height)
        finally:
            raw.FPDFBitmap_Destroy(bitmap)
    finally:
        raw.FPDF_ClosePage(page)
    return image_module.frombuffer("RGB", (width, height), pixels, "raw", "BGR", stride, 1)


def _encode(image: Any) -> tuple[str, bytes]:
    """PNG, or JPEG when less than half its size; a page in shades of grey in one band."""
    red, green, blue = image.split()
    if red.tobytes() == green.tobytes() == blue.tobytes():  # text pages mostly: a third of
        image = red  # the pixels to compress, and half the time
    png = io.BytesIO()
    image.save(png, "PNG")
    jpeg = io.BytesIO()
    image.save(jpeg, "JPEG", quality=_JPEG_QUALITY, subsampling=0)
    if len(jpeg.getvalue()) < _JPEG_WINS_BELOW * len(png.getvalue()):
        return "image/jpeg", jpeg.getvalue()
    return "image/png", png.getvalue()


def _run(job: dict[str, Any], data: bytes) -> None:
    sys.path[:0] = [str(entry) for entry in job["path"]]  # absolute, from the parent
    try:
        pdfium = importlib.import_module("pypdfium2")
        if job["job"] == "render":
            importlib.import_module("PIL.PngImagePlugin")
            importlib.import_module("PIL.JpegImagePlugin")
    except ImportError as exc:
        raise _Stop("codec", str(exc)) from None
    _KEEP.append(_no_system_fonts(pdfium.raw))
    document, count = _open(pdfium, data, job["max_pages"])
    try:
        _frame({"count": count})
        if job["job"] == "split":
            _split(pdfium, document, count, len(data), job)
        elif job["job"] == "render":
            _render(pdfium, document, count, job)
    finally:
        document.close()


def _die_with(parent: int) -> None:
    """Ask the kernel for SIGKILL when the parent dies (Linux: prctl PR_SET_PDEATHSIG), then
    end at once if the parent is gone already (this process was adopted before asking)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # 1: PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(4)


def main() -> int:
    if len(sys.argv) > 1:
        _die_with(int(sys.argv[1]))
    stdin = sys.stdin.buffer
    job = json.loads(stdin.readline())
    job["end"] = time.monotonic() + float(job["seconds"])
    _cap(int(job["memory"]), int(job["cpu"]))
    data = stdin.read()
    try:
        _run(job, data)
    except _Stop as stop:
        _frame(stop.head)
        return 0
    _frame({"done": True})
    return 0


if __name__ == "__main__":
    sys.exit(main())
