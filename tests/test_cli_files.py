"""`normalize --out DIR`: a directory that cannot be written to is a usage error, said clearly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mediaparts.cli import main
from mediaparts.cli._files import shown


def _normalize(testdata: Path, out: Path) -> int:
    args = ["normalize", str(testdata / "alpha.png"), "--provider", "openai", "--out", str(out)]
    return main(args)


@pytest.mark.parametrize(
    ("make", "said"),
    [
        ("file", "is a file, not a directory"),
        ("under-file", "cannot be made: " + "{parent} is a file, not a directory"),
    ],
)
def test_out_that_cannot_be_a_directory_is_a_usage_error(
    testdata: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    make: str,
    said: str,
) -> None:
    """--out naming a file, or a path under a file: exit 2 before any input, naming the path."""
    monkeypatch.chdir(tmp_path)
    blocker = Path("taken")
    blocker.write_text("a file where a directory should be")
    out = blocker if make == "file" else blocker / "sub"
    assert _normalize(testdata, out) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    line = f"mediaparts normalize: error: --out {out}: {said.format(parent=blocker)}"
    assert captured.err.startswith(line)
    assert captured.err.count("\n") == 1
    assert "Errno" not in captured.err


@pytest.mark.parametrize(
    ("read_only", "said"),
    [(False, "permission denied"), (True, "read-only file system")],
)
def test_out_not_writable_is_a_usage_error(
    testdata: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    read_only: bool,
    said: str,
) -> None:
    """--out in a directory we may not write to (or on a read-only disk): exit 2, what to do."""
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    monkeypatch.setattr(os, "statvfs", lambda path: _ReadOnly(read_only))
    monkeypatch.chdir(tmp_path)
    assert _normalize(testdata, Path("out")) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"mediaparts normalize: error: --out out: {said}")
    assert "choose another directory" in captured.err
    assert not any(tmp_path.iterdir())


class _ReadOnly:
    """What os.statvfs returns, as far as the --out check reads it."""

    def __init__(self, read_only: bool) -> None:
        self.f_flag = os.ST_RDONLY if read_only else 0


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes anywhere")
def test_out_in_a_read_only_directory_is_a_usage_error(
    testdata: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real directory without write permission: exit 2, 'permission denied'."""
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        assert _normalize(testdata, locked / "out") == 2
    finally:
        locked.chmod(0o755)
    assert "permission denied" in capsys.readouterr().err


def test_out_missing_directories_are_made(
    testdata: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A --out that does not exist yet is made, parents too, as before."""
    out = tmp_path / "new" / "deeper"
    assert _normalize(testdata, out) == 0
    assert [p.name for p in out.iterdir()] == ["alpha.openai.png"]


@pytest.mark.parametrize(
    ("argument", "named"),
    [
        ("photo.jpg", "photo.jpg"),
        ("https://user:secret@example.com/x.png", "https://***@example.com/x.png"),
        ("d/" * 100 + "name.png", "d/" * 19 + "d…" + "d/" * 16 + "name.png"),
    ],
)
def test_shown_names_an_argument_briefly_and_without_credentials(argument: str, named: str) -> None:
    """A line names an input as given: no URL password, and at most 80 characters."""
    assert shown(argument) == named
    assert len(shown(argument)) <= 80


def test_file_that_cannot_be_read_is_said_without_errno(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An OS error (convert's missing FILE) is the path and the OS's words, not '[Errno 2]'."""
    monkeypatch.chdir(tmp_path)  # a short name: a long one is cut to 80 characters
    assert main(["carry", "nope.json", "--from", "openai", "--to", "anthropic"]) == 1
    assert capsys.readouterr().err == "mediaparts: error: nope.json: No such file or directory\n"


@pytest.mark.parametrize("out", ["", "  "])
def test_out_empty_is_a_usage_error(
    testdata: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    out: str,
) -> None:
    """An empty --out (an unset variable in a script) is exit 2, not the current directory."""
    monkeypatch.chdir(tmp_path)
    args = ["normalize", str(testdata / "alpha.png"), "--provider", "openai", "--out", out]
    assert main(args) == 2
    assert "argument --out: is empty; give a directory" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("x\x1b]0;PWNED\x07\x1b[2J.jpg", "x\\x1b]0;PWNED\\x07\\x1b[2J.jpg"),  # title, clear
        ("y\rFAKE OK.jpg", "y\\rFAKE OK.jpg"),  # a carriage return overwrites the line
        ("a\u202egpj.exe", "a\\u202egpj.exe"),  # right-to-left override
        ("line\u2028break.png", "line\\u2028break.png"),
        ("bad \udcff.jpg", "bad \\udcff.jpg"),  # an undecodable byte of a file name
        ("café 写真.jpg", "café 写真.jpg"),  # printable text stays as it is
    ],
)
def test_shown_escapes_what_a_terminal_would_obey(name: str, expected: str) -> None:
    """Control, format, surrogate and separator characters of a name are escaped in lines."""
    assert shown(name) == expected


def test_inspect_json_input_hides_url_credentials(capsys: pytest.CaptureFixture[str]) -> None:
    """--json's "input" never carries a URL's user name or password; a file name with ':'
    and '@' is kept as it is."""
    main(["inspect", "--json", "http://user:s3cret@127.0.0.1:1/x.png"])
    main(["normalize", "--json", "--provider", "openai", "http://user:s3cret@127.0.0.1:1/x.png"])
    main(["inspect", "--json", "user:pass@host.jpg"])
    out = capsys.readouterr().out
    assert "s3cret" not in out
    assert out.count('"input": "http://***@127.0.0.1:1/x.png"') == 2
    assert '"input": "user:pass@host.jpg"' in out
