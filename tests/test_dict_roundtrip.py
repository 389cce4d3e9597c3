"""Property tests: every message, with every part kind and field, survives to_dict and JSON.

Strategies build all nine part classes (citations, cache, native hints with bytes, file
references, inline media from testdata/ files, URL parts) and all four message classes with
every field (the application's metadata too); each message must come back equal from
`json.dumps(m.to_dict())`, and its dict must match the published schema
(docs/message.schema.json).
"""

from __future__ import annotations

import contextlib
import json
from datetime import timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mediaparts as mp
from tests import _jsonschema
from tests._builders import ROOT, TESTDATA
from tests.conversations import _corpus as corpus

SCHEMA: dict[str, Any] = json.loads((ROOT / "docs" / "message.schema.json").read_text())
PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Small real files of each kind, read once: media parts are typed by their bytes.
MEDIA_FILES = {
    name: (TESTDATA / name).read_bytes()
    for name in (
        "palette.png",
        "gray.jpg",
        "still.gif",
        "tone.mp3",
        "tone.opus",
        "clip.webm",
        "document.pdf",
        "notes.txt",
        "data.csv",
        "data.json",
    )
}
URLS = (
    "https://media.example/palette.png",
    "https://media.example/tone.mp3",
    "https://media.example/clip.mp4",
    "https://media.example/document.pdf",
    "https://media.example/unknown",
    "https://user:secret@media.example/a%20b.jpg?x=1#frag",
)
PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "bedrock", "someone-else")

