"""describe and summarize: readable, stable descriptors of the media in a payload."""

from __future__ import annotations

import base64
import re

import pytest

from mediaparts.testing import describe, summarize


@pytest.mark.parametrize(
    ("size", "shown"),
    [
        (999, "999 B"),
        (1000, "1.0 KB"),
        (999_949, "999.9 KB"),
        (999_960, "1.0 MB"),  # what would round to "1000.0 KB" is shown in the next unit
        (2_000_000, "2.0 MB"),
    ],
)
def test_describe_sizes_in_decimal_units(size: int, shown: str) -> None:
    """Sizes are decimal units with one decimal place, rounding up into the next unit."""
    found = re.fullmatch(
        r"<application/octet-stream (.+) sha256:[0-9a-f]{6}>", describe(bytes(size))
    )
    assert found is not None and found[1] == shown


@pytest.mark.parametrize(
    "text",
    [
        "data:image/png;base64,!!!!",  # malformed: left for the reader to see
        "0123456789abcdef0123456789abcdef",  # a hex digest is not media
        base64.b64encode(b"hello, world; hi").decode(),  # short base64 of plain text
        "not base64 at all, but long enough",
    ],
)
def test_summarize_keeps_text_that_is_not_media(text: str) -> None:
    """Strings that do not hold media come back unchanged."""
    assert summarize({"a": [text]}) == {"a": [text]}
