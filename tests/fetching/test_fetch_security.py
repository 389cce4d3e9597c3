"""Fetching safely: refused addresses in every spelling, pinned connections, caps, deadlines.

No test here sends traffic to a non-loopback address, not even to show that it is refused: an
autouse guard fails any test that resolves a name through the system or connects anywhere but
loopback. Names are answered by an injected resolver instead.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import gzip
import ipaddress
import logging
import random
import socket
import socketserver
import threading
import time
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import httpx
import pytest
from pytest_httpx import HTTPXMock

import mediaparts as mp
from mediaparts.fetching._attempt import _retry_after
from mediaparts.fetching._credentials import same_origin
from mediaparts.fetching._fetch import (
    Fetched,
    afetch,
    check_url,
    fetch,
    safe_async_client,
    safe_client,
)
from mediaparts.fetching._netguard import GuardedBackend
from mediaparts.fetching._policy import redact
from tests.conftest import LocalServer

METADATA = "169.254.169.254"


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Fail the test on any system name lookup or connection that is not loopback."""
    made: list[Any] = []
    real_connect, real_getaddrinfo = socket.socket.connect, socket.getaddrinfo

    def connect(self: socket.socket, address: Any) -> None:
        assert ipaddress.ip_address(address[0]).is_loopback, f"connect to {address}"
        made.append(address)
        real_connect(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        assert ipaddress.ip_address(host).is_loopback, f"system lookup of {host!r}"
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return made


def answers(table: dict[str, list[str]], calls: list[str] | None = None) -> mp.FetchPolicy:
    """Return a policy (allow_private=True) whose resolver answers from `table`."""

    def resolve(host: str, port: int) -> list[str]:
        if calls is not None:
            calls.append(host)
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return table[host]

    return mp.FetchPolicy(allow_private=True, timeout=3.0, backoff=0.001, resolver=resolve)


def private_off(policy: mp.FetchPolicy) -> mp.FetchPolicy:
    return mp.FetchPolicy(timeout=policy.timeout, backoff=0.001, resolver=policy.resolver)


# --- A small server that records what it was sent, for what the shared fixture cannot do. ---

Handler = Callable[[BaseHTTPRequestHandler], None]


class Server:
    """A real HTTP server on 127.0.0.1 whose handlers a test writes."""

    def __init__(self) -> None:
        self.handlers: dict[str, Handler] = {}
        self.hosts: list[str | None] = []
        self.seen: list[dict[str, str]] = []
        self.sent = 0
        self.stop = threading.Event()
        self.port = 0

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"


@contextlib.contextmanager
def serving() -> Iterator[Server]:
    """Serve test-written handlers from 127.0.0.1, recording each request's headers."""
    state = Server()

    class Handle(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            state.hosts.append(self.headers.get("Host"))
            state.seen.append({k.lower(): v for k, v in self.headers.items()})
            state.handlers[self.path](self)

    socketserver.ThreadingTCPServer.allow_reuse_address = True
    tcp = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handle)
    tcp.daemon_threads = True
    state.port = tcp.server_address[1]
    thread = threading.Thread(target=tcp.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.stop.set()
        tcp.shutdown()
        tcp.server_close()
        thread.join(5)


@pytest.fixture
def server() -> Iterator[Server]:
    """Serve test-written handlers from 127.0.0.1, recording each request's Host header."""
    with serving() as state:
        yield state


@pytest.fixture
def other_server() -> Iterator[Server]:
    """A second server on another port of 127.0.0.1: another origin."""
    with serving() as state:
        yield state


def reply(body: bytes, status: int = 200, /, **headers: str) -> Handler:
    def handle(h: BaseHTTPRequestHandler) -> None:
        h.send_response(status)
        for name, value in {"Content-Length": str(len(body)), **headers}.items():
            h.send_header(name, value)
        h.end_headers()
        h.wfile.write(body)

    return handle


def endless(state: Server, total: int, length: bool) -> Handler:
    """Send `total` bytes in 64 KB writes, counting what the socket accepted."""

    def handle(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        if length:
            h.send_header("Content-Length", str(total))
        h.end_headers()
        block = b"x" * 65536
        try:
            while state.sent < total and not state.stop.is_set():
                h.wfile.write(block)
                state.sent += len(block)
        except OSError:
            pass

    return handle


def trickle(state: Server) -> Handler:
    """Declare 1000 bytes, then send one every 0.1 s: no single read ever times out."""

    def handle(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Length", "1000")
        h.end_headers()
        try:
            while not state.stop.wait(0.1):
                h.wfile.write(b"x")
                h.wfile.flush()
        except OSError:
            pass

    return handle


# --- Refusals that need no network at all. ---

BLOCKED = [
    "http://127.0.0.1/",
    "http://127.1/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://0x7f000001/",
    "http://0177.0.0.1/",
    "http://017700000001/",
    "http://127.0.0.1./",
    "http://127。0。0。1/",
    "http://localhost/",
    "http://LOCALHOST./",
    "http://app.localhost/",
    "http://printer.local/",
    "http://db.internal/",
    "http://router.home.arpa/",
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::FFFF:7F00:1]/",
    "http://[::127.0.0.1]/",
    "http://[::ffff:0:7f00:1]/",
    "http://[2002:7f00:1::]/",
    "http://[2002:a00:1::1]/",
    "http://[64:ff9b::127.0.0.1]/",
    "http://[64:ff9b::a00:1]/",
    "http://[64:ff9b:1::a00:1]/",
    "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
    "http://0.0.0.0/",
    "http://0/",
    "http://[::]/",
    "http://10.1.2.3/",
    "http://172.16.5.4/",
    "http://172.31.255.255/",
    "http://192.168.0.1/",
    "http://100.64.0.1/",
    "http://100.127.255.254/",
    "http://169.254.1.1/",
    "http://192.0.0.8/",
    "http://192.0.2.1/",
    "http://198.18.0.1/",
    "http://224.0.0.1/",
    "http://239.255.255.250/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    "http://[fd00::1]/",
    "http://[fc00::1]/",
    "http://[fe80::1]/",
    "http://[fe80::1%25eth0]/",
    "http://[fec0::1]/",
    "http://[ff02::1]/",
    "http://[100::1]/",
    "http://[2001:db8::1]/",
    "file:///etc/passwd",
    "ftp://example.com/x",
    "gopher://example.com/",
    "https:///nohost",
]


@pytest.mark.parametrize("url", BLOCKED)
def test_check_url_refuses_every_spelling(url: str, loopback_only: list[Any]) -> None:
    """Non-public addresses in any spelling, local names and other schemes are refused."""
    with pytest.raises(mp.BlockedURL):
        check_url(url, mp.FetchPolicy())
    assert loopback_only == []


@pytest.mark.parametrize("url", [*BLOCKED[:3], "http://[::ffff:10.0.0.1]/", "http://10.0.0.1./"])
def test_fetch_refuses_before_sending(url: str, httpx_mock: HTTPXMock) -> None:
    """A refused URL raises BlockedURL from fetch and afetch, and nothing is sent."""
    with pytest.raises(mp.BlockedURL):
        fetch(url)
    with pytest.raises(mp.BlockedURL):
        asyncio.run(afetch(url))
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/a.png",
        "https://bücher.de/",
        "http://93.184.215.14/x",
        "http://1572395790/",
        "https://[2606:4700::1]/",
        "http://[::ffff:93.184.215.14]/",
        "http://[64:ff9b::5db8:d70e]/",
        "http://[2002:5db8:d70e::1]/",
    ],
)
def test_check_url_allows_public(url: str) -> None:
    """Public names and addresses, embedded ones too, pass without any lookup."""
    check_url(url, mp.FetchPolicy())


METADATA_URLS = [
    "http://169.254.169.254/latest/meta-data/",
    "http://169.254.169.254.:80/",
    "http://2852039166/",
    "http://0xa9.0xfe.0xa9.0xfe/",
    "http://169.254.170.2/v2/credentials",
    "http://100.100.100.200/latest/meta-data",
    "http://[fd00:ec2::254]/",
    "http://[FD00:EC2:0::254]/",
    "http://[::ffff:169.254.169.254]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[::169.254.169.254]/",
    "http://[64:ff9b::169.254.169.254]/",
    "http://[64:ff9b:1:a9fe:a9:fe00::]/",
    "http://[2002:a9fe:a9fe::]/",
    "http://[2001:0:4136:e378:8000:63bf:5601:5601]/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://METADATA.GOOGLE.INTERNAL./",
]


@pytest.mark.parametrize("url", METADATA_URLS)
def test_metadata_refused_even_when_private_allowed(url: str) -> None:
    """Cloud-metadata addresses and their embeddings stay refused with allow_private=True."""
    with pytest.raises(mp.BlockedURL, match="cloud-metadata"):
        check_url(url, mp.FetchPolicy(allow_private=True))


@pytest.mark.parametrize("url", ["http://127.0.0.1/", "http://[fd00::1]/", "http://db.internal/"])
def test_allow_private_allows_private(url: str) -> None:
    """allow_private=True lets loopback, private and local names through the check."""
    check_url(url, mp.FetchPolicy(allow_private=True))


def test_refusal_message_says_what_and_how() -> None:
    """The message names the host, the reason and the policy switch, without credentials."""
    with pytest.raises(mp.BlockedURL) as caught:
        check_url("http://admin:hunter2@[::ffff:127.0.0.1]/x", mp.FetchPolicy())
    message = str(caught.value)
    assert "::ffff:127.0.0.1 is a loopback address (127.0.0.1, embedded)" in message
    assert "allow_private=True" in message
    assert "hunter2" not in message
    assert caught.value.url == "http://***@[::ffff:127.0.0.1]/x"


# The hosts and schemes issue 4's "Done when" names, through each way a part is loaded.
DONE_WHEN = [
    "http://127.0.0.1/a.png",
    "http://localhost/a.png",
    "http://[::1]/a.png",
    "http://[::ffff:127.0.0.1]/a.png",
    "http://2130706433/a.png",
    "http://0x7f.1/a.png",
    "http://0.0.0.0/a.png",
    "http://10.20.30.40/a.png",
    "http://192.168.1.1/a.png",
    "http://172.20.0.1/a.png",
    "http://100.64.0.1/a.png",
    "http://[fd00::1]/a.png",
    "http://169.254.169.254/latest/meta-data/",
    "file:///etc/passwd",
    "ftp://example.com/a.png",
]


def load_part(entry: str, url: str) -> None:
    """Load a URL part the way `entry` names, under the default policy."""
    if entry == "data":
        mp.ImagePart.from_url(url).data  # noqa: B018  # reading the property fetches
    elif entry == "load":
        part = mp.part({"url": url})
        assert isinstance(part, mp.MediaPart)
        part.load()
    else:
        asyncio.run(mp.ImagePart.from_url(url).aload())


@pytest.mark.parametrize("entry", ["data", "load", "aload"])
@pytest.mark.parametrize("url", DONE_WHEN)
def test_part_loading_refuses_done_when_hosts(
    url: str, entry: str, loopback_only: list[Any]
) -> None:
    """part.data, part.load() and await part.aload() raise BlockedURL, connecting nowhere."""
    with pytest.raises(mp.BlockedURL):
        load_part(entry, url)
    assert loopback_only == []


# --- Redirects to metadata, from an allowed host. ---


def test_redirect_to_metadata_refused_mocked(httpx_mock: HTTPXMock) -> None:
    """With allow_private=True, a redirect to the metadata address is refused unsent."""
    httpx_mock.add_response(
        url="https://example.com/a",
        status_code=302,
        headers={"Location": f"http://{METADATA}/latest/meta-data/"},
    )
    policy = mp.FetchPolicy(allow_private=True)
    with pytest.raises(mp.BlockedURL, match="cloud-metadata"):
        fetch("https://example.com/a", policy=policy)
    assert [str(r.url) for r in httpx_mock.get_requests()] == ["https://example.com/a"]


@pytest.mark.parametrize("target", [f"http://{METADATA}/", "http://[::ffff:a9fe:a9fe]/"])
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_redirect_to_metadata_refused_real(
    local_server: LocalServer, loopback_only: list[Any], target: str, mode: str
) -> None:
    """A real loopback server redirecting to metadata: refused, no second connection."""
    url = local_server.add("/r", status=302, headers={"Location": target})
    policy = mp.FetchPolicy(allow_private=True, timeout=3.0)
    with pytest.raises(mp.BlockedURL, match="cloud-metadata"):
        fetch(url, policy=policy) if mode == "sync" else asyncio.run(afetch(url, policy=policy))
    assert {address[0] for address in loopback_only} == {"127.0.0.1"}
    assert local_server.hits == {"/r": 1}


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_redirect_to_name_resolving_to_metadata(
    server: Server, loopback_only: list[Any], mode: str
) -> None:
    """A redirect to a name that resolves to metadata is refused before connecting to it."""
    server.handlers["/r"] = reply(b"", 302, Location=server.url("/", "meta.test"))
    policy = answers({"meta.test": [METADATA]})
    with pytest.raises(mp.BlockedURL, match=r"meta\.test resolves to 169\.254\.169\.254"):
        run(mode, server.url("/r"), policy)
    assert len(loopback_only) == 1  # the first hop only


def run(mode: str, url: str, policy: mp.FetchPolicy) -> Fetched:
    if mode == "sync":
        return fetch(url, policy=policy)
    return asyncio.run(afetch(url, policy=policy))


# --- Resolve once, check every answer, connect to the checked address. ---


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_connects_to_checked_address_with_hostname(
    server: Server, loopback_only: list[Any], mode: str
) -> None:
    """safe.test resolves (once) to 127.0.0.1; that is where the request goes, Host intact."""
    server.handlers["/x"] = reply(b"pinned")
    calls: list[str] = []
    got = run(mode, server.url("/x", "safe.test"), answers({"safe.test": ["127.0.0.1"]}, calls))
    assert got.content == b"pinned"
    assert server.hosts == [f"safe.test:{server.port}"]
    assert calls == ["safe.test"]
    assert [a[0] for a in loopback_only] == ["127.0.0.1"]


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize(
    "addresses",
    [["10.0.0.7"], ["127.0.0.1"], ["::ffff:192.168.1.1"], ["93.184.215.14", "127.0.0.1"]],
)
def test_name_resolving_to_private_refused_unconnected(
    loopback_only: list[Any], mode: str, addresses: list[str]
) -> None:
    """If any answer is private the name is refused, before any connection is made."""
    policy = private_off(answers({"evil.test": addresses}))
    with pytest.raises(mp.BlockedURL, match=r"evil\.test resolves to"):
        run(mode, "http://evil.test/x", policy)
    assert loopback_only == []


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_rebinding_resolver_cannot_switch_address(
    server: Server, loopback_only: list[Any], mode: str
) -> None:
    """A name is resolved once per connection: a rebinding answer is checked, not trusted."""
    server.handlers["/x"] = reply(b"ok")
    calls: list[str] = []

    def rebinding(host: str, port: int) -> list[str]:
        calls.append(host)
        return ["127.0.0.1"] if len(calls) == 1 else [METADATA]

    policy = mp.FetchPolicy(allow_private=True, timeout=3.0, resolver=rebinding)
    with safe_client(policy) as first, safe_client(policy) as second:
        assert fetch(server.url("/x", "rebind.test"), policy=policy, client=first).content == b"ok"
        with pytest.raises(mp.BlockedURL, match="cloud-metadata"):
            fetch(server.url("/x", "rebind.test"), policy=policy, client=second)
    assert calls == ["rebind.test", "rebind.test"]
    assert len(loopback_only) == 1


def test_pooled_connection_not_reused_by_stricter_policy(server: Server) -> None:
    """A later fetch whose policy refuses 127.0.0.1 never reaches it over the same client.

    This server closes each connection (HTTP/1.0), so the refusal comes from the new
    connection's check; tests/fetching/test_netguard.py reuses a kept-alive one."""
    server.handlers["/x"] = reply(b"ok")
    lenient = answers({"pool.test": ["127.0.0.1"]})
    url = server.url("/x", "pool.test")
    with safe_client() as client:
        assert fetch(url, policy=lenient, client=client).content == b"ok"
        with pytest.raises(mp.BlockedURL, match="loopback"):
            fetch(url, policy=private_off(lenient), client=client)
    assert len(server.hosts) == 1


def test_unresolvable_name_is_a_fetch_error() -> None:
    """A name the resolver does not know raises FetchError (after the retries)."""
    with pytest.raises(mp.FetchError, match=r"cannot resolve nowhere\.test") as caught:
        fetch("http://nowhere.test/", policy=answers({}))
    assert not isinstance(caught.value, mp.BlockedURL)


def test_resolver_giving_garbage_is_a_fetch_error() -> None:
    """A resolver answer that is not an address is reported, not connected to."""
    with pytest.raises(mp.FetchError, match="not an address"):
        fetch("http://odd.test/", policy=answers({"odd.test": ["not-an-ip"]}))


def test_backend_refuses_unix_sockets() -> None:
    """The guarded backend opens TCP connections only."""
    with pytest.raises(mp.BlockedURL, match="Unix socket"):
        GuardedBackend().connect_unix_socket("/var/run/docker.sock")


def test_safe_client_outside_fetch(server: Server) -> None:
    """safe_client() guards plain httpx use too, with its own policy."""
    server.handlers["/x"] = reply(b"direct")
    policy = answers({"safe.test": ["127.0.0.1"], "evil.test": ["10.0.0.1"]})
    with safe_client(policy) as client:
        assert client.get(server.url("/x", "safe.test")).content == b"direct"
    with safe_client(private_off(policy)) as client, pytest.raises(mp.BlockedURL):
        client.get(server.url("/x", "evil.test"))


def test_safe_async_client_outside_fetch(server: Server) -> None:
    """safe_async_client() is the async twin."""
    server.handlers["/x"] = reply(b"direct")
    policy = answers({"safe.test": ["127.0.0.1"]})

    async def go() -> bytes:
        async with safe_async_client(policy) as client:
            return (await client.get(server.url("/x", "safe.test"))).content

    assert asyncio.run(go()) == b"direct"


def test_safe_client_refuses_transport_options() -> None:
    """Options that would route around the guard are refused with InvalidConfig."""
    with pytest.raises(mp.InvalidConfig, match="transport"):
        safe_client(transport=httpx.MockTransport(lambda r: httpx.Response(200)))


# --- Clients the caller injects: resolved and checked first, best effort. ---


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_injected_client_host_checked_first(httpx_mock: HTTPXMock, mode: str) -> None:
    """A plain injected client's host is resolved and refused before anything is sent."""
    policy = private_off(answers({"evil.test": ["192.168.1.1"]}))

    def sync() -> None:
        with httpx.Client() as client:
            fetch("https://evil.test/x", policy=policy, client=client)

    async def go() -> None:
        async with httpx.AsyncClient() as client:
            await afetch("https://evil.test/x", policy=policy, client=client)

    with pytest.raises(mp.BlockedURL, match=r"evil\.test resolves to 192\.168\.1\.1"):
        sync() if mode == "sync" else asyncio.run(go())
    assert httpx_mock.get_requests() == []


def test_injected_client_unresolvable_left_to_client(httpx_mock: HTTPXMock) -> None:
    """A name the resolver cannot answer is left to the client (it may use a proxy)."""
    httpx_mock.add_response(url="https://proxied.test/x", content=b"via proxy")
    with httpx.Client() as client:
        got = fetch("https://proxied.test/x", policy=private_off(answers({})), client=client)
    assert got.content == b"via proxy"


# --- Caps: declared, streamed, decoded. ---

CAP = 2 * 2**20
HUNDRED_MB = 100 * 2**20


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("length", [True, False])
def test_hundred_megabytes_against_two_megabyte_cap(
    server: Server, mode: str, length: bool
) -> None:
    """100 MB against a 2 MB cap: MediaTooLarge, with only a few MB ever sent."""
    server.handlers["/big"] = endless(server, HUNDRED_MB, length)
    policy = mp.FetchPolicy(allow_private=True, max_bytes=CAP, timeout=10.0)
    with pytest.raises(mp.MediaTooLarge) as caught:
        run(mode, server.url("/big"), policy)
    assert caught.value.limit == CAP
    time.sleep(0.2)  # let the server notice the closed connection
    assert server.sent < 16 * 2**20  # socket buffers hold a few MB; the rest is never sent


@functools.cache
def bomb(encoding: str) -> bytes:
    """100 MB of zeros, compressed to about 100 KB."""
    zeros = bytes(HUNDRED_MB)
    return gzip.compress(zeros, 6) if encoding == "gzip" else zlib.compress(zeros, 6)


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_compressed_bomb_capped_on_decoded_bytes(
    local_server: LocalServer, mode: str, encoding: str
) -> None:
    """A ~100 KB compressed body that inflates to 100 MB stops at the cap, decoded."""
    packed = bomb(encoding)
    assert len(packed) < 200_000
    url = local_server.add("/bomb", packed, headers={"Content-Encoding": encoding})
    policy = mp.FetchPolicy(allow_private=True, max_bytes=CAP, timeout=10.0)
    with pytest.raises(mp.MediaTooLarge) as caught:
        run(mode, url, policy)
    assert caught.value.size is not None
    assert CAP < caught.value.size <= CAP + 64 * 1024  # never more than one step past the cap


def raw_deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize(
    ("encoding", "pack"),
    [("gzip", gzip.compress), ("deflate", zlib.compress), ("deflate", raw_deflate)],
)
def test_compressed_body_round_trips(
    local_server: LocalServer, mode: str, encoding: str, pack: Callable[[bytes], bytes]
) -> None:
    """gzip, zlib deflate and raw deflate bodies under the cap decode to the original bytes."""
    data = bytes(range(256)) * 4000
    url = local_server.add("/z", pack(data), headers={"Content-Encoding": encoding})
    assert run(mode, url, mp.FetchPolicy(allow_private=True, timeout=3.0)).content == data


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("0", 0.0),
        ("7", 7.0),
        ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0),
        ("soon", None),
        (None, None),
        ("\u00b2", None),  # str.isdigit() is true for "²"; float() refuses it
    ],
)
def test_retry_after_parsing(header: str | None, expected: float | None) -> None:
    """Retry-After is delay-seconds or an HTTP-date (a past date means now); else ignored."""
    assert _retry_after(header) == expected


