"""Bytes written as text: strict base64 and RFC 2397 `data:` URIs.

The lowest layer (beside `_errors` and `_surrogates`): detection, the fetch stack, the parts and
the providers all read inline bytes through these functions, so what counts as base64 or as a
data URI is decided here once.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_to_bytes

import pybase64

from mediaparts._errors import InvalidMedia, excerpt

__all__ = [
    "DataURI",
    "b64decode",
    "b64decode_prefix",
    "b64encode",
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
