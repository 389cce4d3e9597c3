"""ZIP containers whose members do not say what they are fall back to the member names."""

from __future__ import annotations

import io
import zipfile

import pytest

from mediaparts.detection import detect

OOXML_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"


def _zip(*members: tuple[str, bytes, int]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data, method in members:
            archive.writestr(zipfile.ZipInfo(name), data, compress_type=method)
    return buffer.getvalue()


def _content_types(main: str) -> bytes:
    return (
        b'<?xml version="1.0"?><Types><Override PartName="/x" ContentType="'
        + main.encode()
        + b'"/></Types>'
    )


@pytest.mark.parametrize(
    ("members", "media_type"),
    [
        # A mimetype member in a compression we do not inflate (bzip2) is not read.
        ((("mimetype", b"application/epub+zip", zipfile.ZIP_BZIP2),), "application/zip"),
        # A mimetype that is not an application type is not believed.
        ((("mimetype", b"text/plain", zipfile.ZIP_STORED),), "application/zip"),
        ((("mimetype", b"application/epub+zip", zipfile.ZIP_DEFLATED),), "application/epub+zip"),
        # The first main part decides; an unknown one stops the search.
        (
            (("[Content_Types].xml", _content_types("application/x-unknown.main+xml"), 8),),
            "application/zip",
        ),
        (
            (("[Content_Types].xml", _content_types(OOXML_MAIN), zipfile.ZIP_DEFLATED),),
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        ),
        # Names alone: a macro-enabled workbook, an APK.
        (
            (("xl/workbook.xml", b"<x/>", 0), ("xl/vbaProject.bin", b"\0", 0)),
            "application/vnd.ms-excel.sheet.macroenabled.12",
        ),
        (
            (("AndroidManifest.xml", b"\0", 0), ("classes.dex", b"dex\n", 0)),
            "application/vnd.android.package-archive",
        ),
    ],
)
def test_office_zip_members_decide_or_fall_back(
    members: tuple[tuple[str, bytes, int], ...], media_type: str
) -> None:
    """Members' contents decide the type when readable and meaningful, else their names."""
    assert detect(_zip(*members)).media_type == media_type