def pack(data: bytes, encodings: str) -> bytes:
    """Apply each content coding in `encodings` to `data`, in the order the header lists them."""
    for coding in (c.strip() for c in encodings.split(",")):
        data = gzip.compress(data, 9) if coding == "gzip" else zlib.compress(data, 9)
    return data


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("encoding", ["gzip, gzip", "deflate, gzip", "gzip,gzip,deflate"])
def test_stacked_encodings_inflate_in_bounded_steps(
    local_server: LocalServer, mode: str, encoding: str
) -> None:
    """100 MB compressed twice or more (a few hundred bytes) stops at the cap, holding little."""
    first, _, rest = encoding.partition(",")
    packed = pack(bomb(first), rest)
    assert len(packed) < 5_000
    url = local_server.add("/bomb", packed, headers={"Content-Encoding": encoding})
    policy = mp.FetchPolicy(allow_private=True, max_bytes=CAP, timeout=10.0)
    tracemalloc.start()
    try:
        with pytest.raises(mp.MediaTooLarge):
            run(mode, url, policy)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * CAP  # the body up to the cap, and a step of each layer; not 100 MB


@pytest.mark.parametrize(
    ("encoding", "body", "expected"),
    [
        ("gzip", gzip.compress(b"hi") + bytes(100), b"hi"),  # trailing padding is dropped
        ("gzip", gzip.compress(b"hi") + bytes(8 * 2**20), None),  # never kept, over the cap
        ("deflate", b"\x78\x9c" + b"\x00\x00\x00\xff\xff" * 2 * 2**20, None),  # empty blocks
        ("gzip", gzip.compress(random.Random(4).randbytes(CAP - 10), 9), "same"),
    ],
    ids=["junk-after-end", "megabytes-after-end", "empty-blocks", "incompressible-at-cap"],
)
def test_compressed_bytes_count_towards_the_cap(
    server: Server, encoding: str, body: bytes, expected: bytes | str | None
) -> None:
    """Compressed bytes that decode to little are not read past the cap, nor kept."""
    send = reply(body, **{"Content-Encoding": encoding})

    def handle(h: BaseHTTPRequestHandler) -> None:
        with contextlib.suppress(OSError):  # the client hangs up at the cap
            send(h)

    server.handlers["/z"] = handle
    url = server.url("/z")
    policy = mp.FetchPolicy(allow_private=True, max_bytes=CAP, timeout=5.0)
    if expected is None:
        with pytest.raises(mp.MediaTooLarge):
            fetch(url, policy=policy)
    elif expected == "same":
        assert fetch(url, policy=policy).content == random.Random(4).randbytes(CAP - 10)
    else:
        assert fetch(url, policy=policy).content == expected


