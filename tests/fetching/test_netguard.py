"""The connection guard against real local servers: pooled connections, TLS, failover, time.

Each test runs the sync and the async backend where both exist (`mode`), over real sockets on
127.0.0.1; names resolve through a test resolver, never the system's.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpcore
import httpx
import pytest

import mediaparts as mp
from mediaparts.fetching import Fetched, _clients, afetch, fetch, safe_async_client, safe_client
from mediaparts.fetching._netguard import (
    AddressRefused,
    AsyncGuardedBackend,
    GuardedBackend,
    fetch_scope,
    system_resolver,
)

from .servers import TLS_NAME, KeepAlive, TLSFiles, keep_alive, tls_files

MODES = ["sync", "async"]
METADATA = "169.254.169.254"


class Answers:
    """A resolver whose answer a test changes, counting the lookups."""

    def __init__(self, *addresses: str) -> None:
        self.addresses = list(addresses)
        self.calls = 0

    def __call__(self, host: str, port: int) -> list[str]:
        self.calls += 1
        return self.addresses


def policy(resolver: Callable[[str, int], list[str]], *, private: bool = True) -> mp.FetchPolicy:
    return mp.FetchPolicy(allow_private=private, timeout=3.0, retries=0, resolver=resolver)


def fetch_twice(
    mode: str, url: str, first: mp.FetchPolicy, second: mp.FetchPolicy
) -> tuple[Fetched, Callable[[], Fetched]]:
    """Fetch once with `first`; return the result and a call fetching again with `second`
    over the same client (so over its pooled connection)."""
    if mode == "sync":
        client = safe_client()
        try:
            result = fetch(url, policy=first, client=client)
        except BaseException:
            client.close()
            raise

        def again() -> Fetched:
            try:
                return fetch(url, policy=second, client=client)
            finally:
                client.close()

        return result, again

    loop = asyncio.new_event_loop()
    aclient = safe_async_client()
    try:
        result = loop.run_until_complete(afetch(url, policy=first, client=aclient))
    except BaseException:
        loop.run_until_complete(aclient.aclose())
        loop.close()
        raise

    def again_async() -> Fetched:
        try:
            return loop.run_until_complete(afetch(url, policy=second, client=aclient))
        finally:
            loop.run_until_complete(aclient.aclose())
            loop.close()

    return result, again_async


def connect(mode: str, used: mp.FetchPolicy, host: str, port: int) -> None:
    """Open a connection through the sync or the async guarded backend, and close it."""
    if mode == "sync":
        GuardedBackend(used).connect_tcp(host, port).close()
        return

    async def go() -> None:
        await (await AsyncGuardedBackend(used).connect_tcp(host, port)).aclose()

    asyncio.run(go())


def fetch_once(mode: str, url: str, used: mp.FetchPolicy) -> Fetched:
    if mode == "sync":
        return fetch(url, policy=used)
    return asyncio.run(afetch(url, policy=used))


@pytest.fixture
def server() -> Iterator[KeepAlive]:
    """A keep-alive HTTP/1.1 server on 127.0.0.1."""
    with keep_alive() as state:
        yield state


@pytest.fixture
def tls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[KeepAlive]:
    """A keep-alive HTTPS server whose throw-away CA the guarded clients trust."""
    files: TLSFiles = tls_files(tmp_path)
    client_context = files.client_context()
    monkeypatch.setattr(_clients, "_ssl_context", lambda: client_context)
    with keep_alive(files.server_context()) as state:
        yield state


@pytest.mark.parametrize("mode", MODES)
def test_netguard_pooled_connection_keeps_its_checked_address(server: KeepAlive, mode: str) -> None:
    """A kept-alive connection is reused without resolving again, so a changed answer (here
    to the cloud-metadata address) never redirects it: it stays on the address checked."""
    resolver = Answers("127.0.0.1")
    used = policy(resolver)
    first, again = fetch_twice(mode, server.url("pool.test"), used, used)
    resolver.addresses = [METADATA]
    assert (first.content, again().content) == (b"ok", b"ok")
    assert resolver.calls == 1
    assert len(server.peers) == 2 and server.peers[0] == server.peers[1]  # one connection


@pytest.mark.parametrize("mode", MODES)
def test_netguard_pooled_connection_rechecked_under_stricter_policy(
    server: KeepAlive, mode: str
) -> None:
    """A connection opened under allow_private is checked again before it carries a fetch
    whose policy refuses loopback, and that fetch is refused without sending anything."""
    resolver = Answers("127.0.0.1")
    first, again = fetch_twice(
        mode, server.url("pool.test"), policy(resolver), policy(resolver, private=False)
    )
    assert first.content == b"ok"
    with pytest.raises(mp.BlockedURL, match="loopback") as caught:
        again()
    assert isinstance(caught.value.__cause__ or caught.value, AddressRefused | mp.BlockedURL)
    assert resolver.calls == 1  # refused by the pooled connection's recheck, not a new lookup
    assert len(server.peers) == 1


@pytest.mark.parametrize("mode", MODES)
def test_netguard_tls_connection_verified_and_pinned(tls: KeepAlive, mode: str) -> None:
    """HTTPS goes through the guard: the certificate is verified for the URL's name, and the
    TLS stream keeps the checked address, so its pooled connection is rechecked too."""
    resolver = Answers("127.0.0.1")
    first, again = fetch_twice(
        mode, tls.url(TLS_NAME), policy(resolver), policy(resolver, private=False)
    )
    assert first.content == b"ok"
    with pytest.raises(mp.BlockedURL, match="loopback"):
        again()
    assert resolver.calls == 1
    assert len(tls.peers) == 1


@pytest.mark.parametrize("mode", MODES)
def test_netguard_tls_verifies_the_name_not_the_address(tls: KeepAlive, mode: str) -> None:
    """The TLS handshake checks the certificate against the URL's host name, not against
    the resolved address (which the certificate also names)."""
    with pytest.raises(mp.FetchError, match=r"(?i)certificate") as caught:
        fetch_once(mode, tls.url("other.test"), policy(Answers("127.0.0.1")))
    assert not isinstance(caught.value, mp.BlockedURL)
    assert tls.peers == []


@pytest.mark.parametrize("mode", MODES)
def test_netguard_next_address_when_one_refuses(server: KeepAlive, mode: str) -> None:
    """When a checked address refuses the connection, the next checked one is tried."""
    resolver = Answers("127.0.0.2", "127.0.0.1")  # the server listens on 127.0.0.1 only
    assert fetch_once(mode, server.url("two.test"), policy(resolver)).content == b"ok"
    assert [peer[0] for peer in server.peers] == ["127.0.0.1"]


@pytest.mark.parametrize("mode", MODES)
def test_netguard_every_address_refusing_is_a_fetch_error(server: KeepAlive, mode: str) -> None:
    """When no checked address takes the connection, the fetch fails as a FetchError."""
    with pytest.raises(mp.FetchError) as caught:
        fetch_once(mode, server.url("none.test"), policy(Answers("127.0.0.2", "127.0.0.3")))
    assert not isinstance(caught.value, mp.BlockedURL)


@pytest.mark.parametrize("mode", MODES)
def test_netguard_stuck_resolver_bounded_by_timeout(mode: str) -> None:
    """A resolver that never answers ends with the fetch's timeout, as a FetchError."""
    release = threading.Event()

    def stuck(host: str, port: int) -> list[str]:
        release.wait(10)
        return ["127.0.0.1"]

    used = mp.FetchPolicy(allow_private=True, timeout=0.3, retries=0, resolver=stuck)
    started = time.monotonic()
    try:
        with pytest.raises(mp.FetchError, match=r"took longer|timed out|out of time"):
            fetch_once(mode, "http://stuck.test/x", used)
    finally:
        release.set()
    assert time.monotonic() - started < 3


