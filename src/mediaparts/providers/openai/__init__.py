"""OpenAI Chat Completions: the provider record (`PROVIDER`) and its rules (`RULES`).

Each value of its rules is sourced and dated in `_tables`; it speaks the wire
`mediaparts.providers.wires.chat_completions`.

Internal exports, for `openai_responses` and the other providers on OpenAI's SDK (not in
`__all__`): `batch_writer`, the Batch API envelope of one endpoint, `create_file` and
`acreate_file`, an upload through the SDK's `files.create`, and `RESPONSES_OFFICE_TYPES`,
the Office documents the Responses API reads (Chat Completions takes PDF files only).
"""

from mediaparts.providers import _record
from mediaparts.providers.openai import _batch, _files, _tables
from mediaparts.providers.openai._batch import batch_writer as batch_writer
from mediaparts.providers.openai._files import acreate_file as acreate_file
from mediaparts.providers.openai._files import create_file as create_file
from mediaparts.providers.openai._tables import RESPONSES_OFFICE_TYPES as RESPONSES_OFFICE_TYPES

PROVIDER = _record.built_in(
    _tables.RULES, "openai", _files.FILES, _batch, breakpoint_models=_tables.BREAKPOINT_MODELS
)
RULES = PROVIDER.rules

__getattr__ = _record.former_names(
    __name__,
    "openai",
    lambda: PROVIDER,
    {"OFFICE_TYPES": "mediaparts.providers.openai:RESPONSES_OFFICE_TYPES"},
)

__all__ = ["PROVIDER", "RULES"]
