"""The upload cache: the same bytes upload once per store and account, until they expire."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import pytest
from anthropic.lib.credentials import AccessToken

import mediaparts as mp
from mediaparts.uploading import EXPIRY_MARGIN, default_cache_dir
from tests._builders import TESTDATA
from tests.uploading._servers import (
    GEMINI_EXPIRY_SECONDS,
    AnthropicFiles,
    GeminiFiles,
    OpenAIFiles,
)

PDF = TESTDATA / "document.pdf"
SRC = Path(__file__).resolve().parents[2] / "src"
KEY = mp.UploadCacheKey("openai", "acct", "0" * 64, "user_data")
ENTRY = mp.UploadCacheEntry("file-1", "application/pdf", 10, 1.0, None)


def _pdf() -> mp.FilePart:
    return mp.FilePart.from_path(PDF)


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private default cache directory for one test."""
    monkeypatch.setenv("MEDIAPARTS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.mark.parametrize("make", [mp.MemoryUploadCache, lambda p: mp.SqliteUploadCache(p / "c")])
def test_cache_get_put_delete(make: Any, tmp_path: Path) -> None:
    """Each cache returns what was put, replaces it, and forgets it on delete."""
    cache = make(tmp_path) if make is not mp.MemoryUploadCache else make()
    assert isinstance(cache, mp.UploadCache)
    assert cache.get(KEY) is None
    cache.put(KEY, ENTRY)
    assert cache.get(KEY) == ENTRY
    newer = mp.UploadCacheEntry("file-2", "application/pdf", 10, 2.0, 99.0)
    cache.put(KEY, newer)
    assert cache.get(KEY) == newer
    assert cache.get(mp.UploadCacheKey("openai", "other", "0" * 64, "user_data")) is None
    cache.delete(KEY)
    cache.delete(KEY)
    assert cache.get(KEY) is None


def test_cache_second_upload_is_hit(cache_dir: Path) -> None:
    """The same bytes to the same account upload once; the default cache is on disk."""
    store = OpenAIFiles()
    client = store.client()
    first = mp.upload(_pdf(), "openai", client=client)
    second = mp.upload(_pdf(), "openai-responses", client=client)
    assert first.file_id == second.file_id == "file-1"
    assert len(store.requests) == 1
    assert (cache_dir / "uploads.sqlite3").exists()


def test_cache_other_account_uploads_again(tmp_path: Path) -> None:
    """Another API key is another account: its own upload, its own entry."""
    store, cache = OpenAIFiles(), mp.SqliteUploadCache(tmp_path / "c.db")
    mp.upload(_pdf(), "openai", client=store.client("sk-one"), cache=cache)
    mp.upload(_pdf(), "openai", client=store.client("sk-two"), cache=cache)
    assert len(store.requests) == 2


def test_cache_other_gemini_endpoint_uploads_again() -> None:
    """The same Gemini key at another base URL (a proxy, another environment) is another
    store: its own upload."""
    store, cache = GeminiFiles(), mp.MemoryUploadCache()
    for base_url in (None, "https://gemini-proxy.example/"):
        mp.upload(_pdf(), "gemini", client=store.client(base_url=base_url), cache=cache)
    assert len(store.bodies()) == 2 and len(cache) == 2


def _key_function_client(who: str) -> Any:
    return OpenAIFiles().client(lambda: f"sk-{who}")


def _anthropic_credentials_client(who: str) -> Any:
    def token(*, force_refresh: bool = False) -> AccessToken:
        return AccessToken(token=f"token-{who}")

    return anthropic.Anthropic(
        credentials=token,
        http_client=httpx2.Client(transport=httpx2.MockTransport(AnthropicFiles().handle)),
        max_retries=0,
    )


@pytest.mark.parametrize(
    ("provider", "make"),
    [("openai", _key_function_client), ("anthropic", _anthropic_credentials_client)],
)
def test_cache_unknown_account_is_not_cached(provider: str, make: Any) -> None:
    """A client whose settings hold no fixed key (a key function, a credentials provider:
    any account) is never given another's cached file; its uploads are not cached."""
    cache = mp.MemoryUploadCache()
    first = mp.upload(_pdf(), provider, client=make("one"), cache=cache)
    second = mp.upload(_pdf(), provider, client=make("two"), cache=cache)
    assert len(cache) == 0 and first.file_id and second.file_id


def test_cache_stores_no_secret(tmp_path: Path) -> None:
    """The cache file holds a fingerprint of the account, never the API key."""
    path = tmp_path / "c.db"
    mp.upload(
        _pdf(),
        "openai",
        client=OpenAIFiles().client("sk-SECRET-123"),
        cache=mp.SqliteUploadCache(path),
    )
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert b"sk-SECRET-123" not in stored


def test_cache_expired_entry_is_uploaded_again() -> None:
    """An entry with less than the margin left is replaced by a new upload."""
    store, cache = GeminiFiles(), mp.MemoryUploadCache()
    client = store.client()
    now = [GEMINI_EXPIRY_SECONDS - EXPIRY_MARGIN - 10]
    first = mp.upload(_pdf(), "gemini", client=client, cache=cache, clock=lambda: now[0])
    again = mp.upload(_pdf(), "gemini", client=client, cache=cache, clock=lambda: now[0])
    assert first.file_id == again.file_id and len(store.starts()) == 1
    now[0] += 20  # now inside the last hour of the file's 48
    renewed = mp.upload(_pdf(), "gemini", client=client, cache=cache, clock=lambda: now[0])
    assert renewed.file_id != first.file_id and len(store.starts()) == 2
    (entry,) = cache._entries.values()
    assert entry.file_id == renewed.file_id


def test_cache_ttl_used_when_store_says_nothing() -> None:
    """Without an expiry in the answer, the store's documented lifetime sets it."""
    store, cache = GeminiFiles(drop=("expirationTime",)), mp.MemoryUploadCache()
    mp.upload(_pdf(), "gemini", client=store.client(), cache=cache, clock=lambda: 1000.0)
    (entry,) = cache._entries.values()
    assert entry.expires_at is not None and entry.expires_at > 1000.0 + 47 * 3600


def test_cache_other_media_type_is_miss() -> None:
    """An entry of another media type for the same hash (not ours) is not used."""
    store, cache = OpenAIFiles(), mp.MemoryUploadCache()
    mp.upload(_pdf(), "openai", client=store.client(), cache=cache)
    ((key, _),) = cache._entries.items()
    cache.put(key, mp.UploadCacheEntry("file-x", "image/png", 1, 1.0))
    assert mp.upload(_pdf(), "openai", client=store.client(), cache=cache).file_id == "file-2"


def test_cache_corrupt_file_is_miss(tmp_path: Path) -> None:
    """A cache file that is not a database is a miss; the upload still succeeds."""
    path = tmp_path / "c.db"
    path.write_bytes(b"not a database at all" * 100)
    store, cache = OpenAIFiles(), mp.SqliteUploadCache(path)
    assert cache.get(KEY) is None
    cache.put(KEY, ENTRY)
    cache.delete(KEY)
    assert mp.upload(_pdf(), "openai", client=store.client(), cache=cache).file_id == "file-1"


@pytest.mark.parametrize(
    "row",
    [
        (None, "application/pdf", 1, 1.0, None),
        ("", "application/pdf", 1, 1.0, None),
        ("x" * 5000, "application/pdf", 1, 1.0, None),
        ("file-1", 7, 1, 1.0, None),
        ("file-1", "application/pdf", "big", 1.0, None),
        ("file-1", "application/pdf", -1, 1.0, None),
        ("file-1", "application/pdf", 1, "yesterday", None),
        ("file-1", "application/pdf", 1, float("nan"), None),
        ("file-1", "application/pdf", 1, 1.0, "never"),
        ("file-1", "application/pdf", 1, 1.0, float("inf")),
    ],
)
def test_cache_hostile_row_is_miss(row: tuple[Any, ...], tmp_path: Path) -> None:
    """A row of the wrong shape (written by someone else) is a miss, never a crash."""
    path = tmp_path / "c.db"
    cache = mp.SqliteUploadCache(path)
    cache.put(KEY, ENTRY)
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE uploads")
        db.execute(
            "CREATE TABLE uploads (store, account, sha256, purpose, file_id, media_type, size, "
            "created, expires_at, PRIMARY KEY (store, account, sha256, purpose))"
        )
        db.execute(
            "INSERT INTO uploads VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (*vars(KEY).values(), *row)
        )
    assert cache.get(KEY) is None


def test_cache_missing_file_is_miss_and_not_created(tmp_path: Path) -> None:
    """Reading (or deleting from) a cache that was never written creates no file."""
    cache = mp.SqliteUploadCache(tmp_path / "none" / "c.db")
    assert cache.get(KEY) is None
    cache.delete(KEY)
    assert not (tmp_path / "none").exists()


_CHILD = """
import json, sys
import httpx, openai
import mediaparts as mp

sent = []

def handle(request):
    sent.append(request.url.path)
    return httpx.Response(200, json={"id": "file-child", "object": "file", "bytes": 1,
        "created_at": 1, "filename": "d.pdf", "purpose": "user_data", "status": "processed"})

client = openai.OpenAI(api_key="sk-test", http_client=httpx.Client(transport=httpx.MockTransport(handle)))
made = mp.upload(mp.part(sys.argv[1]), "openai", client=client, cache=mp.SqliteUploadCache(sys.argv[2]))
print(json.dumps({"file_id": made.file_id, "requests": sent}))
"""


def _child(path: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(PDF), str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _result(child: subprocess.Popen[str]) -> Any:
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    return json.loads(out)


@pytest.mark.slow  # a second Python process
def test_cache_hit_by_second_process(tmp_path: Path) -> None:
    """Another process with the same account finds the upload in the cache: no request."""
    path = tmp_path / "c.db"
    store = OpenAIFiles()
    mine = mp.upload(_pdf(), "openai", client=store.client(), cache=mp.SqliteUploadCache(path))
    answer = _result(_child(path))
    assert answer == {"file_id": mine.file_id, "requests": []}


@pytest.mark.slow  # two more Python processes
def test_cache_processes_racing_both_succeed(tmp_path: Path) -> None:
    """Two processes uploading the same bytes at once both succeed; one valid entry stays."""
    path = tmp_path / "c.db"
    children = [_child(path), _child(path)]
    answers = [_result(child) for child in children]
    assert all(a["file_id"] == "file-child" for a in answers)
    assert mp.SqliteUploadCache(path).get(_only_key(path)) is not None


def _only_key(path: Path) -> mp.UploadCacheKey:
    with sqlite3.connect(path) as db:
        (row,) = db.execute("SELECT store, account, sha256, purpose FROM uploads").fetchall()
    return mp.UploadCacheKey(*row)


def test_cache_threads_racing_upload_once(tmp_path: Path) -> None:
    """Threads uploading the same bytes at once upload them once."""
    store = OpenAIFiles()
    client, cache = store.client(), mp.SqliteUploadCache(tmp_path / "c.db")
    results: list[str | None] = []

    def work() -> None:
        results.append(mp.upload(_pdf(), "openai", client=client, cache=cache).file_id)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == ["file-1"] * 6 and len(store.requests) == 1


def test_cache_async_hit() -> None:
    """`aupload` reads and writes the same cache."""
    store, cache = OpenAIFiles(), mp.MemoryUploadCache()
    client = store.async_client()
    first = asyncio.run(mp.aupload(_pdf(), "openai", client=client, cache=cache))
    second = asyncio.run(mp.aupload(_pdf(), "openai", client=client, cache=cache))
    assert first.file_id == second.file_id and len(store.requests) == 1


def test_cache_disabled_uploads_every_time() -> None:
    """`cache=None` uploads every time."""
    store = OpenAIFiles()
    for _ in range(2):
        mp.upload(_pdf(), "openai", client=store.client(), cache=None)
    assert len(store.requests) == 2


def test_default_cache_dir_from_env(cache_dir: Path) -> None:
    """`$MEDIAPARTS_CACHE_DIR` wins; the default cache file lives there."""
    assert default_cache_dir() == cache_dir
    assert mp.SqliteUploadCache().path == cache_dir / "uploads.sqlite3"


def test_cache_paths_expand_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`~` in `$MEDIAPARTS_CACHE_DIR` (from a .env file, unexpanded) or a cache path is the
    home directory, not a directory named `~`."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("MEDIAPARTS_CACHE_DIR", "~/cache")
    assert default_cache_dir() == tmp_path / "cache"
    assert mp.SqliteUploadCache("~/c.db").path == tmp_path / "c.db"


@pytest.mark.parametrize(
    ("platform", "env", "expected"),
    [
        ("linux", {"XDG_CACHE_HOME": "/xdg"}, Path("/xdg/mediaparts")),
        ("linux", {}, Path.home() / ".cache" / "mediaparts"),
        ("darwin", {}, Path.home() / "Library" / "Caches" / "mediaparts"),
        ("win32", {"LOCALAPPDATA": "C:/Local"}, Path("C:/Local/mediaparts/Cache")),
    ],
)
def test_default_cache_dir_per_platform(
    platform: str, env: dict[str, str], expected: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the variable, the platform's user cache directory is used."""
    for name in ("MEDIAPARTS_CACHE_DIR", "XDG_CACHE_HOME", "LOCALAPPDATA"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "platform", platform)
    assert default_cache_dir() == expected


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"path": 3}, "path must be"),
        ({"timeout": -1}, "timeout must be"),
        ({"timeout": True}, "timeout"),
    ],
)
def test_sqlite_cache_refuses_bad_settings(kwargs: dict[str, Any], match: str) -> None:
    """A wrong path or timeout is InvalidConfig, when the cache is made."""
    with pytest.raises(mp.InvalidConfig, match=match):
        mp.SqliteUploadCache(**kwargs)


