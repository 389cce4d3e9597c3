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
        if not self.path.exists():
            if not create:
                yield None
                return
            # Only the user reads or writes the cache: which files they uploaded (the bytes'
            # hashes) is theirs to know, and its references are what their requests send.
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not _own_folder(self.path.parent):
                yield None  # not even created there: a planted symlink would be followed
                return
            flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
            os.close(os.open(self.path, flags, 0o600))
        if not _private(self.path):
            yield None
            return
        connection = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute(_SCHEMA)
            yield connection
        finally:
            connection.close()

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


def _private(path: Path) -> bool:
    """Tell whether a cache file is the user's own, in a directory of theirs (or root's) that
    not every user may write to (where anyone could plant a `-wal` file SQLite would
    replay); a file another user could have written is not read. A group-writable directory
    is the owner's choice of whom to trust (and with a private group, no one else).

    The file is made private (`0o600`) when others could read it. Windows has no owners to
    compare here: its cache lives in the user's own profile.
    """
    if not hasattr(os, "geteuid"):  # pragma: no cover - Windows
        return True
    if not _own_folder(path.parent) or path.stat().st_uid != os.geteuid():
        return False
    file = path.stat()
    if file.st_mode & 0o077:
        path.chmod(0o600)
    return True


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
