"""Running PDFium in a child process, bounded in time and memory, for every call.

PDFium works without limits: opening a document inflates whatever compressed object or
cross-reference streams it finds (a 900 KB file with an object stream whose name is written
`/Obj#53tm` inflates to 1.85 GB, which the page-tree reader of `mediaparts.formats` does not
see), and loading a page parses all of its content at once (form XObjects that draw each other
many times over make a 3 KB file take gigabytes and minutes). A call into PDFium cannot be
interrupted, and running out of memory aborts the whole process. So counting, splitting and
drawing all run in `_pdf_child.py`, a child Python (the same interpreter, `-I -S`, in an empty
working directory: it imports the standard library, and pypdfium2 and Pillow only from the
absolute directories they are found in here, never from a working directory), which:

- dies with this process (Linux: `PR_SET_PDEATHSIG`, asked for before any work, then a check
  that its parent is still this process, which closes the race with a death in between),
- caps its own address space (`RLIMIT_AS`, where the OS enforces one: Linux and the BSDs) and
  its CPU time (`RLIMIT_CPU`, a backstop where the kernel has no parent-death signal),
- installs an empty system-font list, so PDFium opens no font file of this machine (it
  falls back to its built-in fonts) and opens no other file at all,
- checks the deadline between pages, and is killed here when it passes, or when this process
  is interrupted (KeyboardInterrupt or any other exception while waiting).

The protocol: one JSON line (the job, its parameters, the import directories, the seconds
left, the caps), then the PDF's bytes, on the child's stdin; on its stdout, frames (a 4-byte
big-endian length, a JSON header with the `length` of the bytes that follow, those bytes):
a `count` frame, the job's frames, and a last `done` frame or an `error` frame.
"""

from __future__ import annotations

import importlib.machinery
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mediaparts._errors import (
    CodecUnavailable,
    InvalidConfig,
    InvalidMedia,
    MediaTooLarge,
    UnsupportedMediaType,
)
from mediaparts.converting._policy import TransformPolicy

__all__ = ["Frame", "memory_cap", "require_pdfium", "run_in_child"]

PDF = "application/pdf"
_CHILD = Path(__file__).resolve().with_name("_pdf_child.py")
Frame = tuple[dict[str, Any], bytes]

# The child's address space: room for Python, PDFium, Pillow and a page's decoded images
# (a 600 dpi A4 scan is about 100 MB decoded), plus copies of the PDF (its bytes, PDFium's
# parse, the pieces of a split) and, to draw, the bitmap, its copy and the encoders' buffers.
_BASE_MEMORY = 1 << 30
_BYTES_PER_PIXEL = 16
_COPIES = 4
# subprocess's timeouts overflow past about 24.8 days; no transform is given more than a day.
_MOST_SECONDS = 86_400.0

# FPDF_GetLastError's codes (fpdfview.h): what went wrong when a document does not open.
_REASONS = {
    1: "unknown error",
    2: "file not found or could not be opened",
    3: "not a PDF, or damaged beyond repair",
    4: "password required or incorrect",
    5: "unsupported security scheme",
    6: "page not found or content error",
}
_ENCRYPTED = (
    "; providers take only standard PDFs, without passwords or encryption: save it again "
    "without security"
)


def memory_cap(data: bytes, pixels: int = 0) -> int:
    """The child's address-space cap for a PDF of `len(data)` bytes and pages of `pixels`."""
    return _BASE_MEMORY + _COPIES * len(data) + _BYTES_PER_PIXEL * pixels


# Where each module was found, by the absolute entries of sys.path searched (a few at most).
_FOUND: dict[tuple[str, tuple[str, ...]], str] = {}
_FOUND_KEPT = 16


def _origin(module: str) -> str | None:
    """The file `module` is (or would be) imported from here, looked up only in the absolute
    entries of sys.path (never '' or a relative one: the working directory is no source of
    code for the child) and without importing it, so PDFium is never loaded into this process.
    """
    if module in sys.modules:
        loaded = sys.modules[module]
        return None if loaded is None else getattr(loaded, "__file__", None)
    absolute = tuple(e for e in sys.path if isinstance(e, str) and os.path.isabs(e))
    found = _FOUND.get((module, absolute))
    if found is not None:
        return found
    try:
        spec = importlib.machinery.PathFinder.find_spec(module, list(absolute))
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    # A module found is remembered for these directories (a search stats each of them, for
    # every PDF counted); one not found is looked for again, so an install is seen at once.
    if len(_FOUND) >= _FOUND_KEPT:
        _FOUND.clear()
    _FOUND[module, absolute] = spec.origin
    return spec.origin


