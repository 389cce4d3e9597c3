"""Gemini: the provider record (`PROVIDER`) and its rules (`RULES`).

Each value of its rules is sourced and dated in `_tables`; it speaks the wire
`mediaparts.providers.wires.generate_content`.
"""

from mediaparts.providers import _record
from mediaparts.providers.gemini import _batch, _files, _tables

PROVIDER = _record.built_in(
    _tables.RULES, "gemini", _files.FILES, _batch, older_models=_tables.OLDER_MODELS
)
RULES = PROVIDER.rules

__getattr__ = _record.former_names(__name__, "gemini", lambda: PROVIDER)

__all__ = ["PROVIDER", "RULES"]
