"""OpenRouter: the provider record (`PROVIDER`) and its rules (`RULES`).

Chat Completions to many vendors' models (`openai/gpt-4o`, `anthropic/claude-sonnet-4.5`, ...),
on the wire `mediaparts.providers.wires.chat_completions`, with the `file_urls` quirk (a PDF
by URL goes in the `file` part's `file_data`). What a model takes differently, and the vendor
tables that size and count it, are keyed by its vendor-prefixed name (`_tables`): pass
`model=`, and `mp.providers.get("openrouter").for_model(model).label` says which rules apply.
No file store, no batch API.
"""

from mediaparts.providers import _record
from mediaparts.providers.openrouter import _tables
from mediaparts.providers.wires import chat_completions

PROVIDER = _record.Provider(
    _tables.PROVIDER, _tables.RULES, "openai", quirks={chat_completions.FILE_URLS: True}
)
RULES = PROVIDER.rules

__all__ = ["PROVIDER", "RULES"]
