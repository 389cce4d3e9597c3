"""Reprs of parts, messages and normalized parts: bounded, informative, never the bytes."""

from __future__ import annotations

import re
import typing
from typing import Any

import pytest

import mediaparts as mp
from tests._builders import TESTDATA

PHOTO = (TESTDATA / "photo.jpg").read_bytes()
BIG_TEXT = "lorem ipsum " * 10_000
BIG_BYTES = bytes(range(256)) * 400  # 100 KB, every byte value
BIG_JSON = {"type": "web_search_tool_result", "content": [{"text": BIG_TEXT}] * 50}
LIMIT = 1_000


def _big_parts() -> list[Any]:
    """One of each part class, each holding a large payload where it can hold one."""
    return [
        mp.ImagePart.from_bytes(PHOTO, metadata={"note": BIG_TEXT}),
        mp.part((TESTDATA / "tone.wav").read_bytes()),
        mp.part((TESTDATA / "clip.mp4").read_bytes()),
        mp.FilePart.from_bytes(BIG_TEXT.encode(), filename="notes.txt"),
        mp.ImagePart.from_url("https://example.com/" + "a" * 5000 + ".png"),
        mp.FilePart(file_id="file-" + "x" * 5000, file_provider="openai"),
        mp.TextPart(BIG_TEXT, citations=[mp.Citation(cited_text=BIG_TEXT, data=BIG_JSON)] * 20),
        mp.ReasoningPart(
            text=BIG_TEXT, summary=(BIG_TEXT,) * 20, signature=BIG_TEXT, data=BIG_BYTES
        ),
        mp.ReasoningPart(data=BIG_TEXT, provider="openai-responses"),
        mp.ToolCall(id="c1", name="search", arguments={"q": BIG_TEXT}),
        mp.RefusalPart(BIG_TEXT),
        mp.ProviderPart(provider="bedrock", data={"guardContent": {"image": {"bytes": BIG_BYTES}}}),
        mp.ProviderPart(provider="anthropic", data=BIG_JSON),
    ]


def test_every_part_class_is_covered() -> None:
    """The table above has every class of `mp.Part`, so each repr is checked."""
    assert {type(p) for p in _big_parts()} == set(typing.get_args(mp.Part))


def _no_raw_bytes(text: str) -> None:
    assert not re.search(r"\\x[0-9a-f]{2}", text), text[:300]
    assert "b'" not in text and 'b"' not in text


@pytest.mark.parametrize("part", _big_parts(), ids=lambda p: type(p).__name__)
def test_part_repr_is_bounded(part: Any) -> None:
    """A part's repr is short whatever it holds, and shows no bytes."""
    text = repr(part)
    assert len(text) < LIMIT
    assert text.startswith(f"{type(part).__name__}(")
    _no_raw_bytes(text)
    assert len(str(part)) < LIMIT


def test_part_repr_says_sizes_and_lengths() -> None:
    """Bytes show as their size and digest; cut text says how much more there was."""
    reasoning = mp.ReasoningPart(text=BIG_TEXT, data=BIG_BYTES)
    assert "data=<102,400 bytes sha256:" in repr(reasoning)
    assert f"(+{len(BIG_TEXT) - 80:,} chars)" in repr(reasoning)
    assert "size=33097" in repr(mp.ImagePart.from_bytes(PHOTO))


def test_part_repr_leaves_out_empty_fields() -> None:
    """Fields at their empty default (cache, native, citations) are not shown."""
    assert repr(mp.TextPart("hi")) == "TextPart(kind='text', text='hi')"
    assert repr(mp.ToolCall(id="c", name="f")) == (
        "ToolCall(kind='tool_call', id='c', name='f', arguments='{}')"
    )


def test_message_repr_is_bounded() -> None:
    """A message with many large parts has a bounded repr: 8 parts shown, then a count."""
    message = mp.Assistant(parts=_big_parts() * 10, output=BIG_JSON, id="m1")
    text = repr(message)
    assert len(text) < 10 * LIMIT
    assert "… +122 parts" in text
    _no_raw_bytes(text)


@pytest.mark.parametrize("provider", ["openai", "gemini"])
def test_normalized_part_repr_is_bounded(provider: str) -> None:
    """A NormalizedPart's repr shows type, size, digest and steps, never its bytes."""
    normalized = mp.normalize(mp.ImagePart.from_bytes(PHOTO), provider)
    text = repr(normalized)
    assert len(text) < 400  # it was 95,411 characters for this photo
    assert re.search(r"data=<[\d,]+ bytes sha256:[0-9a-f]{6}>", text)
    assert "media_type='image/jpeg'" in text and "steps=(" in text and "width=" in text
    _no_raw_bytes(text)


def test_normalized_text_repr_is_bounded() -> None:
    """A text file sent as text shows the start of its text and how much more there is."""
    normalized = mp.normalize(mp.FilePart.from_bytes(BIG_TEXT.encode(), filename="a.txt"), "openai")
    assert normalized.text is not None
    assert len(repr(normalized)) < 400
