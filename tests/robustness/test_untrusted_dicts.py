"""The trust model for local files (CONTRACT §3, docs/security.md).

Dicts are untrusted input: `mp.message_from_dict` and `MediaPart.from_dict` never read a local
file unless the caller names a `base_dir`, and then only files whose real path lies inside it.
The application's own calls (`mp.part(path)`, `from_path`, shorthands in code) read any path.
Every path read, trusted or not, reads only regular files.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts._sources import untrusted_paths

Reader = Callable[..., Any]


def _message(content: Any, key: str = "content") -> Reader:
    return lambda **kw: mp.message_from_dict({"role": "user", key: content}, **kw)


def _in_untrusted(path: Any, **kw: Any) -> Any:
    with mp.untrusted(**kw):
        return mp.part(path)


# Every shape in which a dict can carry a path, each a function of the path.
READERS: dict[str, Callable[[Any], Reader]] = {
    "image_url": lambda p: _message([{"type": "image_url", "image_url": {"url": p}}]),
    "image_url as text": lambda p: _message([{"type": "image_url", "image_url": p}]),
    "path in content": lambda p: _message([{"path": p}]),
    "path as content": lambda p: _message({"path": p}),
    "path in parts": lambda p: _message([{"path": p}], key="parts"),
    "to_dict-shaped part": lambda p: _message([{"kind": "image", "path": p}], key="parts"),
    "PathLike content": lambda p: _message(Path(p)),
    "files=": lambda p: _message([{"path": p}], key="files"),
    "tool result": lambda p: (
        lambda **kw: mp.message_from_dict(
            {"role": "tool", "tool_call_id": "c1", "content": [{"path": p}]}, **kw
        )
    ),
    "mp.part inside mp.untrusted()": lambda p: lambda **kw: _in_untrusted(p, **kw),
    "MediaPart.from_dict": lambda p: lambda **kw: mp.MediaPart.from_dict({"path": p}, **kw),
    "ImagePart.from_dict": lambda p: (
        lambda **kw: mp.ImagePart.from_dict({"kind": "image", "path": p}, **kw)
    ),
}


@pytest.fixture
def photo(tmp_path: Path, testdata: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A readable image at tmp/base/photo.png, with the working directory at tmp/base."""
    base = tmp_path / "base"
    base.mkdir()
    shutil.copy(testdata / "alpha.png", base / "photo.png")
    monkeypatch.chdir(base)
    return base / "photo.png"


def _spellings(photo: Path) -> list[Any]:
    return [
        str(photo),  # absolute
        "photo.png",  # relative to the working directory
        "./photo.png",
        f"../{photo.parent.name}/photo.png",
        "file:photo.png",  # no '//': not a URL, so a path
        photo,  # a Path object
    ]


@pytest.mark.parametrize("reader", READERS)
def test_untrusted_dict_path_is_blocked(photo: Path, reader: str) -> None:
    """Every path spelling in every dict shape raises BlockedPath; nothing is read."""
    for spelling in _spellings(photo):
        if isinstance(spelling, Path) and "image_url" in reader:
            continue  # a URL field holds text
        with pytest.raises(mp.BlockedPath, match="untrusted input") as caught:
            READERS[reader](spelling)()
        assert Path(caught.value.path or "") == Path(spelling)


def test_blocked_path_is_invalid_media_and_value_error(photo: Path) -> None:
    """BlockedPath is an InvalidMedia (so a ValueError) and says how to opt in."""
    with pytest.raises(ValueError, match="base_dir=") as caught:
        mp.message_from_dict({"role": "user", "content": [{"path": "photo.png"}]})
    assert isinstance(caught.value, mp.InvalidMedia)


@pytest.mark.parametrize("url", ["file:///etc/passwd", "FILE://localhost/etc/passwd"])
def test_untrusted_file_url_is_blocked_path(url: str) -> None:
    """A file: URL in a dict names a local file: refused while the dict is read."""
    body = {"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]}
    with pytest.raises(mp.BlockedPath, match="file: URL"):
        mp.message_from_dict(body)


@pytest.mark.parametrize("url", ["file:///etc/passwd", "FILE://localhost/etc/passwd"])
def test_application_file_url_is_refused_when_loaded(url: str) -> None:
    """In the application's own code a file: URL is a URL part the fetch policy refuses."""
    with pytest.raises(mp.BlockedURL, match="scheme"):
        mp.part(url).load()


def test_untrusted_dict_inline_data_and_urls_still_work(testdata: Path) -> None:
    """Data URIs, base64 and http(s) URLs in a dict are unaffected by the path policy."""
    image = mp.ImagePart.from_path(testdata / "alpha.png")
    message = mp.message_from_dict(
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": image.to_data_uri()}},
                {"data": image.to_base64()},
                {"url": "https://example.com/a.png"},
            ],
        }
    )
    assert [p.media_type for p in message.files] == ["image/png", "image/png", "image/png"]


