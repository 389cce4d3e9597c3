"""One fetch's decisions, shared by the sync and async fetchers: none of the I/O.

`Attempt` decides what to do with each response (follow, retry, refuse, read) and holds the
deadline; `Body` decodes and caps the body as it streams in.
"""

from __future__ import annotations

import base64
import random
import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING
from urllib.parse import urljoin

import httpx

from mediaparts._errors import BlockedURL, FetchError, MediaTooLarge, excerpt
from mediaparts.fetching._credentials import same_origin, without_credentials
from mediaparts.fetching._netguard import AddressRefused
from mediaparts.fetching._policy import FetchPolicy, check_url, redact, refusal, scrub

if TYPE_CHECKING:
    from httpx._client import UseClientDefault  # the type of httpx.USE_CLIENT_DEFAULT

__all__ = ["CHUNK", "MAX_CODINGS", "Attempt", "Body", "Fetched"]

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_ERRNO = re.compile(r"\[Errno -?\d+\]\s*")  # what Python's OSError puts before the OS's words
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
CHUNK = 64 * 1024
# Every content coding is decoded here, layer by layer, in steps of at most CHUNK bytes, so a
# small compressed body cannot inflate past the cap in one go (RFC 9110 §8.4.1). httpx's own
# decoders inflate a whole network read at once: with `Content-Encoding: gzip, gzip` a 300-byte
# read becomes 100 MB before any cap is checked, and its brotli and zstd decoders have no bound
# at all. So only the codings asked for are taken; a body in any other is refused.
_WBITS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}
_ACCEPT_ENCODING = "gzip, deflate"
# Real bodies carry one coding, rarely two; each layer costs an inflater and a frame of
# `Body._push`, so thousands of them would end in RecursionError. urllib3 (2.6), curl
# (MAX_ENCODE_STACK) and undici all refuse more than 5 (read 2026-11); so does mediaparts.
MAX_CODINGS = 5


@dataclass(frozen=True, slots=True)
class Fetched:
    """A fetched body and what the server said about it."""

    url: str
    content: bytes
    content_type: str | None
    status_code: int


def _retry_after(value: str | None) -> float | None:
    """Read a Retry-After header: delay-seconds or an HTTP-date (RFC 9110 §10.2.3)."""
    value = (value or "").strip()
    if value.isascii() and value.isdigit():  # str.isdigit() also takes "²", which float() refuses
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