texts = st.text(max_size=20)
maybe_text = st.none() | texts
names = st.text(st.characters(codec="ascii", categories=["L", "N"]), min_size=1, max_size=12)
# JSON keys; "$bytes" alone is how bytes are written, so a provider's own key never is it.
keys = texts.filter(lambda k: k != "$bytes")
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts
)
json_data = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=8,
)
# A provider's data: JSON, and bytes where its SDK uses bytes (Bedrock).
provider_data = st.recursive(
    scalars | st.binary(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=8,
)
data_dicts = st.dictionaries(keys, provider_data, max_size=3)
native = st.dictionaries(st.sampled_from(PROVIDERS), data_dicts, max_size=2)
cache = st.none() | st.sampled_from(["5m", "1h"])
common = st.fixed_dictionaries({}, optional={"cache": cache, "native": native})
# The application's own data on a message: any JSON, "$bytes" keys included (never bytes).
metadata = st.dictionaries(texts, json_data, max_size=3)

citations = st.builds(
    mp.Citation,
    provider=st.none() | st.sampled_from(PROVIDERS),
    cited_text=maybe_text,
    title=maybe_text,
    url=st.none() | st.sampled_from(URLS),
    data=data_dicts,
)


@st.composite
def text_parts(draw: st.DrawFn) -> mp.TextPart:
    cited = draw(st.lists(citations, max_size=2))
    return mp.TextPart(draw(texts), citations=cited, **draw(common))


@st.composite
def reasoning_parts(draw: st.DrawFn) -> mp.ReasoningPart:
    return mp.ReasoningPart(
        text=draw(maybe_text),
        summary=draw(st.lists(texts, max_size=3)),
        signature=draw(maybe_text),
        data=draw(st.none() | texts | st.binary(max_size=24)),
        provider=draw(st.none() | st.sampled_from(PROVIDERS)),
        id=draw(st.none() | names),
        **draw(common),
    )


@st.composite
def tool_calls(draw: st.DrawFn) -> mp.ToolCall:
    arguments = draw(st.one_of(json_data.map(json.dumps), texts))  # the model's text, as is
    return mp.ToolCall(
        id=draw(st.none() | names),
        name=draw(names),
        arguments=arguments,
        item_id=draw(st.none() | names),
        **draw(common),
    )


@st.composite
def refusal_parts(draw: st.DrawFn) -> mp.RefusalPart:
    return mp.RefusalPart(draw(texts), **draw(common))


@st.composite
def provider_parts(draw: st.DrawFn) -> mp.ProviderPart:
    return mp.ProviderPart(
        provider=draw(st.sampled_from(PROVIDERS)), data=draw(data_dicts), **draw(common)
    )


@st.composite
def media_fields(draw: st.DrawFn) -> dict[str, Any]:
    fields: dict[str, Any] = draw(common)
    if draw(st.booleans()):
        fields["metadata"] = draw(st.dictionaries(keys, json_data, max_size=2))
    return fields


@st.composite
def inline_media(draw: st.DrawFn) -> mp.MediaPart:
    name = draw(st.sampled_from(sorted(MEDIA_FILES)))
    fields = draw(media_fields())
    if draw(st.booleans()):
        fields["filename"] = draw(st.sampled_from([name, "upload", "renamed.bin"]))
    made = mp.part(MEDIA_FILES[name], **fields)
    if isinstance(made, mp.ImagePart) and draw(st.booleans()):
        made = mp.part(made, detail=draw(st.sampled_from(["auto", "low", "high", "original"])))
    return made


@st.composite
def url_media(draw: st.DrawFn) -> mp.MediaPart:
    fields = draw(media_fields())
    if draw(st.booleans()):
        fields["media_type"] = draw(st.sampled_from(["image/png", "audio/mpeg", "application/pdf"]))
    if draw(st.booleans()):
        fields["filename"] = draw(names)
    made = mp.part(draw(st.sampled_from(URLS)), **fields)
    assert isinstance(made, mp.MediaPart)
    return made


@st.composite
def loaded_url_media(draw: st.DrawFn) -> mp.MediaPart:
    """A URL part together with its bytes, as `to_dict()` of a part read from both writes."""
    name = draw(st.sampled_from(["palette.png", "gray.jpg"]))
    return mp.ImagePart(
        url=f"https://media.example/{name}", data=MEDIA_FILES[name], **draw(media_fields())
    )


@st.composite
def references(draw: st.DrawFn) -> mp.MediaPart:
    file_id = draw(names)
    store = draw(st.sampled_from(PROVIDERS[:-1]))
    media_type = draw(st.none() | st.sampled_from(["image/jpeg", "video/mp4", "application/pdf"]))
    if draw(st.booleans()):
        spec = {"file_id": file_id, "provider": store, "media_type": media_type}
        made = mp.part(spec, **draw(media_fields()))
        assert isinstance(made, mp.MediaPart)
        return made
    cls = draw(st.sampled_from([mp.ImagePart, mp.AudioPart, mp.VideoPart, mp.FilePart]))
    typed: mp.MediaPart = cls(
        file_id=file_id, file_provider=store, filename=draw(st.none() | names)
    )
    return typed


media_parts = st.one_of(inline_media(), url_media(), loaded_url_media(), references())
any_part = st.one_of(
    text_parts(),
    media_parts,
    reasoning_parts(),
    tool_calls(),
    refusal_parts(),
    provider_parts(),
)
ids = st.none() | names
# Aware times only (a naive one is refused), at any offset a time zone can have.
offsets = st.integers(min_value=-14 * 60, max_value=14 * 60).map(
    lambda minutes: timezone(timedelta(minutes=minutes))
)
times = st.none() | st.datetimes(timezones=offsets)


@st.composite
def systems(draw: st.DrawFn) -> mp.System:
    return mp.System(
        parts=draw(st.lists(text_parts(), max_size=3)),
        role=draw(st.sampled_from(["system", "developer"])),
        name=draw(st.none() | names),
        id=draw(ids),
        created_at=draw(times),
        native=draw(native),
        metadata=draw(metadata),
    )


@st.composite
def users(draw: st.DrawFn) -> mp.User:
    return mp.User(
        parts=draw(st.lists(any_part, max_size=4)),
        name=draw(st.none() | names),
        id=draw(ids),
        created_at=draw(times),
        native=draw(native),
        metadata=draw(metadata),
    )


usages = st.builds(
    mp.Usage,
    **{
        field: st.integers(min_value=0, max_value=10**9)
        for field in mp.Usage.model_fields  # every field, new ones included
    },
)
stop_reasons = st.sampled_from(
    [None, "end", "max_tokens", "tool_call", "stop_sequence", "content_filter", "refusal", "other"]
)


@st.composite
def assistants(draw: st.DrawFn) -> mp.Assistant:
    return mp.Assistant(
        parts=draw(st.lists(any_part, max_size=5)),
        name=draw(st.none() | names),
        id=draw(ids),
        created_at=draw(times),
        native=draw(native),
        metadata=draw(metadata),
        usage=draw(st.none() | usages),
        output=draw(json_data),
        model=draw(st.none() | names),
        stop_reason=draw(stop_reasons),
        stop_reason_raw=draw(maybe_text),
    )


@st.composite
def tools(draw: st.DrawFn) -> mp.Tool:
    fields: dict[str, Any] = {
        "tool_call_id": draw(st.none() | names),
        "name": draw(st.none() | names),
        "error": draw(maybe_text),
        "error_type": draw(maybe_text),
    }
    if draw(st.booleans()):
        fields["is_error"] = draw(st.booleans())
    return mp.Tool(
        parts=draw(st.lists(any_part, max_size=3)),
        id=draw(ids),
        created_at=draw(times),
        native=draw(native),
        metadata=draw(metadata),
        **fields,
    )


messages = st.one_of(systems(), users(), assistants(), tools())


def _through_json(message: mp.Message) -> tuple[str, mp.Message]:
    text = json.dumps(message.to_dict(), allow_nan=False)
    return text, mp.message_from_dict(json.loads(text))


@PROPERTY
@given(messages)
def test_dict_roundtrip_message_survives_json(message: mp.Message) -> None:
    """Any message comes back equal from to_dict(), JSON text and message_from_dict()."""
    _, back = _through_json(message)
    assert back == message
    assert type(back) is type(message)
    assert [type(p) for p in back.parts] == [type(p) for p in message.parts]


@PROPERTY
@given(messages)
def test_dict_roundtrip_dict_is_stable(message: mp.Message) -> None:
    """Reading a message's dict and writing it again gives the same dict (JSON-ready, v2)."""
    text, back = _through_json(message)
    assert json.dumps(back.to_dict(), allow_nan=False) == text
    assert json.loads(text)["v"] == 2


@PROPERTY
@given(messages)
def test_dict_roundtrip_dict_matches_schema(message: mp.Message) -> None:
    """Every to_dict() output is valid under the published JSON Schema."""
    assert _jsonschema.errors(json.loads(json.dumps(message.to_dict())), SCHEMA) == []


@PROPERTY
@given(any_part)
def test_dict_roundtrip_part_survives_json(part: Any) -> None:
    """Each part alone comes back equal through its to_dict(), JSON and mp.part()."""
    back = mp.part(json.loads(json.dumps(part.to_dict(), allow_nan=False)))
    assert back == part
    assert type(back) is type(part)


@pytest.mark.parametrize("name", sorted(MEDIA_FILES))
def test_dict_roundtrip_every_media_file_is_drawn(name: str) -> None:
    """Each media file the strategies draw makes a part of its own kind that round-trips."""
    made = mp.part(MEDIA_FILES[name], filename=name)
    assert mp.part(json.loads(json.dumps(made.to_dict()))) == made
    assert Path(name).suffix  # the strategies name files as testdata/ does


odd_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.sampled_from([{"$bytes": "!!"}, {"$bytes": 3}, [{"kind": "text"}], {"kind": "image"}]),
)
odd_keys = st.sampled_from(["x", "kind", "data", "url", "file_id", "v", "role", "tool_calls"])


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*at, index))
    return found


