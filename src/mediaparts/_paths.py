"""Read local paths: one opener, one path policy.

In the lowest layer (beside `_errors`, `_surrogates` and `_inline`), so detection and the parts
share it. Every read of a local path in the library goes through `open_path` (detection's
prefix read and `read_path` both do), so the rules for paths live here, once:

- Only regular files are read. The path is opened without blocking (`O_NONBLOCK`, so a FIFO
  with no writer cannot hang the open) and the open descriptor is checked with `fstat`:
  FIFOs, devices (`/dev/zero`), sockets and directories are refused with `InvalidMedia`.
- A read is always bounded: by `max_bytes` when given, and in any case by the size the file
  reported when it was opened plus one chunk (to notice a file that grows while read), or
  `UNSIZED_CAP` for files that report a size of 0 (`/proc` entries).
- A *path policy*, held in a context variable, says whether paths may be read at all. The
  application's own calls (`mp.part(path)`, `from_path`, shorthands in code) run without one
  and read any path. Readers of untrusted input (`mp.message_from_dict`,
  `MediaPart.from_dict`, and any reader of provider payloads) run inside `untrusted_paths()`:
  every path read under it raises `BlockedPath`, unless the caller named a `base_dir`, in
  which case a path is resolved against that directory and read only when its real path
  (symlinks followed, `..` collapsed) lies inside it. Because the check sits in `open_path`
  and not at each call site, a new reader only has to run inside `untrusted_paths()`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from collections.abc import Callable, Iterator
from contextvars import ContextVar, Token
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TypeGuard

from mediaparts._errors import BlockedPath, InvalidMedia, MediaTooLarge, cut_middle, excerpt
from mediaparts._inline import b64decode

__all__ = [
    "UNSIZED_CAP",
    "UntrustedPaths",
    "filename_of",
    "is_str_path",
    "looks_like_base64",
    "open_path",
    "path_reader",
    "read_path",
    "read_some",
    "register_media_test",
    "untrusted",
    "untrusted_paths",
]


def is_str_path(value: Any) -> TypeGuard[str | os.PathLike[str]]:
    """Tell whether a value is a path we read: a `str` or an `os.PathLike` of `str`, not bytes."""
    return isinstance(value, str | os.PathLike) and not isinstance(os.fspath(value), bytes)


def filename_of(path: str | os.PathLike[str]) -> str:
    """Return the final component of a path, as a file name to keep on a part."""
    return Path(path).name


# How far a file may grow past the size it reported when opened before the read stops: one
# chunk tells "grew" from "as reported" without following a file that never ends.
_GROWTH = 64 * 1024
UNSIZED_CAP = 1 << 20
"""The most bytes read from a file that reports a size of 0 (`/proc/self/environ` does)."""

# O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer, forever if none comes.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NOT_REGULAR = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


@dataclass(frozen=True, slots=True)
class _PathPolicy:
    reader: str  # the entry point reading untrusted input, as errors name it
    base_dir: str | None  # the real path of the one directory paths may lie in; None: none


_POLICY: ContextVar[_PathPolicy | None] = ContextVar("mediaparts_path_policy", default=None)


class UntrustedPaths:
    """`untrusted_paths(reader)` (no `base_dir`) as a reusable context manager, for entry points
    entered once per event of a stream: about a tenth of the cost of the generator. One
    instance is entered by one thread at a time, and not within itself."""

    __slots__ = ("_policy", "_token")

    def __init__(self, reader: str) -> None:
        self._policy = _PathPolicy(reader, None)
        self._token: Token[_PathPolicy | None] | None = None

    def __enter__(self) -> None:
        # Nested blocks keep the outermost policy, as `untrusted_paths` does.
        self._token = _POLICY.set(self._policy) if _POLICY.get() is None else None

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _POLICY.reset(self._token)
            self._token = None


@contextlib.contextmanager
def untrusted_paths(reader: str, base_dir: str | os.PathLike[str] | None = None) -> Iterator[None]:
    """Read every path under the untrusted-input policy while the block runs.

    Inside the block, `open_path` (and so `read_path`, `detect` and every part constructor)
    raises `BlockedPath` for any path, unless `base_dir` is given: then a relative path is
    resolved against it, and a path is read only when its real path lies inside it. Nested
    blocks keep the outermost policy: the application's choice holds for all it reads.

    Args:
        reader: The entry point reading untrusted input, e.g. `"mp.message_from_dict()"`.
        base_dir: The directory paths may name, or `None` for no path at all.

    Raises:
        InvalidMedia: `base_dir` is not a directory.
    """
    if _POLICY.get() is not None:
        if base_dir is not None:
            _real_dir(base_dir)  # still a mistake to report, though the outer policy holds
        yield
        return
    policy = _PathPolicy(reader, None if base_dir is None else _real_dir(base_dir))
    token = _POLICY.set(policy)
    try:
        yield
    finally:
        _POLICY.reset(token)


@contextlib.contextmanager
def untrusted(base_dir: str | os.PathLike[str] | None = None) -> Iterator[None]:
    """Treat every path read inside the block as coming from untrusted input.

    For application code that hands a stranger's value to `mp.part` (a form field, a JSON
    body): inside the block a path raises `BlockedPath` instead of being read, unless it lies
    inside `base_dir`, exactly as in `mp.message_from_dict`. URLs, data URIs and bytes are
    made into parts as usual, and URLs are fetched under the fetch policy.

    ```python
    with mp.untrusted():
        photo = mp.part(request_json["image"])    # a URL or data URI; never a server file
    ```

    Args:
        base_dir: The directory paths may name, or `None` for no path at all.

    Raises:
        InvalidMedia: `base_dir` is not a directory.
    """
    with untrusted_paths("code inside mp.untrusted()", base_dir):
        yield


def _real_dir(base_dir: Any) -> str:
    if not is_str_path(base_dir):
        raise InvalidMedia(
            f"base_dir must be a str or os.PathLike of str, got {type(base_dir).__name__}"
        )
    try:
        real = os.path.realpath(base_dir)
    except (OSError, ValueError) as exc:  # an embedded NUL, a symlink loop
        raise InvalidMedia(
            f"base_dir {excerpt(os.fspath(base_dir), ends=True)} is not a usable path: {exc}"
        ) from exc
    if not os.path.isdir(real):
        raise InvalidMedia(f"base_dir {excerpt(os.fspath(base_dir), ends=True)} is not a directory")
    return real


def path_reader() -> str | None:
    """Name the reader of untrusted input whose path policy is in force, or `None` for none."""
    policy = _POLICY.get()
    return None if policy is None else policy.reader


def _permitted(shown: str, policy: _PathPolicy) -> str:
    """Return the real path to open for `shown` under `policy`, or raise BlockedPath."""
    if policy.base_dir is None:
        hint = (
            '. This looks like base64 text, which is never guessed from a string: pass {"data": '
            "text}"
            if looks_like_base64(shown)
            else ""
        )
        raise BlockedPath(
            f"refusing to read the local file {excerpt(shown, ends=True)}: "
            f"{policy.reader} reads untrusted input, which may not name files on this machine. "
            "Pass base_dir= to allow files under one directory, or make the part in your own "
            f"code (mp.part(path)){hint}",
            path=shown,
        )
    # realpath follows every symlink and collapses '..' (after the symlinks, as the kernel
    # does), so the containment test is on the file that would actually be opened.
    real = os.path.realpath(os.path.join(policy.base_dir, shown))
    try:
        inside = os.path.commonpath([real, policy.base_dir]) == policy.base_dir
    except ValueError:  # Windows: another drive
        inside = False
    if not inside:
        # The message names neither base_dir nor the resolved path: it may reach the client.
        raise BlockedPath(
            f"refusing to read {excerpt(shown, ends=True)}: it is outside the base_dir given to "
            f"{policy.reader} "
            "(through an absolute path, '..' or a symbolic link)",
            path=shown,
        )
    return real


@contextlib.contextmanager
def open_path(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """Open a regular file for reading bytes, under the current path policy.

    The file is opened without blocking and checked on its open descriptor, so a FIFO, a
    device, a socket or a directory is refused rather than read (or waited on).

    Raises:
        BlockedPath: The current path policy does not allow this path (see `untrusted_paths`).
        InvalidMedia: There is no file at the path, it is not a regular file, or it cannot be
            read.
    """
    if not is_str_path(path):
        raise InvalidMedia(f"a path must be a str or os.PathLike of str, got {type(path).__name__}")
    shown = os.fspath(path)
    _check_nul(shown)
    target, flags = shown, _OPEN_FLAGS
    policy = _POLICY.get()
    if policy is not None:
        # O_NOFOLLOW: the real path has no symlink left; one swapped in since is refused.
        target, flags = _permitted(shown, policy), flags | _NOFOLLOW
    try:
        # stat before opening, so a device is never opened at all (opening one can act:
        # a tape rewinds); fstat after, in case the path was swapped in between.
        _check_regular(os.stat(target).st_mode, shown)
        fd = os.open(target, flags)
    except OSError as exc:
        raise _unreadable(exc, shown) from exc
    try:
        _check_regular(os.fstat(fd).st_mode, shown)
        if flags & getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(fd, True)
        f = open(fd, "rb", closefd=True)  # noqa: SIM115 - closed below
    except BaseException:
        os.close(fd)
        raise
    with f:
        try:
            yield f
        except OSError as exc:  # a read that fails (EIO from /proc/self/mem, a failing disk)
            raise _unreadable(exc, shown) from exc


def _check_nul(shown: str) -> None:
    if "\x00" in shown:  # os functions raise ValueError for it; say so as InvalidMedia
        raise InvalidMedia(
            f"{excerpt(shown, ends=True)} is not a usable path: it contains a NUL character",
            path=shown,
        )


def _check_regular(mode: int, shown: str) -> None:
    if stat.S_ISREG(mode):
        return
    what = next((name for test, name in _NOT_REGULAR if test(mode)), "not a regular file")
    raise InvalidMedia(
        f"{excerpt(shown, ends=True)} is {what}, not a regular file; only regular files are read",
        path=shown,
    )


# Base64 text passed where a path goes (`mp.part("iVBORw0KGgo...")`): long and in the base64
# alphabet, which paths without an extension often are too ('/srv/Uploads/.../frame0001').
# So the content decides: the text's start must decode to bytes detection knows by their
# signature. Detection sits above this layer and registers its test when it loads.
_BASE64_TEXT = re.compile(r"[A-Za-z0-9+/_-]{64,}={0,2}")
_BASE64_PREFIX = 4096  # characters decoded: 3 KiB, enough for every signature detection reads
_MEDIA_TEST: list[Callable[[bytes], bool]] = []
_STANDARD, _URL_SAFE = frozenset("+/"), frozenset("-_")  # RFC 4648 sections 4 and 5


def register_media_test(test: Callable[[bytes], bool]) -> None:
    """Set how `looks_like_base64` tells media from other bytes (detection sets it)."""
    _MEDIA_TEST[:] = [test]


def looks_like_base64(text: str) -> bool:
    """Tell whether text that names no file is base64 of media rather than a path.

    True when the text (line breaks and spaces aside) is in one base64 alphabet (standard or
    URL-safe, not both) and its start (a whole number of 4-character quanta) decodes to media
    detection identifies by their signature: a path decodes to noise.
    """
    text = "".join(text.split())  # `base64` and encodebytes() wrap lines at 76 characters
    if not _MEDIA_TEST or _BASE64_TEXT.fullmatch(text) is None:
        return False
    if _STANDARD.intersection(text) and _URL_SAFE.intersection(text):
        return False  # encoders write one alphabet; '/srv/raw_images' mixes both
    head = text.rstrip("=")[:_BASE64_PREFIX]
    try:
        raw = b64decode(head[: len(head) // 4 * 4])
    except InvalidMedia:
        return False
    return _MEDIA_TEST[0](raw)


def _unreadable(exc: OSError, shown: str) -> InvalidMedia:
    if isinstance(exc, FileNotFoundError) or exc.errno == errno.ENAMETOOLONG:
        if looks_like_base64(shown):
            hint = (
                ": this looks like base64 text, which is never guessed from a string; pass "
                'mp.part({"data": text}), or the class\'s from_base64(text)'
            )
        elif exc.errno == errno.ENAMETOOLONG:
            hint = " (the name is too long for a path on this system)"
        elif " " in shown or not (Path(shown).suffix or "/" in shown or os.sep in shown):
            hint = " (text for the model goes in a message or mp.TextPart, not a path)"
        else:
            hint = ""
        return InvalidMedia(f"no file at {excerpt(shown, ends=True)}{hint}", path=shown)
    if isinstance(exc, IsADirectoryError):
        return InvalidMedia(
            f"{excerpt(shown, ends=True)} is a directory, not a regular file", path=shown
        )
    return InvalidMedia(
        f"cannot read {excerpt(shown, ends=True)}: {exc.strerror or exc}", path=shown
    )


def read_path(path: str | os.PathLike[str], *, max_bytes: int | None = None) -> bytes:
    """Read a whole regular file, never more than it reported holding when opened.

    The read stops at `max_bytes` (refused before reading when the file reports more), at the
    file's size plus one chunk (a file growing while read is refused), and at `UNSIZED_CAP`
    for a file that reports a size of 0.

    Raises:
        BlockedPath: The current path policy does not allow this path.
        InvalidMedia: There is no readable regular file at the path, or it grew while read.
        MediaTooLarge: The file is larger than `max_bytes` (or than `UNSIZED_CAP`).
    """
    shown = os.fspath(path) if isinstance(path, str | os.PathLike) else str(path)
    with open_path(path) as f:
        size = os.fstat(f.fileno()).st_size
        if max_bytes is not None and size > max_bytes:
            raise MediaTooLarge(
                f"{excerpt(shown, ends=True)} is {size:,} bytes, over the limit of {max_bytes:,}",
                size=size,
                limit=max_bytes,
                path=shown,
            )
        bound = size + _GROWTH if size else UNSIZED_CAP
        limit = bound if max_bytes is None else min(bound, max_bytes)
        data = read_some(f, limit, shown)
        if len(data) <= limit:
            return data
        if max_bytes is not None and max_bytes <= bound:
            raise MediaTooLarge(
                f"{excerpt(shown, ends=True)} holds more than the limit of {max_bytes:,} bytes",
                size=len(data),
                limit=max_bytes,
                path=shown,
            )
        if size:
            raise InvalidMedia(
                f"{excerpt(shown, ends=True)}"
                f" grew while it was read (it reported {size:,} bytes when "
                "opened); "
                "read it once it is complete",
                path=shown,
            )
        raise MediaTooLarge(
            f"{excerpt(shown, ends=True)} reports a size of 0 (a /proc file?) but holds more than "
            f"{UNSIZED_CAP:,} bytes, the most read from such a file",
            size=len(data),
            limit=UNSIZED_CAP,
            path=shown,
        )


def read_some(f: Any, max_bytes: int | None, name: str) -> bytes:
    """Read the rest of `f`, or at most `max_bytes` + 1 bytes (the one more notices excess)."""
    try:
        data = f.read() if max_bytes is None else f.read(max_bytes + 1)
    except (OSError, ValueError) as exc:  # a closed file, a broken pipe, a failing disk
        raise InvalidMedia(f"cannot read {cut_middle(name)}: {exc}") from exc
    if isinstance(data, str):
        raise InvalidMedia(
            f"{cut_middle(name)} was opened in text mode; open it with 'rb' for bytes"
        )
    if not isinstance(data, bytes | bytearray | memoryview):
        raise InvalidMedia(f"{cut_middle(name)}.read() returned {type(data).__name__}, not bytes")
    return bytes(data)
