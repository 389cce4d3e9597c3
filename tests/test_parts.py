"""Media parts: constructors, typing by bytes, lazy URLs, encodings and round trips."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import os
import pickle
import re
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import get_args

import httpx
import pytest
from PIL import Image
from pytest_httpx import HTTPXMock

import mediaparts as mp
from mediaparts.formats import Kind
from tests._builders import TESTDATA

# file in testdata -> (class, media type)
TESTDATA_TYPES = [
    ("photo.jpg", mp.ImagePart, "image/jpeg"),
    ("progressive.jpg", mp.ImagePart, "image/jpeg"),
    ("cmyk.jpg", mp.ImagePart, "image/jpeg"),
    ("alpha.png", mp.ImagePart, "image/png"),
    ("animated.png", mp.ImagePart, "image/png"),
    ("still.gif", mp.ImagePart, "image/gif"),
    ("lossy.webp", mp.ImagePart, "image/webp"),
    ("image.bmp", mp.ImagePart, "image/bmp"),
    ("image.tiff", mp.ImagePart, "image/tiff"),
    ("icon.ico", mp.ImagePart, "image/vnd.microsoft.icon"),
    ("photo.heic", mp.ImagePart, "image/heic"),
    ("image.avif", mp.ImagePart, "image/avif"),
    ("mislabelled.jpg", mp.ImagePart, "image/png"),
    ("tone.wav", mp.AudioPart, "audio/wav"),
    ("tone.mp3", mp.AudioPart, "audio/mpeg"),
    ("tone.m4a", mp.AudioPart, "audio/mp4"),
    ("tone.webm", mp.AudioPart, "audio/webm"),
    ("tone.flac", mp.AudioPart, "audio/flac"),
    ("tone.ogg", mp.AudioPart, "audio/ogg"),
    ("clip.mp4", mp.VideoPart, "video/mp4"),
    ("clip.webm", mp.VideoPart, "video/webm"),
    ("clip.mov", mp.VideoPart, "video/quicktime"),
    ("document.pdf", mp.FilePart, "application/pdf"),
    (
        "document.docx",
        mp.FilePart,
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ),
    ("data.csv", mp.FilePart, "text/csv"),
    ("data.json", mp.FilePart, "application/json"),
    ("readme.md", mp.FilePart, "text/markdown"),
    ("gif8.txt", mp.FilePart, "text/plain"),
    ("bm.txt", mp.FilePart, "text/plain"),
    ("drawing.svg", mp.FilePart, "image/svg+xml"),
]

# image in testdata -> stored (width, height)
IMAGE_SIZES = [
    ("photo.jpg", (640, 480)),
    ("upright.jpg", (320, 240)),
    ("progressive.jpg", None),
    ("alpha.png", (256, 256)),
    ("still.gif", None),
    ("lossy.webp", None),
    ("lossless.webp", None),
    ("animated.webp", None),
    ("image.bmp", None),
    ("image.tiff", None),
    ("icon.ico", (48, 48)),
    ("photo.heic", None),
    ("image.avif", None),
    ("gray16.png", None),
]


@pytest.mark.parametrize(("name", "cls", "media_type"), TESTDATA_TYPES)
def test_part_picks_class_and_type_from_bytes(
    testdata: Path, name: str, cls: type, media_type: str
) -> None:
    """mp.part(path) picks the class and media type from the file's bytes."""
    made = mp.part(testdata / name)
    assert type(made) is cls
    assert made.media_type == media_type
    assert made.filename == name
    assert made.data == (testdata / name).read_bytes()


@pytest.mark.parametrize(("name", "size"), IMAGE_SIZES)
def test_image_size_matches_pillow(testdata: Path, name: str, size: tuple[int, int] | None) -> None:
    """width/height come from the header and agree with what Pillow decodes."""
    import pillow_heif

    pillow_heif.register_heif_opener()
    made = mp.ImagePart.from_path(testdata / name)
    with Image.open(testdata / name) as img:
        expected = img.size
    assert (made.width, made.height) == expected
    if size is not None:
        assert expected == size


