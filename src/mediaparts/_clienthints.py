"""What a web client says about its upload, made safe: its file name and its content type.

Both are hints (docs/uploads.md, "What is trusted"): they may end up in a part's `filename`, in
`metadata`, in error messages, logs and JSON payloads, so they are made printable, encodable
as UTF-8 and bounded before anything else reads them, and read only as far as that needs.
"""

from __future__ import annotations

import unicodedata
from typing import Any

__all__ = ["declared_type", "given_name", "printable", "safe_filename"]

# The client's name and type are read only this far (the name from its end, where its final
# component is), so a header of megabytes costs no more than a short one.
_HINT_CHARS = 4096
_CLIENT_NAME_CHARS = 1024  # kept in metadata, for logs
_CLIENT_TYPE_CHARS = 255  # a media type's type and subtype are at most 127 each (RFC 6838)
_FILENAME_BYTES = 255  # the most common file system limit on one name (ext4, APFS, NTFS)
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})  # see printable


def declared_type(upload: Any) -> str:
    """Return the content type the client declared, without parameters, printable, bounded."""
    mimetype = getattr(upload, "mimetype", None)  # Werkzeug: the type without parameters
    declared = mimetype if isinstance(mimetype, str) else getattr(upload, "content_type", None)
    if not isinstance(declared, str):
        return ""
    bare = declared[:_HINT_CHARS].split(";")[0]
    return printable(bare).strip().lower()[:_CLIENT_TYPE_CHARS]


def given_name(upload: Any) -> str | None:
    """Return the file name the client sent, printable and bounded (its end, with the extension)."""
    # Werkzeug's FileStorage also has `.name`, the form field's name, so `.filename` (Starlette,
    # Werkzeug) rules wherever it exists, even when None; `.name` is Django's and a file's.
    raw = getattr(upload, "filename" if hasattr(upload, "filename") else "name", None)
    if not isinstance(raw, str):
        return None
    return printable(raw[-_HINT_CHARS:])[-_CLIENT_NAME_CHARS:]


def printable(text: str) -> str:
    """Drop what cannot be shown or encoded: every "Other" character and line separators.

    Cc: control characters (NUL, newlines, ESC); Cf: invisible format characters such as
    U+202E, which displays "gpj.exe" as "exe.jpg"; Cs: lone surrogates (what `surrogateescape`
    makes of bytes that are not UTF-8, or a JSON `"\\ud800"`), which fail every UTF-8 encode
    later (JSON bodies, logs); Co, Cn: private and unassigned code points; Zl, Zp: U+2028 and
    U+2029, line breaks in disguise.
    """
    return "".join(c for c in text if unicodedata.category(c) not in _HIDDEN)


def safe_filename(name: str | None) -> str | None:
    """Keep only the final path component (browsers once sent whole Windows paths), bounded.

    The bound is in UTF-8 bytes, taken from the end so that the extension stays.
    """
    if name is None:
        return None
    base = name.replace("\\", "/").rsplit("/", 1)[-1].strip()
    if len(base.encode()) > _FILENAME_BYTES:
        base = base.encode()[-_FILENAME_BYTES:].decode("utf-8", "ignore").strip()
    return None if base in ("", ".", "..") else base
