"""Azure OpenAI on the Responses API: the provider record (`PROVIDER`) and its rules (`RULES`).

The same resource as `azure-openai` (its store, limits and deployments), on the wire
`mediaparts.providers.wires.responses`; its rules are sourced and dated in `_tables`.
"""

from mediaparts.providers import _record
from mediaparts.providers.azure_openai_responses import _batch, _files, _tables

PROVIDER = _record.built_in(_tables.RULES, "openai-responses", _files.FILES, _batch)
RULES = PROVIDER.rules

__all__ = ["PROVIDER", "RULES"]