def test_from_path_keeps_bytes_after_delete(tmp_path: Path, testdata: Path) -> None:
    """A part made from a path keeps its bytes when the file is deleted."""
    copy = tmp_path / "photo.jpg"
    shutil.copy(testdata / "photo.jpg", copy)
    made = mp.ImagePart.from_path(copy)
    copy.unlink()
    assert made.data == (testdata / "photo.jpg").read_bytes()
    assert made.width == 640


def test_png_named_jpg_is_png(testdata: Path) -> None:
    """Bytes win over the file name: PNG bytes in a .jpg are image/png."""
    made = mp.ImagePart.from_path(testdata / "mislabelled.jpg")
    assert made.media_type == "image/png"
    assert made.to_data_uri().startswith("data:image/png;base64,")


def test_bytes_win_over_declared_type(testdata: Path) -> None:
    """A declared media type that disagrees with the bytes is overruled."""
    raw = (testdata / "alpha.png").read_bytes()
    assert mp.ImagePart.from_bytes(raw, media_type="image/jpeg").media_type == "image/png"
    assert mp.ImagePart(data=raw, media_type="image/gif").media_type == "image/png"


def test_declared_type_used_when_bytes_are_unknown() -> None:
    """Unrecognisable bytes take the declared type (here for a FilePart)."""
    made = mp.FilePart.from_bytes(b"\x00\x01\x02\x03 opaque", media_type="application/x-custom")
    assert made.media_type == "application/x-custom"


@pytest.mark.parametrize(
    ("cls", "name", "found"),
    [
        (mp.ImagePart, "document.pdf", "application/pdf"),
        (mp.AudioPart, "photo.jpg", "image/jpeg"),
        (mp.VideoPart, "tone.wav", "audio/wav"),
        (mp.FilePart, "alpha.png", "image/png"),
        (mp.ImagePart, "gif8.txt", "text/plain"),
    ],
)
def test_constructor_of_wrong_kind_names_the_bytes(
    testdata: Path, cls: type[mp.MediaPart], name: str, found: str
) -> None:
    """A constructor given bytes of another kind raises UnsupportedMediaType naming them."""
    makers: tuple[Callable[[], object], ...] = (
        lambda: cls.from_path(testdata / name),
        lambda: cls.from_bytes((testdata / name).read_bytes()),
        lambda: cls.from_base64(base64.b64encode((testdata / name).read_bytes()).decode()),
    )
    for make in makers:
        with pytest.raises(mp.UnsupportedMediaType, match=found) as caught:
            make()
        assert caught.value.media_type == found
        assert isinstance(caught.value, mp.MediaError)


def test_unknown_bytes_are_not_an_image() -> None:
    """Bytes no detector recognises are refused by ImagePart with a clear message."""
    with pytest.raises(mp.UnsupportedMediaType, match="not a recognised image"):
        mp.ImagePart.from_bytes(b"\x00\x9f\x13 not an image at all \x00")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: mp.ImagePart.from_base64("not base64!"), "not valid base64"),
        (lambda: mp.ImagePart.from_base64("data:image/png;base64,AAAA"), "data URI"),
        (lambda: mp.ImagePart.from_data_uri("data:image/png;base64,%%%"), "base64"),
        (lambda: mp.ImagePart.from_data_uri("image/png;base64,AAAA"), "not a data URI"),
        (lambda: mp.ImagePart.from_url(""), "URL"),
        (lambda: mp.ImagePart(), "needs its bytes"),
        (lambda: mp.ImagePart(url="https://x/y.png", detail="ultra"), "detail"),
        (lambda: mp.ImagePart(url="https://x/y.png", colour="red"), "colour"),
        (lambda: mp.MediaPart(url="https://x/y"), "base class"),
        (lambda: mp.ImagePart.from_bytes("text"), "takes bytes"),  # type: ignore[arg-type]
        (lambda: mp.ImagePart.from_dict([1]), "takes a dict"),  # type: ignore[arg-type]
        (lambda: mp.FilePart.from_file(io.BytesIO(b"x"), max_bytes=-1), "0 or more"),
        (lambda: mp.FilePart.from_path("a.pdf", max_bytes=-5), "0 or more"),
    ],
)
def test_bad_input_raises_invalid_media(make: object, message: str) -> None:
    """Malformed input raises InvalidMedia (a ValueError) naming the problem."""
    with pytest.raises(mp.InvalidMedia, match=message):
        make()  # type: ignore[operator]


