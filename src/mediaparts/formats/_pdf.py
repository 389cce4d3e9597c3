"""PDF page count, read from the page tree without a PDF library, for token pricing.

The file is scanned once for its objects (`12 0 obj ... endobj`); compressed object streams
(PDF 1.5+) are inflated and their objects read too. The work is bounded by the bytes the file
holds and by three caps, whatever the file claims: objects read, bytes inflated per object
stream and bytes inflated in all. A file past a cap raises `MediaTooLarge` rather than giving a
count from part of its page tree, which could be wrong.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator

from mediaparts._errors import MediaTooLarge

__all__ = ["MAX_INFLATED", "MAX_OBJECTS", "MAX_STREAM_INFLATED", "PDF_OBJECT", "pdf_page_count"]

MAX_OBJECTS = 200_000
"""Objects read in one file, top-level and compressed together.

A 1,000-page PDF (Gemini's page limit) holds some tens of thousands; each costs a few
microseconds to read, so the cap bounds the count at about a second of CPU.
"""

MAX_STREAM_INFLATED = 16 << 20
"""Bytes one object stream may inflate to (writers put 100-200 small dictionaries in each)."""

_INFLATE_STEP = 1 << 20  # bytes inflated per step, so a corrupt stream's cost is known
MAX_INFLATED = 64 << 20
"""Bytes all object streams of one file may inflate to together."""

# An indirect object's header, `12 0 obj` (ISO 32000-1 §7.3.10). Object and generation numbers
# are at most 8,388,607 and 65,535 (Annex C.2), so ten digits is ample, and `(?<!\d)` starts a
# try only at a number's first digit. Unbounded, `\d+\s+\d+\s+obj\b` tried every offset of a
# digit run and scanned to its end each time: quadratic, 25 s for 65,000 digits after `%PDF-`.
PDF_OBJECT = re.compile(rb"(?<!\d)\d{1,10}\s+\d{1,10}\s+obj\b")
"""Where an object starts; detection also looks for one after `%PDF-`."""

_STREAM = re.compile(rb"\bstream\r?\n")
_PAGES = re.compile(rb"/Type\s*/Pages\b")
_PAGE = re.compile(rb"/Type\s*/Page\b")  # \b: "/Pages" does not match
# PDF integers stop at 2**31 - 1 (ISO 32000-1, Annex C.2): ten digits at most. A longer run is
# not a count, and int() refuses more than 4,300 digits with a ValueError.
_COUNT = re.compile(rb"/Count\s+(\d{1,10})(?!\d)")
_FIRST = re.compile(rb"/First\s+(\d{1,10})(?!\d)")
_NUMBER = re.compile(rb"\d{1,10}")

_Span = tuple[bytes, int, int]
"""Where one object's dictionary text is: (buffer, start, end), so nothing is copied."""


def _too_large(what: str, limit: int) -> MediaTooLarge:
    return MediaTooLarge(
        f"this PDF has {what} {limit:,}; its pages are not counted",
        limit=limit,
        media_type="application/pdf",
    )


def _inflate(raw: bytes, limit: int) -> tuple[bytes | None, int]:
    """Inflate a FlateDecode stream to at most `limit` bytes.

    Returns the bytes (None when the stream is corrupt) and how many were inflated, which is
    charged to the budget either way: a stream whose checksum fails at the very end has cost
    all of its inflating first.

    Raises:
        MediaTooLarge: The stream inflates to more than `limit` bytes.
    """
    inflater = zlib.decompressobj()
    pieces: list[bytes] = []
    produced = 0
    pending = raw
    while True:
        step = min(_INFLATE_STEP, limit + 1 - produced)
        try:
            # max_length stops the inflater there: a 60 KB bomb never becomes 64 MB in memory.
            piece = inflater.decompress(pending, step)
        except zlib.error:  # the step that failed may have inflated up to `step` bytes first
            return None, produced + step
        produced += len(piece)
        if produced > limit:
            raise _too_large("an object stream that inflates to more bytes than", limit)
        pieces.append(piece)
        pending = inflater.unconsumed_tail
        # Done at the stream's end (bytes after it stay in the tail), or when all input is read
        # and zlib held nothing back.
        if inflater.eof or (not pending and len(piece) < step):
            return b"".join(pieces), produced


def _compressed(inflated: bytes, first: int, room: int) -> list[tuple[int, int]]:
    """Return the (start, end) in `inflated` of each object of an object stream.

    The header before `first` holds pairs "object-number offset", offsets counted from
    `first` (ISO 32000-1 §7.5.7). They should increase; a hostile header repeats or reorders
    them, so they are sorted and deduplicated, and no byte is read twice.

    Raises:
        MediaTooLarge: The header lists more than `room` objects.
    """
    offsets: set[int] = set()
    for i, number in enumerate(_NUMBER.finditer(inflated, 0, min(first, len(inflated)))):
        if i >= 2 * room:
            raise _too_large("more objects than", MAX_OBJECTS)
        if i % 2:
            offsets.add(first + int(number.group()))
    starts = sorted(start for start in offsets if start < len(inflated))
    return list(zip(starts, [*starts[1:], len(inflated)][: len(starts)], strict=True))


def _dictionaries(data: bytes) -> Iterator[_Span]:
    """Yield the dictionary text of every object, in file order, including object streams.

    Scans once and never looks back: a lazy `obj(.*?)endobj` regex would rescan to the end of
    the file for every object without an `endobj`.

    Raises:
        MediaTooLarge: A cap (objects, inflated bytes) is reached.
    """
    objects = 0
    inflated_room = MAX_INFLATED
    pos = 0
    while (header := PDF_OBJECT.search(data, pos)) is not None:
        body = header.end()
        end = data.find(b"endobj", body)
        if end < 0:
            return
        pos = end + len(b"endobj")
        stream = _STREAM.search(data, body, end)
        head_end = end if stream is None else stream.start()
        objects += 1
        if objects > MAX_OBJECTS:
            raise _too_large("more objects than", MAX_OBJECTS)
        yield data, body, head_end
        if (
            stream is None
            or data.find(b"/ObjStm", body, head_end) < 0
            or data.find(b"FlateDecode", body, head_end) < 0
        ):
            continue
        first = _FIRST.search(data, body, head_end)
        if first is None:  # no header offset: nothing in it could be read, so never inflate
            continue
        if inflated_room <= 0:  # a corrupt stream may have charged past the total; never
            # inflate with a limit of zero or less, which zlib reads as "no limit"
            raise _too_large("object streams whose total inflates to more bytes than", MAX_INFLATED)
        inflated, produced = _inflate(
            data[stream.end() : end], min(MAX_STREAM_INFLATED, inflated_room)
        )
        inflated_room -= produced
        if inflated is None:
            continue
        for start, stop in _compressed(inflated, int(first.group(1)), MAX_OBJECTS - objects):
            objects += 1
            yield inflated, start, stop


def pdf_page_count(data: bytes) -> int | None:
    """Count the pages of a PDF without a PDF library.

    Reads the `/Count` of the root `/Pages` node (the one without a `/Parent`; the last one
    when incremental updates wrote several), else the largest `/Count` of any `/Pages` node,
    else counts the `/Type /Page` objects. Compressed object streams (PDF 1.5+) are inflated.

    Args:
        data: The PDF's bytes.

    Returns:
        The page count, or None when no page tree is found.

    Raises:
        MediaTooLarge: The file holds more than `MAX_OBJECTS` objects, or its object streams
            inflate to more than `MAX_STREAM_INFLATED` bytes each or `MAX_INFLATED` in all.
    """
    root: int | None = None
    largest: int | None = None
    pages = 0
    for buffer, start, end in _dictionaries(data):
        if _PAGES.search(buffer, start, end):
            found = _COUNT.search(buffer, start, end)
            if found is not None:
                count = int(found.group(1))
                largest = count if largest is None else max(largest, count)
                if buffer.find(b"/Parent", start, end) < 0:
                    root = count
        elif _PAGE.search(buffer, start, end):
            pages += 1
    if root is not None:
        return root
    if largest is not None:
        return largest
    return pages or None
