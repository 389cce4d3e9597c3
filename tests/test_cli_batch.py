"""`mediaparts batch write` and `mediaparts batch read`."""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.cli import main
from tests._builders import TESTDATA


def conversations(folder: Path, count: int = 5) -> Path:
    """A JSONL file of image conversations naming a file next to it."""
    shutil.copy(TESTDATA / "alpha.png", folder / "alpha.png")
    path = folder / "conversations.jsonl"
    lines = []
    for i in range(count):
        parts = [{"kind": "text", "text": f"Image {i}?"}, {"kind": "image", "path": "alpha.png"}]
        lines.append(json.dumps({"id": f"img-{i}", "messages": [{"role": "user", "parts": parts}]}))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_cli_batch_write_writes_the_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """batch write makes the same files as write_batch, split by --max-requests, and lists them."""
    source = conversations(tmp_path)
    out = tmp_path / "out"
    code = main(
        [
            "batch", "write", str(source), "--provider", "anthropic", "--model", "claude-x",
            "--param", "max_tokens=64", "--param", "metadata={\"user_id\": \"u\"}",
            "--max-requests", "2", "--out", str(out), "--workers", "1",
        ]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr()
    assert printed.out.count("requests,") == 3 and "5 requests in 3 file(s)" in printed.err
    files = sorted(out.iterdir())
    assert [f.name for f in files] == [f"batch-0000{i}.jsonl" for i in (1, 2, 3)]
    first = json.loads(files[0].read_bytes().splitlines()[0])
    assert first["custom_id"] == "img-0"
    assert first["params"]["max_tokens"] == 64
    assert first["params"]["metadata"] == {"user_id": "u"}
    image = first["params"]["messages"][0]["content"][1]
    assert image["source"]["media_type"] == "image/png"


def test_cli_batch_write_json_lists_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--json prints one object per file with its path, requests and bytes."""
    source = conversations(tmp_path, 3)
    args = ["batch", "write", str(source), "--provider", "gemini", "--out", str(tmp_path / "o")]
    assert main([*args, "--json", "--workers", "1"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    record = json.loads(line)
    assert record["requests"] == 3 and record["bytes"] == Path(record["path"]).stat().st_size


def test_cli_batch_write_reads_files_only_under_base_dir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A path the file names outside --base-dir is refused, exit 1, naming the line."""
    source = conversations(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    args = ["batch", "write", str(source), "--provider", "gemini", "--out", str(tmp_path / "o")]
    assert main([*args, "--base-dir", str(elsewhere)]) == 1
    assert "line 1" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["../alpha.png", "link.png"])
def test_cli_batch_write_refuses_a_way_out_of_base_dir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """'..' or a symbolic link out of the folder is refused, the message naming --base-dir."""
    shutil.copy(TESTDATA / "alpha.png", tmp_path / "alpha.png")
    inner = tmp_path / "inner"
    inner.mkdir()
    (inner / "link.png").symlink_to(tmp_path / "alpha.png")
    parts = [{"kind": "image", "path": name}]
    source = inner / "c.jsonl"
    source.write_text(json.dumps({"id": "a", "messages": [{"role": "user", "parts": parts}]}))
    args = ["batch", "write", str(source), "--provider", "gemini", "--out", str(tmp_path / "o")]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "line 1: refusing to read" in err and "files are read only under --base-dir" in err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{nope\n", "line 1: not JSON"),
        ('{"id": "a"}\n', 'expected {"id": ..., "messages": [...]}'),
        ('{"id": null, "messages": []}\n', '"id" must be'),
        ('{"id": "a", "messages": [{"role": "robot"}]}\n', "line 1"),
    ],
)
def test_cli_batch_write_names_a_bad_input_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, words: str
) -> None:
    """A line that is not a conversation is one error line naming it, exit 1."""
    source = tmp_path / "in.jsonl"
    source.write_text("\n" + text)
    args = ["batch", "write", str(source), "--provider", "gemini", "--out", str(tmp_path / "o")]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert words.replace("line 1", "line 2") in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("text", "extra", "words"),
    [
        ('{"id": "a\\ud800", "messages": []}\n', [], r"id 'a\ud800' holds a lone surrogate"),
        ('{"id": "a", "messages": []}\n', ["--model", "m\udcff"], "holds a lone surrogate"),
        ('{"id": "a", "messages": []}\n', ["--param", "k\udcff=1"], "holds a lone surrogate"),
        ('{"id": "a", "messages": []}\n', ["--prefix", "p\ud800"], "cannot be encoded"),
    ],
)
def test_cli_batch_write_names_text_that_cannot_be_encoded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, extra: list[str], words: str
) -> None:
    """An id, model, param or prefix holding a lone surrogate is one error line, exit 1."""
    source = tmp_path / "in.jsonl"
    source.write_text(text)
    args = ["batch", "write", str(source), "--provider", "gemini", "--out", str(tmp_path / "o")]
    assert main([*args, "--workers", "1", *extra]) == 1
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "extra",
    [["--param", "novalue"], ["--param", "=1"], ["--provider", "nope"], ["--out", ""]],
)
def test_cli_batch_write_usage_errors(tmp_path: Path, extra: list[str]) -> None:
    """A malformed option is a usage error, exit 2."""
    source = conversations(tmp_path, 1)
    args = ["batch", "write", str(source), "--provider", "gemini", "--out", str(tmp_path / "o")]
    assert main([*args, *extra]) == 2