def test_from_base64_and_data_uri_round_trip(testdata: Path) -> None:
    """to_base64/to_data_uri give text the matching constructors read back."""
    made = mp.ImagePart.from_path(testdata / "alpha.png")
    assert made.to_base64() == base64.b64encode(made.data).decode()
    assert mp.ImagePart.from_base64(made.to_base64()).data == made.data
    assert mp.ImagePart.from_data_uri(made.to_data_uri()).data == made.data
    assert made.to_data_uri() == "data:image/png;base64," + made.to_base64()


def test_from_pil_encodes_without_touching_image() -> None:
    """from_pil encodes a copy: RGBA becomes PNG, or JPEG flattened on request."""
    img = Image.new("RGBA", (40, 30), (255, 0, 0, 128))
    png = mp.ImagePart.from_pil(img)
    jpeg = mp.ImagePart.from_pil(img, format="jpg")
    assert (png.media_type, png.width, png.height) == ("image/png", 40, 30)
    assert jpeg.media_type == "image/jpeg"
    assert img.mode == "RGBA"


def test_from_pil_keeps_source_format_and_exif(testdata: Path) -> None:
    """An image opened from a JPEG is encoded as JPEG and keeps its orientation tag."""
    with Image.open(testdata / "photo.jpg") as img:
        made = mp.part(img)
    assert isinstance(made, mp.ImagePart)
    assert made.media_type == "image/jpeg"
    with Image.open(io.BytesIO(made.data)) as again:
        assert again.getexif()[0x0112] == 6


def test_from_file_reads_and_restores(testdata: Path) -> None:
    """from_file reads a file object, takes its name, and leaves it where it was."""
    with (testdata / "tone.wav").open("rb") as f:
        made = mp.AudioPart.from_file(f)
        assert f.tell() == 0
    assert (made.media_type, made.filename) == ("audio/wav", "tone.wav")


def test_from_file_caps_bytes(testdata: Path) -> None:
    """from_file refuses more than max_bytes."""
    with (testdata / "tone.wav").open("rb") as f, pytest.raises(mp.MediaTooLarge):
        mp.AudioPart.from_file(f, max_bytes=100)


def test_parts_are_frozen(testdata: Path) -> None:
    """A part cannot be changed after it is made."""
    made = mp.part(testdata / "alpha.png")
    with pytest.raises(Exception, match="frozen"):
        made.filename = "other.png"


@pytest.mark.parametrize(
    "make",
    [
        lambda d: mp.ImagePart.from_path(d / "photo.jpg", detail="high", metadata={"id": 7}),
        lambda d: mp.AudioPart.from_path(d / "tone.wav"),
        lambda d: mp.VideoPart.from_path(d / "clip.mp4"),
        lambda d: mp.FilePart.from_path(d / "document.pdf"),
        lambda d: mp.FilePart.from_path(d / "readme.md"),
        lambda d: mp.ImagePart.from_url("https://example.com/a.png", detail="low"),
        lambda d: mp.FilePart.from_url("https://example.com/download?id=3"),
        lambda d: mp.TextPart("hello"),
    ],
)
def test_to_dict_round_trips_through_json(testdata: Path, make: object) -> None:
    """mp.part(p.to_dict()) == p for every kind, through JSON text."""
    made = make(testdata)  # type: ignore[operator]
    again = mp.part(json.loads(json.dumps(made.to_dict())))
    assert again == made
    assert type(again) is type(made)
    if isinstance(made, mp.MediaPart):
        assert type(made).from_dict(made.to_dict()) == made


def test_to_dict_omits_none_and_encodes_bytes(testdata: Path) -> None:
    """to_dict has base64 for bytes and leaves out what is unset."""
    made = mp.AudioPart.from_path(testdata / "tone.wav")
    assert made.to_dict() == {
        "kind": "audio",
        "media_type": "audio/wav",
        "filename": "tone.wav",
        "data": made.to_base64(),
    }


