"""Message content as given (text, parts, shorthands, type-tagged dicts) made into parts.

`mp.User("Describe", files=[...])`, `mp.User(["Compare", {"path": "a.png"}, part])` and the
content lists of message dicts all come through `to_parts`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mediaparts._conversation._dialogue import PartFields
from mediaparts._conversation._make_part import is_single_source, part, part_from_mapping
from mediaparts._conversation._parts import MediaPart, TextPart
from mediaparts._errors import InvalidMedia, excerpt

__all__ = ["to_parts"]


def to_parts(content: Any, files: Iterable[Any] | None) -> tuple[Any, ...]:
    """Return content (and `files=`) as a tuple of parts, in order.

    Content is text, one part or piece of media, or a list of text, parts, media, shorthands
    and type-tagged content dicts; `files` is media only.

    Raises:
        InvalidMedia: Something in it cannot be made into a part, or `files=` holds text.
    """
    ready = type(content) in (list, tuple) and all(isinstance(i, PartFields) for i in content)
    if ready and files is None:
        return tuple(content)  # parts made already (as readers give them): `part` keeps each
    parts: list[Any] = []
    if content is None:
        pass
    elif isinstance(content, str):
        if content:
            parts.append(TextPart(content))
    elif isinstance(content, PartFields) or is_single_source(content):
        parts.append(part(content))
    elif isinstance(content, Mapping):
        parts.append(_item(content))
    elif isinstance(content, Iterable):
        parts.extend(_item(item) for item in content)
    else:
        raise InvalidMedia(
            f"message content must be text, media or a list of them, got {type(content).__name__}"
        )
    if files is not None:
        if isinstance(files, str | Mapping) or is_single_source(files):
            files = [files]
        elif not isinstance(files, Iterable):
            raise InvalidMedia(f"files= takes a list of media, got {type(files).__name__}")
        for item in files:
            made = part(item)
            if not isinstance(made, MediaPart):
                raise InvalidMedia("files= takes media (paths, URLs, bytes, parts), not text")
            parts.append(made)
    return tuple(parts)


def _item(item: Any) -> PartFields:
    if isinstance(item, PartFields):  # before the ABC checks below: most items are parts
        return item
    if isinstance(item, str):
        return TextPart(item)
    if isinstance(item, Mapping) and ("type" in item and "kind" not in item):
        return _typed_part(item)
    made: PartFields = part(item)
    return made


# The keys each type-tagged part may have, and those of the dict under its type's name: the
# shapes this reader knows; anything more (a cache breakpoint, a file id) is OpenAI's own, read
# by `mp.messages_from(payload, "openai")`, and refused here rather than dropped.
_KEYS = {
    "text": ({"type", "text"}, set()),
    "input_text": ({"type", "text"}, set()),
    "output_text": ({"type", "text"}, set()),
    "image_url": ({"type", "image_url"}, {"url", "detail"}),
    "input_audio": ({"type", "input_audio"}, {"data", "format"}),
    "file": ({"type", "file"}, {"file_data", "filename"}),
}


def _check_keys(item: Mapping[str, Any], kind: str) -> None:
    outer, inner = _KEYS[kind]
    found = item.get(kind)
    spec: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    # An empty value (`"annotations": []`, as every SDK dump writes) loses nothing.
    extra = sorted(k for k in set(item) - outer if item[k] not in (None, [], {}, "")) + sorted(
        f"{kind}.{k}" for k in set(spec) - inner if spec[k] not in (None, [], {}, "")
    )
    if extra:
        raise InvalidMedia(
            f"a {excerpt(kind)} content part has {', '.join(map(str, extra[:5]))}, which this "
            "reader "
            "does not keep; read a provider's own payload with mp.messages_from(payload, "
            "provider), which keeps everything"
        )


def _spec(item: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    spec = item.get(key)
    if not isinstance(spec, Mapping):
        raise InvalidMedia(f"a {excerpt(key)} content part needs a dict under {excerpt(key)}")
    return spec


def _typed_part(item: Mapping[str, Any]) -> TextPart | MediaPart:
    """Read one type-tagged content part: a dict shape of our own, documented for dict input.

    `{"type": "text", "text": ...}` (also `input_text`, `output_text`), `{"type": "image_url",
    "image_url": {"url", "detail"}}` (or the URL alone), `{"type": "input_audio", "input_audio":
    {"data", "format"}}` and `{"type": "file", "file": {"file_data", "filename"}}`. This is the
    shape OpenAI Chat Completions uses, so such messages read as they are; reading each
    provider's own payloads is `mp.messages_from`'s business (the providers sit above this
    module).
    """
    kind = item.get("type")
    if isinstance(kind, str) and kind in _KEYS:
        _check_keys(item, kind)
    if kind in ("text", "input_text", "output_text"):
        text = item.get("text")
        if not isinstance(text, str):
            raise InvalidMedia(f"a text part's text must be a string, got {type(text).__name__}")
        return TextPart(text)
    if kind == "image_url":
        spec = item.get("image_url")
        url = spec.get("url") if isinstance(spec, Mapping) else spec
        detail = spec.get("detail") if isinstance(spec, Mapping) else None
        return part(url, **({"detail": detail} if detail else {}))
    if kind == "input_audio":
        spec = _spec(item, "input_audio")
        fmt = str(spec.get("format", "wav"))
        made = part_from_mapping({"data": spec.get("data"), "media_type": f"audio/{fmt}"})
        assert isinstance(made, MediaPart)
        return made
    if kind == "file":
        spec = _spec(item, "file")
        made = part_from_mapping({"data": spec.get("file_data"), "filename": spec.get("filename")})
        assert isinstance(made, MediaPart)
        return made
    raise InvalidMedia(f"unknown content part type {excerpt(kind)}")
