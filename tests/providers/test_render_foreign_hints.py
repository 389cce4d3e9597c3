"""What one API alone reads, carried to another provider: reported, never dropped quietly.

A Gemini body's function call may carry a `thoughtSignature`, a video part `videoMetadata`,
and a `fileData` may link a YouTube video or a web page that Gemini fetches itself. Rendered
for any other provider, the signature and the metadata are named in a `ConversionWarning`
(the part is kept); the link is left out through `on_loss` before anything is fetched.
"""

from __future__ import annotations

import asyncio
import json
import warnings
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.testing import MediaURLs
from tests._builders import TESTDATA

OTHERS = ("openai", "openai-responses", "anthropic", "bedrock")
SIGNATURE = "CtwBAdHtim9Yq0c3WQ5kVx0+2bnzUjLVgEbIHo/BvZ5YhMVtl8Q="
YOUTUBE = "https://www.youtube.com/watch?v=9hE5-98ZeCg"
WEB_PAGE = "https://media.example/photo.jpg"


def _signed_call() -> list[mp.Message]:
    """A Gemini tool loop whose function call carries a thought signature."""
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
            {
                "role": "model",
                "parts": [
                    {
                        "functionCall": {"name": "weather", "args": {"city": "Paris"}},
                        "thoughtSignature": SIGNATURE,
                    }
                ],
            },
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": "weather", "response": {"output": "Sun"}}}],
            },
        ]
    }
    return mp.messages_from(body, "gemini")


def _linked(uri: str, media_type: str | None = "video/mp4") -> list[mp.Message]:
    """A Gemini user turn linking `uri` in a `fileData`, then a question."""
    link: dict[str, Any] = {"fileUri": uri}
    if media_type is not None:
        link["mimeType"] = media_type
    body = {"contents": [{"role": "user", "parts": [{"fileData": link}, {"text": "Summarize."}]}]}
    return mp.messages_from(body, "gemini")


def _warned(messages: list[mp.Message], provider: str, **options: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        payload = mp.render(messages, provider, **options)
    assert all(issubclass(w.category, mp.ConversionWarning) for w in caught), caught
    return payload, [str(w.message) for w in caught]


@pytest.mark.parametrize("provider", OTHERS)
def test_render_gemini_call_signature_is_named_when_left_out(provider: str) -> None:
    """A signed Gemini function call goes elsewhere without its signature, and a warning says so."""
    payload, warned = _warned(_signed_call(), provider)
    assert SIGNATURE not in json.dumps(payload)
    assert "weather" in json.dumps(payload)  # the call itself is kept
    (lost,) = [w for w in warned if "thoughtSignature" in w]
    assert lost.startswith(f"{provider} cannot carry ToolCall weather(")
    assert "in message 1 (assistant)" in lost and "only gemini's API reads it" in lost


@pytest.mark.parametrize("provider", OTHERS)
def test_render_gemini_call_signature_follows_on_loss(provider: str) -> None:
    """ "drop" leaves the signature out quietly; "error" raises ConversionError naming it."""
    messages = _signed_call()
    _, warned = _warned(messages, provider, on_loss="drop")
    assert warned == []
    with pytest.raises(mp.ConversionError, match="thoughtSignature") as caught:
        mp.render(messages, provider, on_loss="error")
    assert isinstance(caught.value.part, mp.ToolCall)


def test_render_gemini_call_signature_stays_for_gemini() -> None:
    """Back to Gemini, the signature is sent on its call, with no warning."""
    payload, warned = _warned(_signed_call(), "gemini")
    assert warned == []
    assert payload["contents"][1]["parts"][0]["thoughtSignature"] == SIGNATURE


@pytest.mark.parametrize("provider", OTHERS)
def test_render_gemini_signed_empty_text_is_named(provider: str) -> None:
    """An empty text part that only carried a signature is named when it is left out."""
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "Hi"}]},
            {
                "role": "model",
                "parts": [{"text": "Hello."}, {"text": "", "thoughtSignature": "c2ln"}],
            },
        ]
    }
    _, warned = _warned(mp.messages_from(body, "gemini"), provider)
    assert [w for w in warned if "TextPart ''" in w and "thoughtSignature" in w]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_render_gemini_video_metadata_is_named(provider: str, media_urls: MediaURLs) -> None:
    """A clip's `videoMetadata` (its offsets) is Gemini's: elsewhere the loss is named."""
    clip = (TESTDATA / "photo.jpg").read_bytes()
    part = {"inlineData": {"mimeType": "image/jpeg", "data": clip}, "videoMetadata": {"fps": 2}}
    body = {"contents": [{"role": "user", "parts": [part, {"text": "What is it?"}]}]}
    _, warned = _warned(mp.messages_from(body, "gemini"), provider)
    assert [w for w in warned if "ImagePart" in w and "videoMetadata" in w]


