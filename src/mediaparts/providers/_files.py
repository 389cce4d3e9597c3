"""Provider file stores as data: what a provider's file API keeps, and how to call it.

A provider that can send media by reference (OpenAI Files, Anthropic Files, the Gemini File
API, an S3 bucket for Bedrock) has an optional `FILES` member, a `FileApi`: its store's facts
(`FileStoreRules`, in its `_tables.py`, with source and date) and its three calls (`upload`,
`aupload`, `account`, in its `_files.py`), each taking the SDK client the caller passes.
`mediaparts.uploading` reaches a provider's file API only through this record.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mediaparts._errors import InvalidConfig
from mediaparts.formats import Kind

__all__ = [
    "FileApi",
    "FileStoreRules",
    "Stored",
    "UploadRequest",
    "answer",
    "awaited",
    "fingerprint",
    "member",
]


def answer(value: Any, provider: str) -> Any:
    """Return a blocking call's answer; an awaitable means the client is an async one.

    Raises:
        InvalidConfig: The client is async (its call returned an awaitable).
    """
    if inspect.isawaitable(value):
        if inspect.iscoroutine(value):
            value.close()  # never awaited: closed, so Python does not warn about it
        raise InvalidConfig(
            f"{provider}: this client is an async one; use it with mp.aupload or mp.arender, "
            "or pass the blocking client"
        )
    return value


async def awaited(value: Any, provider: str) -> Any:
    """Await an async call's answer; anything else means the client is a blocking one.

    Raises:
        InvalidConfig: The client is a blocking one (its call answered at once).
    """
    if not inspect.isawaitable(value):
        raise InvalidConfig(
            f"{provider}: this client is a blocking one; use it with mp.upload or mp.render, "
            "or pass the SDK's async client"
        )
    return await value


def fingerprint(*facts: object) -> str:
    """Return a short hash of what identifies an account (never the secret itself)."""
    text = "\x00".join("" if fact is None else str(fact) for fact in facts)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def member(client: Any, path: str, provider: str, expected: str) -> Any:
    """Return `client.<path>` (dotted), or say which client the provider's upload takes.

    Raises:
        InvalidConfig: The client has no such member (another SDK's client, or none).
    """
    found = client
    for name in path.split("."):
        found = getattr(found, name, None)
        if found is None:
            raise InvalidConfig(
                f"{provider} uploads with {expected}; got {type(client).__name__}, which has no "
                f"{path}"
            )
    return found


@dataclass(frozen=True)
class FileStoreRules:
    """What one provider's file store keeps, and which references its API takes.

    Attributes:
        store: The store's name, as a reference's `file_provider` holds it (`"openai"` for
            both OpenAI APIs).
        max_bytes: Most bytes one stored file may have.
        kinds: The media kinds its API takes by reference.
        media_types: Per kind, the only media types taken by reference; a kind not named
            takes every type the provider takes inline.
        ttl: Seconds a stored file lives (None: until deleted).
        purposes: Per kind, the `purpose` the upload declares (OpenAI's files), if any.
        needs_location: Whether the caller names where files go (`location=`, Bedrock's S3).
        source: Where the facts come from, and when they were read.
    """

    store: str
    max_bytes: int
    kinds: tuple[Kind, ...]
    media_types: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    ttl: float | None = None
    purposes: Mapping[str, str] = field(default_factory=dict)
    needs_location: bool = False
    source: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.max_bytes, int) or self.max_bytes < 1:
            raise InvalidConfig(
                f"FileStoreRules.max_bytes must be a positive int, got {self.max_bytes!r}"
            )
        if self.ttl is not None and not (isinstance(self.ttl, int | float) and self.ttl > 0):
            raise InvalidConfig(f"FileStoreRules.ttl must be positive seconds, got {self.ttl!r}")

    def takes(self, kind: str, media_type: str) -> bool:
        """Tell whether the API takes media of this kind and type by reference."""
        if kind not in self.kinds:
            return False
        only = self.media_types.get(kind)
        return only is None or media_type in only


@dataclass(frozen=True)
class UploadRequest:
    """One file to store: its bytes and what the provider's call needs to know.

    Attributes:
        data: The bytes, as the provider will read them (normalized first).
        media_type: Their media type.
        filename: The name to give the stored file.
        sha256: The bytes' SHA-256 (hex), for content-addressed names.
        purpose: The store's purpose for this kind (`FileStoreRules.purposes`), if any.
        location: Where the caller wants files kept (`s3://bucket/prefix/`), if the store
            needs one.
    """

    data: bytes = field(repr=False)
    media_type: str
    filename: str
    sha256: str
    purpose: str | None = None
    location: str | None = None


@dataclass(frozen=True)
class Stored:
    """What a store answered: the reference and, where it says, when the file expires.

    Attributes:
        file_id: The reference its API reads (an id, a `file_uri`, an `s3://` URI).
        expires_at: When the store deletes it (seconds since the epoch), if it says or
            its documented lifetime implies.
        native: Hints for the reference part (`{"bedrock": {"bucketOwner": ...}}`).
    """

    file_id: str
    expires_at: float | None = None
    native: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FileApi:
    """A provider's file API: its store's rules and the calls that store and identify.

    Attributes:
        rules: The store's facts.
        upload: Store one file with the caller's (blocking) SDK client.
        aupload: The same with the async SDK client.
        account: A fingerprint of the account and place a client stores into (a hash: no
            secret), so that a cache never hands one account's file to another; None when
            the client's settings do not show its account (then nothing is cached).
    """

    rules: FileStoreRules
    upload: Callable[[Any, UploadRequest], Stored] = field(repr=False)
    aupload: Callable[[Any, UploadRequest], Awaitable[Stored]] = field(repr=False)
    account: Callable[[Any, str | None], str | None] = field(repr=False)
