"""The upload cache: which stored file holds which bytes, per store and account.

An entry is keyed by the store (`"openai"`, `"gemini"`, ...), a fingerprint of the account
(a hash, never a key), the SHA-256 of the bytes uploaded and the upload's purpose, and holds
the reference, its media type, size, when it was stored and when the store deletes it.
`UploadCache` is the protocol; `SqliteUploadCache` (the default, on disk, shared by every
process of the user) and `MemoryUploadCache` (one process) implement it.

A cache is an optimisation: a cache file that cannot be read (corrupt, locked for longer
than the timeout, rows of the wrong shape) is a miss, and a write that fails is skipped; the
upload itself never fails because of its cache. The SQLite cache is the user's alone: made
private, and not used when another user owns it or every user may write to its directory.
"""

from __future__ import annotations

import contextlib
import math
import os
import sqlite3
import stat
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from mediaparts._errors import InvalidConfig, excerpt

__all__ = [
    "MemoryUploadCache",
    "SqliteUploadCache",
    "UploadCache",
    "UploadCacheEntry",
    "UploadCacheKey",
    "default_cache_dir",
]

# Longest a reference or media type read back may be: a row longer than this is not ours.
_MAX_TEXT = 4096


@dataclass(frozen=True)
class UploadCacheKey:
    """What identifies one stored copy of some bytes.

    Attributes:
        store: The file store (`FileStoreRules.store`: `"openai"` for both OpenAI APIs).
        account: The account's fingerprint (`FileApi.account`), a hash.
        sha256: The SHA-256 (hex) of the bytes uploaded (after normalizing).
        purpose: The upload's purpose where the store has one (OpenAI), else `""`.
    """

    store: str
    account: str
    sha256: str
    purpose: str = ""


@dataclass(frozen=True)
class UploadCacheEntry:
    """One stored file.

    Attributes:
        file_id: The reference (`file-...`, a Gemini file URI, an `s3://` URI).
        media_type: The media type uploaded.
        size: Bytes uploaded.
        created: When it was stored (seconds since the epoch).
        expires_at: When the store deletes it (seconds since the epoch), or None.
    """

    file_id: str
    media_type: str
    size: int
    created: float
    expires_at: float | None = None


@runtime_checkable
class UploadCache(Protocol):
    """Where uploads are remembered: get, put and delete entries by key."""

    def get(self, key: UploadCacheKey, /) -> UploadCacheEntry | None:
        """Return the entry of `key`, or None (a miss)."""
        ...

    def put(self, key: UploadCacheKey, entry: UploadCacheEntry, /) -> None:
        """Remember `entry` under `key`, replacing any entry there."""
        ...

    def delete(self, key: UploadCacheKey, /) -> None:
        """Forget `key` (nothing happens when it is absent)."""
        ...


class MemoryUploadCache:
    """An `UploadCache` in this process's memory, safe across its threads."""

    def __init__(self) -> None:
        self._entries: dict[UploadCacheKey, UploadCacheEntry] = {}
        self._lock = threading.Lock()

    def get(self, key: UploadCacheKey, /) -> UploadCacheEntry | None:
        """Return the entry of `key`, or None."""
        with self._lock:
            return self._entries.get(key)

    def put(self, key: UploadCacheKey, entry: UploadCacheEntry, /) -> None:
        """Remember `entry` under `key`."""
        with self._lock:
            self._entries[key] = entry

    def delete(self, key: UploadCacheKey, /) -> None:
        """Forget `key`."""
        with self._lock:
            self._entries.pop(key, None)

    def __len__(self) -> int:
        return len(self._entries)


# The cache directory's name.
_APP = "mediaparts"  # not an import


def default_cache_dir() -> Path:
    """Return where the default cache lives: `$MEDIAPARTS_CACHE_DIR`, else the platform's
    user cache directory (`%LOCALAPPDATA%`, `~/Library/Caches`, `$XDG_CACHE_HOME` or
    `~/.cache`) under `mediaparts`."""
    chosen = os.environ.get("MEDIAPARTS_CACHE_DIR")
    if chosen:
        # `~` too: a value from a .env file or a service's settings is not shell-expanded.
        return Path(chosen).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
        return base / _APP / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / _APP
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / _APP


