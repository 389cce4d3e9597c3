"""Tests for mediaparts.detection: names, signatures, collisions, text sniffing, sources."""

from __future__ import annotations

import array
import dataclasses
import io
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import wave
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import mediaparts.detection as detection
from mediaparts import InvalidMedia
from mediaparts.detection import (
    PREFIX_SIZE,
    Detection,
    canonical_media_type,
    detect,
    detect_media_type,
    extension_for,
    kind_of,
    media_type_from_filename,
)
from tests._builders import ole2_file

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
ODT = "application/vnd.oasis.opendocument.text"
ODS = "application/vnd.oasis.opendocument.spreadsheet"
EPUB = "application/epub+zip"

OCTET = "application/octet-stream"


# --- builders for synthetic inputs ------------------------------------------------------------


def box(kind: bytes, payload: bytes = b"") -> bytes:
    """An ISO-BMFF box."""
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def ftyp(major: bytes, *compatible: bytes) -> bytes:
    return box(b"ftyp", major + b"\x00\x00\x02\x00" + b"".join(compatible))


def trak(handler: bytes) -> bytes:
    hdlr = box(b"hdlr", bytes(8) + handler + bytes(12) + b"name\x00")
    return box(b"trak", box(b"tkhd", bytes(84)) + box(b"mdia", box(b"mdhd", bytes(24)) + hdlr))


def iso_file(major: bytes, compatible: tuple[bytes, ...], handlers: tuple[bytes, ...]) -> bytes:
    moov = box(b"moov", box(b"mvhd", bytes(100)) + b"".join(trak(h) for h in handlers))
    return ftyp(major, *compatible) + moov + box(b"mdat", bytes(64))


def ebml(ident: int, payload: bytes) -> bytes:
    """An EBML element with an 8-byte size."""
    size = bytes([0x01]) + len(payload).to_bytes(7, "big")
    return ident.to_bytes((ident.bit_length() + 7) // 8, "big") + size + payload


def matroska(doc_type: bytes, track_types: tuple[int, ...]) -> bytes:
    header = ebml(0x1A45DFA3, ebml(0x4286, b"\x01") + ebml(0x4282, doc_type))
    entries = b"".join(
        ebml(0xAE, ebml(0xD7, bytes([n + 1])) + ebml(0x83, bytes([t])))
        for n, t in enumerate(track_types)
    )
    segment = ebml(0x114D9B74, bytes(40)) + ebml(0x1549A966, bytes(20))
    segment += ebml(0x1654AE6B, entries) + ebml(0x1F43B675, bytes(100))
    return header + ebml(0x18538067, segment)


def id3(size: int) -> bytes:
    """An ID3v2.3 tag of `size` bytes after its header (zero padding)."""
    syncsafe = bytes((size >> shift) & 0x7F for shift in (21, 14, 7, 0))
    return b"ID3\x03\x00\x00" + syncsafe + bytes(size)


def mp3_frames(count: int = 3) -> bytes:
    # MPEG-1 layer III, 128 kbit/s, 44.1 kHz: 144 * 128000 // 44100 = 417 bytes a frame.
    return (b"\xff\xfb\x90\x64" + bytes(413)) * count


def adts_frames(count: int = 3, length: int = 200) -> bytes:
    header = bytes(
        [0xFF, 0xF1, 0x50, 0x80 | (length >> 11), (length >> 3) & 0xFF, (length & 7) << 5 | 0x1F]
    )
    return (header + b"\xfc" + bytes(length - 7)) * count


def riff(form: bytes, body: bytes = bytes(16)) -> bytes:
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + form + body


def wav_bytes() -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(2)
        writer.setframerate(8000)
        writer.writeframes(bytes(800))
    return buffer.getvalue()


def _random_bytes(n: int, *, seed: int) -> bytes:
    """Noise that is the same on every run (os.urandom once made a valid EXE header)."""
    return random.Random(seed).randbytes(n)


def image_bytes(format: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    # 16 px: Pillow 12's ICO writer leaves out every icon size larger than the picture.
    Image.new("RGB", (16, 16), (200, 30, 30)).save(buffer, format=format, **options)
    return buffer.getvalue()


class _Unseekable(io.RawIOBase):
    """A write-only sink that cannot seek, so zipfile writes data descriptors."""

    def __init__(self) -> None:
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: bytes) -> int:  # type: ignore[override]
        self.data += b
        return len(b)


def zip_bytes(
    members: list[tuple[str, bytes]],
    *,
    stored: tuple[str, ...] = ("mimetype",),
    streamed: bool = False,
) -> bytes:
    """A ZIP with members in the given order; `streamed` writes data descriptors."""
    sink: io.BytesIO | _Unseekable = _Unseekable() if streamed else io.BytesIO()
    with zipfile.ZipFile(sink, "w") as archive:
        for name, data in members:
            method = zipfile.ZIP_STORED if name in stored else zipfile.ZIP_DEFLATED
            archive.writestr(zipfile.ZipInfo(name), data, compress_type=method)
    return bytes(sink.data) if isinstance(sink, _Unseekable) else sink.getvalue()


CONTENT_TYPES = (
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
    'content-types"><Override PartName="/{part}" ContentType="{type}.main+xml"/></Types>'
)


def ooxml(folder: str, main_type: str, *, content_types_last: bool = False) -> bytes:
    members = [
        ("_rels/.rels", b"<Relationships/>"),
        (f"{folder}/document.xml", b"<doc/>"),
        ("docProps/core.xml", b"<core/>"),
    ]
    types = CONTENT_TYPES.format(part=f"{folder}/document.xml", type=main_type).encode()
    if content_types_last:
        members.append(("[Content_Types].xml", types))
    else:
        members.insert(0, ("[Content_Types].xml", types))
    return zip_bytes(members)


# --- public surface ---------------------------------------------------------------------------


def test_public_api_all_is_sorted_and_complete() -> None:
    """`__all__` lists exactly the public names, sorted."""

    assert detection.__all__ == sorted(detection.__all__)
    assert set(detection.__all__) == {
        "Detection",
        "detect",
        "detect_media_type",
        "canonical_media_type",
        "kind_of",
        "extension_for",
        "media_type_from_filename",
        "PREFIX_SIZE",
    }
    assert PREFIX_SIZE == 65536


def test_detection_is_frozen_with_slots() -> None:
    """A Detection cannot be changed and has no instance dict."""
    found = detect(b"\x89PNG\r\n\x1a\n" + bytes(32))
    assert found == Detection("image/png", "image", ".png", "magic", False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.media_type = "x/y"  # type: ignore[misc]
    assert not hasattr(found, "__dict__")


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("audio/x-wav", "audio/wav"),
        ("image/jpg", "image/jpeg"),
        ("IMAGE/JPEG; q=0.9", "image/jpeg"),
        (" text/csv ; charset=utf-8", "text/csv"),
        ("image/x-icon", "image/vnd.microsoft.icon"),
        ("image/apng", "image/png"),
        ("image/x-ms-bmp", "image/bmp"),
        ("image/x-jxl", "image/jxl"),
        ("application/x-photoshop", "image/vnd.adobe.photoshop"),
        ("audio/mp3", "audio/mpeg"),
        ("audio/x-flac", "audio/flac"),
        ("application/ogg", "audio/ogg"),
        ("audio/opus", "audio/ogg"),
        ("audio/x-m4a", "audio/mp4"),
        ("audio/x-hx-aac-adts", "audio/aac"),
        ("audio/x-aiff", "audio/aiff"),
        ("audio/mid", "audio/midi"),
        ("video/x-m4v", "video/mp4"),
        ("video/mkv", "video/x-matroska"),
        ("video/avi", "video/x-msvideo"),
        ("video/flv", "video/x-flv"),
        ("video/mpg", "video/mpeg"),
        ("video/x-ms-asf", "video/x-ms-wmv"),
        ("text/xml", "application/xml"),
        ("text/json", "application/json"),
        ("text/rtf", "application/rtf"),
        ("application/x-zip-compressed", "application/zip"),
        ("application/csv", "text/csv"),
        ("text/x-markdown", "text/markdown"),
        ("image/heic-sequence", "image/heic"),
        ("application/javascript", "text/javascript"),
        ("application/x-unknown", "application/x-unknown"),
        ("image/heif", "image/heif"),
        ("audio/webm", "audio/webm"),
    ],
)
def test_canonical_media_type_folds_aliases(given: str, expected: str) -> None:
    """Aliases fold to the canonical name; parameters, case and space are dropped."""
    assert canonical_media_type(given) == expected


