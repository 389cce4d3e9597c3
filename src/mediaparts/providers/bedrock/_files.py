"""Uploads for Bedrock: an object in the caller's S3 bucket (`put_object`), sent as its
`s3Location` URI. The key is the prefix the caller names plus the bytes' SHA-256, so the
same bytes land on the same key."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit

from mediaparts._errors import InvalidConfig, excerpt
from mediaparts.detection import extension_for
from mediaparts.providers._files import FileApi, Stored, UploadRequest, fingerprint, member
from mediaparts.providers.bedrock._tables import FILE_STORE

__all__ = ["FILES", "split_location"]

_CLIENT = 'a boto3 S3 client (boto3.client("s3"))'


def split_location(location: Any) -> tuple[str, str]:
    """Return the bucket and key prefix of `s3://bucket/prefix/`.

    Raises:
        InvalidConfig: The location is missing or not an `s3://` URI with a bucket.
    """
    if not isinstance(location, str) or not location.startswith("s3://"):
        raise InvalidConfig(
            f"bedrock uploads to S3: give location='s3://bucket/prefix/', got {excerpt(location)}"
        )
    parts = urlsplit(location)
    if not parts.netloc or parts.query or parts.fragment:
        raise InvalidConfig(
            f"location must be s3://bucket/prefix/ (a bucket, then an optional prefix), got "
            f"{excerpt(location)}"
        )
    prefix = parts.path.lstrip("/")
    if prefix and not prefix.endswith("/"):
        prefix += "/"
    return parts.netloc, prefix


def upload(client: Any, request: UploadRequest) -> Stored:
    """Put one object in the caller's bucket; return its `s3://` URI."""
    bucket, prefix = split_location(request.location)
    key = f"{prefix}{request.sha256}{extension_for(request.media_type) or ''}"
    member(client, "put_object", "bedrock", _CLIENT)(
        Bucket=bucket, Key=key, Body=request.data, ContentType=request.media_type
    )
    return Stored(file_id=f"s3://{bucket}/{key}")


async def aupload(client: Any, request: UploadRequest) -> Stored:
    """`upload` in a worker thread: boto3 has no async client."""
    return await asyncio.to_thread(upload, client, request)


def account(client: Any, location: str | None) -> str:
    """Fingerprint the bucket and prefix (and the endpoint) files are put in."""
    meta = getattr(client, "meta", None)
    return fingerprint(
        "bedrock", location, getattr(meta, "endpoint_url", None), getattr(meta, "region_name", None)
    )


FILES = FileApi(rules=FILE_STORE, upload=upload, aupload=aupload, account=account)
