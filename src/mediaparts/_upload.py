"""`from_upload`: turn a web upload into a part, trusting its bytes and nothing the client said.

Checks, in order: the declared size → read at most `max_bytes + 1` bytes → empty → detect the
type from the bytes (the client's file name and content type may only name a member of the
family the bytes show; bytes that show none are application/octet-stream, and text must be
text to its end) → `accept` → the pixel count from the image header → (with `strip_metadata`)
re-encode without metadata, which also decodes every pixel once. Takes Starlette/FastAPI
`UploadFile`, Werkzeug `FileStorage`, Django `UploadedFile` or any binary file object, by duck
typing. See docs/uploads.md.
"""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mediaparts._boundary import Boundary
from mediaparts._clienthints import declared_type, given_name, safe_filename
from mediaparts._conversation._parts import MediaPart, part_class
from mediaparts._errors import (
    InvalidMedia,
    MediaTooLarge,
    UnsupportedMediaType,
    empty_media,
    excerpt,
)
from mediaparts.detection import (
    PREFIX_SIZE,
    Detection,
    canonical_media_type,
    detect,
    extension_for,
    kind_of,
    text_to_the_end,
)
from mediaparts.formats import get as format_record
from mediaparts.formats import readable
from mediaparts.imaging import DecodeBudget, image_size, strip_metadata

__all__ = ["afrom_upload", "from_upload"]

# Only MediaError leaves afrom_upload (see Boundary).
_AREADING_AN_UPLOAD = Boundary("reading an upload")

# Only MediaError leaves from_upload (see Boundary).
_READING_AN_UPLOAD = Boundary("reading an upload")

DEFAULT_ACCEPT = ("image/*", "application/pdf")
_CHUNK = 1 << 20
# What bytes nothing identifies are; only "*/*" or this type named exactly accepts them.
_UNIDENTIFIED = "application/octet-stream"
# type "/" subtype, each a restricted name (RFC 6838 §4.2) or "*"; "*/*" but not "*/png".
# The classes exclude "/", so matching is linear in the pattern's length.
_PATTERN = re.compile(r"\*/\*|[a-z0-9][a-z0-9!#$&^_.+-]*/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]*)")
# Text formats content sniffing recognises by their own markup; a hint never makes one.
_SNIFFED_MARKUP = frozenset(
    {"image/svg+xml", "text/html", "application/xhtml+xml", "application/xml", "application/json"}
)
# What stripping may cost to decode unless the caller says: the imaging defaults (JPEG scans,
# decoded bytes, pixels per input byte), with frames x canvas bounded by `max_pixels` as well.
_BUDGET = DecodeBudget()


@dataclass(frozen=True, slots=True)
class _Request:
    max_bytes: int
    accept: tuple[str, ...]
    strip: bool
    max_pixels: int
    budget: DecodeBudget
    filename: str | None  # sanitised
    client_name: str | None
    client_type: str | None


def from_upload(
    upload: Any,
    *,
    max_bytes: int = 20 * 2**20,
    accept: str | Iterable[str] = DEFAULT_ACCEPT,
    strip_metadata: bool = True,
    max_pixels: int = 50_000_000,
    decode_budget: DecodeBudget | None = None,
) -> MediaPart:
    """Make a part from an uploaded file, checked and typed by its bytes.

    Args:
        upload: A Starlette/FastAPI `UploadFile` (its `.file` is read), a Werkzeug
            `FileStorage` (`.stream`), a Django `UploadedFile` or any binary file object. It
            is not closed; when seekable, its position is put back afterwards.
        max_bytes: The most bytes accepted; at most `max_bytes + 1` are ever read.
        accept: Media type patterns (`"image/*"`, `"application/pdf"`, `"*/*"`) the detected
            type must match. `"image/*"` means raster images: name `"image/svg+xml"` to take SVG.
        strip_metadata: Re-encode images without EXIF, GPS, XMP or comments, upright.
        max_pixels: The most pixels (all frames of an animation) an image may have.
        decode_budget: What stripping may cost to decode (JPEG scans, decoded bytes, pixels
            per input byte; see `mediaparts.imaging.DecodeBudget`); the defaults when None.

    Returns:
        An `ImagePart`, `AudioPart`, `VideoPart` or `FilePart`, as the bytes' kind says. Its
        `filename` is the client's made safe (printable, UTF-8, no path, at most 255 bytes);
        its `metadata` holds the client's `client_filename` and `client_content_type`, made
        printable and bounded, when given.

    Raises:
        MediaTooLarge: More than `max_bytes` bytes, or more than `max_pixels` pixels.
        UnsupportedMediaType: The detected type matches no `accept` pattern (bytes that
            identify no type match only `"*/*"` or `"application/octet-stream"`, whatever the
            client called them).
        CodecUnavailable: The image cannot be stripped because this machine lacks its decoder
            (HEIC without pillow-heif): an `UnsupportedMediaType` that is the server's fault.
        InvalidMedia: The upload is empty, unreadable or a corrupt image, or an argument is bad.
    """
    try:
        # Sync twin of `afrom_upload` (same keywords; `_read` is the twin of its read loop): the
        # checks after reading are `_finish`'s, written once.
        request = _request(upload, max_bytes, accept, strip_metadata, max_pixels, decode_budget)
        read = getattr(upload, "read", None)
        stream = upload
        if inspect.iscoroutinefunction(read):
            stream = getattr(upload, "file", None)  # Starlette's UploadFile: its sync file
            if not callable(getattr(stream, "read", None)):
                raise InvalidMedia("this upload has only an async read(): use await afrom_upload()")
        elif callable(getattr(getattr(upload, "stream", None), "read", None)):
            stream = upload.stream  # Werkzeug's FileStorage
        return _finish(_read(stream, request), request)
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _READING_AN_UPLOAD.reraise(exc)


