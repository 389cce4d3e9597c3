"""Providers: each API's media rules as data, and how to render messages for it.

import mediaparts as mp

mp.providers.names()                      # ('anthropic', 'bedrock', 'gemini', ...)
claude = mp.providers.get("anthropic")
claude.rules.image.max_bytes              # 5242880, measured on the base64 text
roomy = claude.with_rules(image_max_bytes=10 * 2**20)   # the direct API's limit

A provider is a wire (the API shape it speaks: `mediaparts.providers.wires`) plus data: its
rules, file store, batch envelope and quirks (`Provider`). The built-in ones are listed in
`_registry._BUILT_IN` and imported on first use; `register(name, wire=..., rules=...)` adds
another, which then works everywhere a built-in one does. The generic operations
(`normalize`, `render`, `check`, `estimate_tokens`, `trim`, ...) are exported here too;
`mediaparts` re-exports them.

For a wire written outside this package: `Wire` and the types of its members' arguments
(`Prepare` for `render`, `Served` for the readers, `Where` and `Problems` for `media_site`),
`Site` and the two site helpers `payload_bytes` and `url_text_site`, and the rule and table
types. Its `render` is its own: the helpers the built-in wires share (`_render_common`) are
not exported, as they change with the built-in wires' needs. A provider with a file store
gives `files=`, a `FileApi` (its `FileStoreRules` and the calls that store an
`UploadRequest` and answer `Stored`); `render(..., urls="upload")` takes any `PartUploader`.
"""

from __future__ import annotations

import typing as _typing

from mediaparts._lazy import lazy_exports as _lazy_exports
from mediaparts._lazy import publish as _publish
from mediaparts.providers import wires
from mediaparts.providers._files import FileApi, FileStoreRules, Stored, UploadRequest
from mediaparts.providers._media_costs import CostsTable, MediaCosts
from mediaparts.providers._normalized import NormalizedPart
from mediaparts.providers._protocol import Prepare, Served, Wire
from mediaparts.providers._registry import (
    Provider,
    get,
    names,
    register,
    registered,
    unregister,
)
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._sites import Problems, Site, Where, payload_bytes, url_text_site
from mediaparts.providers._text import TextRule, TextTable
from mediaparts.providers._vision import (
    AnthropicPatches,
    GeminiMediaResolution,
    GeminiTiles,
    ModelRule,
    OpenAIPatches,
    OpenAITiles,
    PatchBudget,
    Undocumented,
    VisionGeometry,
    VisionTable,
)

if _typing.TYPE_CHECKING:  # loaded on first use (below); type checkers see plain imports
    from mediaparts.providers._batch import BatchWriter, batch_line
    from mediaparts.providers._batch_read import read_batch_results
    from mediaparts.providers._batch_types import BatchError, BatchFile, BatchResult
    from mediaparts.providers._batch_write import write_batch
    from mediaparts.providers._check import Violation, check
    from mediaparts.providers._count import (
        MessageTokens,
        PartTokens,
        TokenCount,
        count_tokens,
        estimate_tokens,
    )
    from mediaparts.providers._normalize import anormalize, normalize, normalize_many
    from mediaparts.providers._options import Options
    from mediaparts.providers._pricing import Cost, Price, Prices, cost
    from mediaparts.providers._read import message_from_response, messages_from
    from mediaparts.providers._render import ForeignReasoning, OnLoss, arender, render
    from mediaparts.providers._sending import sdk_kwargs
    from mediaparts.providers._trim import trim
    from mediaparts.providers._uploads import PartUploader, RenderUrls

# The operations over providers, by the module that defines it: they load on first use, so
# looking a provider up (`names()`, `get()`) loads neither imaging glue nor asyncio.
_LAZY = {
    "Violation": "mediaparts.providers._check",
    "anormalize": "mediaparts.providers._normalize",
    "arender": "mediaparts.providers._render",
    "check": "mediaparts.providers._check",
    "estimate_tokens": "mediaparts.providers._count",
    "count_tokens": "mediaparts.providers._count",
    "TokenCount": "mediaparts.providers._count",
    "MessageTokens": "mediaparts.providers._count",
    "PartTokens": "mediaparts.providers._count",
    "Cost": "mediaparts.providers._pricing",
    "Price": "mediaparts.providers._pricing",
    "Prices": "mediaparts.providers._pricing",
    "cost": "mediaparts.providers._pricing",
    "message_from_response": "mediaparts.providers._read",
    "messages_from": "mediaparts.providers._read",
    "sdk_kwargs": "mediaparts.providers._sending",
    "OnLoss": "mediaparts.providers._render",
    "Options": "mediaparts.providers._options",
    "ForeignReasoning": "mediaparts.providers._render",
    "normalize": "mediaparts.providers._normalize",
    "normalize_many": "mediaparts.providers._normalize",
    "render": "mediaparts.providers._render",
    "trim": "mediaparts.providers._trim",
    "BatchWriter": "mediaparts.providers._batch",
    "batch_line": "mediaparts.providers._batch",
    "BatchError": "mediaparts.providers._batch_types",
    "BatchFile": "mediaparts.providers._batch_types",
    "BatchResult": "mediaparts.providers._batch_types",
    "read_batch_results": "mediaparts.providers._batch_read",
    "write_batch": "mediaparts.providers._batch_write",
    "PartUploader": "mediaparts.providers._uploads",
    "RenderUrls": "mediaparts.providers._uploads",
}


# Old names that still resolve, with a DeprecationWarning (the kind "document" became "file";
# a provider module became a wire plus a `Provider` record).
_RENAMED = {"DocumentRules": "FileRules", "ProviderModule": "Wire"}

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY, globals(), _RENAMED)

__all__ = [
    "AnthropicPatches",
    "BatchError",
    "BatchFile",
    "BatchResult",
    "BatchWriter",
    "Cost",
    "CostsTable",
    "FileApi",
    "FileRules",
    "FileStoreRules",
    "ForeignReasoning",
    "GeminiMediaResolution",
    "GeminiTiles",
    "ImageRules",
    "KindRules",
    "MediaCosts",
    "MessageTokens",
    "ModelRule",
    "NormalizedPart",
    "OnLoss",
    "OpenAIPatches",
    "OpenAITiles",
    "Options",
    "PartTokens",
    "PartUploader",
    "PatchBudget",
    "Prepare",
    "Price",
    "Prices",
    "Problems",
    "Provider",
    "RenderUrls",
    "Rules",
    "Served",
    "Site",
    "Stored",
    "TextRule",
    "TextTable",
    "TokenCount",
    "Undocumented",
    "UploadRequest",
    "Violation",
    "VisionGeometry",
    "VisionTable",
    "Where",
    "Wire",
    "anormalize",
    "arender",
    "batch_line",
    "check",
    "cost",
    "count_tokens",
    "estimate_tokens",
    "get",
    "message_from_response",
    "messages_from",
    "names",
    "normalize",
    "normalize_many",
    "payload_bytes",
    "read_batch_results",
    "register",
    "registered",
    "render",
    "sdk_kwargs",
    "trim",
    "unregister",
    "url_text_site",
    "wires",
    "write_batch",
]

_publish(__name__, globals(), __all__)
