"""OpenAI Responses API: its media rules and `render` to `responses.create` arguments.

The shapes follow the openai SDK's `ResponseInputParam` (openai-python 3.54, read 2026-08):
messages of `input_text` / `input_image` / `input_file` parts, `function_call` items for the
assistant's tool calls and `function_call_output` items, whose output may hold images and files.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from typing_extensions import assert_never

from mediaparts._messages import Assistant, Message, System, Tool, User
from mediaparts.providers import openai as _chat
from mediaparts.providers._media_costs import CostsTable, MediaCosts
from mediaparts.providers._render_common import (
    Item,
    Prepare,
    as_text,
    call_ids,
    error_text,
    filename_for,
    is_media,
    items,
    joined_text,
    no_assistant_media,
    unsupported,
)
from mediaparts.providers._rules import KindRules, Rules
from mediaparts.providers._sites import Problems, Site, Where, url_text_site
from mediaparts.providers._vision import ModelRule

__all__ = ["COSTS", "RULES", "media_site", "render"]

# The vision table and sources are Chat Completions' (`openai.VISION`): one page covers both.
# The Responses API has no audio input part either (openai-python 3.54, read 2026-08).
COSTS: CostsTable = (
    ModelRule("*", MediaCosts("OpenAI Responses", not_accepted=frozenset({"audio", "video"}))),
)

# The same limits as Chat Completions (the images-vision and file-inputs guides cover both APIs,
# read 2026-08), except:
RULES: Rules = dataclasses.replace(
    _chat.RULES,
    provider="openai-responses",
    costs=COSTS,
    # Responses reads the files uploaded through OpenAI's Files API, as Chat Completions does
    # (`input_file.file_id`, `input_image.file_id`; openai-python 3.54, read 2026-11).
    file_store="openai",
    # No audio: `ResponseInputContentParam` is input_text | input_image | input_file, and
    # `function_call_output` takes the same three. `ResponseInputAudioParam` exists in the SDK
    # but only the evals/graders types use it (openai-python 3.54, read 2026-08).
    audio=KindRules(
        source="openai-python responses/response_input_message_content_list_param.py (read 2026-08)"
    ),
    # `input_file` also takes `file_url`, so OpenAI fetches document URLs itself
    # (openai-python responses/response_input_file_param.py, read 2026-08).
    file=dataclasses.replace(
        _chat.RULES.file,
        url_types=_chat.RULES.file.media_types,
        source="developers.openai.com/api/docs/guides/file-inputs; openai-python "
        "responses/response_input_file_param.py (read 2026-08)",
    ),
)


def render(messages: Sequence[Message], prepare: Prepare) -> dict[str, Any]:
    """Render messages as the keyword arguments of `client.responses.create`.

    System messages stay in place as `system` messages. An assistant message becomes a
    message item (when it has text) followed by one `function_call` item per tool call; a
    tool message becomes a `function_call_output` whose output is its text, or a list of
    parts when it carries media.

    Args:
        messages: The conversation, in order.
        prepare: Fits each media part to OpenAI (normally `mp.normalize` bound to it).

    Returns:
        `{"input": [...]}`, a `ResponseInputParam` list.

    Raises:
        UnsupportedMediaType: A part has no Responses shape (audio, video, media from the
            assistant).
    """
    out: list[dict[str, Any]] = []
    ids = call_ids(messages)
    for message in messages:
        if isinstance(message, System):
            out.append({"role": "system", "content": message.content})
        elif isinstance(message, User):
            out.append({"role": "user", "content": _content(items(message, prepare))})
        elif isinstance(message, Assistant):
            no_assistant_media(message, RULES.provider)
            if message.content or not message.tool_calls:
                out.append({"role": "assistant", "content": message.content})
            out.extend(
                {
                    "type": "function_call",
                    "call_id": ids[id(call)],
                    "name": call.name,
                    "arguments": call.arguments,
                }
                for call in message.tool_calls
            )
        else:
            out.append(_tool(message, prepare, ids[id(message)]))
    return {"input": out}


def _tool(message: Tool, prepare: Prepare, call_id: str) -> dict[str, Any]:
    parts: list[Item] = [text for text in [error_text(message)] if text is not None]
    parts += items(message, prepare)
    output = _content(parts)
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def _content(parts: list[Item]) -> str | list[dict[str, Any]]:
    """Return text-only content as one string, else a list of `input_*` parts."""
    text = joined_text(parts)
    return text if text is not None else [_block(p) for p in parts]


def _block(item: Item) -> dict[str, Any]:
    """Return one `input_*` content part."""
    if not is_media(item):
        return {"type": "input_text", "text": as_text(item)}
    match item.kind:
        case "image":
            # `detail` is Required in ResponseInputImageParam; "auto" is the API's default.
            url = item.url if item.url is not None else item.data_uri
            return {"type": "input_image", "image_url": url, "detail": item.detail or "auto"}
        case "file":
            if item.url is not None:
                return {"type": "input_file", "file_url": item.url}
            data = item.data_uri
            return {"type": "input_file", "file_data": data, "filename": filename_for(item)}
        case "audio" | "video":  # the Responses API has no input part for them
            raise unsupported(RULES.provider, item, "in the Responses API (no input part for it)")
        case _:
            assert_never(item.kind)


def media_site(node: dict[str, Any], at: Where, problems: Problems) -> Site | None:
    """Return the media block of the Responses API that `node` is, if it is one (for `check`)."""
    kind_tag = node.get("type")
    if kind_tag == "input_image" and "image_url" in node:
        where = f"{at}.image_url"
        return url_text_site(
            "image", node.get("image_url"), where, problems, detail=node.get("detail")
        )
    if kind_tag == "input_file":
        return _chat.file_data_site(node, f"{at}.file_data", problems)
    return None
