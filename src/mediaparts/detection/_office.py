"""Document containers: ZIP (OOXML, OpenDocument, EPUB, JAR, APK) and OLE2 (legacy Office).

A ZIP file says what it is through its members, checked most specific first:

1. a `mimetype` member (OpenDocument, EPUB; normally stored uncompressed as the first entry,
   OpenDocument v1.3 part 2 §3.3 and EPUB OCF 3.3 §4.2.2) holds the media type itself;
2. `[Content_Types].xml` (ECMA-376 part 2, Open Packaging Conventions) names the main part's
   content type, which tells DOCX from DOTX or DOCM;
3. otherwise member names (`word/`, `xl/`, `ppt/`, `META-INF/container.xml`, ...) decide.

Member names come from the central directory at the end of the file (APPNOTE.TXT §4.3.12),
because writers need not put the telling members first and local headers may not carry sizes;
when the end is out of reach (a stream), the local headers in the prefix are used instead.
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Iterable, Iterator

from mediaparts.detection._verdict import Hit
from mediaparts.formats import ByteWindow

__all__ = ["ole2", "zip_family"]

_LOCAL = b"PK\x03\x04"
_CENTRAL = b"PK\x01\x02"
_END = b"PK\x05\x06"
_END64_LOCATOR = b"PK\x06\x07"
_MAX_ENTRIES = 4096
_MAX_MEMBER_READ = 16384

_OOXML = "application/vnd.openxmlformats-officedocument."
# Main part content type in [Content_Types].xml -> document type (ECMA-376 part 1 §11-13).
_MAIN_PARTS = {
    _OOXML + "wordprocessingml.document": _OOXML + "wordprocessingml.document",
    _OOXML + "wordprocessingml.template": _OOXML + "wordprocessingml.template",
    "application/vnd.ms-word.document.macroenabled": (
        "application/vnd.ms-word.document.macroenabled.12"
    ),
    _OOXML + "spreadsheetml.sheet": _OOXML + "spreadsheetml.sheet",
    _OOXML + "spreadsheetml.template": _OOXML + "spreadsheetml.template",
    "application/vnd.ms-excel.sheet.macroenabled": "application/vnd.ms-excel.sheet.macroenabled.12",
    _OOXML + "presentationml.presentation": _OOXML + "presentationml.presentation",
    _OOXML + "presentationml.slideshow": _OOXML + "presentationml.slideshow",
    _OOXML + "presentationml.template": _OOXML + "presentationml.template",
    "application/vnd.ms-powerpoint.presentation.macroenabled": (
        "application/vnd.ms-powerpoint.presentation.macroenabled.12"
    ),
}
_CONTENT_TYPE = re.compile(rb'ContentType="([^"]*)"')
_MAIN_SUFFIX = b".main+xml"

# Member-name prefixes of OOXML packages when [Content_Types].xml cannot be read.
_OOXML_FOLDERS = (
    ("word/", _OOXML + "wordprocessingml.document"),
    ("xl/", _OOXML + "spreadsheetml.sheet"),
    ("ppt/", _OOXML + "presentationml.presentation"),
    ("visio/", "application/vnd.ms-visio.drawing"),
)


class _Entry:
    """A ZIP member as far as detection needs it."""

    __slots__ = ("compressed_size", "name", "offset")

    def __init__(self, name: str, offset: int, compressed_size: int) -> None:
        self.name = name
        self.offset = offset
        self.compressed_size = compressed_size


def _u16(data: bytes, pos: int) -> int:
    return int.from_bytes(data[pos : pos + 2], "little")


def _u32(data: bytes, pos: int) -> int:
    return int.from_bytes(data[pos : pos + 4], "little")


def _deflated_size(head: bytes, start: int) -> int | None:
    """Return how many bytes the deflate stream at `start` takes, if it ends in `head`."""
    inflater = zlib.decompressobj(-15)
    pending = head[start:]
    try:
        while True:
            inflater.decompress(pending, 65536)  # output is dropped; only the end matters
            if inflater.eof:
                return len(head) - start - len(inflater.unused_data)
            pending = inflater.unconsumed_tail
            if not pending:
                return None  # the member goes on past the prefix
    except zlib.error:
        return None


def _local_entries(
    head: bytes, *, inflate: bool = False, limit: int = _MAX_ENTRIES
) -> list[_Entry]:
    """List the members whose local headers lie in the prefix (at most `limit` of them).

    A member written to a stream has its sizes in a data descriptor after its data
    (APPNOTE.TXT §4.3.9); with `inflate`, a deflated one is decompressed to find where it
    ends, otherwise the listing stops there.
    """
    entries: list[_Entry] = []
    pos = 0
    while len(entries) < limit and head.startswith(_LOCAL, pos) and pos + 30 <= len(head):
        flags, method, size = _u16(head, pos + 6), _u16(head, pos + 8), _u32(head, pos + 18)
        name_end = pos + 30 + _u16(head, pos + 26)
        name = head[pos + 30 : name_end].decode("utf-8", "replace")
        data_start = name_end + _u16(head, pos + 28)
        entries.append(_Entry(name, pos, size))
        if flags & 0x08 and size == 0:
            deflated = _deflated_size(head, data_start) if inflate and method == 8 else None
            if deflated is None:
                break
            pos = data_start + deflated
            # The descriptor: an optional signature, CRC-32, then two sizes (4 or 8 bytes).
            pos += 4 if head.startswith(b"PK\x07\x08", pos) else 0
            pos += 12 if head.startswith(_LOCAL, pos + 12) or pos + 12 >= len(head) else 20
        else:
            pos = data_start + size
    return entries


def _central_entries(probe: ByteWindow) -> Iterator[_Entry] | None:
    """Read the central directory's members in order, or None when it cannot be read.

    The members are read as they are asked for: the telling one is usually first
    (`[Content_Types].xml`, `mimetype`), and a presentation's directory lists hundreds.
    """
    size = probe.size
    if size is None or size < 22:
        return None
    end = -1
    for tail_size in (1024, 65557):  # the end record, then a trailing comment up to 64 KiB
        start = max(0, size - tail_size)
        tail = probe.at(start, size - start)
        end = tail.rfind(_END)
        if end >= 0 or start == 0:
            break
    if end < 0 or end + 22 > len(tail):
        return None
    count, directory_size, directory_offset = (
        _u16(tail, end + 10),
        _u32(tail, end + 12),
        _u32(tail, end + 16),
    )
    if 0xFFFFFFFF in (directory_size, directory_offset) and end >= 20:
        locator = tail[end - 20 : end]  # ZIP64 (APPNOTE.TXT §4.3.15)
        if locator.startswith(_END64_LOCATOR):
            record = probe.at(int.from_bytes(locator[8:16], "little"), 56)
            count = int.from_bytes(record[32:40], "little")
            directory_size = int.from_bytes(record[40:48], "little")
            directory_offset = int.from_bytes(record[48:56], "little")
    directory = probe.at(directory_offset, directory_size)
    if not directory.startswith(_CENTRAL):
        return None
    return _central_listing(directory, min(count, _MAX_ENTRIES))


# A central directory header's fields detection reads (APPNOTE.TXT §4.3.12): compressed
# size at 20; name, extra field and comment lengths at 28, 30, 32; local header offset at 42.
_CENTRAL_HEADER = struct.Struct("<20xI4xHHH8xI")


def _central_listing(directory: bytes, count: int) -> Iterator[_Entry]:
    pos = 0
    for _ in range(count):
        if not directory.startswith(_CENTRAL, pos) or pos + 46 > len(directory):
            return
        size, name_length, extra_length, comment_length, offset = _CENTRAL_HEADER.unpack_from(
            directory, pos
        )
        name_end = pos + 46 + name_length
        if name_end > len(directory):
            return
        yield _Entry(directory[pos + 46 : name_end].decode("utf-8", "replace"), offset, size)
        pos = name_end + extra_length + comment_length


def _member(probe: ByteWindow, entry: _Entry) -> bytes:
    """Return the start of a member's uncompressed data (stored or deflated), or b""."""
    header = probe.at(entry.offset, 30)
    if not header.startswith(_LOCAL):
        return b""
    method = _u16(header, 8)
    data_start = entry.offset + 30 + _u16(header, 26) + _u16(header, 28)
    # With a data descriptor the local size may be zero; deflate ends itself anyway.
    raw = probe.at(data_start, min(entry.compressed_size or _MAX_MEMBER_READ, _MAX_MEMBER_READ))
    if method == 0:
        return raw
    if method == 8:
        try:
            return zlib.decompressobj(-15).decompress(raw, _MAX_MEMBER_READ)
        except zlib.error:
            return b""
    return b""