def test_json_schema_describes_to_dict() -> None:
    """The JSON schema names the fields of to_dict, with data as base64 text."""
    schema = mp.ImagePart.model_json_schema()
    assert {"kind", "media_type", "filename", "url", "metadata", "data", "detail"} <= set(
        schema["properties"]
    )
    assert {"contentEncoding": "base64", "type": "string"} in schema["properties"]["data"]["anyOf"]


def test_parts_pickle(testdata: Path) -> None:
    """Parts survive pickling (for process pools), loaded URL cache included."""
    made = mp.ImagePart.from_path(testdata / "alpha.png")
    assert pickle.loads(pickle.dumps(made)) == made


def test_equal_parts_hash_equal(testdata: Path) -> None:
    """Equal parts have equal hashes; different bytes make different parts."""
    a = mp.part(testdata / "alpha.png")
    b = mp.part(testdata / "alpha.png")
    assert a == b and hash(a) == hash(b)
    assert a != mp.part(testdata / "palette.png")


# -- URL parts -----------------------------------------------------------------------------


def test_from_url_is_lazy(httpx_mock: HTTPXMock, testdata: Path) -> None:
    """No request is made until .data is read; then exactly one."""
    png = (testdata / "alpha.png").read_bytes()
    httpx_mock.add_response(url="https://example.com/a.png", content=png)
    made = mp.ImagePart.from_url("https://example.com/a.png")
    assert (made.media_type, made.filename, made.is_url, made.is_loaded, made.size) == (
        "image/png",
        "a.png",
        True,
        False,
        None,
    )
    assert httpx_mock.get_requests() == []
    assert made.data == png
    assert made.data == png
    assert (made.is_loaded, made.size, made.width) == (True, len(png), 256)
    assert len(httpx_mock.get_requests()) == 1