async def afrom_upload(
    upload: Any,
    *,
    max_bytes: int = 20 * 2**20,
    accept: str | Iterable[str] = DEFAULT_ACCEPT,
    strip_metadata: bool = True,
    max_pixels: int = 50_000_000,
    decode_budget: DecodeBudget | None = None,
) -> MediaPart:
    """`from_upload` for async code: awaits an async `read()` (Starlette/FastAPI `UploadFile`).

    Objects with a sync `read()` are read in a worker thread, and images are checked and
    re-encoded in one, so the event loop is never blocked. Arguments, result and errors are
    those of `from_upload`.
    """
    try:
        # Async twin of `from_upload` (its read loop is the twin of `_read`, awaiting read()); the
        # checks after reading are `_finish`'s, written once.
        if not inspect.iscoroutinefunction(getattr(upload, "read", None)):
            return await asyncio.to_thread(
                from_upload,
                upload,
                max_bytes=max_bytes,
                accept=accept,
                strip_metadata=strip_metadata,
                max_pixels=max_pixels,
                decode_budget=decode_budget,
            )
        request = _request(upload, max_bytes, accept, strip_metadata, max_pixels, decode_budget)
        inner: Any = getattr(upload, "file", None)  # a sync file beside the async API
        start, buffer = _tell(inner), _Buffer(request)
        try:
            while size := buffer.wanted():
                try:
                    buffer.add(await upload.read(size))
                except (OSError, ValueError) as exc:
                    raise InvalidMedia(f"cannot read {_label(request)}: {exc}") from exc
        finally:
            if start is not None:
                inner.seek(start)
        return await asyncio.to_thread(_finish, buffer.data(), request)
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _AREADING_AN_UPLOAD.reraise(exc)


