"""xAI on the Responses API as data: Chat Completions' rules (`xai._tables`) where xAI's
pages cover both, and its documents by URL."""

from __future__ import annotations

import dataclasses

from mediaparts.providers import xai
from mediaparts.providers._budgets._media_rates import MediaRates, RatesTable
from mediaparts.providers._budgets._vision import ModelRule

__all__ = ["COSTS", "PROVIDER", "RULES"]

PROVIDER = "xai-responses"

_FILES = "docs.x.ai/developers/model-capabilities/files/chat-with-files (read 2026-12)"

# No PDF token rate either (documents are searched by the `attachment_search` tool, billed
# per call: models page, read 2026-12); no audio or video input.
COSTS: RatesTable = (
    ModelRule("*", MediaRates("xAI Responses", not_accepted=frozenset({"audio", "video"}))),
)

# The image understanding page shows the Responses shape (`input_image` with `image_url` and
# `detail`) and its limits hold for both APIs (read 2026-12): the images are Chat
# Completions' (`xai.RULES.image`). What differs:
RULES = dataclasses.replace(
    xai.RULES,
    provider=PROVIDER,
    costs=COSTS,
    costs_source=f"{_FILES}; docs.x.ai/developers/models: no media token rates",
    # Documents: `{"type": "input_file", "file_url": ...}` or `"file_id"` of an upload; xAI
    # fetches the URL and answers through its `attachment_search` tool ("When files are
    # attached, the system automatically enables document search"; chat-with-files, read
    # 2026-12). The page's examples attach PDF and .txt files and list no types; inline
    # `file_data` is not documented for the REST API (xai-sdk's gRPC `file(data=...)` has
    # it), so documents go by URL only. The Files API (up to 50 MB, `purpose="assistants"`;
    # docs.x.ai/developers/rest-api-reference/files/upload, read 2026-12) is not wired here:
    # uploads are made from parts sent inline, and none are.
    file=dataclasses.replace(
        xai.RULES.file,
        url_types=("application/pdf",),
        source=_FILES,
    ),
)
