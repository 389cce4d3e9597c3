"""The format record and the one registry of them, in the spirit of Pillow's plugins.

Everything mediaparts knows about a media format lives in its `Format` record: its names
(canonical media type, aliases, extensions), its kind, how Pillow reads and writes it, and the
byte-level readers (header size, metadata strip, end check). Detection, imaging, uploads and
the testing fixtures read the records; none keeps a table of its own. `register` adds a
record; the lookup indexes are updated in place, so a read is one dict lookup, never a rebuild.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, get_args

from mediaparts._errors import InvalidConfig, excerpt
from mediaparts.formats._reader import PREFIX_SIZE

__all__ = [
    "Encoding",
    "Format",
    "Kind",
    "Plugin",
    "Sample",
    "Size",
    "by_alias",
    "by_extension",
    "by_pillow",
    "get",
    "magic",
    "readable",
    "register",
    "registered",
    "unregister",
    "writable",
]

Kind = Literal["image", "audio", "video", "file"]
"""What a part holds: the one vocabulary of part kinds (documents and text are `"file"`)."""

Size = tuple[int, int]
"""An image's (width, height) in pixels, as stored (before EXIF orientation)."""


@dataclass(frozen=True, slots=True)
class Sample:
    """How the testing `media` fixture writes a format, so its bytes never drift.

    Attributes:
        extension: The fixture's file extension, without the dot (`"jpg"` for JPEG).
        options: Pillow save options that pin the encoder: a default that changed between
            Pillow releases would change the bytes.
    """

    extension: str
    options: tuple[tuple[str, Any], ...] = ()


Options = tuple[tuple[str, Any], ...]
"""Pillow save options as (name, value) pairs: hashable, so a record stays a frozen value."""


@dataclass(frozen=True, slots=True)
class Encoding:
    """How fitting and stripping write a format with Pillow: the save options of its modes.

    The step that names an encoding follows from it: `"<name> q=85"` for the lossy mode,
    `"<name> lossless"` for the lossless mode of a format that has both, `"<name>"` otherwise.

    Attributes:
        lossless: Save options of its lossless mode; None when it has none (JPEG).
        quality: The save option that takes the quality ladder's rungs; None when it has no
            lossy mode (PNG, GIF). A format with both modes (WebP) starts lossless only for a
            lossless source.
        options: Save options for every encoding.
        icc: Its writer embeds an ICC profile (GIF's cannot).
    """

    lossless: Options | None = ()
    quality: str | None = None
    options: Options = ()
    icc: bool = True

    def save_options(self, quality: int | None) -> dict[str, Any]:
        """Return Pillow's save options: lossy at `quality`, lossless when it is None.

        A format without a lossy mode ignores `quality`.
        """
        if quality is not None and self.quality is not None:
            return {**dict(self.options), self.quality: quality}
        return {**dict(self.options), **dict(self.lossless or ())}


@dataclass(frozen=True, slots=True)
class Plugin:
    """A package that teaches Pillow a format it cannot open by itself.

    A format whose record names one (`Format.plugin`) is opened once the package is imported
    and its registration called, at the first image of that format; without the package,
    that image raises `CodecUnavailable` naming what to install. JPEG XL is one record::

        formats.register(Format("image/jxl", "image", (".jxl",), pillow=("JXL",),
                                plugin=Plugin("pillow_jxl", package="pillow-jxl-plugin")))

    Attributes:
        module: Its import name (`"pillow_heif"`).
        register: The function of the module that registers Pillow's opener
            (`"register_heif_opener"`); empty when importing it registers the opener.
        package: Its name on PyPI, for the error (`"pillow-heif"`); empty: the module's.
        extra: The mediaparts extra that installs it (`"heif"`), if one does.
    """

    module: str
    register: str = ""
    package: str = ""
    extra: str | None = None

    @property
    def install(self) -> str:
        """What the error says to run: the pip command, and the extra if there is one."""
        pip = f"pip install {self.package or self.module}"
        return pip if self.extra is None else f"{pip}, or mediaparts' [{self.extra}] extra"


