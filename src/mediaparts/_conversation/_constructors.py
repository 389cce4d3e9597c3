"""The class methods that make a media part from each kind of source.

`MediaPart` inherits them; each builds the part through the class's own validation, so the
bytes decide the type and a constructor of one kind refuses bytes of another.
"""

from __future__ import annotations

import os
from typing import IO, TYPE_CHECKING, Any, ClassVar

from typing_extensions import Self

from mediaparts import fetching
from mediaparts._conversation._construct import check_fields, check_limit, extra_fields
from mediaparts._errors import InvalidMedia, UnsupportedMediaType, excerpt
from mediaparts._sources import (
    b64decode,
    b64decode_prefix,
    check_url_source,
    empty_media,
    filename_of,
    is_data_uri,
    is_str_path,
    open_path,
    parse_data_uri,
    read_file_object,
    read_path,
    require_bytes,
)
from mediaparts.detection import PREFIX_SIZE, detect, kind_of, media_type_from_filename

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["Constructors"]


class Constructors:
    """`from_bytes`, `from_path`, `from_url`, `from_base64`, `from_data_uri`, `from_file` and
    `from_pil`, for the media part classes."""

    _kinds: ClassVar[frozenset[str]]

    if TYPE_CHECKING:

        def __init__(self, /, **values: Any) -> None: ...

        @classmethod
        def _check_kind(cls, media_type: str, *, what: str) -> None: ...

    @classmethod
    def from_bytes(
        cls,
        raw: bytes | bytearray | memoryview,
        media_type: str | None = None,
        filename: str | None = None,
        **fields: Any,
    ) -> Self:
        """Make a part from raw bytes; the type comes from the bytes (`media_type` is a hint)."""
        if not isinstance(raw, bytes | bytearray | memoryview):
            raise InvalidMedia(f"from_bytes() takes bytes, got {type(raw).__name__}")
        extra_fields("from_bytes", fields)
        data = require_bytes(bytes(raw), filename)
        return cls(data=data, media_type=media_type, filename=filename, **fields)

    @classmethod
    def from_path(
        cls, path: str | os.PathLike[str], *, max_bytes: int | None = None, **fields: Any
    ) -> Self:
        """Read a file now (the part keeps its bytes even if the file is later deleted).

        Raises:
            InvalidMedia: There is no readable file at `path`.
            MediaTooLarge: The file is larger than `max_bytes`.
            UnsupportedMediaType: The file's bytes are not of this class's kind.
        """
        if not is_str_path(path):
            raise InvalidMedia(f"from_path() takes a str or Path, got {type(path).__name__}")
        check_limit(max_bytes)
        extra_fields("from_path", fields, allowed=("filename", "media_type"))
        check_fields(fields)
        name = fields.setdefault("filename", filename_of(path))
        # Detect from a bounded prefix first, so a wrong kind fails before a big read.
        found = detect(path, filename=name, declared=fields.get("media_type"))
        try:
            cls._check_kind(found.media_type, what=f"the bytes of {filename_of(path)}")
        except UnsupportedMediaType:
            # Detection of no bytes falls back on the name: an empty .png is "a PNG" that
            # FilePart refuses. Say the file is empty instead.
            with open_path(path) as f:
                if not f.read(1):
                    raise empty_media(excerpt(name, ends=True)) from None
            raise
        data = require_bytes(read_path(path, max_bytes=max_bytes), name)
        return cls(data=data, **fields)

    @classmethod
    def from_url(
        cls,
        url: str,
        media_type: str | None = None,
        filename: str | None = None,
        **fields: Any,
    ) -> Self:
        """Make a lazy part: nothing is fetched until `.data`, `load()` or `aload()`.

        The media type is taken from `media_type`, else guessed from the URL's extension, else
        left `None` until the bytes are fetched (`resolve()` types the part by them).
        """
        if not isinstance(url, str) or not url.strip():
            raise InvalidMedia(f"from_url() takes a URL string, got {excerpt(url)}")
        extra_fields("from_url", fields)
        check_fields({"media_type": media_type, "filename": filename})
        check_url_source(url)
        name = filename or fetching.url_filename(url)
        if media_type is None and name is not None:
            guess = media_type_from_filename(name)
            if guess is not None and kind_of(guess) in cls._kinds:
                media_type = guess
        return cls(url=url, media_type=media_type, filename=name, **fields)

    @classmethod
    def from_base64(
        cls,
        text: str | bytes,
        media_type: str | None = None,
        filename: str | None = None,
        **fields: Any,
    ) -> Self:
        """Make a part from base64 text (standard or URL-safe alphabet, line breaks allowed).

        Raises:
            InvalidMedia: The text is not valid base64 (or is a data URI: use `from_data_uri`).
        """
        if is_data_uri(text):
            raise InvalidMedia("this is a data URI, not bare base64: use from_data_uri()")
        if not isinstance(text, str | bytes):
            raise InvalidMedia(f"from_base64() takes text, got {type(text).__name__}")
        extra_fields("from_base64", fields)
        check_fields({"media_type": media_type, "filename": filename})
        # Decoding a prefix is enough to refuse the wrong kind before decoding it all.
        head = b64decode_prefix(text, PREFIX_SIZE)
        if not head:
            raise empty_media("the base64 text")
        found = detect(head, filename=filename, declared=media_type)
        cls._check_kind(found.media_type, what="the decoded bytes")
        return cls(data=b64decode(text), media_type=media_type, filename=filename, **fields)

    @classmethod
    def from_data_uri(
        cls,
        uri: str,
        media_type: str | None = None,
        filename: str | None = None,
        **fields: Any,
    ) -> Self:
        """Make a part from an RFC 2397 data URI (base64 or percent-encoded).

        The URI's own media type is a hint like `media_type` (which overrides it): the bytes
        decide.

        Raises:
            InvalidMedia: The URI is malformed.
        """
        extra_fields("from_data_uri", fields)
        parsed = parse_data_uri(uri)
        if not parsed.data:
            raise empty_media("the data URI")
        declared = media_type or parsed.media_type
        return cls(data=parsed.data, media_type=declared, filename=filename, **fields)

    @classmethod
    def from_file(
        cls,
        fileobj: IO[bytes] | Any,
        filename: str | None = None,
        media_type: str | None = None,
        max_bytes: int | None = None,
        **fields: Any,
    ) -> Self:
        """Read a binary file object (not closed; put back where it was when seekable).

        Raises:
            MediaTooLarge: It holds more than `max_bytes`.
        """
        extra_fields("from_file", fields)
        check_limit(max_bytes)
        raw = read_file_object(fileobj, max_bytes=max_bytes)
        if filename is None:
            name = getattr(fileobj, "name", None)
            filename = filename_of(name) if isinstance(name, str) and name else None
        require_bytes(raw, filename)
        return cls(data=raw, media_type=media_type, filename=filename, **fields)

    @classmethod
    def from_pil(cls, image: Image.Image, format: str | None = None, **fields: Any) -> Self:
        """Encode a PIL image: in `format`, else its own format if web-friendly, else PNG."""
        from mediaparts.imaging import encode_pil

        extra_fields("from_pil", fields, allowed=("filename",))
        return cls(data=encode_pil(image, format), **fields)