@pytest.mark.parametrize("encoding", ["br", "zstd", "compress", "gzip, br"])
def test_unrequested_encoding_refused(local_server: LocalServer, encoding: str) -> None:
    """A body in a coding mediaparts did not ask for raises FetchError naming it."""
    url = local_server.add("/z", b"\x1b\x00\x00" * 100, headers={"Content-Encoding": encoding})
    policy = mp.FetchPolicy(allow_private=True, timeout=3.0)
    with pytest.raises(mp.FetchError, match="did not ask for") as caught:
        fetch(url, policy=policy)
    assert repr(encoding.rpartition(" ")[2]) in str(caught.value)


def test_corrupt_gzip_is_a_fetch_error(local_server: LocalServer) -> None:
    """A body that claims gzip but is not raises FetchError, not zlib.error."""
    url = local_server.add("/bad", b"not gzip at all", headers={"Content-Encoding": "gzip"})
    with pytest.raises(mp.FetchError, match="does not decode"):
        fetch(url, policy=mp.FetchPolicy(allow_private=True, timeout=3.0))


# --- One deadline for the whole fetch. ---

TIMEOUT = 1.0


@pytest.mark.slow  # each case waits out the 1 s deadline
@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize(
    "where", ["mid-body", "slow-headers-then-stall", "before-headers", "trickle"]
)
def test_stalling_server_bounded_by_timeout(
    local_server: LocalServer, server: Server, mode: str, where: str
) -> None:
    """A server that stalls (or trickles) raises FetchError within the timeout plus a second."""
    if where == "mid-body":
        url = local_server.add("/s", b"x" * 100_000, stall_after=50_000)
    elif where == "slow-headers-then-stall":
        # Each read's own timeout would restart after the headers: this needs the deadline.
        url = local_server.add("/s", b"x" * 100_000, stall_after=10, delay=0.8 * TIMEOUT)
    elif where == "before-headers":
        url = local_server.add("/s", b"x", delay=5.0)
    else:
        server.handlers["/s"] = trickle(server)
        url = server.url("/s")
    policy = mp.FetchPolicy(allow_private=True, timeout=TIMEOUT, retries=0)
    started = time.monotonic()
    with pytest.raises(mp.FetchError, match=r"timed out|longer than|ran out of time"):
        run(mode, url, policy)
    assert time.monotonic() - started < TIMEOUT + 0.5  # the issue allows a second; use half