class Attempt:
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
        # Set once a redirect leaves the URL's origin: the client's credentials stay behind.
        self.crossed = False

    @property
    def auth(self) -> UseClientDefault | None:
        """The `auth=` to send with: the client's own, or none once the origin is left."""
        return None if self.crossed else httpx.USE_CLIENT_DEFAULT

    def remaining(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise FetchError(
                f"fetching {excerpt(redact(self.url), ends=True)}"
                f" took longer than {self.policy.timeout:g} s",
                url=redact(self.url),
            )
        return left

    def request(self, client: httpx.Client | httpx.AsyncClient) -> httpx.Request:
        """Build the next request, with the time left as its timeout.

        A user name and password in the URL are sent as the Basic credentials httpx would
        make of them, but the request's URL is left without them: httpx logs every request's
        URL at INFO level ("HTTP Request: GET ..."), and the credentials must not be logged.
        """
        headers = {"Accept-Encoding": _ACCEPT_ENCODING}
        try:
            url = httpx.URL(self.current)
            basic = None
            if url.userinfo:
                if (url.username or url.password) and (client.auth is None or self.crossed):
                    pair = f"{url.username}:{url.password}".encode()
                    basic = "Basic " + base64.b64encode(pair).decode("ascii")
                    headers["Authorization"] = basic
                url = url.copy_with(userinfo=b"")
            request = client.build_request(
                "GET", url, headers=headers, timeout=httpx.Timeout(self.remaining())
            )
            if self.crossed:
                without_credentials(client, request, keep=basic)
            return request
        except (httpx.InvalidURL, UnicodeError) as exc:
            shown = redact(self.current)
            message = self.scrub(str(exc))
            raise BlockedURL(
                f"cannot request {excerpt(shown, ends=True)}: {message}", url=shown
            ) from None

    def blocked(self, exc: AddressRefused) -> BlockedURL:
        """Word a refusal at connect time with the URL that led to it."""
        shown = redact(self.current)
        return BlockedURL(refusal(shown, exc.host, exc.reason, exc.address), url=shown)

    def after_failure(self, exc: Exception) -> float:
        """Return how long to wait before retrying a failed send; raise when out of tries."""
        if _bad_location(exc):
            shown = redact(self.current)
            raise BlockedURL(
                f"refusing the redirect from {excerpt(shown, ends=True)}:"
                " its Location is not a URL that can "
                "be "
                f"fetched ({self.scrub(str(exc))})",
                url=shown,
            ) from None
        delay = self._retry_delay(None, None)
        if delay is None:
            raise self.network_error(exc) from self.cause(exc)
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
                    f"fetching {excerpt(redact(self.url), ends=True)}:"
                    f" more than {self.policy.max_redirects} "
                    "redirects",
                    url=redact(self.url),
                    status_code=response.status_code,
                )
            target = self._target(location)
            check_url(target, self.policy)
            if not same_origin(self.url, target):
                self.crossed = True
            self.current = target
            return 0.0
        if response.status_code >= 400:
            wait = _retry_after(response.headers.get("retry-after"))
            delay = self._retry_delay(response.status_code, wait)
            if delay is None:
                raise self.status_error(response)
            return delay
        self._check_length(response)
        return None

    def _target(self, location: str) -> str:
        """Resolve a Location against the current URL; refuse one that does not parse."""
        try:
            # Joined to the URL as given, not `response.url`, which has no credentials.
            return urljoin(self.current, location)
        except ValueError as exc:  # urlsplit: "Invalid IPv6 URL", bad characters
            shown = redact(self.current)
            raise BlockedURL(
                f"refusing the redirect from {excerpt(shown, ends=True)}:"
                " its Location is not a valid URL "
                f"({self.scrub(str(exc))})",
                url=shown,
            ) from None

    def _retry_delay(self, status: int | None, retry_after: float | None) -> float | None:
        if status is not None and status not in _RETRY_STATUSES:
            return None
        if self.tries >= self.policy.retries:
            return None
        delay = self.policy.backoff * 2.0**self.tries * (0.5 + random.random() / 2)
        if retry_after is not None:
            delay = max(delay, retry_after)
        self.tries += 1
        if delay >= self.deadline - time.monotonic():
            return None  # a wait the deadline cannot fit: report the error now
        return delay

    def _check_length(self, response: httpx.Response) -> None:
        """Refuse a body whose declared length is over the cap, before reading it."""
        declared = response.headers.get("content-length", "")
        # A compressed body's length says nothing certain about its decoded size.
        encoded = response.headers.get("content-encoding", "identity").lower()
        plain = encoded in {"", "identity"}
        if (
            plain
            and declared.isascii()
            and declared.isdigit()
            and int(declared) > self.policy.max_bytes
        ):
            raise self.too_large(int(declared))

    def too_large(self, size: int) -> MediaTooLarge:
        return MediaTooLarge(
            f"{excerpt(redact(self.url), ends=True)} is larger than the fetch limit of "
            f"{self.policy.max_bytes:,} "
            "bytes (FetchPolicy.max_bytes)",
            size=size,
            limit=self.policy.max_bytes,
        )

    def body(self, response: httpx.Response) -> Body:
        """Start reading a body: raw bytes to decode here, or content httpx already holds."""
        if response.is_stream_consumed:  # an in-memory response, decoded by httpx already
            return Body(self, "identity")
        return Body(self, response.headers.get("content-encoding", "identity"))

    def status_error(self, response: httpx.Response) -> FetchError:
        shown = redact(self.current)
        return FetchError(
            f"fetching {excerpt(shown, ends=True)} failed: HTTP {response.status_code} "
            f"{response.reason_phrase}".rstrip(),
            url=shown,
            status_code=response.status_code,
        )

    def network_error(self, exc: Exception) -> FetchError:
        kind = "timed out" if isinstance(exc, httpx.TimeoutException) else "failed"
        detail = self.scrub(plain_words(exc))
        return FetchError(
            f"fetching {excerpt(redact(self.current), ends=True)} {kind}: {detail}",
            url=redact(self.current),
        )

    def scrub(self, text: str) -> str:
        return scrub(scrub(text, self.url), self.current)

    def cause(self, exc: BaseException) -> BaseException | None:
        """Return `exc` to chain, or None when its own message would show credentials."""
        return exc if self.scrub(str(exc)) == str(exc) else None

    def result(self, response: httpx.Response, body: bytearray) -> Fetched:
        return Fetched(
            url=str(response.url),
            content=bytes(body),
            content_type=response.headers.get("content-type"),
            status_code=response.status_code,
        )


