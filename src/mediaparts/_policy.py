"""The fetch policy, and the checks a URL must pass before any network traffic."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeAlias
from urllib.parse import unquote, urlsplit, urlunsplit

from mediaparts._addresses import address_reason, literal_address, name_reason
from mediaparts._errors import BlockedURL

__all__ = [
    "FetchPolicy",
    "Resolver",
    "check_url",
    "default_policy",
    "redact",
    "scrub",
    "set_default_policy",
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
        if self.timeout <= 0:
            raise ValueError(f"FetchPolicy.timeout must be positive, got {self.timeout!r}")
        if self.max_bytes < 0 or self.max_redirects < 0 or self.retries < 0:
            raise ValueError("FetchPolicy.max_bytes, max_redirects and retries must be >= 0")


_default: list[FetchPolicy] = [FetchPolicy()]


def default_policy() -> FetchPolicy:
    """Return the policy set by `configure` (or the built-in default)."""
    return _default[0]


def set_default_policy(policy: FetchPolicy) -> None:
    """Make `policy` the one every fetch uses unless it is given another."""
    _default[0] = policy


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


def scrub(text: str, url: str) -> str:
    """Remove the URL's credentials from a text (another library's error message, say)."""
    try:
        netloc = urlsplit(url).netloc
    except ValueError:
        return text
    userinfo = netloc.rpartition("@")[0]
    if not userinfo:
        return text
    password = userinfo.partition(":")[2]
    secrets = {userinfo, unquote(userinfo), password, unquote(password)}
    # A one- or two-letter password would blank out ordinary words; the full userinfo still goes.
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
        raise BlockedURL(f"refusing {shown!r}: not a valid URL ({message})", url=shown) from cause
    scheme = parsed.scheme.lower()
    if scheme not in policy.schemes:
        allowed = ", ".join(policy.schemes)
        raise BlockedURL(
            f"refusing {shown!r}: scheme {scheme or '(none)'!r} is not one of {allowed} "
            "(change FetchPolicy.schemes to allow it)",
            url=shown,
        )
    if not host:
        raise BlockedURL(f"refusing {shown!r}: the URL has no host", url=shown)
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
            f"refusing {shown!r}: {what} {reason}, which is never fetched "
            "(not even with FetchPolicy(allow_private=True))"
        )
    return (
        f"refusing {shown!r}: {what} {reason}, and fetching such hosts is off by default "
        "(FetchPolicy(allow_private=True) allows it)"
    )
