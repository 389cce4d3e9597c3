"""Property tests: round trips hold and bad input only ever raises the library's errors."""

from __future__ import annotations

import base64
import contextlib
import json
from urllib.parse import quote_from_bytes

from hypothesis import given, settings
from hypothesis import strategies as st

import mediaparts as mp
from mediaparts._sources import b64decode, b64encode, parse_data_uri

blobs = st.binary(max_size=2048)


@given(blobs)
def test_base64_round_trip(raw: bytes) -> None:
    """Decoding what we encode gives the bytes back, in both alphabets."""
    assert b64decode(b64encode(raw)) == raw
    assert b64decode(base64.urlsafe_b64encode(raw).decode()) == raw


@given(st.text(max_size=200))
def test_base64_garbage_raises_invalid_media(text: str) -> None:
    """Arbitrary text either decodes or raises InvalidMedia, nothing else."""
    with contextlib.suppress(mp.InvalidMedia):
        b64decode(text)


@given(blobs, st.sampled_from(["image/png", "text/plain", "application/octet-stream"]))
def test_data_uri_round_trip(raw: bytes, media_type: str) -> None:
    """Base64 and percent-encoded data URIs carry the bytes exactly."""
    assert parse_data_uri(f"data:{media_type};base64,{b64encode(raw)}").data == raw
    assert parse_data_uri(f"data:{media_type},{quote_from_bytes(raw)}").data == raw


@given(st.text(max_size=300))
def test_data_uri_garbage_raises_invalid_media(text: str) -> None:
    """Any text given as a data URI parses or raises InvalidMedia."""
    for candidate in (text, "data:" + text):
        with contextlib.suppress(mp.InvalidMedia):
            parse_data_uri(candidate)


@settings(max_examples=60)
@given(blobs, st.one_of(st.none(), st.sampled_from(["a.png", "b.txt", "c", "d.mp4"])))
def test_part_from_any_bytes_round_trips(raw: bytes, filename: str | None) -> None:
    """mp.part(bytes) never fails on arbitrary bytes and survives to_dict through JSON."""
    made = mp.part(raw, **({"filename": filename} if filename else {}))
    assert made.data == raw
    assert mp.part(json.loads(json.dumps(made.to_dict()))) == made


@settings(max_examples=60)
@given(
    st.dictionaries(
        st.sampled_from(["path", "url", "data", "media_type", "kind", "x", "detail"]),
        st.one_of(st.text(max_size=20), st.binary(max_size=20), st.none()),
    )
)
def test_shorthand_garbage_raises_media_error(value: dict[str, object]) -> None:
    """Arbitrary shorthand dicts make a part or raise a MediaError, nothing else."""
    with contextlib.suppress(mp.MediaError):
        mp.part(value)