def test_retries_share_the_deadline(local_server: LocalServer) -> None:
    """Retrying 503s never runs past the timeout."""
    url = local_server.add("/busy", status=503, delay=0.3)
    policy = mp.FetchPolicy(allow_private=True, timeout=TIMEOUT, retries=10, backoff=0.2)
    started = time.monotonic()
    with pytest.raises(mp.FetchError):
        fetch(url, policy=policy)
    assert time.monotonic() - started < TIMEOUT + 1.0


def test_retry_after_is_honoured(httpx_mock: HTTPXMock) -> None:
    """A small Retry-After is waited for; one past the deadline ends the fetch at once."""
    httpx_mock.add_response(
        url="https://example.com/a", status_code=429, headers={"Retry-After": "0"}
    )
    httpx_mock.add_response(url="https://example.com/a", content=b"ok")
    assert fetch("https://example.com/a", policy=mp.FetchPolicy(backoff=0.001)).content == b"ok"
    httpx_mock.add_response(
        url="https://example.com/b", status_code=503, headers={"Retry-After": "3600"}
    )
    started = time.monotonic()
    with pytest.raises(mp.FetchError) as caught:
        fetch("https://example.com/b", policy=mp.FetchPolicy(timeout=5.0))
    assert caught.value.status_code == 503
    assert time.monotonic() - started < 1.0


