"""from_upload: framework objects, bytes over hints, accept, size and pixel caps, stripping."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import random
import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, cast

import pytest
from PIL import ExifTags, Image, ImageSequence
from PIL.PngImagePlugin import PngInfo

import mediaparts as mp
import mediaparts.imaging._probe as probe_module
from mediaparts import (
    AudioPart,
    FilePart,
    ImagePart,
    InvalidMedia,
    MediaError,
    MediaTooLarge,
    UnsupportedMediaType,
    VideoPart,
)
from mediaparts._upload import afrom_upload, from_upload
from mediaparts.testing import summarize
from tests._builders import TESTDATA, encode, png_header
from tests._builders import read as data

SECRET = b"SecretCam"
RED, BLUE = (255, 0, 0), (0, 0, 255)


class Counting(io.RawIOBase):
    """A binary stream that counts the bytes handed out, optionally in short reads."""

    def __init__(self, raw: bytes, most: int | None = None) -> None:
        self._inner = io.BytesIO(raw)
        self.count = 0
        self.most = most

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer)[: self.most or len(buffer)]
        n = self._inner.readinto(view)
        self.count += n
        return n


# -- framework objects --------------------------------------------------------------------


@pytest.fixture(scope="module")
def django_settings() -> None:
    """Minimal Django settings, enough for its uploaded-file classes."""
    pytest.importorskip("django")
    from django.conf import settings

    if not settings.configured:
        settings.configure(DEFAULT_CHARSET="utf-8", FILE_UPLOAD_TEMP_DIR=None)


def starlette(raw: bytes, name: str | None, ctype: str | None) -> Any:
    pytest.importorskip("starlette")
    from starlette.datastructures import Headers, UploadFile

    headers = Headers({"content-type": ctype}) if ctype else None
    return UploadFile(io.BytesIO(raw), filename=name, headers=headers, size=len(raw))


def fastapi(raw: bytes, name: str | None, ctype: str | None) -> Any:
    pytest.importorskip("fastapi")
    from fastapi import UploadFile
    from starlette.datastructures import Headers

    headers = Headers({"content-type": ctype}) if ctype else None
    return UploadFile(io.BytesIO(raw), filename=name, headers=headers)


def werkzeug(raw: bytes, name: str | None, ctype: str | None) -> Any:
    pytest.importorskip("werkzeug")
    from werkzeug.datastructures import FileStorage

    return FileStorage(io.BytesIO(raw), filename=name, content_type=ctype)


def django_simple(raw: bytes, name: str | None, ctype: str | None) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name or "", raw, content_type=ctype)


def django_memory(raw: bytes, name: str | None, ctype: str | None) -> Any:
    from django.core.files.uploadedfile import InMemoryUploadedFile

    return InMemoryUploadedFile(io.BytesIO(raw), "file", name, ctype, len(raw), None)


def plain(raw: bytes, name: str | None, ctype: str | None) -> Any:
    stream = io.BytesIO(raw)
    stream.name = name  # as an open() file has one
    return stream


FRAMEWORKS = [starlette, fastapi, werkzeug, django_simple, django_memory, plain]


@pytest.fixture(params=FRAMEWORKS, ids=lambda f: f.__name__)
def make_upload(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """Build an upload object of one framework from bytes, a file name and a content type."""
    if request.param.__name__.startswith("django"):
        request.getfixturevalue("django_settings")
    return request.param  # type: ignore[no-any-return]


def test_from_upload_framework_objects(make_upload: Callable[..., Any]) -> None:
    """Every framework's object is read; a PNG named .jpg and sent as image/jpeg is a PNG."""
    upload = make_upload(data("mislabelled.jpg"), "photo.jpg", "image/jpeg")
    part = from_upload(upload)
    assert isinstance(part, ImagePart)
    assert (part.media_type, part.filename, part.width) == ("image/png", "photo.jpg", 64)
    said = None if make_upload is plain else "image/jpeg"  # a plain file carries no type
    assert part.metadata.get("client_content_type") == said
    assert part.metadata["client_filename"] == "photo.jpg"


def test_from_upload_framework_position_restored(make_upload: Callable[..., Any]) -> None:
    """The upload is not closed and can be read again from where it was."""
    raw = data("upright.jpg")
    upload = make_upload(raw, "a.jpg", "image/jpeg")
    from_upload(upload)
    stream = getattr(upload, "file", None) or getattr(upload, "stream", upload)
    assert not stream.closed
    assert stream.read() == raw


def test_from_upload_framework_empty(make_upload: Callable[..., Any]) -> None:
    """An empty upload is invalid, not an octet-stream part, said as every empty source says it."""
    said = r"^the upload 'a.png' is empty \(0 bytes\); choose a file that holds the media$"
    with pytest.raises(InvalidMedia, match=said):
        from_upload(make_upload(b"", "a.png", "image/png"))


# -- detection and accept -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "accept", "cls", "media_type"),
    [
        ("photo.jpg", "image/*", ImagePart, "image/jpeg"),
        ("document.pdf", ("image/*", "application/pdf"), FilePart, "application/pdf"),
        ("notes.txt", "text/plain", FilePart, "text/plain"),
        ("tone.wav", "audio/*", AudioPart, "audio/wav"),
        ("clip.mp4", "video/*", VideoPart, "video/mp4"),
        ("lossy.webp", ["image/jpeg", "image/webp"], ImagePart, "image/webp"),
        ("upright.jpg", "image/jpg", ImagePart, "image/jpeg"),  # patterns are canonicalised
        ("drawing.svg", "image/svg+xml", FilePart, "image/svg+xml"),
        ("data.csv", "*/*", FilePart, "text/csv"),
    ],
)
def test_from_upload_part_class_by_bytes(
    name: str, accept: Any, cls: type, media_type: str
) -> None:
    """The part class and media type follow the bytes, within the accepted patterns."""
    part = from_upload(io.BytesIO(data(name)), accept=accept)
    assert type(part) is cls
    assert part.media_type == media_type


