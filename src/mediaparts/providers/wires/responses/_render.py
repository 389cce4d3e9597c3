"""Render messages as `client.responses.create` arguments, and find media in such payloads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from typing_extensions import assert_never

from mediaparts._conversation._dialogue import PartFields
from mediaparts._conversation._messages import Assistant, Message, System, Tool, User
from mediaparts._conversation._parts import (
    MediaPart,
    Part,
    ProviderPart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
)
from mediaparts.providers._fitting._normalized import NormalizedPart
from mediaparts.providers._wire._media_sites import Problems, Site, Where, url_text_site
from mediaparts.providers._wire._rendering import (
    Block,
    Prepare,
    Served,
    call_ids,
    copied,
    filename_for,
    hints,
    left_out,
    parts,
    text_file,
    unsupported,
)
from mediaparts.providers.wires.chat_completions import (
    file_data_site,
    tool_error,
    without_breakpoints,
    write_breakpoint,
)

__all__ = ["media_site", "render"]

Json = dict[str, Any]

# `prompt_cache_breakpoint` sits on an input_text, input_image or input_file block; the
# assistant's items (an output message, `function_call`, `reasoning`) have no such field
# (openai-python 3.54 responses/response_output_message_param.py,
# response_function_tool_call_param.py, response_reasoning_item_param.py, read 2026-11).
_NO_ITEM_BREAKPOINT = (
    "its cache breakpoint: the assistant's items in Responses take none (the part is kept)"
)


def render(messages: Sequence[Message], prepare: Prepare) -> dict[str, Any]:
    """Render messages as the keyword arguments of `client.responses.create`.

    Each message becomes one input item, in order: system and developer messages keep their
    role, an assistant message becomes its items (reasoning, message, `function_call`, ...) in
    the order of its parts, a tool message a `function_call_output` whose output is its text,
    or a list of parts when it carries media. The hints a reader left (see the package
    docstring) reproduce the payload it read exactly.

    Args:
        messages: The conversation, in order.
        prepare: Fits each media part to the provider served (normally `mp.normalize` bound
            to it) and reports what cannot be carried.

    Returns:
        `{"input": [...]}` (a `ResponseInputParam` list), with `instructions` first when the
        conversation was read from them, and `input` a string when it was read from one.

    Raises:
        UnsupportedMediaType: A part has no Responses shape (audio, video, media from the
            assistant).
    """
    provider = prepare.served.name
    messages = without_breakpoints(messages, prepare)
    ids = call_ids(messages)
    items: list[Json] = []
    out: dict[str, Any] = {}
    for index, message in enumerate(messages):
        hints = _hints(message, provider)
        # A tool's `name` is the function's, which its call item carries; the others name a
        # participant, which Responses messages cannot.
        if message.name is not None and not isinstance(message, Tool):
            prepare.lose(message, "its name: Responses messages have no name field")
        match message:
            case System():
                if index == 0 and hints.get("instructions") and _text_only(message):
                    out["instructions"] = message.content
                else:
                    items.append(_input_message(message, prepare))
            case User():
                items.append(_input_message(message, prepare))
            case Assistant():
                items += _assistant(message, prepare, ids)
            case Tool():
                items.append(_tool_output(message, prepare, ids))
            case _:
                assert_never(message)
    last = messages[-1] if messages else None
    if (
        len(items) == 1
        and isinstance(last, User)
        and _hints(last, provider).get("string")
        and isinstance(items[0]["content"], str)
        and set(items[0]) == {"role", "content"}
    ):
        out["input"] = items[0]["content"]
    else:
        out["input"] = items
    return out


def _hints(thing: Message | PartFields | NormalizedPart, provider: str) -> Mapping[str, Any]:
    """Return the hints our reader left on a message or part (empty when there are none)."""
    return hints(thing, provider)


def _text_only(message: Message) -> bool:
    return all(isinstance(p, TextPart) and not p.native and p.cache is None for p in message.parts)


def _input_message(message: System | User, prepare: Prepare) -> Json:
    """Render a user, system or developer message: text as a string, else `input_*` blocks."""
    provider = prepare.served.name
    hints = _hints(message, provider)
    blocks = _blocks(message, prepare)
    content = _content(blocks, prepare, listed=bool(hints.get("list")))
    role = hints.get("role", message.role)  # a system message with media was read as a User
    return {"role": role, "content": content, **hints.get("extra", {})}


def _content(blocks: list[Block], prepare: Prepare, *, listed: bool) -> str | list[Json]:
    """Return text-only blocks as one string (joined by blank lines), else a block list."""
    texts = [_plain_text(b, prepare.served.name) for b in blocks]
    if not listed and all(text is not None for text in texts):
        return "\n\n".join(text for text in texts if text is not None)
    return [out for b in blocks for out in _input_block(b, prepare)]


def _plain_text(block: Block, provider: str) -> str | None:
    """Return a block's text when a string content loses nothing of it, else None."""
    match block:
        case TextPart():
            # The hints of the message a part starts (`item`, `list`, `empty`) are not its own.
            own_hints = set(_hints(block, provider)) - {"item", "list", "empty"}
            plain = block.cache is None and not own_hints and not block.citations
            return block.text if plain else None
        case NormalizedPart():
            original = block.part
            uncached = original is None or original.cache is None
            return text_file(block) if block.text is not None and uncached else None
        case RefusalPart():
            # A refusal outside an output message is sent as its text (no other shape for it).
            return None if _hints(block, provider) else block.text
        case ProviderPart() | ReasoningPart() | ToolCall():
            return None
        case _:
            assert_never(block)