# --- Credentials stay out of messages and chains. ---


def test_credentials_not_in_message_or_chain(httpx_mock: HTTPXMock) -> None:
    """An error that quotes the URL is scrubbed, and not chained when its text has secrets."""
    url = "https://alice:hunter2@example.com/x"
    httpx_mock.add_exception(httpx.ConnectError(f"cannot reach {url}"), is_reusable=True)
    with pytest.raises(mp.FetchError) as caught:
        fetch(url, policy=mp.FetchPolicy(backoff=0.001))
    assert "hunter2" not in str(caught.value)
    assert caught.value.__cause__ is None
    assert caught.value.__suppress_context__


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_credentials_sent_as_basic_auth_never_logged(
    server: Server, caplog: pytest.LogCaptureFixture, mode: str
) -> None:
    """URL credentials reach the server as Basic auth, across a relative redirect, unlogged."""
    seen: list[str | None] = []

    def record(then: Handler) -> Handler:
        def handle(h: BaseHTTPRequestHandler) -> None:
            seen.append(h.headers.get("Authorization"))
            then(h)

        return handle

    server.handlers["/r"] = record(reply(b"", 302, Location="/x"))
    server.handlers["/x"] = record(reply(b"ok"))
    url = server.url("/r").replace("http://", "http://alice:hunter%202@")
    caplog.set_level(logging.DEBUG)
    got = run(mode, url, mp.FetchPolicy(allow_private=True, timeout=3.0))
    assert got.content == b"ok"
    assert seen == ["Basic " + base64.b64encode(b"alice:hunter 2").decode()] * 2
    assert "HTTP Request: GET" in caplog.text  # httpx did log the requests
    assert "hunter" not in caplog.text and "alice" not in caplog.text
    assert got.url == server.url("/x")


def test_clean_causes_stay_chained(httpx_mock: HTTPXMock) -> None:
    """A cause without credentials is kept as __cause__."""
    httpx_mock.add_exception(httpx.ConnectError("refused"), is_reusable=True)
    with pytest.raises(mp.FetchError) as caught:
        fetch("https://bob:s3cret@example.com/x", policy=mp.FetchPolicy(backoff=0.001))
    assert isinstance(caught.value.__cause__, httpx.ConnectError)


# --- Issue 10: zone ids, more metadata addresses, credentials on redirects, redaction. ---

