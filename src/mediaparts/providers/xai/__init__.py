"""xAI (Grok) on Chat Completions: the provider record (`PROVIDER`) and its rules (`RULES`).

xAI serves Chat Completions and the Responses API at `https://api.x.ai/v1`; this record speaks
the wire `mediaparts.providers.wires.chat_completions` (its default), and `xai-responses`
(`mediaparts.providers.xai_responses`) the Responses API with the same image rules. Each value
is sourced and dated in `_tables`.
"""

from mediaparts.providers import _record
from mediaparts.providers.xai import _tables

# No file store or batch envelope here: xAI documents files as Responses `input_file`
# attachments (`xai-responses`), and its batch API is not modelled (docs.x.ai, read 2026-12).
PROVIDER = _record.Provider(_tables.PROVIDER, _tables.RULES, "openai", quirks=_tables.QUIRKS)
RULES = PROVIDER.rules

__all__ = ["PROVIDER", "RULES"]
