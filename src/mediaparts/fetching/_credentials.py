"""Which credentials a request may carry once a redirect has left the URL's origin.

mediaparts follows redirects itself (see `_fetch`), so httpx's own rule, which drops the
`Authorization` header on a redirect to another origin, never runs. The same rule is kept
here, a little stricter: once any hop has left the origin of the URL the caller gave, no later
request carries the client's `Authorization`, `Proxy-Authorization` or `Cookie` headers, its
`auth=`, or cookies that name no domain. Cookies the jar scopes to a domain (from a server's
`Set-Cookie`, say) still go where their domain matches, as a browser sends them.

The rule is sticky: a redirect from another origin back to the first one is the other
origin's choice of URL, and gets no credentials either.
"""

from __future__ import annotations

import httpx

__all__ = ["CREDENTIAL_HEADERS", "same_origin", "without_credentials"]

# Headers that carry the client's credentials (RFC 9110 §11.6.2, §11.7.2; RFC 6265 §5.4).
CREDENTIAL_HEADERS = ("Authorization", "Proxy-Authorization", "Cookie")


def same_origin(first: str, later: str) -> bool:
    """Tell whether a redirect target keeps the first URL's origin (RFC 6454 §4).

    Scheme, host and port must match, except that an upgrade from `http` to `https` on the
    same host and default ports keeps it, as httpx allows (`_is_https_redirect`).
    """
    try:
        a, b = httpx.URL(first), httpx.URL(later)
    except (httpx.InvalidURL, TypeError, UnicodeError, ValueError):
        return False
    if a.host != b.host:
        return False
    if a.scheme == b.scheme:
        return a.port == b.port
    return (
        a.scheme == "http"
        and a.port in (80, None)
        and b.scheme == "https"
        and b.port in (443, None)
    )


def without_credentials(
    client: httpx.Client | httpx.AsyncClient, request: httpx.Request, keep: str | None
) -> None:
    """Take the client's credentials off a request bound for another origin.

    Args:
        client: The client that built the request (its jar holds the cookies).
        request: The request, changed in place; it is mediaparts' own, never the caller's.
        keep: An `Authorization` value to set again: the Basic credentials of a user name and
            password written in the redirect target's own URL.
    """
    for name in CREDENTIAL_HEADERS:
        request.headers.pop(name, None)
    if keep is not None:
        request.headers["Authorization"] = keep
    scoped = httpx.Cookies()
    for cookie in client.cookies.jar:
        if cookie.domain:  # a cookie with no domain would go to every host
            scoped.jar.set_cookie(cookie)
    scoped.set_cookie_header(request)
