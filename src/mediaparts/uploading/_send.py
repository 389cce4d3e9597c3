"""`upload` and `aupload`: one part into a provider's file store, once per bytes and account.

Both twins share every decision (`_start`, `_plan`, `_fresh`, `_entry`, `_reference`) and
differ only in the calls that wait: loading, the SDK call, and the cache's file access,
which `aupload` runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from mediaparts._boundary import Boundary, theirs
from mediaparts._conversation._make_part import part as make_part
from mediaparts._conversation._mediapart import part_class
from mediaparts._conversation._parts import ImagePart, MediaPart
from mediaparts._errors import InvalidConfig, InvalidMedia, excerpt
from mediaparts.converting import TransformPolicy
from mediaparts.detection import extension_for
from mediaparts.providers import (
    FileApi,
    NormalizedPart,
    Provider,
    Stored,
    UploadRequest,
    get,
)
from mediaparts.uploading._cache import (
    SqliteUploadCache,
    UploadCache,
    UploadCacheEntry,
    UploadCacheKey,
)
from mediaparts.uploading._prepare import fitted, refuse, why_not

__all__ = [
    "EXPIRY_MARGIN",
    "CacheOption",
    "Clock",
    "Job",
    "astore",
    "aupload",
    "start",
    "store",
    "upload",
]

# Only MediaError leaves aupload (see Boundary).
_AUPLOADING = Boundary("uploading")

# Only MediaError leaves upload (see Boundary).
_UPLOADING = Boundary("uploading")

CacheOption = UploadCache | Literal["default"] | None
Clock = Callable[[], float]

# By default a cached reference is used only while it has this long left: it must outlive
# the request that sends it (a batch needs `min_ttl=` longer). Gemini's files live 48 hours.
EXPIRY_MARGIN = 3600.0

# One lock per cache key in this process, so that threads (or tasks of one event loop)
# uploading the same bytes at once upload them once; processes may both upload (both entries
# are valid, the last one stays). Weak values: a lock lives while someone waits on it.
_LOCKS: weakref.WeakValueDictionary[UploadCacheKey, threading.Lock] = weakref.WeakValueDictionary()
_ALOCKS: weakref.WeakValueDictionary[tuple[int, UploadCacheKey], asyncio.Lock] = (
    weakref.WeakValueDictionary()
)
_LOCKS_GUARD = threading.Lock()


def _lock(key: UploadCacheKey) -> threading.Lock:
    with _LOCKS_GUARD:
        found = _LOCKS.get(key)
        if found is None:
            found = _LOCKS[key] = threading.Lock()
        return found


def _alock(key: UploadCacheKey) -> asyncio.Lock:
    """The lock of `key` for this event loop (an asyncio lock serves one loop)."""
    loop = id(asyncio.get_running_loop())
    with _LOCKS_GUARD:
        found = _ALOCKS.get((loop, key))
        if found is None:
            found = _ALOCKS[(loop, key)] = asyncio.Lock()
        return found


@dataclass(frozen=True)
class Job:
    """One upload's settings, checked: the provider, its file API, the client and cache."""

    provider: Provider
    api: FileApi
    client: Any
    cache: UploadCache | None
    location: str | None
    clock: Clock
    refresh: bool = False
    min_ttl: float = EXPIRY_MARGIN


def _cache(cache: Any) -> UploadCache | None:
    if cache == "default":
        return SqliteUploadCache()
    if cache is None or isinstance(cache, UploadCache):
        return cache
    raise InvalidConfig(
        f"cache must be 'default', None or an mp.UploadCache (get, put, delete), got "
        f"{type(cache).__name__}"
    )


def start(
    provider: str | Provider,
    client: Any,
    cache: Any,
    location: Any,
    clock: Any,
    refresh: Any = False,
    min_ttl: Any = EXPIRY_MARGIN,
) -> Job:
    """Check an upload's settings (before any work) and return them as a `Job`.

    Raises:
        UnknownProvider: No provider has that name.
        InvalidConfig: The provider has no file API, no client is given, a location is
            missing (Bedrock) or given where none is used, or the cache, clock, refresh or
            min_ttl is wrong (longer than the store keeps files).
    """
    chosen = get(provider)
    api = chosen.files
    if api is None:
        raise InvalidConfig(
            f"{chosen.name} has no file store mediaparts can upload to; send media inline"
        )
    if client is None:
        raise InvalidConfig(f"uploading for {chosen.name} needs client=, the provider's SDK client")
    if api.rules.needs_location and location is None:
        raise InvalidConfig(
            f"uploading for {chosen.name} needs location='s3://bucket/prefix/': where the "
            "objects go"
        )
    if not api.rules.needs_location and location is not None:
        raise InvalidConfig(
            f"{chosen.name} stores files in its own store; location= is only for a store in "
            f"the caller's bucket, got {excerpt(location)}"
        )
    if not callable(clock):
        raise InvalidConfig(f"clock must be a function returning seconds, got {excerpt(clock)}")
    if not isinstance(refresh, bool):
        raise InvalidConfig(f"refresh must be True or False, got {excerpt(refresh)}")
    if not isinstance(min_ttl, int | float) or isinstance(min_ttl, bool) or not min_ttl >= 0:
        raise InvalidConfig(f"min_ttl must be seconds (0 or more), got {excerpt(min_ttl)}")
    if api.rules.ttl is not None and min_ttl >= api.rules.ttl:
        raise InvalidConfig(
            f"{chosen.name}'s file store keeps files {api.rules.ttl / 3600:g} hours; a reference "
            f"cannot have min_ttl={min_ttl:g} seconds left: give less, or send the media inline"
        )
    return Job(chosen, api, client, _cache(cache), location, clock, refresh, float(min_ttl))