def _input_block(block: Block, prepare: Prepare) -> list[Json]:
    """Return one `input_text`, `input_image` or `input_file` block (none if it is lost)."""
    provider = prepare.served.name
    match block:
        case TextPart():
            _lose_citations(block, prepare)
            return [_finish({"type": "input_text", "text": block.text}, block, provider)]
        case NormalizedPart():
            original = block.part
            rendered = _media(block, provider)
            return [_finish(rendered, original, provider) if original is not None else rendered]
        case RefusalPart():
            # No refusal block outside assistant output messages: the text is kept.
            return [_finish({"type": "input_text", "text": block.text}, block, provider)]
        case ProviderPart():
            return [copied(block.data)]
        case ReasoningPart() | ToolCall():
            prepare.lose(block, "a user, system or tool message cannot hold it in Responses")
            return []
        case _:
            assert_never(block)


def _finish(rendered: Json, part: PartFields, provider: str) -> Json:
    """Apply a part's cache breakpoint and our reader's exact-shape hints to its block."""
    hints = _hints(part, provider)
    if part.cache is not None:
        rendered["prompt_cache_breakpoint"] = write_breakpoint(part.cache, hints.get("breakpoint"))
    for key in hints.get("omit", ()):
        rendered.pop(key, None)
    rendered.update(hints.get("extra", {}))
    return rendered


def _media(part: NormalizedPart, provider: str) -> Json:
    """Return the `input_*` block of a prepared media part."""
    if part.text is not None:
        return {"type": "input_text", "text": text_file(part)}
    match part.kind:
        case "image":
            # `detail` is Required in ResponseInputImageParam; "auto" is the API's default.
            detail = part.detail or "auto"
            if part.file_id is not None:
                return {"type": "input_image", "file_id": part.file_id, "detail": detail}
            url = part.url if part.url is not None else part.data_uri
            return {"type": "input_image", "image_url": url, "detail": detail}
        case "file":
            if part.file_id is not None:
                return {"type": "input_file", "file_id": part.file_id}
            if part.url is not None:
                return {"type": "input_file", "file_url": part.url}
            bare = part.part is not None and _hints(part.part, provider).get("bare")
            data = part.base64 if bare else part.data_uri
            return {"type": "input_file", "file_data": data, "filename": filename_for(part)}
        case "audio" | "video":  # the Responses API has no input part for them
            raise unsupported(provider, part, "in the Responses API (no input part for it)")
        case _:
            assert_never(part.kind)


def _lose_citations(part: TextPart, prepare: Prepare) -> None:
    if part.citations:
        prepare.lose(
            part, "Responses takes annotations only on the output_text of an output message"
        )


def _tool_output(message: Tool, prepare: Prepare, ids: Mapping[int, str]) -> Json:
    """Render a tool message as a `function_call_output`; an error becomes its first line."""
    provider = prepare.served.name
    hints = _hints(message, provider)
    blocks: list[Block] = [TextPart(text) for text in [tool_error(message, prepare)] if text]
    blocks += _blocks(message, prepare)
    item: Json = {
        "type": "function_call_output",
        "call_id": message.tool_call_id or ids[id(message)],
        "output": _content(blocks, prepare, listed=bool(hints.get("list"))),
    }
    if hints.get("name") and message.name is not None:
        item["name"] = message.name
    item.update(hints.get("extra", {}))
    return item


