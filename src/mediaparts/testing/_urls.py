"""The `media_urls` fixture: registered URLs served to every fetch, all others refused.

While it is active, mediaparts' fetches go through httpx clients over one
`httpx.MockTransport` (installed with `mediaparts.fetching.use_clients`), so sync loads
(`part.data`, `load()`) and async loads (`aload()`, `mp.arender`) both reach the registrations
here and nothing reaches the network. The previous clients are put back exactly when the test ends.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

import httpx

from mediaparts._conversation._parts import MediaPart
from mediaparts._errors import BlockedURL, InvalidConfig, OfflineError, cut_middle, excerpt
from mediaparts._sources import read_path
from mediaparts.detection import detect
from mediaparts.fetching import check_url, redact, use_clients

__all__ = ["MediaURLs"]

Content = bytes | bytearray | memoryview | str | os.PathLike[str] | MediaPart


@dataclass(frozen=True, slots=True)
class _Reply:
    status: int
    headers: tuple[tuple[str, str], ...]
    content: bytes


def _key(url: str | httpx.URL) -> str:
    """Spell a URL the way httpx sends it, without its fragment (never sent)."""
    return str(httpx.URL(url).copy_with(fragment=None))


class MediaURLs:
    """Serve registered responses to mediaparts fetches; this is what `media_urls` returns.

    Register a URL with `add`; while the fixture is active every fetch of it gets that
    response, and a fetch of any other URL raises `mp.OfflineError`. At teardown, a registered
    URL that was never requested fails the test, unless the test is marked
    `@pytest.mark.mediaparts(assert_all_requested=False)`.
    """

    def __init__(self, *, assert_all_requested: bool = True) -> None:
        """Start with no registrations.

        Args:
            assert_all_requested: Whether registrations never requested fail the test at
                teardown.
        """
        self.assert_all_requested = assert_all_requested
        self._replies: dict[str, _Reply] = {}
        self._requests: list[str] = []
        self._lock = threading.Lock()

    def add(
        self,
        url: str,
        content_or_path: Content,
        status: int = 200,
        headers: Mapping[str, str] | None = None,
    ) -> str:
        """Register the response to every fetch of `url`; a later `add` of it replaces this.

        Args:
            url: The URL, matched exactly (query included) as httpx spells it.
            content_or_path: The body: bytes, `str` text (sent as UTF-8), a `pathlib.Path` (the
                file's bytes), or a part with its bytes (such as one from the `media` fixture).
            status: The HTTP status; a 3xx with a `Location` header redirects, a 4xx or 5xx
                makes the fetch fail as it would against a real server.
            headers: Response headers. Without `Content-Type`, the body's detected type is sent
                (detected from the bytes and the URL's file name).

        Returns:
            The URL, so `url = media_urls.add("https://...", part)` reads naturally.

        Raises:
            InvalidConfig: The URL does not parse, the status is not an HTTP status, or the
                content is of another type or a part without its bytes.
        """
        try:
            key = _key(url)
        except (httpx.InvalidURL, TypeError) as exc:
            raise InvalidConfig(
                f"media_urls.add() needs a valid URL, got {excerpt(url, ends=True)}: {exc}"
            ) from exc
        if httpx.URL(key).scheme not in ("http", "https") or not httpx.URL(key).host:
            raise InvalidConfig(
                f"media_urls.add() needs an absolute http(s) URL, got {excerpt(url, ends=True)}"
            )
        if isinstance(status, bool) or not isinstance(status, int) or not 100 <= status <= 599:
            raise InvalidConfig(
                f"status must be an HTTP status from 100 to 599, got {excerpt(status)}"
            )
        body, media_type = _body(content_or_path, PurePosixPath(httpx.URL(key).path).name)
        sent = dict(headers or {})
        if not any(name.lower() == "content-type" for name in sent):
            sent["Content-Type"] = media_type
        reply = _Reply(status, tuple(sent.items()), body)
        with self._lock:
            self._replies[key] = reply
        return url

    @property
    def requests(self) -> list[str]:
        """Every URL fetched so far, registered or not, in order (a copy)."""
        with self._lock:
            return list(self._requests)

    @property
    def unrequested(self) -> list[str]:
        """The registered URLs that no fetch has asked for yet."""
        with self._lock:
            asked = set(self._requests)
            return [url for url in self._replies if url not in asked]

    def _teardown_failure(self) -> str | None:
        """Return the teardown failure message, or None when nothing is wrong or it is off."""
        missing = self.unrequested
        if not self.assert_all_requested or not missing:
            return None
        refusals = {url: _refusal(url) for url in missing}
        listed = "\n".join(
            f"  - {cut_middle(redact(url))}"
            + (f"\n    refused by the fetch policy, before any request: {why}" if why else "")
            for url, why in refusals.items()
        )
        many = len(missing) > 1
        message = (
            f"media_urls: {len(missing)} registered URL{'s were' if many else ' was'} never "
            f"requested:\n{listed}\n"
            f"Fetch {'them' if many else 'it'} in the test (part.data, load(), aload() or "
            "mp.render with urls='inline'), remove the media_urls.add() "
            f"call{'s' if many else ''}, or mark the test "
            "@pytest.mark.mediaparts(assert_all_requested=False) if that is on purpose."
        )
        if any(refusals.values()):
            message += (
                "\nA URL the fetch policy refuses raises mp.BlockedURL and never reaches "
                "media_urls: register a public URL (https://example.com/...) instead, or fetch "
                "it inside `with mediaparts.fetching.using_policy(mp.FetchPolicy("
                "allow_private=True)):`, which lasts for that block only."
            )
        return message

    def _handle(self, request: httpx.Request) -> httpx.Response:
        """Answer one request from the registrations (the `httpx.MockTransport` handler).

        Raises:
            OfflineError: The URL is not registered.
        """
        key = _key(request.url)
        with self._lock:
            self._requests.append(key)
            reply = self._replies.get(key)
            known = list(self._replies)
        if reply is None:
            shown = redact(key)
            hint = f" Registered: {', '.join(map(redact, known))}." if known else ""
            raise OfflineError(
                f"media_urls refused {excerpt(shown, ends=True)}:"
                " only registered URLs are served while the "
                f"media_urls fixture is active. Register it with "
                f"media_urls.add({excerpt(shown, ends=True)}, content) or fix the URL.{hint}",
                url=shown,
            )
        return httpx.Response(reply.status, headers=list(reply.headers), content=reply.content)

    @contextmanager
    def active(self) -> Iterator[MediaURLs]:
        """Route mediaparts' fetches here for the block, then restore the previous clients."""
        transport = httpx.MockTransport(self._handle)
        client = httpx.Client(transport=transport)
        # An AsyncClient over a MockTransport holds no connection and no event loop, so one
        # client serves `aload()` from any loop (each asyncio.run in a test makes a new one).
        async_client = httpx.AsyncClient(transport=transport)
        try:
            with use_clients(client, async_client):
                yield self
        finally:
            client.close()


def _refusal(url: str) -> str | None:
    """Say why the configured fetch policy refuses `url` before any request, or None."""
    try:
        check_url(url)
    except BlockedURL as exc:
        return str(exc)
    return None


def _body(content: Any, url_name: str) -> tuple[bytes, str]:
    """Return the response body and the Content-Type to send when none is given."""
    if isinstance(content, MediaPart):
        if not content.is_loaded:
            raise InvalidConfig(
                "media_urls.add() needs a part with its bytes, not a URL part that is not loaded"
            )
        return content.data, content.effective_media_type or "application/octet-stream"
    if isinstance(content, str):
        body = content.encode("utf-8")
        found = detect(body, filename=url_name or None).media_type
        return body, f"{found}; charset=utf-8" if found.startswith("text/") else found
    if isinstance(content, bytes | bytearray | memoryview):
        body = bytes(content)
        return body, detect(body, filename=url_name or None).media_type
    if isinstance(content, os.PathLike):
        path = os.fspath(content)
        body = read_path(path)  # the one path reader: regular files only, bounded
        return body, detect(body, filename=os.path.basename(path)).media_type
    raise InvalidConfig(
        "media_urls.add() takes bytes, str text, a pathlib.Path or a part, "
        f"got {type(content).__name__}"
    )
