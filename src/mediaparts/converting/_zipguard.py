"""Office packages (ZIP files of XML) checked before any library reads them.

A package is refused, with our errors, when it has too many entries, when its entries claim
to expand to more than its budget in all (`TransformPolicy.inflation_ratio` bytes per byte of
the file, at most `max_expanded_bytes`), when one entry expands more than any Office writer
compresses, when an entry is encrypted or compressed in a way OOXML never uses, or when an
XML part it reads declares a DOCTYPE (entity expansion, external entities: Office XML never
carries one, ECMA-376 part 2 §8.1.4 and part 1 §M.1.2).

Only the parts the library will open are inflated, found by following the package's
relationships (`_opc.Reading`); each is read through `zipfile`, whose reader stops at each
entry's declared size and checks its CRC, so headers that lie cannot make it expand further.
The libraries then get a new, uncompressed ZIP of exactly those parts, as checked, with the
relationships to the parts left out dropped (`verified_package`).
"""

from __future__ import annotations

import codecs
import io
import re
import zipfile
import zlib

from mediaparts._errors import InvalidMedia, MediaTooLarge, UnsupportedMediaType
from mediaparts.converting._extras import Deadline
from mediaparts.converting._opc import (
    ROOT,
    Reading,
    Relationship,
    relationships,
    rels_name,
    rels_xml,
)
from mediaparts.converting._policy import TransformPolicy

__all__ = [
    "ELEMENTS_FLOOR",
    "ELEMENTS_PER_BYTE",
    "EXPANSION_FLOOR",
    "MAX_ENTRIES",
    "MAX_RATIO",
    "RATIO_FLOOR",
    "check_xml",
    "expansion_budget",
    "verified_package",
]

# Word, Excel and PowerPoint files hold tens of entries; a deck of 1,000 slides with notes
# and pictures a few thousand. More is not an Office document anyone wrote.
MAX_ENTRIES = 10_000
# Deflate reaches about 1,000:1 on zeros; Office XML (repetitive markup) compresses 5-50:1,
# a run of empty paragraphs a few hundred to one. Every entry beyond the floor that claims
# more than this ratio is a bomb, read or not.
MAX_RATIO = 200
RATIO_FLOOR = 1 << 18
# The package as a whole: `TransformPolicy.inflation_ratio` bytes per byte of the file beyond
# this floor (real packages hold 2-25 times their size; see docs/security.md).
EXPANSION_FLOOR = 4 << 20
# The parts a library holds as whole trees (python-docx, python-pptx, openpyxl's workbook and
# styles), counted in tags (`<`, about two an element): lxml takes about 120 bytes an element
# and the readers up to 20 µs a paragraph, so a quarter of a tag per byte of the file keeps a
# 1 MB package near 2 s and 100 MB; the parts read of real documents have 0.02-0.15 (Word,
# PowerPoint), python-docx's own reports up to 0.4, within the floor up to 650 KB.
ELEMENTS_PER_BYTE = 0.25
ELEMENTS_FLOOR = 1 << 18
_CONTENT_TYPES = "[Content_Types].xml"
_ROOT_RELS = "_rels/.rels"
_CHUNK = 1 << 16
_DATE = (1980, 1, 1, 0, 0, 0)

