"""Bytes written as text: strict base64 and RFC 2397 `data:` URIs.

The lowest layer (beside `_errors` and `_surrogates`): detection, the fetch stack, the parts and
the providers all read inline bytes through these functions, so what counts as base64 or as a
data URI is decided here once.
"""

from __future__ import annotations

import binascii
import functools
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias
from urllib.parse import unquote_to_bytes

import pybase64

from mediaparts._errors import InvalidMedia, excerpt

__all__ = [
    "DataURI",
    "b64decode",
    "b64decode_prefix",
    "b64encode",
    "data_uri",
    "is_data_uri",
    "parse_data_uri",
]

_WHITESPACE = re.compile(rb"\s+")
_NOT_BASE64 = re.compile(rb"[^A-Za-z0-9+/=]")


def b64encode(data: bytes | bytearray | memoryview) -> str:
    """Encode bytes as standard base64 text, without an intermediate bytes copy."""
    # b64encode_as_string builds the str directly: one output buffer instead of
    # `b64encode(...).decode()`'s two, which is what keeps peak memory near 1.33x the input.
    return pybase64.b64encode_as_string(data)


# Input bytes encoded per piece when a data URI is written in place: a multiple of 3, so the
# pieces' base64 joins without padding; 1 MiB of text, small beside the URIs worth it.
_PIECE = 3 * 2**18


def data_uri(media_type: str, data: bytes) -> str:
    """Return the RFC 2397 URI `data:<media_type>;base64,<base64 of data>`.

    Its text is written once: on CPython, a URI of more than one piece is written piece by
    piece into the string returned (peak memory about 1.33x the input, as for `b64encode`),
    where `prefix + b64encode(data)` would hold the base64 twice (about 2.67x).
    """
    prefix = f"data:{media_type};base64,"
    if len(data) > _PIECE:
        written = written_in_place(prefix, data)
        if written is not None:
            return written
    return prefix + b64encode(data)


def written_in_place(prefix: str, data: bytes, *, piece: int = _PIECE) -> str | None:
    """Return `prefix` then the base64 of `data`, written into one new string; None when
    `prefix` is not ASCII or CPython's string API is not at hand (the caller concatenates).

    `piece` (a multiple of 3) is how many bytes are encoded at a time.
    """
    if piece <= 0 or piece % 3:
        raise ValueError(f"piece must be a positive multiple of 3, got {piece}")
    api = _string_api()
    if api is None or not prefix.isascii():
        return None
    return _write(api, prefix, data, piece)


# PyUnicode_New, PyUnicode_AsUTF8AndSize (the address of a string's characters), memmove.
_StringAPI: TypeAlias = tuple[Callable[[int, int], str], Callable[[str, None], int], Any]


def _write(api: _StringAPI, prefix: str, data: bytes, piece: int) -> str | None:
    new, address_of, memmove = api
    size = len(prefix) + (len(data) + 2) // 3 * 4
    if not size:
        return ""  # PyUnicode_New(0) is the shared empty string: never written
    # A new compact ASCII string whose characters are not set yet; only this frame holds it.
    out = new(size, 127)
    at = address_of(out, None)
    end = at + size
    memmove(at, prefix.encode("ascii"), len(prefix))
    at += len(prefix)
    view = memoryview(data)
    for start in range(0, len(data), piece):
        text = pybase64.b64encode(view[start : start + piece])
        if at + len(text) > end:  # never past its end, whatever the encoder returned
            return None
        memmove(at, text, len(text))
        at += len(text)
        del text  # else it is still held while the next piece's text is made
    return out if at == end else None


@functools.cache
def _string_api() -> _StringAPI | None:
    """CPython's `PyUnicode_New` and `PyUnicode_AsUTF8AndSize` through ctypes, with `memmove`;
    None on another implementation, without ctypes, or when a trial comes out wrong.

    A string made by `PyUnicode_New(size, 127)` is compact ASCII: its characters follow its
    header, and `PyUnicode_AsUTF8AndSize` returns their address. Until it is returned nothing
    else holds it, so setting them is filling a new string, as C extensions do.
    """
    if sys.implementation.name != "cpython":
        return None
    try:
        import ctypes
    except ImportError:  # a build without ctypes
        return None
    # Prototypes of our own (PYFUNCTYPE: called holding the GIL, a MemoryError passed on), so
    # the argtypes of `ctypes.pythonapi`'s shared function objects stay as others set them.
    new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_ssize_t, ctypes.c_uint32)(
        ("PyUnicode_New", ctypes.pythonapi)
    )
    address_of = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_void_p)(
        ("PyUnicode_AsUTF8AndSize", ctypes.pythonapi)
    )
    api: _StringAPI = (new, address_of, ctypes.memmove)
    trial = bytes(range(256)) * 3
    if _write(api, "data:;base64,", trial, 6) != "data:;base64," + b64encode(trial):
        return None
    return api


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
            f"{what} is not valid base64: it contains {excerpt(bad)} at position {exc.start}; "
            "pass raw bytes with from_bytes(), or a path with from_path()"
        ) from exc
    except (ValueError, binascii.Error) as exc:
        preview = text[:40] if isinstance(text, str) else text[:40].decode("ascii", "replace")
        raise InvalidMedia(
            f"{what} is not valid base64 ({exc}); it starts {excerpt(preview)}. Pass raw bytes "
            "with from_bytes(), a data URI with from_data_uri(), or a path with from_path()"
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


def is_data_uri(text: Any) -> bool:
    """Tell whether a value is text that starts as a `data:` URI (the scheme is case-blind)."""
    return isinstance(text, str) and text[:5].lower() == "data:"


def parse_data_uri(uri: str) -> DataURI:
    """Parse an RFC 2397 data URI, base64 or percent-encoded.

    Raises:
        InvalidMedia: The text is not a well-formed data URI, or its base64 is bad.
    """
    if not is_data_uri(uri):
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
        raise InvalidMedia(f"malformed data URI: {excerpt(media_type)} is not a media type")
    parameters: dict[str, str] = {}
    for field in fields[1:]:
        key, eq, value = field.partition("=")
        if not eq or not key:
            raise InvalidMedia(
                f"malformed data URI: parameter {excerpt(field)} is not 'name=value'"
            )
        parameters[key.strip().lower()] = value.strip()
    if is_base64:
        # Some writers percent-encode the base64 text itself (e.g. '%2B' for '+').
        if "%" in payload:
            payload = _unquote(payload).decode("ascii", "replace")
        data = b64decode(payload, what="the data URI's payload")
    else:
        data = _unquote(payload)
    return DataURI(media_type=media_type, data=data, parameters=parameters)


def _unquote(payload: str) -> bytes:
    """Percent-decode a data URI's payload; a lone surrogate in it is InvalidMedia."""
    try:
        return unquote_to_bytes(payload)
    except UnicodeEncodeError as exc:  # a lone surrogate: text no URI can carry
        raise InvalidMedia(
            f"malformed data URI: its data holds {exc.object[exc.start : exc.end]!r}, which "
            "cannot be encoded as UTF-8"
        ) from exc