def _from_members(probe: ByteWindow, entries: Iterable[_Entry], names: set[str]) -> str | None:
    """Decide the type from the `mimetype` and `[Content_Types].xml` members' contents.

    Reads `entries` only as far as the deciding member; adds the name of each read to `names`.
    """
    for entry in entries:
        names.add(entry.name)
        if entry.name == "mimetype":
            declared = _member(probe, entry)[:128].strip().decode("ascii", "replace").lower()
            if declared.startswith("application/") and " " not in declared:
                return declared
        elif entry.name == "[Content_Types].xml":
            # The first content type naming a main part (`...document.main+xml`) decides.
            for match in _CONTENT_TYPE.finditer(_member(probe, entry)):
                value = match.group(1)
                if len(value) > len(_MAIN_SUFFIX) and value.endswith(_MAIN_SUFFIX):
                    main = value[: -len(_MAIN_SUFFIX)].decode("ascii", "replace").lower()
                    found = _MAIN_PARTS.get(main)
                    if found:
                        return found
                    break
    return None


def _from_names(names: set[str]) -> str | None:
    """Decide the type from member names alone."""
    if "AndroidManifest.xml" in names and "classes.dex" in names:
        return "application/vnd.android.package-archive"
    for folder, media_type in _OOXML_FOLDERS:
        if any(name.startswith(folder) for name in names):
            if f"{folder}vbaProject.bin" in names and folder != "visio/":
                return {
                    "word/": "application/vnd.ms-word.document.macroenabled.12",
                    "xl/": "application/vnd.ms-excel.sheet.macroenabled.12",
                    "ppt/": "application/vnd.ms-powerpoint.presentation.macroenabled.12",
                }[folder]
            return media_type
    if "3D/3dmodel.model" in names:
        return "model/3mf"
    if "META-INF/container.xml" in names:
        return "application/epub+zip"
    if "META-INF/MANIFEST.MF" in names:
        return "application/java-archive"
    return None


