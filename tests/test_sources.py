"""Base64, data URIs, paths and file objects turned into bytes."""

from __future__ import annotations

import base64
import io
import os
import socket
import sys
import tracemalloc
import types
from pathlib import Path
from typing import Any

import pybase64
import pytest

import mediaparts as mp
from mediaparts import InvalidMedia, MediaTooLarge, _inline
from mediaparts._inline import data_uri, written_in_place
from mediaparts._sources import (
    UNSIZED_CAP,
    b64decode,
    b64decode_prefix,
    b64encode,
    open_path,
    parse_data_uri,
    read_file_object,
    read_path,
)
from tests._builders import TESTDATA

PAYLOAD = bytes(range(256)) * 4


def test_b64encode_matches_standard_library() -> None:
    """Encoding gives exactly what the standard library gives, as str."""
    assert b64encode(PAYLOAD) == base64.b64encode(PAYLOAD).decode()
    assert b64encode(memoryview(PAYLOAD)) == base64.b64encode(PAYLOAD).decode()


def _concatenated(media_type: str, data: bytes) -> str:
    return f"data:{media_type};base64," + base64.b64encode(data).decode()


PIECE = _inline._PIECE
CPYTHON = pytest.mark.skipif(
    _inline._string_api() is None, reason="the string is written in place only on CPython"
)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, PIECE - 1, PIECE, PIECE + 1, 2 * PIECE + 2])
@pytest.mark.parametrize("media_type", ["image/png", "text/plain;charset=utf-8", "x/é"])
def test_data_uri_equals_the_concatenation(size: int, media_type: str) -> None:
    """A data URI is its header then the base64, whatever the size and type (non-ASCII too)."""
    data = os.urandom(size)
    assert data_uri(media_type, data) == _concatenated(media_type, data)


@CPYTHON
@pytest.mark.parametrize("piece", [3, 6, 9])
@pytest.mark.parametrize("prefix", ["data:x/y;base64,", ""])
def test_written_in_place_equals_the_concatenation(piece: int, prefix: str) -> None:
    """Written in place piece by piece, every length gives the same text (padding included)."""
    for size in range(14):
        data = bytes(range(200, 200 + size))
        assert written_in_place(prefix, data, piece=piece) == prefix + b64encode(data)


def test_written_in_place_needs_whole_quanta() -> None:
    """A piece that is not a multiple of 3 bytes would put padding inside: refused."""
    with pytest.raises(ValueError, match="multiple of 3"):
        written_in_place("data:,", b"abcd", piece=4)


@CPYTHON
def test_written_in_place_refuses_a_non_ascii_header() -> None:
    """A header beyond ASCII cannot go in an ASCII string: the caller concatenates."""
    assert written_in_place("data:x/é;base64,", b"abc") is None


@CPYTHON
def test_written_in_place_stops_at_what_the_encoder_gets_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Base64 longer or shorter than the string holds is never written past it, nor returned."""
    api = _inline._string_api()
    assert api is not None
    assert _inline._write(api, "p", b"abcde", piece=4) is None  # padded pieces: too long
    monkeypatch.setattr(pybase64, "b64encode", lambda data: b"")
    assert written_in_place("p", b"abcdef", piece=3) is None  # too short


@CPYTHON
def test_data_uri_of_large_data_holds_its_base64_once() -> None:
    """A large URI adds about the base64's size at its peak (not twice), and leaks nothing."""
    data = os.urandom(12 * 2**20)
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        uri = data_uri("application/octet-stream", data)
        _, peak = tracemalloc.get_traced_memory()
        assert uri == _concatenated("application/octet-stream", data)
        del uri
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (peak - base) / len(data) < 1.5
    assert after - base < 2**20