def test_url_loaded_once_under_eight_threads(httpx_mock: HTTPXMock, testdata: Path) -> None:
    """Eight threads reading .data at once cause exactly one request."""
    png = (testdata / "alpha.png").read_bytes()

    def slow(request: httpx.Request) -> httpx.Response:
        time.sleep(0.2)
        return httpx.Response(200, content=png)

    httpx_mock.add_callback(slow, url="https://example.com/a.png")
    made = mp.ImagePart.from_url("https://example.com/a.png")
    barrier = threading.Barrier(8)
    results: list[bytes] = []

    def read() -> None:
        barrier.wait()
        results.append(made.data)

    threads = [threading.Thread(target=read) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [png] * 8
    assert len(httpx_mock.get_requests()) == 1


def test_url_aload_once_under_concurrency(httpx_mock: HTTPXMock, testdata: Path) -> None:
    """Eight concurrent aload() calls cause exactly one request."""
    png = (testdata / "alpha.png").read_bytes()
    httpx_mock.add_response(url="https://example.com/a.png", content=png)
    made = mp.ImagePart.from_url("https://example.com/a.png")

    async def main() -> list[mp.ImagePart]:
        return await asyncio.gather(*(made.aload() for _ in range(8)))

    loaded = asyncio.run(main())
    assert all(p is made for p in loaded)
    assert made.data == png
    assert len(httpx_mock.get_requests()) == 1


def test_url_failed_load_can_be_retried(httpx_mock: HTTPXMock, testdata: Path) -> None:
    """A failed load leaves the part unloaded, so a later load tries again."""
    httpx_mock.add_response(url="https://example.com/a.png", status_code=404)
    httpx_mock.add_response(
        url="https://example.com/a.png", content=(testdata / "alpha.png").read_bytes()
    )
    made = mp.ImagePart.from_url("https://example.com/a.png")
    with pytest.raises(mp.FetchError):
        made.load()
    assert not made.is_loaded
    assert made.load().is_loaded


def test_resolve_types_extensionless_url(httpx_mock: HTTPXMock, testdata: Path) -> None:
    """An extensionless URL becomes the right class and type once its bytes are seen."""
    jpeg = (testdata / "photo.jpg").read_bytes()
    httpx_mock.add_response(
        url="https://cdn.example.com/img/8f3a",
        content=jpeg,
        headers={"Content-Type": "application/octet-stream"},
    )
    made = mp.part("https://cdn.example.com/img/8f3a")
    assert type(made) is mp.FilePart and made.media_type is None
    resolved = made.resolve()
    assert type(resolved) is mp.ImagePart
    assert (resolved.media_type, resolved.url, resolved.data) == ("image/jpeg", made.url, jpeg)
    assert made.to_data_uri().startswith("data:image/jpeg;base64,")
    assert len(httpx_mock.get_requests()) == 1


def test_aresolve_types_by_bytes(httpx_mock: HTTPXMock, testdata: Path) -> None:
    """aresolve() is resolve() for async code."""
    httpx_mock.add_response(
        url="https://example.com/sound", content=(testdata / "tone.wav").read_bytes()
    )
    resolved = asyncio.run(mp.part("https://example.com/sound").aresolve())
    assert (type(resolved), resolved.media_type) == (mp.AudioPart, "audio/wav")


def test_url_bytes_of_wrong_kind_refused_on_load(httpx_mock: HTTPXMock, testdata: Path) -> None:
    """An ImagePart whose URL serves a PDF raises UnsupportedMediaType when loaded."""
    httpx_mock.add_response(
        url="https://example.com/pic", content=(testdata / "document.pdf").read_bytes()
    )
    made = mp.ImagePart.from_url("https://example.com/pic")
    with pytest.raises(mp.UnsupportedMediaType, match="application/pdf"):
        _ = made.data


def test_url_content_type_refines_text(httpx_mock: HTTPXMock) -> None:
    """The server's Content-Type names the text format the bytes cannot show."""
    httpx_mock.add_response(
        url="https://example.com/notes",
        content=b"# Title\n\nSome *notes*.\n",
        headers={"Content-Type": "text/markdown; charset=utf-8"},
    )
    assert mp.part("https://example.com/notes").resolve().media_type == "text/markdown"


def test_url_part_equality_ignores_cache(httpx_mock: HTTPXMock, testdata: Path) -> None:
    """Loading a URL part does not change its value: it equals a fresh one."""
    httpx_mock.add_response(
        url="https://example.com/a.png", content=(testdata / "alpha.png").read_bytes()
    )
    loaded = mp.ImagePart.from_url("https://example.com/a.png").load()
    assert loaded == mp.ImagePart.from_url("https://example.com/a.png")
    assert "data" not in loaded.to_dict()


def test_injected_client_is_used(testdata: Path) -> None:
    """load(client=...) fetches through the caller's client."""
    png = (testdata / "alpha.png").read_bytes()
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=png))
    with httpx.Client(transport=transport) as client:
        made = mp.ImagePart.from_url("https://example.com/a.png").load(client=client)
    assert made.data == png


def test_offline_url_part_raises(testdata: Path) -> None:
    """Inside mp.offline() reading a URL part's bytes raises OfflineError."""
    made = mp.ImagePart.from_url("https://example.com/a.png")
    with mp.offline(), pytest.raises(mp.OfflineError):
        _ = made.data


SURROGATE_NAME = "caf\udce9 \ud83d.pdf"  # bytes that were not UTF-8, half a UTF-16 pair
CLEAN_NAME = "caf\ufffd \ufffd.pdf"
PDF = b"%PDF-1.4\n%%EOF\n"