def _request(
    upload: Any, max_bytes: Any, accept: Any, strip: Any, max_pixels: Any, budget: Any
) -> _Request:
    for name, value in (("max_bytes", max_bytes), ("max_pixels", max_pixels)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise InvalidMedia(f"{name} must be a positive whole number, got {excerpt(value)}")
    if budget is not None and not isinstance(budget, DecodeBudget):
        raise InvalidMedia(f"decode_budget must be a DecodeBudget, got {type(budget).__name__}")
    client_type, client_name = declared_type(upload), given_name(upload)
    request = _Request(
        max_bytes=max_bytes,
        accept=_patterns(accept),
        strip=bool(strip),
        max_pixels=max_pixels,
        budget=budget or _BUDGET,
        filename=safe_filename(client_name),
        client_name=client_name or None,
        client_type=client_type or None,
    )
    # A declared size (Django's `size`, Starlette's once parsed, Werkzeug's Content-Length) is
    # only believed when it is too large: a client can lie downwards, not past the read cap.
    for attr in ("size", "content_length"):
        size = getattr(upload, attr, None)
        if isinstance(size, int) and not isinstance(size, bool) and size > max_bytes:
            raise MediaTooLarge(
                f"{_label(request)} is {size:,} bytes, over the upload limit of {max_bytes:,} "
                "bytes (max_bytes)",
                size=size,
                limit=max_bytes,
            )
    return request


def _patterns(accept: Any) -> tuple[str, ...]:
    """Canonicalise the application's `accept` patterns, refusing any that would match nothing."""
    patterns = (accept,) if isinstance(accept, str) else accept
    if not isinstance(patterns, Iterable):
        raise InvalidMedia(f"accept takes media type patterns, got {type(accept).__name__}")
    canonical = []
    for pattern in patterns:
        # `canonical_media_type` lower-cases, drops parameters and folds aliases (image/jpg).
        if not isinstance(pattern, str) or not _PATTERN.fullmatch(canonical_media_type(pattern)):
            raise InvalidMedia(
                f"accept takes media type patterns such as 'image/*', 'application/pdf' or "
                f"'*/*', got {excerpt(pattern)}"
            )
        canonical.append(canonical_media_type(pattern))
    if not canonical:
        raise InvalidMedia("accept is empty, so every upload would be refused")
    return tuple(canonical)


def _label(request: _Request) -> str:
    return f"the upload {excerpt(request.filename)}" if request.filename else "the upload"


def _tell(stream: Any) -> int | None:
    try:
        return int(stream.tell()) if stream is not None and stream.seekable() else None
    except (AttributeError, OSError, ValueError):
        return None


def _read(stream: Any, request: _Request) -> bytes:
    # Sync twin of `afrom_upload`'s read loop (read() vs await read(); `_Buffer` holds the rules).
    if not callable(getattr(stream, "read", None)):
        raise InvalidMedia(f"expected an upload or a binary file object, got {type(stream)!r}")
    start, buffer = _tell(stream), _Buffer(request)
    try:
        while size := buffer.wanted():
            try:
                buffer.add(stream.read(size))
            except (OSError, ValueError) as exc:
                raise InvalidMedia(f"cannot read {_label(request)}: {exc}") from exc
    finally:
        if start is not None:
            stream.seek(start)
    return buffer.data()


class _Buffer:
    """Chunks read so far; asks for no more than `max_bytes + 1` in all, in 1 MiB reads.

    Reads loop because sockets, pipes and raw streams may return fewer bytes than asked for.
    """

    def __init__(self, request: _Request) -> None:
        self.request, self.chunks, self.total, self.ended = request, list[bytes](), 0, False

    def wanted(self) -> int:
        if self.ended:
            return 0
        return max(0, min(_CHUNK, self.request.max_bytes + 1 - self.total))

    def add(self, chunk: Any) -> None:
        label = _label(self.request)
        if isinstance(chunk, str):
            raise InvalidMedia(f"{label} is open in text mode; open it with 'rb'")
        if inspect.isawaitable(chunk):
            if inspect.iscoroutine(chunk):
                chunk.close()  # never awaited: close it rather than leave a RuntimeWarning
            raise InvalidMedia(f"{label}: read() returned an awaitable; use await afrom_upload()")
        if not isinstance(chunk, bytes | bytearray | memoryview):
            raise InvalidMedia(f"{label}: read() returned {type(chunk).__name__}, not bytes")
        self.ended = not chunk
        # read(n) may return more than n from a stream that ignores n: keep no more than the cap
        # allows, so what is held stays within max_bytes + 1 however much was handed over.
        room = self.request.max_bytes + 1 - self.total
        # tobytes() takes any buffer, however strided or typed (cast() refuses those).
        held = chunk[:room] if isinstance(chunk, bytes) else memoryview(chunk).tobytes()[:room]
        self.chunks.append(bytes(held))
        self.total += len(self.chunks[-1])

    def data(self) -> bytes:
        data, limit = b"".join(self.chunks), self.request.max_bytes
        if len(data) > limit:
            raise MediaTooLarge(
                f"{_label(self.request)} holds more than the upload limit of {limit:,} bytes "
                "(max_bytes); only that much was read",
                size=len(data),
                limit=limit,
            )
        if not data:
            raise empty_media(_label(self.request), "choose a file that holds the media")
        return data


def _accepts(media_type: str, patterns: tuple[str, ...]) -> bool:
    if media_type == _UNIDENTIFIED:
        # Bytes nothing identifies: "application/*" means identified documents, so only
        # "*/*" or the type named exactly takes them.
        return "*/*" in patterns or _UNIDENTIFIED in patterns
    kind = kind_of(media_type)
    for pattern in patterns:
        major, _, minor = pattern.partition("/")
        if pattern in ("*/*", media_type):
            return True
        # SVG is "image/svg+xml" but a document (scripts, links): "image/*" means raster.
        raster = major != "image" or kind == "image"
        if minor == "*" and media_type.startswith(f"{major}/") and raster:
            return True
    return False


def _identify(data: bytes, request: _Request) -> Detection:
    """Detect the type from the bytes; the client's name and type may refine it, never make it.

    `detect` takes a type from a hint in two cases: the bytes showed a family (text, whose
    dialect a `.csv` or `.md` name may name; a container such as a ZIP or an MP4-style box file,
    whose member a `.docx` or `.heic` name may name), or the bytes showed nothing at all. The
    first is kept; in the second the hint is all there is, so the bytes are unidentified. Text
    is sniffed from a 64 KiB prefix: here, where the whole upload is at hand, the rest must be
    text too, or 64 KiB of words would carry megabytes of anything in as `text/plain`.
    """
    found = detect(data, filename=request.filename, declared=request.client_type)
    # detect() reads a bounded prefix (at most 256 KiB in all), so asking twice costs little.
    own = found if found.source in ("magic", "content") else detect(data)
    if own.source == "unknown":
        return own
    if own.source == "content" and len(data) > PREFIX_SIZE and not text_to_the_end(data):
        return Detection(_UNIDENTIFIED, "file", extension_for(_UNIDENTIFIED), "unknown", False)
    if own.source == "content" and found.media_type in _SNIFFED_MARKUP:
        # A name may say which dialect plain text is (.csv, .md), but markup is recognised by
        # its own root: text the sniffer did not find to be SVG or HTML is not, whatever the
        # name says (an app accepting SVG would otherwise take any text as SVG).
        return own
    if found.media_type != own.media_type and format_record(found.media_type) is None:
        # A hint may name a registered member of the family the bytes showed, not invent a
        # type ("text/anything-at-all" for a text file).
        return own
    return found


def _claims(request: _Request) -> str:
    said = [f"sent it as {excerpt(request.client_type)}"] if request.client_type else []
    said += [f"named it {excerpt(request.filename)}"] if request.filename else []
    return f"; the client {' and '.join(said)}" if said else ""


def _finish(data: bytes, request: _Request) -> MediaPart:
    found = _identify(data, request)
    media_type = found.media_type
    if not _accepts(media_type, request.accept):
        accepted = ", ".join(request.accept)
        if found.source == "unknown":
            message = (
                f"{_label(request)}: its bytes could not be identified as any accepted type "
                f"({accepted}){_claims(request)}, which alone is not believed"
            )
        else:
            said = (
                f"; the client said {excerpt(request.client_type)}" if request.client_type else ""
            )
            message = (
                f"{_label(request)} is {media_type} (detected from its bytes{said}), which is "
                f"not accepted here; accepted: {accepted}"
            )
        raise UnsupportedMediaType(message, media_type=media_type, accepted=request.accept)
    if found.kind == "image":
        data, media_type = _check_image(data, media_type, request)
    metadata = {"client_filename": request.client_name, "client_content_type": request.client_type}
    # A part types its bytes with its file name as a hint: unidentified bytes taken under "*/*"
    # keep the client's name in metadata only, or "report.pdf" would make them a PDF again.
    filename = None if found.source == "unknown" else request.filename
    return part_class(kind_of(media_type))(
        data=data,
        media_type=media_type,
        filename=filename,
        metadata={k: v for k, v in metadata.items() if v is not None},
    )


def _check_image(data: bytes, media_type: str, request: _Request) -> tuple[bytes, str]:
    """Refuse bombs from the header; with `strip`, return the bytes without metadata."""
    size = image_size(data, media_type)  # the header, else Pillow reading just the header
    if size is None:  # corrupt if Pillow reads the type; else a type we cannot check
        error = InvalidMedia if media_type in readable() else UnsupportedMediaType
        raise error(
            f"{_label(request)}: cannot read the {media_type} image's size from its header, so "
            "its pixel count cannot be checked",
            media_type=media_type,
        )
    pixels = size[0] * size[1]
    if pixels > request.max_pixels:
        raise MediaTooLarge(
            f"{_label(request)}: {media_type} of {size[0]}x{size[1]} = {pixels:,} pixels exceeds "
            f"max_pixels={request.max_pixels:,}; refused before decoding",
            size=pixels,
            limit=request.max_pixels,
            media_type=media_type,
        )
    if not request.strip:
        return data, media_type
    if media_type not in readable():
        raise UnsupportedMediaType(
            f"cannot strip metadata from {_label(request)}: mediaparts re-encodes "
            f"{', '.join(readable())}, not {media_type}; pass strip_metadata=False to keep "
            "its bytes as they are",
            media_type=media_type,
            accepted=readable(),
        )
    return strip_metadata(
        data,
        media_type,
        max_pixels=request.max_pixels,
        budget=request.budget,
        label=_label(request),
    )
