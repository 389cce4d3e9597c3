"""`mp.part()`: make the right part class from whatever the caller has."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias, get_args, overload

from mediaparts._boundary import Boundary
from mediaparts._conversation._construct import check_fields
from mediaparts._conversation._dialogue import PartFields
from mediaparts._conversation._json_data import reading_dicts
from mediaparts._conversation._mediapart import register_dict_reader
from mediaparts._conversation._parts import (
    PART_CLASSES,
    FilePart,
    ImagePart,
    MediaPart,
    TextPart,
    part_class,
)
from mediaparts._errors import InvalidMedia, excerpt
from mediaparts._sources import (
    C0_AND_SPACE,
    b64decode,
    empty_media,
    filename_of,
    is_data_uri,
    is_str_path,
    parse_data_uri,
    read_file_object,
    read_path,
    require_bytes,
)
from mediaparts.detection import canonical_media_type, detect, kind_of, media_type_from_filename
from mediaparts.formats import Kind

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import IO

    from PIL import Image

    from mediaparts._conversation._messages import _Message
    from mediaparts._conversation._parts import Part

__all__ = ["Conversation", "PartLike", "is_single_source", "is_url", "part", "part_from_mapping"]

PartLike: TypeAlias = (
    "Part | PartFields | str | os.PathLike[str] | bytes | bytearray | memoryview"
    " | Mapping[str, Any] | Image.Image | IO[bytes]"
)
"""What `mp.part()` takes as one part: a part, a path (`str` or path object), a URL or data URI
(`str`), bytes, a dict shorthand (or `to_dict()` output), a PIL image or a binary file object."""

# `_Message`, the base of the four message classes: the type a list of mixed messages gets.
Conversation: TypeAlias = "_Message | Sequence[_Message] | PartLike | Sequence[PartLike]"
"""What `render`, `count_tokens`, `estimate_tokens` and `trim` take as their `messages`: a
message, messages, or a prompt (`str`) or parts, made into one user message (in a list, a
`str` is text)."""

# Only MediaError leaves part (see Boundary).
_MAKING_A_PART = Boundary("making a part")

_SOURCES = ("path", "url", "data", "file_id")
_FIELDS = ("media_type", "filename", "detail", "metadata", "cache", "native")
_SHORTHAND_KEYS = (*_SOURCES, *_FIELDS, "provider", "file_provider")
# The parts that are not media, by the `kind` their `to_dict()` writes.
_OTHER_KINDS: dict[str, type[PartFields]] = {
    kind: cls for kind, cls in PART_CLASSES.items() if not issubclass(cls, MediaPart)
}
_ALLOWED = ", ".join(_SHORTHAND_KEYS)
_KINDS: tuple[str, ...] = get_args(Kind)
_KIND_NAMES = f"{', '.join(_KINDS[:-1])} or {_KINDS[-1]}"  # "image, audio, video or file"
# RFC 3986 §3.1: a scheme is a letter, then letters, digits, "+", "-" or "."; two characters at
# least, so a Windows drive ("C://x") stays a path.
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+://")


@overload
def part(value: TextPart) -> TextPart: ...
@overload
def part(value: Mapping[str, Any], **fields: Any) -> MediaPart | PartFields: ...
@overload
def part(value: Any, **fields: Any) -> MediaPart: ...
def part(value: Any, **fields: Any) -> MediaPart | PartFields:
    """Make a part from a path, URL, data URI, bytes, PIL image, file object, dict or part.

    A `str` is a data URI when it starts with `data:`, a URL when it starts with a scheme and
    `://` (`https://`; `file://` and `ftp://` too, which the fetch policy then refuses with
    `BlockedURL` when the part is loaded, rather than a confusing "no such file"), and a path
    otherwise; it is never guessed to be base64 (use a dict
    `{"data": "..."}` or `from_base64()` for that). The class (`ImagePart`, `AudioPart`,
    `VideoPart`, `FilePart`) follows the kind detected from the bytes; for a URL, from the
    `media_type` or the URL's extension until it is loaded, else `FilePart`.

    Args:
        value: What to make the part from.
        **fields: `media_type`, `filename`, `detail` (images only), `metadata`, `cache` or
            `native` to set.

    Returns:
        A new part, or `value` itself when it is a part and no fields are given.

    Raises:
        InvalidMedia: The value cannot be made into a part (unknown type, bad shorthand,
            missing file, bad base64 or data URI).
        UnsupportedMediaType: A field contradicts the bytes (e.g. `detail` on a PDF).
    """
    try:
        _check_fields(fields)
        if isinstance(value, MediaPart):
            return _replace(value, fields) if fields else value
        if isinstance(value, PartFields):
            if fields:
                raise InvalidMedia(f"a {type(value).__name__} takes no media fields")
            return value
        if isinstance(value, Mapping):
            if not all(isinstance(key, str) for key in value):
                raise InvalidMedia("a part dict's keys must be strings")
            return part_from_mapping({**value, **fields})
        if isinstance(value, str):
            # As URL parsers do, spaces and control characters around a URL are not part of it;
            # " https://u:pw@host/" must not be taken for a path (and shown, password and all).
            stripped = value.strip(C0_AND_SPACE)
            if is_data_uri(stripped):
                return _from_data_uri(stripped, fields)
            if _URL.match(stripped):  # any scheme: the fetch policy refuses file:, ftp:, s3: ...
                return _from_url(stripped, fields)
            return _from_path(value, fields)
        if isinstance(value, os.PathLike):
            return _from_path(value, fields)
        if isinstance(value, bytes | bytearray | memoryview):
            return _from_bytes(bytes(value), fields)
        if _is_pil_image(value):
            return ImagePart.from_pil(value, **fields)
        if callable(getattr(value, "read", None)):
            name = getattr(value, "name", None)
            if isinstance(name, str) and name and "filename" not in fields:
                fields = {**fields, "filename": filename_of(name)}
            return _from_bytes(read_file_object(value), fields)
        raise InvalidMedia(
            f"cannot make a part from {type(value).__name__}: pass a path, URL, data URI, bytes, "
            "PIL image, binary file object, part, or a dict with one of path, url or data"
        )
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _MAKING_A_PART.reraise(exc)


def part_from_mapping(value: Mapping[str, Any]) -> MediaPart | PartFields:
    """Make a part from a dict shorthand or from `to_dict()` output.

    Shorthand: exactly one of `path`, `url`, `data` (base64 text, a data URI or raw bytes) or
    `file_id` (with `provider`, the provider whose file store holds it), with optional
    `media_type`, `filename`, `detail`, `metadata`, `cache` and `native`. `to_dict()` output
    also carries `kind`, and may hold both `url` and `data`; the parts that are not media
    (`text`, `reasoning`, `tool_call`, `refusal`, `provider`) are read from their `to_dict()`.

    Raises:
        InvalidMedia: An unknown key, no source or two sources, or a bad value.
    """
    with reading_dicts():  # to_dict() output: {"$bytes": ...} in hints and blocks is bytes
        return _from_mapping(value)


def _from_mapping(value: Mapping[str, Any]) -> MediaPart | PartFields:
    kind = value.get("kind")
    if isinstance(kind, str) and kind in _OTHER_KINDS:
        return _OTHER_KINDS[kind](**{k: v for k, v in value.items() if k != "kind"})
    unknown = sorted(str(k) for k in value if k not in _SHORTHAND_KEYS and k != "kind")
    if unknown:
        raise InvalidMedia(
            f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(excerpt, unknown[:5]))} "
            f"in a part dict; the allowed keys are {_ALLOWED}"
        )
    given = [k for k in _SOURCES if value.get(k) is not None]
    two_ok = kind is not None and set(given) == {"url", "data"}  # a loaded URL part's to_dict
    if len(given) != 1 and not two_ok:
        found = ", ".join(given) if given else "none"
        raise InvalidMedia(
            f"a part dict needs exactly one of path, url or data (found: {found}); "
            f"the allowed keys are {_ALLOWED}"
        )
    fields = {k: value[k] for k in _FIELDS if value.get(k) is not None}
    _check_fields(fields)
    cls: type[MediaPart] | None = None
    if kind is not None:
        if kind not in _KINDS:
            raise InvalidMedia(
                f"unknown part kind {excerpt(kind)}; expected {_KIND_NAMES}, or "
                f"{', '.join(_OTHER_KINDS)}"
            )
        cls = part_class(kind)
    if "file_id" in given:
        return _reference(value, fields, cls)
    if value.get("provider") is not None or value.get("file_provider") is not None:
        raise InvalidMedia("'provider' names the file store of a 'file_id'; this dict has none")
    if "path" in given:
        return _from_path(value["path"], fields, cls)
    if "data" not in given:
        return _from_url(value["url"], fields, cls)
    data = value["data"]
    if is_data_uri(data):
        parsed = parse_data_uri(data)
        fields.setdefault("media_type", parsed.media_type)
        raw = parsed.data
    elif isinstance(data, str):
        raw = b64decode(data)
    elif isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
    else:
        raise InvalidMedia(
            f"'data' must be base64 text, a data URI or bytes, got {type(data).__name__}"
        )
    if "url" in given:
        fields["url"] = value["url"]
    return _from_bytes(raw, fields, cls)


def _reference(
    value: Mapping[str, Any], fields: dict[str, Any], cls: type[MediaPart] | None
) -> MediaPart:
    store = value.get("file_provider", value.get("provider"))
    if cls is None:
        declared = fields.get("media_type")
        kind = kind_of(canonical_media_type(declared)) if isinstance(declared, str) else None
        cls = part_class(kind) if kind in _KINDS else FilePart
    return cls(file_id=value["file_id"], file_provider=store, **_fit(cls, fields))


def _check_fields(fields: Mapping[str, Any]) -> None:
    unknown = sorted(k for k in fields if k not in _FIELDS)
    if unknown:
        raise InvalidMedia(
            f"unknown field {', '.join(map(excerpt, unknown[:5]))}; "
            f"mp.part() takes {', '.join(_FIELDS)}"
        )
    check_fields(fields)


def _fit(cls: type[MediaPart], fields: dict[str, Any]) -> dict[str, Any]:
    if "detail" in fields and not issubclass(cls, ImagePart):
        raise InvalidMedia(
            f"'detail' applies to images only, and this is {cls.__name__} "
            f"({fields.get('media_type') or 'not an image'})"
        )
    return fields


def _from_bytes(
    raw: bytes, fields: dict[str, Any], cls: type[MediaPart] | None = None
) -> MediaPart:
    if cls is None:  # the caller's own bytes; a kind (to_dict output) is stored data
        require_bytes(raw, fields.get("filename"))
        found = detect(raw, filename=fields.get("filename"), declared=fields.get("media_type"))
        cls = part_class(found.kind)
    return cls(data=raw, **_fit(cls, fields))


def _from_path(path: Any, fields: dict[str, Any], cls: type[MediaPart] | None = None) -> MediaPart:
    if not is_str_path(path):
        raise InvalidMedia(f"'path' must be a string or path, got {type(path).__name__}")
    if cls is not None:
        return cls.from_path(path, **_fit(cls, fields))
    # Any kind will do, so read once and let the bytes pick the class.
    return _from_bytes(read_path(path), {"filename": filename_of(path), **fields})


def _from_url(url: Any, fields: dict[str, Any], cls: type[MediaPart] | None = None) -> MediaPart:
    if not isinstance(url, str):
        raise InvalidMedia(f"'url' must be a string, got {type(url).__name__}")
    if cls is None:
        guess = fields.get("media_type") or media_type_from_filename(url)
        if guess:
            cls = part_class(kind_of(canonical_media_type(guess)))
        else:  # unknown until loaded; only an image takes `detail`, so it says what this is
            cls = ImagePart if "detail" in fields else FilePart
    return cls.from_url(url, **_fit(cls, fields))


def _from_data_uri(uri: str, fields: dict[str, Any]) -> MediaPart:
    parsed = parse_data_uri(uri)
    if not parsed.data:
        raise empty_media("the data URI")
    merged = {"media_type": parsed.media_type, **fields} if parsed.media_type else fields
    return _from_bytes(parsed.data, merged)


def _replace(existing: MediaPart, fields: dict[str, Any]) -> MediaPart:
    cls = type(existing)
    values = {**existing._fields(exclude=("kind",)), **_fit(cls, fields)}
    made = cls(**values)
    if made.url == existing.url and existing.inline is None:
        made._state.data, made._state.detected = existing._state.data, existing._state.detected
    return made


def is_url(text: str) -> bool:
    """Tell whether text starts like a URL (a scheme, then `://`), as `mp.part` reads it."""
    return _URL.match(text) is not None


def is_single_source(value: Any) -> bool:
    """Tell whether a value is one piece of media (not a list of them): bytes, a path, a
    binary file object or a PIL image. Such values are iterable, but never item by item."""
    return (
        isinstance(value, bytes | bytearray | memoryview | os.PathLike)
        or callable(getattr(value, "read", None))
        or _is_pil_image(value)
    )


def _is_pil_image(value: Any) -> bool:
    import sys

    image_module = sys.modules.get("PIL.Image")
    return image_module is not None and isinstance(value, image_module.Image)


register_dict_reader(part_from_mapping)
