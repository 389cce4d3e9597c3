"""Anthropic: the provider record (`PROVIDER`) and its rules (`RULES`).

Each value of its rules is sourced and dated in `_tables`; it speaks the wire
`mediaparts.providers.wires.messages`.
"""

from mediaparts.providers import _record
from mediaparts.providers.anthropic import _batch, _files, _tables
from mediaparts.providers.anthropic._tables import FILES_BETA

PROVIDER = _record.built_in(_tables.RULES, "anthropic", _files.FILES, _batch)
RULES = PROVIDER.rules

__getattr__ = _record.former_names(__name__, "anthropic", lambda: PROVIDER)

__all__ = ["FILES_BETA", "PROVIDER", "RULES"]