ZONED_METADATA = [
    "http://[fd00:ec2::254%251]/latest/meta-data/",
    "http://[fd00:ec2::254%25eth0]/",
    "http://[FD00:EC2::254%25lo]/",
    "http://[fd00:ec2::254%2525]/",
    "http://[fe80::a9fe:a9fe%25eth0]/openstack/",
    "http://[::ffff:169.254.169.254%251]/",
    "http://[fd20:ce::254%251]/",
]
IPV6_METADATA = [
    "http://[fd20:ce::254]/computeMetadata/v1/",  # GCP, IPv6-only instances
    "http://[fd00:c1::a9fe:a9fe]/opc/v2/",  # Oracle OCI
    "http://[fe80::a9fe:a9fe]/openstack/",  # OpenStack Nova since Victoria
    "http://[fd00:ec2::23]/",  # AWS EKS Pod Identity Agent
    "http://[fd00:ec2::253]/",  # AWS's fd00:ec2::/32 service block
    "http://[fd00:42::42]/",  # Scaleway
    "http://[fd00:a9fe:a9fe::1]/",  # Akamai/Linode
    "http://169.254.42.42/",  # Scaleway
    "http://169.254.0.23/",  # Tencent Cloud
    "http://192.0.0.192/",  # Oracle Cloud Classic
    "http://[fd00:100::100:200]/latest/meta-data/",  # Alibaba Cloud ECS over IPv6
    "http://[fd00:100:0:0:0:0:100:200]/",  # the same, written out
    "http://api.metadata.cloud.ibm.com/metadata/v1/instance",  # IBM Cloud VPC's name
]


@pytest.mark.parametrize("url", ZONED_METADATA + IPV6_METADATA)
def test_metadata_refused_with_zone_or_ipv6(url: str) -> None:
    """A zone id changes nothing about an address, and every cloud's metadata address is refused."""
    with pytest.raises(mp.BlockedURL, match="cloud-metadata"):
        check_url(url, mp.FetchPolicy(allow_private=True))


@pytest.mark.parametrize(
    "answer", ["fd00:ec2::254%1", "fd00:ec2::254%eth0", "fe80::a9fe:a9fe%2", "fd20:ce::254%3"]
)
def test_resolved_zoned_metadata_refused(answer: str, loopback_only: list[Any]) -> None:
    """A resolver's answer with a zone id is judged by its address, before any connection."""
    policy = answers({"zoned.test": [answer]})
    with pytest.raises(mp.BlockedURL, match="cloud-metadata"):
        fetch("http://zoned.test/x", policy=policy)
    assert loopback_only == []


def test_zoned_link_local_refused_by_default() -> None:
    """A zone id does not hide a link-local address from the default policy either."""
    with pytest.raises(mp.BlockedURL, match="link-local"):
        check_url("http://[fe80::1%25eth0]/", mp.FetchPolicy())


def redirecting(target: str) -> Handler:
    return reply(b"", 302, Location=target)


CREDENTIALS: dict[str, tuple[dict[str, Any], str]] = {
    # client option, and the header that would carry it
    "authorization-header": ({"headers": {"Authorization": "Bearer s3cret"}}, "authorization"),
    "auth-option": ({"auth": ("alice", "s3cret")}, "authorization"),
    "proxy-authorization": (
        {"headers": {"Proxy-Authorization": "Basic s3cret"}},
        "proxy-authorization",
    ),
    "cookie-header": ({"headers": {"Cookie": "session=s3cret"}}, "cookie"),
    "cookie-jar": ({"cookies": {"session": "s3cret"}}, "cookie"),
}


def run_with(mode: str, url: str, policy: mp.FetchPolicy, options: dict[str, Any]) -> Fetched:
    """Fetch through a safe client built with `options`."""
    if mode == "sync":
        with safe_client(policy, **options) as client:
            return fetch(url, policy=policy, client=client)

    async def go() -> Fetched:
        async with safe_async_client(policy, **options) as client:
            return await afetch(url, policy=policy, client=client)

    return asyncio.run(go())


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("kind", list(CREDENTIALS))
def test_credentials_not_sent_across_origins(
    server: Server, other_server: Server, mode: str, kind: str
) -> None:
    """A client's credentials reach the first origin only, never a redirect's other origin."""
    options, header = CREDENTIALS[kind]
    server.handlers["/r"] = redirecting(other_server.url("/x"))
    other_server.handlers["/x"] = reply(b"ok")
    policy = mp.FetchPolicy(allow_private=True, timeout=3.0)
    assert run_with(mode, server.url("/r"), policy, options).content == b"ok"
    assert "s3cret" in server.seen[0].get(header, "") or kind == "auth-option"
    assert header not in other_server.seen[0]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_credentials_stay_off_after_coming_back(
    server: Server, other_server: Server, mode: str
) -> None:
    """Once a hop left the origin, a redirect back to it gets no credentials either."""
    server.handlers["/r"] = redirecting(other_server.url("/back"))
    other_server.handlers["/back"] = redirecting(server.url("/x"))
    server.handlers["/x"] = reply(b"ok")
    policy = mp.FetchPolicy(allow_private=True, timeout=3.0)
    options = {"headers": {"Authorization": "Bearer s3cret"}}
    assert run_with(mode, server.url("/r"), policy, options).content == b"ok"
    assert [h.get("authorization") for h in server.seen] == ["Bearer s3cret", None]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_credentials_kept_on_same_origin_redirect(server: Server, mode: str) -> None:
    """A redirect within the origin keeps the client's credentials, as httpx does."""
    server.handlers["/r"] = redirecting("/x")
    server.handlers["/x"] = reply(b"ok")
    policy = mp.FetchPolicy(allow_private=True, timeout=3.0)
    options = {"auth": ("alice", "s3cret"), "cookies": {"session": "s3cret"}}
    assert run_with(mode, server.url("/r"), policy, options).content == b"ok"
    basic = "Basic " + base64.b64encode(b"alice:s3cret").decode()
    assert [h.get("authorization") for h in server.seen] == [basic, basic]
    assert [h.get("cookie") for h in server.seen] == ["session=s3cret"] * 2