def test_to_dict_round_trip_needs_no_base_dir(testdata: Path) -> None:
    """to_dict() never writes a path, so from_dict and message_from_dict read it back."""
    made = mp.part(testdata / "alpha.png")
    assert mp.MediaPart.from_dict(made.to_dict()) == made
    message = mp.User("Look", files=[made])
    assert mp.message_from_dict(message.to_dict()) == message


def test_application_paths_stay_trusted(photo: Path) -> None:
    """mp.part(path), from_path and path shorthands in code read files as before."""
    assert mp.part("photo.png").media_type == "image/png"
    assert mp.ImagePart.from_path(photo).media_type == "image/png"
    shorthand = mp.part({"path": "photo.png"})
    assert isinstance(shorthand, mp.ImagePart) and shorthand.media_type == "image/png"
    assert mp.User(files=[{"path": "photo.png"}]).files[0].media_type == "image/png"


def test_policy_ends_with_the_reader(photo: Path) -> None:
    """After a blocked untrusted read, the application's own reads work again."""
    with pytest.raises(mp.BlockedPath):
        mp.message_from_dict({"role": "user", "content": [{"path": "photo.png"}]})
    assert mp.part("photo.png").media_type == "image/png"


@pytest.fixture
def layout(tmp_path: Path, testdata: Path) -> Path:
    """tmp/base (the base_dir) beside tmp/outside, with symlinks in and out when possible."""
    base, outside = tmp_path / "base", tmp_path / "outside"
    (base / "sub").mkdir(parents=True)
    outside.mkdir()
    for where in (base / "inside.png", base / "sub" / "deep.png", outside / "secret.png"):
        shutil.copy(testdata / "alpha.png", where)
    try:
        (base / "link_in.png").symlink_to(base / "inside.png")
        (base / "link_out.png").symlink_to(outside / "secret.png")
        (base / "linkdir").symlink_to(outside, target_is_directory=True)
        (tmp_path / "baselink").symlink_to(base, target_is_directory=True)
    except OSError:  # Windows without the symlink privilege
        pass
    return base


ALLOWED = [
    "inside.png",
    "./inside.png",
    "sub/deep.png",
    "sub/../inside.png",
    "{base}/inside.png",  # absolute, inside
    "link_in.png",  # a symlink that stays inside
]
ESCAPES = [
    "../outside/secret.png",
    "sub/../../outside/secret.png",
    "{outside}/secret.png",  # absolute, outside
    "{base}/../outside/secret.png",
    "link_out.png",  # a symlink to a file outside
    "linkdir/secret.png",  # through a symlinked directory
]


def _fill(spelling: str, base: Path) -> str:
    return spelling.format(base=base, outside=base.parent / "outside")


def _needs(spelling: str, base: Path) -> None:
    if "link" in spelling and not (base / "link_in.png").is_symlink():
        pytest.skip("symbolic links cannot be made here")


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("spelling", ALLOWED)
def test_base_dir_allows_files_inside(layout: Path, reader: str, spelling: str) -> None:
    """With base_dir, a path resolving inside it is read (relative paths against base_dir)."""
    _needs(spelling, layout)
    made = READERS[reader](_fill(spelling, layout))(base_dir=layout)
    files = made.files if isinstance(made, mp.User | mp.Tool) else (made,)
    assert [p.media_type for p in files] == ["image/png"]


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("spelling", ESCAPES)
def test_base_dir_blocks_escapes(layout: Path, reader: str, spelling: str) -> None:
    """Absolute paths outside, '..' escapes and symlinks leaving base_dir raise BlockedPath."""
    _needs(spelling, layout)
    given = _fill(spelling, layout)
    with pytest.raises(mp.BlockedPath, match="outside the base_dir") as caught:
        READERS[reader](given)(base_dir=str(layout))
    # Only the path as given is named (its first 80 characters): not base_dir, nor where the
    # path really leads.
    assert str(layout) not in str(caught.value).replace(given[:80], "")


def test_base_dir_through_a_symlink(layout: Path) -> None:
    """A base_dir that is itself a symlink is compared by its real path."""
    _needs("link", layout)
    made = mp.message_from_dict(
        {"role": "user", "content": [{"path": "sub/deep.png"}]},
        base_dir=layout.parent / "baselink",
    )
    assert made.files[0].media_type == "image/png"


