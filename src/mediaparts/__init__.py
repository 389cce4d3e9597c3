"""mediaparts: typed media parts for LLM prompts, detected from their bytes.

import mediaparts as mp

photo = mp.part("photo.jpg")                 # ImagePart, typed by its bytes
msg = mp.User("Describe this", files=[photo, {"url": "https://example.com/a.pdf"}])
"""

import importlib as _importlib
import typing as _typing

from mediaparts._build import Conversation, PartLike, part
from mediaparts._errors import (
    BlockedPath,
    BlockedURL,
    BudgetExceeded,
    CodecUnavailable,
    ConversionError,
    ConversionWarning,
    FetchError,
    InternalError,
    InvalidConfig,
    InvalidMedia,
    MediaError,
    MediaTooLarge,
    NoDocumentedRule,
    OfflineError,
    ProviderLimitError,
    UnknownProvider,
    UnsupportedMediaType,
)
from mediaparts._lazy import lazy_exports as _lazy_exports
from mediaparts._merge import merge_runs
from mediaparts._messages import (
    Assistant,
    Message,
    StopReason,
    System,
    Tool,
    Usage,
    User,
    message_from_dict,
)
from mediaparts._parts import (
    AudioPart,
    Citation,
    FilePart,
    ImagePart,
    MediaPart,
    Part,
    ProviderPart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
    VideoPart,
)
from mediaparts._sources import untrusted
from mediaparts.detection import Detection, canonical_media_type, detect, detect_media_type
from mediaparts.fetching import FetchPolicy

if _typing.TYPE_CHECKING:  # loaded on first use (below); type checkers see them as plain imports
    from mediaparts import providers
    from mediaparts._configure import configure
    from mediaparts._filter import filter_messages
    from mediaparts._show import show
    from mediaparts._upload import afrom_upload, from_upload
    from mediaparts.converting import TransformPolicy, using_transforms
    from mediaparts.fetching import offline, safe_async_client, safe_client
    from mediaparts.providers import (
        BatchError,
        BatchFile,
        BatchResult,
        BatchWriter,
        Cost,
        MessageTokens,
        NormalizedPart,
        Options,
        PartTokens,
        Price,
        Prices,
        Provider,
        TokenCount,
        Violation,
        anormalize,
        arender,
        batch_line,
        check,
        cost,
        count_tokens,
        estimate_tokens,
        message_from_response,
        messages_from,
        normalize,
        normalize_many,
        read_batch_results,
        render,
        sdk_kwargs,
        trim,
        write_batch,
    )
    from mediaparts.uploading import (
        MemoryUploadCache,
        SqliteUploadCache,
        UploadCache,
        UploadCacheEntry,
        UploadCacheKey,
        Uploader,
        aupload,
        upload,
    )

# The provider stack (rules, renderers, imaging glue), uploads and the fetcher (httpx) load
# when first used, so `import mediaparts` stays cheap for code that only makes parts. This
# facade is the one place a lazy import may close a cycle (tests/test_architecture.py).
_LAZY = {
    "NormalizedPart": "mediaparts.providers",
    "Options": "mediaparts.providers",
    "TransformPolicy": "mediaparts.converting",
    "using_transforms": "mediaparts.converting",
    "Provider": "mediaparts.providers",
    "Violation": "mediaparts.providers",
    "afrom_upload": "mediaparts._upload",
    "anormalize": "mediaparts.providers",
    "arender": "mediaparts.providers",
    "check": "mediaparts.providers",
    "configure": "mediaparts._configure",
    "filter_messages": "mediaparts._filter",
    "show": "mediaparts._show",
    "offline": "mediaparts.fetching",
    "safe_async_client": "mediaparts.fetching",
    "safe_client": "mediaparts.fetching",
    "estimate_tokens": "mediaparts.providers",
    "count_tokens": "mediaparts.providers",
    "TokenCount": "mediaparts.providers",
    "MessageTokens": "mediaparts.providers",
    "PartTokens": "mediaparts.providers",
    "Cost": "mediaparts.providers",
    "Price": "mediaparts.providers",
    "Prices": "mediaparts.providers",
    "cost": "mediaparts.providers",
    "message_from_response": "mediaparts.providers",
    "messages_from": "mediaparts.providers",
    "from_upload": "mediaparts._upload",
    "normalize": "mediaparts.providers",
    "normalize_many": "mediaparts.providers",
    "render": "mediaparts.providers",
    "sdk_kwargs": "mediaparts.providers",
    "trim": "mediaparts.providers",
    "BatchError": "mediaparts.providers",
    "BatchFile": "mediaparts.providers",
    "BatchResult": "mediaparts.providers",
    "BatchWriter": "mediaparts.providers",
    "batch_line": "mediaparts.providers",
    "read_batch_results": "mediaparts.providers",
    "write_batch": "mediaparts.providers",
    "MemoryUploadCache": "mediaparts.uploading",
    "SqliteUploadCache": "mediaparts.uploading",
    "UploadCache": "mediaparts.uploading",
    "UploadCacheEntry": "mediaparts.uploading",
    "UploadCacheKey": "mediaparts.uploading",
    "Uploader": "mediaparts.uploading",
    "aupload": "mediaparts.uploading",
    "upload": "mediaparts.uploading",
}


_lazy_getattr, __dir__ = _lazy_exports(__name__, _LAZY, globals())


def __getattr__(name: str) -> _typing.Any:
    if name == "providers":
        return _importlib.import_module("mediaparts.providers")
    return _lazy_getattr(name)


__version__ = "0.1.0.dev0"

__all__ = [
    "Assistant",
    "AudioPart",
    "BatchError",
    "BatchFile",
    "BatchResult",
    "BatchWriter",
    "BlockedPath",
    "BlockedURL",
    "BudgetExceeded",
    "Citation",
    "CodecUnavailable",
    "Conversation",
    "ConversionError",
    "ConversionWarning",
    "Cost",
    "Detection",
    "FetchError",
    "FetchPolicy",
    "FilePart",
    "ImagePart",
    "InternalError",
    "InvalidConfig",
    "InvalidMedia",
    "MediaError",
    "MediaPart",
    "MediaTooLarge",
    "MemoryUploadCache",
    "Message",
    "MessageTokens",
    "NoDocumentedRule",
    "NormalizedPart",
    "OfflineError",
    "Options",
    "Part",
    "PartLike",
    "PartTokens",
    "Price",
    "Prices",
    "Provider",
    "ProviderLimitError",
    "ProviderPart",
    "ReasoningPart",
    "RefusalPart",
    "SqliteUploadCache",
    "StopReason",
    "System",
    "TextPart",
    "TokenCount",
    "Tool",
    "ToolCall",
    "TransformPolicy",
    "UnknownProvider",
    "UnsupportedMediaType",
    "UploadCache",
    "UploadCacheEntry",
    "UploadCacheKey",
    "Uploader",
    "Usage",
    "User",
    "VideoPart",
    "Violation",
    "afrom_upload",
    "anormalize",
    "arender",
    "aupload",
    "batch_line",
    "canonical_media_type",
    "check",
    "configure",
    "cost",
    "count_tokens",
    "detect",
    "detect_media_type",
    "estimate_tokens",
    "filter_messages",
    "from_upload",
    "merge_runs",
    "message_from_dict",
    "message_from_response",
    "messages_from",
    "normalize",
    "normalize_many",
    "offline",
    "part",
    "providers",
    "read_batch_results",
    "render",
    "safe_async_client",
    "safe_client",
    "sdk_kwargs",
    "show",
    "trim",
    "untrusted",
    "upload",
    "using_transforms",
    "write_batch",
]
