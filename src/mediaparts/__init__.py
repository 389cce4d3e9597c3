"""mediaparts: typed media parts for LLM prompts, detected from their bytes.

import mediaparts as mp

photo = mp.part("photo.jpg")                 # ImagePart, typed by its bytes
msg = mp.User("Describe this", files=[photo, {"url": "https://example.com/a.pdf"}])

`__all__` lists the names most code needs. Others live in namespaces and keep their top-level
spelling too, without a warning: the errors in `mediaparts.errors` (`BlockedPath`,
`BlockedURL`, `BudgetExceeded`, `CodecUnavailable`, `ConversionError`, `ConversionWarning`,
`FetchError`, `InternalError`, `InvalidConfig`, `InvalidMedia`, `MediaTooLarge`,
`NoDocumentedRule`, `OfflineError`, `ProviderLimitError`, `StreamError`, `UnknownModel`,
`UnknownModelWarning`, `UnknownProvider`, `UnsupportedMediaType`); batch files in
`mediaparts.batch` (`BatchError`, `BatchFile`, `BatchResult`, `BatchWriter`, `batch_line`,
`read_batch_results`, `write_batch`); token counts in `mediaparts.tokens` (`TokenCount`,
`MessageTokens`, `PartTokens`); money in `mediaparts.pricing` (`Cost`, `Price`, `Prices`);
upload caches in `mediaparts.uploading` (`UploadCache`, `MemoryUploadCache`,
`SqliteUploadCache`, `UploadCacheEntry`, `UploadCacheKey`); `safe_client` and
`safe_async_client` in `mediaparts.fetching`; `detect_media_type` and `canonical_media_type` in
`mediaparts.detection`; `TransformPolicy` and `using_transforms` in `mediaparts.converting`;
streamed replies in `mediaparts.providers` (`StreamReader`, `Delta`, `message_from_stream`,
`amessage_from_stream`).
"""

import importlib as _importlib
import typing as _typing

