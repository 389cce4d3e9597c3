"""One runner of bytes through every public entry point, shared by the hostile-input tests.

`run_public_api` is what test_hostile_bytes.py, test_bombs.py and test_fuzz.py assert about
any input: results or a MediaError from `detect`, `part`, `width`, `normalize` and
`estimate_tokens` for every provider, a text from `show` (never an error) and a short repr,
each call interrupted (SIGALRM) past `CALL_LIMIT`.
"""

from __future__ import annotations

import contextlib
import signal
import time
from collections.abc import Iterator

import mediaparts as mp
from tests._builders import TESTDATA, read

__all__ = ["PROVIDERS", "TESTDATA", "deadline", "read", "run_public_api", "slowest", "within"]

PROVIDERS = mp.providers.names()
# Generous: a real hang, not a slow machine, is what this catches. No test asserts speed.
CALL_LIMIT = 10.0
# (seconds, call) of every call run_public_api made; test_fuzz.py prints the slowest.
slowest: list[tuple[float, str]] = []


@contextlib.contextmanager
def within(seconds: float = CALL_LIMIT) -> Iterator[None]:
    """Fail, rather than hang, when the block runs longer than `seconds`."""
    start = time.perf_counter()
    yield
    took = time.perf_counter() - start
    assert took < seconds, f"took {took:.1f} s"


class Hang(BaseException):
    """A call ran longer than CALL_LIMIT (a BaseException, so no `except Exception` hides it)."""


@contextlib.contextmanager
def deadline(what: str) -> Iterator[None]:
    """Interrupt a call running past CALL_LIMIT (SIGALRM), and record how long it took."""
    start = time.perf_counter()
    if not hasattr(signal, "setitimer"):  # Windows: no alarm; a hang shows as a stuck run
        yield
        slowest.append((time.perf_counter() - start, what))
        return

    def expire(signum: int, frame: object) -> None:
        raise Hang(f"{what} ran longer than {CALL_LIMIT} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, CALL_LIMIT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        slowest.append((time.perf_counter() - start, what))


def run_public_api(
    data: bytes, label: str = "input", providers: tuple[str, ...] = PROVIDERS
) -> None:
    """Run `data` through detect, part, width, show, repr, normalize and estimate_tokens;
    allow MediaError (but not from show, nor a long repr)."""
    with deadline(f"{label}: detect"), contextlib.suppress(mp.MediaError):
        mp.detect(data)
    try:
        with deadline(f"{label}: part"):
            made = mp.part(data)
    except mp.MediaError:
        return
    if isinstance(made, mp.ImagePart):
        with deadline(f"{label}: width"), contextlib.suppress(mp.MediaError):
            made.width  # noqa: B018  # reading the property is the test
    with deadline(f"{label}: show"):
        mp.show(made)  # never raises: whatever a part holds, it has a descriptor
    assert len(repr(made)) < 1000
    for provider in providers:
        with deadline(f"{label}: normalize {provider}"), contextlib.suppress(mp.MediaError):
            mp.normalize(made, provider)
        with deadline(f"{label}: estimate {provider}"), contextlib.suppress(mp.MediaError):
            mp.estimate_tokens(made, provider)