@dataclass(frozen=True, slots=True)
class Format:
    """One media format: its names, its kind and what mediaparts can do with its bytes.

    Attributes:
        media_type: The canonical media type, lower case (`"image/jpeg"`).
        kind: The part kind it makes.
        extensions: File extensions with their dot; the first is the one written.
        aliases: Other spellings folded into `media_type` (`"image/jpg"`).
        short: The short name in fitting's steps (`"jpeg"`); empty: the subtype.
        textual: It holds text, so text sniffing may be refined to it by a file name.
        pillow: The Pillow formats allowed to open it (`Image.open(formats=...)`), the one it
            is written as first; empty when Pillow cannot read it. Opening is restricted to
            these so hostile bytes never reach an unrelated plugin (EPS runs Ghostscript).
        plugin: The package that registers the Pillow opener when Pillow lacks one
            (`Plugin`: pillow-heif for HEIC and HEIF).
        lossless: Its pixels survive its own encoding exactly.
        lossless_check: For a format that may be either (WebP): tells it from the bytes.
        animatable: It holds animations that providers treat as animations.
        decoded_on_open: Pillow decodes pixels inside `Image.open` (ICO, CUR), so it is never
            opened just for its header.
        exif: Pillow writes an EXIF block in it.
        alpha: It stores transparency, so fitting prefers it for a picture with alpha.
        write_rank: Fitting writes it, tried in this order when converting (lowest first);
            None when fitting never writes it.
        encoding: How it is written (save options per mode, the quality option, ICC); read
            only when `write_rank` is set. The default: one lossless mode, no options.
        rewrite: A picture fitting must re-encode is written in this type again when accepted
            (GIF is not: a resized GIF goes to PNG or another lossless type).
        modes: The Pillow modes `from_pil` writes as they are; others are converted. Empty:
            Pillow decides.
        size: Reads (width, height) from the header without decoding; None if it cannot.
        strip: Drops metadata with the pixel data left byte for byte (raises ValueError on a
            malformed file); None: stripping re-encodes.
        complete: Tells whether the file visibly ends where it should (JPEG EOI, PNG IEND).
        longest_frame: The longest animation frame its writer stores, in milliseconds.
        sample: How the testing `media` fixture writes it; None: the fixture does not.
        magic: (offset, bytes) pieces that all appear in the first bytes when the bytes are
            this format; gaps between them are wildcards, offsets stay below `PREFIX_SIZE`.
            For a registered format: detection tries these after its own signature table
            (whose order is the built-ins' precedence, so a registered format never shadows
            a built-in one), before text sniffing and the `filetype` fallback; registered
            records among themselves in registration order. Built-in records leave it empty:
            their signatures are detection's table. Empty: only its name finds it.
    """

    media_type: str
    kind: Kind
    extensions: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    short: str = ""
    textual: bool = False
    pillow: tuple[str, ...] = ()
    plugin: Plugin | None = None
    lossless: bool = False
    lossless_check: Callable[[bytes], bool] | None = None
    animatable: bool = False
    decoded_on_open: bool = False
    exif: bool = False
    alpha: bool = False
    write_rank: int | None = None
    rewrite: bool = False
    modes: frozenset[str] = frozenset()
    size: Callable[[bytes | memoryview], Size | None] | None = None
    strip: Callable[[bytes], bytes] | None = None
    complete: Callable[[bytes], bool] | None = None
    longest_frame: int | None = None
    sample: Sample | None = None
    encoding: Encoding = Encoding()
    magic: tuple[tuple[int, bytes], ...] = ()

    @property
    def name(self) -> str:
        """The short name, e.g. `"jpeg"` for image/jpeg, `"ico"` for image/vnd.microsoft.icon."""
        return self.short or self.media_type.rpartition("/")[2]

    @property
    def writer(self) -> str | None:
        """The Pillow format it is written as, or None when Pillow cannot write it."""
        return self.pillow[0] if self.pillow else None

    def is_lossless(self, data: bytes) -> bool:
        """Tell whether these bytes of this format hold their pixels exactly."""
        return self.lossless or (self.lossless_check is not None and self.lossless_check(data))


# The records, in registration order, and the indexes over them. Readers look up these dicts
# directly; `register` and `unregister` change them under the lock, in place.
_RECORDS: dict[str, Format] = {}
_ALIASES: dict[str, str] = {}  # alias -> canonical media type
_EXTENSIONS: dict[str, str] = {}  # ".ext" -> canonical media type; one owner each
_PILLOW: dict[str, Format] = {}  # Pillow format name -> record; first registered wins
_lock = threading.Lock()


def register(record: Format) -> Format:
    """Add a format to the registry; every reader sees it from the next call on.

    Args:
        record: The new format. Its media type, aliases and extensions are given in lower case.

    Returns:
        The record, so a module may keep it: `PNG = register(Format(...))`.

    Raises:
        InvalidConfig: The record is malformed (a kind outside `Kind`, a name not lower case,
            an extension without its dot, a `magic` piece empty or reaching past
            `PREFIX_SIZE`), or its media type, an alias or an extension is already registered
            (the message names the clash and its owner).
    """
    _validate(record)
    with _lock:
        clashes = [
            f"{name} (already {_RECORDS[name].media_type if name in _RECORDS else 'an alias'})"
            for name in (record.media_type, *record.aliases)
            if name in _RECORDS or name in _ALIASES
        ]
        clashes += [
            f"extension {ext} (already {_EXTENSIONS[ext]})"
            for ext in record.extensions
            if ext in _EXTENSIONS
        ]
        if clashes:
            raise InvalidConfig(
                f"cannot register {record.media_type}: {', '.join(clashes)}; "
                "unregister the other format first"
            )
        _RECORDS[record.media_type] = record
        _index(record)
        _forget()
    return record


