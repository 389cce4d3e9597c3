"""OpenAI Responses: the provider record — its wire, rules, file store and batch.

`PROVIDER` is the record (`mp.providers.get('openai-responses')`), `RULES` its rules. What it
accepts and why (each value with source and date) is in `_tables`; the API shape it speaks
is the wire `mediaparts.providers.wires.responses` (its docstring lists the hints it keeps
under `native`). The tables this package exported before (`VISION`, `COSTS`, `TEXT`, `FILES`, ...)
still resolve, with a `DeprecationWarning` naming their place on the record.
"""

from mediaparts.providers import _record, openai
from mediaparts.providers.openai_responses import _batch, _files, _tables

PROVIDER = _record.Provider(
    _tables.RULES.provider,
    _tables.RULES,
    "openai-responses",
    files=_files.FILES,
    batch_request=_batch.batch_request,
    batch_result=_batch.batch_result,
    quirks=openai.PROVIDER.quirks,  # the same models take cache breakpoints
)
RULES = PROVIDER.rules

__getattr__ = _record.moved_to_wire(__name__, "openai-responses", lambda: PROVIDER)

__all__ = ["PROVIDER", "RULES"]
