"""Image dimensions from headers, and graceful failure on truncated ones.

`mediaparts.imaging.image_size` is what parts, uploads and `check` read: the format record's
header parser (`mediaparts.formats.header_size`), else Pillow reading the header.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from mediaparts import formats
from mediaparts.imaging import image_size


def _encode(fmt: str, size: tuple[int, int], mode: str = "RGB", **options: object) -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, "teal").save(buffer, format=fmt, **options)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("fmt", "media_type", "mode", "options"),
    [
        ("PNG", "image/png", "RGB", {}),
        ("GIF", "image/gif", "P", {}),
        ("JPEG", "image/jpeg", "RGB", {}),
        ("JPEG", "image/jpeg", "RGB", {"progressive": True}),
        ("WEBP", "image/webp", "RGB", {"lossless": False}),
        ("WEBP", "image/webp", "RGB", {"lossless": True}),
        ("WEBP", "image/webp", "RGBA", {"exif": b"Exif\x00\x00"}),  # VP8X
        ("BMP", "image/bmp", "RGB", {}),
        ("TIFF", "image/tiff", "RGB", {}),
    ],
)
@pytest.mark.parametrize("size", [(1, 1), (333, 77), (4000, 3)])
def test_image_size_from_header(
    fmt: str, media_type: str, mode: str, options: dict[str, object], size: tuple[int, int]
) -> None:
    """The header parsers give the encoded size for each format."""
    assert image_size(_encode(fmt, size, mode, **options), media_type) == size


def test_header_size_reads_only_headers() -> None:
    """`formats.header_size` uses header parsers alone: TIFF, which has none, is None there."""
    tiff = _encode("TIFF", (333, 77))
    assert formats.header_size(tiff, "image/tiff") is None
    assert image_size(tiff, "image/tiff") == (333, 77)
    assert formats.header_size(_encode("PNG", (333, 77)), "image/png") == (333, 77)


def test_image_size_top_down_bmp() -> None:
    """A BMP with negative height (top-down rows) reports a positive height."""
    raw = bytearray(_encode("BMP", (10, 20)))
    raw[22:26] = (-20).to_bytes(4, "little", signed=True)
    assert image_size(bytes(raw), "image/bmp") == (10, 20)


def test_image_size_heic(testdata: Path) -> None:
    """HEIC and AVIF sizes come from the ispe property, without pillow-heif."""
    assert image_size((testdata / "photo.heic").read_bytes(), "image/heic") is not None
    assert image_size((testdata / "image.avif").read_bytes(), "image/avif") is not None


@pytest.mark.parametrize(
    "media_type",
    ["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/heic", "image/tiff"],
)
@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x89PNG\r\n",
        b"\xff\xd8\xff\xe0\x00",
        b"RIFF\x00\x00\x00\x00WEBPVP8 ",
        b"BM" + b"\x00" * 12,
    ],
)
def test_image_size_truncated_is_none(media_type: str, data: bytes) -> None:
    """Truncated or foreign headers give None, never an exception."""
    assert image_size(data, media_type) is None


def test_image_size_damaged_avif_is_none(testdata: Path) -> None:
    """An AVIF whose item boxes are damaged (libavif raises RuntimeError) gives None."""
    data = (testdata / "image.avif").read_bytes()
    damaged = data.replace(b"iloc", b"iloX").replace(b"ispe", b"ispX")
    assert image_size(damaged, "image/avif") is None