@pytest.mark.parametrize(
    ("first", "later", "same"),
    [
        ("http://a.test/x", "http://a.test:80/y", True),
        ("http://a.test/x", "https://a.test/y", True),  # the upgrade httpx allows
        ("https://a.test/x", "http://a.test/y", False),
        ("http://a.test/x", "http://A.TEST./y", False),
        ("http://a.test/x", "http://a.test:8080/y", False),
        ("http://127.0.0.1:1/x", "http://127.0.0.1:2/x", False),
        ("http://a.test/x", "http://b.test/x", False),
    ],
)
def test_same_origin(first: str, later: str, same: bool) -> None:
    """Origins are scheme, host and port, with only the http-to-https upgrade allowed."""
    assert same_origin(first, later) is same


BAD_LOCATIONS = [
    "data:text/plain,hi",
    "javascript:alert(1)",
    "http:127.0.0.1/",
    "https:x",
    "http://[::1",
    "http://[fd00:ec2::254%251]/",
    "http://u:pa/ss@127.0.0.1:1/",
    "gopher://127.0.0.1/",
    "//169.254.169.254/",
    "http://%zz/",
    "http://[::ffff:1.2.3]/",
    "http://a b/",
    "http://x:99999/",
    "http://é.test/",
]


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("location", BAD_LOCATIONS)
def test_malformed_location_is_a_media_error(server: Server, mode: str, location: str) -> None:
    """Whatever Location a server sends, only a MediaError comes out, and no retry is made."""
    server.handlers["/r"] = redirecting(location)
    policy = mp.FetchPolicy(
        allow_private=True, timeout=3.0, backoff=0.001, resolver=lambda h, p: []
    )
    with pytest.raises(mp.MediaError):
        run(mode, server.url("/r"), policy)
    assert len(server.seen) == 1


@pytest.mark.parametrize(
    "location", ["data:text/plain,hi", "javascript:alert(1)", "http:127.0.0.1/"]
)
def test_unreadable_location_is_blocked(server: Server, location: str) -> None:
    """A Location httpx cannot read is refused as a BlockedURL naming the redirecting URL."""
    server.handlers["/r"] = redirecting(location)
    with pytest.raises(mp.BlockedURL, match="Location is not a URL that can be fetched"):
        fetch(server.url("/r"), policy=mp.FetchPolicy(allow_private=True, timeout=3.0))


@pytest.mark.parametrize("count", [6, 50, 5000])
def test_too_many_codings_refused(server: Server, count: int) -> None:
    """More than five stacked content codings is a FetchError, not a RecursionError."""
    server.handlers["/x"] = reply(b"x", **{"Content-Encoding": ", ".join(["gzip"] * count)})
    with pytest.raises(mp.FetchError, match="content codings"):
        fetch(server.url("/x"), policy=mp.FetchPolicy(allow_private=True, timeout=5.0))


def test_five_codings_still_decode(server: Server) -> None:
    """Five codings, the most mediaparts decodes, still round-trip."""
    server.handlers["/x"] = reply(
        pack(b"hello", "gzip, deflate, gzip, gzip, deflate"),
        **{"Content-Encoding": "gzip, deflate, gzip, gzip, deflate"},
    )
    got = fetch(server.url("/x"), policy=mp.FetchPolicy(allow_private=True, timeout=5.0))
    assert got.content == b"hello"


REDACTED = [
    # (URL, what redact shows); the password is always "pa" + one delimiter + "ss" or similar
    ("http://u:pass@h.test/x", "http://***@h.test/x"),
    ("http://u:pa#ss@h.test/x", "http://***@h.test/x"),
    ("http://u:pa/ss@h.test/x", "http://***@h.test/x"),
    ("http://u:pa?ss@h.test/x", "http://***@h.test/x"),
    ("http://u:pa@ss@h.test/x", "http://***@h.test/x"),
    ("http://u:pa\\ss@h.test/x", "http://***@h.test/x"),
    ("http://u:12/34@h.test/", "http://***@h.test/"),
    ("http://us#er:pass@h.test/", "http://***@h.test/"),
    ("http:u:pass@h.test/", "http:***@h.test/"),
    ("http:\\\\u:pass@h.test/", "http:\\\\***@h.test/"),
    ("//u:pass@h.test/", "//***@h.test/"),
    ("http://u:pass@[::1", "http://***@[::1"),
    ("http://u:p%40ss@h.test/", "http://***@h.test/"),
    ("https://medium.com/@user/a.png", "https://medium.com/@user/a.png"),
    ("https://h.test/a.png?q=1#f", "https://h.test/a.png?q=1#f"),
]


@pytest.mark.parametrize(("url", "shown"), REDACTED)
def test_redact_cannot_be_fooled_by_delimiters(url: str, shown: str) -> None:
    """Passwords holding #, /, ?, @ or \\ unencoded are redacted whole; plain URLs are kept."""
    assert redact(url) == shown


@pytest.mark.parametrize(
    ("template", "password"),
    [
        *[("http://alice:{}@127.0.0.1/x", p) for p in ("pa#ss123", "pa/ss123", "pa?ss123")],
        *[("ftp://alice:{}@example.com/x", p) for p in ("pa#ss123", "pa@ss123", "12/3456")],
    ],
)
def test_blocked_url_never_shows_password(template: str, password: str) -> None:
    """Neither the message nor the url of a BlockedURL holds any piece of the password."""
    with pytest.raises(mp.BlockedURL) as caught:
        check_url(template.format(password), mp.FetchPolicy())
    shown = str(caught.value) + (caught.value.url or "")
    for piece in (password, *password.replace("#", "/").replace("?", "/").split("/")):
        assert len(piece) < 3 or piece not in shown


def test_unsupported_media_type_never_shows_password(httpx_mock: HTTPXMock) -> None:
    """A typed URL part that fetches bytes of another kind names the URL without its password."""
    httpx_mock.add_response(url="https://example.com/a.png", content=b"%PDF-1.7\n%%EOF\n")
    part = mp.ImagePart.from_url("https://alice:hunter2@example.com/a.png")
    with pytest.raises(mp.UnsupportedMediaType) as caught:
        part.load()
    assert "hunter2" not in str(caught.value)
    assert "***@example.com" in str(caught.value)
    assert "hunter2" not in repr(part)


