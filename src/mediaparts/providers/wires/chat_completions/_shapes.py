"""What the reader and the renderer of Chat Completions agree on: names, tables, defaults."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeAlias

__all__ = [
    "AUDIO_FORMATS",
    "Shape",
    "default_shape",
]

Shape: TypeAlias = Literal["string", "list", "null", "absent"]
"""How a message's `content` was written: text, a list of parts, `null`, or left out."""

# `input_audio.format` (openai-python chat_completion_content_part_input_audio_param.py,
# read 2026-11).
AUDIO_FORMATS = {"audio/wav": "wav", "audio/mpeg": "mp3"}


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
