"""Offline tokenizers: OpenAI's public encodings, through `bpe-openai` (the `[tokens]` extra).

`tiktoken` downloads its encodings at first use, so it cannot count offline; `bpe-openai`
ships `cl100k_base` and `o200k_base` inside its wheel, with a tiktoken-compatible API. It is
imported on the first count that needs it (never by `import mediaparts`), each encoding built
once and kept.
"""

from __future__ import annotations

import functools
import importlib
import warnings
from collections.abc import Callable
from typing import Any

from mediaparts._errors import excerpt

__all__ = [
    "CHUNK",
    "INSTALL",
    "PACKAGE",
    "count",
    "counter",
    "described",
    "encoder",
    "missing",
]

PACKAGE = "bpe_openai"
INSTALL = "pip install bpe-openai, or mediaparts' [tokens] extra"

# bpe-openai's `encode` refuses more than 200,000 tokens (and 1,000,000 characters) at once; a
# character is at most 4 UTF-8 bytes, so at most 4 tokens, and 50,000 characters stay within.
CHUNK = 50_000


@functools.cache
def encoder(name: str) -> Any | None:
    """Return the encoding `name` from bpe-openai, or None when it is not installed or lacks it."""
    with warnings.catch_warnings():
        # bpe-openai 0.1.4 reads its data (on import, and per encoding) with
        # importlib.resources.open_binary, deprecated since Python 3.11: its warning, not the
        # caller's to act on.
        warnings.simplefilter("ignore", DeprecationWarning)
        module = _package()
        if module is None or name not in module.list_encoding_names():
            return None
        return module.get_encoding(name)


def described(name: str) -> str:
    """Say what counted text with the encoding `name`, for a count's `how`."""
    return f"{name} tokenizer (bpe-openai)"


def missing(name: str) -> str:
    """Say why the encoding `name` is not available, and what to install."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        if _package() is None:
            return f"the {name} tokenizer needs bpe-openai ({INSTALL})"
    return f"bpe-openai has no encoding {excerpt(name)}"


def _package() -> Any | None:
    try:
        return importlib.import_module(PACKAGE)
    except ImportError:
        return None


def counter(encoding: Any) -> Callable[[str], tuple[int, bool]]:
    """Return `count` with `encoding`, its way of counting settled once (a count calls it per
    text): a text of at most CHUNK characters goes straight to the Rust tokenizer's `count`."""
    fast = _rust_count(encoding)

    def counted(text: str) -> tuple[int, bool]:
        if fast is not None and len(text) <= CHUNK:
            try:
                return fast(text), True
            except UnicodeEncodeError:
                pass  # a lone surrogate: counted as `encode_ordinary` reads it, below
        return count(encoding, text)

    return counted


def count(encoding: Any, text: str, *, chunk: int = CHUNK) -> tuple[int, bool]:
    """Return the tokens of `text` and whether the count is exact.

    Text longer than `chunk` characters is counted in pieces cut where the encodings'
    pre-tokenizer cuts anyway (before a letter that follows a newline, or a space that follows
    a visible character and precedes a letter), so the sum is the count of the whole. A piece
    with no such place in its second half is cut where it must be, and the count is then not
    exact.
    """
    tokens = _piece_counter(encoding)
    total = 0
    exact = True
    start = 0
    while len(text) - start > chunk:
        end = _boundary(text, start, chunk)
        if end is None:
            end, exact = start + chunk, False
        total += tokens(text[start:end])
        start = end
    return total + tokens(text[start:]), exact


def _rust_count(encoding: Any) -> Callable[[str], int] | None:
    """bpe-openai's Rust tokenizer's own `count`, or None for an encoding without it.

    bpe-openai's Encoding wraps that tokenizer (`_backend`, bpe-openai 0.1.4); its `count` is
    the length of `encode_ordinary` without making the list of tokens (about 1.6x faster on
    prose). It refuses text that UTF-8 cannot hold (a lone surrogate), which `encode_ordinary`
    replaces.
    """
    fast = getattr(getattr(encoding, "_backend", None), "count", None)
    return fast if callable(fast) else None


def _piece_counter(encoding: Any) -> Callable[[str], int]:
    """Return a function counting the tokens of a text of at most CHUNK characters.

    Special tokens' text (`<|endoftext|>`) in a prompt is ordinary text to the APIs, as
    `encode_ordinary` reads it (tiktoken's `encode(text, disallowed_special=())`).
    """

    def encoded(text: str) -> int:
        return len(encoding.encode_ordinary(text))

    fast = _rust_count(encoding)
    if fast is None:
        return encoded

    def counted(text: str) -> int:
        try:
            tokens: int = fast(text)
        except UnicodeEncodeError:
            return encoded(text)
        return tokens

    return counted


def _boundary(text: str, start: int, chunk: int) -> int | None:
    """Return the last place in the second half of the next piece where a pre-token starts."""
    for i in range(start + chunk, start + chunk // 2, -1):
        before, here = text[i - 1], text[i]
        if before == "\n" and here.isalpha():
            return i
        if here == " " and not before.isspace() and i + 1 < len(text) and text[i + 1].isalpha():
            return i
    return None