@pytest.mark.parametrize(
    ("media_type", "kind"),
    [
        ("image/png", "image"),
        ("image/heic", "image"),
        ("image/svg+xml", "file"),
        ("image/svg", "file"),
        ("audio/mpeg", "audio"),
        ("audio/webm", "audio"),
        ("video/mp4", "video"),
        ("video/quicktime", "video"),
        ("application/pdf", "file"),
        ("text/plain", "file"),
        ("text/html", "file"),
        ("application/octet-stream", "file"),
        ("IMAGE/JPEG", "image"),
    ],
)
def test_kind_of_maps_top_level_types(media_type: str, kind: str) -> None:
    """Images, audio and video are kinds of their own; SVG, text and documents are files."""
    assert kind_of(media_type) == kind


@pytest.mark.parametrize(
    ("media_type", "extension"),
    [
        ("image/jpeg", ".jpg"),
        ("image/jpg", ".jpg"),
        ("image/png", ".png"),
        ("image/vnd.microsoft.icon", ".ico"),
        ("audio/mpeg", ".mp3"),
        ("audio/mp4", ".m4a"),
        ("audio/ogg", ".ogg"),
        ("video/mp4", ".mp4"),
        ("video/quicktime", ".mov"),
        ("application/pdf", ".pdf"),
        ("text/plain", ".txt"),
        ("text/markdown", ".md"),
        (DOCX, ".docx"),
        ("application/x-unknown", None),
        ("application/x-ole-storage", None),
    ],
)
def test_extension_for_returns_usual_extension(media_type: str, extension: str | None) -> None:
    """Each known type has one usual extension; unknown types have none."""
    assert extension_for(media_type) == extension


@pytest.mark.parametrize(
    ("filename", "expected"),
    [
        ("report.PDF", "application/pdf"),
        ("photo.JpEg", "image/jpeg"),
        ("/var/data/clip.mov", "video/quicktime"),
        ("C:\\Users\\me\\song.mp3", "audio/mpeg"),
        ("https://example.com/a/b/pic.webp?w=200#top", "image/webp"),
        ("https://example.com/file.pdf?name=x.png", "application/pdf"),
        ("pic.png?w=200", "image/png"),
        ("notes.md", "text/markdown"),
        ("data.tsv", "text/tab-separated-values"),
        ("archive.tar.gz", "application/gzip"),
        ("README", None),
        ("file.unknownext", None),
        ("https://example.com/", None),
        ("", None),
    ],
)
def test_media_type_from_filename_reads_extension(filename: str, expected: str | None) -> None:
    """The last path or URL segment's extension is looked up case-insensitively."""
    assert media_type_from_filename(filename) == expected


@pytest.mark.parametrize(
    "media_type",
    [
        "image/jpeg",
        "image/png",
        "image/gif",
        "image/webp",
        "image/bmp",
        "image/tiff",
        "image/heic",
        "image/heif",
        "image/avif",
        "image/jxl",
        "image/svg+xml",
        "image/vnd.microsoft.icon",
        "image/vnd.adobe.photoshop",
        "audio/mpeg",
        "audio/wav",
        "audio/flac",
        "audio/ogg",
        "audio/mp4",
        "audio/aac",
        "audio/aiff",
        "audio/midi",
        "audio/amr",
        "audio/webm",
        "video/mp4",
        "video/quicktime",
        "video/webm",
        "video/x-matroska",
        "video/x-msvideo",
        "video/x-flv",
        "video/mpeg",
        "video/x-ms-wmv",
        "video/3gpp",
        "video/3gpp2",
        "application/pdf",
        "application/rtf",
        "application/zip",
        "application/epub+zip",
        DOCX,
        XLSX,
        PPTX,
        ODT,
        ODS,
        "text/plain",
        "text/csv",
        "text/tab-separated-values",
        "text/markdown",
        "text/html",
        "application/json",
        "application/xml",
    ],
)
def test_extension_table_round_trips(media_type: str) -> None:
    """A type's usual extension maps back to the same type."""
    extension = extension_for(media_type)
    assert extension is not None
    assert media_type_from_filename(f"file{extension}") == media_type


