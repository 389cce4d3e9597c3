"""Readable summaries of rendered payloads: media replaced by its one-line descriptor.

Used by the CLI (`mediaparts render --summary`) and re-exported by the testing toolkit
(`mediaparts.testing.summarize`, for golden files); it sits below both so that the CLI does
not depend on the test toolkit. The descriptors are `_descriptors`', as `mp.show` prints them.
"""

from __future__ import annotations

import base64
import binascii
import copy
import re
from typing import Any

from mediaparts._conversation._descriptors import describe
from mediaparts._sources import is_data_uri, parse_data_uri
from mediaparts.detection import detect

__all__ = ["summarize"]

_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
_HEX = re.compile(r"[0-9A-Fa-f]+")
# Base64 text this long is media, whatever its bytes turn out to be; shorter text is only
# taken for media when its bytes carry a known signature (a 1x1 GIF is 60 characters).
_ALWAYS = 64
_SHORTEST = 16


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
