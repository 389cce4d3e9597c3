"""`detect()`: read a bounded prefix once, then magic bytes, text sniffing, name, declared type.

The order: the bytes win whenever they identify a type; the file name and the
declared type only fill in what the bytes leave open (no signature, generic text, or a generic
container), and otherwise only set `mismatch`. A hint naming a format whose signature we know
never stands in for bytes that lack it: `bogus.pdf` holding no PDF is octet-stream.
"""

from __future__ import annotations

import functools
import io
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Literal, NamedTuple, Protocol, Union, cast

from mediaparts._boundary import Boundary
from mediaparts._errors import InvalidMedia
from mediaparts._paths import is_str_path, open_path, register_media_test
from mediaparts.detection._types import (
    OCTET_STREAM,
    canonical_media_type,
    describe,
    family_member,
    is_textual,
    media_type_from_filename,
    same_format,
)
from mediaparts.detection._verdict import Hit
from mediaparts.formats import PREFIX_SIZE, ByteWindow, Kind, ReadAt

if TYPE_CHECKING:
    from mediaparts.detection._sniff import TextGuess

__all__ = ["Detection", "Source", "detect", "detect_media_type"]

# Only MediaError leaves detect (see Boundary).
_DETECTING = Boundary("detecting the media type")

DetectionSource = Literal["magic", "content", "extension", "declared", "unknown"]


class _Readable(Protocol):
    def read(self, size: int = ..., /) -> bytes: ...


Source = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]", IO[bytes], _Readable]
"""What `detect` accepts: bytes-like data, a path, or a binary file object."""

# filetype reads at most this much (filetype/utils.py, _NUM_SIGNATURE_BYTES).
_FILETYPE_BYTES = 8192

# type "/" subtype, each a restricted name (RFC 6838 §4.2); anything else is not a hint.
_MEDIA_TYPE = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*")


@dataclass(frozen=True, slots=True)
class Detection:
    """The outcome of `detect`.

    Attributes:
        media_type: The canonical media type.
        kind: `"image"`, `"audio"`, `"video"` or `"file"` (documents and text).
        extension: The usual extension for `media_type` (not the file's own), or None.
        source: What decided: `"magic"` (signature bytes), `"content"` (text sniffing),
            `"extension"` (the file name), `"declared"` (the caller's type) or `"unknown"`.
        mismatch: True when the file name or declared type names a different format than
            the bytes.
    """

    media_type: str
    kind: Kind
    extension: str | None
    source: DetectionSource
    mismatch: bool


class _Rules(NamedTuple):
    match_signatures: Callable[[ByteWindow], Hit | None]
    owned_types: frozenset[str]
    sniff_text: Callable[..., TextGuess | None]
    starts_with_bom: Callable[[bytes], bool]


@functools.cache
def _rules() -> _Rules:
    """The signature table with its container parsers, and the text sniffers: loaded on the
    first detection, since they are most of detection's code and `import mediaparts` needs
    none of them (docs/performance.md, the import rows)."""
    from mediaparts.detection import _signatures, _sniff

    return _Rules(
        _signatures.match_signatures,
        _signatures.OWNED_TYPES,
        _sniff.sniff_text,
        _sniff.starts_with_bom,
    )


def _result(media_type: str, source: DetectionSource, mismatch: bool = False) -> Detection:
    kind, extension = describe(media_type)
    return Detection(media_type, kind, extension, source, mismatch)


def _read_fully(stream: _Readable, size: int) -> bytes:
    """Read `size` bytes, or up to the end: raw streams and pipes may return short reads."""
    chunks = []
    remaining = size
    while remaining > 0:
        chunk = stream.read(remaining)
        if not chunk:
            break
        if not isinstance(chunk, (bytes, bytearray)):
            raise InvalidMedia("detect() needs a binary file object; this one returned text")
        chunks.append(bytes(chunk))
        remaining -= len(chunk)
    return b"".join(chunks)


def _hints(
    filename: str | os.PathLike[str] | None, declared: str | None
) -> list[tuple[str, DetectionSource]]:
    """The file name's and declared types, canonical, without the uninformative octet-stream."""
    if filename is not None and not is_str_path(filename):
        raise InvalidMedia(f"filename must be a string, got {type(filename).__name__}")
    if declared is not None and not isinstance(declared, str):
        raise InvalidMedia(f"declared must be a media type string, got {type(declared).__name__}")
    hints: list[tuple[str, DetectionSource]] = []
    named = media_type_from_filename(os.fspath(filename)) if filename else None
    if named and named != OCTET_STREAM:
        hints.append((named, "extension"))
    stated = canonical_media_type(declared) if declared else None
    if stated and stated != OCTET_STREAM and _MEDIA_TYPE.fullmatch(stated):
        hints.append((stated, "declared"))
    return hints