def zip_family(probe: ByteWindow) -> Hit:
    """Identify a ZIP file: an office document, e-book or Java/Android archive, or plain ZIP."""
    local = _local_entries(probe.head, limit=1)
    # Fast path: an uncompressed `mimetype` first member (OpenDocument, EPUB).
    if local and local[0].name == "mimetype":
        found = _from_members(probe, local, set())
        if found:
            return Hit(found)
    central = _central_entries(probe)
    entries = iter(central if central is not None else _local_entries(probe.head, inflate=True))
    names: set[str] = set()
    found = _from_members(probe, entries, names)
    if not found:
        names.update(entry.name for entry in entries)  # the members not read yet
        found = _from_names(names)
    if found:
        return Hit(found)
    # Only a complete directory can say "just a ZIP"; otherwise a file name may know better.
    return Hit("application/zip", generic=central is None)


# --- OLE2 compound files ([MS-CFB]) -----------------------------------------------------------

# Stream names at the root of each application's files ([MS-DOC], [MS-XLS], [MS-PPT], [MS-OXMSG]).
_OLE_STREAMS = (
    ("WordDocument", "application/msword"),
    ("Workbook", "application/vnd.ms-excel"),
    ("Book", "application/vnd.ms-excel"),
    ("PowerPoint Document", "application/vnd.ms-powerpoint"),
    ("__properties_version1.0", "application/vnd.ms-outlook"),
    ("VisioDocument", "application/vnd.visio"),
)
_FREE_SECTOR = 0xFFFFFFFA  # any value above this ends a chain ([MS-CFB] §2.1)


def ole2(probe: ByteWindow) -> Hit:
    """Identify a legacy Office file by the stream names in its compound-file directory."""
    head = probe.head
    shift = _u16(head, 30)
    if shift not in (9, 12):
        return Hit("application/x-ole-storage", generic=True)
    sector_size = 1 << shift
    per_fat_sector = sector_size // 4
    fat_sectors = [_u32(head, 76 + 4 * i) for i in range(109)]  # the header's DIFAT
    names = set()
    sector = _u32(head, 48)  # first directory sector
    for _ in range(16):
        if sector >= _FREE_SECTOR:
            break
        directory = probe.at((sector + 1) * sector_size, sector_size)
        for pos in range(0, len(directory) - 127, 128):
            length = _u16(directory, pos + 64)
            if 2 <= length <= 64:
                names.add(directory[pos : pos + length - 2].decode("utf-16-le", "replace"))
        for name, media_type in _OLE_STREAMS:
            if name in names:
                return Hit(media_type)
        index = sector // per_fat_sector
        if index >= len(fat_sectors) or fat_sectors[index] >= _FREE_SECTOR:
            break
        entry = probe.at((fat_sectors[index] + 1) * sector_size + (sector % per_fat_sector) * 4, 4)
        if len(entry) < 4:
            break
        sector = _u32(entry, 0)
    return Hit("application/x-ole-storage", generic=True)
