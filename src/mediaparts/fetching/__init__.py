"""The fetch stack: URL policy, SSRF guard, guarded clients, capped fetches, part loading.

The layer between imaging and the parts: `_addresses` and `_policy` decide, without I/O,
which URLs and addresses a fetch may reach; `_netguard` resolves and connects only to checked
addresses; `_clients` builds the guarded httpx clients; `_attempt` is the sans-I/O state of
one fetch (redirects, retries, the deadline, the size cap); `_fetch` drives it over a client;
`_loading` fetches a URL part's bytes once, however many threads ask; `_credentials` keeps
credentials from following a redirect to another origin.

Modules outside this package import what is exported here, never a `_module` of it. The names
whose modules import httpx (`configure`, `fetch`, `safe_client`, ...) load on first use, so
`import mediaparts` stays free of httpx.
"""

import typing as _typing

from mediaparts._lazy import lazy_exports as _lazy_exports
from mediaparts._lazy import publish as _publish
from mediaparts.fetching._loading import LoadState, Wanted, aload, load, url_filename
from mediaparts.fetching._policy import (
    FetchPolicy,
    Resolver,
    check_url,
    default_policy,
    redact,
    using_policy,
)

if _typing.TYPE_CHECKING:  # loaded on first use (below); type checkers see plain imports
    from mediaparts.fetching._attempt import Fetched
    from mediaparts.fetching._fetch import (
        afetch,
        configure,
        fetch,
        is_offline,
        offline,
        safe_async_client,
        safe_client,
        use_clients,
    )

# The names whose modules import httpx, by the module that defines them.
_LAZY = {
    "Fetched": "mediaparts.fetching._attempt",
    "afetch": "mediaparts.fetching._fetch",
    "configure": "mediaparts.fetching._fetch",
    "fetch": "mediaparts.fetching._fetch",
    "is_offline": "mediaparts.fetching._fetch",
    "offline": "mediaparts.fetching._fetch",
    "safe_async_client": "mediaparts.fetching._fetch",
    "safe_client": "mediaparts.fetching._fetch",
    "use_clients": "mediaparts.fetching._fetch",
}


__getattr__, __dir__ = _lazy_exports(__name__, _LAZY, globals())

__all__ = [
    "FetchPolicy",
    "Fetched",
    "LoadState",
    "Resolver",
    "Wanted",
    "afetch",
    "aload",
    "check_url",
    "configure",
    "default_policy",
    "fetch",
    "is_offline",
    "load",
    "offline",
    "redact",
    "safe_async_client",
    "safe_client",
    "url_filename",
    "use_clients",
    "using_policy",
]

_publish(__name__, globals(), __all__)
