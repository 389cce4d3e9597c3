"""The parts that are not media (reasoning, tool calls, refusals, provider blocks, citations)
and what every part shares: a cache breakpoint and per-provider native hints."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any, get_args

import pytest

import mediaparts as mp
from mediaparts._conversation._json_data import reading_dicts
from tests._builders import TESTDATA

PNG = (TESTDATA / "palette.png").read_bytes()
MP3 = (TESTDATA / "tone.mp3").read_bytes()
WEBM = (TESTDATA / "clip.webm").read_bytes()
PDF = (TESTDATA / "document.pdf").read_bytes()

# One way to make each of the nine part classes, given the shared fields (cache=, native=).
MAKERS: dict[str, Callable[..., Any]] = {
    "text": lambda **f: mp.TextPart("hello", **f),
    "image": lambda **f: mp.part(PNG, **f),
    "audio": lambda **f: mp.part(MP3, **f),
    "video": lambda **f: mp.part(WEBM, **f),
    "file": lambda **f: mp.part(PDF, **f),
    "url": lambda **f: mp.part("https://media.example/palette.png", **f),
    "reference": lambda **f: mp.part({"file_id": "file-1", "provider": "openai"}, **f),
    "reasoning": lambda **f: mp.ReasoningPart(text="hmm", **f),
    "tool_call": lambda **f: mp.ToolCall(id="c1", name="f", **f),
    "refusal": lambda **f: mp.RefusalPart("no", **f),
    "provider": lambda **f: mp.ProviderPart(provider="anthropic", data={"type": "x"}, **f),
}


def _nested(levels: int) -> Any:
    """A value inside `levels` dicts: `{"a": {"a": ... 1}}`."""
    value: Any = 1
    for _ in range(levels):
        value = {"a": value}
    return value


def test_part_classes_are_the_nine_kinds() -> None:
    """The Part union holds nine classes, one per kind, and MAKERS makes each of them."""
    classes = set(get_args(mp.Part))
    assert len(classes) == 9
    assert {type(make()) for make in MAKERS.values()} == classes
    assert {c.model_fields["kind"].default for c in classes} == {
        "text",
        "image",
        "audio",
        "video",
        "file",
        "reasoning",
        "tool_call",
        "refusal",
        "provider",
    }


def test_reasoning_part_fields_and_defaults() -> None:
    """ReasoningPart holds text, summary pieces, signature, opaque data, provider and id."""
    empty = mp.ReasoningPart()
    assert (empty.kind, empty.text, empty.summary, empty.signature, empty.data) == (
        "reasoning",
        None,
        (),
        None,
        None,
    )
    assert (empty.provider, empty.id, empty.cache, empty.native) == (None, None, None, {})
    full = mp.ReasoningPart(
        text="Let me think.",
        summary=["first", "second"],
        signature="EqQBCkgIARABGAIiQ",
        data="gAAAAABn-encrypted",
        provider="anthropic",
        id="rs_1",
    )
    assert full.summary == ("first", "second")
    assert full.data == "gAAAAABn-encrypted"  # opaque text stays text, never base64-decoded
    assert full.to_dict() == {
        "kind": "reasoning",
        "text": "Let me think.",
        "summary": ["first", "second"],
        "signature": "EqQBCkgIARABGAIiQ",
        "data": "gAAAAABn-encrypted",
        "provider": "anthropic",
        "id": "rs_1",
    }


_BAD_MARKER = {
    "v": 2,
    "role": "assistant",
    "parts": [{"kind": "reasoning", "data": {"$bytes": "not base64!"}}],
}


@pytest.mark.parametrize(
    ("data", "kept"),
    [
        (b"\x00\xff", b"\x00\xff"),
        (bytearray(b"ab"), b"ab"),
        (memoryview(b"cd"), b"cd"),
        ("text", "text"),
        ({"$bytes": "AAE="}, b"\x00\x01"),
    ],
)
def test_reasoning_part_data_is_text_or_bytes(data: Any, kept: Any) -> None:
    """Opaque reasoning data is text or bytes (buffers made bytes, our `$bytes` dict decoded)."""
    with reading_dicts():  # as when to_dict() output is read
        assert mp.ReasoningPart(data=data).data == kept


def test_reasoning_part_bytes_marker_is_ours_only() -> None:
    """Outside our own dicts a `$bytes` dict is no opaque data: refused, never decoded."""
    with pytest.raises(mp.InvalidMedia, match="text or bytes"):
        mp.ReasoningPart(data={"$bytes": "AAE="})


def test_tool_call_is_a_part_kept_in_order() -> None:
    """A ToolCall is an assistant part, in the order the model produced it, id optional."""
    calls = [mp.ToolCall(id="c1", name="a"), mp.ToolCall(name="b", item_id="fc_2")]
    message = mp.Assistant(parts=["first", calls[0], "between", calls[1]])
    assert [p.kind for p in message.parts] == ["text", "tool_call", "text", "tool_call"]
    assert message.tool_calls == tuple(calls)
    assert calls[1].id is None and calls[1].item_id == "fc_2" and calls[1].arguments == "{}"
    assert calls[1].to_dict() == {
        "kind": "tool_call",
        "name": "b",
        "arguments": "{}",
        "item_id": "fc_2",
    }


def test_refusal_part_text() -> None:
    """RefusalPart takes its text positionally or by name; it is required."""
    assert mp.RefusalPart("no").text == mp.RefusalPart(text="no").text == "no"
    assert mp.RefusalPart("no").to_dict() == {"kind": "refusal", "text": "no"}
    with pytest.raises(mp.InvalidMedia, match="text"):
        mp.RefusalPart()


def test_provider_part_keeps_its_block() -> None:
    """ProviderPart keeps a provider's block as written; empty data stays in its dict."""
    block = {"type": "server_tool_use", "id": "srvtoolu_1", "input": {"query": "x"}}
    made = mp.ProviderPart(provider="anthropic", data=block)
    assert made.data == block and made.provider == "anthropic"
    assert made.to_dict() == {"kind": "provider", "provider": "anthropic", "data": block}
    assert mp.ProviderPart(provider="x", data={}).to_dict() == {
        "kind": "provider",
        "provider": "x",
        "data": {},
    }