def plain_words(exc: Exception) -> str:
    """Say a network error in words: the OS's text without '[Errno 111]', else its class's
    name as words ('connection refused'; a bare `ReadError` is 'read error')."""
    text = _ERRNO.sub("", str(exc)).strip()
    if not text:
        return _CAMEL.sub(" ", type(exc).__name__).lower()
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _bad_location(exc: Exception) -> bool:
    """Tell whether a send failed on the Location of a redirect the server sent.

    httpx works out where a redirect leads inside `send`, even with `follow_redirects=False`
    (for `response.next_request`), before mediaparts sees the response: a Location it cannot
    read (`data:...`, `javascript:...`, `http:127.0.0.1/`) raises `InvalidURL` there, or a
    `RemoteProtocolError` naming the location header. Neither is worth a retry.
    """
    if isinstance(exc, httpx.InvalidURL):
        return True
    return isinstance(exc, httpx.RemoteProtocolError) and "location header" in str(exc).lower()


class Body:
    """A body being read as it came: decoded here in bounded steps, capped as it grows.

    Each content coding is undone by its own inflater, the last one applied first (RFC 9110
    §8.4); every step of every layer hands on at most CHUNK bytes, so no layer holds more than
    that beyond what the cap has already counted.
    """

    def __init__(self, attempt: Attempt, encoding: str) -> None:
        self.attempt = attempt
        codings = [c.strip().lower() for c in encoding.split(",")]
        codings = [c for c in codings if c not in {"", "identity"}]
        if len(codings) > MAX_CODINGS:
            shown = redact(attempt.current)
            raise FetchError(
                f"fetching {excerpt(shown, ends=True)}"
                f" failed: the server stacked {len(codings)} content "
                "codings "
                f"on the body, more than the {MAX_CODINGS} mediaparts decodes",
                url=shown,
            )
        refused = [c for c in codings if c not in _WBITS]
        if refused:
            shown = redact(attempt.current)
            raise FetchError(
                f"fetching {excerpt(shown, ends=True)} failed: the server sent the body in the "
                f"{excerpt(refused[0])} "
                f"content encoding, which mediaparts did not ask for (it asks for "
                f"{_ACCEPT_ENCODING}) and does not decode",
                url=shown,
            )
        self.layers = [_Layer(coding) for coding in reversed(codings)]
        self.data = bytearray()
        self.received = 0

    def feed(self, chunk: bytes) -> None:
        """Add a chunk of the body as it came over the network."""
        self.received += len(chunk)
        # Compressed data that stays larger than the cap, once deflate's worst-case overhead
        # for incompressible data (5 bytes per stored block, RFC 1951 §3.2.4) is allowed for,
        # cannot decode to less than the cap unless it is padding: either way it is not read.
        limit = self.attempt.policy.max_bytes
        if self.layers and self.received > limit + limit // 1024 + 1024:
            raise self.attempt.too_large(self.received)
        self._push(0, chunk)
        self.attempt.remaining()

    def finish(self) -> bytearray:
        for level, layer in enumerate(self.layers):
            self._push(level + 1, self._step(layer, layer.flush))
        return self.data

    def _push(self, level: int, chunk: bytes) -> None:
        if level == len(self.layers):
            self._add(chunk)
            return
        layer = self.layers[level]
        # max_length bounds each step's output; the rest waits in unconsumed_tail.
        self._push(level + 1, self._step(layer, lambda: layer.inflate(chunk)))
        while layer.tail:
            self._push(level + 1, self._step(layer, lambda: layer.inflate(layer.tail)))

    def _step(self, layer: _Layer, step: Callable[[], bytes]) -> bytes:
        try:
            return step()
        except zlib.error as exc:
            shown = redact(self.attempt.current)
            raise FetchError(
                f"fetching {excerpt(shown, ends=True)}"
                f" failed: the {layer.coding} body does not decode "
                f"({exc})",
                url=shown,
            ) from exc

    def _add(self, chunk: bytes) -> None:
        self.data += chunk
        if len(self.data) > self.attempt.policy.max_bytes:
            raise self.attempt.too_large(len(self.data))


class _Layer:
    """One content coding being undone, at most CHUNK bytes of output per step."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        self.inflater = zlib.decompressobj(_WBITS[coding])
        self.started = False

    @property
    def tail(self) -> bytes:
        """Input held back by the last step's output bound; none once the stream has ended."""
        return b"" if self.inflater.eof else self.inflater.unconsumed_tail

    def inflate(self, chunk: bytes) -> bytes:
        if self.inflater.eof:
            # Whatever follows the end of the stream is dropped, not kept in `unused_data`
            # (where it would pile up unbounded); httpx ignores it too.
            return b""
        try:
            out = self.inflater.decompress(chunk, CHUNK)
        except zlib.error:
            if self.coding != "deflate" or self.started:
                raise
            # Some servers send raw deflate, not the zlib format RFC 9110 §8.4.1.2 asks for.
            self.inflater = zlib.decompressobj(-zlib.MAX_WBITS)
            out = self.inflater.decompress(chunk, CHUNK)
        self.started = True
        return out

    def flush(self) -> bytes:
        return self.inflater.flush()
