"""What the reader and the renderer of this wire agree on: the API's names, no provider's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mediaparts._conversation._messages import StopReason
from mediaparts._errors import InvalidConfig, excerpt
from mediaparts.providers._wire._rendering import Served

__all__ = ["FILE_SOURCES", "QUIRKS", "STOP_REASONS", "check_quirks", "reads_file_ids"]

# The quirk saying whether the API behind the provider reads Files API `file` sources (a
# `file_id`): the first-party API does; the Messages API as a cloud serves it may not. The
# provider's record sets it with its source.
FILE_SOURCES = "file_sources"
QUIRKS: Mapping[str, str] = {
    FILE_SOURCES: "False when the API reads no Files API `file` sources (file ids): render "
    "refuses a part given by file id and check flags a `file` source; absent or True: it "
    "reads them",
}


def check_quirks(name: str, quirks: Mapping[str, Any]) -> None:
    """Refuse a `file_sources` quirk that is not True or False.

    Raises:
        InvalidConfig: It is something else than a bool.
    """
    value = quirks.get(FILE_SOURCES, True)
    if not isinstance(value, bool):
        raise InvalidConfig(
            f"provider {excerpt(name)}: quirk {FILE_SOURCES} must be True or False, got "
            f"{excerpt(value)}"
        )


def reads_file_ids(served: Served) -> bool:
    """Tell whether the API behind the provider served reads `file` sources (file ids)."""
    return served.quirks.get(FILE_SOURCES, True) is not False


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
