"""Property tests: round trips hold, bad input only raises the library's errors, and every
spelling of an address is judged alike.

Arbitrary text, bytes, dicts, messages and payloads (Hypothesis) go to the entry points that
take them; hostile files are in test_hostile_bytes.py and test_bombs.py."""

from __future__ import annotations

import base64
import contextlib
import io
import ipaddress
import json
from typing import Any
from urllib.parse import quote_from_bytes

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mediaparts as mp
from mediaparts._sources import b64decode, b64encode, parse_data_uri
from mediaparts.fetching._policy import FetchPolicy, check_url
from tests.robustness._entry_points import PROVIDERS, TESTDATA

pytestmark = pytest.mark.slow  # property tests (Hypothesis)

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
    """mp.part(bytes) never fails on arbitrary non-empty bytes and survives to_dict through
    JSON; no bytes at all is InvalidMedia, 'empty (0 bytes)'."""
    fields = {"filename": filename} if filename else {}
    if not raw:
        with pytest.raises(mp.InvalidMedia, match=r"empty \(0 bytes\)"):
            mp.part(raw, **fields)
        return
    made = mp.part(raw, **fields)
    assert made.data == raw
    assert mp.part(json.loads(json.dumps(made.to_dict()))) == made


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


# ---------------------------------------------------------------------------- messages and dicts

# Values of many types, nested, for dicts that should be refused cleanly.
odd_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.text(max_size=20),  # 20, not 12: what the shorthand property drew before the merge
        st.binary(max_size=20),
        st.sampled_from([object(), io.BytesIO(b"x"), 1j]),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(st.one_of(st.text(max_size=8), st.integers()), children, max_size=3),
    ),
    max_leaves=8,
)
message_keys = st.sampled_from(
    ["role", "content", "parts", "tool_calls", "tool_call_id", "id", "name", "usage", "x"]
)
roles = st.sampled_from(["user", "assistant", "system", "tool", "human", "ai", 5, None])


@settings(max_examples=200)
@given(st.dictionaries(message_keys, st.one_of(odd_values, roles), max_size=5))
def test_message_from_dict_garbage_raises_media_error(value: dict[str, Any]) -> None:
    """Arbitrary message dicts make a message or raise a MediaError, nothing else."""
    with contextlib.suppress(mp.MediaError):
        mp.message_from_dict(value)


part_keys = st.sampled_from(
    ["path", "url", "data", "media_type", "filename", "detail", "metadata", "kind", "text", "x"]
)


@settings(max_examples=200)
@given(st.dictionaries(part_keys, odd_values))
def test_part_dict_garbage_raises_media_error(value: dict[str, Any]) -> None:
    """Arbitrary part dicts, unknown keys and odd values too, make a part or raise a MediaError."""
    with contextlib.suppress(mp.MediaError):
        mp.part(value)


@settings(max_examples=100)
@given(odd_values)
def test_user_content_garbage_raises_media_error(value: Any) -> None:
    """Arbitrary content for a User message makes one or raises a MediaError."""
    with contextlib.suppress(mp.MediaError):
        mp.User(value)


# ---------------------------------------------------------------------------- detection, check and render

names = st.one_of(
    st.none(),
    st.text(max_size=20),
    st.sampled_from(["a.png", "b.JPG", "c.tar.gz", ".mp3", "x.", "noext", "d.mp4", "e.txt"]),
)
declared = st.one_of(
    st.none(),
    st.text(max_size=30),
    st.sampled_from(
        ["image/png", "IMAGE/JPEG; charset=x", "audio/x-wav", "text/plain", "*/*", "image/", ""]
    ),
)
heads = st.one_of(
    st.binary(max_size=256),
    st.sampled_from(
        [
            b"\x89PNG\r\n\x1a\n",
            b"GIF89a",
            b"RIFF\x00\x00\x00\x00WEBP",
            b"\xff\xd8\xff",
            b"PK\x03\x04",
        ]
    ).flatmap(lambda head: st.binary(max_size=64).map(lambda tail: head + tail)),
)


