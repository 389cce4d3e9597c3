"""Property tests: round trips hold, bad input only raises the library's errors, and every
spelling of an address is judged alike."""

from __future__ import annotations

import base64
import contextlib
import ipaddress
import json
from urllib.parse import quote_from_bytes

from hypothesis import given, settings
from hypothesis import strategies as st

import mediaparts as mp
from mediaparts._sources import b64decode, b64encode, parse_data_uri
from mediaparts.fetching._policy import FetchPolicy, check_url

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


def spellings(ip: ipaddress.IPv4Address) -> list[str]:
    """Return URL hosts that all reach `ip`: inet_aton forms and IPv6 embeddings of it."""
    value, octets = int(ip), ip.packed
    return [
        str(value),  # one decimal number
        hex(value),  # one hexadecimal number
        f"{octets[0]}.{value & 0xFFFFFF}",  # a.b: the last part fills three octets
        f"{ip}.",  # a trailing dot
        f"[::ffff:{ip}]",  # IPv4-mapped (RFC 4291)
        f"[::ffff:{value >> 16:x}:{value & 0xFFFF:x}]",  # the same, in hexadecimal
        f"[64:ff9b::{ip}]",  # NAT64 well-known prefix (RFC 6052)
    ]


def allowed(host: str, policy: FetchPolicy) -> bool:
    try:
        check_url(f"http://{host}/a.png", policy)
    except mp.BlockedURL:
        return False
    return True


@given(st.integers(0, 2**32 - 1).map(ipaddress.IPv4Address), st.booleans())
def test_check_url_judges_every_spelling_alike(ip: ipaddress.IPv4Address, private: bool) -> None:
    """An IPv4 address is allowed or refused alike in every spelling and IPv6 embedding."""
    policy = FetchPolicy(allow_private=private)
    verdict = allowed(str(ip), policy)
    assert {host: allowed(host, policy) for host in spellings(ip)} == dict.fromkeys(
        spellings(ip), verdict
    )
    # Zero-padded octal octets are refused as an invalid URL by httpx, never let through.
    assert not allowed(".".join(f"0{o:o}" for o in ip.packed), policy) or verdict
    if not private:  # what the tables say, cross-checked against Python's own view
        assert not verdict or ip.is_global, ip


@given(st.text(max_size=80))
def test_check_url_any_text_refused_or_allowed(text: str) -> None:
    """check_url on any text allows it or raises BlockedURL, nothing else."""
    for candidate in (text, "http://" + text, "https://" + text + "/x"):
        with contextlib.suppress(mp.BlockedURL):
            check_url(candidate, FetchPolicy())
