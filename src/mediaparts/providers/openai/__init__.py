"""OpenAI: the provider record — the `openai` wire with its rules, file store and batch.

What it accepts and why (each value with source and date) is in `_tables`; the API shape it
speaks is the wire `mediaparts.providers.wires.chat_completions` (see its docstring for the hints it
keeps under `native`).

Internal export, for `openai_responses` (not in `__all__`, no compatibility promise):
`batch_writer` (the Batch API envelope of one endpoint) and `BREAKPOINT_MODELS` (the models
that take `prompt_cache_breakpoint`, the `breakpoint_models` quirk of both records).
"""

from mediaparts.providers import _record
from mediaparts.providers.openai._batch import batch_request, batch_result
from mediaparts.providers.openai._batch import batch_writer as batch_writer
from mediaparts.providers.openai._files import FILES
from mediaparts.providers.openai._tables import BREAKPOINT_MODELS as BREAKPOINT_MODELS
from mediaparts.providers.openai._tables import (
    COSTS,
    COSTS_SOURCE,
    FILE_STORE,
    OFFICE_TYPES,
    RULES,
    TEXT,
    TEXT_SOURCE,
    VISION,
    VISION_SOURCE,
)

PROVIDER = _record.Provider(
    RULES.provider,
    RULES,
    "openai",
    files=FILES,
    batch_request=batch_request,
    batch_result=batch_result,
    quirks={"breakpoint_models": BREAKPOINT_MODELS},
)

__getattr__ = _record.moved_to_wire(__name__, "openai", lambda: PROVIDER)

__all__ = [
    "COSTS",
    "COSTS_SOURCE",
    "FILES",
    "FILE_STORE",
    "OFFICE_TYPES",
    "PROVIDER",
    "RULES",
    "TEXT",
    "TEXT_SOURCE",
    "VISION",
    "VISION_SOURCE",
    "batch_request",
    "batch_result",
]
