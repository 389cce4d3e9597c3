"""`mp.arender`: the async render gives what `render` gives, fetching URL parts concurrently."""

from __future__ import annotations

import asyncio

import pytest

import mediaparts as mp
from mediaparts.testing import MediaFactory, MediaURLs, summarize

PHOTO = "https://media.example/photo.png"
REPORT = "https://media.example/report.pdf"


@pytest.mark.parametrize("provider", mp.providers.names())
def test_arender_matches_render_with_urls(
    provider: str, media: MediaFactory, media_urls: MediaURLs
) -> None:
    """For every provider, arender of URL parts equals render (each URL loaded or passed)."""
    media_urls.assert_all_requested = False  # providers that fetch URLs themselves never ask
    media_urls.add(PHOTO, media.image(640, 480))
    message = [mp.System("Be brief."), mp.User(["Describe", mp.ImagePart.from_url(PHOTO)])]
    expected = mp.render(message, provider, urls="inline")
    got = asyncio.run(mp.arender(message, provider, urls="inline"))
    assert summarize(got) == summarize(expected)


def test_arender_passes_urls_where_the_provider_fetches(
    media: MediaFactory, media_urls: MediaURLs
) -> None:
    """urls="auto": OpenAI fetches image URLs itself, so nothing is fetched here."""
    media_urls.assert_all_requested = False
    media_urls.add(PHOTO, media.image(64, 64))
    payload = asyncio.run(mp.arender(mp.User([mp.ImagePart.from_url(PHOTO)]), "openai"))
    assert payload["messages"][0]["content"][0]["image_url"]["url"] == PHOTO
    assert media_urls.requests == []


def test_arender_loads_each_url_once(media: MediaFactory, media_urls: MediaURLs) -> None:
    """urls="inline": both URLs are fetched, once each, and inlined."""
    media_urls.add(PHOTO, media.image(64, 64))
    media_urls.add(REPORT, media.pdf(pages=1))
    photo = mp.ImagePart.from_url(PHOTO)
    parts = [photo, mp.FilePart.from_url(REPORT), photo]
    payload = asyncio.run(mp.arender(mp.User(parts), "anthropic", urls="inline"))
    blocks = payload["messages"][0]["content"]
    assert [b["source"]["type"] for b in blocks] == ["base64", "base64", "base64"]
    assert sorted(media_urls.requests) == sorted([PHOTO, REPORT])


def test_arender_refuses_as_render_does(media_urls: MediaURLs) -> None:
    """urls="pass" where the provider does not fetch raises UnsupportedMediaType, unfetched."""
    part = mp.ImagePart.from_url(PHOTO)
    with pytest.raises(mp.UnsupportedMediaType, match="urls='pass'"):
        asyncio.run(mp.arender(mp.User([part]), "bedrock", urls="pass"))
    assert media_urls.requests == []
