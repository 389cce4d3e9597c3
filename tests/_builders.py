"""Bytes the tests share: the testdata files, PNGs whose header claims any size, a heavy photo,
and the smallest compound file (legacy Office) and OpenDocument package detection tells apart.

Plain functions (no pytest), so the limits harness's child processes can import them too.
Pictures with real pixels come from `mediaparts.testing.MediaFactory` (the `media` fixture) or
from testdata/; what is here is what neither makes: headers that lie, and a photo's weight.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # no Pillow at import: the limits harness's children import this module
    from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
TESTDATA = ROOT / "testdata"
# Every image in testdata/, one of each format and quirk (see testdata/README.md).
IMAGES = [
    "photo.jpg",
    "upright.jpg",
    "progressive.jpg",
    "cmyk.jpg",
    "gray.jpg",
    "alpha.png",
    "palette.png",
    "gray16.png",
    "still.gif",
    "animated.gif",
    "animated.png",
    "lossy.webp",
    "lossless.webp",
    "animated.webp",
    "image.bmp",
    "image.tiff",
    "icon.ico",
    "photo.heic",
    "image.avif",
    "mislabelled.jpg",
]


def read(name: str) -> bytes:
    """Return the bytes of a testdata file."""
    return (TESTDATA / name).read_bytes()


def encode(image: Image.Image, format: str, **options: Any) -> bytes:
    """Return `image` encoded by Pillow in `format` ("PNG", "JPEG", ...) with `options`."""
    buffer = io.BytesIO()
    image.save(buffer, format=format, **options)
    return buffer.getvalue()


def camera_photo(width: int = 4000, height: int = 3000, grain: float = 10) -> bytes:
    """Return a photo with camera grain, at JPEG quality 100: as heavy as a phone's photo gets.

    The scene is testdata's upright.jpg enlarged; grain (Gaussian noise of `grain` levels in each
    channel) is what a JPEG cannot compress: 4000x3000 (12 MP) weighs about 12 MB.
    """
    from PIL import Image, ImageChops

    with Image.open(TESTDATA / "upright.jpg") as scene:
        enlarged = scene.convert("RGB").resize((width, height), Image.Resampling.BICUBIC)
    noise = Image.merge("RGB", [Image.effect_noise((width, height), grain) for _ in range(3)])
    return encode(ImageChops.add(enlarged, noise, offset=-128), "JPEG", quality=100)


def png_chunk(tag: bytes, body: bytes) -> bytes:
    """Return one PNG chunk: length, tag, body and CRC."""
    return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))


def png_header(width: int, height: int) -> bytes:
    """Return a small PNG whose IHDR claims `width` x `height` RGB pixels (a bomb when large).

    Its IDAT holds 1 KiB of zeros, too few for any but the smallest size, so decoding it fails.
    """
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(bytes(1024))
    return (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", ihdr)
        + png_chunk(b"IDAT", idat)
        + png_chunk(b"IEND", b"")
    )


def ole2_file(*directory_sectors: tuple[str, ...]) -> bytes:
    """A minimal compound file ([MS-CFB]) whose directory spans the given sectors."""
    header = bytearray(512)
    header[0:8] = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
    header[0x1E:0x20] = struct.pack("<H", 9)  # 512-byte sectors
    header[0x30:0x34] = struct.pack("<I", 1)  # the directory starts at sector 1
    header[0x4C:0x50] = struct.pack("<I", 0)  # the FAT is sector 0
    header[0x50:0x200] = b"\xff" * (0x200 - 0x50)
    count = len(directory_sectors)
    fat = [0xFFFFFFFD] + [n + 1 for n in range(1, count)] + [0xFFFFFFFE]
    sectors = [struct.pack(f"<{len(fat)}I", *fat).ljust(512, b"\xff")]
    for names in directory_sectors:
        entries = b""
        for name in names:
            encoded = (name + "\x00").encode("utf-16-le")
            entries += encoded.ljust(64, b"\x00") + struct.pack("<H", len(encoded)) + bytes(62)
        sectors.append(entries.ljust(512, b"\x00"))
    return bytes(header) + b"".join(sectors)


def odf_package(media_type: str) -> bytes:
    """An OpenDocument package (ODF 1.2 part 3, 3.3): its `mimetype` entry first, stored."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as package:
        package.writestr(zipfile.ZipInfo("mimetype"), media_type)
        package.writestr("content.xml", "<office:document-content/>")
        package.writestr("META-INF/manifest.xml", "<manifest:manifest/>")
    return buffer.getvalue()


# A model each built-in provider's tables know, for tests whose model is not the subject (an
# unknown one would warn: UnknownModelWarning).
KNOWN_MODELS = {
    "openai": "gpt-4o",
    "openai-responses": "gpt-4o",
    "anthropic": "claude-sonnet-4-5",
    "gemini": "gemini-2.5-flash",
    "bedrock": "anthropic.claude-3-5-sonnet-20241022-v2:0",
    "groq": "meta-llama/llama-4-scout-17b-16e-instruct",
    "azure-openai": "gpt-4o",  # a deployment named after its model
    "azure-openai-responses": "gpt-4o",
    "vertex": "gemini-2.5-flash",
    "anthropic-vertex": "claude-sonnet-4-5@20250929",
    "anthropic-bedrock": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "mistral": "mistral-small-latest",
}