def test_data_uri_without_the_string_api_concatenates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the string cannot be written in place, the URI is the same text, concatenated."""
    monkeypatch.setattr(_inline, "_string_api", lambda: None)
    data = os.urandom(PIECE + 5)
    assert data_uri("image/png", data) == _concatenated("image/png", data)


@pytest.mark.parametrize(
    "change",
    [
        lambda patch: patch.setattr(sys, "implementation", types.SimpleNamespace(name="pypy")),
        lambda patch: patch.setitem(sys.modules, "ctypes", None),  # a build without ctypes
        lambda patch: patch.setattr(_inline, "_write", lambda *args: "wrong"),
    ],
    ids=["not-cpython", "no-ctypes", "trial-fails"],
)
def test_string_api_is_used_only_where_it_works(
    monkeypatch: pytest.MonkeyPatch, change: Any
) -> None:
    """Another implementation, no ctypes, or a trial URI that comes out wrong: not used."""
    change(monkeypatch)
    assert _inline._string_api.__wrapped__() is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (base64.b64encode(PAYLOAD).decode(), PAYLOAD),
        (base64.urlsafe_b64encode(PAYLOAD).decode(), PAYLOAD),
        (base64.encodebytes(PAYLOAD).decode(), PAYLOAD),  # MIME line breaks
        (base64.b64encode(b"abcd").decode().rstrip("="), b"abcd"),  # missing padding
        (base64.b64encode(PAYLOAD), PAYLOAD),  # bytes in
        ("", b""),
    ],
)
def test_b64decode_accepts_common_variants(text: str | bytes, expected: bytes) -> None:
    """Standard, URL-safe, line-wrapped and unpadded base64 all decode."""
    assert b64decode(text) == expected


@pytest.mark.parametrize("text", ["abc*", "a", "YWJj$", "ä" * 8, "=YWJj", "YW=Jj"])
def test_b64decode_rejects_garbage(text: str) -> None:
    """Text that is not base64 raises InvalidMedia (also a ValueError)."""
    with pytest.raises(InvalidMedia, match="not valid base64"):
        b64decode(text)
    with pytest.raises(ValueError, match="base64"):
        b64decode(text)


def test_b64decode_prefix_decodes_only_the_head() -> None:
    """A prefix decode returns the first bytes without touching a bad tail."""
    text = base64.b64encode(PAYLOAD).decode() + "!!!not base64 at all!!!"
    assert b64decode_prefix(text, 300) == PAYLOAD[: len(b64decode_prefix(text, 300))]
    assert len(b64decode_prefix(text, 300)) >= 300


def test_b64decode_prefix_of_short_text_validates_everything() -> None:
    """A text shorter than the prefix is decoded (and validated) whole."""
    with pytest.raises(InvalidMedia):
        b64decode_prefix("YWJj!", 300)


@pytest.mark.parametrize(
    ("uri", "media_type", "data", "params"),
    [
        ("data:image/png;base64,aGVsbG8=", "image/png", b"hello", {}),
        (
            "data:text/plain;charset=utf-8,hi%20there",
            "text/plain",
            b"hi there",
            {"charset": "utf-8"},
        ),
        ("data:,plain", None, b"plain", {}),
        ("DATA:Image/PNG;BASE64,aGVsbG8=", "image/png", b"hello", {}),
        ("data:image/png;base64,aGVs%0AbG8=", "image/png", b"hello", {}),
        ("data:application/octet-stream;base64,", "application/octet-stream", b"", {}),
    ],
)
def test_parse_data_uri_reads_rfc2397(
    uri: str, media_type: str | None, data: bytes, params: dict[str, str]
) -> None:
    """Base64 and percent-encoded data URIs give their type, bytes and parameters."""
    parsed = parse_data_uri(uri)
    assert (parsed.media_type, parsed.data, parsed.parameters) == (media_type, data, params)


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("image/png;base64,aGVsbG8=", "not a data URI"),
        ("data:image/png;base64", "no ','"),
        ("data:image/png;base64,@@@@", "not valid base64"),
        ("data:png;base64,aGVsbG8=", "not a media type"),
        ("data:image/png;charset;base64,aGVsbG8=", "name=value"),
    ],
)
def test_parse_data_uri_rejects_malformed(uri: str, message: str) -> None:
    """A malformed data URI raises InvalidMedia saying what is wrong."""
    with pytest.raises(InvalidMedia, match=message):
        parse_data_uri(uri)


def test_read_path_refuses_oversized_file_before_reading(tmp_path: Path) -> None:
    """A file over max_bytes raises MediaTooLarge with its size and the limit."""
    path = tmp_path / "big.bin"
    path.write_bytes(b"x" * 1000)
    with pytest.raises(MediaTooLarge) as caught:
        read_path(path, max_bytes=999)
    assert (caught.value.size, caught.value.limit) == (1000, 999)
    assert read_path(path, max_bytes=1000) == b"x" * 1000


@pytest.mark.parametrize(
    ("name", "message"),
    [("missing.png", "no file at"), ("Describe this image", "not a path")],
)
def test_read_path_missing_file_says_so(tmp_path: Path, name: str, message: str) -> None:
    """A missing path raises InvalidMedia naming it (and hinting when it looks like text)."""
    with pytest.raises(InvalidMedia, match=message):
        read_path(tmp_path / name)


def test_read_path_directory_is_invalid(tmp_path: Path) -> None:
    """A directory is not a file."""
    with pytest.raises(InvalidMedia, match="directory"):
        read_path(tmp_path)


def test_read_file_object_restores_position() -> None:
    """Reading a seekable file object puts its position back and does not close it."""
    f = io.BytesIO(b"0123456789")
    f.seek(3)
    assert read_file_object(f) == b"3456789"
    assert f.tell() == 3
    assert not f.closed


def test_read_file_object_caps_bytes() -> None:
    """More than max_bytes raises MediaTooLarge after reading at most max_bytes + 1."""

    class Counting(io.BytesIO):
        def __init__(self, data: bytes) -> None:
            super().__init__(data)
            self.requested: list[int] = []

        def read(self, size: int | None = -1) -> bytes:
            self.requested.append(-1 if size is None else size)
            return super().read(size)

    f = Counting(b"x" * 10_000)
    with pytest.raises(MediaTooLarge):
        read_file_object(f, max_bytes=100)
    assert f.requested == [101]


@pytest.mark.parametrize("bad", [io.StringIO("text mode"), 42, object()])
def test_read_file_object_rejects_non_binary(bad: object) -> None:
    """Text-mode files and non-files raise InvalidMedia."""
    with pytest.raises(InvalidMedia):
        read_file_object(bad)


def _reporting(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """Make every fstat report `size` bytes, as a file still being written or a /proc file."""
    real = os.fstat

    def fstat(fd: int) -> os.stat_result:
        st = real(fd)
        fields = list(st[:10])
        fields[6] = size  # st_size
        return os.stat_result(fields)

    monkeypatch.setattr(os, "fstat", fstat)


def test_read_path_stops_at_reported_size_plus_a_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file holding far more than it reported when opened is refused, not read to the end."""
    path = tmp_path / "growing.bin"
    path.write_bytes(b"x" * (1 << 20))
    _reporting(monkeypatch, 10)
    with pytest.raises(InvalidMedia, match="grew while it was read"):
        read_path(path)