def _validate(record: Format) -> None:
    """Refuse a malformed record with InvalidConfig, before any index is touched."""
    if not isinstance(record, Format):
        raise InvalidConfig(f"register() takes a Format record, got {type(record).__name__}")
    kinds = get_args(Kind)
    if record.kind not in kinds:
        raise InvalidConfig(
            f"{record.media_type}: kind {excerpt(record.kind)} is not one of {', '.join(kinds)}"
        )
    if not isinstance(record.media_type, str) or record.media_type.count("/") != 1:
        raise InvalidConfig(f"a media type is type/subtype, got {excerpt(record.media_type)}")
    for field in ("extensions", "aliases", "pillow"):
        values = getattr(record, field)
        if not isinstance(values, tuple) or not all(isinstance(v, str) for v in values):
            raise InvalidConfig(f"{record.media_type}: {field} must be a tuple of strings")
    names = (record.media_type, *record.aliases, *record.extensions)
    if any(name != name.strip().lower() or not name for name in names):
        raise InvalidConfig(f"format names must be lower case without spaces: {names}")
    if any(not ext.startswith(".") or len(ext) < 2 for ext in record.extensions):
        raise InvalidConfig(
            f"{record.media_type}: extensions start with a dot: {record.extensions}"
        )
    if record.plugin is not None and not (
        isinstance(record.plugin, Plugin)
        and isinstance(record.plugin.module, str)
        and record.plugin.module
        and isinstance(record.plugin.register, str)
    ):
        raise InvalidConfig(
            f"{record.media_type}: plugin must be a formats.Plugin naming a module, "
            f"got {excerpt(record.plugin)}"
        )
    if not isinstance(record.encoding, Encoding):
        raise InvalidConfig(f"{record.media_type}: encoding must be an Encoding")
    _check_magic(record)


def _check_magic(record: Format) -> None:
    """Refuse a signature detection could not test within the prefix it reads."""
    pieces = record.magic
    if not isinstance(pieces, tuple) or not all(
        isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], int) and isinstance(p[1], bytes)
        for p in pieces
    ):
        raise InvalidConfig(
            f"{record.media_type}: magic is a tuple of (offset, bytes) pairs, got {excerpt(pieces)}"
        )
    for offset, piece in pieces:
        if not piece or offset < 0 or offset + len(piece) > PREFIX_SIZE:
            raise InvalidConfig(
                f"{record.media_type}: a magic piece must be non-empty bytes within the first "
                f"{PREFIX_SIZE} bytes, not {excerpt(piece)} at {offset}"
            )


def unregister(media_type: str) -> None:
    """Remove a format (a test's throw-away record); unknown types are ignored."""
    with _lock:
        if _RECORDS.pop(media_type, None) is None:
            return
        _ALIASES.clear()
        _EXTENSIONS.clear()
        _PILLOW.clear()
        for record in _RECORDS.values():
            _index(record)
        _forget()


def _index(record: Format) -> None:
    for alias in record.aliases:
        _ALIASES[alias] = record.media_type
    for extension in record.extensions:
        _EXTENSIONS[extension] = record.media_type  # `register` refuses a taken extension
    for name in record.pillow:
        # A Pillow name may be shared, by design: Pillow's HEIF plugin reports "HEIF" for
        # HEIC, HEIF and AVIF files alike, so the first registered record answers for it.
        _PILLOW.setdefault(name, record)


def get(media_type: str) -> Format | None:
    """Return the record of a canonical media type, or None when none is registered."""
    return _RECORDS.get(media_type)


def by_alias(media_type: str) -> str:
    """Return the canonical media type an alias stands for; anything else as it is."""
    return _ALIASES.get(media_type, media_type)


def by_extension(extension: str) -> str | None:
    """Return the media type of an extension (lower case, with its dot), or None."""
    return _EXTENSIONS.get(extension)


def by_pillow(name: str) -> Format | None:
    """Return the format Pillow calls `name` (`"JPEG"`, `"MPO"`), or None."""
    return _PILLOW.get(name)


def registered(kind: Kind | None = None) -> Iterator[Format]:
    """Yield the registered formats (of one kind), in registration order."""
    for record in tuple(_RECORDS.values()):
        if kind is None or record.kind == kind:
            yield record


@functools.cache
def readable() -> tuple[str, ...]:
    """Return the image types Pillow opens (fitting and stripping handle these), sorted."""
    return tuple(sorted(r.media_type for r in registered("image") if r.pillow))


@functools.cache
def writable() -> tuple[str, ...]:
    """Return the image types fitting writes, in the order it tries them when converting."""
    ranked = [r for r in registered("image") if r.write_rank is not None]
    return tuple(r.media_type for r in sorted(ranked, key=lambda r: r.write_rank or 0))


@functools.cache
def magic() -> tuple[tuple[str, tuple[tuple[int, bytes], ...]], ...]:
    """Return (media type, pieces) for each format with a `magic`, in registration order.

    Cached until the next `register`/`unregister`; empty for the built-in records alone.
    """
    return tuple((r.media_type, r.magic) for r in registered() if r.magic)


def _forget() -> None:
    """Drop the derived views, so the next read sees the change."""
    readable.cache_clear()
    writable.cache_clear()
    magic.cache_clear()