def test_every_message_showing_a_url_redacts_it() -> None:
    """No f-string in src interpolates a URL-named value except through redact()."""
    import ast

    import mediaparts

    # Reviewed exceptions (file, expression): values that are not URLs with credentials.
    allowed = {
        ("_constructors.py", "url"),  # from_url() refusing a value that is not a URL string
        ("_urls.py", "url"),  # testing.media_urls refusing what a test registered
        ("_audio.py", "target"),  # convert_audio's target media type ("audio/mpeg")
    }
    named = {"url", "current", "target", "location"}
    found = []
    for path in Path(mediaparts.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FormattedValue):
                continue
            value = node.value
            name = value.id if isinstance(value, ast.Name) else getattr(value, "attr", None)
            url_named = name is not None and (name in named or name.endswith("_url"))
            if url_named and (path.name, ast.unparse(value)) not in allowed:
                found.append(f"{path.name}:{node.lineno} {{{ast.unparse(value)}}}")
    assert found == [], "show URLs through redact(): " + ", ".join(found)


# --- Loading once, whatever mix of threads and event loops reads a part. ---


def blocking(png: bytes, release: threading.Event, started: threading.Event) -> Handler:
    """Answer `png`; the first request waits for `release` first."""
    first = [True]

    def handle(h: BaseHTTPRequestHandler) -> None:
        if first[0]:
            first[0] = False
            started.set()
            release.wait(10)
        reply(png)(h)

    return handle


def test_aload_keeps_its_loop_running_while_a_thread_fetches(
    server: Server, testdata: Path
) -> None:
    """aload() waits for another thread's fetch without blocking its event loop."""
    png = (testdata / "alpha.png").read_bytes()
    release, started, fetched = threading.Event(), threading.Event(), threading.Event()
    server.handlers["/a.png"] = blocking(png, release, started)
    policy = mp.FetchPolicy(allow_private=True, timeout=20.0)
    part = mp.ImagePart.from_url(server.url("/a.png"))

    def in_thread() -> None:
        part.load(policy=policy)
        fetched.set()

    thread = threading.Thread(target=in_thread)
    thread.start()
    assert started.wait(10)
    ran_while_fetching: list[bool] = []

    async def other_task() -> None:
        await asyncio.sleep(0.2)  # aload() is waiting by now
        ran_while_fetching.append(not fetched.is_set())
        release.set()  # only now may the thread's fetch finish

    async def main() -> None:
        await asyncio.gather(part.aload(policy=policy), other_task())

    asyncio.run(main())
    thread.join(10)
    assert ran_while_fetching == [True]  # the loop ran another task while the thread fetched
    assert part.data == png
    assert len(server.seen) == 1  # and the part was fetched once


def test_one_fetch_across_threads_and_loops(server: Server, testdata: Path) -> None:
    """Readers on several event loops and threads share one fetch of a part."""
    png = (testdata / "alpha.png").read_bytes()
    release, started = threading.Event(), threading.Event()
    server.handlers["/a.png"] = blocking(png, release, started)
    policy = mp.FetchPolicy(allow_private=True, timeout=20.0)
    part = mp.ImagePart.from_url(server.url("/a.png"))
    results: list[bytes] = []

    def on_loop() -> None:
        asyncio.run(part.aload(policy=policy))
        results.append(part.data)

    def blocking_read() -> None:
        results.append(part.load(policy=policy).data)

    readers = [threading.Thread(target=on_loop) for _ in range(3)]
    readers += [threading.Thread(target=blocking_read) for _ in range(2)]
    for reader in readers:
        reader.start()
    assert started.wait(10)
    time.sleep(0.3)  # let every reader reach its wait
    release.set()
    for reader in readers:
        reader.join(15)
    assert results == [png] * 5
    assert len(server.seen) == 1


def test_failed_flight_shared_then_retried(server: Server) -> None:
    """Readers waiting on a failing fetch get its error; a later read tries again."""
    server.handlers["/a.png"] = reply(b"", 404)
    policy = mp.FetchPolicy(allow_private=True, timeout=5.0, retries=0)
    part = mp.ImagePart.from_url(server.url("/a.png"))

    async def main() -> list[Any]:
        return await asyncio.gather(
            *(part.aload(policy=policy) for _ in range(4)), return_exceptions=True
        )

    errors = asyncio.run(main())
    assert all(isinstance(e, mp.FetchError) for e in errors)
    assert len(server.seen) == 1
    with pytest.raises(mp.FetchError):
        part.load(policy=policy)
    assert len(server.seen) == 2


def test_blocking_read_inside_the_leading_loop_does_not_deadlock(
    server: Server, testdata: Path
) -> None:
    """part.data read in a coroutine while an aload() task of that loop leads still returns."""
    png = (testdata / "alpha.png").read_bytes()
    server.handlers["/a.png"] = reply(png)
    policy = mp.FetchPolicy(allow_private=True, timeout=5.0)
    part = mp.ImagePart.from_url(server.url("/a.png"))

    async def main() -> bytes:
        loading = asyncio.create_task(part.aload(policy=policy))
        await asyncio.sleep(0)  # the aload() task leads a flight, not yet landed
        data = part.load(policy=policy).data  # blocking, on the loop's own thread
        await loading
        return data

    assert asyncio.run(main()) == png


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_non_ascii_digit_content_length_is_no_bare_error(mode: str) -> None:
    """A Content-Length of Unicode digits ("²") is not trusted, and raises no bare ValueError."""

    def reply(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers=[(b"Content-Length", b"\xb2")], content=b"abc")

    policy = mp.FetchPolicy(allow_private=True, retries=0)
    transport = httpx.MockTransport(reply)
    url = "http://127.0.0.1/x"
    if mode == "sync":
        with httpx.Client(transport=transport) as client, contextlib.suppress(mp.MediaError):
            fetch(url, policy=policy, client=client)
    else:

        async def go() -> None:
            async with httpx.AsyncClient(transport=transport) as client:
                with contextlib.suppress(mp.MediaError):
                    await afetch(url, policy=policy, client=client)

        asyncio.run(go())


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_own_client_keeps_no_cookies(local_server: LocalServer, mode: str) -> None:
    """The library's own client sends back no cookie: one caller's never reaches another's."""
    url = local_server.add("/c", b"abc", headers={"Set-Cookie": "session=secret; Path=/"})
    policy = mp.FetchPolicy(allow_private=True, timeout=3.0)
    run(mode, url, policy)
    run(mode, url, policy)
    assert local_server.hits["/c"] == 2
    assert local_server.cookies == [None, None]
