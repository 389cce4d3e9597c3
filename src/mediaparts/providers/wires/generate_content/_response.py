"""Read a `GenerateContentResponse` (the SDK's object or its dict) as an `Assistant`.

The first candidate's content becomes the parts (read as a request's `model` content is);
`usageMetadata` becomes `Usage`; `finishReason` the stop reason; `citationMetadata` and
`groundingMetadata` become citations on the text they support.
"""

from __future__ import annotations

import base64
import bisect
import functools
import math
from typing import Any

from mediaparts._conversation._json_data import data_copy
from mediaparts._conversation._messages import Assistant, StopReason, Tool, Usage
from mediaparts._conversation._parts import Citation, TextPart, ToolCall
from mediaparts._errors import InvalidMedia, excerpt
from mediaparts._surrogates import SURROGATE
from mediaparts.providers._wire._reading import (
    as_dict,
    as_list,
    plain,
    shown,
    stop_reason,
    token_count,
    utf8,
)
from mediaparts.providers._wire._rendering import Served
from mediaparts.providers.wires.generate_content._read import Read, read_part
from mediaparts.providers.wires.generate_content._shapes import STOP_REASONS
from mediaparts.providers.wires.generate_content._spelling import absent, camel, pick

__all__ = ["read_response", "usage_of", "wire_dict"]


# What a GenerateContentResponse holds at least one of: a reply, the reason a prompt was
# blocked, or (a stream's last chunk) only the token counts (ai.google.dev/api/generate-content
# #GenerateContentResponse and google-genai 3.4 types.GenerateContentResponse, read 2026-11).
_EXPECTED = ("candidates", "promptFeedback", "usageMetadata")

# The fields whose value is a caller's JSON (function arguments and results, part metadata):
# their keys are not field names, and keep their spelling.
_VERBATIM = frozenset({"args", "response", "partMetadata"})
# Bytes fields, which pydantic's JSON dump (`to_json_dict()`) writes in the URL-safe base64
# alphabet: read in the standard one, as the REST API writes them (the same bytes).
_BASE64 = {("thoughtSignature", False), ("thoughtSignature", True), ("data", True)}
_STANDARD = str.maketrans("-_", "+/")
# `data_copy`'s bounds, which the fast copy (`_quick`) keeps: nesting, and a number's range.
_MAX_DEPTH = 64
_LOWEST, _BEYOND = -(2**63), 2**64


def read_response(response: Any, served: Served) -> Assistant:
    """Read a `GenerateContentResponse` (SDK object, REST JSON or `to_json_dict()`).

    Raises:
        InvalidMedia: Anything not shaped as the API documents, naming its JSON path.
    """
    body = wire_dict(response, "response")
    if all(body.get(key) is None for key in _EXPECTED):  # camelCase by now (`wire_dict`)
        keys = ", ".join(excerpt(k) for k in list(body)[:5]) or "none"
        raise InvalidMedia(
            "response: expected a GenerateContentResponse with 'candidates', 'promptFeedback' "
            f"or 'usageMetadata', got keys {keys:.200}"
        )
    candidates = as_list(absent(pick(body, "candidates", "response")[1], []), "response.candidates")
    parts: list[Read] = []
    raw: str | None = None
    at = "response.candidates[0]"
    if candidates:
        candidate = as_dict(candidates[0], at)
        content = pick(candidate, "content", at)[1]
        if content is not None:
            node = as_dict(content, f"{at}.content")
            items = as_list(absent(node.get("parts"), []), f"{at}.content.parts")
            for i, item in enumerate(items):
                read = read_part(served, item, f"{at}.content.parts[{i}]", "model")
                assert not isinstance(read, Tool)  # a model Content holds no tool result
                parts.append(read)
        parts = _cite(served, parts, candidate, at)
        raw = _text(candidate, "finishReason", at)
    else:
        feedback = pick(body, "promptFeedback", "response")[1]
        if feedback is not None:
            raw = _text(as_dict(feedback, "response.promptFeedback"), "blockReason", at)
    # A blocked prompt has no candidate, only `promptFeedback.blockReason`.
    reason: StopReason | None = "content_filter"
    if candidates or raw is None:
        reason, raw = stop_reason(raw, STOP_REASONS, at)
    if reason == "end" and any(isinstance(p, ToolCall) for p in parts):
        reason = "tool_call"
    return Assistant(
        parts=parts,
        usage=usage_of(body, "response"),
        model=_text(body, "modelVersion", "response"),
        id=_text(body, "responseId", "response"),
        stop_reason=reason,
        stop_reason_raw=raw,
    )


