"""What the Responses reader and renderer agree on, that is the API's and no provider's."""

from __future__ import annotations

from collections.abc import Mapping

from mediaparts._conversation._messages import StopReason

__all__ = ["STOP_REASONS"]

# `Response.incomplete_details.reason`, else `Response.status` → our stop reasons
# (openai-python 3.54 responses/response.py and response_status.py, read 2026-11). A completed
# response that calls a function stops for the call, one that refuses for the refusal (the
# reader decides those from the output items).
STOP_REASONS: Mapping[str, StopReason] = {
    "completed": "end",
    "max_output_tokens": "max_tokens",
    "content_filter": "content_filter",
    "max_messages": "other",
    "steered": "other",
    "failed": "other",
    "cancelled": "other",
    "incomplete": "other",
    "in_progress": "other",
    "queued": "other",
}