@PROPERTY
@given(messages, st.data())
def test_dict_roundtrip_damaged_dict_raises_media_error(
    message: mp.Message, data: st.DataObject
) -> None:
    """A to_dict() with one place changed, removed or added to makes a message or raises a
    MediaError: never a KeyError, TypeError or AttributeError."""
    value = json.loads(json.dumps(message.to_dict()))
    path = data.draw(st.sampled_from([p for p in _paths(value) if p]))
    *parents, last = path
    target = value
    for step in parents:
        target = target[step]
    action = data.draw(st.sampled_from(["set", "delete", "add"]))
    if action == "set":
        target[last] = data.draw(odd_values)
    elif action == "delete":
        del target[last]
    elif isinstance(target, dict):
        target[data.draw(odd_keys)] = data.draw(odd_values)
    with contextlib.suppress(mp.MediaError):
        mp.message_from_dict(value)


# -- what the provider readers make survives too ------------------------------------------

REQUESTS = corpus.cases("requests")
RESPONSES = corpus.cases("responses")


def _readable(provider: str) -> None:
    if mp.providers.get(provider).reader is None:
        pytest.skip(f"{provider} has no reader yet")


@pytest.mark.parametrize("case", REQUESTS, ids="/".join)
def test_dict_roundtrip_corpus_request_messages(case: tuple[str, str]) -> None:
    """Every message read from a real request payload (native hints, provider blocks and
    bytes included) comes back equal through to_dict() and JSON, valid under the schema."""
    provider, name = case
    _readable(provider)
    for message in mp.messages_from(
        corpus.load(corpus.path_of(provider, "requests", name)), provider
    ):
        value = json.loads(json.dumps(message.to_dict(), allow_nan=False))
        assert _jsonschema.errors(value, SCHEMA) == []
        assert mp.message_from_dict(value) == message