@pytest.mark.parametrize(
    "make",
    [
        lambda: mp.FilePart.from_bytes(PDF, filename=SURROGATE_NAME),
        lambda: mp.FilePart.from_base64(base64.b64encode(PDF).decode(), filename=SURROGATE_NAME),
        lambda: mp.FilePart.from_data_uri(
            "data:application/pdf;base64,JVBERi0xLjQK", filename=SURROGATE_NAME
        ),
        lambda: mp.FilePart.from_url("https://example.com/a.pdf", filename=SURROGATE_NAME),
        lambda: mp.FilePart(data=PDF, filename=SURROGATE_NAME),
        lambda: mp.FilePart.model_validate({"data": PDF, "filename": SURROGATE_NAME}),
        lambda: mp.part(PDF, filename=SURROGATE_NAME),
        lambda: mp.part({"data": base64.b64encode(PDF).decode(), "filename": SURROGATE_NAME}),
        lambda: mp.FilePart.from_file(_named(io.BytesIO(PDF), SURROGATE_NAME)),
    ],
)
def test_filename_lone_surrogates_are_replaced(make: object) -> None:
    """Every constructor replaces lone surrogates in a file name, so payloads encode as UTF-8."""
    made = make()  # type: ignore[operator]
    assert made.filename == CLEAN_NAME
    if made.is_loaded:
        payload = mp.render([mp.User(files=[made])], "openai")
        json.dumps(payload, ensure_ascii=False).encode("utf-8")  # raised UnicodeEncodeError


def _named(fileobj: io.BytesIO, name: str) -> io.BytesIO:
    fileobj.name = name
    return fileobj


def test_from_path_cleans_a_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    """A file whose name is not UTF-8 is read, its name kept with U+FFFD for the bad bytes."""
    try:
        path = Path(os.fsdecode(os.path.join(os.fsencode(tmp_path), b"caf\xe9.pdf")))
        path.write_bytes(PDF)
    except (OSError, UnicodeError):
        pytest.skip("this file system takes only UTF-8 names")
    assert mp.part(path).filename == "caf\ufffd.pdf"
    assert mp.FilePart.from_path(path).filename == "caf\ufffd.pdf"


@pytest.mark.parametrize(
    "make",
    [
        lambda: mp.FilePart.from_url("https://example.com/caf\udce9.pdf"),
        lambda: mp.part(PDF, media_type="application/pdf\udce9"),
        lambda: mp.FilePart.from_url("https://example.com/a", media_type="application/\udce9"),
    ],
)
def test_urls_and_media_types_with_lone_surrogates_are_invalid(make: object) -> None:
    """A URL or media type that cannot be encoded as UTF-8 raises InvalidMedia saying so."""
    with pytest.raises(mp.InvalidMedia, match="lone surrogate"):
        make()  # type: ignore[operator]


def test_metadata_lone_surrogates_become_replacement_characters() -> None:
    """Lone surrogates in metadata keys and values become U+FFFD, so to_dict() round-trips."""
    made = mp.part(b"%PDF-1.4\n", metadata={"k\ud800": ["v\udfff", {"\udc80": 1}], "ok": "😀"})
    assert made.metadata == {"k\ufffd": ["v\ufffd", {"\ufffd": 1}], "ok": "😀"}
    assert mp.part(made.to_dict()) == made
    json.dumps(made.to_dict(), ensure_ascii=False).encode("utf-8")


EMPTY_SOURCES: dict[str, Callable[[Path], object]] = {
    "part(path)": lambda p: mp.part(str(p)),
    "ImagePart.from_path": lambda p: mp.ImagePart.from_path(p),
    "FilePart.from_path": lambda p: mp.FilePart.from_path(p),
    "part({'path'})": lambda p: mp.part({"path": str(p)}),
    "part(bytes)": lambda p: mp.part(b""),
    "part(bytes, media_type)": lambda p: mp.part(b"", media_type="image/png"),
    "ImagePart.from_bytes": lambda p: mp.ImagePart.from_bytes(b""),
    "FilePart(data=)": lambda p: mp.FilePart(data=b""),
    "part(data URI)": lambda p: mp.part("data:image/png;base64,"),
    "ImagePart.from_data_uri": lambda p: mp.ImagePart.from_data_uri("data:image/png;base64,"),
    "ImagePart.from_base64": lambda p: mp.ImagePart.from_base64(""),
    "FilePart.from_base64": lambda p: mp.FilePart.from_base64(""),
    "part({'data': ''})": lambda p: mp.part({"data": ""}),
    "part({'data': b''})": lambda p: mp.part({"data": b""}),
    "part(file object)": lambda p: mp.part(io.BytesIO()),
    "ImagePart.from_file": lambda p: mp.ImagePart.from_file(io.BytesIO()),
}