# --- signatures -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\xff\xd8\xff\xe0" + bytes(20), "image/jpeg"),
        (b"GIF87a\x01\x00\x01\x00\x00\x00\x00,\x00\x00", "image/gif"),  # then an image block
        (b"II*\x00" + bytes(20), "image/tiff"),
        (b"MM\x00*" + bytes(20), "image/tiff"),
        (b"8BPS\x00\x01" + bytes(30), "image/vnd.adobe.photoshop"),
        (b"\xff\x0a\x00\x10" + bytes(10), "image/jxl"),
        (b"\x00\x00\x00\x0cJXL \r\n\x87\n" + bytes(20), "image/jxl"),
        (b"fLaC\x00\x00\x00\x22" + bytes(40), "audio/flac"),
        (b"fLaC\x80\x00\x00\x22" + bytes(40), "audio/flac"),  # STREAMINFO is the last block
        (b"FORM\x00\x00\x00\x20AIFC" + bytes(20), "audio/aiff"),
        (b"MThd\x00\x00\x00\x06\x00\x01" + bytes(10), "audio/midi"),
        (b"#!AMR\n" + bytes(20), "audio/amr"),
        (b"#!AMR-WB\n" + bytes(20), "audio/amr-wb"),
        (b"#!AMR_MC1.0\n" + bytes(20), "audio/amr"),
        (b"#!AMR-WB_MC1.0\n" + bytes(20), "audio/amr-wb"),
        (b"ADIF\x00\x00\x17\x70\x00" + bytes(20), "audio/aac"),
        (b"FLV\x01\x05\x00\x00\x00\x09" + bytes(10), "video/x-flv"),
        (b"\x00\x00\x01\xba\x44" + bytes(20), "video/mpeg"),
        (b"\x47\x40\x00\x10" + bytes(184) + b"\x47\x40\x00\x11" + bytes(184), "video/mp2t"),
        (b"%PDF-1.7\n" + bytes(10), "application/pdf"),
        (b"%PDF-1.4 %\xe2\xe3\xcf\xd3\n1 0 obj\n", "application/pdf"),  # a comment on the line
        (b"%PDF-1.\n1 0 obj<</Pages 2 0 R>>endobj\n", "application/pdf"),  # a cut-short version
        (b"%PDF-1.3 made by hand\n1 0 obj\n<<>>\nendobj\n", "application/pdf"),
        (b"%!PS-Adobe-3.0\n", "application/postscript"),
        (b"{\\rtf1\\ansi hi}", "application/rtf"),
        (b"PK\x05\x06" + bytes(18), "application/zip"),
        (b"\x1f\x8b\x08\x00" + bytes(20), "application/gzip"),  # from filetype
        (b"7z\xbc\xaf\x27\x1c" + bytes(20), "application/x-7z-compressed"),  # from filetype
    ],
)
def test_detect_signature_table_rows(data: bytes, expected: str) -> None:
    """Fixed signatures (ours, and filetype's for the long tail) are recognised."""
    found = detect(data)
    assert (found.media_type, found.source) == (expected, "magic")


@pytest.mark.parametrize(
    ("format", "expected"),
    [
        ("PNG", "image/png"),
        ("JPEG", "image/jpeg"),
        ("GIF", "image/gif"),
        ("WEBP", "image/webp"),
        ("BMP", "image/bmp"),
        ("TIFF", "image/tiff"),
        ("ICO", "image/vnd.microsoft.icon"),
        ("PDF", "application/pdf"),
    ],
)
def test_detect_images_written_by_pillow(format: str, expected: str) -> None:
    """Real encoder output is recognised from its bytes."""
    assert detect_media_type(image_bytes(format)) == expected


def test_detect_pdf_with_junk_before_header() -> None:
    """`%PDF-` within the first KiB still makes a PDF; a sentence mentioning it does not."""
    assert detect_media_type(b"junk\r\n%PDF-1.4\n1 0 obj\n<<>>\nendobj\n") == "application/pdf"
    assert detect_media_type(b"Files start with %PDF-1.7 as a header.\n") == "text/plain"


# --- collisions, both directions --------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (wav_bytes(), "audio/wav"),
        (image_bytes("WEBP"), "image/webp"),
        (riff(b"AVI ", b"LIST" + bytes(40)), "video/x-msvideo"),
        (riff(b"RMID"), "audio/midi"),
    ],
)
def test_detect_riff_forms_are_told_apart(data: bytes, expected: str) -> None:
    """RIFF WAVE is audio, WEBP an image and AVI video: never each other."""
    assert detect_media_type(data) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (iso_file(b"isom", (b"isom", b"iso2", b"avc1"), (b"vide", b"soun")), "video/mp4"),
        (iso_file(b"isom", (b"isom", b"mp41"), (b"soun",)), "audio/mp4"),
        (iso_file(b"mp42", (b"mp42",), (b"soun", b"hint")), "audio/mp4"),
        (iso_file(b"mp42", (b"mp42",), (b"vide",)), "video/mp4"),
        (iso_file(b"M4A ", (b"M4A ", b"isom"), (b"soun",)), "audio/mp4"),
        (iso_file(b"M4V ", (b"isom",), (b"vide",)), "video/mp4"),
        (iso_file(b"qt  ", (b"qt  ",), (b"vide",)), "video/quicktime"),
        (iso_file(b"3gp4", (b"isom", b"3gp4"), (b"vide", b"soun")), "video/3gpp"),
        (iso_file(b"3g2a", (b"3g2a",), (b"vide",)), "video/3gpp2"),
        (ftyp(b"heic", b"mif1", b"heic") + box(b"meta"), "image/heic"),
        (ftyp(b"mif1", b"mif1", b"heic") + box(b"meta"), "image/heic"),
        (ftyp(b"mif1", b"mif1") + box(b"meta"), "image/heif"),
        (ftyp(b"msf1", b"msf1", b"hevc") + box(b"moov"), "image/heic"),
        (ftyp(b"avif", b"avif", b"mif1", b"miaf") + box(b"meta"), "image/avif"),
        (ftyp(b"avis", b"avis", b"msf1", b"miaf") + box(b"moov"), "image/avif"),
    ],
)
def test_detect_ftyp_brands_and_tracks_are_told_apart(data: bytes, expected: str) -> None:
    """MP4/M4A/MOV/3GP/HEIC/AVIF share `ftyp`; brands and track handlers separate them."""
    assert detect_media_type(data) == expected


