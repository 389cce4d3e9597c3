"""One fetch's decisions, shared by the sync and async fetchers: none of the I/O.

`Attempt` decides what to do with each response (follow, retry, refuse, read) and holds the
deadline; `Body` decodes and caps the body as it streams in.
"""

from __future__ import annotations

import random
import time
import zlib
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from urllib.parse import urljoin

import httpx

from mediaparts._errors import BlockedURL, FetchError, MediaTooLarge
from mediaparts._netguard import AddressRefused
from mediaparts._policy import FetchPolicy, check_url, redact, refusal, scrub

__all__ = ["CHUNK", "Attempt", "Body", "Fetched"]

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
CHUNK = 64 * 1024
# Encodings decoded here, in steps of at most CHUNK bytes, so a small compressed body cannot
# inflate past the cap in one go (RFC 9110 §8.4.1). Others are left to httpx's decoders.
_WBITS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}
_ACCEPT_ENCODING = "gzip, deflate"


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
    if value.isdigit():
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
                "GET",
                self.current,
                headers={"Accept-Encoding": _ACCEPT_ENCODING},
                timeout=httpx.Timeout(self.remaining()),
            )
        except (httpx.InvalidURL, UnicodeError) as exc:
            shown = redact(self.current)
            message = self.scrub(str(exc))
            raise BlockedURL(f"cannot request {shown!r}: {message}", url=shown) from None

    def blocked(self, exc: AddressRefused) -> BlockedURL:
        """Word a refusal at connect time with the URL that led to it."""
        shown = redact(self.current)
        return BlockedURL(refusal(shown, exc.host, exc.reason, exc.address), url=shown)

    def after_failure(self, exc: Exception) -> float:
        """Return how long to wait before retrying a failed send; raise when out of tries."""
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
            wait = _retry_after(response.headers.get("retry-after"))
            delay = self._retry_delay(response.status_code, wait)
            if delay is None:
                raise self.status_error(response)
            return delay
        self._check_length(response)
        return None

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
        if plain and declared.isdigit() and int(declared) > self.policy.max_bytes:
            raise self.too_large(int(declared))

    def too_large(self, size: int) -> MediaTooLarge:
        return MediaTooLarge(
            f"{redact(self.url)!r} is larger than the fetch limit of {self.policy.max_bytes:,} "
            "bytes (FetchPolicy.max_bytes)",
            size=size,
            limit=self.policy.max_bytes,
        )

    def body(self, response: httpx.Response) -> Body:
        if response.is_stream_consumed:  # httpx has decoded it already
            return Body(self, "identity")
        return Body(self, response.headers.get("content-encoding", "identity"))

    def status_error(self, response: httpx.Response) -> FetchError:
        return FetchError(
            f"fetching {redact(str(response.url))!r} failed: HTTP {response.status_code} "
            f"{response.reason_phrase}".rstrip(),
            url=redact(str(response.url)),
            status_code=response.status_code,
        )

    def network_error(self, exc: Exception) -> FetchError:
        kind = "timed out" if isinstance(exc, httpx.TimeoutException) else "failed"
        detail = self.scrub(f"{type(exc).__name__}: {exc}".rstrip(": "))
        return FetchError(
            f"fetching {redact(self.current)!r} {kind}: {detail}", url=redact(self.current)
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


class Body:
    """A body being read: decoded here in bounded steps, capped at `max_bytes` as it grows."""

    def __init__(self, attempt: Attempt, encoding: str) -> None:
        self.attempt = attempt
        self.encoding = encoding.strip().lower()
        self.raw = self.encoding in _WBITS or self.encoding in {"", "identity"}
        wbits = _WBITS.get(self.encoding)
        self.inflater = zlib.decompressobj(wbits) if wbits is not None else None
        self.started = False
        self.data = bytearray()

    def feed(self, chunk: bytes) -> None:
        """Add a chunk: raw bytes when `raw`, else bytes httpx already decoded."""
        if self.inflater is None:
            self._add(chunk)
        else:
            self._inflate(self.inflater, chunk)
        self.attempt.remaining()

    def finish(self) -> bytearray:
        if self.inflater is not None:
            self._add(self.inflater.flush())
        return self.data

    def _inflate(self, inflater: zlib._Decompress, chunk: bytes) -> None:
        try:
            # max_length bounds each step's output; the rest waits in unconsumed_tail.
            self._add(inflater.decompress(chunk, CHUNK))
            while inflater.unconsumed_tail:
                self._add(inflater.decompress(inflater.unconsumed_tail, CHUNK))
        except zlib.error as exc:
            if self.encoding == "deflate" and not self.started:
                # Some servers send raw deflate, not the zlib format RFC 9110 §8.4.1.2 asks for.
                self.inflater = zlib.decompressobj(-zlib.MAX_WBITS)
                self.started = True
                self._inflate(self.inflater, chunk)
                return
            shown = redact(self.attempt.current)
            raise FetchError(
                f"fetching {shown!r} failed: the {self.encoding} body does not decode ({exc})",
                url=shown,
            ) from exc
        self.started = True

    def _add(self, chunk: bytes) -> None:
        self.data += chunk
        if len(self.data) > self.attempt.policy.max_bytes:
            raise self.attempt.too_large(len(self.data))
