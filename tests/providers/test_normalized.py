"""NormalizedPart's derived views: sizes and encodings of what is sent inline."""

from __future__ import annotations

import pytest

from mediaparts.providers import NormalizedPart


@pytest.mark.parametrize(
    ("sent", "size"),
    [
        (NormalizedPart("image", "image/png", data=b"\x89PNG"), 4),
        (NormalizedPart("file", "text/plain", text="h\u00e9"), 3),  # UTF-8 bytes, not characters
        (NormalizedPart("image", "image/png", url="https://example.com/a.png"), None),
    ],
)
def test_normalized_byte_size_counts_what_is_inline(sent: NormalizedPart, size: int | None) -> None:
    """byte_size is the inline bytes, the UTF-8 size of text, and None for a URL."""
    assert sent.byte_size == size


def test_normalized_encodings_are_none_without_inline_bytes() -> None:
    """A URL or text part has no base64 and no data URI; inline bytes have both."""
    url = NormalizedPart("image", "image/png", url="https://example.com/a.png")
    text = NormalizedPart("file", "text/csv", text="a,b\n")
    assert (url.base64, url.data_uri, text.base64, text.data_uri) == (None, None, None, None)
    inline = NormalizedPart("image", "image/png", data=b"abc")
    assert (inline.base64, inline.data_uri) == ("YWJj", "data:image/png;base64,YWJj")


def test_normalized_data_uri_of_large_bytes_is_header_and_base64() -> None:
    """A large inline part (written in place on CPython) gives the same URI as concatenation."""
    data = bytes(range(256)) * 5000  # 1.2 MiB: more than one piece
    inline = NormalizedPart("image", "image/png", data=data)
    assert inline.data_uri == f"data:image/png;base64,{inline.base64}"
