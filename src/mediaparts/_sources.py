"""Turn what a caller hands us (base64 text, data URIs, paths, file objects) into bytes.

Everything here is strict about malformed input and raises `InvalidMedia` naming the problem,
and nothing here mutates or closes what the caller passed.
"""

from __future__ import annotations

import binascii
import contextlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO
from urllib.parse import unquote_to_bytes

import pybase64

from mediaparts._errors import InvalidMedia, MediaTooLarge

__all__ = [
    "DataURI",
    "b64decode",
    "b64decode_prefix",
    "b64encode",
    "filename_of",
    "open_path",
    "parse_data_uri",
    "read_file_object",
    "read_path",
]

_WHITESPACE = re.compile(rb"\s+")
_NOT_BASE64 = re.compile(rb"[^A-Za-z0-9+/=]")


def b64encode(data: bytes | bytearray | memoryview) -> str:
    """Encode bytes as standard base64 text, without an intermediate bytes copy."""
    # b64encode_as_string builds the str directly: one output buffer instead of
    # `b64encode(...).decode()`'s two, which is what keeps peak memory near 1.33x the input.
    return pybase64.b64encode_as_string(data)


def _clean_base64(text: str | bytes) -> bytes:
    raw = text.encode("ascii", "strict") if isinstance(text, str) else bytes(text)
    if any(c in raw for c in b" \t\r\n\x0b\x0c"):
        raw = _WHITESPACE.sub(b"", raw)
    if b"-" in raw or b"_" in raw:  # the URL-safe alphabet (RFC 4648 section 5)
        raw = raw.replace(b"-", b"+").replace(b"_", b"/")
    missing = -len(raw) % 4
    if missing == 3:
        stray = _NOT_BASE64.search(raw)
        if stray is not None:
            raise ValueError(f"it contains {stray.group()!r} at position {stray.start()}")
        raise ValueError("its length is not a whole number of base64 quanta")
    return raw + b"=" * missing if missing else raw


def b64decode(text: str | bytes, *, what: str = "data") -> bytes:
    """Decode base64 text strictly.

    Accepts the standard and URL-safe alphabets, embedded line breaks (MIME style) and
    missing padding; rejects anything else.

    Args:
        text: The base64 text.
        what: How to name the input in an error message.

    Returns:
        The decoded bytes.

    Raises:
        InvalidMedia: The text is not valid base64.
    """
    try:
        cleaned = _clean_base64(text)
        return pybase64.b64decode(cleaned, validate=True)
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start : exc.start + 1]
        raise InvalidMedia(
            f"{what} is not valid base64: it contains {bad!r} at position {exc.start}; "
            "pass raw bytes with from_bytes(), or a path with from_path()"
        ) from exc
    except (ValueError, binascii.Error) as exc:
        preview = text[:40] if isinstance(text, str) else text[:40].decode("ascii", "replace")
        raise InvalidMedia(
            f"{what} is not valid base64 ({exc}); it starts {preview!r}. Pass raw bytes with "
            "from_bytes(), a data URI with from_data_uri(), or a path with from_path()"
        ) from exc