def test_detect_mp4_with_moov_after_media_data() -> None:
    """An audio-only MP4 whose `moov` follows a large `mdat` is found with bounded reads."""
    data = (
        ftyp(b"isom", b"isom", b"mp41")
        + box(b"mdat", bytes(3 * PREFIX_SIZE))
        + box(b"moov", box(b"mvhd", bytes(100)) + trak(b"soun"))
    )
    assert detect_media_type(data) == "audio/mp4"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (box(b"mdat", bytes(64)) + box(b"moov", box(b"mvhd", bytes(100))), "video/quicktime"),
        (box(b"moov", box(b"mvhd", bytes(100))), "video/quicktime"),
        (box(b"wide") + box(b"mdat", bytes(32)), "video/quicktime"),
        (b"xxxxfree for everyone, as in speech", "text/plain"),
        (b"Hellmdat", "text/plain"),
    ],
)
def test_detect_quicktime_without_ftyp(data: bytes, expected: str) -> None:
    """Old QuickTime files start with atoms; text with those letters at offset 4 is text."""
    assert detect_media_type(data) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (matroska(b"webm", (2,)), "audio/webm"),
        (matroska(b"webm", (1, 2)), "video/webm"),
        (matroska(b"webm", (1,)), "video/webm"),
        (matroska(b"matroska", (2, 2)), "audio/x-matroska"),
        (matroska(b"matroska", (1, 2, 17)), "video/x-matroska"),
        (matroska(b"matroska", ()), "video/x-matroska"),
    ],
)
def test_detect_ebml_audio_only_vs_video(data: bytes, expected: str) -> None:
    """WebM and Matroska with only audio tracks are audio; with a video track, video."""
    assert detect_media_type(data) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (id3(100) + mp3_frames(), "audio/mpeg"),
        (id3(100) + adts_frames(), "audio/aac"),
        (id3(100) + b"fLaC\x00\x00\x00\x22" + bytes(40), "audio/flac"),
        (id3(100) + id3(50) + adts_frames(), "audio/aac"),
        (id3(2 * PREFIX_SIZE) + adts_frames(), "audio/aac"),  # cover art beyond the prefix
        (id3(2 * PREFIX_SIZE) + b"fLaC\x00\x00\x00\x22" + bytes(40), "audio/flac"),
        (id3(100) + bytes(30) + adts_frames(), "audio/aac"),  # padding the size leaves out
        (mp3_frames(), "audio/mpeg"),
        (adts_frames(), "audio/aac"),
    ],
)
def test_detect_id3_then_mp3_aac_or_flac(data: bytes, expected: str) -> None:
    """What follows an ID3v2 tag decides; bare MPEG and ADTS frames are recognised too."""
    assert detect_media_type(data) == expected


def test_detect_mpeg_sync_with_bad_next_frame_is_not_mp3() -> None:
    """A lone 0xFFFB followed by garbage where the next frame should be is not MP3."""
    data = b"\xff\xfb\x90\x64" + bytes(413) + b"\x12\x34\x56\x78" + bytes(500)
    assert detect_media_type(data) != "audio/mpeg"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (ooxml("word", DOCX), DOCX),
        (ooxml("xl", XLSX), XLSX),
        (ooxml("ppt", PPTX), PPTX),
        (ooxml("word", DOCX, content_types_last=True), DOCX),
        (
            ooxml(
                "word", "application/vnd.openxmlformats-officedocument.wordprocessingml.template"
            ),
            "application/vnd.openxmlformats-officedocument.wordprocessingml.template",
        ),
        (zip_bytes([("mimetype", ODT.encode()), ("content.xml", b"<x/>")]), ODT),
        (zip_bytes([("content.xml", b"<x/>"), ("mimetype", ODS.encode())]), ODS),
        (zip_bytes([("mimetype", EPUB.encode()), ("META-INF/container.xml", b"<c/>")]), EPUB),
        (zip_bytes([("META-INF/container.xml", b"<c/>"), ("OEBPS/a.xhtml", b"<h/>")]), EPUB),
        (zip_bytes([("a.txt", b"hello"), ("b/c.txt", b"world")]), "application/zip"),
        (zip_bytes([("word/document.xml", b"<w/>"), ("x.txt", b"")]), DOCX),
        (
            zip_bytes([("META-INF/MANIFEST.MF", b"M"), ("a/B.class", b"")]),
            "application/java-archive",
        ),
        (zip_bytes([("_rels/.rels", b""), ("xl/workbook.xml", b"")], streamed=True), XLSX),
        (zip_bytes([("a.txt", b"hello")], streamed=True), "application/zip"),
    ],
)
def test_detect_zip_family_members(data: bytes, expected: str) -> None:
    """ZIP-based formats are told apart by `mimetype`, `[Content_Types].xml` or names."""
    assert detect_media_type(data) == expected


def test_detect_zip_family_in_large_file_uses_central_directory(tmp_path: Path) -> None:
    """Members beyond the prefix are found through the central directory at the end."""
    members = [(f"media/{n}.bin", _random_bytes(20000, seed=n)) for n in range(8)]
    members.append(("word/document.xml", b"<w/>"))
    path = tmp_path / "big.docx"
    path.write_bytes(zip_bytes(members, stored=tuple(name for name, _ in members)))
    assert detect(path).media_type == DOCX


@pytest.mark.parametrize(
    "data",
    [
        b"GIF8 is great",
        b"GIF89 is not a header",
        b"GIF89a is a format name, said the text.\n",
        b"GIF87a was the first version of the format; 89a added animation.\n",
        b"BM is a car brand, I think.\n",
        b"BMW" * 20,
    ],
)
def test_detect_text_starting_like_gif_or_bmp_is_text(data: bytes) -> None:
    """Text that starts with `GIF8` or `BM` is plain text, not an image."""
    found = detect(data)
    assert (found.media_type, found.source) == ("text/plain", "content")


def test_detect_real_gif_and_bmp_are_images() -> None:
    """Real GIF and BMP headers are still images (the other direction)."""
    assert detect_media_type(image_bytes("GIF")) == "image/gif"
    assert detect_media_type(image_bytes("BMP")) == "image/bmp"


class Pipe(io.RawIOBase):
    """A readable stream that cannot seek, like a pipe or a socket."""

    def __init__(self, data: bytes) -> None:
        self._inner = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray) -> int:  # type: ignore[override]
        return self._inner.readinto(b)


def test_detect_zip_without_reachable_directory_uses_name() -> None:
    """A ZIP read from a stream cut before its directory takes a family name from the file name."""
    data = zip_bytes(
        [("content/x.bin", _random_bytes(PREFIX_SIZE * 2, seed=1))], stored=("content/x.bin",)
    )
    assert detect(Pipe(data)).media_type == "application/zip"
    found = detect(Pipe(data), filename="report.docx")
    assert (found.media_type, found.source, found.mismatch) == (DOCX, "extension", False)
    assert detect(data, filename="report.docx").media_type == "application/zip"


