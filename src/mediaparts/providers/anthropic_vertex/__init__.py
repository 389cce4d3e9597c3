"""Claude on Vertex AI: the provider record (`PROVIDER`) and its rules (`RULES`).

It speaks the wire `mediaparts.providers.wires.messages`, as `anthropic` does, with the rules
of Google Cloud's route (`_tables`, each value sourced and dated): base64 sources only (a URL
is fetched and inlined by `render`; a Files API id is refused: `file_sources` quirk), 5 MB of
base64 an image, 30 MB a request, its model ids (`claude-sonnet-4-5@20250929`). No file store;
batch lines for Vertex AI's batch prediction (`_batch`). Sending:
`anthropic.AnthropicVertex(region=..., project_id=...).messages.create(model=...,
max_tokens=..., **payload)`.
"""

from mediaparts.providers import _record
from mediaparts.providers.anthropic_vertex import _batch, _tables

PROVIDER = _record.Provider(
    _tables.PROVIDER,
    _tables.RULES,
    "anthropic",
    batch_request=_batch.batch_request,
    batch_result=_batch.batch_result,
    quirks={"file_sources": False},
)
RULES = PROVIDER.rules

__all__ = ["PROVIDER", "RULES"]
