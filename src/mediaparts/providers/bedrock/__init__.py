"""Bedrock: the provider record (`PROVIDER`) and its rules (`RULES`).

Each value of its rules is sourced and dated in `_tables`; it speaks the wire
`mediaparts.providers.wires.converse`.
"""

from mediaparts.providers import _record
from mediaparts.providers.bedrock import _batch, _files, _tables

PROVIDER = _record.built_in(_tables.RULES, "bedrock", _files.FILES, _batch)
RULES = PROVIDER.rules

__getattr__ = _record.former_names(
    __name__,
    "bedrock",
    lambda: PROVIDER,
    {"VALID_NAME": "mediaparts.providers.wires.converse:VALID_NAME"},
)

__all__ = ["PROVIDER", "RULES"]
