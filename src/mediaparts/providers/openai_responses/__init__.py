"""OpenAI Responses: the provider record (`PROVIDER`) and its rules (`RULES`).

Each value of its rules is sourced and dated in `_tables`; it speaks the wire
`mediaparts.providers.wires.responses`.
"""

from mediaparts.providers import _record, openai
from mediaparts.providers.openai_responses import _batch, _files, _tables

PROVIDER = _record.built_in(
    _tables.RULES, "openai-responses", _files.FILES, _batch, **openai.PROVIDER.quirks
)
RULES = PROVIDER.rules

__getattr__ = _record.former_names(__name__, "openai-responses", lambda: PROVIDER)

__all__ = ["PROVIDER", "RULES"]
