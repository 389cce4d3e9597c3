"""Bedrock: the provider record — the `bedrock` wire with its rules, file store and batch.

What it accepts and why (each value with source and date) is in `_tables`; the API shape it
speaks is the wire `mediaparts.providers.wires.converse` (see its docstring for the hints it
keeps under `native`).
"""

from mediaparts.providers import _record
from mediaparts.providers.bedrock._batch import batch_request, batch_result
from mediaparts.providers.bedrock._files import FILES
from mediaparts.providers.bedrock._tables import (
    COSTS,
    COSTS_SOURCE,
    FILE_STORE,
    RULES,
    TEXT,
    TEXT_SOURCE,
    VALID_NAME,
    VISION,
    VISION_SOURCE,
)

PROVIDER = _record.Provider(
    RULES.provider,
    RULES,
    "bedrock",
    files=FILES,
    batch_request=batch_request,
    batch_result=batch_result,
)

__getattr__ = _record.moved_to_wire(__name__, "bedrock", lambda: PROVIDER)

__all__ = [
    "COSTS",
    "COSTS_SOURCE",
    "FILES",
    "FILE_STORE",
    "PROVIDER",
    "RULES",
    "TEXT",
    "TEXT_SOURCE",
    "VALID_NAME",
    "VISION",
    "VISION_SOURCE",
    "batch_request",
    "batch_result",
]