# --- text sniffing ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (b"<!DOCTYPE html><p>x", "text/html"),
        (b"\n  <!-- c -->\n<HTML><BODY>x</BODY></HTML>", "text/html"),
        (b"<div class='a'>x</div>", "text/html"),
        (b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>', "image/svg+xml"),
        (b'<!-- made by hand -->\n<svg width="1"></svg>', "image/svg+xml"),
        (
            b'<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x"><svg/>',
            "image/svg+xml",
        ),
        (b'<?xml version="1.0"?>\n<note><to>x</to></note>', "application/xml"),
        (b"<!DOCTYPE _[<!ELEMENT _ EMPTY>]><_/>", "application/xml"),
        (b"<feed xmlns='http://www.w3.org/2005/Atom'></feed>", "application/xml"),
        (b"<3 you", "text/plain"),
        (b'{"a": [1, 2, {"b": null}]}', "application/json"),
        (b"  [\n 1,\n 2\n]\n", "application/json"),
        (b"{ not json at all }", "text/plain"),
        (b"{name} is a placeholder", "text/plain"),
        (b'{"a":1}\n{"a":2}\n', "application/x-ndjson"),
        (b"a,b,c\r\n1,2,3\r\n4,5,6\r\n", "text/csv"),
        (b'a,b\n1,"x, y"\n2,"multi\nline"\n', "text/csv"),
        (b"a;b;c\n1;2;3\n", "text/csv"),
        (b"name\tvalue\nx\t1\ny\t2\n", "text/tab-separated-values"),
        (b"Hello, world. How are you, sir?\nFine, thanks, and you?\n", "text/plain"),
        (b"func main() {\n\tx := 1\n\ty := 2\n}\n", "text/plain"),
        (b"# Title\n\nSome *text* and a [link](https://example.com).\n", "text/markdown"),
        (b"Intro\n\n```python\nprint(1)\n```\n", "text/markdown"),
        (b"# comment\n# another\nkey: value\n", "text/plain"),
        (b"just some words\n", "text/plain"),
        (b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n", "text/calendar"),
        (b"#!/usr/bin/env python3\nprint(1)\n", "text/x-python"),
    ],
)
def test_detect_text_formats_from_content(text: bytes, expected: str) -> None:
    """Markup, JSON, CSV/TSV and Markdown are recognised from their text."""
    found = detect(text)
    assert (found.media_type, found.source) == (expected, "content")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ('<?xml version="1.0"?><a/>'.encode("utf-16"), "application/xml"),
        ('<?xml version="1.0"?><a/>'.encode("utf-16-be"), "application/xml"),
        ("a,b\n1,2\n".encode("utf-16-le"), "text/csv"),
        ("\ufeff<svg xmlns='http://www.w3.org/2000/svg'/>".encode(), "image/svg+xml"),
        ('{"k": "v"}'.encode("utf-32"), "application/json"),
        ("Crème brûlée, s'il vous plaît\n".encode("latin-1"), "text/plain"),
        (("caf\u00e9 " * 12000).encode()[: PREFIX_SIZE + 1], "text/plain"),
    ],
)
def test_detect_text_encodings(data: bytes, expected: str) -> None:
    """BOMs, UTF-16 without BOM, Latin-1 and a cut multi-byte character are text."""
    assert detect_media_type(data) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"name": "José"}', "application/json"),
        ("Hello", "text/plain"),
        ("GIF89a is a format name.", "text/plain"),
        ("BM", "text/plain"),
        ("a,b\n1,2\n3,4\n", "text/csv"),
        ("<note><to>x</to></note>", "application/xml"),
    ],
)
def test_detect_short_utf16_with_bom_is_text_not_mpeg_audio(text: str, expected: str) -> None:
    """A short UTF-16 LE file is text: its FF FE mark also reads as an MPEG-1 Layer I frame."""
    data = text.encode("utf-16")  # little-endian with a byte order mark, as Windows writes
    assert data.startswith(b"\xff\xfe")
    assert detect(data).media_type == expected
    found = detect(data, filename="note.txt")
    assert (found.kind, found.media_type.startswith(("text/", "application/"))) == ("file", True)


def test_detect_mpeg_layer_one_frames_starting_ff_fe_are_audio() -> None:
    """Real MPEG-1 Layer I frames with a CRC (FF FE ...) are still audio: they are not text."""
    frame = b"\xff\xfe\x90\x00" + bytes(308)  # 288 kbit/s at 44.1 kHz: 312 bytes a frame
    assert detect_media_type(frame * 3) == "audio/mpeg"


def test_detect_truncated_json_prefix_is_json() -> None:
    """JSON larger than the prefix is still JSON: only the cut makes it fail to parse."""
    document = json.dumps({f"key{n}": {"value": "x" * 50, "n": n} for n in range(4000)})
    assert len(document) > PREFIX_SIZE
    assert detect_media_type(document.encode()) == "application/json"


@pytest.mark.parametrize(
    "data", [b"\x00\x01\x02\x03", bytes(range(256)), _random_bytes(4096, seed=2), b"\x00" * 100]
)
def test_detect_unknown_binary_is_octet_stream(data: bytes) -> None:
    """Bytes nothing recognises are application/octet-stream from source "unknown"."""
    found = detect(data)
    assert (found.media_type, found.source, found.kind) == (
        "application/octet-stream",
        "unknown",
        "file",
    )


