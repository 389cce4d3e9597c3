"""The corpus of real payloads: read, re-rendered identically, and carried to every provider.

Each request payload (tests/conversations/corpus/, written from the SDKs' own types and docs,
not from our renderers) must: validate with its SDK's types; be read by `mp.messages_from`
(whole, or as just its message list); render back to its own provider identical, with no
fetch and no warning; and render to every other provider into what that SDK's types accept,
with every text, tool name and tool argument of the source either in the target payload or
named in a `ConversionWarning` (media the target cannot take at all raises
`UnsupportedMediaType`, as it does anywhere). Each response must parse, from its dict and from
the SDK's object alike.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.testing import MediaURLs
from tests.conversations._corpus import (
    MEDIA_HOST,
    PROVIDERS,
    SHAPE,
    TWINS,
    cases,
    load,
    media_files,
    path_of,
)
from tests.providers._sdk import (
    SDK_MODULES,
    conversation,
    sdk_response,
    validate_request,
)

REQUESTS = cases("requests")
RESPONSES = cases("responses")
# Where the payload of each wire (`Provider.wire`) keeps its list of messages.
_MESSAGE_LIST = {
    "openai": "messages",
    "openai-responses": "input",
    "anthropic": "messages",
    "gemini": "contents",
    "bedrock": "messages",
}


def _request(case: tuple[str, str]) -> dict[str, Any]:
    provider, name = case
    return load(path_of(provider, "requests", name))


def test_corpus_is_large_enough() -> None:
    """At least 40 request payloads over the five providers, and responses from each SDK."""
    assert len(REQUESTS) >= 40
    assert {provider for provider, _ in REQUESTS} == set(PROVIDERS)
    assert {provider for provider, _ in RESPONSES} == set(PROVIDERS)


@pytest.mark.parametrize("case", REQUESTS, ids="/".join)
def test_corpus_request_validates_with_its_sdk(case: tuple[str, str]) -> None:
    """Every request payload is what its SDK's own request types accept."""
    pytest.importorskip(SDK_MODULES[case[0]])
    validate_request(case[0], _request(case))


@pytest.mark.parametrize("case", REQUESTS, ids="/".join)
def test_corpus_request_passes_check(case: tuple[str, str]) -> None:
    """No false alarms: every payload of the corpus, which its API accepts, has no violation."""
    assert mp.check(_request(case), case[0]) == []


@pytest.mark.parametrize("twin", [False, True], ids=["built-in", "twin"])
@pytest.mark.parametrize("case", REQUESTS, ids="/".join)
def test_corpus_request_reads_whole_or_as_its_message_list(
    case: tuple[str, str], twin: bool
) -> None:
    """A payload reads as messages, and its message list alone reads as the same turns."""
    provider = TWINS[case[0]] if twin else case[0]
    payload = _request(case)
    messages = mp.messages_from(payload, provider)
    assert messages
    alone = mp.messages_from(payload[_MESSAGE_LIST[mp.providers.get(case[0]).wire]], provider)
    others = [m for m in messages if m.role not in ("system", "developer")]
    listed = [m for m in alone if m.role not in ("system", "developer")]
    assert listed == others


@pytest.mark.parametrize("case", REQUESTS, ids="/".join)
def test_corpus_request_rerenders_identically(case: tuple[str, str], media_urls: MediaURLs) -> None:
    """render(messages_from(p, X), X) == p, with nothing fetched and no warning."""
    _rerenders(case[0], case, media_urls)


@pytest.mark.parametrize("case", REQUESTS, ids="/".join)
def test_corpus_request_rerenders_identically_through_a_twin(
    case: tuple[str, str], media_urls: MediaURLs
) -> None:
    """The same through a user's provider registered on X's wire with X's rules."""
    _rerenders(TWINS[case[0]], case, media_urls)


@pytest.mark.parametrize("case", REQUESTS, ids="/".join)
def test_corpus_request_read_through_a_twin_names_only_the_twin(case: tuple[str, str]) -> None:
    """What a twin reads (hints, kept blocks, signed reasoning, citations) is its own: no
    `native` key and no `provider` field names the built-in whose wire it shares."""
    messages = mp.messages_from(_request(case), TWINS[case[0]])
    found = sorted(set(_provider_names([m.model_dump(mode="json") for m in messages])))
    assert case[0] not in found, found