def test_cli_batch_write_unwritable_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An --out that cannot be a folder is a usage error before any work."""
    source = conversations(tmp_path, 1)
    (tmp_path / "file").write_text("")
    args = ["batch", "write", str(source), "--provider", "gemini", "--out", str(tmp_path / "file")]
    assert main(args) == 2
    assert "--out" in capsys.readouterr().err


def _results(folder: Path, lines: list[Any]) -> Path:
    path = folder / "results.jsonl"
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return path


OK = {
    "custom_id": "img-1",
    "result": {
        "type": "succeeded",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "content": [{"type": "text", "text": "A red square."}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 3, "output_tokens": 4},
        },
    },
}
EXPIRED = {"custom_id": "img-2", "result": {"type": "expired"}}


def test_cli_batch_read_prints_answers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """batch read prints each id and answer; exit 0 when none failed."""
    path = _results(tmp_path, [OK])
    assert main(["batch", "read", str(path), "--provider", "anthropic"]) == 0
    assert capsys.readouterr().out == "img-1: A red square.\n"


def test_cli_batch_read_reports_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Errors are printed in place, an unreadable line by its number; exit 1."""
    path = _results(tmp_path, [OK, EXPIRED, "{nope"])
    assert main(["batch", "read", str(path), "--provider", "anthropic"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("img-2: error: expired: ")
    assert lines[2].startswith("(line 3): error: InvalidMedia: ")


def test_cli_batch_read_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints message dicts that read back, and errors as objects."""
    path = _results(tmp_path, [OK, EXPIRED])
    assert main(["batch", "read", str(path), "--provider", "anthropic", "--json"]) == 1
    first, second = (json.loads(x) for x in capsys.readouterr().out.splitlines())
    message = mp.message_from_dict(first["message"])
    assert isinstance(message, mp.Assistant) and message.content == "A red square."
    assert second["error"] == {
        "code": "expired",
        "message": "the batch expired first",
        "status": None,
    }


def test_cli_batch_read_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing result file is one error line, exit 1."""
    assert main(["batch", "read", str(tmp_path / "none"), "--provider", "openai"]) == 1
    assert "no file at" in capsys.readouterr().err


def test_cli_batch_write_takes_number_ids_and_text_params(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A number id is its decimal text; a --param value that is not JSON is text."""
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": 7, "messages": [{"role": "user", "parts": "hi"}]}\n')
    out = tmp_path / "o"
    args = ["batch", "write", str(source), "--provider", "openai", "--model", "gpt-4o"]
    assert main([*args, "--param", "user=someone", "--out", str(out), "--workers", "1"]) == 0
    record = json.loads((out / "batch-00001.jsonl").read_bytes())
    assert record["custom_id"] == "7" and record["body"]["user"] == "someone"


def test_cli_batch_write_refuses_an_overlong_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An input line over the bound is an error naming it, not read whole."""
    from mediaparts.cli import _batch as _cli_batch

    monkeypatch.setattr(_cli_batch, "MAX_INPUT_LINE", 50)
    source = conversations(tmp_path, 1)
    args = ["batch", "write", str(source), "--provider", "gemini", "--out", str(tmp_path / "o")]
    assert main(args) == 1
    assert "line 1: over 50 bytes" in capsys.readouterr().err


def test_cli_batch_write_draws_a_progress_bar_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a terminal, stderr gets a bar that ends at the total, then is cleared."""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    source = conversations(tmp_path, 3)
    args = ["batch", "write", str(source), "--provider", "gemini", "--out", str(tmp_path / "o")]
    assert main([*args, "--workers", "1"]) == 0
    err = capsys.readouterr().err
    assert "[########################] 3/3 requests" in err and err.count("\r\x1b[K") >= 2


def test_cli_batch_write_reads_a_pipe_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pipe (not a regular file) is not counted for the bar first: every request is written."""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    source = conversations(tmp_path, 3)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    feeder = threading.Thread(target=lambda: pipe.write_bytes(source.read_bytes()))
    feeder.start()
    args = ["batch", "write", str(pipe), "--provider", "gemini", "--out", str(tmp_path / "o")]
    args += ["--base-dir", str(tmp_path), "--workers", "1"]
    try:
        assert main(args) == 0
    finally:
        feeder.join()
    err = capsys.readouterr().err
    assert "3 requests in 1 file(s)" in err and "\r\x1b[K3 requests" in err


def test_cli_batch_write_bar_counts_a_last_line_without_newline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bar's total counts a last line that has no newline."""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    source = conversations(tmp_path, 2)
    source.write_bytes(source.read_bytes().rstrip(b"\n"))
    args = ["batch", "write", str(source), "--provider", "gemini", "--out", str(tmp_path / "o")]
    assert main([*args, "--workers", "1"]) == 0
    assert "] 2/2 requests" in capsys.readouterr().err


def test_cli_batch_write_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A FILE that is not there is one error line, not a traceback, and writes nothing."""
    args = ["batch", "write", str(tmp_path / "none.jsonl"), "--provider", "gemini"]
    assert main([*args, "--out", str(tmp_path / "o")]) != 0
    assert "none.jsonl" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