def _from_filetype(head: bytes) -> Hit | None:
    """Ask filetype about the long tail our table leaves out (archives, fonts, executables).

    Its answers for formats our table owns are dropped: where our stricter checks said no,
    filetype's looser ones (any 0xFFFB is MP3 to it) would only add false positives.
    """
    import filetype  # loaded for the long tail only: most files never get here

    found = filetype.guess(head[:_FILETYPE_BYTES])
    if found is None:
        return None
    media_type = canonical_media_type(str(found.mime))
    if media_type == OCTET_STREAM or media_type in _rules().owned_types:
        return None
    return Hit(media_type)


def _text_agrees(guess: str, hint: str) -> bool:
    """Tell whether a hint is compatible with sniffed text: same type, or a generic parent."""
    if guess == hint or hint == "text/plain":
        return is_textual(guess)
    return hint == "application/xml" and guess.endswith("+xml")


def _refines(guess: TextGuess, hint: str) -> bool:
    """Tell whether a hint may replace what sniffing said: a more specific text format."""
    if not is_textual(hint):
        return False
    if not guess.certain:
        return True
    if guess.media_type == "application/xml":
        return hint.endswith("+xml")
    if guess.media_type == "application/json":
        return hint.endswith("+json") or hint == "application/x-ndjson"
    return False


def _unsigned(hints: list[tuple[str, DetectionSource]]) -> Detection:
    """Decide from the hints alone, for bytes no signature or text sniffing identified.

    A hint naming a format whose signature we know (PNG, PDF, MP3, docx: `OWNED_TYPES`) is
    not believed: bytes of that format would have carried its signature. Only a hint of a
    format without one (a registered format with no `magic`, a rare type) is taken.
    """
    owned = _rules().owned_types
    for hint, source in hints:
        if hint not in owned:
            return _result(hint, source)
    return _result(OCTET_STREAM, "unknown", mismatch=bool(hints))


def _decide(probe: ByteWindow, hints: list[tuple[str, DetectionSource]]) -> Detection:
    if not probe.head:
        return _unsigned(hints)

    rules = _rules()
    guess: TextGuess | None = None
    if rules.starts_with_bom(probe.head):
        # A byte order mark followed by text that decodes cleanly is text, before any
        # signature: the UTF-16 LE mark FF FE also reads as an MPEG-1 Layer I frame header,
        # which would make a short UTF-16 note "MP3" (one frame too short to check the next).
        guess = rules.sniff_text(probe.head, truncated=probe.truncated)
    hit = None if guess is not None else rules.match_signatures(probe)
    if hit is None:
        if guess is None:
            guess = rules.sniff_text(probe.head, truncated=probe.truncated)
        if guess is not None:
            for hint, source in hints:
                if hint != guess.media_type and _refines(guess, hint):
                    return _result(hint, source)
            mismatch = any(not _text_agrees(guess.media_type, hint) for hint, _ in hints)
            return _result(guess.media_type, "content", mismatch)
        hit = _from_filetype(probe.head)

    if hit is None:
        return _unsigned(hints)

    media_type = canonical_media_type(hit.media_type)
    if hit.generic:
        for hint, source in hints:
            if family_member(media_type, hint):
                return _result(hint, source)
    mismatch = any(not same_format(media_type, hint) for hint, _ in hints)
    return _result(media_type, "magic", mismatch)


def _probe_buffer(data: bytes | bytearray | memoryview) -> ByteWindow:
    if type(data) is bytes:  # immutable: sliced as it is (a short one is not even copied)
        return ByteWindow(
            data[:PREFIX_SIZE], len(data), lambda offset, n: data[offset : offset + n]
        )
    view = memoryview(data)
    if not view.c_contiguous:
        view = memoryview(view.tobytes())  # a strided view cannot be cast or sliced flat
    if view.format != "B" or view.ndim != 1:
        view = view.cast("B")
    # Slicing a memoryview copies nothing; only the requested pieces become bytes.
    return ByteWindow(
        bytes(view[:PREFIX_SIZE]), view.nbytes, lambda offset, n: bytes(view[offset : offset + n])
    )


def _seekable(stream: object) -> bool:
    seekable = getattr(stream, "seekable", None)
    if callable(seekable):
        try:
            return bool(seekable())
        except (OSError, ValueError):
            return False
    return hasattr(stream, "seek") and hasattr(stream, "tell")


