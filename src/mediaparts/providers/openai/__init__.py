"""OpenAI Chat Completions: the provider record — its wire, rules, file store and batch.

`PROVIDER` is the record (`mp.providers.get('openai')`), `RULES` its rules. What it accepts
and why (each value with source and date) is in `_tables`; the API shape it speaks is the wire
`mediaparts.providers.wires.chat_completions` (its docstring lists the hints it keeps under
`native`). The tables this package exported before (`VISION`, `COSTS`, `TEXT`, `FILES`, ...)
still resolve, with a `DeprecationWarning` naming their place on the record.

Internal export, for `openai_responses` (not in `__all__`, no compatibility promise):
`batch_writer` (the Batch API envelope of one endpoint).
"""

from mediaparts.providers import _record
from mediaparts.providers.openai import _batch, _files, _tables
from mediaparts.providers.openai._batch import batch_writer as batch_writer

PROVIDER = _record.Provider(
    _tables.RULES.provider,
    _tables.RULES,
    "openai",
    files=_files.FILES,
    batch_request=_batch.batch_request,
    batch_result=_batch.batch_result,
    quirks={"breakpoint_models": _tables.BREAKPOINT_MODELS},
)
RULES = PROVIDER.rules

__getattr__ = _record.moved_to_wire(
    __name__,
    "openai",
    lambda: PROVIDER,
    {"OFFICE_TYPES": "mediaparts.providers.openai._tables:OFFICE_TYPES"},
)

__all__ = ["PROVIDER", "RULES"]
