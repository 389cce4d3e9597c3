"""Render messages as `client.converse` arguments, and find media blocks for `check`."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Any

from typing_extensions import assert_never

from mediaparts._messages import Assistant, Message, Tool, User
from mediaparts.formats import Kind
from mediaparts.providers._normalized import NormalizedPart
from mediaparts.providers._render_common import (
    Item,
    Prepare,
    call_arguments,
    error_text,
    items,
    merge_turns,
    no_assistant_media,
    split_system,
    unsupported,
)
from mediaparts.providers._sites import Problems, Site, Where, payload_bytes
from mediaparts.providers.bedrock._tables import (
    NAME_BAD,
    NAME_MAX,
    RULES,
    VALID_NAME,
    formats,
    media_type_of,
)

__all__ = ["media_site", "render"]


def render(messages: Sequence[Message], prepare: Prepare) -> dict[str, Any]:
    """Render messages as the keyword arguments of `client.converse` (beside `modelId`).

    Each system message is one `system` text block. Consecutive messages of one role are
    merged, tool results become `toolResult` blocks at the start of the next user turn, and
    a user turn (or tool result) holding a document but no text gets a short text block naming
    the documents, which the API requires. Document names are made safe and unique.

    Args:
        messages: The conversation, in order.
        prepare: Fits each media part to Bedrock (normally `mp.normalize` bound to it).

    Returns:
        `{"messages": [...], "system": [{"text": ...}]}`, without `system` when there is none;
        media as raw bytes.

    Raises:
        UnsupportedMediaType: A part has no Converse block, or is a URL other than `s3://`.
        InvalidMedia: A tool call's arguments are not a JSON object.
    """
    system, rest = split_system(messages)
    names = _Names()
    turns: list[dict[str, Any]] = []
    for message in rest:
        if isinstance(message, User):
            blocks = [_block(item, names) for item in items(message, prepare)]
            turns.append({"role": "user", "content": blocks})
        elif isinstance(message, Assistant):
            no_assistant_media(message, RULES.provider)
            blocks = [{"text": message.content}] if message.content else []
            blocks += [
                _tool_use(call.id, call.name, call.parsed_arguments())
                for call in message.tool_calls
            ]
            turns.append({"role": "assistant", "content": blocks})
        elif isinstance(message, Tool):
            turns.append({"role": "user", "content": [_tool_result(message, prepare, names)]})
    merged = merge_turns(turns, first=lambda block: "toolResult" in block)
    payload: dict[str, Any] = {"messages": [_with_text(turn, "content") for turn in merged]}
    if system:
        payload["system"] = [{"text": text} for text in system]
    return payload


def _tool_use(call_id: str, name: str, arguments: Any) -> dict[str, Any]:
    args = call_arguments(call_id, name, arguments)
    return {"toolUse": {"toolUseId": call_id, "name": name, "input": args}}


def _tool_result(message: Tool, prepare: Prepare, names: _Names) -> dict[str, Any]:
    error = error_text(message)
    content = [
        _block(item, names, in_tool=True)
        for item in ([error] if error else []) + items(message, prepare)
    ]
    result: dict[str, Any] = {"toolUseId": message.tool_call_id, "content": content}
    if error is not None:
        result["status"] = "error"
    return {"toolResult": _with_text(result, "content")}


def _with_text(holder: dict[str, Any], key: str) -> dict[str, Any]:
    """Add a text block naming the documents to blocks that hold documents but no text."""
    blocks = holder[key]
    documents = [b["document"]["name"] for b in blocks if "document" in b]
    if documents and not any("text" in b for b in blocks):
        label = "Attached document" + ("s" if len(documents) > 1 else "")
        return {**holder, key: [*blocks, {"text": f"{label}: {', '.join(documents)}"}]}
    return holder


def _block(item: Item, names: _Names, *, in_tool: bool = False) -> dict[str, Any]:
    """Return one text, image, document, video or audio block."""
    if isinstance(item, str):
        return {"text": item}
    if item.text is not None:
        source: dict[str, Any] = {"text": item.text}
        return {"document": {"format": "txt", "name": names.make(item), "source": source}}
    fmt = formats(item.kind).get(item.media_type)
    if fmt is None or (in_tool and item.kind == "audio"):  # ToolResultContentBlock: no audio
        where = "tool result" if in_tool else "message"
        raise unsupported(RULES.provider, item, f"in a Converse {where}")
    match item.kind:
        case "file":
            source = _source(item)
            return {"document": {"format": fmt, "name": names.make(item), "source": source}}
        case "image" | "video" | "audio":  # blocks named after their kind
            return {item.kind: {"format": fmt, "source": _source(item)}}
        case _:
            assert_never(item.kind)


def _source(item: NormalizedPart) -> dict[str, Any]:
    if item.url is None:
        return {"bytes": item.data}
    if item.url.startswith("s3://"):
        return {"s3Location": {"uri": item.url}}
    raise unsupported(RULES.provider, item, "(Converse takes bytes or an s3:// URI)")


class _Names:
    """Safe, unique document names for one request (`DocumentBlock.name`'s rules)."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def make(self, item: NormalizedPart) -> str:
        """Return a name from the file's stem, else `Document N`, unique in the request."""
        stem = PurePosixPath(item.filename.replace("\\", "/")).stem if item.filename else ""
        # Accented letters lose their accents ("Résumé" → "Resume") rather than the letter.
        ascii_stem = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
        base = " ".join(NAME_BAD.sub(" ", ascii_stem).split())[:NAME_MAX].strip()
        base = base or f"Document {len(self.used) + 1}"
        name, n = base, 1
        while name in self.used:
            n += 1
            suffix = f" ({n})"
            name = base[: NAME_MAX - len(suffix)].rstrip() + suffix
        self.used.add(name)
        return name


# Converse block keys and the kind each holds.
_BLOCK_KINDS: tuple[tuple[str, Kind], ...] = (
    ("image", "image"),
    ("document", "file"),
    ("video", "video"),
    ("audio", "audio"),
)


def media_site(node: dict[str, Any], at: Where, problems: Problems) -> Site | None:
    """Return the `image`, `document`, `video` or `audio` block that `node` is (for `check`).

    A document's `name` is checked against Converse's naming rule (`VALID_NAME`).
    """
    for key, kind in _BLOCK_KINDS:
        block = node.get(key)
        if not isinstance(block, dict) or not isinstance(block.get("source"), dict):
            continue
        source = block["source"]
        given = block.get("name")
        name = (given if isinstance(given, str) else "") if kind == "file" else None
        wrong = None
        if name is not None and not VALID_NAME.match(name):
            wrong = (
                f"document name {name!r} breaks Bedrock's rules (1-200 letters, digits, "
                "single spaces, hyphens, parentheses, brackets)"
            )
        if "bytes" not in source:
            # An S3 reference or a text document: counted and named, no bytes to check.
            text = kind == "file" and "text" in source
            return Site(f"{at}.{key}", kind, None, name=name, name_problem=wrong) if text else None
        where = f"{at}.{key}.source.bytes"
        declared = media_type_of(kind, block.get("format"))
        data = payload_bytes(source.get("bytes"), where, problems)
        return Site(where, kind, declared, data=data, name=name, name_problem=wrong)
    return None
