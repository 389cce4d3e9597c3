"""The edge of the public entry points: only `MediaError` leaves them (see `Boundary`).

A foreign exception that slipped past the checks of the code below (a `MemoryError` in a
decoder, a library's own error nobody foresaw) becomes one of ours with the cause kept; what
the caller's own code raised passes unchanged. The policy is in `_errors`' docstring.
"""

from __future__ import annotations

import contextlib
import os
import sysconfig
from typing import NoReturn

from mediaparts._errors import InternalError, InvalidMedia, MediaError, MediaTooLarge, excerpt

__all__ = ["Boundary", "theirs", "translated"]


class Boundary:
    """The edge of a public entry point: only `MediaError` leaves it.

    One instance per entry point, made once at import; the entry point's body runs in a
    `try` whose one handler raises what `mapped` returns::

        try:
            ...
        except Exception as exc:  # only MediaError leaves (see Boundary)
            _NORMALIZING.reraise(exc)

    A `try` costs nothing when nothing is raised (a `with` block would cost two method calls
    on every call). `reraise` raises the exception itself, or ours:

    - a `MediaError`: unchanged (and anything not an `Exception`, `KeyboardInterrupt`,
      `SystemExit`, `GeneratorExit`, `asyncio.CancelledError`, is never caught);
    - a warning raised as an error (the caller's `warnings.simplefilter("error", ...)` turned
      an `UnknownModelWarning` or `ConversionWarning` into one): unchanged, it is theirs too;
    - what the caller's own code raised (its innermost frame is neither in mediaparts nor in
      the standard library or an installed package: a progress callback, a generator of
      requests, a file object of the application's): unchanged, it is theirs;
    - `MemoryError`: `MediaTooLarge` ("ran out of memory while ...");
    - `RecursionError`: `InvalidMedia` (input nested too deeply for Python's stack);
    - `UnicodeError`: `InvalidMedia` (text no encoder takes: a lone surrogate);
    - anything else: `InternalError`, saying to report it.

    Each keeps the original as its `__cause__`.
    """

    __slots__ = ("doing",)

    def __init__(self, doing: str) -> None:
        self.doing = doing

    def reraise(self, error: Exception) -> NoReturn:
        """Raise `error` again when it may leave as it is, else ours, caused by it."""
        if isinstance(error, MediaError | Warning) or getattr(error, _THEIRS, False):
            raise error
        if _raised_by_caller(error):
            raise error
        raise translated(error, self.doing) from error


# Set on an exception raised by the caller's own client (an SDK's error for a failed upload),
# which is documented to pass unchanged.
_THEIRS = "_mediaparts_theirs"


def theirs(error: BaseException) -> None:
    """Mark an exception raised by a client the caller gave (its SDK's errors), so a
    `Boundary` lets it pass unchanged: `except Exception as exc: theirs(exc); raise`."""
    # An exception class with __slots__ takes no mark: it is wrapped like any other.
    with contextlib.suppress(AttributeError, TypeError):
        setattr(error, _THEIRS, True)


def translated(error: Exception, doing: str) -> MediaError:
    """Return the `MediaError` a foreign exception becomes at a public entry point (see
    `Boundary`), its message saying what was being done."""
    said = excerpt(str(error), 200)
    if isinstance(error, MemoryError):
        return MediaTooLarge(
            f"ran out of memory while {doing}; give smaller input, or lower the caps of "
            "mp.TransformPolicy (max_pixels, max_seconds, max_expanded_bytes)"
        )
    if isinstance(error, RecursionError):
        return InvalidMedia(f"input nested too deeply for Python's stack while {doing}")
    if isinstance(error, UnicodeError):
        return InvalidMedia(
            f"text that cannot be encoded or decoded while {doing} ({said}): a lone "
            "surrogate, most likely; decode the text it came from correctly"
        )
    if isinstance(error, OSError):  # the system's words, and the file it names
        where = f"{excerpt(str(error.filename), ends=True)}: " if error.filename else ""
        return InternalError(
            f"the system failed while {doing}: {where}{error.strerror or said}", doing=doing
        )
    return InternalError(
        f"internal error while {doing}: {type(error).__name__}: {said}; this is a bug in "
        "mediaparts or a library it calls, please report it with the traceback",
        doing=doing,
    )


_OURS: tuple[str, ...] = ()


def _raised_by_caller(error: BaseException) -> bool:
    """Tell whether the innermost frame of `error` is the application's own code: neither in
    mediaparts, nor in the standard library or an installed package. Read only on the way
    out of a failed call."""
    global _OURS
    if not _OURS:
        paths = sysconfig.get_paths()
        roots = {os.path.dirname(os.path.abspath(__file__))}
        roots.update(
            os.path.abspath(paths[key])
            for key in ("stdlib", "platstdlib", "purelib", "platlib")
            if key in paths
        )
        _OURS = tuple(root + os.sep for root in roots)
    trace = error.__traceback__
    if trace is None:
        return False
    while trace.tb_next is not None:
        trace = trace.tb_next
    name = trace.tb_frame.f_code.co_filename
    if name.startswith("<"):  # <frozen ...>, <string>: the interpreter's own
        return False
    return not os.path.abspath(name).startswith(_OURS)