_CENTRAL = b"PK\x01\x02"
# Start of a part as the XML spec's Appendix F tells encodings apart, before any declaration.
# Expat (which openpyxl uses) reads a part as UTF-16 when it starts with a byte order mark, or
# when its first or second byte is 0, declaration or not (xmltok.c, initScan); UTF-32 is
# tested first, since it starts the same way.
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_UTF32_STARTS = (b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00", b"\x00\x00\x00<", b"<\x00\x00\x00")
_DECLARED = re.compile(r"""\bencoding\s*=\s*["']([^"']*)""")
_PROLOG = 1024  # the most characters an XML declaration may take here
# ECMA-376 part 2 §8.1.4: parts are UTF-8 or UTF-16 (ASCII is a subset of UTF-8), and the
# declaration names the encoding the bytes are in.
_UTF8 = frozenset({"utf-8", "utf8", "us-ascii", "ascii"})
_UTF16 = frozenset({"utf-16", "utf-16le", "utf-16be", "utf16"})
# Case-blind by its classes (the regex review models no IGNORECASE): DOCTYPE or ENTITY.
_KEYWORDS = "(?:[Dd][Oo][Cc][Tt][Yy][Pp][Ee]|[Ee][Nn][Tt][Ii][Tt][Yy])"
_DOCTYPE = re.compile(r"<!\s*" + _KEYWORDS)
_DOCTYPE_BYTES = re.compile(rb"<!\s*" + _KEYWORDS.encode("ascii"))


def verified_package(
    data: bytes, media_type: str, policy: TransformPolicy, deadline: Deadline, reading: Reading
) -> bytes:
    """Check a package and return a stored ZIP of the checked parts a library will read.

    Only the parts `reading` follows from the package's relationships are inflated, each
    checked as it is read (DOCTYPE, encoding, the bytes and elements left in the budgets);
    the relationships to the other parts are dropped, so the library never asks for them.

    Args:
        data: The whole file.
        media_type: Its detected type, for messages.
        policy: `max_expanded_bytes` and `inflation_ratio` bound the entries' sizes.
        deadline: Checked between entries and between chunks of one entry.
        reading: The relationship types the library follows.

    Raises:
        InvalidMedia: Not a readable ZIP, a corrupt entry, two entries of one name, or an XML
            part with a DOCTYPE or in an encoding Office XML does not use.
        MediaTooLarge: Too many entries, more bytes in all than the package's budget
            (`inflation_ratio` times its size, at most `max_expanded_bytes`), an entry
            compressed beyond `MAX_RATIO`, the parts read holding more elements than
            `ELEMENTS_PER_BYTE` allows, or the deadline passed.
        UnsupportedMediaType: An encrypted entry, or a compression OOXML does not use.
    """
    # Each entry costs zipfile an object before any check of ours: count the central
    # directory's signatures first (an upper bound of what zipfile would list).
    if data.count(_CENTRAL) > MAX_ENTRIES:
        raise MediaTooLarge(
            f"this {media_type} has more than {MAX_ENTRIES:,} entries; Office files hold far "
            "fewer, so it is refused unread",
            limit=MAX_ENTRIES,
            media_type=media_type,
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise InvalidMedia(
            f"this {media_type} is not a readable ZIP package ({_reason(exc)})",
            media_type=media_type,
        ) from exc
    with archive:
        entries = archive.infolist()
        _check_listing(entries, len(data), media_type, policy)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as package:
            _Walk(archive, package, len(data), media_type, deadline, reading).run()
    return out.getvalue()


def expansion_budget(size: int, policy: TransformPolicy) -> int:
    """Return the most bytes a package of `size` bytes may hold in all."""
    return min(policy.max_expanded_bytes, int(policy.inflation_ratio * size) + EXPANSION_FLOOR)


class _Walk:
    """Copies the parts a library reads, from the package's relationships down."""

    def __init__(
        self,
        archive: zipfile.ZipFile,
        package: zipfile.ZipFile,
        size: int,
        media_type: str,
        deadline: Deadline,
        reading: Reading,
    ) -> None:
        self.archive, self.package = archive, package
        self.media_type, self.deadline, self.reading = media_type, deadline, reading
        self.entries = {entry.filename: entry for entry in archive.infolist()}
        self.elements = int(ELEMENTS_PER_BYTE * size) + ELEMENTS_FLOOR
        self.copied: set[str] = set()

    def run(self) -> None:
        """Copy the content types, then each part reached, with its relationships."""
        self._copy(_CONTENT_TYPES, streamed=False)
        queue = [ROOT]
        while queue:
            source = queue.pop()
            name = _ROOT_RELS if source == ROOT else rels_name(source)
            member = self._read(name, streamed=False)
            if member is None:
                continue
            kept: list[Relationship] = []
            targets: set[str] = set()
            for rel in relationships(member, source, name, self.media_type):
                if rel.external or rel.kind not in self.reading.follows:
                    continue  # never opened: an external link, or a part not read
                if rel.part in targets:
                    # Read again for each relationship (slides, sheets): one part of a few
                    # KB would become thousands. No Office writer names a part twice.
                    raise InvalidMedia(
                        f"the part {name!r} of this {self.media_type} relates its source to "
                        f"{rel.part!r} more than once; refused",
                        media_type=self.media_type,
                    )
                targets.add(rel.part)
                kept.append(rel)
                if rel.part not in self.copied and rel.part in self.entries:
                    self._copy(rel.part, streamed=rel.kind in self.reading.streamed)
                    queue.append(rel.part)
            self._write(name, rels_xml(kept))

    def _copy(self, name: str, *, streamed: bool) -> None:
        member = self._read(name, streamed=streamed)
        if member is not None:
            self._write(name, member)

    def _read(self, name: str, *, streamed: bool) -> bytes | None:
        entry = self.entries.get(name)
        if entry is None or name in self.copied:
            return None
        self.copied.add(name)
        self.deadline.check()
        member = _read_entry(self.archive, entry, self.media_type, self.deadline)
        check_xml(member, name, self.media_type)
        if not streamed:
            # A library holds such a part as a tree of about 120 bytes an element (lxml):
            # count its tags (a memchr over the bytes) before any parser sees it.
            self.elements -= member.count(b"<")
            if self.elements < 0:
                raise MediaTooLarge(
                    f"the parts of this {self.media_type} a reader opens hold more XML tags "
                    f"than {ELEMENTS_PER_BYTE} per byte of the file (beyond "
                    f"{ELEMENTS_FLOOR:,}); refused before any parser read them",
                    media_type=self.media_type,
                )
        return member

    def _write(self, name: str, member: bytes) -> None:
        # A fresh record: none of the input's extra fields, flags or odd dates.
        self.package.writestr(zipfile.ZipInfo(name, _DATE), member)


def check_xml(member: bytes, name: str, media_type: str) -> None:
    """Refuse an XML part that declares a DOCTYPE or ENTITY, or uses another encoding.

    A part that does not start like XML (a picture, an embedded file) is not checked: no
    XML parser reads it successfully.

    Raises:
        InvalidMedia: The part declares a DOCTYPE or an entity, or is in an encoding other
            than UTF-8 or UTF-16.
    """
    start = member[:4]
    if start.startswith(_UTF32_STARTS) or start == b"\x4c\x6f\xa7\x94":  # UTF-32, EBCDIC
        raise _bad_encoding(name, "UTF-32 or EBCDIC", media_type)
    if start.startswith(_UTF16_BOMS) or b"\x00" in start[:2]:
        text = _utf16(member)
        prolog, allowed = text[:_PROLOG].lstrip("\ufeff \t\r\n"), _UTF16
    else:
        text = None
        head = member[:_PROLOG].removeprefix(b"\xef\xbb\xbf").decode("latin-1")
        prolog, allowed = head.lstrip(" \t\r\n"), _UTF8
    if not prolog.startswith("<"):
        return
    _check_declaration(prolog, allowed, name, media_type)
    if text is not None:
        found = _DOCTYPE.search(text) is not None
    else:
        found = _DOCTYPE_BYTES.search(member) is not None
    if found:
        raise InvalidMedia(
            f"the part {name!r} of this {media_type} declares a DOCTYPE or an entity, which "
            "Office files never do; refused before any parser read it (entity expansion, "
            "external references)",
            media_type=media_type,
        )


def _check_declaration(prolog: str, allowed: frozenset[str], name: str, media_type: str) -> None:
    """Refuse an XML declaration that names an encoding other than the bytes are in.

    A parser that honoured `encoding="UTF-7"` would read `+ADw-!DOCTYPE` as a DOCTYPE the
    byte search cannot see; the whole declaration is read, however long it is drawn out.
    """
    if not prolog.startswith("<?xml"):
        return
    end = prolog.find("?>")
    if end < 0:
        raise InvalidMedia(
            f"the part {name!r} of this {media_type} has an XML declaration longer than "
            f"{_PROLOG:,} characters",
            media_type=media_type,
        )
    declared = _DECLARED.search(prolog[:end])
    if declared and declared.group(1).lower() not in allowed:
        raise _bad_encoding(name, declared.group(1), media_type)


def _check_listing(
    entries: list[zipfile.ZipInfo], size: int, media_type: str, policy: TransformPolicy
) -> None:
    """Refuse a package from its central directory alone: counts, sizes, ratios, names."""
    if len(entries) > MAX_ENTRIES:  # pragma: no cover - the signature count caught it
        raise MediaTooLarge(
            f"this {media_type} has {len(entries):,} entries, over {MAX_ENTRIES:,}",
            size=len(entries),
            limit=MAX_ENTRIES,
            media_type=media_type,
        )
    declared = sum(entry.file_size for entry in entries)
    budget = expansion_budget(size, policy)
    if declared > budget:
        raise MediaTooLarge(
            f"this {media_type} of {size:,} bytes expands to {declared:,}, over its budget of "
            f"{budget:,} (TransformPolicy.inflation_ratio={policy.inflation_ratio:g} bytes per "
            f"byte beyond {EXPANSION_FLOOR:,}, at most TransformPolicy.max_expanded_bytes="
            f"{policy.max_expanded_bytes:,}); refused unread",
            size=declared,
            limit=budget,
            media_type=media_type,
        )
    names: set[str] = set()
    for entry in entries:
        if entry.flag_bits & 0x1:
            raise UnsupportedMediaType(
                f"this {media_type} is encrypted (entry {entry.filename!r}); it cannot be "
                "read without its password",
                media_type=media_type,
            )
        if entry.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise UnsupportedMediaType(
                f"the entry {entry.filename!r} of this {media_type} uses ZIP compression "
                f"method {entry.compress_type}; Office files use only stored and deflated",
                media_type=media_type,
            )
        if entry.file_size > MAX_RATIO * entry.compress_size + RATIO_FLOOR:
            raise MediaTooLarge(
                f"the entry {entry.filename!r} of this {media_type} claims to expand "
                f"{entry.compress_size:,} bytes to {entry.file_size:,}, more than {MAX_RATIO}:1 "
                f"beyond {RATIO_FLOOR:,}; a ZIP bomb, refused unread",
                size=entry.file_size,
                media_type=media_type,
            )
        # Part names are unique ignoring case (ECMA-376 part 2 §9.1.1.1); two entries of one
        # name would let a library read another entry than the one checked.
        folded = entry.filename.casefold()
        if folded in names:
            raise InvalidMedia(
                f"this {media_type} has two entries named {entry.filename!r}",
                media_type=media_type,
            )
        names.add(folded)


def _read_entry(
    archive: zipfile.ZipFile, entry: zipfile.ZipInfo, media_type: str, deadline: Deadline
) -> bytes:
    """Read one entry in chunks: zipfile stops at its declared size and checks its CRC."""
    chunks: list[bytes] = []
    try:
        with archive.open(entry) as stream:
            while chunk := stream.read(_CHUNK):
                chunks.append(chunk)
                deadline.check()
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
        raise InvalidMedia(
            f"the entry {entry.filename!r} of this {media_type} is corrupt ({_reason(exc)})",
            media_type=media_type,
        ) from exc
    member = b"".join(chunks)
    if len(member) != entry.file_size:
        raise InvalidMedia(
            f"the entry {entry.filename!r} of this {media_type} holds {len(member):,} bytes, "
            f"not the {entry.file_size:,} its header declares",
            media_type=media_type,
        )
    return member


def _utf16(member: bytes) -> str:
    """Decode a part as UTF-16 the way expat would; what does not decode is U+FFFD (a part
    that is no text, such as an EMF picture starting `01 00`, then does not start with `<`)."""
    big = member.startswith(b"\xfe\xff") or member[:1] == b"\x00"
    return codecs.decode(member, "utf-16-be" if big else "utf-16-le", errors="replace")


def _bad_encoding(name: str, encoding: str, media_type: str) -> InvalidMedia:
    return InvalidMedia(
        f"the part {name!r} of this {media_type} is in {encoding}; Office XML is UTF-8 or "
        "UTF-16 (ECMA-376 part 2 §8.1.4)",
        media_type=media_type,
    )


def _reason(exc: BaseException) -> str:
    return (str(exc) or type(exc).__name__)[:120]