@pytest.mark.parametrize(
    ("name", "filename", "ctype", "accept", "detected"),
    [
        ("notes.txt", "evil.png", "image/png", ("image/*", "application/pdf"), "text/plain"),
        ("drawing.svg", "logo.svg", "image/svg+xml", ("image/*",), "image/svg+xml"),
        ("document.pdf", "scan.jpg", "image/jpeg", ("image/*",), "application/pdf"),
        ("photo.jpg", "photo.jpg", "image/jpeg", ("image/png",), "image/jpeg"),
    ],
)
def test_from_upload_accept_refuses(
    name: str, filename: str, ctype: str, accept: tuple[str, ...], detected: str
) -> None:
    """The detected type (not the name or content type) is checked; the error names both sides."""
    with pytest.raises(UnsupportedMediaType) as info:
        from_upload(werkzeug(data(name), filename, ctype), accept=accept)
    assert info.value.media_type == detected
    assert info.value.accepted == accept
    assert detected in str(info.value)
    assert all(pattern in str(info.value) for pattern in accept)


# -- size caps ----------------------------------------------------------------------------


@pytest.mark.parametrize("most", [None, 7, 4096])
def test_from_upload_oversized_reads_at_most_limit_plus_one(most: int | None) -> None:
    """A 5 MB upload against a 1000-byte cap reads no more than 1001 bytes, even in short reads."""
    stream = Counting(b"\x89PNG\r\n\x1a\n" + bytes(5 * 2**20), most=most)
    with pytest.raises(MediaTooLarge, match="1,000") as info:
        from_upload(stream, max_bytes=1000)
    assert stream.count <= 1001
    assert info.value.limit == 1000


def test_from_upload_oversized_short_reads_complete() -> None:
    """A stream that returns short reads is read to its end, not cut at the first chunk."""
    raw = data("upright.jpg")
    assert from_upload(Counting(raw, most=100)).data == raw


@pytest.mark.parametrize("attr", ["size", "content_length"])
def test_from_upload_declared_size_refused_before_reading(attr: str) -> None:
    """A declared size over the cap (Django's size, Content-Length) is refused with nothing read."""
    stream = Counting(data("upright.jpg"))
    setattr(stream, attr, 10**9)
    with pytest.raises(MediaTooLarge, match="1,000,000,000 bytes"):
        from_upload(stream)
    assert stream.count == 0


def test_from_upload_declared_size_django(django_settings: None) -> None:
    """Django's UploadedFile.size is checked before its file is read."""
    upload = django_simple(bytes(2000), "big.png", "image/png")
    with pytest.raises(MediaTooLarge):
        from_upload(upload, max_bytes=1000)
    assert upload.tell() == 0


def jpeg_header(width: int, height: int) -> bytes:
    """A JPEG whose SOF0 claims `width` x `height`, with no scan."""
    sof = struct.pack(">BHHB", 8, height, width, 3) + b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    app0 = b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    return (
        b"\xff\xd8\xff\xe0"
        + struct.pack(">H", len(app0) + 2)
        + app0
        + b"\xff\xc0"
        + struct.pack(">H", len(sof) + 2)
        + sof
        + b"\xff\xd9"
    )


@pytest.mark.parametrize("strip", [True, False])
@pytest.mark.parametrize(
    ("raw", "pixels"),
    [
        (png_header(60000, 60000), "3,600,000,000"),
        (jpeg_header(65000, 65000), "4,225,000,000"),
        (png_header(40000, 40000), "1,600,000,000"),
    ],
    ids=["png-60000", "jpeg-65000", "png-40000"],
)
def test_from_upload_bomb_refused_before_decoding(
    raw: bytes, pixels: str, strip: bool, no_decoding: None
) -> None:
    """A header claiming gigapixels is refused from the header, before any decode."""
    with pytest.raises(MediaTooLarge, match=pixels) as info:
        from_upload(io.BytesIO(raw), strip_metadata=strip)
    assert "50,000,000" in str(info.value)
    assert info.value.limit == 50_000_000


def test_from_upload_animation_frames_count_towards_the_cap() -> None:
    """Every frame of an animation counts: 3 frames of 160x120 exceed a 50,000-pixel cap."""
    assert from_upload(io.BytesIO(data("animated.gif")), strip_metadata=False, max_pixels=20_000)
    with pytest.raises(MediaTooLarge, match="3 frames"):
        from_upload(io.BytesIO(data("animated.gif")), max_pixels=50_000)


def gif_growing(width: int, height: int) -> bytes:
    """A GIF whose header and first frame are 10x10 and whose second frame is larger."""
    buffer = io.BytesIO()
    Image.new("P", (width, height)).save(buffer, "GIF")
    big = buffer.getvalue()
    small = bytearray(big[: big.index(b",", 13)])  # header, screen and palette
    small[6:10] = struct.pack("<HH", 10, 10)
    buffer = io.BytesIO()
    Image.new("P", (10, 10), 1).save(buffer, "GIF")
    tiny = buffer.getvalue()
    control = b"!\xf9\x04\x00\x05\x00\x00\x00"  # graphic control: 50 ms
    first = tiny[tiny.index(b",", 13) : -1]
    second = big[big.index(b",", 13) : -1]
    return bytes(small) + control + first + control + second + b";"


