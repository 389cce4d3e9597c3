"""Provider file uploads: media sent once to a provider's file store, then by reference.

`upload`/`aupload` store one part with the caller's SDK client and return it as a file
reference (`file_id`, `file_provider`); `Uploader` does the same inside
`render(..., urls="upload", uploader=...)` for the parts that should not go inline. A
content-hash cache (`UploadCache`; `SqliteUploadCache` by default, `MemoryUploadCache`)
remembers what is stored, per store and account, until it expires. See
docs/provider-files.md.
"""

from mediaparts._lazy import publish as _publish
from mediaparts.uploading._cache import (
    MemoryUploadCache,
    SqliteUploadCache,
    UploadCache,
    UploadCacheEntry,
    UploadCacheKey,
    default_cache_dir,
)
from mediaparts.uploading._send import EXPIRY_MARGIN, aupload, upload
from mediaparts.uploading._uploader import Uploader

__all__ = [
    "EXPIRY_MARGIN",
    "MemoryUploadCache",
    "SqliteUploadCache",
    "UploadCache",
    "UploadCacheEntry",
    "UploadCacheKey",
    "Uploader",
    "aupload",
    "default_cache_dir",
    "upload",
]

_publish(__name__, globals(), __all__)
