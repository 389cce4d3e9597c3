"""The fetch policy, and the checks a URL must pass before any network traffic."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TypeAlias
from urllib.parse import unquote

from mediaparts._errors import BlockedURL, InvalidConfig, excerpt
from mediaparts.fetching._addresses import address_reason, literal_address, name_reason

__all__ = [
    "FetchPolicy",
    "Resolver",
    "check_url",
    "default_policy",
    "redact",
    "scrub",
    "set_default_policy",
    "using_policy",
]

Resolver: TypeAlias = Callable[[str, int], Sequence[str]]
"""Resolve a host name and port to IP address strings; raise `OSError` when it cannot."""


@dataclass(frozen=True, slots=True)
class FetchPolicy:
    """How URLs may be fetched.

    Attributes:
        timeout: Seconds for the whole fetch: name resolution, connecting, redirects, retries
            and every read of the body.
        max_bytes: Most bytes a body may have (decoded); larger bodies raise `MediaTooLarge`.
        max_redirects: Most redirect hops to follow.
        allow_private: Let fetches reach loopback and private-network addresses. Cloud-metadata
            addresses stay refused.
        schemes: URL schemes that may be fetched.
        retries: Further tries after a connection error, 429 or 5xx.
        backoff: Seconds before the first retry; doubled for each further one.
        resolver: Resolves host names for the connections mediaparts makes (for tests,
            split-horizon DNS or a DNS-over-HTTPS client); `socket.getaddrinfo` when None.
    """

    timeout: float = 30.0
    max_bytes: int = 50 * 2**20
    max_redirects: int = 5
    allow_private: bool = False
    schemes: tuple[str, ...] = ("https", "http")
    retries: int = 2
    backoff: float = 0.25
    resolver: Resolver | None = None

    def __post_init__(self) -> None:
        """Check the fields.

        Raises:
            InvalidConfig: A number field is not a number, `timeout` is not positive,
                `max_bytes`, `max_redirects`, `retries` or `backoff` is negative,
                `allow_private` is not a bool, or `schemes` is not a tuple of strings.
        """
        for name in ("timeout", "max_bytes", "max_redirects", "retries", "backoff"):
            value = getattr(self, name)
            if not isinstance(value, int | float):
                raise InvalidConfig(
                    f"FetchPolicy.{name} must be a number, got {type(value).__name__}"
                )
        if not self.timeout > 0:  # written so that NaN fails too
            raise InvalidConfig(
                f"FetchPolicy.timeout must be positive, got {excerpt(self.timeout)}"
            )
        if not min(self.max_bytes, self.max_redirects, self.retries, self.backoff) >= 0:
            raise InvalidConfig(
                "FetchPolicy.max_bytes, max_redirects, retries and backoff must be >= 0"
            )
        # A string here would pass as true ("false" allows private addresses) or match by
        # substring ("https" would take "http"); both come easily from a config file.
        if not isinstance(self.allow_private, bool):
            raise InvalidConfig(
                "FetchPolicy.allow_private must be True or False, got "
                f"{excerpt(self.allow_private)}"
            )
        if not isinstance(self.schemes, tuple) or not all(isinstance(s, str) for s in self.schemes):
            raise InvalidConfig(
                f"FetchPolicy.schemes must be a tuple of scheme names, got {excerpt(self.schemes)}"
            )


_default: list[FetchPolicy] = [FetchPolicy()]
# A policy for one block of code (`using_policy`), in this thread or task only.
_scoped: ContextVar[FetchPolicy | None] = ContextVar("mediaparts_fetch_policy", default=None)


def default_policy() -> FetchPolicy:
    """Return the policy in force here: `using_policy`'s, else the one set by `configure`
    (or the built-in default)."""
    scoped = _scoped.get()
    return _default[0] if scoped is None else scoped


@contextlib.contextmanager
def using_policy(policy: FetchPolicy) -> Iterator[FetchPolicy]:
    """Make `policy` the default while the block runs, in this thread or task only (threads
    and tasks started inside it inherit it); other threads, and the code after the block,
    keep theirs.

    Raises:
        InvalidConfig: `policy` is not a `FetchPolicy`.
    """
    if not isinstance(policy, FetchPolicy):
        raise InvalidConfig(f"using_policy() takes a FetchPolicy, got {type(policy).__name__}")
    token = _scoped.set(policy)
    try:
        yield policy
    finally:
        _scoped.reset(token)


def set_default_policy(policy: FetchPolicy) -> None:
    """Make `policy` the one every fetch uses unless it is given another."""
    _default[0] = policy


# A URL scheme (RFC 3986 §3.1), anchored at the start: a single linear pass, no backtracking.
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
# What ends an authority: WHATWG's URL standard adds "\\" for the special schemes (http(s)).
_AUTHORITY_END = re.compile(r"[/?#\\]")


def _credentials(url: str) -> tuple[int, int] | None:
    """Find the span of a URL's user name and password, ending just before its `@`.

    The authority runs from after `scheme://` to the first `/`, `?`, `#` or `\\`, and its
    userinfo is everything before the last `@` in it (WHATWG URL standard, authority state;
    RFC 3986 §3.2). A password holding one of those delimiters unencoded (`u:pa/ss@host`)
    ends the authority early for every parser, so it would show in the path. So when an `@`
    comes after the authority and a `:` comes before that `@`, the URL is read the way a
    careless writer meant it too: everything up to the last `@` is taken as credentials.
    That over-redacts a few odd URLs (`https://h:8080/@user`) and never shows a password.

    Returns:
        (start, at): the credentials are `url[start:at]` and `url[at]` is `@`; None when the
        URL has none.
    """
    scheme = _SCHEME.match(url)
    start = scheme.end() if scheme else 0
    # WHATWG skips any run of slashes and backslashes before an http(s) authority.
    while start < len(url) and url[start] in "/\\":
        start += 1
    found = _AUTHORITY_END.search(url, start)
    end = found.start() if found else len(url)
    at = url.rfind("@", start, end)
    last = url.rfind("@", start)
    if last > end and ":" in url[start:last]:
        at = last  # an `@` past the authority, a `:` before it: perhaps a password
    return (start, at) if at >= 0 else None


def redact(url: str) -> str:
    """Return the URL without any user name or password, for messages, reprs and logs.

    Every text mediaparts shows a URL in goes through here; see `_credentials` for how the
    credentials are found even when the URL's own syntax hides them.
    """
    span = _credentials(url)
    if span is None:
        return url
    start, at = span
    return f"{url[:start]}***{url[at:]}"


def scrub(text: str, url: str) -> str:
    """Remove the URL's credentials from a text (another library's error message, say)."""
    span = _credentials(url)
    if span is None:
        return text
    userinfo = url[span[0] : span[1]]
    password = userinfo.partition(":")[2]
    secrets = {userinfo, password}
    # A parser that stopped at a delimiter inside the password quotes only a piece of it
    # ("Invalid port: 'pa'"), so each piece goes too.
    secrets.update(_AUTHORITY_END.split(password))
    secrets.update([unquote(secret) for secret in secrets])
    # A one- or two-letter piece would blank out ordinary words; longer ones all go.
    for secret in sorted((s for s in secrets if len(s) >= 3), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def check_url(url: str, policy: FetchPolicy | None = None) -> None:
    """Refuse a URL the policy does not allow, without any network traffic.

    The host is read the way httpx will send it (so `127。0。0。1` is `127.0.0.1`), then judged:
    literal addresses by their address, names by what they are (`localhost`, `*.local`, cloud
    metadata names). What a name resolves to is checked when mediaparts connects.

    Args:
        url: The URL to check.
        policy: The policy; the configured default when omitted.

    Raises:
        BlockedURL: The URL does not parse, its scheme is not allowed, it has no host, or its
            host is an address or name the policy refuses.
    """
    policy = policy or default_policy()
    shown = redact(url)
    import httpx  # loaded with the first URL check, not on `import mediaparts`

    try:
        parsed = httpx.URL(url)
        host = parsed.raw_host.decode("ascii")
        if host and literal_address(host) is None:
            host.encode("idna")  # empty or over-long labels fail here, not deep in a send
    except (httpx.InvalidURL, TypeError, UnicodeError, ValueError) as exc:
        message = scrub(str(exc), url)
        cause = exc if message == str(exc) else None  # never chain a message with credentials
        raise BlockedURL(
            f"refusing {excerpt(shown, ends=True)}: not a valid URL ({message})", url=shown
        ) from cause
    scheme = parsed.scheme.lower()
    if scheme not in policy.schemes:
        allowed = ", ".join(policy.schemes)
        raise BlockedURL(
            f"refusing {excerpt(shown, ends=True)}:"
            f" scheme {excerpt(scheme or '(none)')} is not one of "
            f"{allowed} "
            "(change FetchPolicy.schemes to allow it)",
            url=shown,
        )
    if not host:
        raise BlockedURL(f"refusing {excerpt(shown, ends=True)}: the URL has no host", url=shown)
    ip = literal_address(host)
    if ip is not None:
        reason = address_reason(ip, allow_private=policy.allow_private)
        if ip.version == 4 and str(ip) != host:
            host = f"{host} ({ip})"  # an odd spelling: say which address it is
    else:
        reason = name_reason(host, allow_private=policy.allow_private)
    if reason is not None:
        raise BlockedURL(refusal(shown, host, reason), url=shown)


def refusal(shown: str, host: str, reason: str, address: str | None = None) -> str:
    """Word the message of a `BlockedURL` for a host the policy refuses."""
    what = f"{host} resolves to {address}, a" if address else f"{host} is a"
    if reason.startswith("cloud-metadata"):
        return (
            f"refusing {excerpt(shown, ends=True)}: {what} {reason}, which is never fetched "
            "(not even with FetchPolicy(allow_private=True))"
        )
    return (
        f"refusing {excerpt(shown, ends=True)}:"
        f" {what} {reason}, and fetching such hosts is off by default "
        "(FetchPolicy(allow_private=True) allows it)"
    )
