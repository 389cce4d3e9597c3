"""Fetch URLs for media parts: one policy, capped streaming, a whole-fetch deadline.

Redirects are followed here, hop by hop, rather than by httpx, so that every hop's URL is
checked against the policy before a request is sent to it. The clients mediaparts makes
itself connect through `_netguard`, which resolves each host once, checks every address and
connects to a checked one, and ends every network read at the fetch's deadline.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import http.cookiejar
import os
import threading
import time
from collections.abc import Iterator
from typing import TypeVar

import httpx

from mediaparts._errors import FetchError, InvalidConfig, OfflineError, excerpt
from mediaparts.fetching import _clients, _netguard
from mediaparts.fetching._attempt import CHUNK, Attempt, Fetched
from mediaparts.fetching._clients import safe_async_client, safe_client
from mediaparts.fetching._netguard import AddressRefused
from mediaparts.fetching._policy import (
    FetchPolicy,
    check_url,
    default_policy,
    redact,
    set_default_policy,
)

__all__ = [
    "FetchPolicy",
    "Fetched",
    "afetch",
    "check_url",
    "configure",
    "default_policy",
    "fetch",
    "is_offline",
    "offline",
    "redact",
    "safe_async_client",
    "safe_client",
    "use_clients",
]


class _Settings:
    def __init__(self) -> None:
        self.client: httpx.Client | None = None
        self.async_client: httpx.AsyncClient | None = None
        self.own_client: httpx.Client | None = None
        self.lock = threading.Lock()
        self.offline_depth = 0


_settings = _Settings()


def configure(
    *,
    fetch: FetchPolicy | None = None,
    client: httpx.Client | None = None,
    async_client: httpx.AsyncClient | None = None,
) -> None:
    """Set the default fetch policy and the httpx clients that URL parts use.

    Args:
        fetch: The policy every fetch uses unless a call passes its own.
        client: A client for synchronous loads (`part.data`, `part.load()`); the caller keeps
            ownership and closes it. Build it with `safe_client()` to keep the guarantee that
            connections go only to checked addresses.
        async_client: A client for `await part.aload()`; the caller keeps ownership
            (`safe_async_client()` keeps the guarantee).

    Raises:
        InvalidConfig: An argument is not of its type (checked before anything is set).
    """
    # A wrong object stored here would fail only at the next URL load, far from this call.
    expected: tuple[tuple[str, object, type, str], ...] = (
        ("fetch", fetch, FetchPolicy, "mediaparts.FetchPolicy"),
        ("client", client, httpx.Client, "httpx.Client (mp.safe_client())"),
        ("async_client", async_client, httpx.AsyncClient, "httpx.AsyncClient"),
    )
    for name, value, cls, label in expected:
        if value is not None and not isinstance(value, cls):
            raise InvalidConfig(
                f"configure({name}=...) takes a {label} or None, got {type(value).__name__}"
            )
    with _settings.lock:
        if fetch is not None:
            set_default_policy(fetch)
        if client is not None:
            _settings.client = client
        if async_client is not None:
            _settings.async_client = async_client


@contextlib.contextmanager
def offline() -> Iterator[None]:
    """Make every fetch raise `OfflineError` while the block runs, in every thread."""
    with _settings.lock:
        _settings.offline_depth += 1
    try:
        yield
    finally:
        with _settings.lock:
            _settings.offline_depth -= 1


@contextlib.contextmanager
def use_clients(
    client: httpx.Client | None, async_client: httpx.AsyncClient | None
) -> Iterator[None]:
    """Send every fetch through these clients while the block runs, then restore the previous.

    Unlike `configure`, which sets clients for good, this puts back what was there before,
    including "no client configured" (the shared guarded client). The testing toolkit's
    `media_urls` fixture serves its registered URLs this way.

    Args:
        client: The client for synchronous loads, or `None` for the shared guarded one.
        async_client: The client for `aload()`, or `None` for a guarded one per fetch.
    """
    with _settings.lock:
        previous = (_settings.client, _settings.async_client)
        _settings.client, _settings.async_client = client, async_client
    try:
        yield
    finally:
        with _settings.lock:
            _settings.client, _settings.async_client = previous


def is_offline() -> bool:
    """Tell whether fetching is switched off (`offline()` or `MEDIAPARTS_OFFLINE=1`)."""
    flag = os.environ.get("MEDIAPARTS_OFFLINE", "").strip().lower()
    return _settings.offline_depth > 0 or flag in {"1", "true", "yes", "on"}


def _check_online(url: str) -> None:
    if is_offline():
        raise OfflineError(
            f"not fetching {excerpt(redact(url), ends=True)}: fetching is switched off "
            "(mp.offline() or MEDIAPARTS_OFFLINE=1)",
            url=redact(url),
        )


# What a send may raise: the network's failures are worth a retry; `InvalidURL` comes from
# a redirect's Location, which `Attempt.after_failure` refuses at once.
_SEND_ERRORS = (httpx.TransportError, httpx.InvalidURL)
_READ_ERRORS = (httpx.HTTPError, UnicodeError)


_ClientT = TypeVar("_ClientT", httpx.Client, httpx.AsyncClient)


def _cookieless(client: _ClientT) -> _ClientT:
    """Make the library's own client neither keep nor send cookies.

    The shared client serves every caller in the process: a cookie one caller's fetch
    received would ride along on another's, and a server could grow the jar without bound.
    Clients the application passes in keep their own policy.
    """
    client.cookies.jar.set_policy(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
    return client


def _shared_client() -> httpx.Client:
    if _settings.client is not None:
        return _settings.client
    with _settings.lock:
        if _settings.own_client is None:
            _settings.own_client = _cookieless(safe_client())
            atexit.register(_settings.own_client.close)
        return _settings.own_client


def fetch(
    url: str, *, policy: FetchPolicy | None = None, client: httpx.Client | None = None
) -> Fetched:
    """Fetch a URL's body under the fetch policy.

    Args:
        url: An http(s) URL.
        policy: The policy; the configured default when omitted.
        client: The httpx client to send with; the configured or a shared one when omitted.
            Unless it comes from `safe_client()`, its hosts are resolved and checked before
            each request, but it resolves them again itself (see docs/fetching.md).

    Returns:
        The final URL, body, content type and status.

    Raises:
        OfflineError: Fetching is switched off.
        BlockedURL: The policy refuses the URL, a redirect target or an address a host
            resolves to.
        MediaTooLarge: The body is over `policy.max_bytes`.
        FetchError: The request failed, timed out or ended in an HTTP error.
    """
    policy = policy or default_policy()
    _check_online(url)
    check_url(url, policy)
    attempt = Attempt(url, policy)
    http = client or _shared_client()
    precheck = _clients.needs_precheck(http)
    # Sync twin of `_afetch`'s loop (httpx's blocking and awaited send/iter_raw/sleep); the
    # decisions themselves are `Attempt`'s, written once.
    with _netguard.fetch_scope(policy, attempt.deadline):
        while True:
            try:
                if precheck:
                    _clients.precheck(attempt.current, policy, attempt.remaining())
                request = attempt.request(http)
                response = http.send(
                    request, stream=True, follow_redirects=False, auth=attempt.auth
                )
            except AddressRefused as exc:
                raise attempt.blocked(exc) from exc
            except _SEND_ERRORS as exc:
                time.sleep(attempt.after_failure(exc))
                continue
            try:
                wait = attempt.decide(response)
                if wait is None:
                    body = attempt.body(response)
                    if response.is_stream_consumed:  # an in-memory response, already read
                        body.feed(response.content)
                    else:  # as sent: Body decodes it in bounded steps
                        for chunk in response.iter_raw(CHUNK):
                            body.feed(chunk)
                    return attempt.result(response, body.finish())
            except _READ_ERRORS as exc:
                raise attempt.network_error(exc) from attempt.cause(exc)
            finally:
                response.close()
            time.sleep(wait)


async def afetch(
    url: str, *, policy: FetchPolicy | None = None, client: httpx.AsyncClient | None = None
) -> Fetched:
    """Fetch a URL's body under the fetch policy, asynchronously.

    Same arguments, result and errors as `fetch`; the timeout bounds the whole fetch.
    """
    policy = policy or default_policy()
    _check_online(url)
    check_url(url, policy)
    attempt = Attempt(url, policy)
    try:
        return await asyncio.wait_for(
            _afetch(attempt, client or _settings.async_client), policy.timeout
        )
    except asyncio.TimeoutError as exc:
        raise FetchError(
            f"fetching {excerpt(redact(url), ends=True)} took longer than {policy.timeout:g} s",
            url=redact(url),
        ) from exc


async def _afetch(attempt: Attempt, client: httpx.AsyncClient | None) -> Fetched:
    if client is None:
        # A client is bound to the event loop it first ran on, so without a configured one
        # each fetch gets its own (configure(async_client=...) to pool connections).
        async with _cookieless(safe_async_client()) as own:
            return await _afetch(attempt, own)
    precheck = _clients.needs_precheck(client)
    with _netguard.fetch_scope(attempt.policy, attempt.deadline):
        # Async twin of `fetch`'s loop (httpx's blocking and awaited send/iter_raw/sleep); the
        # decisions themselves are `Attempt`'s, written once.
        while True:
            try:
                if precheck:
                    await _clients.precheck_async(
                        attempt.current, attempt.policy, attempt.remaining()
                    )
                request = attempt.request(client)
                response = await client.send(
                    request, stream=True, follow_redirects=False, auth=attempt.auth
                )
            except AddressRefused as exc:
                raise attempt.blocked(exc) from exc
            except _SEND_ERRORS as exc:
                await asyncio.sleep(attempt.after_failure(exc))
                continue
            try:
                wait = attempt.decide(response)
                if wait is None:
                    body = attempt.body(response)
                    if response.is_stream_consumed:  # an in-memory response, already read
                        body.feed(response.content)
                    else:  # as sent: Body decodes it in bounded steps
                        async for chunk in response.aiter_raw(CHUNK):
                            body.feed(chunk)
                    return attempt.result(response, body.finish())
            except _READ_ERRORS as exc:
                raise attempt.network_error(exc) from attempt.cause(exc)
            finally:
                await response.aclose()
            await asyncio.sleep(wait)
