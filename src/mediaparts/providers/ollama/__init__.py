"""Ollama's OpenAI-compatible endpoint: the provider record (`PROVIDER`) and its rules.

It speaks the wire `mediaparts.providers.wires.chat_completions` at
`http://localhost:11434/v1/`. The model decides what is taken: its `rules.models` table lists
the common vision models and text models (`mp.providers.get("ollama", model=...)`), and
`with_rules` changes them for a model of one's own. Each value is sourced and dated in
`_tables`. (Ollama's native `/api/chat`, whose messages carry `images`, is another shape and
is not rendered.)
"""

from mediaparts.providers import _record
from mediaparts.providers.ollama import _tables

# A local server: no file store, no batch API (docs/api/openai-compatibility.mdx, read 2026-12).
PROVIDER = _record.Provider(_tables.PROVIDER, _tables.RULES, "openai", quirks=_tables.QUIRKS)
RULES = PROVIDER.rules

__all__ = ["PROVIDER", "RULES"]
