"""Odd and hostile input at every public entry point gives a library error, never a crash."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from pytest_httpx import HTTPXMock

import mediaparts as mp

# Values of many types, nested, for dicts that should be refused cleanly.
odd_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.text(max_size=12),
        st.binary(max_size=12),
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


@settings(max_examples=200)
@given(
    st.dictionaries(
        st.sampled_from(
            ["path", "url", "data", "media_type", "filename", "detail", "metadata", "kind", "text"]
        ),
        odd_values,
        max_size=4,
    )
)
def test_part_dict_garbage_raises_media_error(value: dict[str, Any]) -> None:
    """Arbitrary part dicts with odd value types make a part or raise a MediaError."""
    with contextlib.suppress(mp.MediaError):
        mp.part(value)


@settings(max_examples=100)
@given(odd_values)
def test_user_content_garbage_raises_media_error(value: Any) -> None:
    """Arbitrary content for a User message makes one or raises a MediaError."""
    with contextlib.suppress(mp.MediaError):
        mp.User(value)


def test_single_sources_are_one_part(testdata: Path) -> None:
    """A file object, memoryview or bytearray as content or files= is one part, not many."""
    png = (testdata / "alpha.png").read_bytes()
    with (testdata / "alpha.png").open("rb") as f:
        assert len(mp.User(f).files) == 1
    assert len(mp.User("x", files=io.BytesIO(png)).files) == 1
    assert len(mp.User(memoryview(png)).files) == 1
    assert len(mp.User("x", files=bytearray(png)).files) == 1
    # One source alone is taken for files=[source]; the signature names the usual iterable.
    one = testdata / "alpha.png"
    assert mp.User("x", files=one).files[0].media_type == "image/png"  # type: ignore[arg-type]


def test_from_path_honours_hints(tmp_path: Path) -> None:
    """A path whose bytes are unrecognised takes the declared type or the given name's."""
    blob = tmp_path / "blob"
    blob.write_bytes(b"\x00\x01\x02 opaque")
    assert mp.part(blob, media_type="application/x-thing").media_type == "application/x-thing"
    assert mp.FilePart.from_path(blob, filename="x.bin").filename == "x.bin"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: mp.ImagePart.from_path(None), "str or Path"),  # type: ignore[arg-type]
        (lambda: mp.ImagePart.from_path(b"x.png"), "str or Path"),  # type: ignore[arg-type]
        (lambda: mp.part("a\x00b.png"), "not a usable path"),
        (lambda: mp.FilePart.from_path("README.md", max_bytes="10"), "whole number"),  # type: ignore[arg-type]
        (lambda: mp.ImagePart.from_base64("AAAA", filename=5), "filename must be a string"),  # type: ignore[arg-type]
        (lambda: mp.ImagePart.from_url("https://x/y", filename=5), "filename must be a string"),  # type: ignore[arg-type]
        (lambda: mp.ImagePart.from_pil(Image.new("RGB", (2, 2)), format=5), "format"),  # type: ignore[arg-type]
        (lambda: mp.ImagePart.from_pil(Image.new("RGB", (2, 2)), data=b""), "sets data itself"),
        (lambda: mp.FilePart.from_file(io.BytesIO(b"x"), data=b""), "sets data itself"),
        (lambda: mp.part(b"abc", metadata={"x": object()}), "JSON data"),
        (lambda: mp.part({"path": "x.png", 1: 2}), "keys must be strings"),
        (lambda: mp.detect(b"x", filename=5), "filename must be a string"),  # type: ignore[arg-type]
        (lambda: mp.detect(b"x", declared=5), "declared"),  # type: ignore[arg-type]
        (lambda: mp.canonical_media_type(5), "must be a string"),  # type: ignore[arg-type]
        (lambda: mp.ToolCall(id="a", name="b", arguments={"a": object()}), "JSON data"),
        (lambda: mp.Usage(input_tokens="x"), "input_tokens"),
        (lambda: mp.Usage(input_tokens=-1), "greater than or equal"),
        (lambda: mp.Assistant("x", output=object()), "JSON data"),
        (lambda: mp.merge_runs([{"role": "user", "content": "a"}]), "message_from_dict"),  # type: ignore[list-item]
        (lambda: mp.merge_runs(None), "list of messages"),  # type: ignore[arg-type]
        (lambda: mp.User("x", files=5), "list of media"),  # type: ignore[arg-type]
        (lambda: mp.message_from_dict({"role": "user", "content": 5}), "text or a list"),
        (lambda: mp.message_from_dict({"role": "assistant", "tool_calls": 5}), "must be a list"),
        (
            lambda: mp.message_from_dict(
                {"role": "assistant", "tool_calls": [{"id": "1", "function": None}]}
            ),
            "function must be a dict",
        ),
        (
            lambda: mp.message_from_dict(
                {"role": "user", "content": [{"type": "input_audio", "input_audio": "x"}]}
            ),
            "needs a dict",
        ),
        (
            lambda: mp.message_from_dict(
                {"role": "user", "content": [{"type": "text", "text": None}]}
            ),
            "must be a string",
        ),
        (lambda: mp.message_from_dict({5: "user"}), "keys must be strings"),  # type: ignore[dict-item]
    ],
)
def test_bad_arguments_raise_invalid_media(make: Any, message: str) -> None:
    """Wrong types and shapes at the entry points raise InvalidMedia naming the problem."""
    with pytest.raises(mp.InvalidMedia, match=message):
        make()