def test_read_path_caps_files_that_report_size_zero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file reporting size 0 (a /proc entry) is read up to UNSIZED_CAP, never unbounded."""
    small, large = tmp_path / "small", tmp_path / "large"
    small.write_bytes(b"A=1\x00B=2\x00")
    large.write_bytes(b"x" * (UNSIZED_CAP + 1))
    _reporting(monkeypatch, 0)
    assert read_path(small) == b"A=1\x00B=2\x00"
    with pytest.raises(MediaTooLarge, match="reports a size of 0") as caught:
        read_path(large)
    assert caught.value.limit == UNSIZED_CAP


@pytest.mark.skipif(not os.path.exists("/proc/self/environ"), reason="no procfs")
def test_read_path_reads_proc_files() -> None:
    """Trusted code may still read a /proc file, which reports size 0 but holds bytes."""
    assert read_path("/proc/self/status").startswith(b"Name:")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("opener", [read_path, lambda p: open_path(p).__enter__()])
def test_fifo_is_refused_at_open(tmp_path: Path, opener: Any) -> None:
    """A FIFO with no writer is refused at once (opened without blocking, then fstat-ed)."""
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(InvalidMedia, match=r"FIFO \(named pipe\), not a regular file"):
        opener(tmp_path / "pipe")


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no Unix sockets here")
def test_socket_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Unix socket on disk is refused, named as a socket."""
    monkeypatch.chdir(tmp_path)  # socket paths are short: bind a relative name
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("sock")
        with pytest.raises(InvalidMedia, match="a socket, not a regular file"):
            read_path("sock")