# --- names, declared types, mismatches --------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "filename", "declared", "expected"),
    [
        # The bytes win over a wrong name or declared type.
        (image_bytes("PNG"), "photo.jpg", None, ("image/png", "magic", True)),
        (image_bytes("PNG"), None, "image/jpeg", ("image/png", "magic", True)),
        (b'{"WEBP": {}}', "fixture.webp", None, ("application/json", "content", True)),
        # Same format under another name is no mismatch.
        (image_bytes("PNG"), "a.png", "image/x-png", ("image/png", "magic", False)),
        (ftyp(b"heic", b"mif1", b"heic"), "a.heif", None, ("image/heic", "magic", False)),
        (iso_file(b"isom", (b"isom",), (b"soun",)), "a.mp4", None, ("audio/mp4", "magic", False)),
        (matroska(b"webm", (2,)), "a.webm", "video/webm", ("audio/webm", "magic", False)),
        # Generic text takes a more specific text type from the name, then the declared type.
        (b"just words\n", "notes.md", None, ("text/markdown", "extension", False)),
        (b"print('x')\n", "tool.py", None, ("text/x-python", "extension", False)),
        (b"just words\n", None, "text/markdown", ("text/markdown", "declared", False)),
        (b"a,b\n1,2\n", "table.txt", None, ("text/plain", "extension", False)),
        (b"just words\n", "notes.txt", None, ("text/plain", "content", False)),
        (b"just words\n", "photo.png", None, ("text/plain", "content", True)),
        (b'<?xml version="1.0"?><x/>', "a.rss", None, ("application/rss+xml", "extension", False)),
        # Nothing in the bytes: the name, then the declared type, then octet-stream.
        (
            b"\x00\x01\x02\x03",
            "model.gguf",
            "application/x-custom",
            ("application/x-custom", "declared", False),
        ),
        # Bytes win: a name or type of a format whose signature we know is not believed
        # for bytes that lack it (nor for no bytes at all).
        (b"\x00\x01\x02\x03", "clip.mkv", "video/mp4", (OCTET, "unknown", True)),
        (b"", "a.pdf", None, (OCTET, "unknown", True)),
        (b"", None, "image/png", (OCTET, "unknown", True)),
        (b"\x00" * 5000, "bogus.pdf", "application/pdf", (OCTET, "unknown", True)),
        (b"", None, None, ("application/octet-stream", "unknown", False)),
        (
            b"\x00\x01",
            "a.bin",
            "application/octet-stream",
            ("application/octet-stream", "unknown", False),
        ),
        # A declared type that is not "type/subtype" is no hint at all.
        (b"\x00\x01", None, "/", ("application/octet-stream", "unknown", False)),
        (b"\x00\x01", None, "image/", ("application/octet-stream", "unknown", False)),
        (b"\x00\x01", None, "not a type/at all", ("application/octet-stream", "unknown", False)),
        (b"\x00\x01", "a.pdf", "/", (OCTET, "unknown", True)),
    ],
)
def test_detect_uses_name_and_declared_in_order(
    data: bytes, filename: str | None, declared: str | None, expected: tuple[str, str, bool]
) -> None:
    """Bytes first, then the extension, then the declared type; disagreement sets mismatch."""
    found = detect(data, filename=filename, declared=declared)
    assert (found.media_type, found.source, found.mismatch) == expected
    assert found.kind == kind_of(found.media_type)
    assert found.extension == extension_for(found.media_type)


# --- sources and bounded reading --------------------------------------------------------------


def test_detect_accepts_bytes_like_and_paths(tmp_path: Path) -> None:
    """bytes, bytearray, memoryview (any format), str and Path sources give one answer."""
    data = image_bytes("PNG")
    path = tmp_path / "x.bin"
    path.write_bytes(data)
    padded = data + bytes(-len(data) % 4)
    sources: list[object] = [
        data,
        bytearray(data),
        memoryview(data),
        memoryview(array.array("i", padded)),
        str(path),
        path,
    ]
    for source in sources:
        assert detect(source).media_type == "image/png"  # type: ignore[arg-type]


def test_detect_does_not_mutate_caller_buffer() -> None:
    """The caller's bytearray is left as it was."""
    data = bytearray(wav_bytes())
    before = bytes(data)
    detect(data)
    assert data == before


def test_detect_restores_file_position() -> None:
    """A seekable file object is read from its position, which is restored afterwards."""
    stream = io.BytesIO(b"header" + wav_bytes())
    stream.seek(6)
    assert detect(stream).media_type == "audio/wav"
    assert stream.tell() == 6


def test_detect_reads_unseekable_stream_prefix_only() -> None:
    """A non-seekable stream is read for the prefix only."""
    read, write = os.pipe()
    with os.fdopen(write, "wb") as writer:
        writer.write(wav_bytes())
    with os.fdopen(read, "rb", buffering=0) as reader:
        assert detect(reader).media_type == "audio/wav"


def test_detect_rejects_text_mode_file_and_other_types() -> None:
    """Text-mode file objects and unsupported types raise InvalidMedia."""
    with pytest.raises(InvalidMedia, match="binary"):
        detect(io.StringIO("hello"))  # type: ignore[arg-type]
    with pytest.raises(InvalidMedia, match="int"):
        detect(42)  # type: ignore[arg-type]


def test_detect_missing_path_raises_invalid_media(tmp_path: Path) -> None:
    """A missing path or a directory raises InvalidMedia naming it."""
    with pytest.raises(InvalidMedia, match="no file at"):
        detect(tmp_path / "missing.png")
    with pytest.raises(InvalidMedia, match="directory"):
        detect(str(tmp_path))


class CountingFile(io.FileIO):
    """A file whose reads are counted."""

    bytes_read = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        assert data is not None
        self.bytes_read += len(data)
        return data


@pytest.mark.parametrize(
    ("header", "tail", "expected"),
    [
        (image_bytes("PNG"), b"", "image/png"),
        (id3(3 * PREFIX_SIZE), adts_frames(), "audio/aac"),
        (
            ftyp(b"isom", b"isom") + struct.pack(">I", 1) + b"mdat" + struct.pack(">Q", 0),
            b"",
            "video/mp4",
        ),
        (b"PK\x03\x04" + bytes(26), b"", "application/zip"),
    ],
)
def test_detect_large_file_reads_a_bounded_amount(
    tmp_path: Path, header: bytes, tail: bytes, expected: str
) -> None:
    """A 64 MiB (sparse) file is never read whole: at most 256 KiB per detection."""
    path = tmp_path / "large.bin"
    with open(path, "wb") as file:
        file.write(header + tail)
        file.truncate(64 * 2**20)
    with CountingFile(path, "rb") as file:
        assert detect(file).media_type == expected
        assert file.bytes_read <= 256 * 1024
    assert detect(path).media_type == expected


def test_detect_large_zip_with_many_members_reads_a_bounded_amount(tmp_path: Path) -> None:
    """A ZIP with a huge central directory costs no more than the read budget."""
    path = tmp_path / "many.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for n in range(6000):
            archive.writestr(f"folder/with/a/long/name/member-{n:05d}.txt", b"")
    with CountingFile(path, "rb") as file:
        assert detect(file).media_type == "application/zip"
        assert file.bytes_read <= 256 * 1024


SAMPLES = [
    image_bytes("PNG"),
    wav_bytes(),
    iso_file(b"isom", (b"isom",), (b"soun",)),
    matroska(b"webm", (1, 2)),
    id3(300) + adts_frames(),
    ooxml("word", DOCX),
    zip_bytes([("mimetype", ODT.encode())]),
    b'{"a": [1, 2, 3], "b": "text"}',
    b"<?xml version='1.0'?><svg xmlns='http://www.w3.org/2000/svg'/>",
    b"a,b,c\n1,2,3\n",
    riff(b"AVI ", b"LIST" + bytes(40)),
    b"OggS\x00\x02" + bytes(20) + b"\x01\x1e\x01vorbis" + bytes(30),
    b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600),
]