from mediaparts import errors
from mediaparts._conversation._make_part import Conversation, PartLike, part
from mediaparts._conversation._merge import merge_runs
from mediaparts._conversation._messages import (
    Assistant,
    Message,
    StopReason,
    System,
    Tool,
    Usage,
    User,
    message_from_dict,
)
from mediaparts._conversation._parts import (
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
from mediaparts._errors import MediaError
from mediaparts._lazy import lazy_exports as _lazy_exports
from mediaparts._lazy import publish as _publish
from mediaparts._sources import untrusted
from mediaparts.detection import Detection, detect
from mediaparts.detection import canonical_media_type as canonical_media_type
from mediaparts.detection import detect_media_type as detect_media_type
from mediaparts.errors import BlockedPath as BlockedPath
from mediaparts.errors import BlockedURL as BlockedURL
from mediaparts.errors import BudgetExceeded as BudgetExceeded
from mediaparts.errors import CodecUnavailable as CodecUnavailable
from mediaparts.errors import ConversionError as ConversionError
from mediaparts.errors import ConversionWarning as ConversionWarning
from mediaparts.errors import FetchError as FetchError
from mediaparts.errors import InternalError as InternalError
from mediaparts.errors import InvalidConfig as InvalidConfig
from mediaparts.errors import InvalidMedia as InvalidMedia
from mediaparts.errors import MediaTooLarge as MediaTooLarge
from mediaparts.errors import NoDocumentedRule as NoDocumentedRule
from mediaparts.errors import OfflineError as OfflineError
from mediaparts.errors import ProviderLimitError as ProviderLimitError
from mediaparts.errors import StreamError as StreamError
from mediaparts.errors import UnknownModel as UnknownModel
from mediaparts.errors import UnknownModelWarning as UnknownModelWarning
from mediaparts.errors import UnknownProvider as UnknownProvider
from mediaparts.errors import UnsupportedMediaType as UnsupportedMediaType
from mediaparts.fetching import FetchPolicy

if _typing.TYPE_CHECKING:  # loaded on first use (below); type checkers see them as plain imports
    from mediaparts import batch, pricing, providers, tokens
    from mediaparts._configure import configure
    from mediaparts._conversation._filter import filter_messages
    from mediaparts._conversation._show import show
    from mediaparts._upload import afrom_upload, from_upload
    from mediaparts.converting import TransformPolicy as TransformPolicy
    from mediaparts.converting import using_transforms as using_transforms
    from mediaparts.fetching import offline
    from mediaparts.fetching import safe_async_client as safe_async_client
    from mediaparts.fetching import safe_client as safe_client
    from mediaparts.providers import BatchError as BatchError
    from mediaparts.providers import BatchFile as BatchFile
    from mediaparts.providers import BatchResult as BatchResult
    from mediaparts.providers import BatchWriter as BatchWriter
    from mediaparts.providers import Cost as Cost
    from mediaparts.providers import Delta as Delta
    from mediaparts.providers import MessageTokens as MessageTokens
    from mediaparts.providers import (
        NormalizedPart,
        Options,
        Provider,
        Violation,
        anormalize,
        arender,
        check,
        cost,
        count_tokens,
        estimate_tokens,
        message_from_response,
        messages_from,
        normalize,
        normalize_many,
        render,
        sdk_kwargs,
        trim,
    )
    from mediaparts.providers import PartTokens as PartTokens
    from mediaparts.providers import Price as Price
    from mediaparts.providers import Prices as Prices
    from mediaparts.providers import StreamReader as StreamReader
    from mediaparts.providers import TokenCount as TokenCount
    from mediaparts.providers import amessage_from_stream as amessage_from_stream
    from mediaparts.providers import batch_line as batch_line
    from mediaparts.providers import message_from_stream as message_from_stream
    from mediaparts.providers import read_batch_results as read_batch_results
    from mediaparts.providers import write_batch as write_batch
    from mediaparts.uploading import MemoryUploadCache as MemoryUploadCache
    from mediaparts.uploading import SqliteUploadCache as SqliteUploadCache
    from mediaparts.uploading import UploadCache as UploadCache
    from mediaparts.uploading import UploadCacheEntry as UploadCacheEntry
    from mediaparts.uploading import UploadCacheKey as UploadCacheKey
    from mediaparts.uploading import (
        Uploader,
        aupload,
        upload,
    )

# The provider stack (rules, renderers, imaging glue), uploads and the fetcher (httpx) load
# when first used, so `import mediaparts` stays cheap for code that only makes parts. This
# facade is the one place a lazy import may close a cycle (tests/test_architecture.py).
_LAZY = {
    "NormalizedPart": "mediaparts.providers",
    "Delta": "mediaparts.providers",
    "StreamReader": "mediaparts.providers",
    "message_from_stream": "mediaparts.providers",
    "amessage_from_stream": "mediaparts.providers",
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
    "filter_messages": "mediaparts._conversation._filter",
    "show": "mediaparts._conversation._show",
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


# Public modules that load on first use (the provider stack behind them is heavy).
_SUBMODULES = frozenset({"batch", "pricing", "providers", "tokens"})


def __getattr__(name: str) -> _typing.Any:
    if name in _SUBMODULES:
        return _importlib.import_module(f"mediaparts.{name}")
    return _lazy_getattr(name)


__version__ = "0.1.0.dev0"

__all__ = [
    "Assistant",
    "AudioPart",
    "Citation",
    "Conversation",
    "Detection",
    "FetchPolicy",
    "FilePart",
    "ImagePart",
    "MediaError",
    "MediaPart",
    "Message",
    "NormalizedPart",
    "Options",
    "Part",
    "PartLike",
    "Provider",
    "ProviderPart",
    "ReasoningPart",
    "RefusalPart",
    "StopReason",
    "System",
    "TextPart",
    "Tool",
    "ToolCall",
    "Uploader",
    "Usage",
    "User",
    "VideoPart",
    "Violation",
    "afrom_upload",
    "anormalize",
    "arender",
    "aupload",
    "batch",
    "check",
    "configure",
    "cost",
    "count_tokens",
    "detect",
    "errors",
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
    "pricing",
    "providers",
    "render",
    "sdk_kwargs",
    "show",
    "tokens",
    "trim",
    "untrusted",
    "upload",
]

_publish(__name__, globals(), [n for n in globals() if not n.startswith("_")])
