"""Claude on Amazon Bedrock: the Messages API's rules as Bedrock serves them, with sources.

The first-party rules (`mediaparts.providers.anthropic`) with what this route changes
(`anthropic.on_cloud`: base64 sources only, 5 MB of base64 an image) and what is its own below.
This is Bedrock's `InvokeModel` with the Messages body (`anthropic.AnthropicBedrock`); Bedrock's
own Converse API is the provider `bedrock`.
"""

from __future__ import annotations

from mediaparts.providers import anthropic, bedrock

__all__ = ["ANTHROPIC_VERSION", "PROVIDER", "RULES"]


def _spell(pattern: str) -> str:
    """Return one of Anthropic's model patterns as Bedrock spells its ids: `anthropic.` before
    the name, and for a cross-region inference profile a geography before that
    (`anthropic.claude-sonnet-4-5-20250929-v1:0`, `us.anthropic.claude-...`,
    `global.anthropic.claude-opus-4-6-v1`; platform.claude.com/docs/en/build-with-claude/
    claude-on-amazon-bedrock, read 2026-12); an ARN is read after its last `/`."""
    return f"*anthropic.{pattern}"


_BEDROCK = bedrock.RULES

RULES = anthropic.on_cloud(
    "anthropic-bedrock",
    _spell,
    ids_source="platform.claude.com/docs/en/build-with-claude/claude-on-amazon-bedrock "
    "(read 2026-12)",
    # "Amazon Bedrock allows 20 MB and Google Cloud 30 MB" (Anthropic API overview, request
    # size limits; docs/providers.md "Re-read 2026-12"): 10^6-byte MB, the smaller reading.
    max_request_bytes=20_000_000,
    # Its provider id in genai-prices' data: Bedrock's model ids are priced under `aws`
    # (genai_prices/data.py 0.2.5, read 2026-12).
    prices_id="aws",
    # Batch inference quotas, as for Bedrock's other models: 50,000 records and 1 GB an input
    # file (`bedrock.RULES`, docs.aws.amazon.com/bedrock/latest/userguide/quotas.html).
    batch_max_requests=_BEDROCK.batch_max_requests,
    batch_max_bytes=_BEDROCK.batch_max_bytes,
    batch_source=_BEDROCK.batch_source,
    source="Anthropic API overview, request size limits (read 2026-12); platform.claude.com/"
    "docs/en/build-with-claude/vision (read 2026-12)",
)

# The provider's name, as every module of this package writes it.
PROVIDER = RULES.provider

# The Messages body on Bedrock carries "anthropic_version": "bedrock-2023-05-31" (the batch
# inference example, docs.aws.amazon.com/bedrock/latest/userguide/batch-inference-example.html,
# read 2026-12). The SDK's `AnthropicBedrock` client writes a version into every call itself,
# so `render` does not; a batch record, which no client sends, carries it (`_batch`).
ANTHROPIC_VERSION = "bedrock-2023-05-31"
