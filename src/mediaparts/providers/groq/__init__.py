"""Groq: the provider record (`PROVIDER`) and its rules (`RULES`).

Groq serves Chat Completions at `https://api.groq.com/openai/v1`: it speaks the wire
`mediaparts.providers.wires.chat_completions`, with its own limits (`_tables`, each value
sourced and dated), OpenAI's Batch API envelope, its `x_groq` chunk object (the `stream_extra`
quirk) and no refusal field (`refusal_as_text`). It has no file store for inputs (its Files
API takes batch files only).
"""

from mediaparts.providers import _record, openai
from mediaparts.providers.groq import _tables

PROVIDER = _record.Provider(
    "groq",
    _tables.RULES,
    "openai",
    batch_request=openai.batch_writer("/v1/chat/completions", "groq"),
    batch_result=openai.PROVIDER.batch_result,
    # A streamed chunk's `x_groq` holds the stream's usage (final chunk) and the error that
    # stopped it early (groq-python 1.7 types/chat/chat_completion_chunk.py `XGroq`, read
    # 2026-12).
    # Its assistant message has no `refusal` (groq-python 1.7
    # chat_completion_assistant_message_param.py, read 2026-12): a refusal goes as text.
    # Its reasoning models reply with `message.reasoning` (and `delta.reasoning`), and an
    # assistant message takes it back (groq-python 1.7 chat_completion_message.py,
    # chat_completion_chunk.py, chat_completion_assistant_message_param.py, read 2026-12).
    quirks={"stream_extra": "x_groq", "refusal_as_text": True, "reasoning_field": "reasoning"},
)
RULES = PROVIDER.rules

__all__ = ["PROVIDER", "RULES"]
