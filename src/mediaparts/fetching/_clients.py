"""httpx clients whose connections go through the guarded backend, and a check for others.

`safe_client()` and `safe_async_client()` give the full guarantee (see `_netguard`). A client
the caller builds some other way connects by itself; for it, `precheck` resolves the host and
refuses it before the request, which a rebinding DNS server can still outwit.
"""

from __future__ import annotations

import contextlib
import functools
import ssl
import weakref
from typing import Any

import httpcore
import httpx

from mediaparts._errors import InvalidConfig
from mediaparts.fetching._netguard import (
    AsyncGuardedBackend,
    GuardedBackend,
    aresolve,
    literal_or_name,
    resolve,
    system_resolver,
    vet,
)
from mediaparts.fetching._policy import FetchPolicy

__all__ = [
    "AsyncGuardedTransport",
    "GuardedTransport",
    "needs_precheck",
    "precheck",
    "precheck_async",
    "safe_async_client",
    "safe_client",
]


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    return httpx.create_ssl_context()


_LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=20)  # httpx's defaults


class GuardedTransport(httpx.HTTPTransport):
    """httpx's HTTP transport over a `GuardedBackend`."""

    def __init__(self, policy: FetchPolicy | None = None) -> None:
        # httpx.HTTPTransport (0.27, 0.28) takes no network backend, so the pool is built here
        # instead of in its __init__; its request handling and close use only `_pool`.
        self._pool = httpcore.ConnectionPool(
            ssl_context=_ssl_context(),
            max_connections=_LIMITS.max_connections,
            max_keepalive_connections=_LIMITS.max_keepalive_connections,
            keepalive_expiry=_LIMITS.keepalive_expiry,
            network_backend=GuardedBackend(policy),
        )


class AsyncGuardedTransport(httpx.AsyncHTTPTransport):
    """httpx's async HTTP transport over an `AsyncGuardedBackend`."""

    def __init__(self, policy: FetchPolicy | None = None) -> None:
        # As in GuardedTransport: the pool is the only state the base class uses.
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=_ssl_context(),
            max_connections=_LIMITS.max_connections,
            max_keepalive_connections=_LIMITS.max_keepalive_connections,
            keepalive_expiry=_LIMITS.keepalive_expiry,
            network_backend=AsyncGuardedBackend(policy),
        )


_GUARDED: weakref.WeakSet[httpx.Client | httpx.AsyncClient] = weakref.WeakSet()
# Options that would route requests around the guarded transport.
_UNGUARDED = frozenset({"transport", "mounts", "proxy", "proxies", "app"})


def _options(options: dict[str, Any]) -> dict[str, Any]:
    bypass = sorted(_UNGUARDED & options.keys())
    if bypass:
        raise InvalidConfig(
            f"safe_client() cannot take {', '.join(bypass)}: it would skip the guard"
        )
    return options


def safe_client(policy: FetchPolicy | None = None, **options: Any) -> httpx.Client:
    """Build an `httpx.Client` whose every connection is resolved and checked by the policy.

    Every connection, redirects httpx follows included, goes only to an address that was
    checked, so DNS rebinding cannot slip past the check. Inside `fetch` the fetch's own
    policy applies.

    Args:
        policy: The policy for addresses and the resolver; the configured default when None.
        **options: Further `httpx.Client` options (headers, cookies, ...), except the ones
            that replace its transport (`transport`, `mounts`, `proxy`).

    Returns:
        A client; the caller closes it.

    Raises:
        InvalidConfig: An option would replace the guarded transport.
    """
    client = httpx.Client(transport=GuardedTransport(policy), **_options(options))
    _GUARDED.add(client)
    return client


def safe_async_client(policy: FetchPolicy | None = None, **options: Any) -> httpx.AsyncClient:
    """Build an `httpx.AsyncClient` whose every connection is resolved and checked.

    Same arguments and errors as `safe_client`.
    """
    client = httpx.AsyncClient(transport=AsyncGuardedTransport(policy), **_options(options))
    _GUARDED.add(client)
    return client


def needs_precheck(client: httpx.Client | httpx.AsyncClient) -> bool:
    """Tell whether a client connects by itself, unguarded, so its hosts need resolving first."""
    if client in _GUARDED:
        return False
    # A client over an in-memory transport makes no connection; `_transport` is httpx's own
    # attribute, read defensively so a future httpx without it still gets the check.
    transport = getattr(client, "_transport", None)
    return not isinstance(
        transport, (httpx.MockTransport, httpx.ASGITransport, httpx.WSGITransport)
    )


def _precheck_target(url: str, policy: FetchPolicy) -> tuple[str, int] | None:
    parsed = httpx.URL(url)
    host = parsed.raw_host.decode("ascii")
    if literal_or_name(host, policy) is not None:
        return None
    return host, parsed.port or (443 if parsed.scheme == "https" else 80)


def precheck(url: str, policy: FetchPolicy, timeout: float) -> None:
    """Resolve a URL's host and refuse it if any address is refused (best effort).

    For clients mediaparts does not control: they resolve the name again when they connect,
    so a rebinding DNS server can still win. A name that does not resolve is left to the
    client, which may reach it through a proxy.
    """
    # Sync twin of `precheck_async` (a blocking resolve vs an awaited one).
    target = _precheck_target(url, policy)
    if target is not None:
        with contextlib.suppress(httpcore.ConnectError, httpcore.ConnectTimeout):
            answers = resolve(policy.resolver or system_resolver, *target, timeout)
            vet(target[0], answers, policy)


async def precheck_async(url: str, policy: FetchPolicy, timeout: float) -> None:
    """Do what `precheck` does, resolving in a worker thread."""
    # Async twin of `precheck` (a blocking resolve vs an awaited one).
    target = _precheck_target(url, policy)
    if target is not None:
        with contextlib.suppress(httpcore.ConnectError, httpcore.ConnectTimeout):
            answers = await aresolve(policy.resolver or system_resolver, *target, timeout)
            vet(target[0], answers, policy)
