"""The command line: `mediaparts inspect`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mediaparts.cli import main


def test_inspect_reports_type_from_bytes(
    testdata: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """inspect prints the detected type, kind, size and dimensions; exit 0."""
    code = main(["inspect", str(testdata / "photo.jpg"), str(testdata / "mislabelled.jpg")])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert "image/jpeg (image 640x480, 33,097 bytes" in out[0]
    assert "image/png" in out[1] and "bytes win" in out[1]


def test_inspect_json(testdata: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints one object per input."""
    assert main(["inspect", "--json", str(testdata / "tone.wav")]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["media_type"] == "audio/wav"
    assert info["kind"] == "audio"
    assert info["bytes"] == (testdata / "tone.wav").stat().st_size


def test_inspect_provider_verdicts(testdata: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--provider says per provider: as is, normalized (how), or rejected (why); exit 1."""
    code = main(
        [
            "inspect",
            str(testdata / "photo.heic"),
            str(testdata / "tone.wav"),
            "--provider",
            "anthropic",
            "--provider",
            "gemini",
        ]
    )
    out = capsys.readouterr().out
    assert code == 1  # audio is rejected by Anthropic
    assert "anthropic: normalized to image/jpeg 320x240 (heic→jpeg" in out
    assert "gemini: accepted as is, ~1,120 tokens" in out
    assert "anthropic: rejected: anthropic does not accept audio/wav" in out


def test_inspect_provider_json(testdata: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json carries each provider's verdict, steps and tokens."""
    assert (
        main(
            [
                "inspect",
                "--json",
                str(testdata / "photo.jpg"),
                "--provider",
                "openai",
                "--model",
                "gpt-4o",
            ]
        )
        == 0
    )
    verdict = json.loads(capsys.readouterr().out)["providers"]["openai"]
    assert verdict["verdict"] == "normalized"
    assert verdict["steps"][0] == "exif-transpose"
    assert (verdict["width"], verdict["height"], verdict["tokens"]) == (480, 640, 425)


def test_inspect_unknown_provider_exits_2(
    testdata: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown provider is a usage error."""
    assert main(["inspect", str(testdata / "photo.jpg"), "--provider", "acme"]) == 2


def test_inspect_missing_file_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An input that cannot be read is reported on one line and the exit status is 1."""
    assert main(["inspect", str(tmp_path / "nope.png")]) == 1
    assert "error: no file at" in capsys.readouterr().out


def test_inspect_without_input_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """No input is a usage error: exit status 2."""
    assert main(["inspect"]) == 2
    assert main([]) == 2


def test_python_dash_m_runs(testdata: Path) -> None:
    """`python -m mediaparts` is the same command line."""
    done = subprocess.run(
        [sys.executable, "-m", "mediaparts", "inspect", str(testdata / "gif8.txt")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0
    assert "text/plain" in done.stdout
