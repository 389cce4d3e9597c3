"""AWS Bedrock Converse: its media rules and `render` to `client.converse` arguments.

Shapes and limits come from botocore's `bedrock-runtime` service model (botocore 1.44,
`botocore/data/bedrock-runtime/2023-09-30/service-2.json`, read 2026-08): `image`,
`document`, `video` and `audio` blocks with raw `bytes` (botocore base64-encodes them) or an
`s3Location`; `toolUse` and `toolResult` blocks; `system` as a list of text blocks.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Any

from typing_extensions import assert_never

from mediaparts._messages import Assistant, Message, Tool, User
from mediaparts.formats import Kind
from mediaparts.providers import anthropic
from mediaparts.providers._media_costs import CostsTable, MediaCosts
from mediaparts.providers._normalized import NormalizedPart
from mediaparts.providers._render_common import (
    TEXT_TYPES,
    Item,
    Prepare,
    call_arguments,
    call_ids,
    error_text,
    items,
    merge_turns,
    no_assistant_media,
    split_system,
    unsupported,
)
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._sites import Problems, Site, Where, payload_bytes
from mediaparts.providers._vision import ModelRule, Undocumented, VisionTable

__all__ = ["COSTS", "COSTS_SOURCE", "RULES", "VISION", "VISION_SOURCE", "media_site", "render"]

# botocore's format enums (ImageFormat, DocumentFormat, VideoFormat, AudioFormat), keyed by the
# canonical media type each format name stands for.
_IMAGE_FORMATS = {
    "image/png": "png",
    "image/jpeg": "jpeg",
    "image/gif": "gif",
    "image/webp": "webp",
}
_DOCUMENT_FORMATS = {
    "application/pdf": "pdf",
    "text/csv": "csv",
    "application/msword": "doc",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.ms-excel": "xls",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "text/html": "html",
    "text/plain": "txt",
    "text/markdown": "md",
}
_VIDEO_FORMATS = {
    "video/x-matroska": "mkv",
    "video/quicktime": "mov",
    "video/mp4": "mp4",
    "video/webm": "webm",
    "video/x-flv": "flv",
    "video/mpeg": "mpeg",
    "video/x-ms-wmv": "wmv",
    "video/3gpp": "three_gp",
}
# AudioFormat also lists opus (an Ogg stream here), x-aac, mpga and pcm (no container).
_AUDIO_FORMATS = {
    "audio/mpeg": "mp3",
    "audio/wav": "wav",
    "audio/aac": "aac",
    "audio/flac": "flac",
    "audio/mp4": "m4a",
    "audio/ogg": "ogg",
    "audio/x-matroska": "mka",
    "audio/webm": "webm",
}

# Bedrock Converse (botocore bedrock-runtime service model, read 2026-08): Claude model ids
# (`anthropic.claude-...`, `us.anthropic.claude-...`, ARNs) follow Anthropic's rules; no other
# model family documents an image rule, so those get `Undocumented`.
VISION: VisionTable = (
    *(ModelRule(f"*{row.pattern}", row.rule) for row in anthropic.VISION),
    ModelRule("*", Undocumented("Bedrock", "image tokens of non-Claude models")),
)
VISION_SOURCE = (
    "Anthropic's rules for Claude model ids; botocore bedrock-runtime service-2.json documents "
    "none for other models (read 2026-08)"
)

# Token rates, read 2026-08: Bedrock documents no audio, video or PDF token formula.
COSTS: CostsTable = (ModelRule("*", MediaCosts("Bedrock")),)
COSTS_SOURCE = "botocore bedrock-runtime service-2.json: no token formula (read 2026-08)"

RULES = Rules(
    vision=VISION,
    costs=COSTS,
    vision_source=VISION_SOURCE,
    costs_source=COSTS_SOURCE,
    provider="bedrock",
    # Message.content (read 2026-08): "up to 20 images. Each image's size, height, and width must
    # be no more than 3.75 MB, 8000 px, and 8000 px" (raw bytes; 3.75 MB is Anthropic's 5 MB of
    # base64 × 3/4; an inference, as the docs do not say). The 20 is per message. Only `s3://`
    # URIs can be given instead of bytes, so no http(s) URL passes through.
    image=ImageRules(
        media_types=tuple(_IMAGE_FORMATS),
        max_bytes=3_932_160,
        max_count=20,
        count_scope="message",
        max_width=8000,
        max_height=8000,
        animated=False,
        source="botocore bedrock-runtime service-2.json Message, ImageFormat (read 2026-08)",
    ),
    # AudioFormat (read 2026-08); no size limit is documented.
    audio=KindRules(
        media_types=tuple(_AUDIO_FORMATS),
        source="botocore bedrock-runtime service-2.json AudioFormat (read 2026-08)",
    ),
    # VideoSource: "base64-encoded string as long as the encoded file is less than 25MB"
    # (read 2026-08); up to 1 GB from S3.
    video=KindRules(
        media_types=tuple(_VIDEO_FORMATS),
        max_bytes=25 * 2**20,
        measure="base64",
        source="botocore bedrock-runtime service-2.json VideoSource, VideoFormat (read 2026-08)",
    ),
    # Message.content: "up to five documents. Each document's size must be no more than 4.5 MB"
    # (per message). DocumentFormat's types are sent as bytes; other text formats are sent as
    # `txt` documents with a `text` source.
    file=FileRules(
        media_types=tuple(_DOCUMENT_FORMATS),
        max_bytes=4_718_592,
        max_count=5,
        count_scope="message",
        text_types=tuple(t for t in TEXT_TYPES if t not in _DOCUMENT_FORMATS),
        source="botocore bedrock-runtime service-2.json Message, DocumentFormat (read 2026-08)",
    ),
    # Converse documents no request size (InvokeModel's body is ≤25,000,000 bytes).
    source="botocore bedrock-runtime service-2.json (read 2026-08)",
)


def _formats(kind: Kind) -> dict[str, str]:
    """Return the Converse `format` name of each media type of a kind."""
    match kind:
        case "image":
            return _IMAGE_FORMATS
        case "audio":
            return _AUDIO_FORMATS
        case "video":
            return _VIDEO_FORMATS
        case "file":
            return _DOCUMENT_FORMATS
        case _:
            assert_never(kind)


# DocumentBlock.name (botocore, read 2026-08): 1-200 characters; alphanumerics, whitespace (no
# more than one in a row), hyphens, parentheses and square brackets. The service checks with
# ASCII classes (re.ASCII: Python's own \s also takes \x1c-\x1f, NBSP, U+3000), over the whole
# name (\Z: `$` also matches before a final newline, letting a 201st character through).
# `.{0,199}` rather than `.*`: a name that passes is at most 200 characters anyway; DOTALL so
# the look-ahead also sees a double space after a newline (a newline is whitespace here).
_NAME_CHARS = r"A-Za-z0-9\s\-()\[\]"
VALID_NAME = re.compile(rf"\A(?!.{{0,199}}\s\s)[{_NAME_CHARS}]{{1,200}}\Z", re.ASCII | re.DOTALL)


def media_type_of(kind: Kind, fmt: object) -> str | None:
    """Return the canonical media type a Converse `format` name stands for, or None."""
    for media_type, name in _formats(kind).items():
        if name == fmt:
            return media_type
    return None


_NAME_BAD = re.compile(rf"[^{_NAME_CHARS}]+", re.ASCII)
_NAME_MAX = 200


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
    ids = call_ids(rest)
    turns: list[dict[str, Any]] = []
    for message in rest:
        if isinstance(message, User):
            blocks = [_block(item, names) for item in items(message, prepare)]
            turns.append({"role": "user", "content": blocks})
        elif isinstance(message, Assistant):
            no_assistant_media(message, RULES.provider)
            blocks = [{"text": message.content}] if message.content else []
            blocks += [
                _tool_use(ids[id(call)], call.name, call.parsed_arguments())
                for call in message.tool_calls
            ]
            turns.append({"role": "assistant", "content": blocks})
        elif isinstance(message, Tool):
            turns.append(
                {
                    "role": "user",
                    "content": [_tool_result(message, prepare, names, ids[id(message)])],
                }
            )
    merged = merge_turns(turns, first=lambda block: "toolResult" in block)
    payload: dict[str, Any] = {"messages": [_with_text(turn, "content") for turn in merged]}
    if system:
        payload["system"] = [{"text": text} for text in system]
    return payload


def _tool_use(call_id: str, name: str, arguments: Any) -> dict[str, Any]:
    args = call_arguments(call_id, name, arguments)
    return {"toolUse": {"toolUseId": call_id, "name": name, "input": args}}


def _tool_result(message: Tool, prepare: Prepare, names: _Names, call_id: str) -> dict[str, Any]:
    error = error_text(message)
    content = [
        _block(item, names, in_tool=True)
        for item in ([error] if error else []) + items(message, prepare)
    ]
    result: dict[str, Any] = {"toolUseId": call_id, "content": content}
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
    fmt = _formats(item.kind).get(item.media_type)
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
        base = " ".join(_NAME_BAD.sub(" ", ascii_stem).split())[:_NAME_MAX].strip()
        base = base or f"Document {len(self.used) + 1}"
        name, n = base, 1
        while name in self.used:
            n += 1
            suffix = f" ({n})"
            name = base[: _NAME_MAX - len(suffix)].rstrip() + suffix
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
