"""What the command line says: its version, which input failed, local URLs, text sent as
text, empty inputs and provider refusals."""

from __future__ import annotations

import importlib.metadata
import json
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

import mediaparts as mp
from mediaparts.cli import main
from mediaparts.imaging import _probe as probe_module


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    """--version prints `mediaparts <version>` (the installed distribution's) and exits 0."""
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"mediaparts {importlib.metadata.version('mediaparts')}\n"


def test_version_falls_back_to_the_package_version(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run from a source tree that is not installed, --version prints `mp.__version__`."""

    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"mediaparts {mp.__version__}\n"


@pytest.mark.parametrize(
    ("inputs", "culprit", "said"),
    [
        (["missing.png"], "missing.png", "no file at"),
        (["photo.jpg", "missing.png"], "missing.png", "no file at"),
        (["photo.jpg", "tone.wav"], "tone.wav", "anthropic does not accept audio/wav"),
        (["tone.wav", "photo.jpg"], "tone.wav", "anthropic does not accept audio/wav"),
    ],
)
def test_render_error_names_the_input(
    testdata: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    inputs: list[str],
    culprit: str,
    said: str,
) -> None:
    """A render failure is one stderr line naming the input that failed, as it was given."""
    monkeypatch.chdir(testdata)
    assert main(["render", *inputs, "--provider", "anthropic", "--text", "Hi"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"mediaparts: {culprit}: error: {said}")
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", ["inspect", "normalize", "render"])
def test_long_input_is_named_within_80_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """An input of hundreds of characters is named by its start and end, about 80 in all."""
    source = str(tmp_path / ("x" * 300 + ".png"))
    args = [command, source] + ([] if command == "inspect" else ["--provider", "openai"])
    assert main(args) == 1
    said = "".join(capsys.readouterr())
    named = said.removeprefix("mediaparts: ").split(": error: ")[0]
    assert len(named) <= 80
    assert named.startswith(source[:20]) and named.endswith("xxx.png")


@pytest.mark.parametrize("command", ["inspect", "normalize"])
def test_unreadable_input_is_an_error_not_a_refusal(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    """inspect and normalize name a missing input on its line as `error:`, as render does."""
    monkeypatch.chdir(tmp_path)  # a short name: a long one is cut to 80 characters
    args = [command, "nope.png"] + ([] if command == "inspect" else ["--provider", "openai"])
    assert main(args) == 1
    assert capsys.readouterr().out.startswith("nope.png: error: no file at")


# -- local URLs -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["inspect"],
        ["normalize", "--provider", "openai"],
        ["render", "--provider", "openai", "--urls", "inline"],
    ],
)
def test_allow_private_fetches_from_a_local_server(
    local_server: Any,
    testdata: Path,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    """A URL on 127.0.0.1 is refused, suggesting --allow-private; with it, it is fetched."""
    url = local_server.add("/alpha.png", (testdata / "alpha.png").read_bytes())
    assert main([*command, url]) == 1
    said = "".join(capsys.readouterr())
    assert "loopback" in said and "(--allow-private allows it)" in said
    assert "FetchPolicy" not in said
    assert local_server.hits == {}
    assert main([*command, url, "--allow-private"]) == 0
    assert local_server.hits == {"/alpha.png": 1}
    assert "error" not in "".join(capsys.readouterr())
    assert mp.fetching.default_policy().allow_private is False  # only for that run


def test_allow_private_never_reaches_cloud_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    """Cloud-metadata addresses stay refused with --allow-private, and the line says so."""
    url = "http://169.254.169.254/latest/meta-data/x.png"
    assert main(["inspect", url, "--allow-private"]) == 1
    assert "(not even with --allow-private)" in capsys.readouterr().out


# -- text files -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("notes.txt", "anthropic: sent as text, unchanged (UTF-8)"),
        ("notes-latin1.txt", "anthropic: sent as text, decoded from Windows-1252"),
        ("notes-utf16.txt", "anthropic: sent as text, decoded from UTF-16"),
    ],
)
def test_inspect_says_how_text_is_sent(
    testdata: Path, capsys: pytest.CaptureFixture[str], name: str, said: str
) -> None:
    """A text file is 'sent as text', unchanged or decoded from its encoding; not 'normalized'."""
    assert main(["inspect", str(testdata / name), "--provider", "anthropic"]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.strip().startswith(said)
    assert "normalized" not in line


# -- empty inputs ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["inspect", "normalize", "render"])
def test_empty_file_is_said_to_be_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """A 0-byte .png is 'empty (0 bytes)', not a corrupt header; exit status 1."""
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    args = [command, str(empty)] + ([] if command == "inspect" else ["--provider", "openai"])
    assert main(args) == 1
    said = "".join(capsys.readouterr())
    assert "empty (0 bytes)" in said
    assert "corrupt" not in said


# -- refusals -------------------------------------------------------------------------------


def test_refusal_is_one_short_line_grouped_by_kind(
    testdata: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A refused input says what the provider takes, grouped by kind, in one short line."""
    audio = str(testdata / "tone.wav")  # Anthropic takes no audio, converted or not
    assert main(["inspect", audio, "--provider", "anthropic", "--json"]) == 1
    reason = json.loads(capsys.readouterr().out)["providers"]["anthropic"]["reason"]
    assert "it takes images (JPG, PNG, GIF, WEBP), documents (PDF) and text (TXT," in reason
    assert len(reason) <= 240 and "\n" not in reason
    assert "text/x-shellscript" not in reason


# -- what this machine cannot do, and what a provider fetches itself ------------------------


@pytest.mark.parametrize("command", [["inspect"], ["normalize"]])
def test_missing_codec_is_an_error_not_a_rejection(
    monkeypatch: pytest.MonkeyPatch,
    testdata: Path,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    """Without pillow-heif a HEIC is an error of this machine (exit 1, 'error:', what to
    install), not the provider rejecting it, and the provider is named once."""
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # makes `import pillow_heif` fail
    monkeypatch.setattr(probe_module, "_plugins_registered", set())
    assert main([*command, str(testdata / "photo.heic"), "--provider", "openai"]) == 1
    out = capsys.readouterr().out
    assert "rejected" not in out
    assert "error: this machine cannot decode image/heic: it needs pillow-heif" in out
    assert "openai: error: openai:" not in out and "openai: openai:" not in out


def test_missing_codec_json_verdict_is_error(
    monkeypatch: pytest.MonkeyPatch, testdata: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--json carries verdict 'error' for a codec this machine lacks."""
    monkeypatch.setitem(sys.modules, "pillow_heif", None)
    monkeypatch.setattr(probe_module, "_plugins_registered", set())
    main(["inspect", str(testdata / "photo.heic"), "--provider", "openai", "--json"])
    verdict = json.loads(capsys.readouterr().out)["providers"]["openai"]
    assert verdict["verdict"] == "error"


def test_public_url_is_said_to_be_passed_as_a_url(
    httpx_mock: HTTPXMock, testdata: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A public image URL OpenAI fetches itself is 'passed as a URL', not 'accepted as is'."""
    url = "https://example.com/photo.jpg"
    httpx_mock.add_response(url=url, content=(testdata / "photo.jpg").read_bytes())
    assert main(["inspect", url, "--provider", "openai"]) == 0
    assert "openai: passed as a URL: the provider fetches it itself" in capsys.readouterr().out


def test_local_url_is_inlined_not_passed(
    local_server: Any, testdata: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A dev server's URL (127.0.0.1) is fetched and inlined with --allow-private: OpenAI's
    servers could not reach it, so it is never passed through."""
    url = local_server.add("/photo.jpg", (testdata / "photo.jpg").read_bytes())
    assert main(["inspect", url, "--provider", "openai", "--allow-private"]) == 0
    out = capsys.readouterr().out
    assert "passed as a URL" not in out
    assert "openai: normalized to image/jpeg 480x640 (exif-transpose" in out
    assert main(["render", url, "--provider", "openai", "--allow-private", "--summary"]) == 0
    assert "127.0.0.1" not in capsys.readouterr().out


def test_allow_private_is_not_seen_by_other_threads(
    local_server: Any, testdata: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While one run with --allow-private fetches, another thread of the program still has
    the configured policy, and a policy it configures meanwhile is kept."""
    url = local_server.add("/alpha.png", (testdata / "alpha.png").read_bytes())
    seen: list[bool] = []
    kept = mp.FetchPolicy(max_bytes=1234)
    fetch = mp.fetching.load

    def load_and_look(*args: Any, **kwargs: Any) -> Any:
        def other() -> None:
            seen.append(mp.fetching.default_policy().allow_private)
            mp.configure(fetch=kept)

        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
        return fetch(*args, **kwargs)

    monkeypatch.setattr(mp.fetching, "load", load_and_look)
    try:
        assert main(["inspect", url, "--allow-private"]) == 0
        assert seen == [False]
        assert mp.fetching.default_policy() is kept
    finally:
        mp.configure(fetch=mp.FetchPolicy())


@pytest.mark.parametrize("command", [["show"], ["carry", "--from", "anthropic", "--to", "openai"]])
def test_empty_json_file_is_said_to_be_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """An empty conversation file is 'empty (0 bytes)', not a JSON parser's complaint."""
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    assert main([command[0], str(empty), *command[1:]]) == 1
    err = capsys.readouterr().err
    assert "empty.json is empty (0 bytes)" in err
    assert "Expecting value" not in err