# -- the assistant's items -----------------------------------------------------------------------


def _assistant(message: Assistant, prepare: Prepare, ids: Mapping[int, str]) -> list[Json]:
    """Render an assistant message as items, in the order of its parts.

    Consecutive text and refusal parts make one message item; a part carrying an `item` hint
    starts a new one (it was the first part of a message the reader read).
    """
    provider = prepare.served.name
    if not message.parts:
        return [{"role": "assistant", "content": ""}]
    items: list[Json] = []
    run: list[Block] = []
    for block in _blocks(message, prepare):
        in_message = isinstance(block, TextPart | RefusalPart) or (
            isinstance(block, ProviderPart) and _hints(block, provider).get("block")
        )
        if run and (not in_message or "item" in _hints(block, provider)):
            items.append(_message_item(run, prepare))
            run = []
        if in_message:
            run.append(block)
            continue
        match block:
            case ToolCall() | ReasoningPart():
                if block.cache is not None:
                    prepare.lose(block, _NO_ITEM_BREAKPOINT)
                if isinstance(block, ToolCall):
                    items.append(_function_call(block, ids, provider))
                else:
                    items += _reasoning(block, prepare)
            case ProviderPart():
                items.append(copied(block.data))
            case NormalizedPart() | TextPart() | RefusalPart():  # media raised above; text in runs
                pass
            case _:
                assert_never(block)
    if run:
        items.append(_message_item(run, prepare))
    return items


def _blocks(message: Message, prepare: Prepare) -> list[Block]:
    """Return `parts(message, prepare)` with the empty texts our reader read put back.

    `parts` leaves empty text out, which is right for a conversation built in code; but an
    empty `input_text` in a content list, or an assistant message whose content is `""` or
    `[]` (kept as an empty text part carrying its envelope, `item`), was in the payload read.
    """
    provider = prepare.served.name
    blocks = parts(message, prepare)
    listed = bool(_hints(message, provider).get("list"))
    if not listed and not isinstance(message, Assistant):
        return blocks
    out: list[Block] = []
    pending = iter(blocks)
    block = next(pending, None)
    in_read_message = False  # inside an assistant message item that the reader read
    for part in message.parts:
        if block is not None and _made_from(block, part, prepare):
            # A media part may be sent as several pieces (a split PDF): all of them are its.
            made = len(prepare(part).sent) if isinstance(part, MediaPart) else 1
            for _ in range(made):
                if block is not None:
                    out.append(block)
                    block = next(pending, None)
        elif (
            isinstance(part, TextPart)
            and not part.text
            and (listed or in_read_message or "item" in _hints(part, provider))
        ):
            out.append(part)
        if isinstance(part, TextPart | RefusalPart | ProviderPart):
            in_read_message = in_read_message or "item" in _hints(part, provider)
        else:
            in_read_message = False
    return out


def _made_from(block: Block, part: Part, prepare: Prepare) -> bool:
    """Tell whether `parts` made `block` from `part` (it keeps their order)."""
    if not isinstance(block, NormalizedPart):
        if block is part:
            return True
        # A part sent as pieces (a video's frames, a PDF's pages) starts with a text part,
        # its first piece: the same object `prepare` gives again (it fits each part once).
        sent = _sent(part, prepare)
        return bool(sent) and block is sent[0]
    # `normalize` may return a loaded copy of the part; `parts` leaves media out only when
    # `left_out` says so (a file of another store, another API's own link).
    if not isinstance(part, MediaPart):
        return False
    return block.part is part or left_out(part, prepare.provider, prepare.rules) is None


def _sent(part: Part, prepare: Prepare) -> tuple[Block, ...]:
    """What `parts` sent for a media part it kept; () for anything else."""
    if not isinstance(part, MediaPart):
        return ()
    if left_out(part, prepare.provider, prepare.rules) is not None:
        return ()  # `parts` left it out
    return prepare(part).sent


def _message_item(run: list[Block], prepare: Prepare) -> Json:
    """Render one assistant message item: an output message of `output_text` and `refusal`
    blocks when it was read as one (its envelope has an `id`), else an easy message whose
    content is a string (the API takes no `input_*` block from the assistant)."""
    provider = prepare.served.name
    first = (
        _hints(run[0], provider)
        if isinstance(run[0], TextPart | RefusalPart | ProviderPart)
        else {}
    )
    envelope: Json = dict(first.get("item", {}))
    content: Any
    if first.get("empty"):
        content = []
    elif "id" in envelope:
        content = [_output_block(b, prepare) for b in run]
    else:
        texts = (_assistant_text(b, prepare) for b in run)
        content = "\n\n".join(text for text in texts if text is not None)
    return {**envelope, "role": "assistant", "content": content}


