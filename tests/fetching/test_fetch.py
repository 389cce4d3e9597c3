"""Fetching URLs under a policy: caps, deadlines, redirects, retries, offline mode."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from pytest_httpx import HTTPXMock

import mediaparts as mp
from mediaparts.fetching import afetch, check_url, fetch, is_offline, redact
from tests.conftest import LocalServer

FAST = mp.FetchPolicy(backoff=0.001)
LOCAL = mp.FetchPolicy(allow_private=True, timeout=2.0, backoff=0.001)


def test_fetch_returns_body_type_and_final_url(httpx_mock: HTTPXMock) -> None:
    """A plain GET gives the body, its content type and the URL it came from."""
    httpx_mock.add_response(
        url="https://example.com/a.png", content=b"png", headers={"Content-Type": "image/png"}
    )
    got = fetch("https://example.com/a.png")
    assert (got.content, got.content_type, got.url, got.status_code) == (
        b"png",
        "image/png",
        "https://example.com/a.png",
        200,
    )


def test_fetch_follows_redirects_hop_by_hop(httpx_mock: HTTPXMock) -> None:
    """Redirects are followed, relative ones too, and the final URL is reported."""
    httpx_mock.add_response(
        url="https://example.com/a", status_code=302, headers={"Location": "/b"}
    )
    httpx_mock.add_response(
        url="https://example.com/b",
        status_code=301,
        headers={"Location": "https://cdn.example.org/c"},
    )
    httpx_mock.add_response(url="https://cdn.example.org/c", content=b"done")
    got = fetch("https://example.com/a")
    assert (got.content, got.url) == (b"done", "https://cdn.example.org/c")


def test_fetch_refuses_redirect_to_private_address(httpx_mock: HTTPXMock) -> None:
    """A redirect to a loopback address is refused before any request is sent there."""
    httpx_mock.add_response(
        url="https://example.com/a", status_code=302, headers={"Location": "http://127.0.0.1/admin"}
    )
    with pytest.raises(mp.BlockedURL, match="loopback"):
        fetch("https://example.com/a")
    assert [str(r.url) for r in httpx_mock.get_requests()] == ["https://example.com/a"]


def test_fetch_stops_after_max_redirects(httpx_mock: HTTPXMock) -> None:
    """More hops than max_redirects raise FetchError."""
    for i in range(3):
        httpx_mock.add_response(
            url=f"https://example.com/{i}", status_code=302, headers={"Location": f"/{i + 1}"}
        )
    with pytest.raises(mp.FetchError, match="more than 2 redirects"):
        fetch("https://example.com/0", policy=mp.FetchPolicy(max_redirects=2))


def test_fetch_http_error_carries_status_and_url(httpx_mock: HTTPXMock) -> None:
    """A 404 raises FetchError with the status code and the URL (credentials removed)."""
    httpx_mock.add_response(url="https://example.com/x", status_code=404)
    with pytest.raises(mp.FetchError) as caught:
        fetch("https://user:secret@example.com/x")
    assert caught.value.status_code == 404
    assert caught.value.url == "https://***@example.com/x"
    assert "secret" not in str(caught.value)


def test_fetch_retries_503_then_succeeds(httpx_mock: HTTPXMock) -> None:
    """A 503 is retried (with backoff) and a later success is returned."""
    httpx_mock.add_response(url="https://example.com/x", status_code=503)
    httpx_mock.add_response(url="https://example.com/x", content=b"ok")
    assert fetch("https://example.com/x", policy=FAST).content == b"ok"
    assert len(httpx_mock.get_requests()) == 2


def test_fetch_gives_up_after_retries(httpx_mock: HTTPXMock) -> None:
    """After `retries` further tries the last error is raised."""
    for _ in range(3):
        httpx_mock.add_response(url="https://example.com/x", status_code=500)
    with pytest.raises(mp.FetchError) as caught:
        fetch("https://example.com/x", policy=FAST)
    assert caught.value.status_code == 500
    assert len(httpx_mock.get_requests()) == 3


def test_fetch_does_not_retry_client_errors(httpx_mock: HTTPXMock) -> None:
    """A 403 is final: no retry."""
    httpx_mock.add_response(url="https://example.com/x", status_code=403)
    with pytest.raises(mp.FetchError):
        fetch("https://example.com/x", policy=FAST)
    assert len(httpx_mock.get_requests()) == 1


def test_fetch_retries_connection_errors(httpx_mock: HTTPXMock) -> None:
    """A connection error is retried, then reported as FetchError."""
    httpx_mock.add_exception(httpx.ConnectError("refused"), url="https://example.com/x")
    httpx_mock.add_response(url="https://example.com/x", content=b"ok")
    assert fetch("https://example.com/x", policy=FAST).content == b"ok"
    httpx_mock.add_exception(
        httpx.ConnectError("refused"), url="https://example.com/y", is_reusable=True
    )
    with pytest.raises(mp.FetchError, match=r"'https://example\.com/y' failed: refused$"):
        fetch("https://example.com/y", policy=FAST)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (httpx.ConnectError("[Errno 111] Connection refused"), "connection refused"),
        (httpx.ConnectError("[Errno -2] Name or service not known"), "name or service not known"),
        (httpx.ReadError(""), "read error"),
        (
            httpx.ConnectError("[SSL: CERTIFICATE_VERIFY_FAILED] x"),
            "[SSL: CERTIFICATE_VERIFY_FAILED] x",
        ),
    ],
    ids=["refused", "dns", "bare", "ssl"],
)
def test_fetch_network_error_in_words(httpx_mock: HTTPXMock, error: Exception, said: str) -> None:
    """A network error is the OS's words without '[Errno N]' or httpx's class name."""
    httpx_mock.add_exception(error, url="https://example.com/x")
    with pytest.raises(mp.FetchError) as caught:
        fetch("https://example.com/x", policy=mp.FetchPolicy(retries=0))
    assert str(caught.value) == f"fetching 'https://example.com/x' failed: {said}"


def test_fetch_connection_refused_is_said_plainly() -> None:
    """A refused connection is said in words, without httpx's class or '[Errno 111]'."""
    url = f"http://127.0.0.1:{_closed_port()}/x.png"
    with pytest.raises(mp.FetchError) as caught:
        fetch(url, policy=mp.FetchPolicy(allow_private=True, timeout=2.0, retries=0))
    assert str(caught.value) == f"fetching {url!r} failed: connection refused"
    assert caught.value.url == url