def _detect_stream(stream: _Readable, hints: list[tuple[str, DetectionSource]]) -> Detection:
    """Detect from a file object, from its current position, leaving that position as it was."""
    if not _seekable(stream):
        head = _read_fully(stream, PREFIX_SIZE)
        size = len(head) if len(head) < PREFIX_SIZE else None
        return _decide(ByteWindow(head, size), hints)
    seekable = cast(IO[bytes], stream)  # _seekable() checked it has seek and tell
    start = seekable.tell()
    try:
        seekable.seek(0, io.SEEK_END)
        size = seekable.tell() - start
        seekable.seek(start)
        head = _read_fully(seekable, PREFIX_SIZE)

        def read_at(offset: int, length: int) -> bytes:
            seekable.seek(start + offset)
            return _read_fully(seekable, length)

        return _decide(ByteWindow(head, max(size, len(head)), read_at), hints)
    finally:
        seekable.seek(start)


def detect(
    source: Source,
    *,
    filename: str | os.PathLike[str] | None = None,
    declared: str | None = None,
) -> Detection:
    """Detect the media type of bytes, a file or a binary file object.

    Reads at most `PREFIX_SIZE` bytes from the start, plus a few small reads elsewhere when a
    format needs them (what follows a large ID3 tag, a ZIP's central directory, an MP4's
    `moov` box); never more than 256 KiB in all, whatever the size of the input. The bytes
    decide whenever they identify a type (signatures first, then text sniffing; but text
    behind a byte order mark is text before any signature is tried); the file
    name's extension and then `declared` are used only when the bytes are not conclusive.

    Args:
        source: `bytes`, `bytearray` or `memoryview` data; a `str` or `os.PathLike` path (a
            `str` is always a path, never data); or a binary file object. A seekable file
            object is read from its current position, which is restored afterwards. A
            non-seekable one (a pipe, a socket) is read for the prefix only, and those bytes
            are consumed.
        filename: The file's name, path or URL, if known; its extension is a hint. For a path
            source it defaults to the path itself.
        declared: A media type someone claimed (a Content-Type header, an upload's type).

    Returns:
        The detection: canonical media type, kind, usual extension, what decided, and whether
        the name or declared type disagreed with the bytes.

    Raises:
        InvalidMedia: A path that is missing, a directory or unreadable; a source of none of
            the accepted kinds; a file object in text mode.
    """
    try:
        if isinstance(source, (bytes, bytearray, memoryview)):
            hints = [] if filename is None and declared is None else _hints(filename, declared)
            return _decide(_probe_buffer(source), hints)
        if isinstance(source, (str, os.PathLike)):
            hints = _hints(source if filename is None else filename, declared)
            with open_path(source) as file:
                size = os.fstat(file.fileno()).st_size
                head = _read_fully(file, PREFIX_SIZE)

                def read_at(offset: int, length: int) -> bytes:
                    file.seek(offset)
                    return _read_fully(file, length)

                reader: ReadAt = read_at
                return _decide(ByteWindow(head, max(size, len(head)), reader), hints)
        if callable(getattr(source, "read", None)):
            hints = _hints(filename, declared)
            try:
                return _detect_stream(source, hints)
            except (OSError, ValueError) as exc:  # a closed file, a failing device
                raise InvalidMedia(f"cannot read the file object: {exc}") from exc
        raise InvalidMedia(
            f"detect() takes bytes, a path or a binary file object, not {type(source).__name__}"
        )
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _DETECTING.reraise(exc)


def detect_media_type(source: Source, *, filename: str | os.PathLike[str] | None = None) -> str:
    """Return the canonical media type of `source`; see `detect` for the rules.

    Args:
        source: Bytes-like data, a path, or a binary file object.
        filename: The file's name, whose extension is a hint when the bytes are not conclusive.

    Returns:
        The media type, `application/octet-stream` when nothing identifies it.
    """
    return detect(source, filename=filename).media_type


def _media_by_signature(head: bytes) -> bool:
    """Tell whether bytes are media someone sends a model, identified by their signature.

    For telling base64 passed as a path from a path (`_paths.looks_like_base64`): images,
    audio, video and PDF only, since a path's first characters decode to the long tail's short
    signatures (an MZ executable, compress's 1F 9D) by chance; JPEG XL's two-byte codestream
    mark is left out for the same reason: '/work/...' decodes to FF 0A.
    """
    found = detect(head)
    media = found.kind != "file" or found.media_type == "application/pdf"
    return found.source == "magic" and media and found.media_type != "image/jxl"


register_media_test(_media_by_signature)