_SCHEMA = """
CREATE TABLE IF NOT EXISTS uploads (
    store TEXT NOT NULL,
    account TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    purpose TEXT NOT NULL,
    file_id TEXT NOT NULL,
    media_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    created REAL NOT NULL,
    expires_at REAL,
    PRIMARY KEY (store, account, sha256, purpose)
)
"""


class SqliteUploadCache:
    """An `UploadCache` in one SQLite file, shared safely by threads and processes.

    Each operation opens its own connection (so a cache is shared by threads, and survives a
    fork), in WAL mode with a busy timeout, and writes in one transaction: two processes that
    upload the same bytes at once both write a valid entry, and the last one stays.

    Args:
        path: The database file; None for `uploads.sqlite3` in `default_cache_dir()`. Its
            directory is made when first written.
        timeout: Seconds to wait for another process's write lock before giving up (a miss,
            or a skipped write).
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout: float = 5.0) -> None:
        if path is not None and not isinstance(path, str | os.PathLike):
            raise InvalidConfig(f"path must be a path or None, got {excerpt(path)}")
        if not isinstance(timeout, int | float) or isinstance(timeout, bool) or timeout < 0:
            raise InvalidConfig(f"timeout must be seconds (0 or more), got {excerpt(timeout)}")
        self.path = (
            Path(path).expanduser() if path is not None else default_cache_dir() / "uploads.sqlite3"
        )
        self.timeout = float(timeout)

    def __repr__(self) -> str:
        return f"SqliteUploadCache({str(self.path)!r})"

    @contextlib.contextmanager
    def _connect(self, *, create: bool) -> Iterator[sqlite3.Connection | None]:
        # Only the user reads or writes the cache: which files they uploaded (the bytes'
        # hashes) is theirs to know, and its references are what their requests send.
        if create:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        elif not self.path.parent.is_dir():
            yield None
            return
        if not _own_folder(self.path.parent):
            yield None  # not even opened there: a planted symlink would be followed
            return
        handle = _open_file(self.path, create=create)
        if handle is None:
            yield None
            return
        try:
            found = os.fstat(handle)
            if not _private(handle, found) or not _companions_private(self.path):
                yield None
                return
            connection = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
            try:
                if not _same_file(connection, self.path, found):
                    yield None
                    return
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute(_SCHEMA)
                yield connection
            finally:
                connection.close()
        finally:
            os.close(handle)

    def get(self, key: UploadCacheKey, /) -> UploadCacheEntry | None:
        """Return the entry of `key`, or None (also when the file cannot be read)."""
        try:
            with self._connect(create=False) as db:
                if db is None:
                    return None
                row = db.execute(
                    "SELECT file_id, media_type, size, created, expires_at FROM uploads "
                    "WHERE store = ? AND account = ? AND sha256 = ? AND purpose = ?",
                    (key.store, key.account, key.sha256, key.purpose),
                ).fetchone()
        except (sqlite3.Error, OSError):
            return None
        return _entry(row)

    def put(self, key: UploadCacheKey, entry: UploadCacheEntry, /) -> None:
        """Remember `entry` under `key`, and forget entries whose files the store has
        deleted, so the file does not grow for ever (a write that fails is skipped)."""
        try:
            with self._connect(create=True) as db:
                if db is None:
                    return
                db.execute("BEGIN IMMEDIATE")
                db.execute(
                    "DELETE FROM uploads WHERE expires_at IS NOT NULL AND expires_at < ?",
                    (time.time(),),
                )
                db.execute(
                    "INSERT OR REPLACE INTO uploads VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        key.store,
                        key.account,
                        key.sha256,
                        key.purpose,
                        entry.file_id,
                        entry.media_type,
                        entry.size,
                        entry.created,
                        entry.expires_at,
                    ),
                )
                db.execute("COMMIT")
        except (sqlite3.Error, OSError):
            return

    def delete(self, key: UploadCacheKey, /) -> None:
        """Forget `key` (a write that fails is skipped)."""
        try:
            with self._connect(create=False) as db:
                if db is not None:
                    db.execute(
                        "DELETE FROM uploads WHERE store = ? AND account = ? AND sha256 = ? "
                        "AND purpose = ?",
                        (key.store, key.account, key.sha256, key.purpose),
                    )
        except (sqlite3.Error, OSError):
            return


def _own_folder(folder: Path) -> bool:
    """Tell whether a directory is the user's (or root's) and not every user may write to it."""
    if not hasattr(os, "geteuid"):  # pragma: no cover - Windows
        return True
    found = folder.stat()
    return found.st_uid in (os.geteuid(), 0) and not found.st_mode & 0o002


# Opened without following a link, every time, not only when made: a cache path that is a
# symlink (planted by whoever shares the directory) would have its target made 0600 and
# overwritten. Without blocking: a FIFO planted there is refused, not waited on.
_OPEN_FLAGS = (
    os.O_RDWR
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
# SQLite's companions of a database file, which it opens by name next to the file.
_COMPANIONS = ("-wal", "-shm", "-journal")


def _open_file(path: Path, *, create: bool) -> int | None:
    """Open the cache file, never through a link; None when it is missing (and not to be
    made), is a link (`ELOOP`) or cannot be opened, which leaves the cache unused (a miss)."""
    try:
        return os.open(path, _OPEN_FLAGS | (os.O_CREAT if create else 0), 0o600)
    except OSError:  # ENOENT; ELOOP: a symlink; EISDIR, EACCES, ...: not a cache to use
        return None


def _private(handle: int, found: os.stat_result) -> bool:
    """Tell whether the opened cache file is a regular file of the user's own; a file another
    user could have written is not read. Its directory was checked before it was opened
    (`_own_folder`): one that every user may write to could hold a planted `-wal` file SQLite
    would replay. A group-writable directory is the owner's choice of whom to trust (and with
    a private group, no one else).

    The file is made private (`0o600`) when others could read it, through the descriptor
    opened without following links, never by its path. Windows has no owners to compare
    here: its cache lives in the user's own profile.
    """
    if not stat.S_ISREG(found.st_mode):
        return False
    if not hasattr(os, "geteuid"):  # pragma: no cover - Windows
        return True
    if found.st_uid != os.geteuid():
        return False
    if found.st_mode & 0o077:
        os.fchmod(handle, 0o600)
    return True


def _companions_private(path: Path) -> bool:
    """Tell whether SQLite's `-wal`, `-shm` and `-journal` files, where they exist, are
    regular files of the user's own: SQLite opens them by name, following links, so a link
    planted under one of those names would have it write elsewhere."""
    for suffix in _COMPANIONS:
        try:
            found = os.lstat(f"{path}{suffix}")
        except FileNotFoundError:
            continue
        if not stat.S_ISREG(found.st_mode):
            return False
        if hasattr(os, "geteuid") and found.st_uid != os.geteuid():
            return False
    return True


def _same_file(connection: sqlite3.Connection, path: Path, found: os.stat_result) -> bool:
    """Tell whether SQLite opened the very file checked. It resolves links itself and reports
    the name it opened (`PRAGMA database_list`), so a link swapped in after the check shows
    as another name, and another file moved in as another inode."""
    row = connection.execute("PRAGMA database_list").fetchone()
    opened = row[2] if isinstance(row, tuple) and len(row) == 3 else None
    if opened != os.path.join(os.path.realpath(path.parent), path.name):
        return False
    now = os.lstat(path)
    return (now.st_dev, now.st_ino) == (found.st_dev, found.st_ino)


def _entry(row: Any) -> UploadCacheEntry | None:
    """Return a row as an entry, or None when it is not one we wrote (a miss)."""
    if not isinstance(row, tuple) or len(row) != 5:
        return None
    file_id, media_type, size, created, expires_at = row
    if not (isinstance(file_id, str) and 0 < len(file_id) <= _MAX_TEXT):
        return None
    if not (isinstance(media_type, str) and 0 < len(media_type) <= _MAX_TEXT):
        return None
    if not isinstance(size, int) or size < 0:
        return None
    if not isinstance(created, int | float) or not math.isfinite(created):
        return None
    if expires_at is not None and not (
        isinstance(expires_at, int | float) and math.isfinite(expires_at)
    ):
        return None
    return UploadCacheEntry(
        file_id=file_id,
        media_type=media_type,
        size=size,
        created=float(created),
        expires_at=None if expires_at is None else float(expires_at),
    )
