"""Read one Converse content block into a part (the inverse of `_render`'s blocks).

Every block is a one-key object (botocore's `ContentBlock` union). The field names and enums
below are botocore 1.44's bedrock-runtime service model (service-2.json, read 2026-11). What
our parts do not hold is kept under `native["bedrock"]` (see the package docstring for each
key); a block type we do not model becomes a `ProviderPart`, never dropped.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeAlias

from mediaparts._conversation._dialogue import Cache
from mediaparts._conversation._made import made
from mediaparts._conversation._parts import (
    Citation,
    ImagePart,
    MediaPart,
    Part,
    ProviderPart,
    ReasoningPart,
    TextPart,
    ToolCall,
)
from mediaparts._errors import InvalidMedia, MediaError, excerpt, rewrap
from mediaparts._inline import b64decode
from mediaparts.formats import Kind
from mediaparts.providers._wire._reading import (
    as_dict,
    as_list,
    file_reference,
    inline_media,
    json_arguments,
    located,
    maybe,
    need,
    read_dict,
    shown,
    utf8,
)
from mediaparts.providers._wire._rendering import Served
from mediaparts.providers.wires.converse._shapes import FORMAT_NAMES, formats

__all__ = [
    "Extra",
    "Made",
    "cache_point",
    "citation",
    "json_result",
    "one_key",
    "part",
    "provider_part",
]

Made: TypeAlias = Part | MediaPart
"""A part read from a block (media is typed `MediaPart` by the readers that build it)."""

Extra: TypeAlias = dict[str, Any]
"""The hints gathered for one part: its `native[<provider>]` entry."""

# Blocks of `Message.content` named after the media kind they hold.
_MEDIA_KEYS: dict[str, Kind] = {"image": "image", "video": "video", "audio": "audio"}


def one_key(value: Any, at: str) -> tuple[str, Any]:
    """Return the one member of a union object (a content block, a source), or raise."""
    block = read_dict(value, at)
    if len(block) != 1:
        keys = ", ".join(sorted(block)) or "none"
        raise InvalidMedia(f"{at}: expected an object with exactly one key, got {keys}")
    ((key, inner),) = block.items()
    return key, inner


def cache_point(value: Any) -> tuple[Cache, bool] | None:
    """Return (the breakpoint's TTL, whether `ttl` was written) for a plain cachePoint, else None.

    `CachePointBlock` (botocore, read 2026-11): `type` is always `default`; `ttl` is `5m` (the
    default) or `1h`.
    """
    if not isinstance(value, Mapping) or value.get("type") != "default":
        return None
    ttl = value.get("ttl", "5m")
    if set(value) - {"type", "ttl"} or ttl not in ("5m", "1h"):
        return None
    return ("1h" if ttl == "1h" else "5m"), "ttl" in value


def fields(served: Served, hints: Extra, cache: Cache | None) -> dict[str, Any]:
    """Return the `cache=` and `native=` keyword arguments of a part, when there are any."""
    out: dict[str, Any] = {}
    if cache is not None:
        out["cache"] = cache
    if hints:
        out["native"] = {served.name: hints}
    return out


def provider_part(
    served: Served, key: str, value: Any, at: str, hints: Extra, cache: Cache | None
) -> ProviderPart:
    """Return a block we do not model, kept exactly as written (`at` names its value).

    Raises:
        InvalidMedia: It is not JSON data (or bytes), naming `at`.
    """
    with located(at):
        part = ProviderPart(provider=served.name, data={key: value}, **fields(served, hints, cache))
    return part


def part(served: Served, key: str, value: Any, at: str, hints: Extra, cache: Cache | None) -> Made:
    """Return the part for one block of a message (`at` names the block's value)."""
    if key == "text":
        return made(TextPart, text=text(value, at), **fields(served, hints, cache))
    if key in _MEDIA_KEYS:
        return media(served, _MEDIA_KEYS[key], value, at, hints, cache)
    if key == "document":
        return document(served, value, at, hints, cache)
    if key == "reasoningContent":
        return _reasoning(served, value, at, hints, cache)
    if key == "toolUse":
        return _tool_use(served, value, at, hints, cache)
    if key == "citationsContent":
        return _citations(served, value, at, hints, cache)
    if key == "guardContent":
        return _guard(served, value, at, hints, cache)
    # searchResult, toolAddition, toolRemoval, and any block type added after 2026-11.
    return provider_part(served, key, value, at, hints, cache)


def media(
    served: Served, kind: Kind, value: Any, at: str, hints: Extra, cache: Cache | None
) -> Made:
    """Return an `image`, `video` or `audio` block as a media part.

    A format without a media type of ours (`pcm`: raw samples) keeps the block as it is.
    """
    block = as_dict(value, at)
    _only(block, ("format", "source", "error"), at)
    fmt = need(block, "format", at, str)
    media_type = FORMAT_NAMES[kind].get(fmt)
    if media_type is None:
        return provider_part(served, kind, value, at, hints, cache)
    if formats(kind).get(media_type) != fmt:  # an alias (`mpg`, `mpga`, `x-aac`, ...)
        hints = {**hints, "format": fmt}
    if "error" in block:  # `ErrorBlock` of a response's image or audio
        hints = {**hints, "error": as_dict(block["error"], f"{at}.error")}
    return _source(
        served, kind, need(block, "source", at, dict), f"{at}.source", media_type, hints, cache
    )


def document(served: Served, value: Any, at: str, hints: Extra, cache: Cache | None) -> Made:
    """Return a `document` block as a file part (its `name` becomes the file name)."""
    block = as_dict(value, at)
    _only(block, ("format", "name", "source", "context", "citations"), at)
    name = need(block, "name", at, str)
    fmt = maybe(block, "format", at, str)
    media_type = None if fmt is None else FORMAT_NAMES["file"].get(fmt)
    if fmt is not None and media_type is None:
        return provider_part(served, "document", value, at, hints, cache)
    hints = dict(hints)
    if fmt is None:
        hints["format"] = None  # no `format` written (it is optional)
    for key, kind in (("context", str), ("citations", dict)):
        found = maybe(block, key, at, kind)
        if found is not None:
            hints[key] = found
    key, source = one_key(need(block, "source", at, dict), f"{at}.source")
    where = f"{at}.source.{key}"
    if key == "text" or key == "content":
        content, chunks = (text(source, where), None) if key == "text" else _chunks(source, where)
        hints["source"] = key
        if chunks is not None and len(chunks) != 1:
            hints["chunks"] = chunks
        raw = utf8(content)
        declared = media_type or "text/plain"
        return inline_media(
            "file", raw, declared, where, filename=name, **fields(served, hints, cache)
        )
    return _source(
        served, "file", {key: source}, f"{at}.source", media_type, hints, cache, filename=name
    )


def _source(
    served: Served,
    kind: Kind,
    value: dict[str, Any],
    at: str,
    media_type: str | None,
    hints: Extra,
    cache: Cache | None,
    **more: Any,
) -> MediaPart:
    """Return media from a source: raw `bytes` (or base64 text) or an `s3Location`."""
    key, inner = one_key(value, at)
    if key == "bytes":
        return inline_media(
            kind, inner, media_type, f"{at}.bytes", **more, **fields(served, hints, cache)
        )
    if key == "s3Location":
        location = as_dict(inner, f"{at}.s3Location")
        _only(location, ("uri", "bucketOwner"), f"{at}.s3Location")
        owner = maybe(location, "bucketOwner", f"{at}.s3Location", str)
        if owner is not None:
            hints = {**hints, "bucketOwner": owner}
        uri = need(location, "uri", f"{at}.s3Location", str)
        where = f"{at}.s3Location.uri"
        return file_reference(
            kind, uri, served.name, media_type, where, **more, **fields(served, hints, cache)
        )
    raise InvalidMedia(f"{at}: expected bytes or s3Location, got {excerpt(key)}")


def _chunks(value: Any, at: str) -> tuple[str, list[int]]:
    """Return the text of `[{"text": ...}, ...]` and the length of each piece."""
    texts = [
        need(as_dict(item, f"{at}[{i}]"), "text", f"{at}[{i}]", str)
        for i, item in enumerate(as_list(value, at))
    ]
    return "".join(texts), [len(t) for t in texts]


def _reasoning(served: Served, value: Any, at: str, hints: Extra, cache: Cache | None) -> Made:
    key, inner = one_key(value, at)
    if key == "reasoningText":
        block = as_dict(inner, f"{at}.reasoningText")
        _only(block, ("text", "signature"), f"{at}.reasoningText")
        text = need(block, "text", f"{at}.reasoningText", str)
        signature = maybe(block, "signature", f"{at}.reasoningText", str)
        return ReasoningPart(
            text=text, signature=signature, provider=served.name, **fields(served, hints, cache)
        )
    if key == "redactedContent":
        if not isinstance(inner, bytes | bytearray | memoryview | str):
            raise InvalidMedia(f"{at}.redactedContent: expected bytes, got {type(inner).__name__}")
        # A blob: bytes for boto3; base64 text in JSON (decoded, as `bytes` sources are).
        try:
            data = b64decode(inner) if isinstance(inner, str) else bytes(inner)
        except MediaError as exc:
            raise rewrap(exc, f"{at}.redactedContent: {exc}") from exc
        return ReasoningPart(data=data, provider=served.name, **fields(served, hints, cache))
    return provider_part(served, "reasoningContent", value, at, hints, cache)


def _tool_use(served: Served, value: Any, at: str, hints: Extra, cache: Cache | None) -> Made:
    block = as_dict(value, at)
    _only(block, ("toolUseId", "name", "input", "type"), at)
    call_id = need(block, "toolUseId", at, str)
    name = need(block, "name", at, str)
    if "input" not in block:
        raise InvalidMedia(f"{at}.input: missing (expected an object)")
    arguments = json_arguments(block["input"], f"{at}.input")
    if block.get("type") is not None:  # `server_tool_use`: the API ran the tool itself
        return provider_part(served, "toolUse", value, at, hints, cache)
    return made(
        ToolCall, id=call_id, name=name, arguments=arguments, **fields(served, hints, cache)
    )


def _citations(served: Served, value: Any, at: str, hints: Extra, cache: Cache | None) -> TextPart:
    block = as_dict(value, at)
    _only(block, ("content", "citations"), at)
    text, chunks = _chunks(block.get("content", []), f"{at}.content")
    hints = {**hints, "citations_content": True}
    if len(chunks) != 1:
        hints["chunks"] = chunks
    cited = as_list(block.get("citations", []), f"{at}.citations")
    found = tuple(citation(served, item, f"{at}.citations[{i}]") for i, item in enumerate(cited))
    return TextPart(text=text, citations=found, **fields(served, hints, cache))


def citation(served: Served, value: Any, at: str) -> Citation:
    """Return one `Citation` (botocore): title, source, sourceContent and a location."""
    item = as_dict(value, at)
    title = maybe(item, "title", at, str)
    quoted = maybe(item, "sourceContent", at, list)
    cited = None if quoted is None else _chunks(quoted, f"{at}.sourceContent")[0]
    location = maybe(item, "location", at, dict) or {}
    web = maybe(location, "web", f"{at}.location", dict) or {}
    url = maybe(web, "url", f"{at}.location.web", str)
    return Citation(provider=served.name, cited_text=cited, title=title, url=url, data=item)


def _guard(served: Served, value: Any, at: str, hints: Extra, cache: Cache | None) -> Made:
    """Return guardrail content as text or an image marked `guard` (the model reads it too)."""
    key, inner = one_key(value, at)
    hints = {**hints, "guard": True}
    where = f"{at}.{key}"
    if key == "text":
        block = as_dict(inner, where)
        _only(block, ("text", "qualifiers"), where)
        qualifiers = maybe(block, "qualifiers", where, list)
        if qualifiers is not None:
            hints["qualifiers"] = [
                text(q, f"{where}.qualifiers[{i}]") for i, q in enumerate(qualifiers)
            ]
        said = need(block, "text", where, str)
        return made(TextPart, text=said, **fields(served, hints, cache))
    unguarded = {k: v for k, v in hints.items() if k != "guard"}
    if key == "image":
        block = as_dict(inner, where)
        _only(block, ("format", "source"), where)
        image = media(served, "image", block, where, hints, cache)
        if isinstance(image, ImagePart) and image.file_id is not None:
            # GuardrailConverseImageSource (read 2026-11) has bytes only.
            raise InvalidMedia(f"{where}.source: a guarded image takes bytes only")
        if isinstance(image, ImagePart):
            return image
    return provider_part(served, "guardContent", value, at, unguarded, cache)


def json_result(served: Served, value: Any, at: str, hints: Extra, cache: Cache | None) -> TextPart:
    """Return a tool result's `json` block as its JSON text, marked to render back as JSON."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidMedia(f"{at}: expected JSON data ({exc})") from exc
    return TextPart(text=text, **fields(served, {**hints, "json": True}, cache))


def text(value: Any, at: str) -> str:
    """Return `value`, which must be a string."""
    if not isinstance(value, str):
        shown = "null" if value is None else type(value).__name__
        raise InvalidMedia(f"{at}: expected a string, got {shown}")
    return value


def _only(block: Mapping[str, Any], allowed: tuple[str, ...], at: str) -> None:
    """Refuse keys botocore's shape does not have (they could not be rendered back)."""
    extra = sorted(set(block) - set(allowed))
    if extra:
        raise InvalidMedia(
            f"{at}: unexpected key {shown(extra[0])} (expected {', '.join(allowed)})"
        )
