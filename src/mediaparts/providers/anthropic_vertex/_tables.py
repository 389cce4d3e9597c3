"""Claude on Vertex AI: the Messages API's rules as Google Cloud serves them, with sources.

The first-party rules (`mediaparts.providers.anthropic`) with what this route changes
(`anthropic.on_cloud`: base64 sources only, 5 MB of base64 an image) and what is its own below.
"""

from __future__ import annotations

from mediaparts.providers import anthropic

__all__ = ["ANTHROPIC_VERSION", "PROVIDER", "RULES"]


def _spell(pattern: str) -> str:
    """Return one of Anthropic's model patterns as Vertex AI spells its ids: the same names,
    the date after an `@` (`claude-sonnet-4-5@20250929`, `claude-3-5-sonnet-v2@20241022`;
    platform.claude.com/docs/en/build-with-claude/claude-on-vertex-ai, read 2026-12), so every
    pattern (`claude-sonnet-4-6*`) matches them as it is; a path
    (`publishers/anthropic/models/<id>`) is read after its last `/`."""
    return pattern


RULES = anthropic.on_cloud(
    "anthropic-vertex",
    _spell,
    ids_source="platform.claude.com/docs/en/build-with-claude/claude-on-vertex-ai (read 2026-12)",
    # "Amazon Bedrock allows 20 MB and Google Cloud 30 MB" (Anthropic API overview, request
    # size limits; docs/providers.md "Re-read 2026-12"): 10^6-byte MB, the smaller reading.
    max_request_bytes=30_000_000,
    # Its provider id in genai-prices' data: Claude on Google Cloud is priced under `google`
    # (genai_prices/data.py 0.2.5, read 2026-12).
    prices_id="google",
    # Vertex AI's batch prediction for Claude documents no requests or bytes an input file
    # (only "the number of concurrent batch requests ... is 4"; docs.cloud.google.com/
    # vertex-ai/generative-ai/docs/partner-models/claude/batch, read 2026-12).
    batch_source="docs.cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/batch"
    " (read 2026-12): no limit a file documented",
    source="Anthropic API overview, request size limits (read 2026-12); platform.claude.com/"
    "docs/en/build-with-claude/vision (read 2026-12)",
)

# The provider's name, as every module of this package writes it.
PROVIDER = RULES.provider

# "In Vertex, anthropic_version is passed in the request body (rather than as a header), and
# must be set to the value vertex-2023-10-16" (claude-on-vertex-ai, read 2026-12). The SDK's
# `AnthropicVertex` client writes it into every call itself, so `render` does not; a batch
# line, which no client sends, carries it (`_batch`).
ANTHROPIC_VERSION = "vertex-2023-10-16"