def test_fetch_refuses_declared_length_over_cap(httpx_mock: HTTPXMock) -> None:
    """A Content-Length over max_bytes raises MediaTooLarge before the body is read."""
    httpx_mock.add_response(url="https://example.com/big", content=b"x" * 2000)
    with pytest.raises(mp.MediaTooLarge) as caught:
        fetch("https://example.com/big", policy=mp.FetchPolicy(max_bytes=1000))
    assert caught.value.limit == 1000


def test_fetch_caps_streamed_body_without_length(httpx_mock: HTTPXMock) -> None:
    """A body with no Content-Length is cut off once it passes max_bytes."""
    produced: list[int] = []

    def endless() -> Iterator[bytes]:
        for i in range(10_000):
            produced.append(i)
            yield b"x" * 1024

    httpx_mock.add_response(url="https://example.com/stream", stream=_Stream(endless()))
    with pytest.raises(mp.MediaTooLarge):
        fetch("https://example.com/stream", policy=mp.FetchPolicy(max_bytes=10_000))
    assert len(produced) < 100  # stopped long before the 10 MB end


class _Stream(httpx.SyncByteStream):
    def __init__(self, chunks: Iterator[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        return self.chunks


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/x",
        "http://localhost:8080/x",
        "http://app.localhost/x",
        "http://[::1]/x",
        "http://[::ffff:127.0.0.1]/x",
        "http://2130706433/x",
        "http://0x7f.1/x",
        "http://0.0.0.0/x",
        "http://10.1.2.3/x",
        "http://192.168.0.1/x",
        "http://172.16.5.4/x",
        "http://100.64.0.1/x",
        "http://169.254.169.254/latest/meta-data",
        "http://[fd00::1]/x",
        "http://[fe80::1]/x",
        "file:///etc/passwd",
        "ftp://example.com/x",
        "https:///nohost",
    ],
)
def test_check_url_refuses_without_network(url: str) -> None:
    """Private, loopback and odd-spelled literal addresses and other schemes are refused."""
    with pytest.raises(mp.BlockedURL):
        check_url(url, mp.FetchPolicy())