@pytest.mark.parametrize("case", RESPONSES, ids="/".join)
def test_dict_roundtrip_corpus_response_message(case: tuple[str, str]) -> None:
    """Every assistant message read from a real response survives to_dict() and JSON."""
    provider, name = case
    if mp.providers.get(provider).response_reader is None:
        pytest.skip(f"{provider} has no response reader yet")
    response = corpus.load(corpus.path_of(provider, "responses", name))
    message = mp.message_from_response(response, provider)
    value = json.loads(json.dumps(message.to_dict(), allow_nan=False))
    assert _jsonschema.errors(value, SCHEMA) == []
    assert mp.message_from_dict(value) == message


EMPTY_TEXT = {"kind": "file", "media_type": "text/plain", "filename": "notes.txt", "data": ""}


def test_dict_roundtrip_empty_text_file_loads() -> None:
    """A saved message holding an empty text file loads back, and its to_dict is read back."""
    stored = {"v": 2, "role": "user", "parts": [EMPTY_TEXT]}
    message = mp.message_from_dict(stored)
    assert isinstance(message.parts[0], mp.FilePart) and message.parts[0].data == b""
    assert mp.message_from_dict(json.loads(json.dumps(message.to_dict()))) == message
    again = mp.part(EMPTY_TEXT)
    assert isinstance(again, mp.FilePart) and again.data == b""


def test_dict_roundtrip_empty_text_file_renders_and_reads_back() -> None:
    """An empty .txt renders (as text, or as a text document), and its payload reads back."""
    message = mp.message_from_dict({"v": 2, "role": "user", "parts": [EMPTY_TEXT]})
    sent = mp.render([message], "openai")["messages"][0]["content"]
    assert sent == '<file name="notes.txt" media_type="text/plain">\n\n</file>'
    payload = mp.render([message], "anthropic")
    source = payload["messages"][0]["content"][0]["source"]
    assert source == {"type": "text", "media_type": "text/plain", "data": ""}
    read = mp.messages_from(payload, "anthropic")
    part = read[0].parts[0]
    assert isinstance(part, mp.FilePart) and (part.data, part.media_type) == (b"", "text/plain")
    assert mp.render(read, "anthropic") == payload


@pytest.mark.parametrize(
    "stored",
    [
        {"kind": "image", "media_type": "image/png", "filename": "a.png", "data": ""},
        {"kind": "file", "media_type": "application/pdf", "data": ""},
        {"kind": "file", "data": ""},
    ],
    ids=["png", "pdf", "untyped"],
)
def test_dict_roundtrip_empty_media_is_refused(stored: dict[str, Any]) -> None:
    """Stored empty bytes of any type but text are still 'empty (0 bytes)': no such media exists."""
    with pytest.raises(mp.InvalidMedia, match=r"empty \(0 bytes\)"):
        mp.message_from_dict({"v": 2, "role": "user", "parts": [stored]})


def test_dict_roundtrip_metadata_that_looks_like_bytes_stays_a_dict() -> None:
    """Metadata is the application's JSON: a `{"$bytes": ...}` in it is read back as that dict."""
    message = mp.User("hi", metadata={"blob": {"$bytes": "AAEC"}, "$bytes": "x"})
    _, back = _through_json(message)
    assert back.metadata == {"blob": {"$bytes": "AAEC"}, "$bytes": "x"}