@pytest.mark.parametrize(
    "make", [lambda f: mp.part(f), lambda f: mp.detect(f), lambda f: mp.FilePart.from_file(f)]
)
def test_closed_file_is_invalid_media(testdata: Path, make: Any) -> None:
    """A closed file object raises InvalidMedia, not ValueError."""
    f = (testdata / "alpha.png").open("rb")
    f.close()
    with pytest.raises(mp.InvalidMedia, match="cannot read"):
        make(f)


@pytest.mark.parametrize(
    "url", ["https://exa\nmple.com/x.png", "http://a..b/x.png", "http://xn--a.com/"]
)
def test_unparseable_urls_are_blocked(url: str) -> None:
    """A URL httpx cannot send is refused by the policy before any request."""
    with pytest.raises(mp.BlockedURL, match=r"not a valid URL|cannot request"):
        mp.part(url).load()


def test_metadata_is_copied(testdata: Path) -> None:
    """A part keeps its own copy of metadata: the caller's later changes do not leak in."""
    meta: dict[str, Any] = {"a": [1]}
    made = mp.part(testdata / "alpha.png", metadata=meta)
    meta["a"].append(2)
    assert made.metadata == {"a": [1]}


def test_from_pil_converts_modes_and_keeps_animation(testdata: Path) -> None:
    """CMYK and float images encode; an animated GIF keeps its frames."""
    assert mp.ImagePart.from_pil(Image.new("CMYK", (4, 4))).media_type == "image/png"
    assert mp.ImagePart.from_pil(Image.new("F", (4, 4))).media_type == "image/png"
    with Image.open(testdata / "animated.gif") as gif:
        made = mp.part(gif)
    with Image.open(io.BytesIO(made.data)) as again:
        assert again.n_frames == 3


def test_detail_makes_unknown_url_an_image() -> None:
    """detail= on an extensionless URL says it is an image."""
    made = mp.part("https://example.com/cat", detail="low")
    assert isinstance(made, mp.ImagePart)
    assert made.detail == "low"


def test_loaded_and_resolved_url_parts_round_trip(httpx_mock: HTTPXMock, testdata: Path) -> None:
    """Loaded and resolved URL parts survive to_dict through JSON (url and data together)."""
    httpx_mock.add_response(
        url="https://example.com/a.png", content=(testdata / "alpha.png").read_bytes()
    )
    loaded = mp.ImagePart.from_url("https://example.com/a.png").load()
    resolved = loaded.resolve()
    for made in (loaded, resolved):
        assert mp.part(json.loads(json.dumps(made.to_dict()))) == made
    assert set(resolved.to_dict()) >= {"url", "data"}
