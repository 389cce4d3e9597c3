"""Anthropic: the provider record — the `anthropic` wire with its rules, file store and batch.

What it accepts and why (each value with source and date) is in `_tables`; the API shape it
speaks is the wire `mediaparts.providers.wires.messages` (see its docstring for the hints it
keeps under `native`).
"""

from mediaparts.providers import _record
from mediaparts.providers.anthropic._batch import batch_request, batch_result
from mediaparts.providers.anthropic._files import FILES
from mediaparts.providers.anthropic._tables import (
    COSTS,
    COSTS_SOURCE,
    FILE_STORE,
    FILES_BETA,
    RULES,
    TEXT,
    TEXT_SOURCE,
    VISION,
    VISION_SOURCE,
)

PROVIDER = _record.Provider(
    RULES.provider,
    RULES,
    "anthropic",
    files=FILES,
    batch_request=batch_request,
    batch_result=batch_result,
)

__getattr__ = _record.moved_to_wire(__name__, "anthropic", lambda: PROVIDER)

__all__ = [
    "COSTS",
    "COSTS_SOURCE",
    "FILES",
    "FILES_BETA",
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