@settings(max_examples=300)
@given(heads, names, declared)
def test_detect_any_input_raises_nothing_else(
    data: bytes, filename: str | None, hint: str | None
) -> None:
    """detect() on any bytes, file name and declared type answers or raises MediaError only."""
    with contextlib.suppress(mp.MediaError):
        found = mp.detect(data, filename=filename, declared=hint)
        assert found.media_type == mp.canonical_media_type(found.media_type)
        # Declaring its own answer changes nothing: the answer is a fixed point of detection.
        again = mp.detect(data, filename=filename, declared=found.media_type)
        assert again.media_type == found.media_type


@given(st.text(max_size=40))
def test_canonical_media_type_is_idempotent(text: str) -> None:
    """canonical_media_type maps its own answer to itself, and raises only MediaError."""
    with contextlib.suppress(mp.MediaError):
        once = mp.canonical_media_type(text)
        assert mp.canonical_media_type(once) == once


payload_keys = st.sampled_from(
    [
        "image", "source", "inlineData", "inline_data", "type", "image_url", "url", "data",
        "media_type", "mimeType", "mime_type", "bytes", "format", "document", "file",
        "input_audio", "role", "content", "parts", "messages", "contents", "text", "fileData",
        "fileUri", "base64", "file_data", "filename", "video", "audio", "system",
    ]
)  # fmt: skip
payload_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.text(max_size=16),
    st.binary(max_size=16),
    st.sampled_from(
        [
            "image",
            "image_url",
            "input_image",
            "document",
            "base64",
            "url",
            "user",
            "image/png",
            "data:image/png;base64,iVBORw0KGgo=",
            "https://example.com/a.png",
            "iVBORw0KGgo=",
        ]
    ),
)
payloads = st.recursive(
    payload_leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(payload_keys, children, max_size=4)
    ),
    max_leaves=16,
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(payloads, st.sampled_from(PROVIDERS))
def test_check_any_payload_returns_list(payload: Any, provider: str) -> None:
    """mp.check on arbitrary JSON-like payloads returns a list or raises MediaError only."""
    with mp.offline(), contextlib.suppress(mp.MediaError):
        assert isinstance(mp.check(payload, provider), list)


_PNG = (TESTDATA / "palette.png").read_bytes()
_WAV = (TESTDATA / "tone.wav").read_bytes()
_PDF = (TESTDATA / "document.pdf").read_bytes()
media_items = st.one_of(
    st.text(max_size=20),
    st.sampled_from([_PNG, _WAV, _PDF, b"", b"\x89PNG\r\n\x1a\n", b"%PDF-1.4"]),
    st.binary(max_size=64),
    st.builds(lambda d: {"data": d}, st.binary(max_size=32)),
    st.just({"url": "https://example.com/a.png"}),
)
message_makers = st.sampled_from([mp.User, mp.Assistant, mp.System])


@st.composite
def conversations(draw: st.DrawFn) -> list[Any]:
    """Draw a short list of messages with random text and media parts."""
    messages: list[Any] = []
    for _ in range(draw(st.integers(0, 4))):
        maker = draw(message_makers)
        items = draw(st.lists(media_items, max_size=3))
        with contextlib.suppress(mp.MediaError):
            if draw(st.booleans()):
                messages.append(maker(items))
            else:
                messages.append(maker(draw(st.text(max_size=10)), files=items))
    return messages


@settings(max_examples=150, deadline=None)
@given(conversations(), st.sampled_from(PROVIDERS))
def test_render_any_messages_raises_only_media_error(messages: list[Any], provider: str) -> None:
    """mp.render of random messages answers with a dict or raises MediaError only.

    What a provider cannot carry is dropped here (on_loss="drop"): the losses themselves are
    tested in tests/providers/test_render_loss.py.
    """
    with mp.offline(), contextlib.suppress(mp.MediaError):
        rendered = mp.render(messages, provider, on_loss="drop")
        assert isinstance(rendered, dict)
        json.dumps(rendered, default=str)
