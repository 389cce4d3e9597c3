"""Anthropic Messages API: its media rules and `render` to `messages.create` arguments.

The shapes follow the anthropic SDK's `MessageParam` (anthropic-sdk-python 2.12, read
2026-08): `image` and `document` blocks with `base64`, `url` or `text` sources, `tool_use`
blocks from the assistant and `tool_result` blocks (which may hold images and documents) in
the user turn that follows. Turns must alternate, so same-role turns are merged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mediaparts._messages import Assistant, Message, Tool, User
from mediaparts.providers._normalized import NormalizedPart
from mediaparts.providers._render_common import (
    TEXT_TYPES,
    Item,
    Prepare,
    call_arguments,
    collapse_text,
    error_text,
    items,
    merge_turns,
    no_assistant_media,
    split_system,
    unsupported,
)
from mediaparts.providers._rules import DocumentRules, ImageRules, KindRules, Rules
from mediaparts.providers._vision_tables import ANTHROPIC_VISION, MEDIA_COSTS

__all__ = ["RULES", "render"]

_IMAGE_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")

RULES = Rules(
    vision=ANTHROPIC_VISION,  # model-keyed image geometry and tokens: see _vision_tables
    costs=MEDIA_COSTS["anthropic"],
    provider="anthropic",
    # platform.claude.com/docs/en/build-with-claude/vision and the SDK's Base64ImageSourceParam
    # Literal (read 2026-08). Per image: 10 MB of base64 on the direct API but 5 MB on Bedrock and
    # Google Cloud; we default to 5 MB, which works on every route (5,242,880: the API's own error
    # reads "image exceeds 5 MB maximum: … bytes > 5242880 bytes"), measured on the base64 text.
    # Images per request: 100 for 200k-context models, 600 for the others; 100 is safe for all.
    # 8000×8000 px at most. Animations: "only the first frame is used". URL sources work only on
    # the direct API ("only base64-encoded sources" on Bedrock and Google Cloud), so no URL is
    # passed through by default; `with_rules(image_url_types=...)` enables it.
    image=ImageRules(
        media_types=_IMAGE_TYPES,
        max_bytes=5 * 2**20,
        measure="base64",
        max_count=100,
        max_width=8000,
        max_height=8000,
        animated=False,
        source="platform.claude.com/docs/en/build-with-claude/vision; anthropic-sdk-python "
        "types/base64_image_source_param.py (read 2026-08)",
    ),
    # The Messages API has no audio or video blocks (SDK content block params, read 2026-08).
    audio=KindRules(source="anthropic-sdk-python types/message_param.py (read 2026-08)"),
    video=KindRules(source="anthropic-sdk-python types/message_param.py (read 2026-08)"),
    # PDFs as `base64` documents ("Standard PDF (no passwords/encryption)", up to 600 pages, or
    # 100 under a 1M context); text files as `text` documents (PlainTextSourceParam takes
    # media_type "text/plain" only). URLs: base64 by default, as for images.
    document=DocumentRules(
        media_types=("application/pdf",),
        text_types=TEXT_TYPES,
        source="Anthropic pdf-support page; anthropic-sdk-python document_block_param.py, "
        "plain_text_source_param.py (read 2026-08)",
    ),
    # Messages API: 32 MB per request, but "Amazon Bedrock allows 20 MB and Google Cloud 30 MB";
    # 20 MB works on every route (Anthropic API overview, request size, read 2026-08).
    max_request_bytes=20_000_000,
    source="Anthropic API overview, errors / request size (read 2026-08)",
)


def render(messages: Sequence[Message], prepare: Prepare) -> dict[str, Any]:
    """Render messages as the keyword arguments of `client.messages.create`.

    System texts are joined (blank lines) into the top-level `system`. Consecutive messages
    of one role are merged, tool results become `tool_result` blocks at the start of the next
    user turn, and a turn holding one text block is sent as a plain string.

    Args:
        messages: The conversation, in order.
        prepare: Fits each media part to Anthropic (normally `mp.normalize` bound to it).

    Returns:
        `{"system": str, "messages": [...]}`, without `system` when there is none.

    Raises:
        UnsupportedMediaType: A part has no Messages API block (audio, video, other binary
            files, media from the assistant).
        InvalidMedia: A tool call's arguments are not a JSON object.
    """
    system, rest = split_system(messages)
    turns: list[dict[str, Any]] = []
    for message in rest:
        if isinstance(message, User):
            blocks = [_block(item) for item in items(message, prepare)]
            turns.append({"role": "user", "content": blocks})
        elif isinstance(message, Assistant):
            turns.append({"role": "assistant", "content": _assistant(message)})
        elif isinstance(message, Tool):
            turns.append({"role": "user", "content": [_tool_result(message, prepare)]})
    merged = merge_turns(turns, first=lambda block: block["type"] == "tool_result")
    payload: dict[str, Any] = {}
    if system:
        payload["system"] = "\n\n".join(system)
    payload["messages"] = [{**t, "content": collapse_text(t["content"])} for t in merged]
    return payload


def _assistant(message: Assistant) -> list[dict[str, Any]]:
    no_assistant_media(message, RULES.provider)
    blocks: list[dict[str, Any]] = [{"type": "text", "text": message.content}]
    if not message.content:
        blocks = []  # empty text blocks are rejected
    for call in message.tool_calls:
        args = call_arguments(call.id, call.name, call.parsed_arguments())
        blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": args})
    return blocks


def _tool_result(message: Tool, prepare: Prepare) -> dict[str, Any]:
    error = error_text(message)
    content = [_block(item) for item in ([error] if error else []) + items(message, prepare)]
    out: dict[str, Any] = {"type": "tool_result", "tool_use_id": message.tool_call_id}
    if content:
        out["content"] = content
    if error is not None:
        out["is_error"] = True
    return out


def _block(item: Item) -> dict[str, Any]:
    """Return one text, image or document block."""
    if isinstance(item, str):
        return {"type": "text", "text": item}
    if item.text is not None:
        return _document(item, {"type": "text", "media_type": "text/plain", "data": item.text})
    if item.kind != "image" and item.media_type != "application/pdf":
        raise unsupported(RULES.provider, item, "(Messages API blocks: images, PDFs, text)")
    source: dict[str, Any] = {"type": "url", "url": item.url}
    if item.url is None:
        source = {"type": "base64", "media_type": item.media_type, "data": item.base64}
    if item.kind == "image":
        return {"type": "image", "source": source}
    return _document(item, source)


def _document(item: NormalizedPart, source: dict[str, Any]) -> dict[str, Any]:
    """Return a document block, titled with the file name when there is one."""
    block: dict[str, Any] = {"type": "document", "source": source}
    if item.filename:
        block["title"] = item.filename
    return block