def test_cache_tasks_racing_upload_once() -> None:
    """Tasks of one event loop uploading the same bytes at once upload them once."""
    store, cache = OpenAIFiles(), mp.MemoryUploadCache()
    client = store.async_client()

    async def race() -> list[mp.MediaPart]:
        return await asyncio.gather(
            *(mp.aupload(_pdf(), "openai", client=client, cache=cache) for _ in range(4))
        )

    assert {made.file_id for made in asyncio.run(race())} == {"file-1"}
    assert len(store.requests) == 1


posix_only = pytest.mark.skipif(not hasattr(os, "geteuid"), reason="owners are POSIX")


@posix_only
def test_cache_file_is_private(tmp_path: Path) -> None:
    """The cache's directory and file are made readable by their owner only."""
    path = tmp_path / "made" / "c.db"
    mp.SqliteUploadCache(path).put(KEY, ENTRY)
    assert path.parent.stat().st_mode & 0o777 == 0o700
    assert path.stat().st_mode & 0o777 == 0o600


@posix_only
def test_cache_readable_file_made_private(tmp_path: Path) -> None:
    """An existing cache file others could read is made private when it is used."""
    path = tmp_path / "c.db"
    mp.SqliteUploadCache(path).put(KEY, ENTRY)
    path.chmod(0o644)
    assert mp.SqliteUploadCache(path).get(KEY) == ENTRY
    assert path.stat().st_mode & 0o777 == 0o600


