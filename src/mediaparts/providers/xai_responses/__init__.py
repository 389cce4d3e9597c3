"""xAI (Grok) on the Responses API: the provider record (`PROVIDER`) and its rules (`RULES`).

The second name of xAI (`xai` speaks Chat Completions, its default): the same image rules
(`xai._tables`), plus documents by URL (`input_file`), on the wire
`mediaparts.providers.wires.responses`. Each value is sourced and dated in `_tables`.
"""

from mediaparts.providers import _record
from mediaparts.providers.xai_responses import _tables

PROVIDER = _record.Provider(_tables.PROVIDER, _tables.RULES, "openai-responses")
RULES = PROVIDER.rules

__all__ = ["PROVIDER", "RULES"]
