"""Loading a URL part's bytes once, whatever mix of threads and event loops reads it.

A part is frozen, so what it learns after it is made (the fetched bytes, the type they turn out
to have, an image's size) lives in a `LoadState` beside it. Fetched bytes are a cache, not part
of the part's value: they are not compared, hashed or serialised.

One reader at a time leads a `Flight` (the fetch); every other reader, on any thread or any
event loop, waits for that flight to land and shares its outcome. The state's lock is held only
to look at or change the state, never across a fetch, so an `aload()` never blocks its event
loop on a thread's fetch: it awaits a future that the landing flight resolves through
`loop.call_soon_threadsafe`.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from mediaparts._errors import empty_media, excerpt
from mediaparts.detection import detect
from mediaparts.fetching._policy import redact

if TYPE_CHECKING:
    import asyncio

    import httpx

    from mediaparts.fetching import _fetch

__all__ = ["Flight", "LoadState", "Wanted", "aload", "load", "url_filename"]


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


class Flight:
    """One fetch of a part's bytes under way, which readers on any thread or loop wait for."""

    __slots__ = ("_guard", "_waiters", "done", "error", "thread")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.error: BaseException | None = None
        # The thread whose event loop runs the leading task; None for a blocking leader.
        self.thread: int | None = None
        self._guard = threading.Lock()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def land(self, error: BaseException | None) -> None:
        """End the flight and wake every waiter, blocking or awaiting, on every loop."""
        with self._guard:
            self.error = error
            self.done.set()
            waiters, self._waiters = self._waiters, []
        for loop, future in waiters:
            with contextlib.suppress(RuntimeError):  # that loop has closed: no one waits there
                loop.call_soon_threadsafe(_wake, future)

    async def wait(self) -> None:
        """Wait for the flight to land without blocking the running event loop."""
        import asyncio

        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._guard:
            if self.done.is_set():
                return
            self._waiters.append((loop, future))
        await future

    def outcome(self) -> None:
        """Raise the error the flight ended in, for every reader that waited for it.

        A flight whose leader was cancelled or interrupted (an error that is not an
        `Exception`) says nothing about the URL, so its waiters try again instead.
        """
        if isinstance(self.error, Exception):
            raise self.error


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():  # a cancelled waiter's future is done already
        future.set_result(None)


class LoadState:
    """What a part learns after it is made: fetched bytes, their type, an image's size and
    EXIF orientation (each with the bytes it was read from: a copy of the part given other
    bytes shares this state, and must not take them)."""

    __slots__ = ("data", "detected", "flight", "lock", "orientation", "size", "task")

    def __init__(self) -> None:
        self.lock = threading.Lock()  # held only to read or change the fields, never to fetch
        self.data: bytes | None = None
        self.detected: str | None = None
        self.size: tuple[bytes, tuple[int, int] | None] | None = None
        self.orientation: tuple[bytes, int] | None = None
        self.flight: Flight | None = None
        self.task: asyncio.Task[None] | None = None  # a leading aload()'s fetch, kept alive

    def __getstate__(self) -> dict[str, Any]:
        return {"data": self.data, "detected": self.detected, "size": self.size}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__()  # type: ignore[misc]  # a fresh lock: locks cannot be pickled
        self.data, self.detected, self.size = state["data"], state["detected"], state["size"]

    def join(self) -> tuple[Flight | None, bool]:
        """Return the flight to wait for and whether the caller leads it; None once loaded."""
        with self.lock:
            if self.data is not None:
                return None, False
            if self.flight is not None:
                return self.flight, False
            self.flight = Flight()
            return self.flight, True

    def land(self, flight: Flight, error: BaseException | None) -> None:
        """End a flight: a later reader of a part still not loaded starts a new one."""
        with self.lock:
            if self.flight is flight:
                self.flight = None
        flight.land(error)

    def accept(self, wanted: Wanted, fetched: _fetch.Fetched) -> None:
        """Type fetched bytes, check them against the part's kind, and keep them."""
        if not fetched.content:  # as an empty file is: said so, not called a corrupt image
            raise empty_media(
                excerpt(redact(fetched.url), ends=True), "the server sent no content: check the URL"
            )
        name = wanted.filename or url_filename(fetched.url)
        declared = wanted.media_type or _content_type_hint(fetched.content_type)
        found = detect(fetched.content, filename=name, declared=declared)
        if wanted.check is not None:
            wanted.check(found.media_type)
        with self.lock:
            self.detected = found.media_type
            self.data = fetched.content


def load(
    state: LoadState,
    wanted: Wanted,
    *,
    client: httpx.Client | None,
    policy: _fetch.FetchPolicy | None,
) -> None:
    """Fetch the bytes unless a reader already is; then wait for that reader's flight."""
    # Sync twin of `aload`: a thread waits on an Event, a coroutine awaits a task; the
    # bookkeeping (join, accept, land) is `LoadState`'s, written once.
    while True:
        flight, lead = state.join()
        if flight is None:
            return
        from mediaparts.fetching import _fetch  # httpx loads with the first fetch, not on import

        if not lead and flight.thread == threading.get_ident():
            # `.data` read in a coroutine while a task of this same loop leads: waiting here
            # would stop the loop that task needs, forever. Fetch alongside it instead.
            state.accept(wanted, _fetch.fetch(wanted.url, policy=policy, client=client))
            return
        if lead:
            error: BaseException | None = None
            try:
                state.accept(wanted, _fetch.fetch(wanted.url, policy=policy, client=client))
            except BaseException as exc:
                error = exc
                raise
            finally:
                state.land(flight, error)
            return
        flight.done.wait()
        flight.outcome()


async def aload(
    state: LoadState,
    wanted: Wanted,
    *,
    client: httpx.AsyncClient | None,
    policy: _fetch.FetchPolicy | None,
) -> None:
    """Fetch the bytes in a task unless a reader already is; await whichever flight is up.

    The fetch runs in a task of its own, so a leading caller being cancelled does not cancel
    the fetch the others wait for.
    """
    # Async twin of `load`: a thread waits on an Event, a coroutine awaits a task; the
    # bookkeeping (join, accept, land) is `LoadState`'s, written once.
    import asyncio  # only async callers pay for it (about 20 ms of `import mediaparts`)

    while True:
        flight, lead = state.join()
        if flight is None:
            return
        if lead:
            flight.thread = threading.get_ident()
            task = asyncio.get_running_loop().create_task(
                _lead(state, flight, wanted, client, policy)
            )
            state.task = task
        await flight.wait()
        flight.outcome()


async def _lead(
    state: LoadState,
    flight: Flight,
    wanted: Wanted,
    client: httpx.AsyncClient | None,
    policy: _fetch.FetchPolicy | None,
) -> None:
    import asyncio

    from mediaparts.fetching import _fetch

    error: BaseException | None = None
    try:
        state.accept(wanted, await _fetch.afetch(wanted.url, policy=policy, client=client))
    except asyncio.CancelledError as exc:  # the loop is shutting down: others start afresh
        error = exc
        raise
    except Exception as exc:  # handed to every reader through the flight
        error = exc
    finally:
        state.task = None
        state.land(flight, error)


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