def _import_roots(doing: str, modules: list[str]) -> list[str]:
    """The absolute directories the child imports `modules` from; CodecUnavailable naming the
    `[pdf]` extra when one is not installed."""
    roots: list[str] = []
    for module in modules:
        origin = _origin(module)
        if not origin or not os.path.isabs(origin):
            raise CodecUnavailable(
                f"to {doing}, this machine needs {module} (pip install pypdfium2, or the "
                "[pdf] extra: pip install 'mediaparts[pdf]')",
                media_type=PDF,
                package="pypdfium2",
                extra="pdf",
            )
        root = os.path.dirname(os.path.dirname(origin))
        if root not in roots:
            roots.append(root)
    return roots


def require_pdfium(doing: str) -> None:
    """Raise `CodecUnavailable` naming the `[pdf]` extra when pypdfium2 is not installed."""
    _import_roots(doing, ["pypdfium2"])


def run_in_child(
    job: str,
    data: bytes,
    policy: TransformPolicy,
    *,
    seconds: float,
    doing: str,
    pixels: int = 0,
    **params: Any,
) -> tuple[int, list[Frame]]:
    """Run `job` ("count", "split" or "render") on the PDF `data` in a child, within `seconds`.

    Returns:
        The page count and the job's frames (header, bytes), in order.

    Raises:
        CodecUnavailable: pypdfium2 (or, to render, Pillow) is missing, or no child could start.
        UnsupportedMediaType: The PDF is encrypted.
        InvalidMedia: PDFium cannot open it, it has no pages, a page is missing, or PDFium
            could not copy or draw a page, or stopped.
        MediaTooLarge: More pages than `policy.max_pages`; the time ran out; the child ran
            out of memory; a single page of a split is over its byte limit.
        InvalidConfig: The child found the page range empty.
    """
    seconds = min(seconds, _MOST_SECONDS)
    if not seconds > 0:
        raise _timeout(policy, doing)
    modules = ["pypdfium2", "PIL"] if job == "render" else ["pypdfium2"]
    modules += [part for part in ("pypdfium2_raw", "pypdfium2_cfg") if _origin(part)]
    cap = memory_cap(data, pixels)
    header = {
        "job": job,
        "path": _import_roots(doing, modules),
        "seconds": seconds,
        "memory": cap,
        "cpu": math.ceil(seconds) + 1,
        "max_pages": policy.max_pages,
        **params,
    }
    message = json.dumps(header).encode("utf-8") + b"\n" + data
    out, err, returncode = _communicate(message, seconds, policy, doing)
    return _read_frames(out, err, returncode, cap, policy, doing)


def _communicate(
    message: bytes, seconds: float, policy: TransformPolicy, doing: str
) -> tuple[bytes, bytes, int]:
    """Start the child, send `message`, wait for its output; kill and reap it on a timeout
    or on any exception (KeyboardInterrupt included), so it never outlives the call."""
    flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)  # no console window on Windows
    with tempfile.TemporaryDirectory(prefix="mediaparts-pdf-") as empty:
        try:
            child = subprocess.Popen(
                [sys.executable, "-I", "-S", str(_CHILD), str(os.getpid())],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=empty,
                creationflags=flags,
            )
        except OSError as exc:  # an embedded interpreter without a usable sys.executable
            raise CodecUnavailable(
                f"to {doing}, mediaparts runs {sys.executable!r} as a child process, "
                f"which could not start: {exc}",
                media_type=PDF,
                package="pypdfium2",
                extra="pdf",
            ) from exc
        try:
            out, err = child.communicate(message, timeout=seconds + 1.0)
        except subprocess.TimeoutExpired:
            _end(child)
            raise _timeout(policy, doing) from None
        except BaseException:
            _end(child)
            raise
    return out, err, child.returncode


def _end(child: subprocess.Popen[bytes]) -> None:
    """Kill the child and reap it, closing its pipes."""
    child.kill()
    child.wait()
    for pipe in (child.stdin, child.stdout, child.stderr):
        if pipe is not None:
            pipe.close()