@pytest.mark.parametrize("sample", SAMPLES)
def test_detect_truncated_inputs_never_raise(sample: bytes) -> None:
    """Every prefix of a valid sample is detected without an exception."""
    for cut in range(len(sample) + 1):
        assert isinstance(detect(sample[:cut]), Detection)


@settings(max_examples=300, deadline=None)
@given(
    st.binary(max_size=2048),
    st.sampled_from(
        [
            b"",
            b"ID3\x04",
            b"PK\x03\x04",
            b"OggS\x00",
            b"\x1a\x45\xdf\xa3",
            b"\x00\x00\x00\x18ftyp",
            b"RIFF",
            b"\xff\xfb",
            b"\xd0\xcf\x11\xe0",
        ]
    ),
)
def test_detect_garbage_never_raises(data: bytes, prefix: bytes) -> None:
    """Arbitrary bytes, also behind real signatures, never raise."""
    assert isinstance(detect(prefix + data), Detection)


# --- real encoders, when installed ------------------------------------------------------------

ENCODED = [
    ("ffmpeg", "a.mp3", "-f lavfi -i sine=d=0.3 -c:a libmp3lame", "audio/mpeg"),
    ("ffmpeg", "a.m4a", "-f lavfi -i sine=d=0.3 -c:a aac", "audio/mp4"),
    ("ffmpeg", "a.mp4", "-f lavfi -i sine=d=0.3 -c:a aac", "audio/mp4"),
    ("ffmpeg", "a.aac", "-f lavfi -i sine=d=0.3 -c:a aac -f adts", "audio/aac"),
    ("ffmpeg", "a.webm", "-f lavfi -i sine=d=0.3 -c:a libopus", "audio/webm"),
    ("ffmpeg", "a.ogg", "-f lavfi -i sine=d=0.3 -c:a libvorbis", "audio/ogg"),
    ("ffmpeg", "a.flac", "-f lavfi -i sine=d=0.3", "audio/flac"),
    ("ffmpeg", "v.mp4", "-f lavfi -i testsrc=s=32x32:d=0.3 -c:v libx264", "video/mp4"),
    ("ffmpeg", "v.webm", "-f lavfi -i testsrc=s=32x32:d=0.3 -c:v libvpx", "video/webm"),
    ("ffmpeg", "v.mov", "-f lavfi -i testsrc=s=32x32:d=0.3", "video/quicktime"),
    ("ffmpeg", "v.avi", "-f lavfi -i testsrc=s=32x32:d=0.3", "video/x-msvideo"),
    ("ffmpeg", "v.ogv", "-f lavfi -i testsrc=s=32x32:d=0.3 -c:v libtheora", "video/ogg"),
    ("ffmpeg", "v.3gp", "-f lavfi -i testsrc=s=176x144:d=0.3 -c:v h263", "video/3gpp"),
    ("ffmpeg", "v.3g2", "-f lavfi -i testsrc=s=176x144:d=0.3 -c:v h263", "video/3gpp2"),
    ("ffmpeg", "a.wav", "-f lavfi -i sine=d=0.3", "audio/wav"),
    ("ffmpeg", "a.opus", "-f lavfi -i sine=d=0.3 -c:a libopus", "audio/ogg"),
    ("ffmpeg", "a.aiff", "-f lavfi -i sine=d=0.3", "audio/aiff"),
    ("ffmpeg", "a.mka", "-f lavfi -i sine=d=0.3 -c:a libvorbis", "audio/x-matroska"),
    ("ffmpeg", "a.wma", "-f lavfi -i sine=d=0.3 -c:a wmav2", "audio/x-ms-wma"),
    ("ffmpeg", "a.caf", "-f lavfi -i sine=d=0.3", "audio/x-caf"),
    ("ffmpeg", "a.au", "-f lavfi -i sine=d=0.3", "audio/basic"),
    ("ffmpeg", "a.mp2", "-f lavfi -i sine=d=0.3 -c:a mp2", "audio/mpeg"),
    (
        "ffmpeg",
        "t.aac",
        "-f lavfi -i sine=d=0.3 -c:a aac -f adts -write_id3v2 1 -metadata title=x",
        "audio/aac",
    ),
    (
        "ffmpeg",
        "bare.mp3",
        "-f lavfi -i sine=d=0.3 -c:a libmp3lame -id3v2_version 0 -write_xing 0",
        "audio/mpeg",
    ),
    ("ffmpeg", "v.mkv", "-f lavfi -i testsrc=s=32x32:d=0.3 -c:v mpeg4", "video/x-matroska"),
    ("ffmpeg", "v.flv", "-f lavfi -i testsrc=s=32x32:d=0.3", "video/x-flv"),
    ("ffmpeg", "v.ts", "-f lavfi -i testsrc=s=32x32:d=0.3", "video/mp2t"),
    ("ffmpeg", "v.mpg", "-f lavfi -i testsrc=s=32x32:d=0.3", "video/mpeg"),
    ("ffmpeg", "v.wmv", "-f lavfi -i testsrc=s=32x32:d=0.3", "video/x-ms-wmv"),
    (
        "ffmpeg",
        "f.mp4",
        "-f lavfi -i testsrc=s=32x32:d=0.3 -c:v mpeg4 -movflags frag_keyframe+empty_moov",
        "video/mp4",
    ),
    ("ffmpeg", "i.gif", "-f lavfi -i testsrc=s=32x32:d=0.3", "image/gif"),
    ("sox", "s.aiff", "-n s.aiff synth 0.2 sine 440", "audio/aiff"),
    ("sox", "s.amr", "-n -r 8000 -c 1 -t amr-nb s.amr synth 0.2 sine 440", "audio/amr"),
    ("sox", "s.au", "-n s.au synth 0.2 sine 440", "audio/basic"),
    ("sox", "s.caf", "-n s.caf synth 0.2 sine 440", "audio/x-caf"),
    ("sox", "s.flac", "-n s.flac synth 0.2 sine 440", "audio/flac"),
    ("sox", "s.ogg", "-n s.ogg synth 0.2 sine 440", "audio/ogg"),
    ("sox", "s.wav", "-n s.wav synth 0.2 sine 440", "audio/wav"),
    ("heif-enc", "h.heic", "src.png -o h.heic", "image/heic"),
    ("heif-enc", "h.heif", "src.png -o h.heif", "image/heic"),  # its brand says HEIC
    ("avifenc", "a.avif", "-s 10 src.png a.avif", "image/avif"),
    ("avifenc", "s.avifs", "-s 10 src.png src.png s.avifs", "image/avif"),  # a sequence
    ("cjxl", "j.jxl", "src.png j.jxl --quiet", "image/jxl"),
    ("cjxl", "c.jxl", "src.png c.jxl --container=1 --quiet", "image/jxl"),
    ("cwebp", "w.webp", "-quiet src.png -o w.webp", "image/webp"),
    ("cwebp", "l.webp", "-quiet -lossless src.png -o l.webp", "image/webp"),
    ("convert", "i.psd", "src.png i.psd", "image/vnd.adobe.photoshop"),
    ("convert", "i.ico", "src.png i.ico", "image/vnd.microsoft.icon"),
    ("convert", "i.tif", "src.png i.tif", "image/tiff"),
    ("convert", "i.bmp", "src.png i.bmp", "image/bmp"),
    ("convert", "i.jpg", "src.png i.jpg", "image/jpeg"),
    (
        "gs",
        "g.pdf",
        "-q -dNOPAUSE -dBATCH -sDEVICE=pdfwrite -sOutputFile=g.pdf -c showpage",
        "application/pdf",
    ),
    (
        "gs",
        "g.eps",
        "-q -dNOPAUSE -dBATCH -sDEVICE=eps2write -sOutputFile=g.eps -c showpage",
        "application/postscript",
    ),
    (
        "gs",
        "g.ps",
        "-q -dNOPAUSE -dBATCH -sDEVICE=ps2write -sOutputFile=g.ps -c showpage",
        "application/postscript",
    ),
]


