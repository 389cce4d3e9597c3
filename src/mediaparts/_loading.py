"""Loading a URL part's bytes once: thread-safe for `.data`, shared by concurrent `aload()`s.

A part is frozen, so what it learns after it is made (the fetched bytes, the type they turn out
to have, an image's size) lives in a `LoadState` beside it. Fetched bytes are a cache, not part
of the part's value: they are not compared, hashed or serialised.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from mediaparts.detection import detect

if TYPE_CHECKING:
    import asyncio

    import httpx

    from mediaparts import _fetch

__all__ = ["LoadState", "Wanted", "aload", "load", "url_filename"]


@dataclass(frozen=True, slots=True)
class Wanted:
    """What a URL part expects of its bytes.

    Attributes:
        url: Where the bytes are.
        filename: The part's file name (its extension is a hint for detection).
        media_type: The declared or guessed type, a hint for detection.
        check: Raises when a detected type is not of the part's kind; None when any kind is
            welcome (an untyped `FilePart`, which `resolve()` re-classes).
    """

    url: str
    filename: str | None
    media_type: str | None
    check: Callable[[str], None] | None


class LoadState:
    """What a part learns after it is made: fetched bytes, their type, an image's size."""

    __slots__ = ("data", "detected", "lock", "size", "task")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.data: bytes | None = None
        self.detected: str | None = None
        self.size: tuple[int, int] | None = None
        self.task: asyncio.Future[None] | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"data": self.data, "detected": self.detected, "size": self.size}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__()  # type: ignore[misc]  # a fresh lock: locks cannot be pickled
        self.data, self.detected, self.size = state["data"], state["detected"], state["size"]

    def accept(self, wanted: Wanted, fetched: _fetch.Fetched) -> None:
        """Type fetched bytes, check them against the part's kind, and keep them."""
        name = wanted.filename or url_filename(fetched.url)
        declared = wanted.media_type or _content_type_hint(fetched.content_type)
        found = detect(fetched.content, filename=name, declared=declared)
        if wanted.check is not None:
            wanted.check(found.media_type)
        self.detected = found.media_type
        self.data = fetched.content


def load(
    state: LoadState,
    wanted: Wanted,
    *,
    client: httpx.Client | None,
    policy: _fetch.FetchPolicy | None,
) -> None:
    """Fetch the bytes unless some thread already has; other threads wait for that one."""
    with state.lock:
        if state.data is None:
            from mediaparts import _fetch  # httpx loads with the first fetch, not on import

            state.accept(wanted, _fetch.fetch(wanted.url, policy=policy, client=client))


async def aload(
    state: LoadState,
    wanted: Wanted,
    *,
    client: httpx.AsyncClient | None,
    policy: _fetch.FetchPolicy | None,
) -> None:
    """Fetch the bytes in one task that every concurrent caller on this loop awaits."""
    import asyncio  # only async callers pay for it (about 20 ms of `import mediaparts`)

    loop = asyncio.get_running_loop()
    task = state.task
    failed = task is not None and task.done() and (task.cancelled() or task.exception())
    if task is None or task.get_loop() is not loop or failed:
        task = state.task = loop.create_task(_afetch(state, wanted, client, policy))
    # shield: one caller being cancelled must not cancel the fetch the others wait for.
    await asyncio.shield(task)


async def _afetch(
    state: LoadState,
    wanted: Wanted,
    client: httpx.AsyncClient | None,
    policy: _fetch.FetchPolicy | None,
) -> None:
    from mediaparts import _fetch

    fetched = await _fetch.afetch(wanted.url, policy=policy, client=client)
    with state.lock:
        if state.data is None:
            state.accept(wanted, fetched)


def url_filename(url: str) -> str | None:
    """Return the last segment of a URL's path, unquoted, as a file name; None if empty."""
    try:
        path = urlsplit(url).path
    except ValueError:
        return None
    name = unquote(path.rsplit("/", 1)[-1])
    return name or None


def _content_type_hint(header: str | None) -> str | None:
    if not header:
        return None
    value = header.split(";", 1)[0].strip().lower()
    # Servers say these when they do not know; they carry no information about the bytes.
    if not value or value in {"application/octet-stream", "binary/octet-stream"}:
        return None
    return value
