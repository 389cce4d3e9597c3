"""DeepSeek: the provider record (`PROVIDER`) and its rules (`RULES`), by model.

It speaks the wire `mediaparts.providers.wires.chat_completions` at
`https://api.deepseek.com`; its `rules.models` table says which models take no images
(`mp.providers.get("deepseek", model=...)`). Each value is sourced and dated in `_tables`.
"""

from mediaparts.providers import _record
from mediaparts.providers.deepseek import _tables

# No file store or batch envelope here: how Chat Completions references an image uploaded to
# DeepSeek's Files API is not on the pages read, and DeepSeek has no batch API (read 2026-12).
PROVIDER = _record.Provider(_tables.PROVIDER, _tables.RULES, "openai", quirks=_tables.QUIRKS)
RULES = PROVIDER.rules

__all__ = ["PROVIDER", "RULES"]
