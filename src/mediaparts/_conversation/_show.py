"""`mp.show`: a conversation as readable text, one block per message, media as descriptors.

It never fetches (a URL part shows its URL, and what is known of it), never decodes pixels
(image sizes come from headers) and never prints bytes: media are `describe`'s one-line
descriptors and opaque reasoning data is shown by its size. Control characters in the text
(a terminal escape in a hostile payload) are shown escaped, so the output is safe to print.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typing_extensions import assert_never

from mediaparts._conversation._descriptors import (
    clean,
    cut,
    describe_part,
    human_size,
    one_line,
    shown_value,
)
from mediaparts._conversation._json_data import data_json, json_text
from mediaparts._conversation._messages import Assistant, Message, System, Tool, Usage, User
from mediaparts._conversation._parts import (
    AudioPart,
    FilePart,
    ImagePart,
    Part,
    ProviderPart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
    VideoPart,
)
from mediaparts._errors import InvalidConfig, InvalidMedia

__all__ = ["show"]

_MESSAGES = (System, User, Assistant, Tool)
_PARTS = (
    ImagePart,
    AudioPart,
    VideoPart,
    FilePart,
    TextPart,
    ReasoningPart,
    ToolCall,
    RefusalPart,
    ProviderPart,
)
_INDENT = "  "
# Reasoning is context, rarely what one reads a log for: shown cut at this many characters.
_REASONING = 200


def show(value: Any, *, max_text: int | None = None) -> str:
    """Return a readable text form of a conversation, one message or one part.

    Each message is a header line (its number, role, and the name, id, created_at, model,
    stop reason, usage or tool call it answers, when set) and its parts indented below it:
    text in full, media as `<image/png 640x480 12.3 KB sha256:1a2b3c>`, tool calls as
    `tool_call NAME id=ID ARGUMENTS`, reasoning shortened (opaque data by its size only),
    refusals, citations, provider blocks as `<anthropic web_search_tool_result …>`, and cache
    breakpoints. Only headers start at column 0: a newline in any value (text, tool
    arguments, a refusal) starts an indented line, so no content can pass for a header. The
    same input always gives the same text.

    Args:
        value: A list of messages, one message, or one part.
        max_text: Cut text, refusals and tool arguments longer than this many characters,
            saying how many were left out (default: show them whole). Reasoning is cut at
            200 characters, or at `max_text` when that is shorter.

    Returns:
        The text, lines joined with newlines, no newline at the end.

    Raises:
        InvalidMedia: `value` is not messages or a part (a dict: read it with
            `mp.message_from_dict` first).
        InvalidConfig: `max_text` is not a positive whole number.
    """
    if max_text is not None and (type(max_text) is not int or max_text < 1):
        raise InvalidConfig(f"show(max_text=...) takes a positive whole number, got {max_text!r}")
    if isinstance(value, _PARTS):
        return "\n".join(_part_lines(value, max_text))
    messages = [value] if isinstance(value, _MESSAGES) else value
    if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
        hint = "; read a dict with mp.message_from_dict() first" if isinstance(value, dict) else ""
        raise InvalidMedia(f"show() takes messages or a part, got {type(value).__name__}{hint}")
    lines: list[str] = []
    for number, message in enumerate(messages, 1):
        if not isinstance(message, _MESSAGES):
            raise InvalidMedia(
                f"show() takes messages (mp.User, ...), got {type(message).__name__} at "
                f"[{number - 1}]; read dicts with mp.message_from_dict() first"
            )
        lines.append(_header(number, message))
        body = [line for part in message.parts for line in _part_lines(part, max_text)]
        lines += [_INDENT + line for line in body or ["(no parts)"]]
    return "\n".join(lines)


def _header(number: int, message: Message) -> str:
    fields: list[tuple[str, Any]] = [("name", message.name)]
    if isinstance(message, Tool):
        fields = [("answers", message.tool_call_id), *fields, ("error_type", message.error_type)]
        fields.append(("error", message.error))
    fields += [("id", message.id), ("created_at", message.created_at)]
    if isinstance(message, Assistant):
        raw = message.stop_reason_raw
        reason = message.stop_reason
        fields += [("model", message.model), ("stop_reason", reason)]
        fields.append(("stop_reason_raw", raw if raw != reason else None))
    words = [f"[{number}] {message.role}"]
    words += [f"{name}={shown_value(value)}" for name, value in fields if value is not None]
    if isinstance(message, Tool) and message.is_error != (message.error is not None):
        words.append("is_error" if message.is_error else "is_error=false")
    if isinstance(message, Assistant) and message.usage is not None:
        words.append(_usage(message.usage))
    return "  ".join(words)


def _usage(usage: Usage) -> str:
    extra_in = [
        f"{label} {n:,}"
        for label, n in (
            ("cache read", usage.cache_read_tokens),
            ("cache write", usage.cache_write_tokens),
        )
        if n
    ]
    text = f"usage: {usage.input_tokens:,} in"
    text += f" ({', '.join(extra_in)})" if extra_in else ""
    text += f", {usage.output_tokens:,} out"
    return text + (f" ({usage.reasoning_tokens:,} reasoning)" if usage.reasoning_tokens else "")


def _part_lines(part: Part, max_text: int | None) -> list[str]:
    lines: list[str]
    match part:
        case ImagePart() | AudioPart() | VideoPart() | FilePart():
            lines = [describe_part(part)]
        case TextPart():
            lines = _text(part.text, max_text).split("\n")
            if part.citations:
                titles = [c.title or c.url or c.cited_text or "?" for c in part.citations]
                shown = "; ".join(cut(one_line(t), 60) for t in titles[:5])
                more = f"; … +{len(titles) - 5}" if len(titles) > 5 else ""
                lines.append(f"[citations {len(titles)}: {shown}{more}]")
        case ReasoningPart():
            lines = [_reasoning(part, max_text)]
        case ToolCall():
            ident = f" id={shown_value(part.id)}" if part.id is not None else ""
            lines = [f"tool_call {shown_value(part.name)}{ident} {_text(part.arguments, max_text)}"]
        case RefusalPart():
            lines = [f"refusal: {_text(part.text, max_text)}"]
        case ProviderPart():
            lines = [_provider(part)]
        case _:
            assert_never(part)
    if part.cache is not None:
        lines.append(f"[cache {part.cache}]")
    # A value's newline starts a line of its own, which the caller indents like every other:
    # no content can start a line at column 0, where only message headers start.
    return [line for text in lines for line in text.split("\n")]


def _reasoning(part: ReasoningPart, max_text: int | None) -> str:
    limit = min(max_text or _REASONING, _REASONING)
    said = "summary: " + " / ".join(part.summary) if part.summary else part.text or ""
    words = [f"reasoning: {_text(said, limit)}" if said else "reasoning"]
    if part.data is not None:
        size = len(part.data) if isinstance(part.data, bytes) else len(part.data.encode())
        words.append(f"<redacted {human_size(size)}>")
    if part.signature is not None:
        words.append(f"<signature {human_size(len(part.signature))}>")
    words += [
        f"{n}={shown_value(v)}" for n, v in (("provider", part.provider), ("id", part.id)) if v
    ]
    return " ".join(words).replace("\n", " ")


def _provider(part: ProviderPart) -> str:
    data = part.data
    kind = data.get("type")
    if not isinstance(kind, str):  # Gemini and Bedrock key a block by its one field
        kind = next(iter(data), "block") if len(data) == 1 else "block"
    ident = next((data[k] for k in ("id", "tool_use_id") if isinstance(data.get(k), str)), None)
    words = [shown_value(part.provider), shown_value(kind)]
    words += [f"id={shown_value(ident)}"] if ident is not None else []
    size = len(json_text(data_json(data), what="provider data").encode())  # bytes as base64
    return f"<{' '.join(words)} {human_size(size)}>"


def _text(text: str, limit: int | None) -> str:
    return clean(cut(text, limit))
