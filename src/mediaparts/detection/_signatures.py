"""The magic-byte table: fixed bytes at fixed offsets, grouped by kind, first match wins.

Each row names the media type its bytes mean. A row may also carry a `check` (the fixed bytes
are too short to trust alone, so the header around them must be plausible) or a `parse` (the
bytes only name a container family; a parser reads enough of it to say which member it is, and
may answer with a type of another kind: an `ftyp` box opens MP4 video, M4A audio and HEIC
images alike). Collisions that the rows and parsers settle, each with a test in both directions:
RIFF (WAV / WebP / AVI), `ftyp` (MP4 / MOV / HEIC / AVIF / M4A / 3GP), EBML (WebM / Matroska,
audio-only or not), ID3 in front of MP3 / AAC / FLAC, ZIP (DOCX / XLSX / PPTX / ODF / EPUB /
ZIP), and text that merely starts like `GIF8` or `BM`.

Formats the table leaves out (archives, fonts, executables, databases) are left to the
`filetype` package, which `_detect` asks next. A format registered at run time brings its own
`magic` on its record, tried after this table (see `match_signatures`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mediaparts.detection import _audio, _brands, _containers, _office
from mediaparts.detection._sniff import decode_text
from mediaparts.detection._verdict import Hit
from mediaparts.formats import PDF_OBJECT, ByteWindow, magic

__all__ = ["OWNED_TYPES", "SIGNATURES", "Signature", "match_signatures"]


@dataclass(frozen=True, slots=True)
class Signature:
    """One row of the table.

    Attributes:
        media_type: What the bytes mean (for a `parse` row: the family's usual answer).
        pattern: (offset, bytes) pieces that must all be present; gaps between them are
            wildcards.
        check: Tells whether the rest of the header is plausible, for short signatures.
        parse: Decides the exact type of a container family, or None when it is not one.
    """

    media_type: str
    pattern: tuple[tuple[int, bytes], ...]
    check: Callable[[ByteWindow], bool] | None = None
    parse: Callable[[ByteWindow], Hit | None] | None = None

    def match(self, probe: ByteWindow) -> Hit | None:
        """Return what these bytes are if the row matches, else None."""
        head = probe.head
        for offset, piece in self.pattern:
            if not head.startswith(piece, offset):
                return None
        if self.parse is not None:
            return self.parse(probe)
        if self.check is not None and not self.check(probe):
            return None
        return Hit(self.media_type)


def _sig(
    media_type: str,
    *pattern: tuple[int, bytes],
    check: Callable[[ByteWindow], bool] | None = None,
    parse: Callable[[ByteWindow], Hit | None] | None = None,
) -> Signature:
    return Signature(media_type, pattern, check, parse)


# --- header checks for short signatures ------------------------------------------------------

_BMP_INFO_SIZES = frozenset({12, 16, 40, 52, 56, 64, 108, 124})  # BITMAP*HEADER variants


def _bmp(probe: ByteWindow) -> bool:
    """A BMP file header is followed by a DIB header of a known size (so "BMW rules" is text)."""
    head = probe.head
    if len(head) < 18:
        return False
    info_size = int.from_bytes(head[14:18], "little")
    pixels_at = int.from_bytes(head[10:14], "little")
    return info_size in _BMP_INFO_SIZES and 14 + info_size <= pixels_at < 1 << 28


def _gif(probe: ByteWindow) -> bool:
    """After the screen descriptor (and global colour table) comes a block introducer.

    GIF89a spec: every block starts 0x21 (extension), 0x2C (image) or 0x3B (trailer), so
    "GIF89a is a format name" is text. A file cut off before that byte is given the benefit.
    """
    head = probe.head
    if len(head) < 13:
        return len(head) == 6 or (len(head) >= 10 and head[6:10] != b"    ")
    flags = head[10]
    at = 13 + (3 << ((flags & 0x07) + 1) if flags & 0x80 else 0)
    return at >= len(head) or head[at] in (0x21, 0x2C, 0x3B)


def _icon(probe: ByteWindow) -> bool:
    """An ICO/CUR directory has 1+ entries whose first points past the directory."""
    head = probe.head
    count = int.from_bytes(head[4:6], "little")
    if count == 0 or len(head) < 22:
        return False
    entry = head[6:22]
    offset = int.from_bytes(entry[12:16], "little")
    return entry[3] == 0 and offset >= 6 + 16 * count


def _psd(probe: ByteWindow) -> bool:
    """Photoshop: version 1 (PSD) or 2 (PSB), then six reserved zero bytes."""
    return probe.head[4:6] in (b"\x00\x01", b"\x00\x02") and probe.head[6:12] == bytes(6)


def _midi(probe: ByteWindow) -> bool:
    """A Standard MIDI File header chunk is six bytes long."""
    return probe.head[4:8] == b"\x00\x00\x00\x06"


def _sun_audio(probe: ByteWindow) -> bool:
    """Sun/NeXT audio: a data offset of at least 24 and a known encoding (1..27)."""
    head = probe.head
    offset = int.from_bytes(head[4:8], "big")
    encoding = int.from_bytes(head[12:16], "big")
    return len(head) >= 24 and offset >= 24 and 1 <= encoding <= 27


def _flac(probe: ByteWindow) -> bool:
    """The first metadata block is STREAMINFO, 34 bytes long (RFC 9639 §8.1 and §8.2).

    So "fLaC is the FLAC magic" is text. A file cut off within the block header passes.
    """
    block = probe.head[4:8]
    return len(block) < 4 or (block[0] & 0x7F == 0 and block[1:] == b"\x00\x00\x22")


def _binary(probe: ByteWindow) -> bool:
    """The rest is not text: for a plain-ASCII marker with no header fields to check (ADIF)."""
    return decode_text(probe.head) is None


def _pdf(probe: ByteWindow) -> bool:
    """`%PDF-` opens a PDF when its line holds only the version, or an object follows.

    Writers put the version alone on the header line (some add a comment of high bytes), so
    "%PDF-1.4 is the header of a PDF file" is prose about PDF, and stays text. A version cut
    short (`%PDF-1.` in a hand-made minimal file) still counts.
    """
    head = probe.head
    line = (head[5:133].splitlines() or [b""])[0]
    if len(line.split()) <= 1 or max(line, default=0) >= 0x80:
        return True
    return PDF_OBJECT.search(head) is not None


def _id3(probe: ByteWindow) -> Hit | None:
    """Whatever follows the ID3v2 tag(s): MP3, AAC or FLAC."""
    found = _audio.after_id3(probe)
    return Hit(found) if found else None


def _adts(probe: ByteWindow) -> bool:
    """A legal ADTS header, and the next one where the frame length says."""
    return _audio.adts_at(probe.head, 0)


def _mpeg_audio(probe: ByteWindow) -> bool:
    """A legal MPEG audio frame header, and the next one where the frame length says."""
    return _audio.mpeg_audio_at(probe.head, 0)


def _pdf_after_junk(probe: ByteWindow) -> bool:
    """Find `%PDF-` after leading junk, as readers do, but only in a plausible PDF.

    Readers accept the header anywhere in the first 1024 bytes (PDF Reference 1.7, Appendix H,
    implementation note 13); a version and an object must follow, so prose mentioning the
    header stays text.
    """
    head = probe.head
    start = head.find(b"%PDF-", 0, 1024)
    version = head[start + 5 : start + 8]
    return (
        start > 0
        and len(version) == 3
        and version[0:1].isdigit()
        and version[1:2] == b"."
        and head.find(b" obj", start) > 0
    )


# --- the table --------------------------------------------------------------------------------

IMAGE_SIGNATURES = (
    _sig("image/jpeg", (0, b"\xff\xd8\xff")),
    _sig("image/png", (0, b"\x89PNG\r\n\x1a\n")),
    _sig("image/gif", (0, b"GIF87a"), check=_gif),
    _sig("image/gif", (0, b"GIF89a"), check=_gif),
    _sig("image/webp", (0, b"RIFF"), (8, b"WEBP")),
    _sig("image/x-canon-cr2", (0, b"II*\x00"), (8, b"CR")),
    _sig("image/tiff", (0, b"II*\x00")),
    _sig("image/tiff", (0, b"MM\x00*")),
    _sig("image/tiff", (0, b"II+\x00")),  # BigTIFF
    _sig("image/tiff", (0, b"MM\x00+")),
    _sig("image/bmp", (0, b"BM"), check=_bmp),
    _sig("image/vnd.microsoft.icon", (0, b"\x00\x00\x01\x00"), check=_icon),
    _sig("image/x-win-bitmap", (0, b"\x00\x00\x02\x00"), check=_icon),
    _sig("image/vnd.adobe.photoshop", (0, b"8BPS"), check=_psd),
    _sig("image/jxl", (0, b"\xff\x0a")),  # JPEG XL codestream (ISO/IEC 18181-1)
    _sig("image/jxl", (0, b"\x00\x00\x00\x0cJXL \r\n\x87\n")),  # JPEG XL container
    _sig("image/jp2", (0, b"\x00\x00\x00\x0cjP  \r\n\x87\n")),  # JPEG 2000 (ISO/IEC 15444-1)
    _sig("image/jxr", (0, b"II\xbc\x01")),
    _sig("image/vnd.djvu", (0, b"AT&TFORM"), (12, b"DJV")),
)

AUDIO_SIGNATURES = (
    _sig("audio/mpeg", (0, b"ID3"), parse=_id3),
    _sig("audio/flac", (0, b"fLaC"), check=_flac),
    _sig("audio/wav", (0, b"RIFF"), (8, b"WAVE")),
    _sig("audio/wav", (0, b"RIFX"), (8, b"WAVE")),
    _sig("audio/wav", (0, b"RF64"), (8, b"WAVE")),  # EBU Tech 3306
    _sig("audio/wav", (0, b"BW64"), (8, b"WAVE")),  # ITU-R BS.2088
    _sig("audio/midi", (0, b"RIFF"), (8, b"RMID")),
    _sig("audio/midi", (0, b"MThd"), check=_midi),
    _sig("audio/aiff", (0, b"FORM"), (8, b"AIFF")),
    _sig("audio/aiff", (0, b"FORM"), (8, b"AIFC")),
    # RFC 4867 §5: the magic is a whole line, so "#!AMR is a codec" is text.
    _sig("audio/amr", (0, b"#!AMR\n")),
    _sig("audio/amr", (0, b"#!AMR_MC1.0\n")),
    _sig("audio/amr-wb", (0, b"#!AMR-WB\n")),
    _sig("audio/amr-wb", (0, b"#!AMR-WB_MC1.0\n")),
    _sig("audio/basic", (0, b".snd"), check=_sun_audio),
    _sig("audio/x-caf", (0, b"caff\x00\x01")),
    _sig("audio/aac", (0, b"ADIF"), check=_binary),
    _sig("audio/aac", (0, b"\xff"), check=_adts),
    _sig("audio/mpeg", (0, b"\xff"), check=_mpeg_audio),
)

VIDEO_SIGNATURES = (
    _sig("video/x-msvideo", (0, b"RIFF"), (8, b"AVI ")),
    _sig("video/x-flv", (0, b"FLV\x01")),
    _sig("video/mpeg", (0, b"\x00\x00\x01\xba")),  # MPEG program stream pack header
    _sig("video/mpeg", (0, b"\x00\x00\x01\xb3")),  # MPEG-1/2 video sequence header
)

# Rows whose parser decides the kind too.
CONTAINER_SIGNATURES = (
    _sig("video/mp4", (4, b"ftyp"), parse=_brands.ftyp),
    *(
        _sig("video/quicktime", (4, atom), parse=_brands.quicktime_atoms)
        for atom in (b"moov", b"mdat", b"wide", b"free", b"skip", b"pnot")
    ),
    _sig("video/webm", (0, b"\x1a\x45\xdf\xa3"), parse=_containers.ebml),
    _sig("audio/ogg", (0, b"OggS"), parse=_containers.ogg),
    _sig(
        "video/x-ms-wmv",
        (0, b"\x30\x26\xb2\x75\x8e\x66\xcf\x11\xa6\xd9\x00\xaa\x00\x62\xce\x6c"),
        parse=_containers.asf,
    ),
    _sig("video/mp2t", (0, b"\x47"), parse=_containers.mpeg_ts),
    _sig("video/mp2t", (4, b"\x47"), parse=_containers.mpeg_ts),
    _sig("application/zip", (0, b"PK\x03\x04"), parse=_office.zip_family),
    _sig("application/msword", (0, b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), parse=_office.ole2),
)

DOCUMENT_SIGNATURES = (
    _sig("application/pdf", (0, b"%PDF-"), check=_pdf),
    _sig("application/postscript", (0, b"%!PS")),
    _sig("application/postscript", (0, b"\x04%!PS")),  # a printer driver's leading Ctrl-D
    _sig("application/postscript", (0, b"\xc5\xd0\xd3\xc6")),  # DOS EPS binary header
    _sig("application/rtf", (0, b"{\\rtf")),
    _sig("application/zip", (0, b"PK\x05\x06")),  # an empty archive: only the end record
    _sig("application/zip", (0, b"PK\x07\x08")),  # a split archive's first part
    _sig("application/pdf", check=_pdf_after_junk),
)

SIGNATURES: tuple[Signature, ...] = (
    IMAGE_SIGNATURES
    + AUDIO_SIGNATURES
    + VIDEO_SIGNATURES
    + CONTAINER_SIGNATURES
    + DOCUMENT_SIGNATURES
)


# The table indexed by its rows' leading bytes: a row can match only where the first byte of
# its first piece is present, so each file tries the few rows its bytes can match (usually
# one to three, against the whole table), in table order. `_ANCHORS` are the offsets of those
# first pieces; a file's key is its byte at each, or -1 where no row's first piece starts with
# it (or the file ends before). A row with no pattern matches every key.
_ANCHORS = tuple(sorted({row.pattern[0][0] for row in SIGNATURES if row.pattern}))
_FIRST_BYTES = tuple(
    frozenset(row.pattern[0][1][0] for row in SIGNATURES if row.pattern and row.pattern[0][0] == at)
    for at in _ANCHORS
)
# For each anchor: every byte value -> itself where a first piece starts with it, else -1.
_KEY_BYTES = tuple(
    (at, tuple(byte if byte in known else -1 for byte in range(256)))
    for at, known in zip(_ANCHORS, _FIRST_BYTES, strict=True)
)
# Filled on first use, one entry per key: at most the product of len(bytes) + 1 over
# `_FIRST_BYTES` (a few hundred), whatever the input.
_CANDIDATES: dict[tuple[int, ...], tuple[Signature, ...]] = {}


def _key(head: bytes) -> tuple[int, ...]:
    size = len(head)
    return tuple([byte_of[head[at]] if at < size else -1 for at, byte_of in _KEY_BYTES])


def _candidates(key: tuple[int, ...]) -> tuple[Signature, ...]:
    """The rows, in table order, whose first piece's first byte is the key's byte there."""
    rows = _CANDIDATES.get(key)
    if rows is None:
        wanted = dict(zip(_ANCHORS, key, strict=True))
        rows = tuple(
            row
            for row in SIGNATURES
            if not row.pattern or wanted[row.pattern[0][0]] == row.pattern[0][1][0]
        )
        _CANDIDATES[key] = rows
    return rows


def match_signatures(probe: ByteWindow) -> Hit | None:
    """Return the first row's answer for these bytes, or None when no row matches.

    Only the rows the leading bytes allow are tried (`_candidates`); the first of them to
    match is the first of the whole table to match, since no other row can. After the table:
    the `magic` of formats registered with `mediaparts.formats.register`, in registration
    order, so a registered format never shadows a built-in one. `magic()` is cached by the
    registry; with no such format it is an empty tuple and costs nothing more.
    """
    head = probe.head
    for signature in _candidates(_key(head)):
        hit = signature.match(probe)
        if hit is not None:
            return hit
    for media_type, pieces in magic():
        if all(head.startswith(piece, offset) for offset, piece in pieces):
            return Hit(media_type)
    return None


# Every type the table or its parsers can answer. filetype is not asked to second-guess these.
OWNED_TYPES = frozenset(signature.media_type for signature in SIGNATURES) | {
    "image/heic",
    "image/heif",
    "image/avif",
    "audio/mp4",
    "audio/webm",
    "audio/x-matroska",
    "audio/x-ms-wma",
    "video/x-matroska",
    "video/quicktime",
    "video/3gpp",
    "video/3gpp2",
    "video/ogg",
    "application/epub+zip",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.oasis.opendocument.text",
    "application/vnd.oasis.opendocument.spreadsheet",
    "application/vnd.oasis.opendocument.presentation",
}