@pytest.mark.parametrize(
    ("width", "pixels"),
    [
        (8000, "64,000,100 pixels"),
        pytest.param(20000, "more pixels than Pillow opens", marks=pytest.mark.slow),  # 400 MP
    ],
)
def test_from_upload_gif_frame_growing_the_canvas_refused(width: int, pixels: str) -> None:
    """A later GIF frame past the 10x10 header is counted before it is decoded."""
    raw = gif_growing(width, width)
    assert len(raw) < 300_000
    header = from_upload(io.BytesIO(raw), strip_metadata=False)
    assert isinstance(header, mp.ImagePart) and header.width == 10  # as the header says
    with pytest.raises(MediaTooLarge, match=f"2 frames hold {pixels}") as info:
        from_upload(io.BytesIO(raw))
    assert info.value.limit == 50_000_000


# -- stripping ----------------------------------------------------------------------------


def secret_exif(orientation: int | None = None) -> Image.Exif:
    """EXIF with a camera make, GPS coordinates and optionally an orientation."""
    exif = Image.Exif()
    exif[ExifTags.Base.Make] = SECRET.decode()
    if orientation is not None:
        exif[ExifTags.Base.Orientation] = orientation
    gps = exif.get_ifd(ExifTags.IFD.GPSInfo)
    gps[ExifTags.GPS.GPSLatitudeRef] = "N"
    gps[ExifTags.GPS.GPSLatitude] = (51.0, 28.0, 40.0)
    return exif


def card(width: int = 96, height: int = 64) -> Image.Image:
    """An upright picture with a red top-left and a blue top-right corner."""
    image = Image.new("RGB", (width, height), (128, 128, 128))
    image.paste(RED, (0, 0, 16, 16))
    image.paste(BLUE, (width - 16, 0, width, 16))
    return image


XMP = b'<x:xmpmeta xmlns:x="adobe:ns:meta/">SecretCam</x:xmpmeta>'


def png_with_text() -> bytes:
    info = PngInfo()
    info.add_text("Comment", SECRET.decode())
    info.add_itxt("XML:com.adobe.xmp", XMP.decode())
    info.add_text("Software", SECRET.decode(), zip=True)
    return encode(card(), "PNG", pnginfo=info, exif=secret_exif())


TAGGED: dict[str, Callable[[], bytes]] = {
    "jpeg": lambda: encode(card(), "JPEG", exif=secret_exif(), comment=SECRET, xmp=XMP),
    "jpeg-rotated": lambda: encode(
        card().transpose(Image.Transpose.ROTATE_90), "JPEG", exif=secret_exif(6), comment=SECRET
    ),
    "png": png_with_text,
    "png-rotated": lambda: encode(
        card().transpose(Image.Transpose.ROTATE_90), "PNG", exif=secret_exif(6)
    ),
    "webp": lambda: encode(card(), "WEBP", exif=secret_exif(), xmp=XMP, quality=90),
    "webp-lossless": lambda: encode(card(), "WEBP", exif=secret_exif(), lossless=True),
    "gif": lambda: encode(card().convert("P"), "GIF", comment=SECRET),
    "tiff": lambda: encode(card(), "TIFF", exif=secret_exif()),
}


def assert_clean(raw: bytes) -> Image.Image:
    """Check that no metadata is left, by bytes and by what Pillow reads; return the image."""
    assert SECRET not in raw
    image = Image.open(io.BytesIO(raw))
    exif = image.getexif()
    assert not dict(exif), dict(exif)
    assert not exif.get_ifd(ExifTags.IFD.GPSInfo)
    assert not {"exif", "xmp", "comment", "XML:com.adobe.xmp"} & set(image.info)
    assert not getattr(image, "text", {})
    return image


def corners(image: Image.Image) -> tuple[tuple[int, ...], tuple[int, ...]]:
    rgb = image.convert("RGB")
    return rgb.getpixel((4, 4)), rgb.getpixel((rgb.width - 5, 4))  # type: ignore[return-value]


def near(pixel: tuple[int, ...], colour: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 40 for a, b in zip(pixel, colour, strict=True))


@pytest.mark.parametrize("name", list(TAGGED))
def test_from_upload_strip_removes_exif_gps_xmp_comments(name: str) -> None:
    """EXIF (with GPS), XMP, comments and text chunks are gone, and the picture is upright."""
    raw = TAGGED[name]()
    assert SECRET in raw  # the fixture really carries the metadata
    part = from_upload(io.BytesIO(raw))
    image = assert_clean(part.data)
    assert image.size == (96, 64)
    red, blue = corners(image)
    assert near(red, RED) and near(blue, BLUE), (red, blue)


def test_from_upload_animation_frames_count_when_kept_losslessly() -> None:
    """APNG and animated WebP frames count against the cap even when not re-encoded."""
    for name in ("animated.png", "animated.webp"):
        with pytest.raises(MediaTooLarge, match="3 frames"):
            from_upload(io.BytesIO(data(name)), max_pixels=50_000)


@pytest.mark.parametrize("name", ["jpeg", "png", "webp", "webp-lossless"])
def test_from_upload_strip_is_lossless_when_upright(name: str) -> None:
    """Upright JPEG, PNG and WebP lose their metadata without being re-encoded: same pixels."""
    raw = TAGGED[name]()
    stripped = from_upload(io.BytesIO(raw)).data
    assert len(stripped) < len(raw)
    assert Image.open(io.BytesIO(stripped)).tobytes() == Image.open(io.BytesIO(raw)).tobytes()