def test_citation_fields() -> None:
    """A Citation names its provider, passage, title, URL, and keeps the provider's fields."""
    cite = mp.Citation(
        provider="anthropic",
        cited_text="Paris is the capital",
        title="France",
        url="https://media.example/page.html",
        data={"type": "char_location", "start_char_index": 0, "end_char_index": 20},
    )
    text = mp.TextPart("Paris.", citations=[cite])
    assert text.citations == (cite,)
    assert text.to_dict()["citations"] == [
        {
            "provider": "anthropic",
            "cited_text": "Paris is the capital",
            "title": "France",
            "url": "https://media.example/page.html",
            "data": {"type": "char_location", "start_char_index": 0, "end_char_index": 20},
        }
    ]
    assert mp.Citation() == mp.Citation(data={})


@pytest.mark.parametrize("kind", sorted(MAKERS))
@pytest.mark.parametrize("cache", ["5m", "1h"])
def test_every_part_takes_cache_and_native(kind: str, cache: str) -> None:
    """Every part class, media included, holds `cache` and `native` and writes them to_dict."""
    hints = {"anthropic": {"ttl": True}, "gemini": {"thoughtSignature": "abc"}}
    made = MAKERS[kind](cache=cache, native=hints)
    assert made.cache == cache and made.native == hints
    out = made.to_dict()
    assert out["cache"] == cache and out["native"] == hints
    plain = MAKERS[kind]()
    assert plain.cache is None and plain.native == {}
    assert "cache" not in plain.to_dict() and "native" not in plain.to_dict()