@pytest.mark.parametrize("make", EMPTY_SOURCES.values(), ids=EMPTY_SOURCES.keys())
def test_empty_source_is_invalid_media(tmp_path: Path, make: Callable[[Path], object]) -> None:
    """Every empty source is InvalidMedia saying 'empty (0 bytes)', never a corrupt header."""
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    with pytest.raises(mp.InvalidMedia, match=r"empty \(0 bytes\)"):
        make(empty)


def test_empty_file_is_named(tmp_path: Path) -> None:
    """The message for an empty file names it."""
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    said = r"^'empty.png' is empty \(0 bytes\); give a source that holds the media$"
    with pytest.raises(mp.InvalidMedia, match=said):
        mp.part(str(empty))


def test_empty_url_body_is_invalid_media(httpx_mock: HTTPXMock) -> None:
    """A URL whose server sends no bytes is 'empty (0 bytes)' too, naming the URL."""
    httpx_mock.add_response(url="https://example.com/a.png", content=b"")
    made = mp.part("https://example.com/a.png")
    said = r"^'https://example.com/a.png' is empty \(0 bytes\); the server sent no content: check"
    with pytest.raises(mp.InvalidMedia, match=said):
        made.load()


PART_CLASSES = [mp.ImagePart, mp.AudioPart, mp.VideoPart, mp.FilePart]


@pytest.mark.parametrize("cls", PART_CLASSES, ids=lambda c: c.__name__)
@pytest.mark.parametrize(
    ("given", "constructor"),
    [
        ("x.jpg", "from_path(path) or mp.part(path)"),
        (Path("x.jpg"), "from_path(path) or mp.part(path)"),
        ("https://example.com/x.jpg", "from_url(url) or mp.part(url)"),
        ("data:image/png;base64,AAAA", "from_data_uri(uri) or mp.part(uri)"),
        (
            base64.b64encode((TESTDATA / "alpha.png").read_bytes()).decode(),
            'from_base64(text) or mp.part({"data"',
        ),
        (b"\x89PNG", "from_bytes(data) or mp.part(data)"),
        (io.BytesIO(b"x"), "from_file(f) or mp.part(f)"),
        (Image.new("RGB", (1, 1)), "from_pil(image) or mp.part(image)"),
        (123, "from_path, from_url, from_bytes"),
    ],
    ids=["path", "pathlike", "url", "data-uri", "base64", "bytes", "file", "pil", "int"],
)
def test_part_class_called_positionally_names_the_constructor(
    cls: type[mp.MediaPart], given: object, constructor: str
) -> None:
    """`mp.ImagePart("x.jpg")` raises InvalidMedia naming the constructor for that source."""
    with pytest.raises(mp.InvalidMedia) as caught:
        cls(given)  # type: ignore[arg-type]
    message = str(caught.value)
    assert message.startswith(f"{cls.__name__} takes keyword fields only (media_type=, ")
    assert f"mp.{cls.__name__}.{constructor}" in message


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: mp.TextPart("a", "b"), "TextPart takes one text and keyword fields (text="),  # type: ignore[arg-type]
        (lambda: mp.RefusalPart("a", "b"), "RefusalPart takes one text and keyword fields"),  # type: ignore[arg-type]
        (lambda: mp.ReasoningPart("x"), "keyword fields only (text=, summary="),  # type: ignore[arg-type]
        (lambda: mp.ToolCall("zoom"), "e.g. mp.ToolCall(id='call_1', name='zoom'"),  # type: ignore[arg-type]
        (lambda: mp.ProviderPart({"type": "x"}), "mp.ProviderPart(provider='anthropic'"),  # type: ignore[arg-type]
        (lambda: mp.Citation("x"), "Citation takes keyword fields only (provider=, "),  # type: ignore[arg-type]
    ],
    ids=["text", "refusal", "reasoning", "tool-call", "provider", "citation"],
)
def test_other_part_called_positionally_says_what_it_takes(
    make: Callable[[], object], message: str
) -> None:
    """The parts that are not media refuse positional arguments with InvalidMedia, not TypeError."""
    with pytest.raises(mp.InvalidMedia, match=re.escape(message)):
        make()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: mp.ImagePart(data=123), "data must be bytes or base64 text, got int"),
        (lambda: mp.ImagePart(data=b"\x89PNG", filename=5), "filename must be a string"),
        (lambda: mp.TextPart(text=1), "text: Input should be a valid string"),
        (lambda: mp.ToolCall(name=["x"]), "name: Input should be a valid string"),
        (
            lambda: mp.ImagePart(data=(TESTDATA / "alpha.png").read_bytes(), colour="red"),
            "colour: Extra inputs are not permitted",
        ),
    ],
)
def test_part_field_of_wrong_type_is_invalid_media(
    make: Callable[[], object], message: str
) -> None:
    """A wrong-typed field raises InvalidMedia (a ValueError) with one line, the cause chained."""
    with pytest.raises(mp.InvalidMedia, match=re.escape(message)) as caught:
        make()
    assert isinstance(caught.value, ValueError)
    assert "\n" not in str(caught.value)
    assert caught.value.__cause__ is not None