def test_read_path_nul_is_invalid_media(tmp_path: Path) -> None:
    """A NUL in a path is InvalidMedia naming it, not a bare ValueError."""
    with pytest.raises(InvalidMedia, match="NUL"):
        read_path(str(tmp_path / "a\x00b.png"))


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs Linux's /proc")
@pytest.mark.parametrize("read", [mp.detect, mp.FilePart.from_path, mp.part])
def test_read_error_after_open_is_invalid_media(read: Any) -> None:
    """A regular file whose read fails (EIO from /proc/self/mem) is InvalidMedia, not OSError."""
    with pytest.raises(mp.InvalidMedia, match="cannot read"):
        read("/proc/self/mem")


@pytest.mark.parametrize(
    "uri", ["data:,\udce9", "data:text/plain,a%20\ud800b", "data:image/png;base64,%41\udcff"]
)
def test_data_uri_with_lone_surrogates_is_invalid(uri: str) -> None:
    """A percent-encoded data URI holding a lone surrogate is InvalidMedia (found by fuzzing)."""
    with pytest.raises(InvalidMedia, match="cannot be encoded as UTF-8"):
        parse_data_uri(uri)
    with pytest.raises(InvalidMedia):
        mp.message_from_dict({"role": "user", "content": [{"data": uri}]})


PATHS_WITHOUT_EXTENSION = [
    "/srv/Uploads/2024/ProjectAlpha/raw_images/Camera01/Session20240101/frame0001",
    "/var/lib/Docker/overlay2/3f9a8B7c6D5e4F3a2B1c0D9e8F7a6B5c4D3e2F1a0B9c8D7e6F5a4B3c2D1e0/diff",
    "C:/Users/JohnSmith/AppData/Local/Temp/Build20240315/Output/Release/x64/binary",
    "home/User01/Documents/Reports2024/Quarterly/Q1/Drafts/Version03/FinalDraftB",
    "data/train/Class0001/Sample_0001_A/Sample_0001_A_Crop03_Rot090_Flip1_Scale2",
]
BASE64_MEDIA = ["photo.jpg", "alpha.png", "document.pdf", "tone.wav"]


@pytest.mark.parametrize("path", PATHS_WITHOUT_EXTENSION)
def test_missing_path_without_extension_is_not_called_base64(path: str) -> None:
    """A missing path with no extension is not said to look like base64 (or like text for the
    model), read or untrusted."""
    with pytest.raises(InvalidMedia) as caught:
        mp.part(path)
    assert "base64" not in str(caught.value) and "text for the model" not in str(caught.value)
    with pytest.raises(mp.BlockedPath) as blocked:
        mp.message_from_dict({"role": "user", "parts": [{"path": path}]})
    assert "base64" not in str(blocked.value) and "base_dir=" in str(blocked.value)


@pytest.mark.parametrize("name", BASE64_MEDIA)
def test_base64_passed_as_path_is_said_to_be_base64(name: str) -> None:
    """Base64 of real media passed as a path is said to be base64; untrusted input also keeps
    the base_dir advice."""
    text = base64.b64encode((TESTDATA / name).read_bytes()).decode()
    with pytest.raises(InvalidMedia, match="looks like base64"):
        mp.part(text)
    with pytest.raises(mp.BlockedPath) as blocked:
        mp.message_from_dict({"role": "user", "parts": [{"path": text}]})
    assert "looks like base64" in str(blocked.value) and "base_dir=" in str(blocked.value)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_wrapped_base64_passed_as_path_is_said_to_be_base64(newline: str) -> None:
    """Base64 wrapped at 76 characters (the `base64` tool, encodebytes) gets the hint too, and
    the form it suggests takes it."""
    text = base64.encodebytes((TESTDATA / "alpha.png").read_bytes()).decode()
    text = text.replace("\n", newline)
    with pytest.raises(InvalidMedia, match="this looks like base64 text"):
        mp.part(text)
    made = mp.part({"data": text})
    assert isinstance(made, mp.ImagePart) and made.media_type == "image/png"
