"""Office documents (docx, xlsx, pptx, and xlsm, xltx, pptm) to Markdown and RTF to text, for
providers that take text but not the file.

Each format is read by its well-kept library, all in the `[office]` extra: python-docx,
openpyxl, python-pptx and striprtf. A package reaches its library only after
`verified_package` checked it (entries, sizes, ratios per input byte, no DOCTYPE), as a new
ZIP of exactly the parts the library reads, as checked; an RTF only after `clean_rtf` made
striprtf's work linear. The Markdown is counted while it is made (`TextBudget`). The whole
transform runs under `TransformPolicy.timeout`.

Legacy binary Office files (doc, xls, ppt) and encrypted OOXML (both OLE2 compound files) are
refused: no extra reads them.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from mediaparts._errors import InvalidMedia, MediaError, MediaTooLarge, UnsupportedMediaType
from mediaparts.converting._docx import docx_markdown
from mediaparts.converting._extras import Deadline, require
from mediaparts.converting._markdown import TextBudget
from mediaparts.converting._opc import Reading
from mediaparts.converting._policy import TransformPolicy
from mediaparts.converting._pptx import pptx_markdown
from mediaparts.converting._result import Converted
from mediaparts.converting._rtf import rtf_to_text
from mediaparts.converting._xlsx import xlsx_markdown
from mediaparts.converting._zipguard import verified_package

__all__ = ["OFFICE_TYPES", "office_to_text"]

_OOXML = "application/vnd.openxmlformats-officedocument."
DOCX = _OOXML + "wordprocessingml.document"
XLSX = _OOXML + "spreadsheetml.sheet"
PPTX = _OOXML + "presentationml.presentation"
RTF = "application/rtf"

Reader = Callable[[Any, bytes, Deadline, TextBudget], tuple[str, list[str]]]


def _pptx(
    module: Any, package: bytes, deadline: Deadline, text: TextBudget
) -> tuple[str, list[str]]:
    return pptx_markdown(module, package, deadline, text), []


# The parts each reader opens, by the relationships that reach them; no other part of a
# package is inflated. python-docx reads the document and its styles (headers, footers,
# pictures, comments are not read); openpyxl in read-only mode the workbook, its sheets
# (streamed), shared strings (streamed) and styles (for dates), and opens chartsheets;
# python-pptx the presentation, its slides and their notes (layouts and masters are not
# read: placeholders' kinds are on the slide).
_WORD = Reading(frozenset({"officeDocument", "styles"}))
_EXCEL = Reading(
    frozenset({"officeDocument", "worksheet", "chartsheet", "sharedStrings", "styles"}),
    streamed=frozenset({"worksheet", "sharedStrings"}),
)
_POWERPOINT = Reading(frozenset({"officeDocument", "slide", "notesSlide"}))

# media type -> (the module to import, its PyPI name, the short name in steps, the reader,
# what it opens). Macro-enabled workbooks and decks and workbook templates are the same
# packages (their macros are never run); python-docx opens only documents (docx/api.py, 1.2).
_LIBRARIES: dict[str, tuple[str, str, str, Reader, Reading]] = {
    DOCX: ("docx", "python-docx", "docx", docx_markdown, _WORD),
    XLSX: ("openpyxl", "openpyxl", "xlsx", xlsx_markdown, _EXCEL),
    "application/vnd.ms-excel.sheet.macroenabled.12": (
        "openpyxl",
        "openpyxl",
        "xlsm",
        xlsx_markdown,
        _EXCEL,
    ),
    _OOXML + "spreadsheetml.template": ("openpyxl", "openpyxl", "xltx", xlsx_markdown, _EXCEL),
    PPTX: ("pptx", "python-pptx", "pptx", _pptx, _POWERPOINT),
    "application/vnd.ms-powerpoint.presentation.macroenabled.12": (
        "pptx",
        "python-pptx",
        "pptm",
        _pptx,
        _POWERPOINT,
    ),
}
OFFICE_TYPES: frozenset[str] = frozenset({*_LIBRARIES, RTF, "text/rtf"})
"""The types `office_to_text` reads (as `mediaparts.detection` names them)."""

# Read by no library in any extra; the advice says what to do instead.
_LEGACY = {
    "application/msword": "a legacy binary Word document (.doc)",
    "application/vnd.ms-excel": "a legacy binary Excel workbook (.xls)",
    "application/vnd.ms-powerpoint": "a legacy binary PowerPoint deck (.ppt)",
    "application/x-ole-storage": "an OLE2 compound file (legacy or encrypted Office)",
}
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # [MS-CFB] §2.2: the header signature


def office_to_text(data: bytes, media_type: str, policy: TransformPolicy) -> Converted:
    """Turn an Office document into Markdown (docx, xlsx, pptx) or an RTF into plain text.

    Args:
        data: The whole file.
        media_type: Its detected type: one of `OFFICE_TYPES`.
        policy: `inflation_ratio` and `max_expanded_bytes` bound what a package may expand
            to (the latter an RTF's size too), `text_ratio` the Markdown it becomes,
            `timeout` the whole transform.

    Returns:
        One `Converted` with `text`: `"text/markdown"` for Office packages (steps
        `"docx→markdown"`, and for a workbook one step per sheet cut to its first 1,000
        rows), `"text/plain"` for RTF (`"rtf→text"`).

    Raises:
        CodecUnavailable: The library for this format is missing (the `[office]` extra).
        UnsupportedMediaType: A legacy binary Office file, an encrypted package, or a type
            that is not an Office document.
        InvalidMedia: A malformed package or document, or an XML part with a DOCTYPE.
        MediaTooLarge: A package over its budget (`inflation_ratio`, `max_expanded_bytes`),
            an RTF over `max_expanded_bytes`, a ZIP bomb, too many entries, more text than
            `text_ratio` allows, memory running out, or longer than `timeout`.
    """
    deadline = Deadline(policy.timeout, f"reading this {media_type}", media_type)
    if media_type in (RTF, "text/rtf"):
        # RTF is read whole, as text: the same cap as a package's expanded bytes.
        if len(data) > policy.max_expanded_bytes:
            raise MediaTooLarge(
                f"this {media_type} has {len(data):,} bytes, over "
                f"TransformPolicy.max_expanded_bytes={policy.max_expanded_bytes:,}",
                size=len(data),
                limit=policy.max_expanded_bytes,
                media_type=media_type,
            )
        return rtf_to_text(data, media_type, deadline)
    if media_type in _LEGACY or data.startswith(_OLE2):
        what = _LEGACY.get(media_type, "an encrypted Office package (an OLE2 compound file)")
        raise UnsupportedMediaType(
            f"this file is {what}, which mediaparts cannot read (no extra reads it); save it "
            "as .docx, .xlsx or .pptx without a password, or as PDF",
            media_type=media_type,
            accepted=tuple(sorted(OFFICE_TYPES)),
        )
    if media_type not in _LIBRARIES:
        raise UnsupportedMediaType(
            f"{media_type} cannot be turned into text: mediaparts reads .docx, .xlsx, .xlsm, "
            ".xltx, .pptx, .pptm and .rtf documents (save it as one of them, or as PDF)",
            media_type=media_type,
            accepted=tuple(sorted(OFFICE_TYPES)),
        )
    module_name, package_name, short, reader, reading = _LIBRARIES[media_type]
    module = require(
        module_name,
        package=package_name,
        extra="office",
        media_type=media_type,
        doing=f"turn {short} into text",
    )
    budget = TextBudget(len(data), policy.text_ratio, media_type)
    try:
        package = verified_package(data, media_type, policy, deadline, reading)
        text, cuts = _read(lambda: reader(module, package, deadline, budget), media_type)
    except MemoryError as exc:
        # Every budget here is meant to be met first; memory running out is the last line,
        # and still ours (a bare MemoryError would take a web app's worker down).
        raise MediaTooLarge(
            f"this {media_type} took more memory than this process has while being read; "
            "lower TransformPolicy.inflation_ratio or text_ratio",
            media_type=media_type,
        ) from exc
    return Converted("text/markdown", text=text, steps=(f"{short}→markdown", *cuts))


def _read(reader: Callable[[], tuple[str, list[str]]], media_type: str) -> tuple[str, list[str]]:
    """Run a library on a checked package; its errors on a malformed one become ours."""
    try:
        # openpyxl warns (UserWarning) where it drops what it does not support, such as the
        # data validation extension real Excel files carry; the text does not need it, and
        # under `-W error` the warning would fail the whole file.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return reader()
    except (MediaError, MemoryError):
        raise
    # python-docx, openpyxl and python-pptx raise many unrelated classes on a malformed part
    # (KeyError for a missing part, AttributeError for a missing element, lxml's and
    # expat's syntax errors, their own package errors), none of them a common base but this.
    except Exception as exc:
        raise InvalidMedia(
            f"this {media_type} could not be read: {_reason(exc)}", media_type=media_type
        ) from exc


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:160]
