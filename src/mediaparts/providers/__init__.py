"""Providers: each API's media rules as data, and how to render messages for it.

import mediaparts as mp

mp.providers.names()                      # ('anthropic', 'bedrock', 'gemini', ...)
claude = mp.providers.get("anthropic")
claude.rules.image.max_bytes              # 10485760, measured on the base64 text
tight = claude.with_rules(image_max_bytes=5 * 2**20)    # Claude on Bedrock and Vertex AI's

A provider is a wire (the API shape it speaks: `mediaparts.providers.wires`) plus data: its
rules, file store, batch envelope and quirks (`Provider`). The built-in ones are listed in
`_registry._BUILT_IN` and imported on first use; `register(name, wire=..., rules=...)` adds
another, which then works everywhere a built-in one does. The generic operations
(`normalize`, `render`, `check`, `estimate_tokens`, `trim`, ...) are exported here too;
`mediaparts` re-exports them.

For a wire written outside this package: `Wire` and the types of its members' arguments
(`Prepare` for `render`, `Served` for the readers, `Where` and `Problems` for `media_site`),
`Site` and the two site helpers `payload_bytes` and `url_text_site`, and the rule and table
types. Its `render` is its own: the helpers the built-in wires share (`_wire/_rendering`) are
not exported, as they change with the built-in wires' needs. A provider with a file store
gives `files=`, a `FileApi` (its `FileStoreRules` and the calls that store an
`UploadRequest` and answer `Stored`); `render(..., urls="upload")` takes any `PartUploader`.
"""

from __future__ import annotations

import typing as _typing

from mediaparts._lazy import lazy_exports as _lazy_exports
from mediaparts._lazy import publish as _publish
from mediaparts.providers import wires
from mediaparts.providers._budgets._media_rates import MediaRates, RatesTable
from mediaparts.providers._budgets._text import TextRule, TextTable
from mediaparts.providers._budgets._vision import (
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
from mediaparts.providers._files import FileApi, FileStoreRules, Stored, UploadRequest
from mediaparts.providers._fitting._normalized import NormalizedPart
from mediaparts.providers._model_rules import ModelRules
from mediaparts.providers._registry import (
    Provider,
    get,
    names,
    register,
    registered,
    unregister,
)
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._wire._deltas import Delta
from mediaparts.providers._wire._media_sites import (
    Problems,
    Site,
    Where,
    payload_bytes,
    url_text_site,
)
from mediaparts.providers._wire._protocol import Prepare, Served, Wire
from mediaparts.providers._wire._streaming import Fragments, StreamState

if _typing.TYPE_CHECKING:  # loaded on first use (below); type checkers see plain imports
    from mediaparts.providers._batching._lines import BatchWriter, batch_line
    from mediaparts.providers._batching._results import read_batch_results
    from mediaparts.providers._batching._types import BatchError, BatchFile, BatchResult
    from mediaparts.providers._batching._write import write_batch
    from mediaparts.providers._budgets._count import (
        MessageTokens,
        PartTokens,
        TokenCount,
        count_tokens,
        estimate_tokens,
    )
    from mediaparts.providers._budgets._pricing import Cost, Price, Prices, cost
    from mediaparts.providers._budgets._trim import trim
    from mediaparts.providers._check import Violation, check
    from mediaparts.providers._fitting._normalize import anormalize, normalize, normalize_many
    from mediaparts.providers._fitting._uploads import PartUploader, RenderUrls
    from mediaparts.providers._options import Options
    from mediaparts.providers._read import message_from_response, messages_from
    from mediaparts.providers._render import ForeignReasoning, OnLoss, arender, render
    from mediaparts.providers._sending import sdk_kwargs
    from mediaparts.providers._stream import (
        StreamReader,
        amessage_from_stream,
        message_from_stream,
    )

# The operations over providers, by the module that defines it: they load on first use, so
# looking a provider up (`names()`, `get()`) loads neither imaging glue nor asyncio.
_LAZY = {
    "Violation": "mediaparts.providers._check",
    "anormalize": "mediaparts.providers._fitting._normalize",
    "arender": "mediaparts.providers._render",
    "check": "mediaparts.providers._check",
    "estimate_tokens": "mediaparts.providers._budgets._count",
    "count_tokens": "mediaparts.providers._budgets._count",
    "TokenCount": "mediaparts.providers._budgets._count",
    "MessageTokens": "mediaparts.providers._budgets._count",
    "PartTokens": "mediaparts.providers._budgets._count",
    "Cost": "mediaparts.providers._budgets._pricing",
    "Price": "mediaparts.providers._budgets._pricing",
    "Prices": "mediaparts.providers._budgets._pricing",
    "cost": "mediaparts.providers._budgets._pricing",
    "message_from_response": "mediaparts.providers._read",
    "messages_from": "mediaparts.providers._read",
    "sdk_kwargs": "mediaparts.providers._sending",
    "StreamReader": "mediaparts.providers._stream",
    "message_from_stream": "mediaparts.providers._stream",
    "amessage_from_stream": "mediaparts.providers._stream",
    "OnLoss": "mediaparts.providers._render",
    "Options": "mediaparts.providers._options",
    "ForeignReasoning": "mediaparts.providers._render",
    "normalize": "mediaparts.providers._fitting._normalize",
    "normalize_many": "mediaparts.providers._fitting._normalize",
    "render": "mediaparts.providers._render",
    "trim": "mediaparts.providers._budgets._trim",
    "BatchWriter": "mediaparts.providers._batching._lines",
    "batch_line": "mediaparts.providers._batching._lines",
    "BatchError": "mediaparts.providers._batching._types",
    "BatchFile": "mediaparts.providers._batching._types",
    "BatchResult": "mediaparts.providers._batching._types",
    "read_batch_results": "mediaparts.providers._batching._results",
    "write_batch": "mediaparts.providers._batching._write",
    "PartUploader": "mediaparts.providers._fitting._uploads",
    "RenderUrls": "mediaparts.providers._fitting._uploads",
}


# Old names that still resolve, with a DeprecationWarning (the kind "document" became "file";
# a provider module became a wire plus a `Provider` record).
_RENAMED = {
    "DocumentRules": "FileRules",
    "ProviderModule": "Wire",
    "MediaCosts": "MediaRates",
    "CostsTable": "RatesTable",
}

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY, globals(), _RENAMED)

__all__ = [
    "AnthropicPatches",
    "BatchError",
    "BatchFile",
    "BatchResult",
    "BatchWriter",
    "Cost",
    "Delta",
    "FileApi",
    "FileRules",
    "FileStoreRules",
    "ForeignReasoning",
    "Fragments",
    "GeminiMediaResolution",
    "GeminiTiles",
    "ImageRules",
    "KindRules",
    "MediaRates",
    "MessageTokens",
    "ModelRule",
    "ModelRules",
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
    "RatesTable",
    "RenderUrls",
    "Rules",
    "Served",
    "Site",
    "Stored",
    "StreamReader",
    "StreamState",
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
    "amessage_from_stream",
    "anormalize",
    "arender",
    "batch_line",
    "check",
    "cost",
    "count_tokens",
    "estimate_tokens",
    "get",
    "message_from_response",
    "message_from_stream",
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