def b64decode_prefix(text: str | bytes, n_bytes: int) -> bytes:
    """Decode only enough of some base64 text to get about `n_bytes` bytes.

    Used to detect the type of a large base64 payload before decoding all of it. Errors in
    the prefix raise `InvalidMedia` just as a full decode would.
    """
    n_chars = (n_bytes + 2) // 3 * 4
    head = text[: n_chars + n_chars // 64 + 8]  # room for line breaks
    raw = head.encode("ascii", "replace") if isinstance(head, str) else bytes(head)
    raw = _WHITESPACE.sub(b"", raw)[:n_chars]
    if len(raw) < n_chars:  # the whole text is short: decode it all, with full validation
        return b64decode(text)
    return b64decode(raw)


@dataclass(frozen=True, slots=True)
class DataURI:
    """The parts of an RFC 2397 `data:` URI."""

    media_type: str | None
    data: bytes
    parameters: dict[str, str]


def parse_data_uri(uri: str) -> DataURI:
    """Parse an RFC 2397 data URI, base64 or percent-encoded.

    Raises:
        InvalidMedia: The text is not a well-formed data URI, or its base64 is bad.
    """
    if not isinstance(uri, str) or uri[:5].lower() != "data:":
        start = repr(uri[:30]) if isinstance(uri, str) else type(uri).__name__
        raise InvalidMedia(f"not a data URI: expected text starting 'data:', got {start}")
    header, sep, payload = uri[5:].partition(",")
    if not sep:
        raise InvalidMedia(
            "malformed data URI: no ',' separates the header from the data "
            "(expected 'data:<media type>[;base64],<data>')"
        )
    fields = [f.strip() for f in header.split(";")]
    is_base64 = len(fields) > 1 and fields[-1].lower() == "base64"
    if is_base64:
        fields.pop()
    media_type = fields[0].lower() or None
    if media_type is not None and "/" not in media_type:
        raise InvalidMedia(f"malformed data URI: {media_type!r} is not a media type")
    parameters: dict[str, str] = {}
    for field in fields[1:]:
        key, eq, value = field.partition("=")
        if not eq or not key:
            raise InvalidMedia(f"malformed data URI: parameter {field!r} is not 'name=value'")
        parameters[key.strip().lower()] = value.strip()
    if is_base64:
        # Some writers percent-encode the base64 text itself (e.g. '%2B' for '+').
        if "%" in payload:
            payload = unquote_to_bytes(payload).decode("ascii", "replace")
        data = b64decode(payload, what="the data URI's payload")
    else:
        data = unquote_to_bytes(payload)
    return DataURI(media_type=media_type, data=data, parameters=parameters)


def filename_of(path: str | os.PathLike[str]) -> str:
    """Return the final component of a path, as a file name to keep on a part."""
    return Path(path).name


@contextlib.contextmanager
def open_path(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """Open a file for reading bytes, turning a missing or unreadable path into InvalidMedia.

    Raises:
        InvalidMedia: There is no file at the path, it is a directory, or it cannot be read.
    """
    if not isinstance(path, str | os.PathLike) or isinstance(os.fspath(path), bytes):
        raise InvalidMedia(f"a path must be a str or os.PathLike of str, got {type(path).__name__}")
    shown = os.fspath(path)
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed below; the open itself is what may fail
    except FileNotFoundError as exc:
        hint = ""
        if not Path(shown).suffix or " " in str(shown):
            hint = " (text for the model goes in a message or mp.TextPart, not a path)"
        raise InvalidMedia(f"no file at {shown!r}{hint}") from exc
    except IsADirectoryError as exc:
        raise InvalidMedia(f"{shown!r} is a directory, not a file") from exc
    except OSError as exc:
        raise InvalidMedia(f"cannot read {shown!r}: {exc.strerror or exc}") from exc
    except ValueError as exc:  # e.g. an embedded NUL character
        raise InvalidMedia(f"{shown!r} is not a usable path: {exc}") from exc
    with f:
        yield f


def read_path(path: str | os.PathLike[str], *, max_bytes: int | None = None) -> bytes:
    """Read a whole file, refusing it before reading when it is larger than `max_bytes`.

    Raises:
        InvalidMedia: There is no readable file at the path.
        MediaTooLarge: The file is larger than `max_bytes`.
    """
    with open_path(path) as f:
        if max_bytes is not None:
            size = os.fstat(f.fileno()).st_size
            if size > max_bytes:
                raise MediaTooLarge(
                    f"{os.fspath(path)} is {size:,} bytes, over the limit of {max_bytes:,}",
                    size=size,
                    limit=max_bytes,
                )
        return _read_capped(f, max_bytes, os.fspath(path))


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
    try:
        data = f.read() if max_bytes is None else f.read(max_bytes + 1)
    except (OSError, ValueError) as exc:  # a closed file, a broken pipe, a failing disk
        raise InvalidMedia(f"cannot read {name}: {exc}") from exc
    if isinstance(data, str):
        raise InvalidMedia(f"{name} was opened in text mode; open it with 'rb' for bytes")
    if not isinstance(data, bytes | bytearray | memoryview):
        raise InvalidMedia(f"{name}.read() returned {type(data).__name__}, not bytes")
    if max_bytes is not None and len(data) > max_bytes:
        raise MediaTooLarge(
            f"{name} holds more than the limit of {max_bytes:,} bytes",
            size=len(data),
            limit=max_bytes,
        )
    return bytes(data)