def wire_dict(response: Any, at: str) -> dict[str, Any]:
    """Return a response (or one streamed chunk of one) as the REST API writes it: a dict in
    camelCase, bytes as base64 text; `at` names it in errors.

    Raises:
        InvalidMedia: It is neither the SDK's object nor a dict of JSON data.
    """
    # camelCase aliases: the spelling of the REST API's JSON.
    body = response if type(response) is dict else plain(response, by_alias=True)
    try:
        return _quick(body, at.endswith(".inlineData"), 0)
    except _Unusual:  # the checked passes decide: the error they raise, or what they make
        return as_dict(_camel(data_copy(plain(body, by_alias=True), what=at), at), at)


class _Unusual(Exception):
    """Something the one-pass copy leaves to `data_copy` and `_camel`: an error, a type
    other than JSON's own (a tuple, a Mapping, a subclass), keys that clash, nesting near the
    bound, a `{"$bytes": ...}` dict (bytes inside `reading_dicts()`)."""


def _quick(node: dict[str, Any], inline: bool, depth: int) -> dict[str, Any]:
    """Return what `_camel(data_copy(node))` does for plain JSON data, in one pass.

    `inline` tells whether `node` is an `inlineData` (whose `data` is base64 text); error paths
    are not built, since any error is raised by the checked passes (`_Unusual`).
    """
    if depth >= _MAX_DEPTH or (len(node) == 1 and "$bytes" in node):
        raise _Unusual
    out: dict[str, Any] = {}
    for key, item in node.items():
        if type(key) is not str:
            raise _Unusual
        name = key if key.isascii() else SURROGATE.sub("\ufffd", key)
        if "_" in name:
            name = _camel_name(name) if len(name) <= 64 else camel(name)
        if name in out:
            raise _Unusual
        kind = type(item)
        if kind is str:
            if not item.isascii():
                item = SURROGATE.sub("\ufffd", item)
            # `_BASE64`; a verbatim field's text is kept as it is.
            if name == "thoughtSignature" or (inline and name == "data"):
                item = item.translate(_STANDARD)
            out[name] = item
        elif kind is int and _LOWEST <= item < _BEYOND:
            out[name] = item
        elif name in _VERBATIM:
            out[name] = _data(item, depth + 1)
        elif kind is dict:
            # As `_camel`'s path `{at}.{name}` ending in ".inlineData" (a key may hold dots).
            inner = name == "inlineData" or name.endswith(".inlineData")
            out[name] = _quick(item, inner, depth + 1)
        elif kind is list:
            out[name] = _items(item, depth + 1)
        else:
            out[name] = _scalar(item)
    return out


def _items(node: list[Any], depth: int) -> list[Any]:
    """Return what `_camel(data_copy(node))` does for a list of plain JSON data."""
    if depth >= _MAX_DEPTH:
        raise _Unusual
    out: list[Any] = []
    for item in node:
        kind = type(item)
        if kind is dict:
            out.append(_quick(item, False, depth + 1))  # at `{at}[i]`: not an inlineData
        elif kind is list:
            out.append(_items(item, depth + 1))
        else:
            out.append(_scalar(item))
    return out


def _data(value: Any, depth: int) -> Any:
    """Return what `_b64(data_copy(value))` does for plain JSON data (keys kept as they are)."""
    if type(value) is dict:
        if depth >= _MAX_DEPTH or (len(value) == 1 and "$bytes" in value):
            raise _Unusual
        out: dict[str, Any] = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _Unusual
            # Keys equal once cleaned are one, the last value in the first one's place.
            out[key if key.isascii() else SURROGATE.sub("\ufffd", key)] = _data(item, depth + 1)
        return out
    if type(value) is list:
        if depth >= _MAX_DEPTH:
            raise _Unusual
        return [_data(item, depth + 1) for item in value]
    return _scalar(value)


