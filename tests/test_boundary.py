"""The public boundary: only MediaError leaves an entry point, the cause kept; what the
caller's own code raises, and interrupts, pass unchanged."""

from __future__ import annotations

import asyncio
import io
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts._boundary import _raised_by_caller, theirs
from mediaparts.cli import main
from tests._builders import TESTDATA

PNG = (TESTDATA / "alpha.png").read_bytes()


def raising(error: BaseException) -> Callable[..., Any]:
    """A stand-in for an internal function that raises `error`, compiled as if it lived in
    mediaparts: the boundary judges the innermost frame, and a function of this test file
    would count as the caller's own code."""
    namespace: dict[str, Any] = {"error": error}
    exec(compile("def boom(*args, **kwargs):\n    raise error\n", mp.__file__, "exec"), namespace)
    return namespace["boom"]  # type: ignore[no-any-return]


def _read_all(source: Any) -> list[Any]:
    return list(mp.read_batch_results(source, "openai"))


# Each public entry point: the internal it calls first (patched to fail) and a call.
ENTRIES: list[tuple[str, str, Callable[[Path], Any]]] = [
    (
        "normalize",
        "mediaparts.providers._fitting._normalize._start",
        lambda _: mp.normalize(PNG, "openai"),
    ),
    (
        "anormalize",
        "mediaparts.providers._fitting._normalize._start",
        lambda _: asyncio.run(mp.anormalize(PNG, "openai")),
    ),
    (
        "normalize_many",
        "mediaparts.providers._fitting._normalize._media",
        lambda _: mp.normalize_many([PNG], "openai"),
    ),
    (
        "count_tokens",
        "mediaparts.providers._budgets._count._prepare",
        lambda _: mp.count_tokens(PNG, "openai"),
    ),
    (
        "estimate_tokens",
        "mediaparts.providers._budgets._count._prepare",
        lambda _: mp.estimate_tokens(PNG, "openai"),
    ),
    (
        "render",
        "mediaparts.providers._render._conversation",
        lambda _: mp.render("hi", "openai"),
    ),
    (
        "arender",
        "mediaparts.providers._render._conversation",
        lambda _: asyncio.run(mp.arender("hi", "openai")),
    ),
    ("part", "mediaparts._conversation._make_part._check_fields", lambda _: mp.part(PNG)),
    ("detect", "mediaparts.detection._detect._decide", lambda _: mp.detect(PNG)),
    ("from_upload", "mediaparts._upload._request", lambda _: mp.from_upload(io.BytesIO(PNG))),
    (
        "message_from_dict",
        "mediaparts._conversation._messages._message_from_dict",
        lambda _: mp.message_from_dict({"role": "user", "content": "hi"}),
    ),
    ("messages_from", "mediaparts.providers._read.get", lambda _: mp.messages_from({}, "openai")),
    (
        "message_from_response",
        "mediaparts.providers._read.get",
        lambda _: mp.message_from_response({}, "openai"),
    ),
    ("check", "mediaparts.providers._check.check_model", lambda _: mp.check({}, "openai")),
    (
        "trim",
        "mediaparts.providers._budgets._trim.as_messages",
        lambda _: mp.trim(["hi"], "openai", max_tokens=100),
    ),
    (
        "upload",
        "mediaparts.uploading._send.start",
        lambda _: mp.upload(PNG, "openai", client=object(), cache=None),
    ),
    (
        "batch_line",
        "mediaparts.providers._batching._lines.render",
        lambda _: mp.batch_line("a", "hi", "openai", model="gpt-4o"),
    ),
    (
        "BatchWriter.add",
        "mediaparts.providers._batching._lines.check_id",
        lambda tmp: mp.BatchWriter("openai", tmp).add("a", b"{}\n"),
    ),
    (
        "write_batch",
        "mediaparts.providers._batching._write._pairs",
        lambda tmp: mp.write_batch([("a", "hi")], "openai", tmp, model="gpt-4o", workers=1),
    ),
    (
        "read_batch_results",
        "mediaparts.providers._batching._results._result",
        lambda _: _read_all([b"{}"]),
    ),
]

# What each foreign exception becomes (made afresh for each test: a raised exception keeps
# its traceback, and the boundary reads its innermost frame).
MAPPED: list[tuple[Callable[[], BaseException], type[mp.MediaError], str]] = [
    (MemoryError, mp.MediaTooLarge, "ran out of memory while"),
    (lambda: RuntimeError("boom"), mp.InternalError, "internal error while .*RuntimeError: 'boom'"),
    (lambda: KeyError("k"), mp.InternalError, "please report it"),
    (lambda: TypeError("t"), mp.InternalError, "TypeError"),
    (RecursionError, mp.InvalidMedia, "nested too deeply"),
    (
        lambda: UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates"),
        mp.InvalidMedia,
        "surrogate",
    ),
    (lambda: OSError(28, "No space left on device"), mp.InternalError, "No space left on device"),
]


@pytest.mark.parametrize(("name", "target", "call"), ENTRIES, ids=[e[0] for e in ENTRIES])
@pytest.mark.parametrize(
    ("make", "kind", "words"), MAPPED, ids=[w.split()[0] for _, _, w in MAPPED]
)
def test_boundary_maps_foreign_exceptions(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    name: str,
    target: str,
    call: Callable[[Path], Any],
    make: Callable[[], BaseException],
    kind: type[mp.MediaError],
    words: str,
) -> None:
    """A foreign exception inside any public entry point is our error, the cause kept."""
    error = make()
    monkeypatch.setattr(target, raising(error))
    with pytest.raises(kind, match=words) as caught:
        call(tmp_path)
    assert caught.value.__cause__ is error


