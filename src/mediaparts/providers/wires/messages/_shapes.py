"""What the reader and the renderer of this wire agree on: the API's names, no provider's."""

from __future__ import annotations

from collections.abc import Mapping

from mediaparts._conversation._messages import StopReason

__all__ = ["STOP_REASONS"]

# The StopReason Literal of anthropic-sdk-python 2.12, types/stop_reason.py (read 2026-11).
# `model_context_window_exceeded` ends the output for lack of room, as `max_tokens` does;
# `pause_turn` (a long server-tool turn, to be continued) has no common meaning.
STOP_REASONS: Mapping[str, StopReason] = {
    "end_turn": "end",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "tool_use": "tool_call",
    "pause_turn": "other",
    "refusal": "refusal",
    "model_context_window_exceeded": "max_tokens",
}