@pytest.mark.parametrize(
    ("base_dir", "message"),
    [
        ("no-such-dir", "not a directory"),
        (b"uploads", "str or os.PathLike"),
        (42, "str or os.PathLike"),
        ("a\x00b", "not a usable path"),
    ],
)
def test_base_dir_must_be_a_directory(tmp_path: Path, base_dir: Any, message: str) -> None:
    """A base_dir that is not a directory path raises InvalidMedia before anything is read."""
    with pytest.raises(mp.InvalidMedia, match=message):
        mp.message_from_dict({"role": "user", "content": "hi"}, base_dir=base_dir)


def test_base_dir_nul_in_path_is_invalid(layout: Path) -> None:
    """A NUL in a dict's path under base_dir is InvalidMedia, not a bare ValueError."""
    with pytest.raises(mp.InvalidMedia, match="NUL"):
        mp.message_from_dict(
            {"role": "user", "content": [{"path": "in\x00side.png"}]}, base_dir=layout
        )


def test_nested_readers_keep_the_outer_policy(layout: Path) -> None:
    """A reader nested in another keeps the outermost policy (the application's choice)."""
    with untrusted_paths("outer", layout):
        assert mp.MediaPart.from_dict({"path": "inside.png"}).media_type == "image/png"
    with untrusted_paths("outer"), pytest.raises(mp.BlockedPath, match="outer"):
        mp.MediaPart.from_dict({"path": "inside.png"}, base_dir=layout)


# -- only regular files are read ------------------------------------------------------------

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
needs_dev_zero = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    """A FIFO with no writer: opening it for reading the usual way blocks forever."""
    path = tmp_path / "pipe.png"
    os.mkfifo(path)
    return path


SPECIAL_READERS: dict[str, Callable[[Path], Any]] = {
    "mp.part": lambda p: mp.part(p),
    "mp.part(str)": lambda p: mp.part(str(p)),
    "from_path": lambda p: mp.ImagePart.from_path(p),
    "from_path max_bytes": lambda p: mp.FilePart.from_path(p, max_bytes=1000),
    "detect": lambda p: mp.detect(p),
    "shorthand": lambda p: mp.part({"path": str(p)}),
    "message_from_dict base_dir": lambda p: mp.message_from_dict(
        {"role": "user", "content": [{"path": p.name}]}, base_dir=p.parent
    ),
}


@needs_fifo
@pytest.mark.parametrize("reader", SPECIAL_READERS)
def test_fifo_is_refused_without_hanging(fifo: Path, reader: str) -> None:
    """A FIFO is refused with InvalidMedia naming it, and no reader waits for a writer."""
    with pytest.raises(mp.InvalidMedia, match="FIFO"):
        SPECIAL_READERS[reader](fifo)


@needs_dev_zero
@pytest.mark.parametrize("reader", SPECIAL_READERS)
def test_device_is_refused_unread(reader: str) -> None:
    """/dev/zero is refused as a character device, not read until memory runs out."""
    with pytest.raises(mp.InvalidMedia, match="character device"):
        SPECIAL_READERS[reader](Path("/dev/zero"))


@pytest.mark.parametrize("reader", SPECIAL_READERS)
def test_directory_is_refused(tmp_path: Path, reader: str) -> None:
    """A directory is refused with InvalidMedia saying so."""
    (tmp_path / "dir.png").mkdir()
    with pytest.raises(mp.InvalidMedia, match="directory"):
        SPECIAL_READERS[reader](tmp_path / "dir.png")


def test_untrusted_block_ends_with_the_block(photo: Path, testdata: Path) -> None:
    """Inside mp.untrusted() a path is refused and inline data is not; after it, paths read."""
    with mp.untrusted():
        with pytest.raises(mp.BlockedPath, match=r"mp\.untrusted\(\)"):
            mp.part(str(photo))
        assert mp.part((testdata / "photo.jpg").read_bytes()).media_type == "image/jpeg"
        assert mp.part("https://example.com/a.png").is_url
    assert mp.part(str(photo)).media_type == "image/png"


@pytest.mark.parametrize(
    "url", ["file://admin:hunter2secret@fileserver/x.png", " \tfile://admin:hunter2secret@h/x"]
)
def test_untrusted_file_url_error_hides_its_password(url: str) -> None:
    """BlockedPath for a file: URL shows neither in its message nor its path the password."""
    body = {"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]}
    with pytest.raises(mp.BlockedPath) as caught:
        mp.message_from_dict(body)
    assert "hunter2secret" not in str(caught.value)
    assert "hunter2secret" not in (caught.value.path or "")


def test_url_with_surrounding_spaces_is_a_url() -> None:
    """Spaces and control characters around a URL are dropped, as URL parsers do: not a path."""
    made = mp.part(" \n https://user:pw@example.com/a.png\t")
    assert made.url == "https://user:pw@example.com/a.png"
