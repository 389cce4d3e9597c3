"""Claude on Amazon Bedrock: the provider record (`PROVIDER`) and its rules (`RULES`).

It speaks the wire `mediaparts.providers.wires.messages`, as `anthropic` does, with the rules
of Bedrock's route (`_tables`, each value sourced and dated): base64 sources only (a URL is
fetched and inlined by `render`; a Files API id is refused: `file_sources` quirk), 5 MB of
base64 an image, 20 MB a request, its model ids (`anthropic.claude-sonnet-4-5-20250929-v1:0`,
`us.anthropic...`). No file store; batch records for Bedrock's batch inference (`_batch`).
Sending: `anthropic.AnthropicBedrock(aws_region=...).messages.create(model=...,
max_tokens=..., **payload)`.
"""

from mediaparts.providers import _record
from mediaparts.providers.anthropic_bedrock import _batch, _tables

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