@pytest.mark.parametrize("uri", [YOUTUBE, WEB_PAGE])
@pytest.mark.parametrize("provider", OTHERS)
def test_render_gemini_link_is_left_out_unfetched(
    provider: str, uri: str, media_urls: MediaURLs
) -> None:
    """A `fileData` link Gemini reads itself is left out for another provider, with a warning
    naming it, and never fetched (media_urls serves nothing: a fetch would raise)."""
    payload, warned = _warned(_linked(uri), provider)
    assert media_urls.requests == []
    assert uri not in json.dumps(payload) and "Summarize." in json.dumps(payload)
    (lost,) = warned
    assert lost.startswith(f"{provider} cannot carry VideoPart in message 0 (user): ")
    assert "gemini's own file link" in lost and "not fetched" in lost


@pytest.mark.parametrize("provider", OTHERS)
def test_render_gemini_link_on_loss_error_is_conversion_error(
    provider: str, media_urls: MediaURLs
) -> None:
    """on_loss="error" refuses the link with ConversionError, before any fetch."""
    with pytest.raises(mp.ConversionError, match="own file link") as caught:
        mp.render(_linked(YOUTUBE, None), provider, on_loss="error")
    assert caught.value.provider == provider
    assert media_urls.requests == []


@pytest.mark.parametrize("provider", OTHERS)
def test_arender_gemini_link_is_left_out_unfetched(provider: str, media_urls: MediaURLs) -> None:
    """arender, which fetches media before rendering, leaves the link out the same way."""
    messages = _linked(YOUTUBE)
    with pytest.warns(mp.ConversionWarning, match="own file link"):
        payload = asyncio.run(mp.arender(messages, provider))
    assert payload == mp.render(messages, provider, on_loss="drop")
    assert media_urls.requests == []


def test_render_gemini_link_stays_for_gemini(media_urls: MediaURLs) -> None:
    """Back to Gemini, the link goes as it came, unfetched and unwarned."""
    payload, warned = _warned(_linked(YOUTUBE), "gemini")
    assert warned == []
    assert payload["contents"][0]["parts"][0]["fileData"]["fileUri"] == YOUTUBE
    assert media_urls.requests == []


@pytest.mark.parametrize("provider", OTHERS)
def test_count_tokens_gemini_link_is_not_sent(provider: str, media_urls: MediaURLs) -> None:
    """count_tokens counts the link as render sends it: not at all, and unfetched."""
    counted = mp.count_tokens(_linked(YOUTUBE), provider)
    (video,) = [p for p in counted.parts if p.kind == "video"]
    assert video.tokens == 0 and "not sent" in video.how
    assert media_urls.requests == []


@pytest.mark.parametrize("provider", OTHERS)
def test_normalize_gemini_link_is_refused_unfetched(provider: str, media_urls: MediaURLs) -> None:
    """normalize refuses the link for another provider (UnsupportedMediaType), fetching nothing."""
    (user,) = _linked(YOUTUBE)
    with pytest.raises(mp.UnsupportedMediaType, match="own file link") as caught:
        mp.normalize(user.parts[0], provider)
    assert caught.value.provider == provider
    assert media_urls.requests == []