@pytest.mark.parametrize(("tool", "name", "arguments", "expected"), ENCODED)
def test_detect_real_encoder_output(
    tmp_path: Path, tool: str, name: str, arguments: str, expected: str
) -> None:
    """Files written by real encoders are detected, with and without their name."""
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    if tool == "convert" and sys.platform == "win32":
        pytest.skip("convert.exe on Windows converts disks; it is not ImageMagick")
    Image.new("RGB", (16, 16), (10, 200, 10)).save(tmp_path / "src.png")
    prefix = [tool, "-hide_banner", "-loglevel", "error", "-y"] if tool == "ffmpeg" else [tool]
    command = prefix + arguments.split() + ([name] if tool == "ffmpeg" else [])
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, timeout=60, check=False)
    if result.returncode != 0 or not (tmp_path / name).exists():
        pytest.skip(f"{tool} could not write {name}: {result.stderr[-200:]!r}")
    assert detect((tmp_path / name).read_bytes()).media_type == expected
    assert detect(tmp_path / name).media_type == expected


@pytest.mark.parametrize(
    ("text", "filename", "expected"),
    [
        (
            b'<p align="center"><img src="logo.png"></p>\n\n# Project\n',
            "README.md",
            "text/markdown",
        ),
        (b'<p align="center"><img src="logo.png"></p>\n', None, "text/html"),
        (b"<html><body>x</body></html>", "page.md", "text/html"),
        (b'{"compilerOptions": {}, // comment\n}', "tsconfig.json", "application/json"),
        (b"id\tname\n1\tx\n", "export.csv", "text/csv"),
        (b"a,b\n1,2\n", "data.tsv", "text/tab-separated-values"),
        (b"---\ntitle: Post\n---\nHello\n", "post.md", "text/markdown"),
        (b"plain words only\n", "page.html", "text/html"),
        (b"\xef\xbb\xbfa;b\r\n1;2\r\n", "excel.csv", "text/csv"),
        (b'<textarea name="{{ name }}">\n{{ value }}</textarea>\n', "textarea.html", "text/html"),
        (b"<option value='1'>One</option>\n", "option.html", "text/html"),
        (b"<option value='1'>One</option>\n", None, "application/xml"),
        (b"<catalog><book/></catalog>", "books.xml", "application/xml"),
    ],
)
def test_detect_text_with_file_name(text: bytes, filename: str | None, expected: str) -> None:
    """Uncertain text sniffing (fragments, tables, plain) yields to a textual file name."""
    assert detect_media_type(text, filename=filename) == expected


@pytest.mark.parametrize(
    ("data", "filename", "expected"),
    [
        (ole2_file(("Root Entry", "1Table", "WordDocument")), None, "application/msword"),
        (ole2_file(("Root Entry", "Workbook")), None, "application/vnd.ms-excel"),
        (
            ole2_file(("Root Entry", "a", "b", "c"), ("PowerPoint Document",)),
            None,
            "application/vnd.ms-powerpoint",
        ),
        (ole2_file(("Root Entry", "Other")), None, "application/x-ole-storage"),
        (ole2_file(("Root Entry", "Other")), "mail.msg", "application/vnd.ms-outlook"),
        (ole2_file(("Root Entry", "WordDocument")), "sheet.xls", "application/msword"),
    ],
)
def test_detect_ole2_streams(data: bytes, filename: str | None, expected: str) -> None:
    """Legacy Office files are told apart by their directory's stream names."""
    assert detect_media_type(data, filename=filename) == expected


def test_detect_streamed_ooxml_from_pipe_inflates_to_next_header() -> None:
    """From a pipe, members written with data descriptors are skipped by inflating them."""
    members = [
        ("_rels/.rels", b"<Relationships/>" * 50),
        ("ppt/presentation.xml", b"<p/>"),
        ("ppt/media/image1.bin", os.urandom(3 * PREFIX_SIZE)),
    ]
    assert detect(Pipe(zip_bytes(members, streamed=True))).media_type == PPTX


@pytest.mark.parametrize(
    "text",
    [
        b"G" + b"o" * 187 + b"G" + b"o" * 50,
        b"Good morning. " * 14 + b"G" * 10,
        b".snd is an old audio format, they say.\n",
        b"#!/bin/sh\necho hi\n",
        b"fLaC is the marker that opens a FLAC file.\n",
        b"#!AMR is the first line of an AMR file.\n",
        b"#!AMR-WB is its wideband sibling.\n",
        b"ADIF stands for Audio Data Interchange Format.\n",
        b"%PDF-1.4 is the header of a PDF file, and an object follows it.\n",
    ],
)
def test_detect_text_with_weak_binary_markers_is_text(text: bytes) -> None:
    """Text that happens to carry a short marker (TS `G`, `.snd`, `fLaC`, `%PDF-`) stays text."""
    assert detect(text).kind == "file"
    assert detect(text).media_type.startswith("text/")


def test_detect_path_lends_its_name(tmp_path: Path) -> None:
    """A path's own name is the file name unless one is given."""
    path = tmp_path / "notes.md"
    path.write_bytes(b"just words\n")
    assert detect(path).media_type == "text/markdown"
    assert detect(path, filename="notes.txt").media_type == "text/plain"
    assert detect(path.read_bytes()).media_type == "text/plain"
