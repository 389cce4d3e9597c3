"""The one walker per container: RIFF chunks, PNG chunks, JPEG markers."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from mediaparts.formats import jpeg_segments, png_chunks, riff_chunks
from mediaparts.formats._png import strip_png
from mediaparts.formats._riff import strip_webp, webp_lossless, webp_size


def _chunk(tag: bytes, body: bytes) -> bytes:
    pad = b"\0" if len(body) & 1 else b""
    return tag + len(body).to_bytes(4, "little") + body + pad


def _riff(*chunks: bytes) -> bytes:
    body = b"WEBP" + b"".join(chunks)
    return b"RIFF" + len(body).to_bytes(4, "little") + body


def _saved(fmt: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (9, 5), (10, 200, 30)).save(buffer, fmt, **options)
    return buffer.getvalue()


def test_riff_chunks_pads_odd_lengths() -> None:
    """An odd-length chunk is followed by a pad byte the walk steps over."""
    data = _riff(_chunk(b"EXIF", b"abc"), _chunk(b"ICCP", b"wxyz"))
    assert [(tag, end - start) for tag, start, end in riff_chunks(data)] == [
        (b"EXIF", 12),
        (b"ICCP", 12),
    ]


def test_riff_chunks_leaves_a_lying_length_to_the_caller() -> None:
    """A chunk claiming more bytes than there are is yielded with its claimed end."""
    data = _riff(b"VP8 " + (1000).to_bytes(4, "little") + b"xx")
    ((tag, _, end),) = riff_chunks(data)
    assert tag == b"VP8 " and end > len(data)


@pytest.mark.parametrize(("options", "lossless"), [({"lossless": True}, True), ({}, False)])
def test_webp_lossless_reads_the_first_image_chunk(
    options: dict[str, object], lossless: bool
) -> None:
    """VP8L is lossless, VP8 is not; the size comes from the same first chunk."""
    data = _saved("WEBP", **options)
    assert webp_lossless(data) is lossless
    assert webp_size(data) == (9, 5)


def test_strip_webp_drops_exif_and_keeps_the_image() -> None:
    """EXIF goes, the image chunk stays, the RIFF size is rewritten."""
    image = _saved("WEBP", lossless=True)
    data = _riff(_chunk(b"EXIF", b"Exif\0\0abc"), image[12:])
    out = strip_webp(data)
    assert out == image
    assert [tag for tag, _, _ in riff_chunks(out)] == [b"VP8L"]


def test_strip_webp_refuses_a_chunk_past_the_end() -> None:
    """A chunk running past the file is malformed (ValueError, wrapped by the callers)."""
    with pytest.raises(ValueError, match="past the end"):
        strip_webp(_riff(b"VP8L" + (1000).to_bytes(4, "little") + b"xx"))


def test_png_chunks_end_with_iend() -> None:
    """The walk yields every chunk up to and with IEND, and stops there."""
    data = _saved("PNG") + b"trailing"
    tags = [tag for tag, _, _ in png_chunks(data)]
    assert tags[0] == b"IHDR" and tags[-1] == b"IEND" and b"IDAT" in tags


def test_strip_png_keeps_drawing_chunks_only() -> None:
    """tEXt goes; what draws the picture stays, byte for byte."""
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "secret")
    data = _saved("PNG", pnginfo=info)
    out = strip_png(data)
    assert b"secret" in data and b"secret" not in out
    assert out == _saved("PNG")


def test_jpeg_segments_walks_to_eoi() -> None:
    """The JPEG walker ends with EOI at the end of the file."""
    data = _saved("JPEG")
    segments = list(jpeg_segments(data))
    assert segments[-1] == (0xD9, len(data) - 2, len(data))