def _assistant_text(block: Block, prepare: Prepare) -> str | None:
    """Return the text an easy assistant message carries for one block of its run.

    Cache breakpoints, citations and kept blocks have no place in a string and are reported.
    """
    if isinstance(block, TextPart | RefusalPart) and block.cache is not None:
        prepare.lose(block, _NO_ITEM_BREAKPOINT)
    match block:
        case TextPart():
            if block.citations:
                prepare.lose(
                    block,
                    "Responses takes annotations only on the output_text of an output message "
                    "read with its id (the text is kept)",
                )
            return block.text
        case RefusalPart():
            return block.text
        case ProviderPart():
            prepare.lose(block, "an assistant message without an id takes text only")
            return None
        case NormalizedPart() | ReasoningPart() | ToolCall():
            raise AssertionError("only text, refusals and kept blocks are in a message run")
        case _:
            assert_never(block)


def _output_block(block: Block, prepare: Prepare) -> Json:
    """Return one block of an output message: `output_text` with its annotations, `refusal`."""
    provider = prepare.served.name
    if isinstance(block, TextPart | RefusalPart) and block.cache is not None:
        prepare.lose(block, _NO_ITEM_BREAKPOINT)
    match block:
        case TextPart():
            mine = [c for c in block.citations if c.provider == provider]
            if len(mine) < len(block.citations):
                prepare.lose(
                    block, "they are another provider's; Responses annotations are its own"
                )
            out: Json = {"type": "output_text", "text": block.text}
            out["annotations"] = [copied(c.data) for c in mine]
            out.update(_hints(block, provider).get("extra", {}))
            return out
        case RefusalPart():
            return {
                "type": "refusal",
                "refusal": block.text,
                **_hints(block, provider).get("extra", {}),
            }
        case ProviderPart():
            kept: dict[str, Any] = copied(block.data)
            return kept
        case NormalizedPart() | ReasoningPart() | ToolCall():
            raise AssertionError("only text, refusals and kept blocks are in a message run")
        case _:
            assert_never(block)


def _function_call(call: ToolCall, ids: Mapping[int, str], provider: str) -> Json:
    out: Json = {
        "type": "function_call",
        "call_id": call.id if call.id is not None else ids[id(call)],
        "name": call.name,
        "arguments": call.arguments,
    }
    if call.item_id is not None:
        out["id"] = call.item_id
    out.update(_hints(call, provider).get("extra", {}))
    return out


def replays(part: ReasoningPart, served: Served) -> str | None:
    """Say why a reasoning part is not sent back to Responses, or None when it is."""
    provider = served.name
    if part.provider != provider:
        return "Responses replays only its own reasoning items"
    if part.id is None:
        return "a Responses reasoning item needs its id (rs_…)"
    return None


def _reasoning(part: ReasoningPart, prepare: Prepare) -> list[Json]:
    """Return our own reasoning item as the API wrote it; anything else is lost."""
    provider = prepare.served.name
    why = replays(part, prepare.served)
    if why is not None:
        prepare.lose(part, why)
        return []
    hints = _hints(part, provider)
    out: Json = {
        "type": "reasoning",
        "id": part.id,
        "summary": [{"type": "summary_text", "text": text} for text in part.summary],
    }
    texts = hints.get("texts", None if part.text is None else [part.text])
    if texts is not None:
        out["content"] = [{"type": "reasoning_text", "text": text} for text in texts]
    if isinstance(part.data, str):
        out["encrypted_content"] = part.data
    elif part.data is not None:
        prepare.lose(part, "its data is bytes; encrypted_content is text")
    out.update(hints.get("extra", {}))
    return [out]


def media_site(node: dict[str, Any], at: Where, problems: Problems) -> Site | None:
    """Return the media block of the Responses API that `node` is, if it is one (for `check`)."""
    kind_tag = node.get("type")
    if kind_tag == "input_image" and "image_url" in node:
        where = f"{at}.image_url"
        return url_text_site(
            "image", node.get("image_url"), where, problems, detail=node.get("detail")
        )
    if kind_tag == "input_file":
        return file_data_site(node, f"{at}.file_data", problems)
    return None