def _read_frames(
    out: bytes, err: bytes, returncode: int, cap: int, policy: TransformPolicy, doing: str
) -> tuple[int, list[Frame]]:
    """Turn the child's frames into the count and the job's frames, or its error or death
    into ours."""
    count, frames = -1, list[Frame]()
    for head, body in _frames(out):
        if "error" in head:
            raise _child_error(head, policy, doing)
        if head.get("done"):
            if count >= 0:
                return count, frames
            break
        if "count" in head:
            count = int(head["count"])
        else:
            frames.append((head, body))
    where = _where(frames)
    if returncode == -getattr(signal, "SIGXCPU", -1):
        raise _timeout(policy, doing)
    if returncode == -getattr(signal, "SIGABRT", 6) or b"MemoryError" in err:
        raise MediaTooLarge(
            f"PDFium needed more memory than it may use ({cap // 2**20:,} MB) to {doing}"
            f"{where}; refused",
            limit=cap,
            media_type=PDF,
        )
    why = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit {returncode}"]
    raise InvalidMedia(f"PDFium stopped {where[1:]or 'on this PDF'} ({why[0][:120]})",
                       media_type=PDF)  # fmt: skip


def _where(frames: list[Frame]) -> str:
    """` at page 3` after the pages drawn so far, or `` for other jobs."""
    drawn = [head["page"] for head, _ in frames if "page" in head]
    return f" at page {drawn[-1] + 2}" if drawn else ""


def _frames(out: bytes) -> Iterator[Frame]:
    """The whole frames in the child's output; a frame cut short (the child died) ends it."""
    at = 0
    while at + 4 <= len(out):
        size = int.from_bytes(out[at : at + 4], "big")
        try:
            head = json.loads(out[at + 4 : at + 4 + size])
            length = int(head.get("length", 0)) if isinstance(head, dict) else -1
        except (ValueError, TypeError):
            return
        at += 4 + size
        if length < 0 or at + length > len(out):
            return
        yield head, out[at : at + length]
        at += length


def _child_error(head: dict[str, Any], policy: TransformPolicy, doing: str) -> Exception:
    """Our error for the child's error frame."""
    kind, text = head.get("error"), str(head.get("message", ""))[:200]
    number = {k: int(v) for k, v in head.items() if k in ("count", "page", "size", "limit", "code")}
    if kind == "timeout":
        return _timeout(policy, doing)
    if kind == "codec":
        return CodecUnavailable(
            f"to {doing}, the child process needs pypdfium2 and Pillow ({text})",
            media_type=PDF,
            package="pypdfium2",
            extra="pdf",
        )
    if kind == "encrypted":
        return UnsupportedMediaType(
            "this PDF is encrypted (it opens without a password, but its content is "
            "encrypted)" + _ENCRYPTED,
            media_type=PDF,
        )
    if kind == "open":
        code = number.get("code", 1)
        if code in (4, 5):
            return UnsupportedMediaType(
                f"this PDF is encrypted ({_REASONS[code]})" + _ENCRYPTED, media_type=PDF
            )
        if code == 0:  # PDFium opened it but found no page
            return InvalidMedia("this PDF has no pages", media_type=PDF)
        reason = _REASONS.get(code, text[:120])
        return InvalidMedia(f"this PDF could not be read: {reason} (PDFium)", media_type=PDF)
    if kind == "pages":
        return MediaTooLarge(
            f"this PDF has {number['count']:,} pages, over TransformPolicy.max_pages="
            f"{policy.max_pages:,}; refused before reading them",
            size=number["count"],
            limit=policy.max_pages,
            media_type=PDF,
        )
    if kind == "missing":
        return InvalidMedia(
            f"this PDF's page tree counts {number['count']:,} pages, but page "
            f"{number['page']} is missing",
            media_type=PDF,
        )
    if kind == "page_size":
        return MediaTooLarge(
            f"page {number['page']} of this PDF alone is {number['size']:,} bytes ({text}), "
            f"over the limit of {number['limit']:,}; it cannot be split small enough (try "
            "rendering its pages to images instead)",
            size=number["size"],
            limit=number["limit"],
            media_type=PDF,
        )
    if kind == "memory":
        return MediaTooLarge(f"{text}; refused", media_type=PDF)
    if kind == "config":
        return InvalidConfig(text)
    return InvalidMedia(f"this PDF could not be read: {text}", media_type=PDF)


def _timeout(policy: TransformPolicy, doing: str) -> MediaTooLarge:
    return MediaTooLarge(
        f"PDFium took longer than TransformPolicy.timeout={policy.timeout:g} s to {doing}; refused",
        media_type=PDF,
    )
