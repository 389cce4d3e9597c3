"""Credentials across redirects, against real local servers: what reaches the other origin."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Iterator

import pytest

import mediaparts as mp
from mediaparts.fetching import afetch, fetch, safe_async_client, safe_client
from mediaparts.fetching._credentials import same_origin

from .servers import KeepAlive, keep_alive


@pytest.fixture
def first() -> Iterator[KeepAlive]:
    """The origin the caller names (a.test)."""
    with keep_alive() as state:
        yield state


@pytest.fixture
def second() -> Iterator[KeepAlive]:
    """Another origin, that the first redirects to (b.test)."""
    with keep_alive() as state:
        yield state


def _policy() -> mp.FetchPolicy:
    return mp.FetchPolicy(
        allow_private=True, timeout=3.0, retries=0, resolver=lambda host, port: ["127.0.0.1"]
    )


COOKIES = (("scoped", "to-b", "b.test"), ("home", "to-a", "a.test"), ("bare", "anywhere", ""))


def _fetch(mode: str, url: str) -> bytes:
    """Fetch with a client carrying an Authorization header and three cookies."""
    headers = {"Authorization": "Bearer s3cret"}
    if mode == "sync":
        with safe_client(headers=headers) as client:
            for name, value, domain in COOKIES:
                client.cookies.set(name, value, domain=domain)
            return fetch(url, policy=_policy(), client=client).content

    async def go() -> bytes:
        async with safe_async_client(headers=headers) as client:
            for name, value, domain in COOKIES:
                client.cookies.set(name, value, domain=domain)
            return (await afetch(url, policy=_policy(), client=client)).content

    return asyncio.run(go())


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_credentials_other_origin_gets_its_own_only(
    first: KeepAlive, second: KeepAlive, mode: str
) -> None:
    """After a redirect to another origin, the request carries the Basic credentials written
    in the target URL itself and the cookies scoped to the target's domain, and nothing else
    of the client's: no Authorization header, no cookie of the first host, no unscoped one."""
    first.redirect = f"http://bob:pa55@b.test:{second.port}/x"
    assert _fetch(mode, first.url("a.test")) == b"ok"
    assert first.authorizations == ["Bearer s3cret"]
    assert second.authorizations == ["Basic " + base64.b64encode(b"bob:pa55").decode()]
    assert second.cookies == ["scoped=to-b"]


@pytest.mark.parametrize(
    "later", ["http://[::1/x", "http://a.test:99999/x", "http://a .test/x", "http://\udcff/"]
)
def test_credentials_unparsable_target_is_another_origin(later: str) -> None:
    """A redirect target httpx cannot parse never counts as the same origin."""
    assert not same_origin("http://a.test/x", later)