@pytest.mark.parametrize(
    "url", ["https://example.com/a.png", "http://93.184.215.14/x", "https://[2606:4700::1]/"]
)
def test_check_url_allows_public(url: str) -> None:
    """Public hosts and addresses pass the check."""
    check_url(url, mp.FetchPolicy())


def test_offline_blocks_every_fetch(httpx_mock: HTTPXMock) -> None:
    """Inside mp.offline() a fetch raises OfflineError and sends nothing."""
    with mp.offline(), pytest.raises(mp.OfflineError, match="switched off"):
        fetch("https://example.com/x")
    assert not is_offline()
    assert httpx_mock.get_requests() == []


def test_offline_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """MEDIAPARTS_OFFLINE=1 switches fetching off."""
    monkeypatch.setenv("MEDIAPARTS_OFFLINE", "1")
    with pytest.raises(mp.OfflineError):
        fetch("https://example.com/x")


def test_redact_removes_credentials() -> None:
    """User names and passwords never reach messages."""
    assert redact("https://a:b@example.com/p?q=1") == "https://***@example.com/p?q=1"
    assert redact("https://example.com/p") == "https://example.com/p"


def test_fetch_uses_injected_client() -> None:
    """A caller's client (here over a MockTransport) is used as given."""
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, content=b"mocked")

    with httpx.Client(transport=httpx.MockTransport(handler)) as client:
        assert fetch("https://example.com/z", client=client).content == b"mocked"
    assert seen == ["https://example.com/z"]


def test_afetch_returns_body(httpx_mock: HTTPXMock) -> None:
    """The async fetch gives the same result as the sync one."""
    httpx_mock.add_response(
        url="https://example.com/a", status_code=307, headers={"Location": "/b"}
    )
    httpx_mock.add_response(url="https://example.com/b", content=b"async")
    got = asyncio.run(afetch("https://example.com/a"))
    assert (got.content, got.url) == (b"async", "https://example.com/b")


def test_fetch_local_server_real_http(local_server: LocalServer) -> None:
    """A real HTTP exchange over loopback works when the policy allows private addresses."""
    url = local_server.add(
        "/file.bin", b"real bytes", headers={"Content-Type": "application/x-test"}
    )
    got = fetch(url, policy=LOCAL)
    assert (got.content, got.content_type) == (b"real bytes", "application/x-test")


def test_fetch_stalled_body_times_out(local_server: LocalServer) -> None:
    """A server that stops sending mid-body raises FetchError within the deadline."""
    url = local_server.add("/stall", b"x" * 1000, stall_after=10)
    started = time.monotonic()
    with pytest.raises(mp.FetchError, match=r"timed out|longer than|ran out of time"):
        fetch(url, policy=mp.FetchPolicy(allow_private=True, timeout=0.5, retries=0))
    assert time.monotonic() - started < 0.5 + 1


def test_afetch_stalled_body_times_out(local_server: LocalServer) -> None:
    """The async fetch's deadline bounds the whole fetch, body included."""
    url = local_server.add("/stall", b"x" * 1000, stall_after=10)
    started = time.monotonic()
    with pytest.raises(mp.FetchError, match=r"longer than|timed out|ran out of time"):
        asyncio.run(afetch(url, policy=mp.FetchPolicy(allow_private=True, timeout=0.5, retries=0)))
    assert time.monotonic() - started < 0.5 + 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"timeout": 0}, "timeout must be positive"),
        ({"timeout": "30"}, "timeout must be a number, got str"),
        ({"max_bytes": -1}, "must be >= 0"),
        ({"max_redirects": -1}, "must be >= 0"),
        ({"retries": -1}, "must be >= 0"),
        ({"backoff": None}, "backoff must be a number, got NoneType"),
        ({"backoff": -1.0}, "must be >= 0"),
        ({"timeout": float("nan")}, "timeout must be positive"),
        ({"allow_private": "false"}, "allow_private must be True or False"),
        ({"schemes": "https"}, "schemes must be a tuple of scheme names"),
    ],
)
def test_fetch_policy_rejects_nonsense(fields: dict[str, Any], message: str) -> None:
    """A bad field is a configuration mistake, reported at once as InvalidConfig."""
    with pytest.raises(mp.InvalidConfig, match=message):
        mp.FetchPolicy(**fields)