def test_from_upload_strip_photo_upright() -> None:
    """testdata/photo.jpg (orientation 6, camera tags) comes out 480x640, upright, tag-free."""
    raw = data("photo.jpg")
    assert b"Fixture Camera 1" in raw
    part = from_upload(io.BytesIO(raw))
    assert b"Fixture Camera 1" not in part.data
    image = Image.open(io.BytesIO(part.data))
    assert image.size == (480, 640)
    assert not dict(image.getexif())
    red, blue = corners(image)
    assert near(red, RED) and near(blue, BLUE), (red, blue)
    assert part.size is not None and part.size < len(raw) * 1.2  # re-encoded with its own tables


@pytest.mark.parametrize("name", ["animated.gif", "animated.png", "animated.webp"])
def test_from_upload_strip_keeps_frames(name: str) -> None:
    """Animations keep every frame and their format."""
    part = from_upload(io.BytesIO(data(name)))
    image = Image.open(io.BytesIO(part.data))
    assert part.media_type == ImagePart.from_path(TESTDATA / name).media_type
    assert len(list(ImageSequence.Iterator(image))) == 3


def test_from_upload_strip_animated_gif_comment() -> None:
    """An animated GIF's comment is dropped and its frames kept."""
    frames = [card(), card().transpose(Image.Transpose.FLIP_TOP_BOTTOM)]
    raw = encode(frames[0], "GIF", save_all=True, append_images=frames[1:], comment=SECRET)
    part = from_upload(io.BytesIO(raw))
    assert SECRET not in part.data
    assert getattr(Image.open(io.BytesIO(part.data)), "n_frames", 1) == 2


def test_from_upload_strip_false_keeps_bytes() -> None:
    """strip_metadata=False returns the bytes exactly as uploaded."""
    raw = TAGGED["jpeg"]()
    assert from_upload(io.BytesIO(raw), strip_metadata=False).data == raw


@pytest.mark.parametrize("name", ["photo.heic", "image.avif"])
def test_from_upload_strip_heif_becomes_jpeg(name: str) -> None:
    """HEIC and AVIF are re-encoded as JPEG (what providers take), upright and tag-free."""
    if name.endswith(".heic"):
        pytest.importorskip("pillow_heif")
    part = from_upload(io.BytesIO(data(name)))
    assert part.media_type == "image/jpeg"
    assert Image.open(io.BytesIO(part.data)).size == (320, 240)


def test_from_upload_strip_heic_without_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without pillow-heif, stripping HEIC is refused with what to do; strip=False keeps it."""
    monkeypatch.setattr(probe_module, "_plugin", lambda record: "reading it needs pillow-heif")
    raw = data("photo.heic")
    with pytest.raises(UnsupportedMediaType, match=r"pillow-heif.*strip_metadata=False"):
        from_upload(io.BytesIO(raw))
    assert from_upload(io.BytesIO(raw), strip_metadata=False).data == raw


def test_from_upload_heic_without_pillow_heif_is_codec_unavailable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server without pillow-heif raises CodecUnavailable (naming the extra), not the file."""
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # makes `import pillow_heif` fail
    with pytest.raises(mp.CodecUnavailable, match=r"mediaparts' \[heif\] extra") as caught:
        from_upload(io.BytesIO(data("photo.heic")))
    assert isinstance(caught.value, UnsupportedMediaType)  # old `except` clauses still catch it
    assert (caught.value.package, caught.value.extra) == ("pillow-heif", "heif")
    assert caught.value.media_type == "image/heic"


def test_from_upload_unsupported_file_is_not_codec_unavailable() -> None:
    """A type the call does not take is UnsupportedMediaType, never CodecUnavailable."""
    with pytest.raises(UnsupportedMediaType) as caught:
        from_upload(io.BytesIO(data("tone.wav")))
    assert not isinstance(caught.value, mp.CodecUnavailable)


def truncated_idat() -> bytes:
    raw = data("palette.png")
    start = raw.index(b"IDAT") + 8
    return raw[:start] + bytes(20) + raw[start + 20 :]


@pytest.mark.parametrize(
    "raw",
    [
        data("upright.jpg")[:4000],
        b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(200),
        data("alpha.png")[:5000],
        truncated_idat(),
        data("lossy.webp")[:2000],
        png_header(64, 48),
    ],
    ids=["jpeg-cut", "jpeg-junk", "png-cut", "png-bad-idat", "webp-cut", "png-empty"],
)
def test_from_upload_corrupt_image_invalid(raw: bytes) -> None:
    """Truncated or corrupt images raise InvalidMedia when stripped (they are decoded)."""
    with pytest.raises(InvalidMedia):
        from_upload(io.BytesIO(raw))


@pytest.mark.parametrize(
    ("boxes", "strip"),
    [
        ((b"pitm",), True),
        ((b"iloc",), True),
        ((b"iinf",), True),
        ((b"iloc", b"ispe"), False),  # no size in the header: Pillow is asked for it
        ((b"iinf", b"ispe"), False),
    ],
)
def test_from_upload_avif_without_image_item_invalid(boxes: tuple[bytes, ...], strip: bool) -> None:
    """An AVIF whose header loses its image item (libavif's RuntimeError) is InvalidMedia."""
    raw = data("image.avif")
    for box in boxes:
        raw = raw.replace(box, b"xxxx", 1)
    with pytest.raises(InvalidMedia, match="image/avif"):
        from_upload(io.BytesIO(raw), strip_metadata=strip)


