"""OpenAI: the provider record — the `openai-responses` wire with its rules, file store and batch.

What it accepts and why (each value with source and date) is in `_tables`; the API shape it
speaks is the wire `mediaparts.providers.wires.responses` (see its docstring for the hints it
keeps under `native`).
"""

from mediaparts.providers import _record, openai
from mediaparts.providers.openai_responses._batch import batch_request, batch_result
from mediaparts.providers.openai_responses._files import FILES
from mediaparts.providers.openai_responses._tables import COSTS, FILE_STORE, RULES, TEXT

PROVIDER = _record.Provider(
    RULES.provider,
    RULES,
    "openai-responses",
    files=FILES,
    batch_request=batch_request,
    batch_result=batch_result,
    quirks=openai.PROVIDER.quirks,  # the same models take cache breakpoints
)

__getattr__ = _record.moved_to_wire(__name__, "openai-responses", lambda: PROVIDER)

__all__ = [
    "COSTS",
    "FILES",
    "FILE_STORE",
    "PROVIDER",
    "RULES",
    "TEXT",
    "batch_request",
    "batch_result",
]
