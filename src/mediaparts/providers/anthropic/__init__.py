"""Anthropic: the provider record — the `anthropic` wire with its rules, file store and batch.

`PROVIDER` is the record (`mp.providers.get('anthropic')`), `RULES` its rules. What it accepts
and why (each value with source and date) is in `_tables`; the API shape it speaks is the wire
`mediaparts.providers.wires.messages` (its docstring lists the hints it keeps under
`native`). The tables this package exported before (`VISION`, `COSTS`, `TEXT`, `FILES`, ...)
still resolve, with a `DeprecationWarning` naming their place on the record.
"""

from mediaparts.providers import _record
from mediaparts.providers.anthropic import _batch, _files, _tables
from mediaparts.providers.anthropic._tables import FILES_BETA

PROVIDER = _record.Provider(
    _tables.RULES.provider,
    _tables.RULES,
    "anthropic",
    files=_files.FILES,
    batch_request=_batch.batch_request,
    batch_result=_batch.batch_result,
)
RULES = PROVIDER.rules

__getattr__ = _record.moved_to_wire(__name__, "anthropic", lambda: PROVIDER)

__all__ = ["FILES_BETA", "PROVIDER", "RULES"]
