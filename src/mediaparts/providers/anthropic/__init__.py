"""Anthropic: the provider record (`PROVIDER`) and its rules (`RULES`).

Each value of its rules is sourced and dated in `_tables`; it speaks the wire
`mediaparts.providers.wires.messages`. These are the first-party API's rules: URL sources and
Files API ids are taken.

Internal exports, for `anthropic_vertex` and `anthropic_bedrock` (not in `__all__`):
`on_cloud`, the Messages API's rules as a cloud serves them (its model tables in the route's
model ids), and `batch_body`, the Messages body of one of their batch lines.
"""

from mediaparts.providers import _record
from mediaparts.providers.anthropic import _batch, _files, _tables
from mediaparts.providers.anthropic._clouds import batch_body as batch_body
from mediaparts.providers.anthropic._clouds import on_cloud as on_cloud
from mediaparts.providers.anthropic._tables import FILES_BETA

PROVIDER = _record.built_in(_tables.RULES, "anthropic", _files.FILES, _batch)
RULES = PROVIDER.rules

__getattr__ = _record.former_names(__name__, "anthropic", lambda: PROVIDER)

__all__ = ["FILES_BETA", "PROVIDER", "RULES"]