def test_netguard_async_resolver_failure_is_a_fetch_error() -> None:
    """A name the resolver cannot resolve fails the async fetch as a FetchError."""

    def failing(host: str, port: int) -> list[str]:
        raise OSError("Name or service not known")

    with pytest.raises(mp.FetchError, match=r"cannot resolve nowhere\.test") as caught:
        fetch_once("async", "http://nowhere.test/", policy(failing))
    assert not isinstance(caught.value, mp.BlockedURL)


def test_netguard_system_resolver_reads_getaddrinfo() -> None:
    """Without a resolver in the policy, getaddrinfo answers, each address once."""
    assert system_resolver("127.0.0.1", 80) == ["127.0.0.1"]


@pytest.mark.parametrize("mode", MODES)
def test_netguard_backend_refuses_local_names(mode: str) -> None:
    """A name the policy refuses by itself (`localhost`) is refused before any lookup."""
    strict = policy(Answers("127.0.0.1"), private=False)
    with pytest.raises(AddressRefused, match="localhost"):
        connect(mode, strict, "localhost", 80)


@pytest.mark.parametrize("mode", MODES)
def test_netguard_connect_after_the_deadline_times_out(server: KeepAlive, mode: str) -> None:
    """A connection asked for after the fetch's deadline has passed is not attempted."""
    used = policy(Answers("127.0.0.1"))
    with fetch_scope(used, time.monotonic() - 1), pytest.raises(httpcore.ConnectTimeout):
        connect(mode, used, "127.0.0.1", server.port)
    assert server.peers == []


def test_netguard_async_backend_refuses_unix_sockets_and_sleeps() -> None:
    """The async backend opens TCP only, and sleeps as anyio does; so does the sync one."""

    async def go() -> None:
        backend = AsyncGuardedBackend()
        with pytest.raises(mp.BlockedURL, match="Unix socket"):
            await backend.connect_unix_socket("/var/run/docker.sock")
        await backend.sleep(0)

    asyncio.run(go())
    GuardedBackend().sleep(0)


def test_netguard_guards_plain_httpx_use_over_tls(tls: KeepAlive) -> None:
    """safe_client() outside a fetch still verifies and pins HTTPS connections."""
    with safe_client(policy(Answers("127.0.0.1"))) as client:
        response = client.get(tls.url(TLS_NAME))
        assert (response.status_code, response.content) == (200, b"ok")
        assert isinstance(response, httpx.Response)
