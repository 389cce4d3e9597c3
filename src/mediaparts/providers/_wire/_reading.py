"""What the provider readers share: typed access to hostile JSON, and parts made from it.

Every request payload and response a reader gets is untrusted: each field is checked where it
is read, and a wrong one is `InvalidMedia` naming its JSON path (`messages[2].content[0].source`)
and what was expected. Media is built from bytes, base64, URLs and file ids only: a reader
never hands a string to `mp.part`, which would read a local path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from mediaparts._conversation._json_data import json_text
from mediaparts._conversation._make_part import is_url
from mediaparts._conversation._messages import StopReason
from mediaparts._conversation._parts import FilePart, MediaPart, part_class
from mediaparts._errors import InvalidMedia, MediaError, UnsupportedMediaType, excerpt, rewrap
from mediaparts._sources import b64decode, is_data_uri, parse_data_uri
from mediaparts._surrogates import utf8
from mediaparts.detection import canonical_media_type, detect, kind_of
from mediaparts.formats import Kind

__all__ = [
    "as_dict",
    "as_list",
    "file_reference",
    "inline_media",
    "json_arguments",
    "located",
    "maybe",
    "need",
    "place",
    "plain",
    "read_dict",
    "shown",
    "stop_reason",
    "token_count",
    "url_media",
    "utf8",
]

T = TypeVar("T")

_TYPE_NAMES = {str: "a string", int: "a whole number", bool: "true or false", dict: "an object"}


def _shown(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def shown(value: Any) -> str:
    """Show a hostile value in an error message, bounded: a short repr, or its type.

    A repr of anything else could be huge, or recurse as deep as the value nests.
    """
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:39] + "…")
    small = isinstance(value, int) and not isinstance(value, bool) and value.bit_length() < 64
    if value is None or isinstance(value, bool | float) or small:
        return repr(value)
    return f"a {type(value).__name__}"


def as_dict(value: Any, at: str) -> dict[str, Any]:
    """Return `value` as a dict with string keys, or raise naming `at`.

    The dict is a copy, for a reader that changes it (a stream's accumulated nodes); one that
    only reads takes `read_dict`.
    """
    return dict(read_dict(value, at))


def read_dict(value: Any, at: str) -> dict[str, Any]:
    """Return `value` as a dict with string keys, or raise naming `at`: `value` itself when it
    is a dict, for a reader that only reads it.

    The caller must not change it, nor keep it or what it holds in what it returns other than
    through a model's validation, which copies (`native`, a `ProviderPart`'s `data`): the
    caller's payload stays its own (tests/providers/test_read_common.py).
    """
    mapping = type(value) is dict or isinstance(value, Mapping)  # a dict without the ABC's check
    # `map` over a builtin: no generator frame for each node of a long payload
    if not mapping or not all(map(_is_str, value)):
        raise InvalidMedia(f"{at}: expected an object, got {_shown(value)}")
    return value if type(value) is dict else dict(value)


_is_str = str.__instancecheck__


def as_list(value: Any, at: str) -> list[Any]:
    """Return `value` as a list (a JSON array), or raise naming `at`."""
    if not isinstance(value, list | tuple):
        raise InvalidMedia(f"{at}: expected an array, got {_shown(value)}")
    return list(value)


def need(node: Mapping[str, Any], key: str, at: str, kind: type[T]) -> T:
    """Return `node[key]`, which must be present and of type `kind`."""
    value = node.get(key)
    if value is None:
        raise InvalidMedia(f"{at}.{key}: missing (expected {_TYPE_NAMES.get(kind, kind.__name__)})")
    return _typed(value, f"{at}.{key}", kind)


def maybe(node: Mapping[str, Any], key: str, at: str, kind: type[T]) -> T | None:
    """Return `node[key]` if present (not None), checked to be of type `kind`."""
    value = node.get(key)
    return None if value is None else _typed(value, f"{at}.{key}", kind)


def _typed(value: Any, at: str, kind: type[T]) -> T:
    # bool is an int in Python, not in JSON.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        expected = _TYPE_NAMES.get(kind, kind.__name__)
        raise InvalidMedia(f"{at}: expected {expected}, got {_shown(value)}")
    return value


def token_count(node: Mapping[str, Any], key: str, at: str, *, required: bool = False) -> int:
    """Return the token count `node[key]`: a whole number, 0 or more (missing or null: 0).

    Raises:
        InvalidMedia: It is not a whole number (a bool is not), is negative, or is missing
            when `required`, naming `at.key`.
    """
    value = node.get(key)
    if value is None and not required:
        return 0
    if type(value) is not int or value < 0:
        got = "missing" if value is None else f"got {shown(value)}"
        raise InvalidMedia(f"{at}.{key}: expected a token count (a whole number, 0 or more), {got}")
    return value


class located:
    """Name `at` in a `MediaError` raised inside that does not start with it already.

    For checks that know no JSON path (a part's own validation, kept data that is not JSON):
    `with located("messages[2]"): ...` makes their error `messages[2]: ...`. A class, not a
    generator: readers enter one per message, and this costs a fraction of `contextmanager`.
    """

    __slots__ = ("at",)

    def __init__(self, at: str) -> None:
        self.at = at

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: BaseException | None, traceback: Any) -> None:
        if isinstance(exc, MediaError):
            place(exc, self.at)


def place(exc: MediaError, at: str) -> None:
    """Raise `exc` again as `located(at)` would, or return when it names `at` already.

    For a loop over a long payload, where a `try` costs nothing until something fails and a
    `with` costs three calls per item: `except MediaError as exc: place(exc, at); raise`.
    """
    if not str(exc).startswith(at):
        raise rewrap(exc, f"{at}: {exc}") from exc


def _class(kind: Kind | None, media_type: str | None) -> type[MediaPart]:
    if kind is not None:
        return part_class(kind)
    if media_type is None:
        return FilePart
    return part_class(kind_of(canonical_media_type(media_type)))


def inline_media(
    kind: Kind | None, data: Any, media_type: str | None, at: str, **fields: Any
) -> MediaPart:
    """Return a part of `kind` (None: whatever the bytes are) from bytes or base64 text.

    Raises:
        InvalidMedia: The data is not bytes or valid base64 (naming `at`).
        UnsupportedMediaType: The bytes are not of `kind`.
    """
    try:
        if isinstance(data, str):
            raw = b64decode(data)
        elif isinstance(data, bytes | bytearray | memoryview):
            raw = bytes(data)
        else:
            raise InvalidMedia(f"expected base64 text or bytes, got {_shown(data)}")
        declared = canonical_media_type(media_type) if media_type else None
        if kind is None and declared is not None and kind_of(declared) == "image":
            # An image block of text bytes is refused, never read as prompt text. (Audio and
            # video labels are left to the bytes: a WebM or MP4 is often labelled the other.)
            kind = "image"
        if kind is None:
            kind = detect(raw, filename=fields.get("filename"), declared=media_type).kind
        made = part_class(kind)(data=raw, media_type=media_type, **fields)
    except MediaError as exc:
        raise rewrap(exc, f"{at}: {exc}") from exc
    if declared == "application/pdf" and made.media_type != declared:
        raise UnsupportedMediaType(
            f"{at}: declared application/pdf, but the bytes are {made.media_type}",
            media_type=made.media_type,
        )
    return made


def url_media(
    kind: Kind | None, url: Any, media_type: str | None, at: str, **fields: Any
) -> MediaPart:
    """Return a URL part (fetched only when needed), or an inline part for a `data:` URL.

    Raises:
        InvalidMedia: `url` is not a URL (a bare path is never read) or a bad data URI.
    """
    if not isinstance(url, str):
        raise InvalidMedia(f"{at}: expected a URL, got {_shown(url)}")
    if is_data_uri(url):
        try:
            parsed = parse_data_uri(url)
        except MediaError as exc:
            raise rewrap(exc, f"{at}: {exc}") from exc
        return inline_media(kind, parsed.data, media_type or parsed.media_type, at, **fields)
    try:
        if not is_url(url):
            raise InvalidMedia(f"expected a URL (scheme://...), got {excerpt(url, ends=True)}")
        return _class(kind, media_type).from_url(url, media_type=media_type, **fields)
    except MediaError as exc:
        raise rewrap(exc, f"{at}: {exc}") from exc


def file_reference(
    kind: Kind | None,
    file_id: Any,
    provider: str,
    media_type: str | None,
    at: str,
    **fields: Any,
) -> MediaPart:
    """Return a provider file reference (never fetched; rendered to that provider's store)."""
    if not isinstance(file_id, str) or not file_id:
        raise InvalidMedia(f"{at}: expected a file id, got {_shown(file_id)}")
    try:
        cls = _class(kind, media_type)
        return cls(file_id=file_id, file_provider=provider, media_type=media_type, **fields)
    except MediaError as exc:
        raise rewrap(exc, f"{at}: {exc}") from exc


def json_arguments(value: Any, at: str) -> str:
    """Return tool-call arguments given as JSON data (a dict) as the JSON text we keep."""
    return json_text(as_dict(value, at), what=at)


def plain(
    response: Any, *, mode: str = "python", by_alias: bool = False, sent: bool = False
) -> dict[str, Any]:
    """Return a response as a dict: the SDK's pydantic object dumped, or the dict itself.

    The dump leaves out fields that are None, or, with `sent`, the fields the API did not
    send (a null it did send is kept). Pydantic's serializer warnings are off: the SDKs'
    parsed generics (the openai stream helper's `ParsedResponse[TextFormatT]`) warn on every
    dump although they dump right.

    Raises:
        InvalidMedia: It is neither.
    """
    if isinstance(response, Mapping):
        return as_dict(response, "response")
    dump = getattr(response, "model_dump", None)
    if callable(dump):
        try:
            dumped = dump(
                mode=mode,
                by_alias=by_alias,
                exclude_none=not sent,
                exclude_unset=sent,
                warnings=False,
            )
        except Exception as exc:  # a foreign object's failure, reported as ours
            raise InvalidMedia(
                f"response: {type(response).__name__}.model_dump() failed: {exc!s:.200}"
            ) from exc
        return as_dict(dumped, "response")
    raise InvalidMedia(
        f"expected the SDK's response object or its dict, got {type(response).__name__}"
    )


def stop_reason(
    raw: Any, table: Mapping[str, StopReason], at: str
) -> tuple[StopReason | None, str | None]:
    """Return (our stop reason, the API's own) for a raw value; unknown values are "other"."""
    if raw is None:
        return None, None
    if not isinstance(raw, str):
        raise InvalidMedia(f"{at}: expected a string, got {_shown(raw)}")
    return table.get(raw, "other"), raw
