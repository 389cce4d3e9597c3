"""Anthropic Messages API: its media rules and `render` to `messages.create` arguments.

The shapes follow the anthropic SDK's `MessageParam` (anthropic-sdk-python 2.12, read
2026-08): `image` and `document` blocks with `base64`, `url` or `text` sources, `tool_use`
blocks from the assistant and `tool_result` blocks (which may hold images and documents) in
the user turn that follows. Turns must alternate, so same-role turns are merged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typing_extensions import assert_never

from mediaparts._messages import Assistant, Message, Tool, User
from mediaparts.formats import Kind
from mediaparts.providers._media_costs import CostsTable, MediaCosts
from mediaparts.providers._normalized import NormalizedPart
from mediaparts.providers._render_common import (
    TEXT_TYPES,
    Item,
    Prepare,
    call_arguments,
    call_ids,
    collapse_text,
    error_text,
    items,
    merge_turns,
    no_assistant_media,
    split_system,
    unsupported,
)
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._sites import Problems, Site, Where, payload_bytes, url_text_site
from mediaparts.providers._vision import AnthropicPatches, ModelRule, VisionTable

__all__ = ["COSTS", "COSTS_SOURCE", "RULES", "VISION", "VISION_SOURCE", "media_site", "render"]

_IMAGE_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")

_CLAUDE_STANDARD = AnthropicPatches(max_long_edge=1568, max_tokens=1568)
_CLAUDE_HIGH_RES = AnthropicPatches(max_long_edge=2576, max_tokens=4784)

# Anthropic vision and vision-coordinates pages (28-px patches; standard tier 1568 px / 1568
# tokens; high-resolution tier 2576 px / 4784 tokens for "Claude 4.7 and later"), read
# 2026-08. The first row, the default for model=None and unknown names, is the
# standard tier: every current model honours it, and an image fitted to it is never refused,
# as with the 5 MB default. Old names (claude-3-5-sonnet, claude-3-7-sonnet) come before the
# version patterns so that "3-7" is not read as 4.7 or later.
VISION: VisionTable = (
    ModelRule("claude-3*", _CLAUDE_STANDARD),
    ModelRule("claude-*-4-[7-9]*", _CLAUDE_HIGH_RES),
    ModelRule("claude-opus-[5-9]*", _CLAUDE_HIGH_RES),
    ModelRule("claude-sonnet-[5-9]*", _CLAUDE_HIGH_RES),
    ModelRule("claude-haiku-[5-9]*", _CLAUDE_HIGH_RES),
    ModelRule("claude-*", _CLAUDE_STANDARD),
)
VISION_SOURCE = (
    "platform.claude.com/docs/en/build-with-claude/vision and vision-coordinates (read 2026-08)"
)

# Token rates, read 2026-08: Anthropic documents no audio, video or PDF token formula (PDF pages
# cost their text plus an image each, sizes undocumented).
COSTS: CostsTable = (
    ModelRule("*", MediaCosts("Anthropic", not_accepted=frozenset({"audio", "video"}))),
)
COSTS_SOURCE = "platform.claude.com pdf-support: no PDF token formula documented (read 2026-08)"

RULES = Rules(
    vision=VISION,
    costs=COSTS,
    vision_source=VISION_SOURCE,
    costs_source=COSTS_SOURCE,
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
    file=FileRules(
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
    ids = call_ids(rest)
    turns: list[dict[str, Any]] = []
    for message in rest:
        if isinstance(message, User):
            blocks = [_block(item) for item in items(message, prepare)]
            turns.append({"role": "user", "content": blocks})
        elif isinstance(message, Assistant):
            turns.append({"role": "assistant", "content": _assistant(message, ids)})
        elif isinstance(message, Tool):
            turns.append({"role": "user", "content": [_tool_result(message, prepare, ids)]})
    merged = merge_turns(turns, first=lambda block: block["type"] == "tool_result")
    payload: dict[str, Any] = {}
    if system:
        payload["system"] = "\n\n".join(system)
    payload["messages"] = [{**t, "content": collapse_text(t["content"])} for t in merged]
    return payload


def _assistant(message: Assistant, ids: dict[int, str]) -> list[dict[str, Any]]:
    no_assistant_media(message, RULES.provider)
    blocks: list[dict[str, Any]] = [{"type": "text", "text": message.content}]
    if not message.content:
        blocks = []  # empty text blocks are rejected
    for call in message.tool_calls:
        args = call_arguments(call.id, call.name, call.parsed_arguments())
        blocks.append({"type": "tool_use", "id": ids[id(call)], "name": call.name, "input": args})
    return blocks


def _tool_result(message: Tool, prepare: Prepare, ids: dict[int, str]) -> dict[str, Any]:
    error = error_text(message)
    content = [_block(item) for item in ([error] if error else []) + items(message, prepare)]
    out: dict[str, Any] = {"type": "tool_result", "tool_use_id": ids[id(message)]}
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
    match item.kind:
        case "image":
            return {"type": "image", "source": _source(item)}
        case "file" if item.media_type == "application/pdf":
            return _document(item, _source(item))
        case "file" | "audio" | "video":  # the Messages API has no block for them
            raise unsupported(RULES.provider, item, "(Messages API blocks: images, PDFs, text)")
        case _:
            assert_never(item.kind)


def _source(item: NormalizedPart) -> dict[str, Any]:
    """Return a block's `url` or `base64` source."""
    if item.url is None:
        return {"type": "base64", "media_type": item.media_type, "data": item.base64}
    return {"type": "url", "url": item.url}


def _document(item: NormalizedPart, source: dict[str, Any]) -> dict[str, Any]:
    """Return a document block, titled with the file name when there is one."""
    block: dict[str, Any] = {"type": "document", "source": source}
    if item.filename:
        block["title"] = item.filename
    return block


def media_site(node: dict[str, Any], at: Where, problems: Problems) -> Site | None:
    """Return the `image` or `document` block that `node` is, if it is one (for `check`).

    Only `base64` and `url` sources carry media to check; a `text` or `file` source does not.
    """
    kind_tag = node.get("type")
    if kind_tag not in ("image", "document") or not isinstance(node.get("source"), dict):
        return None
    source = node["source"]
    kind: Kind = "image" if kind_tag == "image" else "file"
    if source.get("type") == "base64":
        where = f"{at}.source.data"
        declared = source.get("media_type")
        return Site(where, kind, declared, data=payload_bytes(source.get("data"), where, problems))
    if source.get("type") == "url":
        return url_text_site(kind, source.get("url"), f"{at}.source.url", problems)
    return None
