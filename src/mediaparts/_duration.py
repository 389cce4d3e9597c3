"""Media duration and PDF page count, read from headers, for token pricing.

Durations come from container headers, never from decoding: mutagen (imported lazily) reads
WAV, MP3, MP4/M4A/MOV/3GP (the `mvhd` box), Ogg (Vorbis, Opus, FLAC, Speex, Theora), FLAC,
AIFF, ADTS AAC (an estimate from the bitrate) and ASF/WMA/WMV; a few lines here read
Matroska/WebM (the segment `Info` `Duration`) and AVI (`avih`). PDF pages are counted from the
page tree without a PDF library. Every reader returns None, never raises, on bytes it cannot read.
"""

from __future__ import annotations

import importlib
import io
import math
import re
import struct
import zlib
from collections.abc import Callable, Iterator

from mediaparts.detection import canonical_media_type

__all__ = ["audio_duration", "pdf_page_count", "video_duration"]

# Canonical media type -> mutagen classes to try in turn ("module:Class").
_MP4 = ("mutagen.mp4:MP4",)
_ASF = ("mutagen.asf:ASF",)
_MUTAGEN: dict[str, tuple[str, ...]] = {
    "audio/wav": ("mutagen.wave:WAVE",),
    "audio/mpeg": ("mutagen.mp3:MP3",),
    "audio/mp4": _MP4,
    "audio/3gpp": _MP4,
    "video/mp4": _MP4,
    "video/quicktime": _MP4,
    "video/3gpp": _MP4,
    "video/3gpp2": _MP4,
    "audio/ogg": (
        "mutagen.oggvorbis:OggVorbis",
        "mutagen.oggopus:OggOpus",
        "mutagen.oggflac:OggFLAC",
        "mutagen.oggspeex:OggSpeex",
    ),
    "video/ogg": ("mutagen.oggtheora:OggTheora", "mutagen.oggvorbis:OggVorbis"),
    "audio/flac": ("mutagen.flac:FLAC",),
    "audio/aiff": ("mutagen.aiff:AIFF",),
    "audio/aac": ("mutagen.aac:AAC",),
    "audio/x-ms-wma": _ASF,
    "video/x-ms-wmv": _ASF,
    "video/x-ms-asf": _ASF,
}


def _positive(value: object) -> float | None:
    if isinstance(value, (int, float)) and math.isfinite(value) and value > 0:
        return float(value)
    return None


def _with_mutagen(data: bytes, classes: tuple[str, ...]) -> float | None:
    for spec in classes:
        module, name = spec.split(":")
        reader = getattr(importlib.import_module(module), name)
        try:
            length = reader(io.BytesIO(data)).info.length
        # mutagen raises its own errors on foreign bytes, and struct, index, value or
        # arithmetic errors on truncated ones; a duration is best effort, so any means "unknown".
        except Exception:
            continue
        found = _positive(length)
        if found is not None:
            return found
    return None


# Matroska / WebM element ids (matroska.org specification, EBML RFC 8794).
_SEGMENT, _INFO, _CLUSTER = 0x18538067, 0x1549A966, 0x1F43B675
_TIMESTAMP_SCALE, _DURATION = 0x2AD7B1, 0x4489


def _vint(data: bytes, pos: int, *, marker: bool) -> tuple[int, int, bool] | None:
    """Read an EBML variable-length integer: (value, next position, all value bits set)."""
    if pos >= len(data) or data[pos] == 0:
        return None
    length = 9 - data[pos].bit_length()
    if pos + length > len(data):
        return None
    value = data[pos] if marker else data[pos] & (0xFF >> length)
    for byte in data[pos + 1 : pos + length]:
        value = value << 8 | byte
    return value, pos + length, value == (1 << 7 * length) - 1


def _elements(data: bytes, start: int, end: int) -> Iterator[tuple[int, int, int]]:
    """Yield (id, body start, body end) of the EBML elements in data[start:end]."""
    pos = start
    while pos < end:
        eid = _vint(data, pos, marker=True)
        size = eid and _vint(data, eid[1], marker=False)
        if not eid or not size:
            return
        body = size[1]
        stop = end if size[2] else min(end, body + size[0])  # unknown size: to the parent's end
        yield eid[0], body, stop
        pos = stop


def _matroska(data: bytes) -> float | None:
    for eid, start, end in _elements(data, 0, len(data)):
        if eid != _SEGMENT:
            continue
        for cid, c_start, c_end in _elements(data, start, end):
            if cid == _CLUSTER:  # the Info always comes before the first cluster
                return None
            if cid != _INFO:
                continue
            scale, duration = 1_000_000, None  # the default scale is 1 ms, in ns
            for iid, i_start, i_end in _elements(data, c_start, c_end):
                raw = data[i_start:i_end]
                if iid == _TIMESTAMP_SCALE and raw:
                    scale = int.from_bytes(raw, "big")
                elif iid == _DURATION and len(raw) in (4, 8):
                    (duration,) = struct.unpack(">f" if len(raw) == 4 else ">d", raw)
            return None if duration is None else _positive(duration * scale / 1e9)
        return None
    return None


