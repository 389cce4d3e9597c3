"""Render one part as a Converse content block (the inverse of `_read_blocks`)."""

from __future__ import annotations

import copy
import json
import unicodedata
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from typing_extensions import assert_never

from mediaparts._conversation._dialogue import Cache
from mediaparts._conversation._parts import (
    ProviderPart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
)
from mediaparts.providers._fitting._normalized import NormalizedPart
from mediaparts.providers._wire._rendering import Block, Prepare, call_arguments, hints, unsupported
from mediaparts.providers.wires.converse._shapes import NAME_BAD, NAME_MAX, VALID_NAME, formats

__all__ = ["Names", "block", "cache_of", "cache_point", "hints_of"]


class Names:
    """Safe, unique document names for one request (`DocumentBlock.name`'s rules)."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def make(self, item: NormalizedPart) -> str:
        """Return a name from the file's stem, else `Document N`, unique in the request.

        A file name that already is a valid document name (one read from a payload) is kept
        as it is, whitespace included.
        """
        if item.filename and VALID_NAME.match(item.filename) and item.filename not in self.used:
            self.used.add(item.filename)
            return item.filename
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


def hints_of(item: Block, provider: str) -> Mapping[str, Any]:
    """Return the Bedrock hints a part carries (a prepared media part: its source part's)."""
    return hints(item, provider)


def cache_of(item: Block, provider: str) -> Cache | None:
    """Return the cache breakpoint after a part (a prepared media part: its source part's)."""
    source = item.part if isinstance(item, NormalizedPart) else item
    return None if source is None else source.cache


def cache_point(cache: Cache, hints: Mapping[str, Any]) -> dict[str, Any]:
    """Return a `cachePoint` block; `ttl` is written for 1h, or where the payload wrote it."""
    point: dict[str, Any] = {"type": "default"}
    if cache == "1h" or hints.get("ttl"):
        point["ttl"] = cache
    return {"cachePoint": point}


def block(
    item: Block, prepare: Prepare, names: Names, ids: Mapping[int, str], *, in_tool: bool = False
) -> dict[str, Any] | None:
    """Return the Converse block of one part, or None when it is left out (and reported).

    Args:
        item: The part (media already prepared).
        prepare: For `prepare.lose`.
        names: The document names used so far in the request.
        ids: The id of each tool call (`call_ids`).
        in_tool: The part is inside a `toolResult` (JSON results; no audio, no tool calls).
    """
    provider = prepare.served.name
    match item:
        case TextPart():
            return _text(item, prepare, in_tool=in_tool)
        case NormalizedPart():
            return _media(item, names, provider, in_tool=in_tool)
        case ReasoningPart() | ToolCall() if in_tool:
            prepare.lose(item, f"a Converse tool result cannot hold {item.kind.replace('_', ' ')}")
            return None
        case ReasoningPart():
            return _reasoning(item, prepare)
        case ToolCall():
            call_id = ids[id(item)]
            args = call_arguments(call_id, item.name, item.parsed_arguments())
            return {"toolUse": {"toolUseId": call_id, "name": item.name, "input": args}}
        case RefusalPart():  # Converse has no refusal block: the refusal is said as text
            return {"text": item.text}
        case ProviderPart():  # `parts` left out other providers' blocks
            data: dict[str, Any] = copy.deepcopy(item.data)
            return data
        case _:
            assert_never(item)


def _text(part: TextPart, prepare: Prepare, *, in_tool: bool) -> dict[str, Any] | None:
    provider = prepare.served.name
    hints = part.native.get(provider, {})
    if in_tool:  # ToolResultContentBlock: text, json, media, searchResult; no citations
        if part.citations:
            prepare.lose(part, "a Converse tool result holds no citations (the text is kept)")
        if hints.get("json"):
            try:
                return {"json": json.loads(part.text)}
            except (ValueError, RecursionError):
                pass  # edited since it was read: sent as the text it now is
        return {"text": part.text} if part.text else None
    if hints.get("guard"):
        guarded: dict[str, Any] = {"text": part.text}
        if "qualifiers" in hints:
            guarded["qualifiers"] = list(hints["qualifiers"])
        return {"guardContent": {"text": guarded}}
    own = [c for c in part.citations if c.provider == provider]
    if len(own) < len(part.citations):
        prepare.lose(part, "Converse holds only its own citations (the text is kept)")
    if own or hints.get("citations_content"):
        content = [{"text": piece} for piece in _split(part.text, hints.get("chunks"))]
        cited = [copy.deepcopy(c.data) for c in own]
        return {"citationsContent": {"content": content, "citations": cited}}
    return {"text": part.text} if part.text else None


def _split(text: str, lengths: Any) -> list[str]:
    """Cut text into the pieces it was read from (`chunks`), when they still add up."""
    if not isinstance(lengths, list) or not all(isinstance(n, int) and n >= 0 for n in lengths):
        return [text]
    if sum(lengths) != len(text):
        return [text]
    pieces, start = [], 0
    for n in lengths:
        pieces.append(text[start : start + n])
        start += n
    return pieces


def _reasoning(part: ReasoningPart, prepare: Prepare) -> dict[str, Any] | None:
    provider = prepare.served.name
    if part.provider != provider:
        prepare.lose(part, f"{provider} replays only reasoning it produced")
        return None
    if part.data is not None:
        return {"reasoningContent": {"redactedContent": part.data}}
    if part.text is None:
        prepare.lose(part, "it has neither text nor redacted content")
        return None
    text: dict[str, Any] = {"text": part.text}
    if part.signature is not None:
        text["signature"] = part.signature
    return {"reasoningContent": {"reasoningText": text}}


def _media(item: NormalizedPart, names: Names, provider: str, *, in_tool: bool) -> dict[str, Any]:
    """Return an image, document, video or audio block (a text file: a text document)."""
    hints = hints_of(item, provider)
    # An empty text file goes as text too: Converse's document bytes hold 1 byte at least
    # (DocumentSourceBytesBlob "min": 1 in botocore's bedrock-runtime model), its text none.
    as_text = item.text is not None or hints.get("source") in _TEXT_SOURCES or item.data == b""
    if item.kind == "file" and as_text:
        return {"document": _text_document(item, hints, names)}
    fmt = hints["format"] if "format" in hints else formats(item.kind).get(item.media_type)
    # A document in S3 may go without a `format` (DocumentBlock.format is optional); bytes
    # need one, and so does every other kind. ToolResultContentBlock has no audio.
    optional = "format" in hints or (item.kind == "file" and item.file_id is not None)
    if (fmt is None and not optional) or (in_tool and item.kind == "audio"):
        where = "tool result" if in_tool else "message"
        raise unsupported(provider, item, f"in a Converse {where}")
    source = _source(item, hints, provider)
    match item.kind:
        case "file":
            document: dict[str, Any] = {"name": names.make(item), "source": source}
            if fmt is not None:
                document["format"] = fmt
            return {"document": document | _document_extras(hints)}
        case "image" if hints.get("guard") and not in_tool:
            return {"guardContent": {"image": {"format": fmt, "source": source}}}
        case "image" | "video" | "audio":  # blocks named after their kind
            media: dict[str, Any] = {"format": fmt, "source": source}
            if "error" in hints:
                media["error"] = copy.deepcopy(hints["error"])
            return {item.kind: media}
        case _:
            assert_never(item.kind)


_TEXT_SOURCES = ("text", "content")


def _text_document(item: NormalizedPart, hints: Mapping[str, Any], names: Names) -> dict[str, Any]:
    """Return a document whose source is text (`text`, or `content` pieces as read)."""
    text = item.text if item.text is not None else (item.data or b"").decode("utf-8", "replace")
    source: dict[str, Any] = {"text": text}
    if hints.get("source") == "content":
        source = {"content": [{"text": piece} for piece in _split(text, hints.get("chunks"))]}
    if "format" in hints:
        fmt = hints["format"]
    elif item.text is not None:
        fmt = "txt"  # a text type Converse has no format for: sent as plain text
    else:
        fmt = formats("file").get(item.media_type, "txt")
    document: dict[str, Any] = {"name": names.make(item), "source": source}
    if fmt is not None:
        document["format"] = fmt
    return document | _document_extras(hints)


def _document_extras(hints: Mapping[str, Any]) -> dict[str, Any]:
    """Return a document's `context` and `citations` as the payload read had them."""
    return {key: copy.deepcopy(hints[key]) for key in ("context", "citations") if key in hints}


def _source(item: NormalizedPart, hints: Mapping[str, Any], provider: str) -> dict[str, Any]:
    if item.file_id is not None:
        location = {"uri": item.file_id}
        if "bucketOwner" in hints:
            location["bucketOwner"] = hints["bucketOwner"]
        return {"s3Location": location}
    if item.url is None:
        return {"bytes": item.data}
    if item.url.startswith("s3://"):
        return {"s3Location": {"uri": item.url}}
    raise unsupported(provider, item, "(Converse takes bytes or an s3:// URI)")