def _scalar(value: Any) -> Any:
    """Return a JSON scalar as `data_copy` then `_camel` make it (bytes as base64 text)."""
    kind = type(value)
    if kind is str:
        return value if value.isascii() else SURROGATE.sub("\ufffd", value)
    if value is None or kind is bool:
        return value
    if kind is int and _LOWEST <= value < _BEYOND:
        return value
    if kind is float and math.isfinite(value):
        return value
    if kind is bytes:
        return base64.b64encode(value).decode("ascii")
    raise _Unusual


@functools.lru_cache(maxsize=256)
def _camel_name(key: str) -> str:
    """`camel(key)`, remembered for the few field names a response spells in snake_case
    (keys are the sender's: only short ones are kept, and at most 256)."""
    return camel(key)


def _camel(value: Any, at: str) -> Any:
    """Return the response in camelCase with bytes as base64 text, as the REST API writes it.

    A response is read, not rendered back as itself, so its spelling is not kept: the reply
    read from `to_json_dict()` (snake_case) equals the one read from the SDK object, and goes
    back in camelCase in the next request.
    """
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, list):
        return [_camel(v, f"{at}[{i}]") for i, v in enumerate(value)]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        name = camel(key)
        if name in out:
            raise InvalidMedia(f"{at}: both {shown(name)} and {shown(key)} are given; keep one")
        if name in _VERBATIM:
            out[name] = _b64(item)
        elif isinstance(item, str) and (name, at.endswith(".inlineData")) in _BASE64:
            out[name] = item.translate(_STANDARD)
        else:
            out[name] = _camel(item, f"{at}.{name}")
    return out


