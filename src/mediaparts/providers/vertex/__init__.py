"""Gemini on Vertex AI: the provider record (`PROVIDER`) and its rules (`RULES`).

It speaks the wire `mediaparts.providers.wires.generate_content`, as the Gemini API does, with
Vertex AI's limits (`_tables`, each value sourced and dated) and its file store: Cloud Storage,
whose objects go by reference (`file_id="gs://bucket/key"`, `file_provider="vertex"`) as
`fileData.fileUri`; the Gemini API's Files API ids are refused. It has no file API of its own
here (uploading to Cloud Storage is the caller's) and writes no batch files. Sending:
`genai.Client(vertexai=True, project=..., location=...).models.generate_content(model=...,
**mp.sdk_kwargs(payload, "vertex"))`.
"""

from mediaparts.providers import _record, gemini
from mediaparts.providers.vertex import _tables

PROVIDER = _record.Provider(
    _tables.PROVIDER,
    _tables.RULES,
    "gemini",
    quirks={**gemini.PROVIDER.quirks, "file_uris": _tables.FILE_URIS},
)
RULES = PROVIDER.rules

__all__ = ["PROVIDER", "RULES"]
