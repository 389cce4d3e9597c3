"""Turn what a caller hands us (base64 text, data URIs, paths, file objects) into bytes.

Everything here is strict about malformed input and raises `InvalidMedia` naming the problem,
and nothing here mutates or closes what the caller passed. Base64 and data URIs are read by
`_inline`, paths by `_paths` (both in the lowest layer, so detection shares them); this module
adds what needs the fetch stack or reads file objects, and re-exports the rest for the parts.
"""

from __future__ import annotations

from typing import IO, Any

from mediaparts._errors import BlockedPath, InvalidMedia, MediaTooLarge, empty_media, excerpt
from mediaparts._inline import (
    DataURI,
    b64decode,
    b64decode_prefix,
    b64encode,
    is_data_uri,
    parse_data_uri,
)
from mediaparts._paths import (
    UNSIZED_CAP,
    filename_of,
    is_str_path,
    open_path,
    path_reader,
    read_path,
    read_some,
    untrusted,
    untrusted_paths,
)
from mediaparts.fetching import redact

__all__ = [
    "C0_AND_SPACE",
    "UNSIZED_CAP",
    "DataURI",
    "b64decode",
    "b64decode_prefix",
    "b64encode",
    "check_url_source",
    "empty_media",
    "filename_of",
    "is_data_uri",
    "is_str_path",
    "open_path",
    "parse_data_uri",
    "read_file_object",
    "read_path",
    "require_bytes",
    "untrusted",
    "untrusted_paths",
]


def require_bytes(raw: bytes, filename: str | None = None) -> bytes:
    """Return `raw`, or raise `empty_media` naming the file (or "the data") when it is empty."""
    if not raw:
        raise empty_media(excerpt(filename, ends=True) if filename else "the data")
    return raw


# What URL parsers strip from both ends of a URL before reading it (WHATWG URL, "C0 control
# or space"), so " file:///etc/passwd" is still a file: URL.
C0_AND_SPACE = "".join(map(chr, range(0x21)))


def check_url_source(url: str) -> None:
    """Refuse a `file:` URL made under the untrusted-input policy: it names a local file.

    The fetch policy would refuse it too, but only when the part is loaded; an untrusted
    reader says no while it reads, as it does for a path.

    Raises:
        BlockedPath: A path policy is in force and `url` is a `file:` URL.
    """
    reader = path_reader()
    if reader is not None and url.lstrip(C0_AND_SPACE)[:5].lower() == "file:":
        shown = redact(url)[:200]
        raise BlockedPath(
            f"refusing the file: URL {excerpt(shown, ends=True)}: {reader} reads untrusted input, "
            "which may not name files on this machine",
            path=shown,
        )


def read_file_object(fileobj: IO[bytes] | Any, *, max_bytes: int | None = None) -> bytes:
    """Read the rest of a binary file object, at most `max_bytes` (+1 to notice excess).

    The object is not closed. When it is seekable, its position is put back afterwards, so
    the caller can read it again.

    Raises:
        InvalidMedia: The object is not a readable binary file.
        MediaTooLarge: It holds more than `max_bytes` bytes.
    """
    read = getattr(fileobj, "read", None)
    if not callable(read):
        raise InvalidMedia(f"expected a binary file object with read(), got {type(fileobj)!r}")
    position: int | None = None
    try:
        if fileobj.seekable():
            position = fileobj.tell()
    except (AttributeError, OSError, ValueError):
        position = None
    try:
        return _read_capped(fileobj, max_bytes, getattr(fileobj, "name", None) or "the upload")
    finally:
        if position is not None:
            fileobj.seek(position)


def _read_capped(f: Any, max_bytes: int | None, name: str) -> bytes:
    data = read_some(f, max_bytes, name)
    if max_bytes is not None and len(data) > max_bytes:
        raise MediaTooLarge(
            f"{name} holds more than the limit of {max_bytes:,} bytes",
            size=len(data),
            limit=max_bytes,
        )
    return data
