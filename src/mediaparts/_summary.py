"""Readable summaries of rendered payloads: media replaced by a one-line descriptor.

Used by the CLI (`mediaparts render --summary`) and re-exported by the testing toolkit
(`mediaparts.testing.summarize`, for golden files); it sits below both so that the CLI does
not depend on the test toolkit.
"""

from __future__ import annotations

import base64
import binascii
import copy
import hashlib
import re
from typing import Any

from mediaparts._sources import is_data_uri, parse_data_uri
from mediaparts.detection import detect
from mediaparts.imaging import image_size

__all__ = ["describe", "descriptor", "human_size", "summarize"]

_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
_HEX = re.compile(r"[0-9A-Fa-f]+")
# Base64 text this long is media, whatever its bytes turn out to be; shorter text is only
# taken for media when its bytes carry a known signature (a 1x1 GIF is 60 characters).
_ALWAYS = 64
_SHORTEST = 16


def describe(data: bytes) -> str:
    """Return a one-line descriptor of media bytes, as `summarize` writes it.

    Args:
        data: The bytes.

    Returns:
        `<image/png 640x480 12.3 KB sha256:1a2b3c>`: the type detected from the bytes, the
        pixel size for images (as stored, before any EXIF orientation), the size, and the
        first six hex digits of the SHA-256.
    """
    media_type = detect(data).media_type
    size = image_size(data, media_type) if media_type.startswith("image/") else None
    return descriptor(media_type, data, size)


def descriptor(media_type: str, data: bytes, pixels: tuple[int, int] | None, *extra: str) -> str:
    """Return `describe`'s descriptor of bytes whose type and pixel size are known, with
    `extra` words before the closing bracket (`<image/png 64x48 1.2 KB sha256:1a2b3c a.png>`)."""
    dims = f" {pixels[0]}x{pixels[1]}" if pixels else ""
    digest = hashlib.sha256(data).hexdigest()[:6]
    words = "".join(f" {word}" for word in extra)
    return f"<{media_type}{dims} {human_size(len(data))} sha256:{digest}{words}>"


def human_size(size: int) -> str:
    """Return a byte count as `describe` writes it: `812 B`, `12.3 KB`, `4.0 MB`."""
    # Decimal units, one decimal place: readable, and stable in golden files.
    if size < 1000:
        return f"{size} B"
    value = size / 1000
    for unit in ("KB", "MB"):
        if value < 999.95:  # what would round to "1000.0" is shown in the next unit
            return f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} GB"


def _media_bytes(text: str) -> bytes | None:
    """Return the bytes a string holds as base64 when it looks like media, else None."""
    if len(text) < _SHORTEST or len(text) % 4 or not _BASE64.fullmatch(text):
        return None
    if _HEX.fullmatch(text):  # a hex digest or ID; real base64 this long is never all hex
        return None
    try:
        data = base64.b64decode(text, validate=True)
    except binascii.Error:
        return None
    if len(text) >= _ALWAYS or detect(data).source == "magic":
        return data
    return None


def _summarize_text(text: str) -> str:
    if is_data_uri(text) and ";base64," in text[:200].lower():
        try:
            uri = parse_data_uri(text)
        except ValueError:  # InvalidMedia: leave a malformed URI for the reader to see
            return text
        return f"data:{uri.media_type};base64,{describe(uri.data)}"
    data = _media_bytes(text)
    return describe(data) if data is not None else text


def summarize(payload: Any) -> Any:
    """Return a deep copy of a payload with every piece of media replaced by a descriptor.

    Base64 strings (OpenAI, Anthropic, Gemini), base64 data URIs (whose prefix is kept:
    `data:image/png;base64,<image/png 64x48 1.2 KB sha256:1a2b3c>`) and raw bytes (Bedrock)
    are replaced anywhere in the payload, so a golden file of the result stays readable and
    shows the media's real type and size. Other values are copied unchanged.

    Args:
        payload: A rendered payload, or any structure of dicts, lists and tuples.

    Returns:
        The copy; lists and tuples keep their type, dicts their key order.
    """
    if isinstance(payload, bytes | bytearray | memoryview):
        return describe(bytes(payload))
    if isinstance(payload, str):
        return _summarize_text(payload)
    if isinstance(payload, dict):
        return {key: summarize(value) for key, value in payload.items()}
    if isinstance(payload, list):
        return [summarize(item) for item in payload]
    if isinstance(payload, tuple):
        return tuple(summarize(item) for item in payload)
    return copy.deepcopy(payload)