def _avi(data: bytes) -> float | None:
    # RIFF "AVI " with the main header `avih` first in the `hdrl` list: microseconds per frame
    # and total frames (the first RIFF of an OpenDML file counts only its own frames).
    if data[:4] != b"RIFF" or data[8:12] != b"AVI ":
        return None
    at = data.find(b"avih", 12, 4096)
    if at < 0 or len(data) < at + 28:
        return None
    usec, _, _, _, frames = struct.unpack_from("<5I", data, at + 8)
    return _positive(usec * frames / 1e6)


_OWN: dict[str, Callable[[bytes], float | None]] = {
    "audio/webm": _matroska,
    "video/webm": _matroska,
    "audio/x-matroska": _matroska,
    "video/x-matroska": _matroska,
    "video/x-msvideo": _avi,
}


def audio_duration(data: bytes, media_type: str) -> float | None:
    """Return the duration of audio in seconds, from its container header.

    Args:
        data: The file's bytes.
        media_type: Its media type (aliases such as `audio/x-wav` are folded).

    Returns:
        The duration in seconds, or None when the type is not one read here or the bytes
        cannot be read. Never raises on malformed bytes.
    """
    canonical = canonical_media_type(media_type)
    own = _OWN.get(canonical)
    if own is not None:
        try:
            return own(data)
        except (struct.error, IndexError, ValueError, OverflowError):
            return None
    classes = _MUTAGEN.get(canonical)
    return None if classes is None else _with_mutagen(data, classes)


def video_duration(data: bytes, media_type: str) -> float | None:
    """Return the duration of a video in seconds, from its container header.

    MP4, MOV and 3GP are read from the `mvhd` box, Matroska and WebM from the segment info,
    AVI from its main header, Ogg Theora and ASF/WMV through mutagen.

    Args:
        data: The file's bytes.
        media_type: Its media type.

    Returns:
        The duration in seconds, or None when unknown. Never raises on malformed bytes.
    """
    return audio_duration(data, media_type)


# `(?<!\d)`: a match starts only at the first digit of a number. Without it a long run of
# digits is tried from each of its digits in turn, each try scanning to the run's end, which
# is quadratic: 40,000 digits took 6 s, a 1 MB file of digits about an hour.
_OBJECT = re.compile(rb"(?<!\d)\d+\s+\d+\s+obj\b")
_STREAM = re.compile(rb"\bstream\r?\n")
_PAGES = re.compile(rb"/Type\s*/Pages\b")
_PAGE = re.compile(rb"/Type\s*/Page\b")  # \b: "/Pages" does not match
# PDF integers stop at 2**31 - 1 (ISO 32000-1, Annex C.2): ten digits at most. A longer run is
# not a count, and int() refuses more than 4,300 digits with a ValueError.
_INTEGER = rb"(\d{1,10})(?!\d)"
_COUNT = re.compile(rb"/Count\s+" + _INTEGER)
_FIRST = re.compile(rb"/First\s+" + _INTEGER)
_OFFSET = re.compile(rb"\d{1,10}")
_MAX_INFLATED = 64 << 20  # object streams are small; never inflate more than this in total


def _bodies(data: bytes) -> Iterator[bytes]:
    """Yield the text between each `N G obj` and its `endobj`, scanning the file once.

    A lazy `obj(.*?)endobj` regex rescans to the end of the file for every object without an
    `endobj`, which is quadratic on a damaged or hostile file; this never looks back.
    """
    pos = 0
    while (header := _OBJECT.search(data, pos)) is not None:
        end = data.find(b"endobj", header.end())
        if end < 0:
            return
        yield data[header.end() : end]
        pos = end + len(b"endobj")


def _dictionaries(data: bytes) -> Iterator[bytes]:
    """Yield the dictionary text of every object, in file order, including object streams."""
    budget = _MAX_INFLATED
    for body in _bodies(data):
        stream = _STREAM.search(body)
        head = body if stream is None else body[: stream.start()]
        yield head
        if stream is None or b"/ObjStm" not in head or b"FlateDecode" not in head:
            continue
        first = _FIRST.search(head)
        try:
            inflated = zlib.decompressobj().decompress(body[stream.end() :], budget)
        except zlib.error:
            continue
        budget -= len(inflated)
        if first is None or budget <= 0:
            continue
        # The header is pairs "object-number offset"; offsets count from /First.
        start = int(first.group(1))
        offsets = [int(n) for n in _OFFSET.findall(inflated[:start])[1::2]]
        for i, offset in enumerate(offsets):
            end = offsets[i + 1] if i + 1 < len(offsets) else len(inflated) - start
            yield inflated[start + offset : start + end]


def pdf_page_count(data: bytes) -> int | None:
    """Count the pages of a PDF without a PDF library.

    Reads the `/Count` of the root `/Pages` node (the one without a `/Parent`; the last one
    when incremental updates wrote several), else the largest `/Count` of any `/Pages` node,
    else counts the `/Type /Page` objects. Compressed object streams (PDF 1.5+) are inflated.

    Args:
        data: The PDF's bytes.

    Returns:
        The page count, or None when no page tree is found.
    """
    roots: list[int] = []
    counts: list[int] = []
    pages = 0
    for head in _dictionaries(data):
        if _PAGES.search(head):
            count = _COUNT.search(head)
            if count is not None:
                counts.append(int(count.group(1)))
                if b"/Parent" not in head:
                    roots.append(counts[-1])
        elif _PAGE.search(head):
            pages += 1
    if roots:
        return roots[-1]
    if counts:
        return max(counts)
    return pages or None
