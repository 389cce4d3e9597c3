"""Lone surrogates: text no UTF-8 encoder takes, found, refused or replaced by U+FFFD.

A lone surrogate is what Python makes of bytes that are not UTF-8 (os.fsdecode, PEP 383) or
of half a UTF-16 pair; a payload holding one fails to encode later, so it is caught here.
"""

from __future__ import annotations

import re

__all__ = ["SURROGATE", "clean_filename", "lone_surrogate", "utf8"]

# A lone surrogate is what Python makes of bytes that are not UTF-8 (os.fsdecode, PEP 383) or
# of a half of a UTF-16 pair; no UTF-8 encoder takes one, so JSON payloads would fail later.
SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> bool:
    """Whether `text` holds a lone surrogate: text that no UTF-8 encoder takes."""
    return SURROGATE.search(text) is not None


def utf8(text: str) -> bytes:
    """Encode text as UTF-8, each lone surrogate (from a `\ud800` JSON escape) as U+FFFD."""
    return SURROGATE.sub("\ufffd", text).encode("utf-8")


def clean_filename(name: str) -> str:
    """Return a file name with each lone surrogate replaced by U+FFFD.

    A file name is a hint (it is sent to some providers, never used to open anything), and a
    real file on disk may have a name that is not UTF-8; so it is cleaned rather than refused,
    the way `bytes.decode(errors="replace")` would have read it.
    """
    return SURROGATE.sub("\ufffd", name)