@pytest.mark.parametrize("size", [26_000, 44_000])
def test_part_of_base64_text_suggests_data_and_stays_short(testdata: Path, size: int) -> None:
    """`mp.part("<base64>")` says it looks like base64, suggests {"data": ...}, and is short."""
    text = base64.b64encode((testdata / "photo.jpg").read_bytes()).decode()[:size]
    with pytest.raises(mp.InvalidMedia) as caught:
        mp.part(text)
    message = str(caught.value)
    assert 'mp.part({"data": text})' in message
    assert "looks like base64" in message
    assert len(message) < 400
    assert mp.part({"data": base64.b64encode((testdata / "photo.jpg").read_bytes()).decode()})


def test_part_of_base64_in_untrusted_code_suggests_data() -> None:
    """Inside mp.untrusted(), base64 passed as a path is refused, suggesting {"data": ...}."""
    text = base64.b64encode((TESTDATA / "alpha.png").read_bytes()).decode()
    with mp.untrusted(), pytest.raises(mp.BlockedPath, match=re.escape('pass {"data": text}')):
        mp.part(text)


def test_part_of_a_missing_path_is_not_called_base64() -> None:
    """A missing ordinary path gets no base64 hint."""
    with pytest.raises(mp.InvalidMedia) as caught:
        mp.part("photos/holiday/2026/IMG_0001.jpg")
    assert "base64" not in str(caught.value)


class _MyImage(mp.ImagePart):
    """A caller's own subclass, which mediaparts does not export."""


def test_part_subclass_called_positionally_is_not_named_as_mp() -> None:
    """A subclass the caller made is named as it is, not as if mediaparts exported it."""
    with pytest.raises(mp.InvalidMedia) as caught:
        _MyImage("x.jpg")  # type: ignore[arg-type,call-arg]
    message = str(caught.value)
    assert "use _MyImage.from_path(path) or mp.part(path)" in message
    assert "mp._MyImage" not in message


def test_empty_url_body_keeps_the_end_of_a_long_url(httpx_mock: HTTPXMock) -> None:
    """An empty body's message shows a long URL by its start and end, within 80 characters."""
    url = "https://example.com/" + "gallery/" * 12 + "IMG_0042.png"
    httpx_mock.add_response(url=url, content=b"")
    with pytest.raises(mp.InvalidMedia) as caught:
        mp.part(url).load()
    assert "IMG_0042.png' is empty (0 bytes)" in str(caught.value)
    assert url not in str(caught.value)


def test_part_classes_every_kind_from_the_union() -> None:
    """Every member of the `Part` union is listed by its kind, and every list of kinds follows."""
    from mediaparts._conversation import _filter
    from mediaparts._conversation import _make_part as _build
    from mediaparts._conversation._parts import PART_CLASSES, Part

    assert list(PART_CLASSES.values()) == list(get_args(Part))
    assert tuple(PART_CLASSES) == _filter._KINDS
    media = {k for k, c in PART_CLASSES.items() if issubclass(c, mp.MediaPart)}
    assert set(_build._OTHER_KINDS) == set(PART_CLASSES) - media
    assert media == set(get_args(Kind))
