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
from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, get_args

from pydantic import ConfigDict, Field, PrivateAttr, model_validator
from typing_extensions import Never, Self

from mediaparts import fetching
from mediaparts._conversation._construct import (
    article,
    check_fields,
    construct,
    keyword_only,
    public_name,
)
from mediaparts._conversation._constructors import Constructors
from mediaparts._conversation._dialogue import PartFields, part_dict
from mediaparts._conversation._json_data import InlineBytes, copy_metadata, inline_bytes
from mediaparts._conversation._remembered import Remembered
from mediaparts._errors import InvalidMedia, UnsupportedMediaType, excerpt
from mediaparts._inline import data_uri, is_data_uri
from mediaparts._paths import looks_like_base64
from mediaparts._sources import (
    b64encode,
    require_bytes,
    untrusted_paths,
)
from mediaparts._surrogates import clean_filename
from mediaparts.detection import (
    canonical_media_type,
    detect,
    kind_of,
)
from mediaparts.fetching import redact
from mediaparts.formats import Kind

if TYPE_CHECKING:
    import httpx

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


def _constructor_for(cls: type[MediaPart], value: object) -> str:
    """Name the constructor that makes a part of `cls` from `value`, as advice in a message."""
    if isinstance(value, str):
        text = value.strip()
        if is_data_uri(text):
            source, method, arg = "a data URI", "from_data_uri", "uri"
        elif "://" in text[:40]:
            source, method, arg = "a URL", "from_url", "url"
        elif looks_like_base64(text):
            source, method, arg = "base64 text", "from_base64", "text"
        else:
            source, method, arg = "a path", "from_path", "path"
    elif isinstance(value, os.PathLike):
        source, method, arg = "a path", "from_path", "path"
    elif isinstance(value, bytes | bytearray | memoryview):
        source, method, arg = "bytes", "from_bytes", "data"
    elif callable(getattr(value, "read", None)):
        source, method, arg = "a file object", "from_file", "f"
    elif type(value).__module__.startswith("PIL."):
        source, method, arg = "a PIL image", "from_pil", "image"
    else:
        return (
            f"use a constructor: {public_name(cls)}.from_path, from_url, from_bytes, from_base64, "
            "from_data_uri, from_file or from_pil, or mp.part(value)"
        )
    either = f'mp.part({{"data": {arg}}})' if method == "from_base64" else f"mp.part({arg})"
    return (
        f"to make one from {source}, use {public_name(cls)}.{method}({arg}) or {either}, "
        "which picks the class from the bytes"
    )