# -- names, arguments, streams ------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("photo.png", "photo.png"),
        ("../../etc/passwd.png", "passwd.png"),
        ("C:\\Users\\bob\\Desktop\\cat.png", "cat.png"),
        ("a\x00b\nc\x1b.png", "abc.png"),
        ("\u202egnp.exe", "gnp.exe"),
        ("  spaced.png ", "spaced.png"),
        ("", None),
        ("..", None),
        ("dir/", None),
        (None, None),
    ],
)
def test_from_upload_filename_sanitised(given: str | None, kept: str | None) -> None:
    """Only the final path component is kept, without control characters."""
    part = from_upload(werkzeug(data("mislabelled.jpg"), given, None))
    assert part.filename == kept


@pytest.mark.parametrize(
    "options",
    [
        {"max_bytes": 0},
        {"max_bytes": -1},
        {"max_bytes": True},
        {"max_bytes": "10"},
        {"max_pixels": 0},
        {"accept": ["jpeg"]},
        {"accept": [".png"]},
        {"accept": [None]},
        {"accept": None},
    ],
)
def test_from_upload_bad_arguments(options: dict[str, Any]) -> None:
    """Bad limits or patterns raise InvalidMedia naming the argument."""
    with pytest.raises(InvalidMedia, match=next(iter(options))):
        from_upload(io.BytesIO(data("upright.jpg")), **options)


def test_from_upload_offset_position_kept() -> None:
    """A stream positioned past its start is read from there and put back there."""
    raw = b"header" + data("upright.jpg")
    stream = io.BytesIO(raw)
    stream.seek(6)
    assert from_upload(stream).data == raw[6:]
    assert stream.tell() == 6


class Broken(io.RawIOBase):
    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise OSError("connection reset")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: io.StringIO("text"), "text mode"),
        (Broken, "connection reset"),
        (lambda: object(), "binary file object"),
    ],
)
def test_from_upload_unreadable(make: Callable[[], Any], message: str) -> None:
    """Text streams, failing reads and non-files raise InvalidMedia."""
    with pytest.raises(InvalidMedia, match=message):
        from_upload(make())


def test_from_upload_closed_file(tmp_path: Path) -> None:
    """A closed file raises InvalidMedia."""
    path = tmp_path / "a.jpg"
    path.write_bytes(data("upright.jpg"))
    with path.open("rb") as f:
        pass
    with pytest.raises(InvalidMedia):
        from_upload(f)


def test_from_upload_real_file(tmp_path: Path) -> None:
    """A file opened from disk is read, its base name kept, and it stays open."""
    path = tmp_path / "cat.png"
    path.write_bytes(data("mislabelled.jpg"))
    with path.open("rb") as f:
        part = from_upload(f)
        assert not f.closed and f.tell() == 0
    assert (part.filename, part.media_type) == ("cat.png", "image/png")


# -- async --------------------------------------------------------------------------------


def test_afrom_upload_starlette() -> None:
    """The async path awaits UploadFile.read(), strips, and puts the position back."""
    upload = starlette(data("photo.jpg"), "photo.jpg", "image/jpeg")
    part = asyncio.run(afrom_upload(upload))
    assert isinstance(part, ImagePart) and (part.width, part.height) == (480, 640)
    assert upload.file.tell() == 0


def test_afrom_upload_oversized_reads_at_most_limit_plus_one() -> None:
    """The async path reads no more than max_bytes + 1 from an UploadFile."""
    pytest.importorskip("starlette")
    from starlette.datastructures import UploadFile

    stream = Counting(bytes(3 * 2**20), most=1000)
    with pytest.raises(MediaTooLarge):
        # A RawIOBase is a binary file; typeshed's BinaryIO is a class it does not inherit.
        asyncio.run(afrom_upload(UploadFile(cast(BinaryIO, stream)), max_bytes=5000))
    assert stream.count <= 5001


def test_afrom_upload_sync_object() -> None:
    """A sync file object works with the async function too (read in a worker thread)."""
    part = asyncio.run(afrom_upload(io.BytesIO(data("mislabelled.jpg")), accept="image/png"))
    assert part.media_type == "image/png"


def test_from_upload_async_only_object() -> None:
    """An object with only an async read() tells the caller to use afrom_upload."""

    class AsyncOnly:
        async def read(self, size: int = -1) -> bytes:
            return b""

    with pytest.raises(InvalidMedia, match="afrom_upload"):
        from_upload(AsyncOnly())


MUTABLE = ["photo.jpg", "progressive.jpg", "alpha.png", "animated.gif", "animated.png"]
MUTABLE += ["lossy.webp", "animated.webp", "image.tiff", "image.avif", "document.pdf"]


@pytest.mark.parametrize("seed", range(4))
def test_from_upload_mutated_files_raise_library_errors(seed: int) -> None:
    """Randomly damaged files either load or raise an mp.MediaError, never anything else."""
    rng = random.Random(seed)
    for _ in range(100):
        raw = bytearray(data(rng.choice(MUTABLE)))
        for _ in range(rng.randint(1, 6)):
            if len(raw) < 2:
                break
            at = rng.randrange(1, len(raw))
            if rng.random() < 0.7:
                raw[at] = rng.randrange(256)
            else:
                del raw[at:]
        with contextlib.suppress(MediaError):
            from_upload(io.BytesIO(bytes(raw)), accept="*/*")


# -- trust: only the bytes identify a type ------------------------------------------------


def noise(size: int = 4096, seed: int = 0) -> bytes:
    """Random bytes: what encrypted, compressed or deliberately junk uploads look like."""
    return random.Random(seed).randbytes(size)


DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.mark.parametrize(
    ("filename", "ctype", "accept"),
    [
        ("report.pdf", None, ("image/*", "application/pdf")),
        (None, "application/pdf", ("image/*", "application/pdf")),
        ("report.pdf", "application/pdf", ("image/*", "application/pdf")),
        ("song.mp3", None, ("audio/*",)),
        ("clip.mp4", "video/mp4", ("video/*",)),
        ("tone.wav", None, ("audio/*",)),
        ("notes.txt", "text/plain", ("text/plain",)),
        ("letter.docx", DOCX, (DOCX,)),
        ("photo.png", "image/png", ("application/*", "image/*")),
    ],
)
def test_from_upload_unidentified_bytes_refused(
    filename: str | None, ctype: str | None, accept: tuple[str, ...]
) -> None:
    """Bytes that identify no type are refused whatever the client's name or type claims."""
    with pytest.raises(UnsupportedMediaType, match="could not be identified") as info:
        from_upload(werkzeug(noise(), filename, ctype), accept=accept)
    assert info.value.media_type == "application/octet-stream"
    assert info.value.accepted == accept
    assert all(claim in str(info.value) for claim in (filename, ctype) if claim)


@pytest.mark.parametrize("accept", ["*/*", "application/octet-stream"])
def test_from_upload_unidentified_bytes_taken_only_as_octet_stream(accept: str) -> None:
    """With "*/*" or octet-stream accepted, unidentified bytes are octet-stream, not the claim.

    The part has no file name, since a part's name would type it; the client's is in metadata.
    """
    part = from_upload(werkzeug(noise(), "report.pdf", "application/pdf"), accept=accept)
    assert type(part) is FilePart
    assert (part.media_type, part.filename) == ("application/octet-stream", None)
    assert part.metadata == {
        "client_filename": "report.pdf",
        "client_content_type": "application/pdf",
    }


@pytest.mark.parametrize(
    "raw",
    [
        noise(64),
        noise(4096, seed=1),
        noise(300_000, seed=2),
        b"\xef\xbb\xbf" + noise(seed=3),
        b"\xff\xfe" + noise(seed=4),
        b"\xfe\xff" + noise(seed=5),
        b"\xff\xfe\x00\x00" + noise(seed=6),
        zlib.compress(noise(seed=7)),
        bytes(b | 0x80 for b in noise(seed=8)),
    ],
    ids=[
        "64B",
        "4KiB",
        "300KB",
        "utf8-bom",
        "utf16le-bom",
        "utf16be-bom",
        "utf32-bom",
        "zlib",
        "high",
    ],
)
def test_from_upload_noise_is_not_text(raw: bytes) -> None:
    """Content sniffing calls no binary noise text, so a .txt name does not make it text."""
    with pytest.raises(UnsupportedMediaType, match="could not be identified"):
        from_upload(werkzeug(raw, "notes.txt", "text/plain"), accept="text/*")


@pytest.mark.parametrize(
    ("raw", "filename", "ctype", "accept", "media_type"),
    [
        (
            b"just some words\nand a second line\n",
            "notes.md",
            None,
            "text/markdown",
            "text/markdown",
        ),
        (b"alpha\nbeta\ngamma\n", "column.csv", "text/csv", "text/*", "text/csv"),
        (b"plain words, nothing more\n", None, "text/markdown", "text/*", "text/markdown"),
        (b"plain words, nothing more\n", "a.txt", None, "text/plain", "text/plain"),
    ],
)
def test_from_upload_text_named_by_the_client(
    raw: bytes, filename: str | None, ctype: str | None, accept: str, media_type: str
) -> None:
    """Bytes that are text may be named a text dialect (.md, .csv) by the client's hint."""
    part = from_upload(werkzeug(raw, filename, ctype), accept=accept)
    assert (type(part), part.media_type, part.data) == (FilePart, media_type, raw)


# -- trust: the client's name and type are made safe --------------------------------------


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("a\ud800b.png", "ab.png"),
        ("\udcff\udcfe.png", ".png"),
        ("a\u2028b\u2029c.png", "abc.png"),
        ("a\ue000\U0010fffe.png", "a.png"),
        ("..\ud800/cat.png", "cat.png"),
        (".\ud800.", None),
    ],
)
def test_from_upload_filename_unencodable_dropped(given: str, kept: str | None) -> None:
    """Lone surrogates, private and unassigned code points and line separators are dropped."""
    part = from_upload(werkzeug(data("mislabelled.jpg"), given, None))
    assert part.filename == kept
    json.dumps(part.metadata, ensure_ascii=False).encode()


@pytest.mark.parametrize("name", ["a\ud800b.pdf", "\ud83d.pdf", "x\udfff\u2028.pdf"])
def test_from_upload_surrogate_name_payloads_encode(name: str) -> None:
    """A name with lone surrogates yields a part and payloads that encode as UTF-8 JSON."""
    part = from_upload(werkzeug(data("document.pdf"), name, "application/pdf\ud800"))
    json.dumps(part.to_dict(), ensure_ascii=False).encode()
    for provider in mp.providers.names():
        if "application/pdf" not in mp.providers.get(provider).rules.file.media_types:
            continue  # refused, the name unsaid (the refusal tests cover it)
        payload = summarize(mp.render([part], provider))  # Bedrock's raw bytes described
        json.dumps(payload, ensure_ascii=False).encode()


@pytest.mark.parametrize(
    ("given", "ends"),
    [("x" * 300 + ".png", ".png"), ("é" * 200 + ".png", "é.png"), ("😀" * 100 + ".png", "😀.png")],
)
def test_from_upload_filename_bounded_in_bytes(given: str, ends: str) -> None:
    """A long name is cut from its start to 255 UTF-8 bytes, keeping its extension."""
    part = from_upload(werkzeug(data("mislabelled.jpg"), given, None))
    assert part.filename is not None and part.filename.endswith(ends)
    assert 250 <= len(part.filename.encode()) <= 255