@pytest.mark.parametrize(
    "error", [KeyboardInterrupt(), SystemExit(3), GeneratorExit(), asyncio.CancelledError()]
)
def test_boundary_lets_interrupts_pass(
    monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    """Interrupts, exits and cancellation are never wrapped."""
    monkeypatch.setattr("mediaparts.providers._fitting._normalize._start", raising(error))
    with pytest.raises(type(error)) as caught:
        mp.normalize(PNG, "openai")
    assert caught.value is error


def test_boundary_lets_the_callers_own_exceptions_pass(tmp_path: Path) -> None:
    """What the caller's code raises (a generator of requests, a progress callback) is theirs."""

    def requests() -> Any:
        yield ("a", "hi")
        raise LookupError("my database went away")

    with pytest.raises(LookupError, match="my database"):
        mp.write_batch(requests(), "gemini", tmp_path / "one", workers=1)

    def progress(done: int) -> None:
        raise ValueError("my progress bar broke")

    with pytest.raises(ValueError, match="my progress bar") as caught:
        mp.write_batch([("a", "hi")], "gemini", tmp_path / "two", workers=1, progress=progress)
    assert not isinstance(caught.value, mp.MediaError)


def test_boundary_lets_a_marked_sdk_error_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """An SDK's error for a failed upload (marked where the SDK is called) passes unchanged,
    as upload documents."""

    class APIError(Exception):
        pass

    failure = APIError("401 unauthorized")
    theirs(failure)
    monkeypatch.setattr("mediaparts.uploading._send.start", raising(failure))
    with pytest.raises(APIError) as caught:
        mp.upload(PNG, "openai", client=object(), cache=None)
    assert caught.value is failure


def test_boundary_reads_batch_results_lazily_and_still_maps(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Results are read after read_batch_results returns; the mapping holds there too."""
    path = tmp_path / "results.jsonl"
    path.write_text("{}\n")
    results = mp.read_batch_results(path, "openai")
    monkeypatch.setattr("mediaparts.providers._batching._results._result", raising(MemoryError()))
    with pytest.raises(mp.MediaTooLarge, match="reading batch results"):
        next(iter(results))


def test_boundary_memory_error_in_a_transform_is_media_too_large(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A MemoryError while converting is MediaTooLarge naming what was done; in a counted
    conversation the part is unknown with that reason, and the rest is counted."""
    monkeypatch.setattr("mediaparts.providers._fitting._normalize._prepare", raising(MemoryError()))
    with pytest.raises(mp.MediaTooLarge, match="ran out of memory while normalizing"):
        mp.normalize(PNG, "openai")


def test_boundary_foreign_error_in_one_part_leaves_the_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A part whose pricing fails in a way nobody foresaw is unknown, with why; the text of
    the conversation is still counted."""
    monkeypatch.setattr(
        "mediaparts.providers._budgets._count_parts.media_part_tokens",
        raising(RuntimeError("decoder")),
    )
    counted = mp.count_tokens([mp.User(["Describe this", mp.part(PNG)])], "anthropic")
    (unknown,) = counted.unknown
    assert unknown.tokens == 0 and "internal error" in unknown.how and "decoder" in unknown.how
    assert counted.total > 0


def test_cli_prints_one_line_for_an_internal_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bug reached from the CLI is one error line, exit 1, never a traceback."""
    monkeypatch.setattr("mediaparts.cli._main._run_inspect", raising(RuntimeError("boom")))
    assert main(["inspect", str(TESTDATA / "alpha.png")]) == 1
    err = capsys.readouterr().err
    assert "internal error" in err and "Traceback" not in err and len(err.splitlines()) == 1


def test_boundary_judges_the_innermost_frame() -> None:
    """No traceback, or code the interpreter made (`<string>`), counts as mediaparts' own;
    a frame of this file counts as the caller's."""
    assert not _raised_by_caller(RuntimeError("never raised"))
    namespace: dict[str, Any] = {}
    exec(compile("def boom():\n    raise RuntimeError('x')\n", "<string>", "exec"), namespace)
    with pytest.raises(RuntimeError) as interpreters:
        namespace["boom"]()
    assert not _raised_by_caller(interpreters.value)

    def mine() -> None:
        raise RuntimeError("mine")

    with pytest.raises(RuntimeError) as callers:
        mine()
    assert _raised_by_caller(callers.value)


def test_boundary_names_the_file_of_an_os_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """An OS error below an entry point says what failed and on which file."""
    error = FileNotFoundError(2, "No such file or directory", "/srv/missing.png")
    monkeypatch.setattr("mediaparts.providers._fitting._normalize._start", raising(error))
    with pytest.raises(mp.InternalError, match=r"'/srv/missing\.png': No such file") as caught:
        mp.normalize(PNG, "openai")
    assert caught.value.doing == "normalizing"


def test_boundary_passes_a_warning_raised_as_an_error(testdata: Path) -> None:
    """A warning the caller's filter turned into an error leaves as that warning, not as an
    InternalError: the filter is the caller's own choice."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", mp.UnknownModelWarning)
        with pytest.raises(mp.UnknownModelWarning):
            mp.normalize(testdata / "alpha.png", "openai", model="totally-made-up")