class MediaPart(Constructors, PartFields):
    """Base class of image, audio, video and file parts.

    Build parts with the class methods (`from_path`, `from_url`, `from_bytes`, `from_base64`,
    `from_data_uri`, `from_pil`, `from_file`) or with `mp.part()`, which picks the class.

    A part holds its bytes, a URL, or a provider file reference (`file_id` of the store named
    by `file_provider`: OpenAI `file_id`, Anthropic Files API, Gemini `file_uri`, Bedrock
    `s3Location`), which is never fetched and renders only to that provider.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=False)

    kind: Kind
    media_type: str | None = None
    filename: str | None = None
    url: str | None = None
    inline: InlineBytes | None = Field(default=None, alias="data", repr=False)
    file_id: str | None = None
    file_provider: str | None = None

    _state: fetching.LoadState = PrivateAttr(default_factory=fetching.LoadState)
    # What was worked out from the part (`_recall`), made at the first result kept.
    _remembered: Remembered | None = PrivateAttr(default=None)
    _kinds: ClassVar[frozenset[str]] = frozenset(get_args(Kind))

    def __init__(self, /, *given: Never, **values: Any) -> None:
        # `*given` only to refuse positional arguments with our message, not Python's
        # TypeError; `Never` keeps type checkers refusing them too.
        if given:
            raise keyword_only(type(self), given, use=_constructor_for(type(self), given[0]))
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
        if values.get("file_id") is not None or values.get("file_provider") is not None:
            return cls._reference(values, declared, data, url)
        if data is None and url is None:
            raise InvalidMedia(
                f"{cls.__name__} needs its bytes (data=) or a URL (url=); "
                "use a constructor such as from_path() or from_url(), or mp.part()"
            )
        if data is not None:
            if not isinstance(data, bytes):
                raise InvalidMedia(f"data must be bytes or base64 text, got {type(data).__name__}")
            found = detect(data, filename=values.get("filename"), declared=declared)
            if not data and not found.media_type.startswith("text/"):
                # Stored parts (to_dict output, provider payloads) may hold an empty text
                # file, which renders as text; no image, audio, video or document is 0 bytes.
                require_bytes(data, values.get("filename"))
            values["data"] = data
            cls._check_kind(found.media_type, what="these bytes")
            values["media_type"] = found.media_type
        elif declared is not None:
            cls._check_kind(declared, what="the declared media_type")
        return values

    @classmethod
    def _reference(cls, values: dict[str, Any], declared: str | None, data: Any, url: Any) -> Any:
        file_id, store = values.get("file_id"), values.get("file_provider")
        if not (isinstance(file_id, str) and file_id and isinstance(store, str) and store):
            raise InvalidMedia(
                "a provider file reference needs file_id and file_provider (the provider whose "
                f"file store holds it) as non-empty strings, got {type(file_id).__name__} and "
                f"{type(store).__name__}"
            )
        if data is not None or url is not None:
            raise InvalidMedia(f"{cls.__name__} holds bytes, a URL or a file_id: give one")
        if declared is not None:
            cls._check_kind(declared, what="the declared media_type")
        return values

    @property
    def is_reference(self) -> bool:
        """Whether the part is a provider file reference (`file_id`), with no bytes here."""
        return self.file_id is not None

    @classmethod
    def _check_kind(cls, media_type: str, *, what: str) -> None:
        kind = kind_of(media_type)
        if kind in cls._kinds:
            return
        if media_type == "application/octet-stream":
            detail = f"{what}: not a recognised {'/'.join(sorted(cls._kinds))} format"
        else:
            detail = f"{what}: {media_type}, which is {article(kind)} {kind}"
        better = public_name(_BY_KIND[kind]) if kind in _BY_KIND else "mp.part()"
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
        return hash((type(self), self.media_type, self.filename, self.url, self.file_id, digest))

    def __copy__(self) -> Self:
        # `model_copy` copies the private attributes, then may change any field: what was worked
        # out from this part is not the copy's (and the copy must not hold it, nor this part).
        copied = super().__copy__()
        copied._private()["_remembered"] = None
        return copied

    def _private(self) -> dict[str, Any]:
        """The private attributes' values, read where pydantic keeps them: its own lookup of
        one (`self._state`, through `__getattr__`) costs microseconds, on every render and count.
        """
        private = self.__pydantic_private__
        assert private is not None  # set at init: the class has private attributes
        return private

    def _recall(self, objects: tuple[object, ...], values: tuple[Hashable, ...]) -> Any:
        """Return a result kept for these inputs (see `Remembered`), or None."""
        remembered: Remembered | None = self._private().get("_remembered")
        return None if remembered is None else remembered.recall(objects, values)

    def _keep(self, objects: tuple[object, ...], values: tuple[Hashable, ...], result: Any) -> None:
        """Keep a result worked out from this part and these inputs (a few, on the part).

        The result must not refer to the part: it would keep it alive in a reference cycle.
        """
        private = self._private()
        remembered: Remembered | None = private.get("_remembered")
        if remembered is None:
            remembered = private["_remembered"] = Remembered()
        remembered.keep(objects, values, result)

    def _repr_fields(self) -> Iterator[tuple[str, Any]]:
        for name, value in super()._repr_fields():
            if name == "url" and isinstance(value, str):
                value = redact(value)  # reprs end up in logs; the password must not
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
            self.load()  # raises for a file reference
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
        self._no_reference()
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
        self._no_reference()
        if not self.is_loaded:
            await fetching.aload(self._state, self._wanted(), client=client, policy=policy)
        return self

    def _no_reference(self) -> None:
        if self.file_id is not None:
            raise InvalidMedia(
                f"{type(self).__name__} {excerpt(self.file_id)} is a file in "
                f"{self.file_provider}'s file "
                "store: it has no bytes here and is never fetched; it renders only to "
                f"{self.file_provider}"
            )

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
        if self.inline is not None or self.file_id is not None:
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
        return data_uri(media_type, data)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict that `mp.part()` and `from_dict()` turn back into this part.

        Bytes are base64 text; fields that are `None` (and empty metadata) are left out. A URL
        part's fetched bytes are a cache, not part of its value, and are not included.
        """
        return part_dict(self)

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
