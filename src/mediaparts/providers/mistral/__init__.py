"""Mistral: the provider record (`PROVIDER`) and its rules (`RULES`).

Each value of its rules is sourced and dated in `_tables`; it speaks the Chat Completions wire
`mediaparts.providers.wires.chat_completions`, with quirks for what it takes instead of the
openai SDK's shapes: four roles, no `developer` (`roles`); no message names
(`message_names`); its reasoning goes back as thinking chunks (`thinking_chunks`); no
refusal field (`refusal_as_text`); `image_url` may be a bare string
(`image_url_string`); audio is a bare string of base64 or a URL (`audio_string`); documents
go as `document_url` chunks and stored files as `file` chunks by id (`document_url`).
"""

from mediaparts.providers import _record
from mediaparts.providers.mistral import _batch, _files, _tables

PROVIDER = _record.Provider(
    _tables.PROVIDER,
    _tables.RULES,
    "openai",
    files=_files.FILES,
    batch_request=_batch.batch_request,
    batch_result=_batch.batch_result,
    quirks={
        "roles": _tables.ROLES,
        "message_names": False,
        "thinking_chunks": True,
        "refusal_as_text": True,
        "image_url_string": True,
        "audio_string": True,
        "document_url": True,
    },
)
RULES = PROVIDER.rules

__all__ = ["PROVIDER", "RULES"]
