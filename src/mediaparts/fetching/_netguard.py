"""Connections that go only where the fetch policy allows, and only until the fetch's deadline.

Checking a URL's host and then letting the HTTP client resolve it again leaves a gap: a DNS
server can answer a public address to the check and `127.0.0.1` to the connect (DNS
rebinding). So the clients mediaparts makes use an httpcore network backend that resolves the
name once, checks every address it got, and connects to a checked address itself. TLS still
verifies and sends SNI for the host name: httpcore passes `server_hostname` to `start_tls`
separately, and the `Host` header comes from the URL.

A name whose answers mix allowed and refused addresses is refused outright, rather than
connected to through its allowed addresses: such an answer is either an attack or a
split-horizon mistake, and refusing it makes the result independent of address order.

The same backend bounds every network operation by the deadline of the fetch it serves (a
context variable), so a server that stalls mid-body cannot hold a fetch past its timeout.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import ssl
import threading
import time
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.to_thread
import httpcore

from mediaparts._errors import BlockedURL, excerpt
from mediaparts.fetching._addresses import address_reason, literal_address, name_reason
from mediaparts.fetching._policy import FetchPolicy, Resolver, default_policy, refusal

__all__ = [
    "AddressRefused",
    "AsyncGuardedBackend",
    "GuardedBackend",
    "aresolve",
    "fetch_scope",
    "literal_or_name",
    "resolve",
    "system_resolver",
    "vet",
]


class AddressRefused(BlockedURL):
    """A host resolved to an address the policy refuses; raised before connecting to it."""

    def __init__(self, host: str, reason: str, address: str | None = None) -> None:
        super().__init__(refusal(host, host, reason, address))
        self.host, self.reason, self.address = host, reason, address


def system_resolver(host: str, port: int) -> list[str]:
    """Resolve a host with `socket.getaddrinfo`, in the order it prefers (RFC 6724)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


@dataclass(frozen=True, slots=True)
class _Scope:
    policy: FetchPolicy
    deadline: float


_SCOPE: ContextVar[_Scope | None] = ContextVar("mediaparts_fetch_scope", default=None)


@contextlib.contextmanager
def fetch_scope(policy: FetchPolicy, deadline: float) -> Iterator[None]:
    """Make connections opened in this context follow `policy` and end by `deadline`."""
    token = _SCOPE.set(_Scope(policy, deadline))
    try:
        yield
    finally:
        _SCOPE.reset(token)


def _limit(timeout: float | None, error: type[Exception]) -> float | None:
    """Cut a network operation's timeout to what is left of the current fetch's deadline."""
    scope = _SCOPE.get()
    if scope is None:
        return timeout
    left = scope.deadline - time.monotonic()
    if left <= 0:
        raise error("the fetch ran out of time (FetchPolicy.timeout)")
    return left if timeout is None else min(timeout, left)


def _policy(own: FetchPolicy | None) -> FetchPolicy:
    scope = _SCOPE.get()
    return scope.policy if scope is not None else own or default_policy()


def vet(host: str, answers: Iterable[str], policy: FetchPolicy) -> list[str]:
    """Return the resolved addresses, or raise if the policy refuses any one of them."""
    checked: list[str] = []
    for answer in answers:
        try:
            ip = ipaddress.ip_address(answer)
        except ValueError:
            raise httpcore.ConnectError(f"{host} resolved to {answer!r}, not an address") from None
        reason = address_reason(ip, allow_private=policy.allow_private)
        if reason is not None:
            raise AddressRefused(host, reason, str(ip))
        checked.append(str(ip))
    if not checked:
        raise httpcore.ConnectError(f"{host} resolved to no addresses")
    return checked


def literal_or_name(host: str, policy: FetchPolicy) -> list[str] | None:
    reason = name_reason(host, allow_private=policy.allow_private)
    if reason is not None:
        raise AddressRefused(host, reason)
    ip = literal_address(host)
    return None if ip is None else vet(host, [str(ip)], policy)


def resolve(resolver: Resolver, host: str, port: int, timeout: float | None) -> list[str]:
    """Resolve in a daemon thread, so a stuck resolver cannot outlast the timeout."""
    box: list[list[str] | BaseException] = []

    def run() -> None:
        try:
            box.append(list(resolver(host, port)))
        except BaseException as exc:  # handed to the waiting thread, which re-raises it
            box.append(exc)

    worker = threading.Thread(target=run, name="mediaparts-resolve", daemon=True)
    worker.start()
    worker.join(timeout)
    if not box:
        raise httpcore.ConnectTimeout(f"resolving {host} took longer than {timeout:g} s")
    if isinstance(box[0], (OSError, UnicodeError)):
        raise httpcore.ConnectError(f"cannot resolve {host}: {box[0]}") from box[0]
    if isinstance(box[0], BaseException):
        raise box[0]
    return box[0]


