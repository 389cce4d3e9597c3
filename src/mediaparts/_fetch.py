"""Fetch URLs for media parts: one policy, capped streaming, a whole-fetch deadline.

Redirects are followed here, hop by hop, rather than by httpx, so that every hop's URL is
checked against the policy before a request is sent to it.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ipaddress
import os
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit

import httpx

from mediaparts._errors import BlockedURL, FetchError, MediaTooLarge, OfflineError

__all__ = [
    "FetchPolicy",
    "Fetched",
    "afetch",
    "check_url",
    "configure",
    "fetch",
    "is_offline",
    "offline",
    "redact",
]

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_CHUNK = 64 * 1024


@dataclass(frozen=True, slots=True)
class FetchPolicy:
    """How URLs may be fetched.

    Attributes:
        timeout: Seconds for the whole fetch, redirects and retries included.
        max_bytes: Most bytes a body may have (decoded); larger bodies raise `MediaTooLarge`.
        max_redirects: Most redirect hops to follow.
        allow_private: Let fetches reach loopback and private-network addresses.
        schemes: URL schemes that may be fetched.
        retries: Further tries after a connection error, 429 or 5xx.
        backoff: Seconds before the first retry; doubled for each further one.
    """

    timeout: float = 30.0
    max_bytes: int = 50 * 2**20
    max_redirects: int = 5
    allow_private: bool = False
    schemes: tuple[str, ...] = ("https", "http")
    retries: int = 2
    backoff: float = 0.25

    def __post_init__(self) -> None:
        if self.timeout <= 0:
            raise ValueError(f"FetchPolicy.timeout must be positive, got {self.timeout!r}")
        if self.max_bytes < 0 or self.max_redirects < 0 or self.retries < 0:
            raise ValueError("FetchPolicy.max_bytes, max_redirects and retries must be >= 0")


@dataclass(frozen=True, slots=True)
class Fetched:
    """A fetched body and what the server said about it."""

    url: str
    content: bytes
    content_type: str | None
    status_code: int


class _Settings:
    def __init__(self) -> None:
        self.policy = FetchPolicy()
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
            ownership and closes it.
        async_client: A client for `await part.aload()`; the caller keeps ownership.
    """
    with _settings.lock:
        if fetch is not None:
            _settings.policy = fetch
        if client is not None:
            _settings.client = client
        if async_client is not None:
            _settings.async_client = async_client


def default_policy() -> FetchPolicy:
    """Return the policy set by `configure` (or the built-in default)."""
    return _settings.policy


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


def is_offline() -> bool:
    """Tell whether fetching is switched off (`offline()` or `MEDIAPARTS_OFFLINE=1`)."""
    flag = os.environ.get("MEDIAPARTS_OFFLINE", "").strip().lower()
    return _settings.offline_depth > 0 or flag in {"1", "true", "yes", "on"}