@pytest.mark.parametrize("kind", sorted(MAKERS))
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"cache": "1d"}, "cache"),
        ({"cache": 300}, "cache"),
        ({"native": []}, "must be a dict"),
        ({"native": {"anthropic": 1}}, r"native\['anthropic'\] must be a dict"),
        ({"native": {1: {}}}, "not a string"),
        ({"native": {"p": {2: "x"}}}, "not a string"),
        ({"native": {"p": {"x": float("nan")}}}, "not JSON data"),
        ({"native": {"p": {"x": float("inf")}}}, "not JSON data"),
        ({"native": {"p": {"x": object()}}}, "JSON data"),
        ({"native": {"p": {"x": {1, 2}}}}, "JSON data"),
    ],
)
def test_every_part_refuses_bad_cache_and_native(
    kind: str, fields: dict[str, Any], message: str
) -> None:
    """A bad cache value or native hint is InvalidMedia for every part class."""
    with pytest.raises(mp.InvalidMedia, match=message):
        MAKERS[kind](**fields)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: mp.ReasoningPart(data=[1]), "text or bytes"),
        (lambda: mp.ReasoningPart(data=1), "text or bytes"),
        (lambda: mp.ReasoningPart(summary=[1]), "summary"),
        (lambda: mp.ReasoningPart(bogus=1), "bogus"),
        (lambda: mp.ToolCall(), "name"),
        (lambda: mp.ToolCall(name="f", arguments=[1]), "arguments"),
        (lambda: mp.ToolCall(name="f", arguments={"x": float("nan")}), "JSON data"),
        (lambda: mp.ToolCall(name="f", id=1), "id"),
        (lambda: mp.RefusalPart(text=None), "text"),
        (lambda: mp.ProviderPart(provider="x"), "data"),
        (lambda: mp.ProviderPart(data={}), "provider"),
        (lambda: mp.ProviderPart(provider="x", data=[]), "must be a dict"),
        (lambda: mp.ProviderPart(provider="x", data={"b": b"x", "o": object()}), "JSON data"),
        (lambda: mp.Citation(data=[1]), "must be a dict"),
        (lambda: mp.Citation(bogus=1), "bogus"),
        (lambda: mp.TextPart("x", citations=[{"bogus": 1}]), "bogus"),
        (lambda: mp.TextPart("x", citations="abc"), "citations"),
        (lambda: mp.message_from_dict(_BAD_MARKER), "base64"),
    ],
)
def test_parts_refuse_bad_values(make: Callable[[], Any], message: str) -> None:
    """Bad field values are InvalidMedia naming the field, never a pydantic or TypeError."""
    with pytest.raises(mp.InvalidMedia, match=message):
        make()


@pytest.mark.parametrize(
    "make",
    [
        lambda b: mp.ProviderPart(provider="bedrock", data={"image": {"bytes": b}}),
        lambda b: mp.ReasoningPart(data=b),
        lambda b: mp.TextPart("x", native={"bedrock": {"raw": [b]}}),
        lambda b: mp.Citation(data={"blob": b}),
    ],
    ids=["provider-data", "reasoning-data", "native", "citation-data"],
)
def test_bytes_are_written_as_bytes_objects(make: Callable[[bytes], Any]) -> None:
    """Bytes in a provider's data, opaque reasoning or native hints become {"$bytes": base64}."""
    made = make(b"\x00\x01\xfe")
    out = made.model_dump(mode="json") if isinstance(made, mp.Citation) else made.to_dict()
    text = json.dumps(out)
    assert '{"$bytes": "AAH+"}' in text
    with reading_dicts():  # as message_from_dict and mp.part read to_dict() output
        back = type(made)(**{k: v for k, v in json.loads(text).items() if k != "kind"})
    assert back == made


def test_json_data_depth_is_bounded_at_64() -> None:
    """A provider's data (and native hints) may nest 64 levels; one more is InvalidMedia."""
    assert mp.ProviderPart(provider="x", data=_nested(64)).data == _nested(64)
    with pytest.raises(mp.InvalidMedia, match="more than 64 levels"):
        mp.ProviderPart(provider="x", data=_nested(65))
    assert mp.TextPart("x", native={"p": _nested(63)}).native == {"p": _nested(63)}
    with pytest.raises(mp.InvalidMedia, match="more than 64 levels"):
        mp.TextPart("x", native={"p": _nested(64)})
    deep: Any = []
    for _ in range(10_000):  # far past the interpreter's recursion limit: still our error
        deep = [deep]
    with pytest.raises(mp.InvalidMedia, match="more than 64 levels"):
        mp.Citation(data={"x": deep})


