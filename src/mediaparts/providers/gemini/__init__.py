"""Gemini: the provider record — the `gemini` wire with its rules, file store and batch.

What it accepts and why (each value with source and date) is in `_tables`; the API shape it
speaks is the wire `mediaparts.providers.wires.generate_content` (see its docstring for the hints it
keeps under `native`).
"""

from mediaparts.providers import _record
from mediaparts.providers.gemini import _tables
from mediaparts.providers.gemini._batch import batch_request, batch_result
from mediaparts.providers.gemini._files import FILES
from mediaparts.providers.gemini._tables import (
    COSTS,
    COSTS_SOURCE,
    FILE_STORE,
    RULES,
    TEXT,
    TEXT_SOURCE,
    VISION,
    VISION_SOURCE,
)

PROVIDER = _record.Provider(
    RULES.provider,
    RULES,
    "gemini",
    files=FILES,
    batch_request=batch_request,
    batch_result=batch_result,
    quirks={"older_models": _tables.OLDER_MODELS},
)

__getattr__ = _record.moved_to_wire(__name__, "gemini", lambda: PROVIDER)

__all__ = [
    "COSTS",
    "COSTS_SOURCE",
    "FILES",
    "FILE_STORE",
    "PROVIDER",
    "RULES",
    "TEXT",
    "TEXT_SOURCE",
    "VISION",
    "VISION_SOURCE",
    "batch_request",
    "batch_result",
]
