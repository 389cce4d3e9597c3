"""Rendering PDF pages in a child process, bounded in time and memory.

PDFium loads a page by parsing all of its content at once, with no limit on the work: form
XObjects that draw each other many times over make a 3 KB file take gigabytes and minutes. A
call into PDFium cannot be interrupted, and running out of memory aborts the whole process,
so pages are drawn by `_pdf_child.py` in a child Python (the same interpreter, `-I`), which:

- caps its own address space (`RLIMIT_AS`, where the OS enforces one: Linux and the BSDs),
- installs an empty system-font list, so PDFium opens no font file of this machine (it
  falls back to its built-in fonts) and opens no other file at all,
- checks the deadline between pages, and is killed here when it passes mid-page.

The protocol: one JSON line (the parent's `sys.path`, the pages and sizes, the seconds left,
the memory cap), then the PDF's bytes, on the child's stdin; on its stdout, one frame per page
(a 4-byte big-endian length, a JSON header, the image's bytes), an error frame, or a last
`done` frame.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mediaparts._errors import CodecUnavailable, InvalidMedia, MediaTooLarge
from mediaparts.converting._policy import TransformPolicy

__all__ = ["PageImage", "PageJob", "render_in_child"]

PDF = "application/pdf"
_CHILD = Path(__file__).with_name("_pdf_child.py")

# The child's address space: room for Python, PDFium, Pillow and a page's decoded images
# (a 600 dpi A4 scan is about 100 MB decoded), plus the bitmap, its copy and the encoders'
# buffers for the largest page.
_BASE_MEMORY = 1 << 30
_BYTES_PER_PIXEL = 16


@dataclass(frozen=True, slots=True)
class PageJob:
    """One page to draw: its index (from 0) and the size in pixels to draw it at."""

    index: int
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class PageImage:
    """One drawn page: `image/png` or `image/jpeg` bytes."""

    media_type: str
    data: bytes


def memory_cap(data: bytes, jobs: list[PageJob]) -> int:
    """The child's address-space cap for drawing `jobs` of a PDF of `len(data)` bytes."""
    largest = max((job.width * job.height for job in jobs), default=0)
    return _BASE_MEMORY + 2 * len(data) + _BYTES_PER_PIXEL * largest


def render_in_child(
    data: bytes, jobs: list[PageJob], *, seconds: float, policy: TransformPolicy
) -> list[PageImage]:
    """Draw `jobs` of the PDF `data` in a child process, within `seconds`.

    Raises:
        MediaTooLarge: The time ran out, or the child ran out of memory.
        InvalidMedia: PDFium could not load or draw a page, or stopped on it.
        CodecUnavailable: The child could not import pypdfium2 or Pillow.
    """
    if seconds <= 0:
        raise _timeout(policy)
    cap = memory_cap(data, jobs)
    header = {
        "path": [entry for entry in sys.path if isinstance(entry, str)],
        "pages": [[job.index, job.width, job.height] for job in jobs],
        "seconds": seconds,
        "memory": cap,
    }
    message = json.dumps(header).encode("utf-8") + b"\n" + data
    flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)  # no console window on Windows
    try:
        child = subprocess.Popen(
            [sys.executable, "-I", str(_CHILD)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            creationflags=flags,
        )
    except OSError as exc:  # an embedded interpreter without a usable sys.executable
        raise CodecUnavailable(
            f"to render a PDF's pages, mediaparts runs {sys.executable!r} as a child process, "
            f"which could not start: {exc}",
            media_type=PDF,
            package="pypdfium2",
            extra="pdf",
        ) from exc
    with child:
        try:
            out, err = child.communicate(message, timeout=seconds + 1.0)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            raise _timeout(policy) from None
    return _read_frames(out, err, child.returncode, jobs, cap, policy)


def _read_frames(
    out: bytes,
    err: bytes,
    returncode: int,
    jobs: list[PageJob],
    cap: int,
    policy: TransformPolicy,
) -> list[PageImage]:
    """Turn the child's frames into images, or its error or death into ours."""
    images: list[PageImage] = []
    for head, body in _frames(out):
        if "error" in head:
            raise _child_error(head, policy)
        if head.get("done"):
            if len(images) == len(jobs):
                return images
            break
        images.append(PageImage(str(head["type"]), body))
    page = jobs[min(len(images), len(jobs) - 1)].index + 1 if jobs else 0
    if returncode == -getattr(signal, "SIGABRT", 6) or b"MemoryError" in err:
        raise MediaTooLarge(
            f"page {page} of this PDF needed more memory than rendering may use "
            f"({cap // 2**20:,} MB); refused",
            limit=cap,
            media_type=PDF,
        )
    why = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit {returncode}"]
    raise InvalidMedia(
        f"PDFium stopped while drawing page {page} of this PDF ({why[0][:120]})",
        media_type=PDF,
    )


def _frames(out: bytes) -> Iterator[tuple[dict[str, Any], bytes]]:
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


def _child_error(head: dict[str, Any], policy: TransformPolicy) -> Exception:
    kind, text = head.get("error"), str(head.get("message", ""))[:200]
    if kind == "timeout":
        return _timeout(policy)
    if kind == "memory":
        return MediaTooLarge(f"{text}; refused", media_type=PDF)
    if kind == "codec":
        return CodecUnavailable(
            f"to render a PDF's pages, the child process needs pypdfium2 and Pillow ({text})",
            media_type=PDF,
            package="pypdfium2",
            extra="pdf",
        )
    return InvalidMedia(f"this PDF could not be drawn: {text}", media_type=PDF)


def _timeout(policy: TransformPolicy) -> MediaTooLarge:
    return MediaTooLarge(
        f"rendering this PDF's pages took longer than TransformPolicy.timeout="
        f"{policy.timeout:g} s; refused",
        media_type=PDF,
    )