def test_parts_do_not_share_or_mutate_what_the_caller_passed() -> None:
    """Parts copy dicts and lists they are given, and never change them."""
    block: dict[str, Any] = {"type": "x", "items": [{"a": 1}], "t": ("tuple",)}
    hints: dict[str, Any] = {"anthropic": {"list": [1, 2]}}
    cite_data: dict[str, Any] = {"k": [1]}
    args: dict[str, Any] = {"q": ["x"]}
    summary = ["a", "b"]
    given = copy.deepcopy((block, hints, cite_data, args, summary))
    provider = mp.ProviderPart(provider="p", data=block, native=hints)
    text = mp.TextPart("x", citations=[mp.Citation(data=cite_data)], native=hints)
    call = mp.ToolCall(name="f", arguments=args)
    reasoning = mp.ReasoningPart(summary=summary, native=hints)
    assert (block, hints, cite_data, args, summary) == given
    block["items"][0]["a"] = 2
    hints["anthropic"]["list"].append(3)
    cite_data["k"].append(2)
    args["q"].append("y")
    summary.append("c")
    assert provider.data == {"type": "x", "items": [{"a": 1}], "t": ["tuple"]}
    assert provider.native == text.native == reasoning.native == {"anthropic": {"list": [1, 2]}}
    assert text.citations[0].data == {"k": [1]}
    assert json.loads(call.arguments) == {"q": ["x"]}
    assert reasoning.summary == ("a", "b")


def test_media_part_native_is_a_copy() -> None:
    """A media part's native hints and metadata are copies of the caller's dicts."""
    hints: dict[str, Any] = {"gemini": {"v": [1]}}
    metadata: dict[str, Any] = {"tags": ["a"]}
    made = mp.part(PNG, native=hints, metadata=metadata)
    hints["gemini"]["v"].append(2)
    metadata["tags"].append("b")
    assert made.native == {"gemini": {"v": [1]}} and made.metadata == {"tags": ["a"]}


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_parts_hash_and_compare_by_value(kind: str) -> None:
    """Every part is hashable (dict fields included) and equal to a part made the same way."""
    hints = {"anthropic": {"ttl": True}}
    a, b = MAKERS[kind](native=hints), MAKERS[kind](native=hints)
    assert a == b and hash(a) == hash(b)
    assert a != MAKERS[kind](native=hints, cache="5m")
    assert len({a, b}) == 1


def test_part_text_lone_surrogates_are_replaced() -> None:
    """Text that cannot be encoded as UTF-8 is cleaned in every new part's text fields."""
    assert mp.RefusalPart("a\ud800b").text == "a\ufffdb"
    assert mp.ReasoningPart(text="\udcff", signature="s\ud800").signature == "s\ufffd"
    assert mp.ProviderPart(provider="p", data={"k\ud800": "v\udc00"}).data == {"k\ufffd": "v\ufffd"}


def test_provider_block_holding_a_bytes_marker_is_kept_as_written() -> None:
    """A provider's block that holds {"$bytes": ...} keeps it: only our own dicts decode it."""
    block = {"type": "server_tool_use", "input": {"query": {"$bytes": "QUJD"}}}
    part = mp.ProviderPart(provider="anthropic", data=block)
    assert part.data == block
    payload = {
        "messages": [
            {"role": "user", "content": "q"},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "server_tool_use",
                        "id": "srvtoolu_1",
                        "name": "web_search",
                        "input": {"query": {"$bytes": "QUJD"}},
                    }
                ],
            },
        ]
    }
    assert mp.render(mp.messages_from(payload, "anthropic"), "anthropic") == payload