def test_from_upload_huge_client_hints_bounded() -> None:
    """A name and content type of a million characters each are kept bounded."""
    name = "a/" * 500_000 + "photo.png"
    ctype = "image/png; " + "x" * 1_000_000
    part = from_upload(werkzeug(data("mislabelled.jpg"), name, ctype))
    assert part.filename == "photo.png"
    assert len(part.metadata["client_filename"]) == 1024
    assert part.metadata["client_filename"].endswith("a/photo.png")
    assert part.metadata["client_content_type"] == "image/png"


def test_from_upload_form_field_name_is_not_a_filename() -> None:
    """Werkzeug's `.name` (the form field) is not taken for a missing `.filename`."""
    pytest.importorskip("werkzeug")
    from werkzeug.datastructures import FileStorage

    upload = FileStorage(io.BytesIO(data("mislabelled.jpg")), filename=None, name="avatar.gif")
    part = from_upload(upload)
    assert part.filename is None
    assert "client_filename" not in part.metadata


# -- trust: the application's patterns and the stream's answers ----------------------------


@pytest.mark.parametrize("accept", [[], ["*/png"], ["image/"], ["/png"], ["image /png"], "a/b c"])
def test_from_upload_accept_patterns_that_match_nothing(accept: Any) -> None:
    """Patterns that could never match (or none at all) are a mistake, named as InvalidMedia."""
    with pytest.raises(InvalidMedia, match="accept"):
        from_upload(io.BytesIO(data("upright.jpg")), accept=accept)


@pytest.mark.parametrize(("accept", "taken"), [("IMAGE/*", True), ("image/png; q=0.5", False)])
def test_from_upload_accept_patterns_canonicalised(accept: str, taken: bool) -> None:
    """Patterns are lower-cased and lose their parameters before matching."""
    if taken:
        assert from_upload(io.BytesIO(data("upright.jpg")), accept=accept)
    else:
        with pytest.raises(UnsupportedMediaType, match=r"accepted: image/png$"):
            from_upload(io.BytesIO(data("upright.jpg")), accept=accept)


class Greedy:
    """A stream whose read() ignores its argument and hands over everything at once."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw

    def read(self, size: int = -1) -> bytes:
        raw, self.raw = self.raw, b""
        return raw


def test_from_upload_read_more_than_asked_kept_to_the_cap() -> None:
    """A read() returning more than asked is taken whole within the cap, cut at cap + 1 past it."""
    raw = data("upright.jpg")
    assert from_upload(Greedy(raw), max_bytes=len(raw)).data == raw
    with pytest.raises(MediaTooLarge) as info:
        from_upload(Greedy(b"\x89PNG\r\n\x1a\n" + bytes(5 * 2**20)), max_bytes=1000)
    assert info.value.size == 1001


def test_from_upload_read_returning_a_coroutine() -> None:
    """A sync read() that returns a coroutine says to use afrom_upload, and closes it."""

    class Wrapped:
        def __init__(self) -> None:
            self.inner = io.BytesIO(data("upright.jpg"))

        async def _read(self, size: int) -> bytes:
            return self.inner.read(size)

        def read(self, size: int = -1) -> Any:
            return self._read(size)

    with pytest.raises(InvalidMedia, match="afrom_upload"):
        from_upload(Wrapped())


def test_afrom_upload_hanging_read_can_be_cancelled() -> None:
    """An async read() that never returns is cancelled by the caller's timeout; position restored."""

    class Stalled:
        def __init__(self) -> None:
            self.file = io.BytesIO(b"12345")
            self.file.seek(3)

        async def read(self, size: int = -1) -> bytes:
            await asyncio.Event().wait()
            return b""

    upload = Stalled()

    async def run() -> None:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(afrom_upload(upload), timeout=0.05)

    asyncio.run(run())
    assert upload.file.tell() == 3


WORDS = "The quick brown fox jumps over the lazy dog, again and again.\n"
CJK = "敏捷的棕色狐狸跳过了懒狗。一次又一次。\n"


@pytest.mark.parametrize(
    "raw",
    [
        (WORDS * 3000).encode(),
        (CJK * 4000).encode(),
        ("Café crème, déjà vu.\n" * 8000).encode("latin-1"),
        b"\xef\xbb\xbf" + (CJK * 4000).encode(),
        b"\xff\xfe" + (CJK * 4000).encode("utf-16-le"),
        b"\xfe\xff" + (WORDS * 3000).encode("utf-16-be"),
        (WORDS * 3000).encode("utf-16-le"),
        b"\xff\xfe\x00\x00" + (CJK * 2000).encode("utf-32-le"),
        (WORDS * 3000).encode() + b"\x00" + (WORDS * 10).encode(),  # a stray NUL in a log
    ],
    ids=[
        "ascii",
        "utf8-cjk",
        "latin1",
        "utf8-bom",
        "utf16le-bom",
        "utf16be-bom",
        "utf16-nobom",
        "utf32-bom",
        "stray-nul",
    ],
)
def test_from_upload_long_text_accepted(raw: bytes) -> None:
    """Text well past the 64 KiB sniffing prefix, in any encoding the sniffer knows, is text."""
    assert len(raw) > 100_000
    part = from_upload(werkzeug(raw, "notes.txt", "text/plain"), accept="text/*")
    assert (part.media_type, part.data) == ("text/plain", raw)