def _provider_names(value: Any) -> Iterator[str]:
    """Yield every `native` key and `provider` value in a dumped conversation."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "native" and isinstance(item, dict):
                yield from item
            elif key == "provider" and isinstance(item, str):
                yield item
            yield from _provider_names(item)
    elif isinstance(value, list):
        for item in value:
            yield from _provider_names(item)


def _rerenders(provider: str, case: tuple[str, str], media_urls: MediaURLs) -> None:
    payload = _request(case)
    messages = mp.messages_from(payload, provider)
    assert mp.render(messages, provider) == conversation(case[0], payload)
    assert media_urls.requests == []


def _texts(messages: list[mp.Message]) -> Iterator[str]:
    """Yield every text, tool name and tool argument value a conversation holds."""
    for message in messages:
        if isinstance(message, mp.Tool) and message.error:
            yield message.error
        for part in message.parts:
            match part:
                case mp.TextPart() | mp.RefusalPart():
                    yield part.text
                case mp.ReasoningPart():
                    yield from [part.text or "", *part.summary]
                case mp.ToolCall():
                    yield part.name
                    yield from _leaves(part.parsed_arguments())
                case _:
                    pass


def _leaves(value: Any) -> Iterator[str]:
    """Yield the strings (and whole numbers, as text) inside JSON data; bytes are skipped."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, str):
        yield value
    elif isinstance(value, int) and not isinstance(value, bool):
        yield str(value)


def _missing(source: list[mp.Message], target: dict[str, Any], warned: str) -> list[str]:
    """Return the source texts that are neither in the target payload nor in a warning."""
    haystack = "\n".join(_leaves(target))
    missing = []
    for text in _texts(source):
        if not text.strip() or text in haystack:
            continue
        head = text.strip()[:30]
        if head in warned or repr(head)[1:-1] in warned:
            continue
        missing.append(text)
    return missing


@pytest.mark.mediaparts(assert_all_requested=False)
@pytest.mark.parametrize("target", [*mp.providers.names(), *TWINS.values()])
@pytest.mark.parametrize("case", REQUESTS, ids="/".join)
def test_corpus_request_carries_to_every_provider(
    case: tuple[str, str], target: str, media_urls: MediaURLs
) -> None:
    """Any conversation renders for any provider (every built-in, and a user's twin of one),
    valid there, losing nothing unannounced, or refused for media it takes in no form."""
    provider = case[0]
    if SHAPE.get(target, target) == provider:
        pytest.skip("the same provider: see test_corpus_request_rerenders_identically")
    pytest.importorskip(SDK_MODULES[SHAPE.get(target, target)])
    for url, path in media_files().items():
        media_urls.add(url, path)
    messages = mp.messages_from(_request(case), provider)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = _render_or_refusal(messages, target)
    if isinstance(payload, mp.UnsupportedMediaType):
        # Media the target takes in no form is refused as anywhere (CONTRACT §4): only media
        # may be the reason, never a block kind.
        assert [p for m in messages for p in m.files], payload
        assert payload.provider == target
        return
    for warning in caught:
        assert issubclass(warning.category, mp.ConversionWarning), warning.message
    validate_request(SHAPE.get(target, target), payload)
    assert mp.check(payload, target) == []
    warned = "\n".join(str(w.message) for w in caught)
    assert _missing(messages, payload, warned) == []


def _render_or_refusal(
    messages: list[mp.Message], target: str
) -> dict[str, Any] | mp.UnsupportedMediaType:
    try:
        return mp.render(messages, target)
    except mp.UnsupportedMediaType as exc:
        return exc


def test_corpus_media_urls_are_served() -> None:
    """Every media URL in the corpus names a file of testdata/ (so tests can serve it)."""
    served = media_files()
    for provider, name in REQUESTS:
        text = path_of(provider, "requests", name).read_text(encoding="utf-8")
        start = 0
        while (start := text.find(MEDIA_HOST, start)) != -1:
            end = min(i for i in (text.find('"', start), len(text)) if i != -1)
            assert text[start:end] in served, (name, text[start:end])
            start = end


@pytest.mark.parametrize("twin", [False, True], ids=["built-in", "twin"])
@pytest.mark.parametrize("case", RESPONSES, ids="/".join)
def test_corpus_response_reads_from_dict_and_sdk_object(case: tuple[str, str], twin: bool) -> None:
    """A response reads into an Assistant, the same from its dict as from the SDK's object."""
    shape, name = case
    provider = TWINS[shape] if twin else shape
    data = load(path_of(shape, "responses", name))
    reply = mp.message_from_response(data, provider)
    assert isinstance(reply, mp.Assistant)
    assert reply.parts or reply.stop_reason is not None
    pytest.importorskip(SDK_MODULES[shape])
    assert mp.message_from_response(sdk_response(shape, data), provider) == reply
