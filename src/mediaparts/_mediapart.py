"""What every media part is: its fields, its bytes (inline or fetched once), its encodings and
its constructors. The classes of each kind (`ImagePart`, `AudioPart`, `VideoPart`, `FilePart`)
are in `_parts` and register themselves here.

A part holds either its bytes (inline) or a URL that is fetched once, when the bytes are first
needed. An inline part's `media_type` comes from its bytes: a PNG named `photo.jpg` or
declared `image/jpeg` is `image/png`. A URL part's `media_type` is the declared or guessed type
(the part is frozen); once loaded, `effective_media_type` is the bytes' type and `resolve()`
returns a part typed by them.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping
from typing import IO, TYPE_CHECKING, Any, ClassVar, get_args

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator
from typing_extensions import Self

from mediaparts import fetching
from mediaparts._errors import InvalidMedia, UnsupportedMediaType
from mediaparts._fields import (
    InlineBytes,
    article,
    check_fields,
    check_limit,
    clean_filename,
    construct,
    copy_metadata,
    extra_fields,
    inline_bytes,
)
from mediaparts._sources import (
    b64decode,
    b64decode_prefix,
    b64encode,
    check_url_source,
    filename_of,
    is_data_uri,
    is_str_path,
    parse_data_uri,
    read_file_object,
    read_path,
    untrusted_paths,
)
from mediaparts.detection import (
    PREFIX_SIZE,
    canonical_media_type,
    detect,
    kind_of,
    media_type_from_filename,
)
from mediaparts.fetching import redact
from mediaparts.formats import Kind

if TYPE_CHECKING:
    import httpx
    from PIL import Image

__all__ = ["Kind", "MediaPart", "part_class", "register_dict_reader"]

# The class of each kind, filled in as `_parts` defines them (see __pydantic_init_subclass__).
_BY_KIND: dict[str, type[MediaPart]] = {}


# How `from_dict` reads a dict: `_build.part_from_mapping`, which makes parts of every kind and
# so sits above this module. `_build` registers it when it loads (`mediaparts/__init__` imports
# it first), as `_parts` registers the classes, so this module imports nothing above it.
_DICT_READER: list[Callable[[Mapping[str, Any]], Any]] = []


def register_dict_reader(reader: Callable[[Mapping[str, Any]], Any]) -> None:
    """Set the function `MediaPart.from_dict` reads dicts with (`_build` sets it)."""
    _DICT_READER[:] = [reader]


def part_class(kind: str) -> type[MediaPart]:
    """Return the part class for a kind ("image", "audio", "video" or "file")."""
    return _BY_KIND[kind]


class MediaPart(BaseModel):
    """Base class of image, audio, video and file parts.

    Build parts with the class methods (`from_path`, `from_url`, `from_bytes`, `from_base64`,
    `from_data_uri`, `from_pil`, `from_file`) or with `mp.part()`, which picks the class.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=False)

    kind: Kind
    media_type: str | None = None
    filename: str | None = None
    url: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    inline: InlineBytes | None = Field(default=None, alias="data", repr=False)

    _state: fetching.LoadState = PrivateAttr(default_factory=fetching.LoadState)
    _kinds: ClassVar[frozenset[str]] = frozenset(get_args(Kind))

    def __init__(self, /, **values: Any) -> None:
        construct(self, super().__init__, values)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        # A class of one kind registers itself, so the base class can name and make it
        # (`part_class`) without importing the module that defines it. The first class of a
        # kind is its class; a user's subclass of it is not.
        super().__pydantic_init_subclass__(**kwargs)
        if len(cls._kinds) == 1:
            _BY_KIND.setdefault(next(iter(cls._kinds)), cls)

    # -- validation ---------------------------------------------------------------------

    @model_validator(mode="before")
    @classmethod
    def _type_from_bytes(cls, values: Any) -> Any:
        if not isinstance(values, dict):
            return values
        if cls is MediaPart:
            raise InvalidMedia(
                "MediaPart is the base class: make an ImagePart, AudioPart, VideoPart or "
                "FilePart, or let mp.part() pick one from the bytes"
            )
        values = dict(values)
        check_fields(values)
        if values.get("filename") is not None:
            values["filename"] = clean_filename(values["filename"])
        if values.get("metadata") is not None:
            values["metadata"] = copy_metadata(values["metadata"])
        declared = values.get("media_type")
        if declared is not None:
            declared = values["media_type"] = canonical_media_type(declared)
        data = inline_bytes(values.get("data"))
        url = values.get("url")
        if data is None and url is None:
            raise InvalidMedia(
                f"{cls.__name__} needs its bytes (data=) or a URL (url=); "
                "use a constructor such as from_path() or from_url(), or mp.part()"
            )
        if data is not None:
            if not isinstance(data, bytes):
                raise InvalidMedia(f"data must be bytes or base64 text, got {type(data).__name__}")
            values["data"] = data
            found = detect(data, filename=values.get("filename"), declared=declared)
            cls._check_kind(found.media_type, what="these bytes")
            values["media_type"] = found.media_type
        elif declared is not None:
            cls._check_kind(declared, what="the declared media_type")
        return values

    @classmethod
    def _check_kind(cls, media_type: str, *, what: str) -> None:
        kind = kind_of(media_type)
        if kind in cls._kinds:
            return
        if media_type == "application/octet-stream":
            detail = f"{what}: not a recognised {'/'.join(sorted(cls._kinds))} format"
        else:
            detail = f"{what}: {media_type}, which is {article(kind)} {kind}"
        better = f"mp.{_BY_KIND[kind].__name__}" if kind in _BY_KIND else "mp.part()"
        raise UnsupportedMediaType(
            f"{cls.__name__} cannot hold {detail}. Use {better}, or mp.part() to "
            "pick the part class from the bytes",
            media_type=media_type,
            accepted=tuple(sorted(cls._kinds)),
        )

    # -- equality --------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, MediaPart)
        return self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        digest = hashlib.blake2b(self.inline or b"", digest_size=8).digest()
        return hash((type(self), self.media_type, self.filename, self.url, digest))

    def __repr_args__(self) -> Any:
        for name, value in super().__repr_args__():
            if name == "url" and isinstance(value, str):
                value = redact(value)  # reprs end up in logs; the password must not
            if value is not None and value != {}:
                yield name, value
        if self.is_loaded:
            yield "size", self.size

    # -- bytes -----------------------------------------------------------------------------

    @property
    def data(self) -> bytes:
        """The part's bytes; reading it fetches a URL part once (thread-safe)."""
        if self.inline is not None:
            return self.inline
        if self._state.data is None:
            self.load()
        assert self._state.data is not None
        return self._state.data

    @property
    def is_loaded(self) -> bool:
        """Whether the bytes are in memory (always true for parts made from bytes)."""
        return self.inline is not None or self._state.data is not None

    @property
    def is_url(self) -> bool:
        """Whether the part was made from a URL."""
        return self.url is not None

    @property
    def size(self) -> int | None:
        """The number of bytes, when they are known (a URL part's once it is loaded)."""
        if self.inline is not None:
            return len(self.inline)
        return len(self._state.data) if self._state.data is not None else None

    @property
    def effective_media_type(self) -> str | None:
        """The media type of the bytes once loaded, else the declared or guessed type."""
        return self._state.detected or self.media_type

    def load(
        self, *, client: httpx.Client | None = None, policy: fetching.FetchPolicy | None = None
    ) -> Self:
        """Fetch a URL part's bytes now, once; a no-op for inline parts.

        Args:
            client: An httpx client to fetch with (default: the configured one).
            policy: A fetch policy (default: the configured one).

        Returns:
            The part itself, loaded.

        Raises:
            FetchError: The fetch failed (or `BlockedURL`, `OfflineError`, `MediaTooLarge`).
            UnsupportedMediaType: The bytes are not of this part's kind.
        """
        # Sync twin of `aload` (and `resolve` of `aresolve`): fetching.load vs fetching.aload.
        if not self.is_loaded:
            fetching.load(self._state, self._wanted(), client=client, policy=policy)
        return self

    async def aload(
        self,
        *,
        client: httpx.AsyncClient | None = None,
        policy: fetching.FetchPolicy | None = None,
    ) -> Self:
        """Fetch a URL part's bytes asynchronously, once even when awaited concurrently.

        Takes the same arguments (an `httpx.AsyncClient` for `client`) and raises the same
        errors as `load`.
        """
        # Async twin of `load` (and `aresolve` of `resolve`): fetching.aload vs fetching.load.
        if not self.is_loaded:
            await fetching.aload(self._state, self._wanted(), client=client, policy=policy)
        return self

    def _wanted(self) -> fetching.Wanted:
        assert self.url is not None
        typed = self.media_type is not None or type(self) is not part_class("file")

        # The message names the URL, and messages end up in logs: never with its password.
        shown = redact(self.url)

        def check(media_type: str) -> None:
            self._check_kind(media_type, what=f"the bytes fetched from {shown}")

        return fetching.Wanted(self.url, self.filename, self.media_type, check if typed else None)

    def resolve(self) -> MediaPart:
        """Load the part and return it typed by its bytes (class and media type)."""
        self.load()
        return self._resolved()

    async def aresolve(self) -> MediaPart:
        """Load the part asynchronously and return it typed by its bytes."""
        await self.aload()
        return self._resolved()

    def _resolved(self) -> MediaPart:
        if self.inline is not None:
            return self
        detected = self._state.detected
        assert detected is not None
        assert self._state.data is not None
        cls = part_class(kind_of(detected)) if type(self) is part_class("file") else type(self)
        fields = self._fields(exclude=("kind", "media_type", "data"))
        if "detail" not in cls.model_fields:
            fields.pop("detail", None)
        part = cls(data=self._state.data, media_type=detected, **fields)
        return part

    def _fields(self, *, exclude: tuple[str, ...] = ()) -> dict[str, Any]:
        return {
            (info.alias or name): getattr(self, name)
            for name, info in type(self).model_fields.items()
            if name not in exclude and (info.alias or name) not in exclude
        }

    # -- encodings -------------------------------------------------------------------------

    def to_base64(self) -> str:
        """Return the bytes as standard base64 text (SIMD-accelerated by pybase64)."""
        return b64encode(self.data)

    def to_data_uri(self) -> str:
        """Return an RFC 2397 `data:<media type>;base64,...` URI of the bytes."""
        data = self.data  # loads first, so a URL part's type is known
        media_type = self.effective_media_type or "application/octet-stream"
        return f"data:{media_type};base64,{b64encode(data)}"

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict that `mp.part()` and `from_dict()` turn back into this part.

        Bytes are base64 text; fields that are `None` (and empty metadata) are left out. A URL
        part's fetched bytes are a cache, not part of its value, and are not included.
        """
        out = self.model_dump(mode="json", by_alias=True, exclude_none=True)
        if not out.get("metadata"):
            out.pop("metadata", None)
        return out

    @classmethod
    def from_dict(
        cls, value: Mapping[str, Any], *, base_dir: str | os.PathLike[str] | None = None
    ) -> MediaPart:
        """Build a part from `to_dict()` output or a dict shorthand (see `mp.part`).

        The dict is untrusted input, as in `mp.message_from_dict`: a `path` in it raises
        `BlockedPath` unless `base_dir` is given and the file's real path lies inside it.
        `to_dict()` never writes a path, so round trips are unaffected; for a path of your own,
        use `from_path` or `mp.part({"path": ...})`.

        Raises:
            BlockedPath: The dict names a local file, and no `base_dir` allows it.
            InvalidMedia: The dict is malformed.
            UnsupportedMediaType: Its bytes are not of this class's kind.
        """
        if not isinstance(value, Mapping):
            raise InvalidMedia(
                f"{cls.__name__}.from_dict() takes a dict (to_dict() output or a shorthand such "
                f"as {{'data': ...}}), got {type(value).__name__}"
            )
        with untrusted_paths(f"{cls.__name__}.from_dict()", base_dir):
            made = _DICT_READER[0](value)
        if not isinstance(made, MediaPart):
            raise InvalidMedia(f"{cls.__name__}.from_dict() got a text part; use mp.part()")
        if cls is not MediaPart and not isinstance(made, cls):
            cls._check_kind(made.media_type or "application/octet-stream", what="the dict")
        return made

    # -- constructors ----------------------------------------------------------------------

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
        return cls(data=bytes(raw), media_type=media_type, filename=filename, **fields)

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
        cls._check_kind(found.media_type, what=f"the bytes of {filename_of(path)}")
        return cls(data=read_path(path, max_bytes=max_bytes), **fields)

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
            raise InvalidMedia(f"from_url() takes a URL string, got {url!r}")
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
        return cls(data=raw, media_type=media_type, filename=filename, **fields)

    @classmethod
    def from_pil(cls, image: Image.Image, format: str | None = None, **fields: Any) -> Self:
        """Encode a PIL image: in `format`, else its own format if web-friendly, else PNG."""
        from mediaparts.imaging import encode_pil

        extra_fields("from_pil", fields, allowed=("filename",))
        return cls(data=encode_pil(image, format), **fields)