@pytest.mark.parametrize(
    "raw",
    [
        (WORDS * 1100).encode() + noise(200_000),
        (WORDS * 1100).encode() + bytes(200_000),
        (CJK * 2000).encode() + (CJK * 100).encode("utf-16-le"),
        b"\xff\xfe" + (CJK * 3000).encode("utf-16-le") + b"\x00\xd8" * 10,
        (WORDS * 1100).encode("utf-16-le") + noise(10_000),
    ],
    ids=["ascii+noise", "ascii+zeros", "utf8+utf16", "utf16+lone-surrogates", "utf16+noise"],
)
def test_from_upload_text_only_in_the_prefix_refused(raw: bytes) -> None:
    """64 KiB of text in front of something else is not a text upload."""
    assert len(raw) > 70_000
    with pytest.raises(UnsupportedMediaType, match="could not be identified"):
        from_upload(werkzeug(raw, "notes.txt", "text/plain"), accept="text/*")


def iso_box(tag: bytes, body: bytes) -> bytes:
    return struct.pack(">I", 8 + len(body)) + tag + body


# An ISO base media file whose brands say nothing: detection sees only the box family.
UNBRANDED = iso_box(b"ftyp", b"zzzz\x00\x00\x00\x00zzzz") + iso_box(b"mdat", bytes(2000))


@pytest.mark.parametrize(
    ("filename", "media_type"),
    [("clip.mov", "video/quicktime"), ("clip.bin", "video/mp4"), (None, "video/mp4")],
)
def test_from_upload_container_named_by_the_client(filename: str | None, media_type: str) -> None:
    """Bytes that show only a container family may be named a member of it by the client."""
    part = from_upload(werkzeug(UNBRANDED, filename, None), accept="video/*")
    assert (type(part), part.media_type) == (VideoPart, media_type)


def test_from_upload_container_named_an_image_still_checked() -> None:
    """A box file named .heic is typed HEIC by its name, then fails the image checks."""
    with pytest.raises(InvalidMedia, match="image/heic"):
        from_upload(werkzeug(UNBRANDED, "photo.heic", None), accept="image/*")


def test_from_upload_decode_budget_is_the_callers(testdata: Path) -> None:
    """decode_budget= replaces the default decode budget for the metadata strip."""
    from mediaparts.imaging import DecodeBudget

    jpeg = (testdata / "photo.jpg").read_bytes()
    assert mp.from_upload(io.BytesIO(jpeg)).media_type == "image/jpeg"
    tight = DecodeBudget(max_scan_pixels=1000)
    with pytest.raises(mp.MediaTooLarge, match="max_scan_pixels"):
        mp.from_upload(io.BytesIO(jpeg), decode_budget=tight)
    with pytest.raises(mp.InvalidMedia, match="decode_budget"):
        mp.from_upload(io.BytesIO(jpeg), decode_budget={"max_scans": 1})  # type: ignore[arg-type]


def test_from_upload_read_returning_a_strided_buffer(testdata: Path) -> None:
    """A read() that hands over a non-contiguous buffer is held as its bytes, not a TypeError."""
    jpeg = (testdata / "photo.jpg").read_bytes()

    class Strided(io.RawIOBase):
        done = False

        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> memoryview:
            if self.done:
                return memoryview(b"")
            self.done = True
            return memoryview(bytes(b for pair in zip(jpeg, jpeg, strict=True) for b in pair))[::2]

    assert mp.from_upload(Strided()).media_type == "image/jpeg"


@pytest.mark.parametrize(
    ("name", "ctype"), [("a.svg", None), (None, "image/svg+xml")], ids=["name", "type"]
)
def test_from_upload_plain_text_is_not_svg_on_the_clients_word(
    name: str | None, ctype: str | None
) -> None:
    """Text without an SVG root named .svg or sent as image/svg+xml stays text/plain."""
    text = b"just some words, no markup at all\n" * 10
    with pytest.raises(mp.UnsupportedMediaType, match="text/plain"):
        mp.from_upload(werkzeug(text, name, ctype), accept="image/svg+xml")
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'
    made = mp.from_upload(werkzeug(svg, name, ctype), accept="image/svg+xml")
    assert made.media_type == "image/svg+xml"


def test_from_upload_client_type_cannot_invent_a_type() -> None:
    """A client type names a registered member of the family its bytes showed (text/csv for
    text), never a type of its own making: 'text/bbb…' for text is text/plain."""
    starlette = pytest.importorskip("starlette.datastructures")

    def upload(content_type: str) -> object:
        headers = starlette.Headers({"content-type": content_type})
        return starlette.UploadFile(io.BytesIO(b"just a few words\n"), headers=headers)

    assert from_upload(upload("text/" + "b" * 300), accept=("text/*",)).media_type == "text/plain"
    assert from_upload(upload("text/markdown"), accept=("text/*",)).media_type == "text/markdown"


@pytest.mark.parametrize(
    ("content", "accept"),
    [(b"hello world", ("image/*",)), (bytes(range(256)) * 3, ("image/*",))],
    ids=["text", "unidentified"],
)
def test_from_upload_refusal_bounds_the_client_type(content: bytes, accept: tuple[str]) -> None:
    """A refusal repeats at most about 80 characters of a 300-character client type."""
    starlette = pytest.importorskip("starlette.datastructures")
    headers = starlette.Headers({"content-type": "image/" + "c" * 300})
    upload = starlette.UploadFile(io.BytesIO(content), filename="a.bin", headers=headers)
    with pytest.raises(UnsupportedMediaType) as caught:
        from_upload(upload, accept=accept)
    assert "c" * 81 not in str(caught.value)
