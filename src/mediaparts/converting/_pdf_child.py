"""Draw PDF pages with PDFium, in a child process started by `_pdf_render.render_in_child`.

Run as a script (`python -I _pdf_child.py`), so it imports nothing of mediaparts: only the
standard library, pypdfium2 and Pillow, found on the `sys.path` the parent sends. It reads one
JSON line and then the PDF on stdin, and writes one frame per page on stdout (see
`_pdf_render`). Before touching the PDF it caps its own address space and gives PDFium an
empty list of system fonts, so that PDFium reads no file at all (it draws text in fonts that
are not embedded with its own built-in ones).
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import io
import json
import sys
import time
from typing import Any

# Pillow writes PNG (crisp text) unless JPEG is less than half its size (a page of photos).
_JPEG_QUALITY = 90
_JPEG_WINS_BELOW = 0.5
# What PDFium may call back until it is shut down at exit, kept alive here.
_KEEP: list[object] = []


def _frame(head: dict[str, object], body: bytes = b"") -> None:
    encoded = json.dumps(head).encode("utf-8")
    out = sys.stdout.buffer
    out.write(len(encoded).to_bytes(4, "big") + encoded + body)
    out.flush()


def _cap_memory(limit: int) -> None:
    """Cap this process's address space where the OS enforces it (not on Windows or macOS)."""
    try:
        import resource
    except ImportError:  # Windows: bounded by the parent's deadline only
        return
    # macOS refuses RLIMIT_AS; a hard limit already lower than ours stays.
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


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


def main() -> int:
    stdin = sys.stdin.buffer
    header = json.loads(stdin.readline())
    end = time.monotonic() + float(header["seconds"])
    _cap_memory(int(header["memory"]))
    data = stdin.read()
    sys.path[:] = [str(entry) for entry in header["path"]]
    try:
        raw = importlib.import_module("pypdfium2.raw")
        importlib.import_module("PIL.PngImagePlugin")
        importlib.import_module("PIL.JpegImagePlugin")
    except ImportError as exc:
        _frame({"error": "codec", "message": str(exc)})
        return 0
    _KEEP.append(_no_system_fonts(raw))
    document = raw.FPDF_LoadMemDocument64(data, len(data), None)
    if not document:
        _frame({"error": "invalid", "message": f"PDFium error {raw.FPDF_GetLastError()}"})
        return 0
    try:
        for index, width, height in header["pages"]:
            if time.monotonic() > end:
                _frame({"error": "timeout"})
                return 0
            try:
                media_type, body = _encode(_draw(raw, document, index, width, height))
            except LookupError as exc:
                _frame({"error": "invalid", "message": str(exc)})
                return 0
            except MemoryError as exc:
                message = f"page {index + 1} of this PDF needed more memory than allowed: {exc}"
                _frame({"error": "memory", "message": message})
                return 0
            _frame({"page": index, "type": media_type, "length": len(body)}, body)
    finally:
        raw.FPDF_CloseDocument(document)
    _frame({"done": True})
    return 0


if __name__ == "__main__":
    sys.exit(main())