def redact(url: str) -> str:
    """Return the URL without any user name or password, for messages and logs."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable URL>"
    if "@" not in parts.netloc:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, "***@" + host, parts.path, parts.query, parts.fragment))


def _literal_address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """Read a host that is an IP literal, in any spelling a resolver would accept."""
    host = host.strip("[]")
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    # inet_aton-style IPv4 spellings a resolver accepts: '2130706433', '0x7f.1', '0177.0.0.1'.
    parts = host.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    try:
        nums = [_inet_number(p) for p in parts]
    except ValueError:
        return None
    *head, last = nums
    if any(n > 255 for n in head) or last >= 1 << (8 * (4 - len(head))):
        return None
    value = 0
    for n in head:
        value = value << 8 | n
    return ipaddress.IPv4Address(value << (8 * (4 - len(head))) | last)


def _inet_number(text: str) -> int:
    if text[:2].lower() == "0x":
        return int(text[2:] or "0", 16)
    if len(text) > 1 and text.startswith("0"):
        return int(text, 8)
    if not text.isdigit():
        raise ValueError(text)
    return int(text)


def _private_reason(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return _private_reason(ip.ipv4_mapped)
    for label, flag in (
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("private", ip.is_private),
        ("multicast", ip.is_multicast),
        ("unspecified", ip.is_unspecified),
        ("reserved", ip.is_reserved),
    ):
        if flag:
            return label
    if not ip.is_global:
        return "non-public"
    return None


def check_url(url: str, policy: FetchPolicy) -> None:
    """Refuse a URL the policy does not allow, without any network traffic.

    Raises:
        BlockedURL: The scheme is not allowed, the URL has no host, or its host is a
            loopback/private/link-local literal address or a `localhost` name while
            `policy.allow_private` is false.
    """
    shown = redact(url)
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError as exc:
        raise BlockedURL(f"cannot parse URL {shown!r}: {exc}", url=shown) from exc
    scheme = parts.scheme.lower()
    if scheme not in policy.schemes:
        allowed = ", ".join(policy.schemes)
        raise BlockedURL(
            f"refusing {shown!r}: scheme {scheme or '(none)'!r} is not one of {allowed} "
            "(change FetchPolicy.schemes to allow it)",
            url=shown,
        )
    if not host:
        raise BlockedURL(f"refusing {shown!r}: the URL has no host", url=shown)
    try:
        httpx.URL(url)  # what httpx will send must parse: no control characters, valid IDNA
        if _literal_address(host) is None:
            host.encode("idna")  # empty or over-long labels fail here, not deep in a send
    except (httpx.InvalidURL, UnicodeError, ValueError) as exc:
        raise BlockedURL(f"refusing {shown!r}: not a valid URL ({exc})", url=shown) from exc
    if policy.allow_private:
        return
    host = host.rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        reason: str | None = "loopback"
    else:
        ip = _literal_address(host)
        reason = _private_reason(ip) if ip is not None else None
    if reason is not None:
        raise BlockedURL(
            f"refusing {shown!r}: {host} is a {reason} address, and fetching such addresses "
            "is off by default (FetchPolicy(allow_private=True) allows it)",
            url=shown,
        )


def _check_online(url: str) -> None:
    if is_offline():
        raise OfflineError(
            f"not fetching {redact(url)!r}: fetching is switched off "
            "(mp.offline() or MEDIAPARTS_OFFLINE=1)",
            url=redact(url),
        )


class _Attempt:
    """One fetch across its redirects and retries: every decision, none of the I/O.

    The sync and async fetchers differ only in how they send and read; what to do with each
    response (follow, retry, refuse, read) is decided here, once for both.
    """

    def __init__(self, url: str, policy: FetchPolicy) -> None:
        self.url = url
        self.current = url
        self.policy = policy
        self.deadline = time.monotonic() + policy.timeout
        self.hops = 0
        self.tries = 0

    def remaining(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise FetchError(
                f"fetching {redact(self.url)!r} took longer than {self.policy.timeout:g} s",
                url=redact(self.url),
            )
        return left

    def request(self, client: httpx.Client | httpx.AsyncClient) -> httpx.Request:
        """Build the next request, with the time left as its timeout."""
        try:
            return client.build_request(
                "GET", self.current, timeout=httpx.Timeout(self.remaining())
            )
        except (httpx.InvalidURL, UnicodeError) as exc:
            raise BlockedURL(
                f"cannot request {redact(self.current)!r}: {exc}", url=redact(self.current)
            ) from exc

    def after_failure(self, exc: Exception) -> float:
        """Return how long to wait before retrying a failed send; raise when out of tries."""
        delay = self._retry_delay(None)
        if delay is None:
            raise self.network_error(exc) from exc
        return delay

    def decide(self, response: httpx.Response) -> float | None:
        """Return None to read this response's body, or seconds to wait before the next try.

        Follows a redirect (after checking its target), retries what can recover, and raises
        for everything else.
        """
        location = response.headers.get("location")
        if response.status_code in _REDIRECTS and location is not None:
            self.hops += 1
            if self.hops > self.policy.max_redirects:
                raise FetchError(
                    f"fetching {redact(self.url)!r}: more than {self.policy.max_redirects} "
                    "redirects",
                    url=redact(self.url),
                    status_code=response.status_code,
                )
            target: str = urljoin(str(response.url), location)
            check_url(target, self.policy)
            self.current = target
            return 0.0
        if response.status_code >= 400:
            delay = self._retry_delay(response.status_code)
            if delay is None:
                raise self.status_error(response)
            return delay
        self._check_length(response)
        return None

    def _retry_delay(self, status: int | None) -> float | None:
        if status is not None and status not in _RETRY_STATUSES:
            return None
        if self.tries >= self.policy.retries:
            return None
        delay = self.policy.backoff * 2.0**self.tries * (0.5 + random.random() / 2)
        self.tries += 1
        if delay >= self.deadline - time.monotonic():
            return None
        return delay

    def _check_length(self, response: httpx.Response) -> None:
        """Refuse a body whose declared length is over the cap, before reading it."""
        declared = response.headers.get("content-length", "")
        # A compressed body's length says nothing certain about its decoded size.
        encoded = response.headers.get("content-encoding", "identity").lower()
        plain = encoded in {"", "identity"}
        if plain and declared.isdigit() and int(declared) > self.policy.max_bytes:
            raise self._too_large(int(declared))

    def _too_large(self, size: int) -> MediaTooLarge:
        return MediaTooLarge(
            f"{redact(self.url)!r} is larger than the fetch limit of {self.policy.max_bytes:,} "
            "bytes (FetchPolicy.max_bytes)",
            size=size,
            limit=self.policy.max_bytes,
        )

    def add(self, body: bytearray, chunk: bytes) -> None:
        body += chunk
        if len(body) > self.policy.max_bytes:
            raise self._too_large(len(body))
        self.remaining()

    def status_error(self, response: httpx.Response) -> FetchError:
        return FetchError(
            f"fetching {redact(str(response.url))!r} failed: HTTP {response.status_code} "
            f"{response.reason_phrase}".rstrip(),
            url=redact(str(response.url)),
            status_code=response.status_code,
        )

    def network_error(self, exc: Exception) -> FetchError:
        kind = "timed out" if isinstance(exc, httpx.TimeoutException) else "failed"
        return FetchError(
            f"fetching {redact(self.current)!r} {kind}: {type(exc).__name__}: {exc}".rstrip(": "),
            url=redact(self.current),
        )

    def result(self, response: httpx.Response, body: bytearray) -> Fetched:
        return Fetched(
            url=str(response.url),
            content=bytes(body),
            content_type=response.headers.get("content-type"),
            status_code=response.status_code,
        )


# What a send may raise that is worth a retry: the network, not the request.
_SEND_ERRORS = (httpx.TransportError,)


def _shared_client() -> httpx.Client:
    if _settings.client is not None:
        return _settings.client
    with _settings.lock:
        if _settings.own_client is None:
            _settings.own_client = httpx.Client(follow_redirects=False)
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

    Returns:
        The final URL, body, content type and status.

    Raises:
        OfflineError: Fetching is switched off.
        BlockedURL: The policy refuses the URL or a redirect target.
        MediaTooLarge: The body is over `policy.max_bytes`.
        FetchError: The request failed, timed out or ended in an HTTP error.
    """
    policy = policy or _settings.policy
    _check_online(url)
    check_url(url, policy)
    attempt = _Attempt(url, policy)
    http = client or _shared_client()
    while True:
        try:
            response = http.send(attempt.request(http), stream=True, follow_redirects=False)
        except _SEND_ERRORS as exc:
            time.sleep(attempt.after_failure(exc))
            continue
        try:
            wait = attempt.decide(response)
            if wait is None:
                body = bytearray()
                for chunk in response.iter_bytes(_CHUNK):
                    attempt.add(body, chunk)
                return attempt.result(response, body)
        except (httpx.HTTPError, UnicodeError) as exc:
            raise attempt.network_error(exc) from exc
        finally:
            response.close()
        time.sleep(wait)


