"""`mediaparts show FILE`: a conversation file printed with `mp.show`."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

import mediaparts as mp
from mediaparts.cli import main
from tests._builders import ROOT, TESTDATA

_OPENAI_CORPUS = ROOT / "tests" / "conversations" / "corpus" / "openai" / "requests"


def _write(path: Path, data: object) -> str:
    path.write_text(json.dumps(data), "utf-8")
    return str(path)


def test_show_prints_to_dict_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A JSON list of to_dict() messages prints as mp.show prints the messages."""
    messages = [
        mp.System("Be terse."),
        mp.User(["What is this?", mp.part((TESTDATA / "palette.png").read_bytes())], id="u1"),
    ]
    file = _write(tmp_path / "conversation.json", [m.to_dict() for m in messages])
    assert main(["show", file]) == 0
    assert capsys.readouterr().out == mp.show(messages) + "\n"


def test_show_reads_one_message_dict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A single message dict (or an OpenAI-style one) is a conversation of one."""
    file = _write(tmp_path / "one.json", {"role": "user", "content": "hi"})
    assert main(["show", file]) == 0
    assert capsys.readouterr().out == "[1] user\n  hi\n"


def test_show_from_provider_payload(capsys: pytest.CaptureFixture[str]) -> None:
    """With --from, FILE is a provider's request payload, read with mp.messages_from."""
    source = _OPENAI_CORPUS / "07_tool_loop.json"
    assert main(["show", str(source), "--from", "openai", "--max-text", "40"]) == 0
    payload = json.loads(source.read_text("utf-8"))
    expected = mp.show(mp.messages_from(payload, "openai"), max_text=40)
    assert capsys.readouterr().out == expected + "\n"
    assert "tool_call " in expected


def test_show_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """'-' reads the file from stdin."""
    payload = {"messages": [{"role": "user", "content": "Write a haiku"}]}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(payload)))
    assert main(["show", "-", "--from", "anthropic"]) == 0
    assert capsys.readouterr().out == "[1] user\n  Write a haiku\n"


@pytest.mark.parametrize(
    "content",
    [
        [{"path": "secret.txt"}],
        [{"type": "image_url", "image_url": {"url": "secret.png"}}],
    ],
)
def test_show_never_reads_a_local_path(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    content: list[object],
) -> None:
    """A path inside the file is refused, one error line and exit 1: the file is untrusted."""
    (tmp_path / "secret.txt").write_text("password", "utf-8")
    monkeypatch.chdir(tmp_path)
    file = _write(tmp_path / "c.json", [{"role": "user", "content": content}])
    assert main(["show", file]) == 1
    captured = capsys.readouterr()
    assert "password" not in captured.out + captured.err
    assert "local file" in captured.err


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "is not JSON"),
        ('[{"role": "robot"}]', "unknown message role"),
        ('["hi"]', "a message dict is needed"),
    ],
)
def test_show_refuses_bad_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: str, message: str
) -> None:
    """What is not a conversation is one error line, exit 1, never a traceback."""
    bad = tmp_path / "bad.json"
    bad.write_text(data, "utf-8")
    assert main(["show", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mediaparts: error:") and message in err


@pytest.mark.parametrize("command", [["show"], ["carry", "--from", "openai", "--to", "gemini"]])
def test_show_a_number_past_the_digit_limit_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """JSON Python will not read (an integer of 5,000 digits) is one error line, exit 1."""
    file = tmp_path / "digits.json"
    file.write_text('{"role": "user", "content": "x", "n": ' + "9" * 5000 + "}", "utf-8")
    assert main([command[0], str(file), *command[1:]]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mediaparts: error:") and "is not JSON" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("value", ["0", "-3", "ten", "2.5"])
def test_show_max_text_must_be_positive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    """A --max-text that is not a positive whole number is a usage error: exit 2, naming it."""
    source = _write(tmp_path / "c.json", [mp.User("hi").to_dict()])
    assert main(["show", source, "--max-text", value]) == 2
    err = capsys.readouterr().err
    assert "--max-text" in err and "positive whole number" in err
