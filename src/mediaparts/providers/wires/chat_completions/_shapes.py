"""What the reader and the renderer of Chat Completions agree on: names, tables, defaults."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, TypeAlias

from mediaparts._conversation._messages import StopReason

__all__ = [
    "AUDIO_FORMATS",
    "STOP_REASONS",
    "Shape",
    "default_shape",
]

Shape: TypeAlias = Literal["string", "list", "null", "absent"]
"""How a message's `content` was written: text, a list of parts, `null`, or left out."""

# `input_audio.format` (openai-python chat_completion_content_part_input_audio_param.py,
# read 2026-11).
AUDIO_FORMATS = {"audio/wav": "wav", "audio/mpeg": "mp3"}

# `Choice.finish_reason` (openai-python chat/chat_completion.py, read 2026-11): "stop" is both a
# natural stop and a stop sequence, which the API does not tell apart.
STOP_REASONS: Mapping[str, StopReason] = {
    "stop": "end",
    "length": "max_tokens",
    "tool_calls": "tool_call",
    "function_call": "tool_call",
    "content_filter": "content_filter",
}


def default_shape(role: str, plain: Sequence[bool], other: bool) -> Shape:
    """Return how `render` writes a message's content unless a hint says otherwise.

    Args:
        role: The message's Chat Completions role.
        plain: For each content part, whether it is plain text (no cache, no hints).
        other: Whether an assistant message has more than content (calls, refusal, audio).
    """
    if role == "assistant" and not plain:
        return "null" if other else "string"
    return "string" if all(plain) else "list"