def _b64(value: Any) -> Any:
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, dict):
        return {k: _b64(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_b64(v) for v in value]
    return value


def _text(node: dict[str, Any], name: str, at: str) -> str | None:
    key, value = pick(node, name, at)
    if value is not None and not isinstance(value, str):
        raise InvalidMedia(f"{at}.{key}: expected a string, got {type(value).__name__}")
    return value


def _tokens(node: dict[str, Any], name: str, at: str) -> int:
    """Return a token count in either spelling (missing: 0), naming its JSON path if wrong."""
    key, _ = pick(node, name, at)
    return 0 if key is None else token_count(node, key, at)


def _index(node: dict[str, Any], name: str, at: str) -> int:
    """Return an index into a text or the parts in either spelling (missing: 0)."""
    key, value = pick(node, name, at)
    if value is None:
        return 0
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidMedia(f"{at}.{key}: expected an index (0 or more), got {shown(value)}")
    return value


def usage_of(body: dict[str, Any], at: str) -> Usage | None:
    """Convert `usageMetadata` to `Usage` (input counts all of it, output counts thoughts).

    `promptTokenCount` already includes the cached tokens; `candidatesTokenCount` leaves out
    `thoughtsTokenCount`; tool-use prompts (`toolUsePromptTokenCount`, e.g. search results)
    are input read on top of the prompt (ai.google.dev/api/generate-content#UsageMetadata,
    read 2026-11: total = prompt + tool-use prompt + candidates + thoughts).
    """
    key, value = pick(body, "usageMetadata", at)
    if value is None:
        return None
    at = f"{at}.{key}"
    node = as_dict(value, at)
    thoughts = _tokens(node, "thoughtsTokenCount", at)
    return Usage(
        input_tokens=_tokens(node, "promptTokenCount", at)
        + _tokens(node, "toolUsePromptTokenCount", at),
        output_tokens=_tokens(node, "candidatesTokenCount", at) + thoughts,
        cache_read_tokens=_tokens(node, "cachedContentTokenCount", at),
        reasoning_tokens=thoughts,
    )


def _cite(served: Served, parts: list[Read], candidate: dict[str, Any], at: str) -> list[Read]:
    """Return the parts with each citation and grounding support on the text it supports."""
    texts = [i for i, p in enumerate(parts) if isinstance(p, TextPart)]
    if not texts:
        return parts
    found: dict[int, list[Citation]] = {}
    for index, citation in _citations(served, parts, texts, candidate, at):
        found.setdefault(index, []).append(citation)
    for index, citations in found.items():
        part = parts[index]
        assert isinstance(part, TextPart)
        parts[index] = part.model_copy(update={"citations": (*part.citations, *citations)})
    return parts


def _citations(
    served: Served, parts: list[Read], texts: list[int], candidate: dict[str, Any], at: str
) -> list[tuple[int, Citation]]:
    out: list[tuple[int, Citation]] = []
    key, metadata = pick(candidate, "citationMetadata", at)
    if metadata is not None:
        where = f"{at}.{key}"
        node = as_dict(metadata, where)
        layout = _layout(parts, texts)
        for i, item in enumerate(as_list(absent(node.get("citations"), []), f"{where}.citations")):
            cite = as_dict(item, f"{where}.citations[{i}]")
            index, cited = _span(layout, texts, cite, f"{where}.citations[{i}]")
            out.append(
                (
                    index,
                    Citation(
                        provider=served.name,
                        cited_text=cited,
                        title=_text(cite, "title", where),
                        url=_text(cite, "uri", where),
                        data=cite,
                    ),
                )
            )
    key, grounding = pick(candidate, "groundingMetadata", at)
    if grounding is not None:
        out += _grounding(served, parts, texts, as_dict(grounding, f"{at}.{key}"), f"{at}.{key}")
    return out


def _layout(parts: list[Read], texts: list[int]) -> tuple[list[int], list[bytes]]:
    """Return where each text part starts in the response's UTF-8 text, and its bytes."""
    starts: list[int] = []
    raws: list[bytes] = []
    offset = 0
    for index in texts:
        part = parts[index]
        assert isinstance(part, TextPart)
        starts.append(offset)
        raws.append(utf8(part.text))
        offset += len(raws[-1])
    return starts, raws


def _span(
    layout: tuple[list[int], list[bytes]], texts: list[int], cite: dict[str, Any], at: str
) -> tuple[int, str | None]:
    """Return the text part a citation's byte span starts in, and the cited text.

    `startIndex`/`endIndex` count UTF-8 bytes of the response's text (google-genai
    types.Citation, read 2026-11); a span outside it is kept on the last text part. The
    layout is computed once per candidate, so each citation is a binary search.
    """
    start = _index(cite, "startIndex", at)
    end = _index(cite, "endIndex", at)
    starts, raws = layout
    found = bisect.bisect_right(starts, start) - 1
    if found < 0 or start >= starts[found] + len(raws[found]):
        return texts[-1], None
    offset = starts[found]
    cited = raws[found][start - offset : end - offset] if end > start else b""
    return texts[found], cited.decode(errors="replace") or None


def _grounding(
    served: Served, parts: list[Read], texts: list[int], node: dict[str, Any], at: str
) -> list[tuple[int, Citation]]:
    """Return a citation per grounding support and chunk it names (Google Search grounding)."""
    chunks = as_list(absent(pick(node, "groundingChunks", at)[1], []), f"{at}.groundingChunks")
    supports = as_list(
        absent(pick(node, "groundingSupports", at)[1], []), f"{at}.groundingSupports"
    )
    out: list[tuple[int, Citation]] = []
    known = set(texts)
    for i, item in enumerate(supports):
        where = f"{at}.groundingSupports[{i}]"
        support = as_dict(item, where)
        segment = as_dict(absent(pick(support, "segment", where)[1], {}), f"{where}.segment")
        index = _index(segment, "partIndex", f"{where}.segment")
        target = index if index in known else texts[-1]
        text = _text(segment, "text", f"{where}.segment")
        key, indices = pick(support, "groundingChunkIndices", where)
        for j, value in enumerate(as_list(absent(indices, []), f"{where}.{key}")):
            if not isinstance(value, int) or not 0 <= value < len(chunks):
                raise InvalidMedia(f"{where}.{key}[{j}]: no grounding chunk {shown(value)}")
            chunk = as_dict(chunks[value], f"{at}.groundingChunks[{value}]")
            source = next((v for v in chunk.values() if isinstance(v, dict)), {})
            out.append(
                (
                    target,
                    Citation(
                        provider=served.name,
                        cited_text=text,
                        title=source.get("title") if isinstance(source.get("title"), str) else None,
                        url=source.get("uri") if isinstance(source.get("uri"), str) else None,
                        # The support's segment and this one chunk: the whole support per
                        # chunk would copy its index list once per index it holds.
                        data={
                            "segment": segment,
                            "groundingChunkIndex": value,
                            "groundingChunk": chunk,
                        },
                    ),
                )
            )
    return out
