"""The command line: `mediaparts inspect`, `normalize` and `render`, and how it fails."""

from __future__ import annotations

import base64
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
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


def test_normalize_writes_results(
    testdata: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """normalize --out writes each result as NAME.PROVIDER.EXT; a HEIC becomes a JPEG."""
    code = main(
        ["normalize", str(testdata / "photo.heic"), "--provider", "openai", "--out", str(tmp_path)]
    )
    assert code == 0
    written = tmp_path / "photo.openai.jpg"
    assert written.read_bytes()[:3] == b"\xff\xd8\xff"
    assert "heic→jpeg" in capsys.readouterr().out


def test_normalize_rejection_exits_1(testdata: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A rejected input is reported on its line and the exit status is 1."""
    assert main(["normalize", str(testdata / "tone.wav"), "--provider", "anthropic", "--json"]) == 1
    info = json.loads(capsys.readouterr().out)
    assert info["verdict"] == "rejected"
    assert "anthropic" in info["reason"]


def test_render_prints_payload(testdata: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """render prints the SDK call's keyword arguments as JSON, text first."""
    assert (
        main(
            [
                "render",
                str(testdata / "upright.jpg"),
                "--provider",
                "openai",
                "--text",
                "What is this?",
            ]
        )
        == 0
    )
    payload = json.loads(capsys.readouterr().out)
    content = payload["messages"][0]["content"]
    assert content[0] == {"type": "text", "text": "What is this?"}
    assert content[1]["image_url"]["url"].startswith("data:image/jpeg;base64,")


def test_render_summary_elides_base64(testdata: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """render --summary replaces base64 with short descriptors."""
    assert (
        main(
            [
                "render",
                str(testdata / "photo.jpg"),
                "--provider",
                "bedrock",
                "--text",
                "What is this?",
                "--summary",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "<image/jpeg 480x640" in out
    assert not re.search(r"[A-Za-z0-9+/]{200,}", out)


def test_render_bedrock_bytes_print_as_base64(
    testdata: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bedrock's raw bytes print as base64 text so the output is JSON."""
    assert main(["render", str(testdata / "upright.jpg"), "--provider", "bedrock"]) == 0
    payload = json.loads(capsys.readouterr().out)
    image = payload["messages"][0]["content"][0]["image"]
    assert base64.b64decode(image["source"]["bytes"]) == (testdata / "upright.jpg").read_bytes()


def test_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure in render is one line on stderr with exit status 1, not a traceback."""
    monkeypatch.chdir(tmp_path)  # a short name: a long one is cut to 80 characters
    assert main(["render", "missing.png", "--provider", "openai"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mediaparts: missing.png: error: no file at")
    assert "Traceback" not in err


def _run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `python -m mediaparts` in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "mediaparts", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    )


def test_render_summary_needs_no_pytest(testdata: Path) -> None:
    """render --summary works where pytest is not installed (it is not a dependency)."""
    code = (
        "import sys\n"
        "sys.modules['pytest'] = None  # as if not installed: importing it raises ImportError\n"
        "from mediaparts.cli import main\n"
        f"sys.exit(main(['render', {str(testdata / 'photo.jpg')!r}, '--provider', 'openai',"
        " '--summary']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0
    assert done.stderr.startswith("mediaparts: openai: no --model") and done.stderr.count("\n") == 1
    assert "data:image/jpeg;base64,<image/jpeg 480x640 " in done.stdout


@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        (["inspect", "photo.heic", "--provider", "openai"], "(heic\\u2192jpeg, jpeg q=85)"),
        (
            ["render", "photo.heic", "--provider", "openai", "--text", "Où? →"],
            '"O\\u00f9? \\u2192"',
        ),
    ],
)
def test_output_the_console_cannot_encode_is_escaped(
    testdata: Path, args: list[str], wanted: str
) -> None:
    """Output to a stream that cannot hold a character (cp1252 on Windows) escapes it."""
    args = [str(testdata / arg) if arg == "photo.heic" else arg for arg in args]
    done = _run(*args, PYTHONIOENCODING="cp1252")
    assert done.returncode == 0
    # render's one stderr line says the model; nothing else (no traceback) is written there.
    assert done.stderr == "" or (
        done.stderr.startswith("mediaparts: openai: no --model") and done.stderr.count("\n") == 1
    )
    assert wanted in done.stdout


def test_closed_pipe_ends_quietly(testdata: Path) -> None:
    """A reader that stops early (`| head -1`) ends the command without an error message."""
    inputs = [str(testdata / "lossless.webp")] * 40  # far more output than a pipe buffers
    with subprocess.Popen(
        [sys.executable, "-m", "mediaparts", "render", *inputs, "--provider", "openai"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline() == "{\n"
        process.stdout.close()
        err = process.stderr.read()
    assert (process.returncode, err) == (1, "")


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("count", "drawn"), [(1, False), (4, True)])
def test_progress_bar_on_a_terminal_for_several_inputs(
    testdata: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    count: int,
    drawn: bool,
) -> None:
    """Several inputs draw a bar on a terminal's stderr, cleared before each result."""
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["inspect", *[str(testdata / "tone.wav")] * count]) == 0
    bars = re.findall(r"\r\x1b\[K\[([#-]{24})\] (\d)/(\d) ", terminal.getvalue())
    if drawn:
        assert bars == [("#" * (6 * i) + "-" * (24 - 6 * i), str(i + 1), "4") for i in range(4)]
        assert terminal.getvalue().endswith("\r\x1b[K")
    else:
        assert terminal.getvalue() == ""
    assert len(capsys.readouterr().out.splitlines()) == count


def test_progress_bar_not_drawn_into_a_file(
    testdata: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """When stderr is not a terminal (a log file, CI), nothing is drawn."""
    assert main(["inspect", *[str(testdata / "tone.wav")] * 3]) == 0
    assert capsys.readouterr().err == ""


PNG_NAMES = [
    ("https://example.com/a%00b.png", "a_b.openai.png"),
    ("https://example.com/%2E%2E%2F%2E%2E%2Fescape.png", "_.._escape.openai.png"),
    ("https://example.com/..%5C..%5Cwin.png", "_.._win.openai.png"),
    ("https://example.com/" + "n" * 300 + ".png", "n" * 120 + ".openai.png"),
    ("https://example.com/" + "é" * 200 + ".png", "é" * 60 + ".openai.png"),
    ("https://example.com/CON.png", "_CON.openai.png"),
    ("https://example.com/..png", "part.openai.png"),
    ("https://example.com/a%0Ab%3A.png", "a_b_.openai.png"),
]


@pytest.mark.parametrize(("url", "name"), PNG_NAMES)
def test_normalize_out_names_are_safe(
    media_urls: Any, testdata: Path, tmp_path: Path, url: str, name: str
) -> None:
    """--out names from URLs hold no NUL, separator or '..', and fit the name length limit."""
    media_urls.add(url, (testdata / "alpha.png").read_bytes())
    out = tmp_path / "out"
    assert main(["normalize", url, "--provider", "openai", "--out", str(out)]) == 0
    assert [p.name for p in out.iterdir()] == [name]


def test_normalize_out_names_are_unique(
    media_urls: Any, testdata: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Inputs with the same name (in any case) are written side by side, not over each other."""
    urls = ["https://a.example/x.png", "https://b.example/x.png", "https://c.example/X.png"]
    for url in urls:
        media_urls.add(url, (testdata / "alpha.png").read_bytes())
    assert main(["normalize", *urls, "--provider", "openai", "--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["X-3.openai.png", "x-2.openai.png", "x.openai.png"]


def test_normalize_write_failure_is_one_line_and_run_goes_on(
    testdata: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An OSError writing one result is one line for that input; the others are still done."""
    out = tmp_path / "out"
    (out / "alpha.openai.png").mkdir(parents=True)  # a directory where the file should be
    (out / "photo.openai.jpg").mkdir()
    inputs = [str(testdata / "alpha.png"), str(testdata / "photo.jpg")]
    code = main(["normalize", *inputs, "--provider", "openai", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 1
    lines = captured.out.splitlines()
    assert len(lines) == 2 and all(": error: cannot write" in line for line in lines)
    assert "Traceback" not in captured.err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("command", ["inspect", "normalize", "render"])
def test_special_files_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """A FIFO or /dev/zero as input is a one-line error with exit status 1, never a hang."""
    os.mkfifo(tmp_path / "pipe.png")
    inputs = [str(tmp_path / "pipe.png")]
    if os.path.exists("/dev/zero"):
        inputs.append("/dev/zero")
    for source in inputs:
        args = [command, source] + ([] if command == "inspect" else ["--provider", "openai"])
        assert main(args) == 1
        captured = capsys.readouterr()
        said = (captured.out + captured.err).strip()
        assert "not a regular file" in said and len(said.splitlines()) == 1


_OPENAI_CORPUS = Path(__file__).parent / "conversations" / "corpus" / "openai" / "requests"


def test_convert_prints_the_other_providers_payload(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """convert reads a payload for one provider and prints it rendered for another."""
    source = _OPENAI_CORPUS / "07_tool_loop.json"
    assert main(["carry", str(source), "--from", "openai", "--to", "anthropic"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["messages"][0]["role"] == "user"
    blocks = [b for m in out["messages"] if isinstance(m["content"], list) for b in m["content"]]
    assert any(b["type"] == "tool_use" for b in blocks)
    assert any(b["type"] == "tool_result" for b in blocks)


def test_convert_says_each_loss_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """What the target cannot carry is one line each on stderr; --on-loss error exits 1."""
    source = _OPENAI_CORPUS / "06_file_references.json"
    assert main(["carry", str(source), "--from", "openai", "--to", "gemini"]) == 0
    err = capsys.readouterr().err
    assert "mediaparts: gemini: gemini cannot carry FilePart" in err
    args = ["carry", str(source), "--from", "openai", "--to", "gemini", "--on-loss", "error"]
    assert main(args) == 1
    assert "on_loss='error'" in capsys.readouterr().err


def test_convert_reads_stdin_and_refuses_bad_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """'-' reads the payload from stdin; text that is not JSON is one error line, exit 1."""
    payload = {"messages": [{"role": "user", "content": "Write a haiku"}]}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(payload)))
    assert main(["carry", "-", "--from", "openai", "--to", "gemini"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "contents": [{"role": "user", "parts": [{"text": "Write a haiku"}]}]
    }
    monkeypatch.setattr(sys, "stdin", io.StringIO("{not json"))
    assert main(["carry", "-", "--from", "openai", "--to", "gemini"]) == 1
    assert "is not JSON" in capsys.readouterr().err


def test_convert_refuses_a_file_that_is_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A payload file in another encoding is one error line, exit 1, never a traceback."""
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe\x00bad")
    assert main(["carry", str(bad), "--from", "openai", "--to", "anthropic"]) == 1
    assert "is not UTF-8 JSON" in capsys.readouterr().err


def test_inspect_says_the_model_it_assumed(
    testdata: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before the inputs, one line per provider: the model, or the default rules taken."""
    photo = str(testdata / "photo.jpg")
    assert main(["inspect", photo, "--provider", "anthropic", "--provider", "gemini"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("anthropic: no --model, so the default rules, for claude-3* (")
    assert lines[1].startswith("gemini: no --model, so the default rules, for gemini-3* (")
    assert main(["inspect", photo, "--provider", "openai", "--model", "gpt-4o"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "openai: model gpt-4o, rules for gpt-4o*"


@pytest.mark.parametrize(
    ("model", "rule"), [(None, "claude-3*"), ("claude-opus-4-7", "claude-*-4-[7-9]*")]
)
def test_inspect_json_carries_the_model(
    model: str | None, rule: str, testdata: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--json gives each provider's verdict the model and the model table row used."""
    args = ["inspect", "--json", str(testdata / "photo.jpg"), "--provider", "anthropic"]
    assert main(args + (["--model", model] if model else [])) == 0
    verdict = json.loads(capsys.readouterr().out)["providers"]["anthropic"]
    assert (verdict["model"], verdict["model_rule"]) == (model, rule)


def test_render_says_the_model_on_stderr(
    testdata: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """render notes the model on stderr, a file or a terminal; stdout stays the payload's JSON."""
    args = ["render", str(testdata / "photo.jpg"), "--provider", "bedrock", "--summary"]
    assert main([*args, "--model", "us.anthropic.claude-opus-4-7"]) == 0
    out, err = capsys.readouterr()
    assert "messages" in json.loads(out)
    note = "mediaparts: bedrock: model us.anthropic.claude-opus-4-7, rules for *claude-*-4-[7-9]*\n"
    assert err == note


@pytest.fixture
def strict_models() -> Iterator[None]:
    """Unknown models are errors for the test, as `mp.configure(unknown_models="error")` sets."""
    mp.configure(unknown_models="error")
    try:
        yield
    finally:
        mp.configure(unknown_models="warn")


def test_unknown_model_warns_once_and_goes_on(
    testdata: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """By default a --model no row matches is said once on stderr, naming the default rules
    used, and the command runs with them, as the library does (UnknownModelWarning)."""
    photo = str(testdata / "photo.jpg")
    assert main(["inspect", photo, "--provider", "anthropic", "--model", "gpt-9"]) == 0
    out, err = capsys.readouterr()
    assert err.count("warning: unknown model 'gpt-9' for anthropic") == 1
    assert "using the default rules, for 'claude-3*'" in err
    assert "anthropic" in out
    with pytest.warns(mp.UnknownModelWarning, match=r"gpt-9.*default rules"):
        mp.normalize(photo, "anthropic", model="gpt-9")


@pytest.mark.parametrize(
    ("command", "provider"),
    [
        (["inspect", "photo.jpg", "--provider", "openai", "--provider", "anthropic"], "anthropic"),
        (["normalize", "photo.jpg", "--provider", "anthropic"], "anthropic"),
        (["render", "photo.jpg", "--provider", "gemini"], "gemini"),
        (["carry", "payload.json", "--from", "openai", "--to", "anthropic"], "anthropic"),
        (["convert", "payload.json", "--from", "openai", "--to", "anthropic"], "anthropic"),
    ],
)
def test_unknown_model_is_a_usage_error_when_unknown_models_are_errors(
    command: list[str], provider: str, capsys: pytest.CaptureFixture[str], strict_models: None
) -> None:
    """With unknown models errors (as for the library), a --model no row matches: exit 2,
    naming the known patterns."""
    assert main([*command, "--model", "gpt-4o-mini"]) == 2
    out, err = capsys.readouterr()
    patterns = ", ".join(mp.providers.get(provider).rules.model_patterns)
    assert out == ""
    assert err == (
        f"mediaparts {command[0]}: error: unknown model 'gpt-4o-mini' for {provider}; "
        f"its known model patterns: {patterns}\n"
    )


@pytest.mark.parametrize(
    ("tables", "model", "line"),
    [
        ("none", None, "plain: no --model"),
        ("none", "any-model", "plain: model any-model"),  # no table: every model is taken
        ("costs", None, "plain: no --model, so the default rules, for *"),
    ],
)
def test_inspect_model_line_for_a_provider_without_an_image_table(
    tables: str, model: str | None, line: str, testdata: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A provider with no image table is said by its media table's row, or by the model alone."""
    import dataclasses

    from mediaparts.providers import openai

    costs = openai.RULES.costs if tables == "costs" else ()
    rules = dataclasses.replace(openai.RULES, vision=(), costs=costs)
    mp.providers.register("plain", wire="openai", rules=rules)
    try:
        args = ["inspect", str(testdata / "photo.jpg"), "--provider", "plain"]
        assert main(args + (["--model", model] if model else [])) == 0
    finally:
        mp.providers.unregister("plain")
    assert capsys.readouterr().out.splitlines()[0] == line


def test_cli_convert_is_carry_under_its_old_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`convert` (the old name of `carry`) prints what `carry` prints, and says it was renamed."""
    source = tmp_path / "payload.json"
    source.write_text(json.dumps({"messages": [{"role": "user", "content": "Hi"}]}))
    assert main(["carry", str(source), "--from", "openai", "--to", "anthropic"]) == 0
    carried = capsys.readouterr()
    assert main(["convert", str(source), "--from", "openai", "--to", "anthropic"]) == 0
    converted = capsys.readouterr()
    assert converted.out == carried.out
    assert "'convert' is now 'carry'" in converted.err and carried.err == ""