def _media(part: Any) -> MediaPart:
    made = part if isinstance(part, MediaPart) else make_part(part)
    if not isinstance(made, MediaPart):
        raise InvalidMedia("upload() takes media (an image, audio, video or file), not text")
    if made.file_id is not None:
        raise InvalidMedia(
            f"{excerpt(made.file_id)} is already a file in {made.file_provider}'s store; "
            "upload the part's bytes instead"
        )
    return made


def _name(media: MediaPart, sent: NormalizedPart) -> str:
    """The stored file's name: the part's, with the extension of what is sent."""
    extension = extension_for(sent.media_type) or ""
    name = media.filename or f"file{extension}"
    if media.media_type != sent.media_type and extension and not name.endswith(extension):
        name = name.rsplit(".", 1)[0] + extension
    return name


@dataclass(frozen=True)
class _Upload:
    key: UploadCacheKey
    request: UploadRequest
    cache: UploadCache | None  # None when the client's account is unknown: nothing cached


def _plan(job: Job, media: MediaPart, sent: NormalizedPart) -> _Upload:
    why = why_not(sent, job.api.rules, job.provider.name)
    if why is not None:
        raise refuse(media, job.provider, why)
    assert sent.data is not None  # why_not refuses a part without bytes
    digest = hashlib.sha256(sent.data).hexdigest()
    purpose = job.api.rules.purposes.get(sent.kind, "")
    account = job.api.account(job.client, job.location)
    return _Upload(
        key=UploadCacheKey(job.api.rules.store, account or "", digest, purpose),
        request=UploadRequest(
            data=sent.data,
            media_type=sent.media_type,
            filename=_name(media, sent),
            sha256=digest,
            purpose=purpose or None,
            location=job.location,
        ),
        cache=job.cache if account is not None else None,
    )


def _fresh(entry: UploadCacheEntry | None, plan: _Upload, now: float, min_ttl: float) -> bool:
    """Whether a cached entry may be used: the same type, with time to live left."""
    if entry is None or entry.media_type != plan.request.media_type:
        return False
    return entry.expires_at is None or entry.expires_at - min_ttl > now


def _entry(job: Job, plan: _Upload, stored: Stored, now: float) -> UploadCacheEntry:
    expires_at = stored.expires_at
    if expires_at is None and job.api.rules.ttl is not None:
        expires_at = now + job.api.rules.ttl
    return UploadCacheEntry(
        file_id=stored.file_id,
        media_type=plan.request.media_type,
        size=len(plan.request.data),
        created=now,
        expires_at=expires_at,
    )


def _reference(job: Job, media: MediaPart, sent: NormalizedPart, file_id: str) -> MediaPart:
    """The part as a reference: the same fields, the stored file's id and type."""
    values: dict[str, Any] = {
        "file_id": file_id,
        "file_provider": job.api.rules.store,
        "media_type": sent.media_type,
        "filename": media.filename,
        "metadata": media.metadata,
        "cache": media.cache,
        "native": media.native,
    }
    if isinstance(media, ImagePart) and sent.kind == "image":
        values["detail"] = media.detail
    return part_class(sent.kind)(**values)


def store(job: Job, media: MediaPart, sent: NormalizedPart) -> MediaPart:
    """Store a normalized part (or find it in the cache); return the reference."""
    plan = _plan(job, media, sent)
    cache = plan.cache
    with _lock(plan.key):
        entry = cache.get(plan.key) if cache is not None else None
        if job.refresh or not _fresh(entry, plan, job.clock(), job.min_ttl):
            try:
                stored = job.api.upload(job.client, plan.request)
            except Exception as exc:  # the SDK's own errors pass unchanged (see upload)
                theirs(exc)
                raise
            entry = _entry(job, plan, stored, job.clock())
            if cache is not None:
                cache.put(plan.key, entry)
    assert entry is not None
    return _reference(job, media, sent, entry.file_id)


