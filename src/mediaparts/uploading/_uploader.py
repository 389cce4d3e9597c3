"""`Uploader`: what `render(..., urls="upload")` sends to the provider's file store.

It meets `mediaparts.providers.PartUploader`: for each media part `render` is about to
inline, it says whether the part goes by reference (and uploads it) or as before.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from mediaparts._conversation._parts import MediaPart
from mediaparts._errors import InvalidConfig, UnsupportedMediaType, excerpt
from mediaparts.converting import TransformPolicy
from mediaparts.detection import kind_of
from mediaparts.fetching import redact
from mediaparts.providers import NormalizedPart, Provider, normalize
from mediaparts.uploading._prepare import fitted, over_inline, store_rules, why_not
from mediaparts.uploading._send import (
    EXPIRY_MARGIN,
    CacheOption,
    Clock,
    Job,
    astore,
    start,
    store,
)

__all__ = ["Uploader"]


class Uploader:
    """Uploads the media `render(..., urls="upload")` should send by reference.

    A part goes to the provider's file store when its bytes are over what the provider takes
    inline (the kind's limit or the request's, as the provider measures them), or, with
    `min_bytes`, when it has at least that many bytes (`min_bytes=0`: every part the API
    takes by reference). Everything else is sent as with `urls="auto"`: small media inline,
    URLs the provider fetches itself passed through, and media its API cannot reference
    (Chat Completions' images and audio, text files) inline, where `render` fits it or
    says why not.

    Args:
        client: The provider's SDK client: blocking for `render`, async for `arender`
            (boto3's S3 client serves both).
        cache: `"default"`, None, or an `mp.UploadCache` (see `mp.upload`).
        location: Bedrock only: `"s3://bucket/prefix/"`.
        min_bytes: Also upload parts of at least this many bytes; None uploads only what
            is over the inline limits.
        transforms: What may be done to media the provider cannot take as it is.
        clock: The time now, in seconds since the epoch (tests pass their own).
        refresh: Upload even what the cache has, replacing its entries (see `mp.upload`).
        min_ttl: Seconds a cached reference must still have to live (see `mp.upload`).
    """

    def __init__(
        self,
        client: Any,
        *,
        cache: CacheOption = "default",
        location: str | None = None,
        min_bytes: int | None = None,
        transforms: TransformPolicy | None = None,
        clock: Clock = time.time,
        refresh: bool = False,
        min_ttl: float = EXPIRY_MARGIN,
    ) -> None:
        if min_bytes is not None and (
            not isinstance(min_bytes, int) or isinstance(min_bytes, bool) or min_bytes < 0
        ):
            raise InvalidConfig(
                f"min_bytes must be 0 or more bytes, or None, got {excerpt(min_bytes)}"
            )
        if client is None:
            raise InvalidConfig("Uploader needs the provider's SDK client")
        if not isinstance(refresh, bool):
            raise InvalidConfig(f"refresh must be True or False, got {excerpt(refresh)}")
        self.client = client
        self.cache = cache
        self.location = location
        self.min_bytes = min_bytes
        self.transforms = transforms
        self.clock = clock
        self.refresh = refresh
        self.min_ttl = min_ttl
        self._jobs: dict[str, Job] = {}

    def __repr__(self) -> str:
        where = None if self.location is None else redact(self.location)
        name = type(self.client).__name__
        return f"Uploader({name}, location={where!r}, min_bytes={self.min_bytes!r})"

    def _job(self, provider: Provider) -> Job:
        job = self._jobs.get(provider.name)
        if job is None or job.provider is not provider:
            job = start(
                provider,
                self.client,
                self.cache,
                self.location,
                self.clock,
                self.refresh,
                self.min_ttl,
            )
            self._jobs[provider.name] = job
        return job

    def _wanted(self, part: MediaPart, provider: Provider) -> bool:
        """Whether a loaded part should go by reference: its kind referenced, and big."""
        rules = store_rules(provider)
        kind = kind_of(part.effective_media_type or "application/octet-stream")
        if rules is None or kind not in rules.kinds:
            return False
        size = len(part.data)
        return over_inline(provider, kind, size) or (
            self.min_bytes is not None and size >= self.min_bytes
        )

    def _passes(self, part: MediaPart, provider: Provider, model: str | None) -> bool:
        """Whether a URL part goes as a URL the provider fetches (no upload, no fetch)."""
        if part.url is None:
            return False
        try:
            normalize(part, provider, model=model, urls="pass")
        except UnsupportedMediaType:
            return False
        return True

    def _sent(
        self, part: MediaPart, provider: Provider, model: str | None
    ) -> NormalizedPart | None:
        sent = fitted(part, provider, model, self.transforms)
        rules = store_rules(provider)
        assert rules is not None  # _wanted checked it
        return None if why_not(sent, rules, provider.name) else sent

    def upload_part(
        self, part: MediaPart, provider: Provider, model: str | None, /
    ) -> MediaPart | None:
        """Upload `part` if it should go by reference; return the reference, or None."""
        # Sync twin of `aupload_part` (load vs aload, the SDK's blocking vs async call).
        if provider.files is None or self._passes(part, provider, model):
            return None
        job = self._job(provider)
        part.load()
        if not self._wanted(part, provider):
            return None
        sent = self._sent(part, provider, model)
        return None if sent is None else store(job, part, sent)

    async def aupload_part(
        self, part: MediaPart, provider: Provider, model: str | None, /
    ) -> MediaPart | None:
        """`upload_part` for async code, with the async SDK client."""
        # Async twin of `upload_part`.
        if provider.files is None or self._passes(part, provider, model):
            return None
        job = self._job(provider)
        await part.aload()
        if not self._wanted(part, provider):
            return None
        sent = await asyncio.to_thread(self._sent, part, provider, model)
        return None if sent is None else await astore(job, part, sent)