@posix_only
def test_cache_in_group_directory_is_used(tmp_path: Path) -> None:
    """A directory the owner shares with their group (umask 002) still holds a working cache."""
    path = tmp_path / "c.db"
    tmp_path.chmod(0o775)
    cache = mp.SqliteUploadCache(path)
    cache.put(KEY, ENTRY)
    assert cache.get(KEY) == ENTRY


@posix_only
@pytest.mark.parametrize("shared", ["other owner", "writable directory"])
def test_cache_not_users_own_is_not_used(
    shared: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache file another user owns, or in a directory others may write, is neither read
    nor written: its rows could send someone else's file."""
    path = tmp_path / "shared" / "c.db"
    cache = mp.SqliteUploadCache(path)
    cache.put(KEY, ENTRY)
    if shared == "other owner":
        monkeypatch.setattr(os, "geteuid", lambda: os.stat(path).st_uid + 4242)
    else:
        path.parent.chmod(0o777)
    assert cache.get(KEY) is None
    cache.put(KEY, mp.UploadCacheEntry("file-planted", "application/pdf", 1, 1.0))
    cache.delete(KEY)
    monkeypatch.undo()
    path.parent.chmod(0o700)
    assert cache.get(KEY) == ENTRY


def test_cache_put_forgets_deleted_files(tmp_path: Path) -> None:
    """Writing an entry drops the entries whose files the store has deleted (their expiry
    passed), so the file does not grow for ever; entries without expiry stay."""
    cache = mp.SqliteUploadCache(tmp_path / "c.db")
    gone = mp.UploadCacheKey("gemini", "acct", "1" * 64)
    cache.put(gone, mp.UploadCacheEntry("https://g/files/old", "video/mp4", 1, 0.0, 1.0))
    cache.put(KEY, ENTRY)
    assert cache.get(gone) is None and cache.get(KEY) == ENTRY


@pytest.mark.parametrize(("min_ttl", "uploads"), [(EXPIRY_MARGIN, 1), (24 * 3600.0, 2)])
def test_cache_min_ttl_decides_reuse(min_ttl: float, uploads: int) -> None:
    """A Gemini file with 20 hours left serves a request, but not a batch that asks for a
    day (`min_ttl`): that uploads again."""
    store, cache = GeminiFiles(drop=("expirationTime",)), mp.MemoryUploadCache()
    mp.upload(_pdf(), "gemini", client=store.client(), cache=cache, clock=lambda: 0.0)
    uploader = mp.Uploader(
        store.client(), cache=cache, min_bytes=0, min_ttl=min_ttl, clock=lambda: 28 * 3600.0
    )
    mp.render([mp.User(["Read", _pdf()])], "gemini", urls="upload", uploader=uploader)
    assert len(store.bodies()) == uploads


@pytest.mark.parametrize(
    ("provider", "min_ttl", "match"),
    [
        ("gemini", 48 * 3600, "keeps files 48 hours"),
        ("gemini", -1, "min_ttl must be"),
        ("openai", "long", "min_ttl must be"),
    ],
)
def test_upload_refuses_impossible_min_ttl(provider: str, min_ttl: Any, match: str) -> None:
    """A min_ttl no stored file could meet, or not seconds, is InvalidConfig before upload."""
    with pytest.raises(mp.InvalidConfig, match=match):
        mp.upload(_pdf(), provider, client=object(), cache=None, min_ttl=min_ttl)


@posix_only
def test_cache_not_created_in_directory_anyone_writes(tmp_path: Path) -> None:
    """No cache file is created in a directory every user may write to (a symlink planted
    there would be followed)."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    target = tmp_path / "victim"
    (shared / "c.db").symlink_to(target)
    mp.SqliteUploadCache(shared / "c.db").put(KEY, ENTRY)
    assert not target.exists()


@posix_only
@pytest.mark.parametrize("name", ["c.db", "c.db-wal", "c.db-shm", "c.db-journal"])
def test_cache_never_follows_a_link(tmp_path: Path, name: str) -> None:
    """A cache file (or a SQLite companion of it) that is already a symlink is not followed:
    its target is neither made private nor written, and the cache is a miss."""
    path = tmp_path / "c.db"
    if name != "c.db":
        mp.SqliteUploadCache(path).put(KEY, ENTRY)
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    victim.chmod(0o644)
    (tmp_path / name).symlink_to(victim)
    cache = mp.SqliteUploadCache(path)
    cache.put(KEY, mp.UploadCacheEntry("file-2", "application/pdf", 1, 1.0))
    assert cache.get(KEY) is None
    cache.delete(KEY)
    assert victim.read_bytes() == b"precious"
    assert victim.stat().st_mode & 0o777 == 0o644


@posix_only
def test_cache_not_a_regular_file_is_not_used(tmp_path: Path) -> None:
    """A FIFO where the cache file should be is a miss at once, never waited on."""
    path = tmp_path / "c.db"
    os.mkfifo(path)
    cache = mp.SqliteUploadCache(path)
    cache.put(KEY, ENTRY)
    assert cache.get(KEY) is None


@posix_only
@pytest.mark.parametrize("swap", ["link", "file"])
def test_cache_link_swapped_in_after_the_check_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, swap: str
) -> None:
    """A link (or another file) swapped in between the check and SQLite's own open is seen
    (SQLite reports the name it opened; the inode differs) and that connection is not used."""
    path = tmp_path / "c.db"
    other = tmp_path / "other.db"
    mp.SqliteUploadCache(other).put(KEY, ENTRY)
    mp.SqliteUploadCache(path).put(KEY, mp.UploadCacheEntry("file-mine", "application/pdf", 1, 1.0))
    connect = sqlite3.connect

    def swapping(name: Any, timeout: float, isolation_level: None) -> sqlite3.Connection:
        os.replace(path, tmp_path / "moved.db")
        if swap == "link":
            path.symlink_to(other)
        else:
            os.replace(other, path)
        return connect(name, timeout=timeout, isolation_level=isolation_level)

    monkeypatch.setattr(sqlite3, "connect", swapping)
    assert mp.SqliteUploadCache(path).get(KEY) is None