async def afetch(
    url: str, *, policy: FetchPolicy | None = None, client: httpx.AsyncClient | None = None
) -> Fetched:
    """Fetch a URL's body under the fetch policy, asynchronously.

    Same arguments, result and errors as `fetch`; the timeout bounds the whole fetch.
    """
    policy = policy or _settings.policy
    _check_online(url)
    check_url(url, policy)
    attempt = _Attempt(url, policy)
    try:
        return await asyncio.wait_for(
            _afetch(attempt, client or _settings.async_client), policy.timeout
        )
    except asyncio.TimeoutError as exc:
        raise FetchError(
            f"fetching {redact(url)!r} took longer than {policy.timeout:g} s", url=redact(url)
        ) from exc


async def _afetch(attempt: _Attempt, client: httpx.AsyncClient | None) -> Fetched:
    if client is None:
        # A client is bound to the event loop it first ran on, so without a configured one
        # each fetch gets its own (configure(async_client=...) to pool connections).
        async with httpx.AsyncClient(follow_redirects=False) as own:
            return await _afetch(attempt, own)
    while True:
        try:
            response = await client.send(
                attempt.request(client), stream=True, follow_redirects=False
            )
        except _SEND_ERRORS as exc:
            await asyncio.sleep(attempt.after_failure(exc))
            continue
        try:
            wait = attempt.decide(response)
            if wait is None:
                body = bytearray()
                async for chunk in response.aiter_bytes(_CHUNK):
                    attempt.add(body, chunk)
                return attempt.result(response, body)
        except (httpx.HTTPError, UnicodeError) as exc:
            raise attempt.network_error(exc) from exc
        finally:
            await response.aclose()
        await asyncio.sleep(wait)