async def astore(job: Job, media: MediaPart, sent: NormalizedPart) -> MediaPart:
    """`store` for async code: the SDK's async call; hashing and the cache's file access in a
    worker thread."""
    plan = await asyncio.to_thread(_plan, job, media, sent)
    cache = plan.cache
    async with _alock(plan.key):
        entry = await asyncio.to_thread(cache.get, plan.key) if cache is not None else None
        if job.refresh or not _fresh(entry, plan, job.clock(), job.min_ttl):
            try:
                stored = await job.api.aupload(job.client, plan.request)
            except Exception as exc:  # the SDK's own errors pass unchanged (see upload)
                theirs(exc)
                raise
            entry = _entry(job, plan, stored, job.clock())
            if cache is not None:
                await asyncio.to_thread(cache.put, plan.key, entry)
    assert entry is not None
    return _reference(job, media, sent, entry.file_id)


def upload(
    part: Any,
    provider: str | Provider,
    *,
    client: Any,
    cache: CacheOption = "default",
    model: str | None = None,
    location: str | None = None,
    transforms: TransformPolicy | None = None,
    clock: Clock = time.time,
    refresh: bool = False,
    min_ttl: float = EXPIRY_MARGIN,
) -> MediaPart:
    """Send a part to the provider's file store; return the part as a file reference.

    The part is normalized for the provider first (as `render` would: oriented, converted,
    fitted), measured against the store's limits rather than the inline ones, and the bytes
    that would be sent are uploaded with the caller's SDK client: OpenAI Files
    (`client.files.create`, purpose `vision` for images, `user_data` otherwise), Anthropic's
    Files API (`client.beta.files.upload`), the Gemini File API (`client.files.upload`,
    waiting until the file is ACTIVE), or for Bedrock an object in the caller's bucket
    (`client.put_object` on a boto3 S3 client, the key content-addressed under `location`).
    The same bytes are uploaded once per store and account while the cache remembers them
    and the stored file has more than an hour to live; a client whose account its settings
    do not show (a key from a function, a profile, workload identity) uploads every time.

    Args:
        part: A media part, or anything `mp.part()` takes.
        provider: A provider name or `Provider` with a file store.
        client: The provider's blocking SDK client (an S3 client for Bedrock).
        cache: `"default"` (a SQLite file in `$MEDIAPARTS_CACHE_DIR` or the user cache
            directory), None (no cache), or any `mp.UploadCache`.
        model: The model, for model-dependent rules (image sizes).
        location: Bedrock only: `"s3://bucket/prefix/"`, where the objects go.
        transforms: What may be done to media the provider cannot take as it is (see
            `normalize`).
        clock: The time now, in seconds since the epoch (tests pass their own).
        refresh: Upload even when the cache has the bytes, and replace its entry: for a
            file deleted from the store behind the cache's back (the provider answers that
            the file or object is not found).
        min_ttl: Seconds a cached reference must still have to live to be used (an hour:
            it outlives one request); a batch job, which may run for a day, needs more
            (`min_ttl=24 * 3600`). Files that live until deleted always qualify.

    Returns:
        A part of the same kind (of the kind sent, after a conversion) with `file_id` and
        `file_provider` set; its file name, metadata, cache breakpoint and hints are kept.

    Raises:
        InvalidConfig: A setting is wrong (no file store, no client, a wrong client, a
            missing or stray location, a wrong cache).
        UnsupportedMediaType: The provider's API does not take this media by reference (or
            would send it as text or pieces).
        ProviderLimitError: The media is over the file store's limit.
        MediaError: What `normalize` raises for the part.
        Exception: What the SDK raises for a failed request (its own errors, unchanged).
    """
    try:
        # Sync twin of `aupload` (load vs aload, the SDK's blocking vs async call).
        job = start(provider, client, cache, location, clock, refresh, min_ttl)
        media = _media(part)
        media.load()
        return store(job, media, fitted(media, job.provider, model, transforms))
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _UPLOADING.reraise(exc)


async def aupload(
    part: Any,
    provider: str | Provider,
    *,
    client: Any,
    cache: CacheOption = "default",
    model: str | None = None,
    location: str | None = None,
    transforms: TransformPolicy | None = None,
    clock: Clock = time.time,
    refresh: bool = False,
    min_ttl: float = EXPIRY_MARGIN,
) -> MediaPart:
    """`upload` for async code, with the async SDK client (`AsyncOpenAI`, `AsyncAnthropic`,
    genai's `client.aio`; boto3 has none: its S3 client is called in a worker thread)."""
    try:
        # Async twin of `upload` (aload, fitting in a thread, the SDK's async call).
        job = start(provider, client, cache, location, clock, refresh, min_ttl)
        # A path or file object is read whole when it becomes a part: not on the event loop.
        media = part if isinstance(part, MediaPart) else await asyncio.to_thread(_media, part)
        media = _media(media)
        await media.aload()
        sent = await asyncio.to_thread(fitted, media, job.provider, model, transforms)
        return await astore(job, media, sent)
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _AUPLOADING.reraise(exc)