async def aresolve(resolver: Resolver, host: str, port: int, timeout: float | None) -> list[str]:
    try:
        with anyio.fail_after(timeout):
            answers = await anyio.to_thread.run_sync(resolver, host, port, abandon_on_cancel=True)
    except TimeoutError:
        raise httpcore.ConnectTimeout(f"resolving {host} took longer than {timeout:g} s") from None
    except (OSError, UnicodeError) as exc:
        raise httpcore.ConnectError(f"cannot resolve {host}: {exc}") from exc
    return list(answers)


class GuardedBackend(httpcore.NetworkBackend):
    """An httpcore backend that connects only to addresses it resolved and checked."""

    # Sync twin of `AsyncGuardedBackend`: httpcore's two backend interfaces differ in every
    # method (blocking vs awaited), so the connect logic stays written twice, side by side.

    def __init__(self, policy: FetchPolicy | None = None) -> None:
        self._policy = policy
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        policy = _policy(self._policy)
        addresses = literal_or_name(host, policy)
        if addresses is None:
            resolver = policy.resolver or system_resolver
            answers = resolve(resolver, host, port, _limit(timeout, httpcore.ConnectTimeout))
            addresses = vet(host, answers, policy)
        failure: Exception = httpcore.ConnectError(f"cannot connect to {host}")
        for address in addresses:  # every one checked; the first that answers is used
            try:
                stream = self._inner.connect_tcp(
                    address,
                    port,
                    _limit(timeout, httpcore.ConnectTimeout),
                    local_address,
                    socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
                continue
            return _DeadlineStream(stream, host, address, self._policy)
        raise failure

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        raise BlockedURL(
            f"refusing Unix socket {excerpt(path, ends=True)}: fetches go over TCP only"
        )

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _Pinned:
    """A connection's checked address, checked again before each request is sent on it.

    A pooled connection opened for a fetch that allowed private addresses must not carry a
    later fetch whose policy refuses them, so every write re-checks under the current policy.
    """

    def __init__(self, host: str, address: str, policy: FetchPolicy | None) -> None:
        self.host, self.address, self.policy = host, address, policy
        self.ip = ipaddress.ip_address(address)

    def recheck(self) -> None:
        allow_private = _policy(self.policy).allow_private
        reason = address_reason(self.ip, allow_private=allow_private)
        if reason is not None:
            raise AddressRefused(self.host, reason, self.address)


class _DeadlineStream(httpcore.NetworkStream):
    # Sync twin of `_AsyncDeadlineStream` (httpcore's sync and async stream interfaces).
    def __init__(
        self, inner: httpcore.NetworkStream, host: str, address: str, policy: FetchPolicy | None
    ) -> None:
        self._inner = inner
        self._pin = _Pinned(host, address, policy)

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _limit(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._pin.recheck()
        self._inner.write(buffer, _limit(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        limit = _limit(timeout, httpcore.ConnectTimeout)
        stream = self._inner.start_tls(ssl_context, server_hostname, limit)
        pin = self._pin
        return _DeadlineStream(stream, pin.host, pin.address, pin.policy)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class AsyncGuardedBackend(httpcore.AsyncNetworkBackend):
    """The async twin of `GuardedBackend`, over anyio (asyncio or trio)."""

    # Async twin of `GuardedBackend`: the same steps, awaited (aresolve, the anyio connect);
    # a change to one is made to the other.

    def __init__(self, policy: FetchPolicy | None = None) -> None:
        self._policy = policy
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        policy = _policy(self._policy)
        addresses = literal_or_name(host, policy)
        if addresses is None:
            resolver = policy.resolver or system_resolver
            limit = _limit(timeout, httpcore.ConnectTimeout)
            addresses = vet(host, await aresolve(resolver, host, port, limit), policy)
        failure: Exception = httpcore.ConnectError(f"cannot connect to {host}")
        for address in addresses:
            try:
                stream = await self._inner.connect_tcp(
                    address,
                    port,
                    _limit(timeout, httpcore.ConnectTimeout),
                    local_address,
                    socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
                continue
            return _AsyncDeadlineStream(stream, host, address, self._policy)
        raise failure

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.AsyncNetworkStream:
        raise BlockedURL(
            f"refusing Unix socket {excerpt(path, ends=True)}: fetches go over TCP only"
        )

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _AsyncDeadlineStream(httpcore.AsyncNetworkStream):
    # Async twin of `_DeadlineStream` (httpcore's sync and async stream interfaces).
    def __init__(
        self,
        inner: httpcore.AsyncNetworkStream,
        host: str,
        address: str,
        policy: FetchPolicy | None,
    ) -> None:
        self._inner = inner
        self._pin = _Pinned(host, address, policy)

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._inner.read(max_bytes, _limit(timeout, httpcore.ReadTimeout))

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._pin.recheck()
        await self._inner.write(buffer, _limit(timeout, httpcore.WriteTimeout))

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        limit = _limit(timeout, httpcore.ConnectTimeout)
        stream = await self._inner.start_tls(ssl_context, server_hostname, limit)
        pin = self._pin
        return _AsyncDeadlineStream(stream, pin.host, pin.address, pin.policy)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)
