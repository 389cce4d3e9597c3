"""`write_batch`: the same files as `batch_line` into `BatchWriter`, made lazily in workers."""

from __future__ import annotations

import filecmp
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers._batching import _write as _batch_write
from tests._builders import TESTDATA

PNG = (TESTDATA / "alpha.png").read_bytes()


def requests(count: int, seen: list[int] | None = None) -> Iterator[tuple[str, Any]]:
    """`count` small image conversations; `seen` records how many were taken so far."""
    for i in range(count):
        if seen is not None:
            seen.append(i)
        yield f"img-{i}", [mp.User([f"Describe image {i}.", mp.part(PNG)])]


def by_hand(tmp_path: Path, count: int, provider: str, **kwargs: Any) -> list[mp.BatchFile]:
    limits = {k: kwargs.pop(k) for k in ("max_requests", "max_bytes") if k in kwargs}
    with mp.BatchWriter(provider, tmp_path / "hand", **limits) as writer:
        for custom_id, conversation in requests(count):
            writer.add(custom_id, mp.batch_line(custom_id, conversation, provider, **kwargs))
    return writer.close()


def same(a: list[mp.BatchFile], b: list[mp.BatchFile]) -> bool:
    return [(f.requests, f.bytes) for f in a] == [(f.requests, f.bytes) for f in b] and all(
        filecmp.cmp(x.path, y.path, shallow=False) for x, y in zip(a, b, strict=True)
    )


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize(
    ("provider", "kwargs"),
    [
        ("openai", {"model": "gpt-4o", "max_requests": 40}),
        ("anthropic", {"model": "claude-x", "params": {"max_tokens": 9}, "max_bytes": 100_000}),
        ("bedrock", {"max_requests": 33}),
    ],
)
def test_write_batch_gives_the_files_batch_line_and_writer_give(
    tmp_path: Path, provider: str, kwargs: dict[str, Any], workers: int
) -> None:
    """write_batch's files are byte for byte those of batch_line lines fed to a BatchWriter."""
    expected = by_hand(tmp_path, 100, provider, **dict(kwargs))
    written = mp.write_batch(requests(100), provider, tmp_path / "auto", workers=workers, **kwargs)
    assert len(written) > 1
    assert same(written, expected)


def test_write_batch_reads_its_input_lazily(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a bounded window of requests is taken ahead of what is written."""
    monkeypatch.setattr(_batch_write, "FIRST_CHUNK", 4)
    monkeypatch.setattr(_batch_write, "MAX_CHUNK", 4)
    seen: list[int] = []
    ahead: list[int] = []

    def progress(done: int) -> None:
        ahead.append(len(seen) - done)

    mp.write_batch(requests(400, seen), "gemini", tmp_path, workers=2, progress=progress)
    window = 2 * _batch_write.AHEAD * 4  # workers x chunks ahead x largest chunk
    assert len(seen) == 400
    assert max(ahead) <= window


@pytest.mark.parametrize("workers", [1, 2])
def test_write_batch_reports_progress_up_to_the_total(tmp_path: Path, workers: int) -> None:
    """progress is called with a rising count that ends at the number of requests."""
    counts: list[int] = []
    mp.write_batch(requests(70), "gemini", tmp_path, workers=workers, progress=counts.append)
    assert counts == sorted(counts) and counts[-1] == 70


def test_write_batch_names_the_request_that_fails(tmp_path: Path) -> None:
    """An error making one line names its id, from a worker too."""
    bad = [("ok", "hi"), ("broken", [mp.User([mp.part(PNG[:60])])])]
    with pytest.raises(mp.MediaError, match="'broken'"):
        mp.write_batch(bad, "gemini", tmp_path, workers=2)


def test_write_batch_refuses_a_repeated_id(tmp_path: Path) -> None:
    """A repeated id is refused as BatchWriter refuses it."""
    with pytest.raises(mp.ProviderLimitError, match="twice"):
        mp.write_batch([("a", "x"), ("a", "y")], "gemini", tmp_path, workers=1)


def test_write_batch_reraises_losses_as_warnings(tmp_path: Path) -> None:
    """A part the provider cannot carry is reported here, as render would, from workers too."""
    lost = [mp.User(["hi"]), mp.Assistant([mp.ReasoningPart(text="t", provider="gemini")])]
    with pytest.warns(mp.ConversionWarning, match="ReasoningPart"):
        mp.write_batch([("a", lost), ("b", lost)], "openai", tmp_path, model="gpt-4o", workers=2)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "words"),
    [
        ("pairs", {"workers": 0}, mp.InvalidConfig, "workers"),
        ("pairs", {"workers": True}, mp.InvalidConfig, "workers"),
        ("pairs", {"progress": 3}, mp.InvalidConfig, "progress"),
        ("pairs", {"urls": "sometimes"}, mp.InvalidConfig, "urls"),
        ("pairs", {"params": [1]}, mp.InvalidConfig, "params"),
        ("text", {}, mp.InvalidMedia, "iterable of"),
        ("triples", {}, mp.InvalidMedia, "request 0"),
    ],
)
def test_write_batch_refuses_wrong_arguments(
    tmp_path: Path, args: str, kwargs: dict[str, Any], error: type[Exception], words: str
) -> None:
    """Settings and the input's form are checked, with our errors."""
    given: Any = {"pairs": [("a", "hi")], "text": "a,hi", "triples": [("a", "hi", 1)]}[args]
    with pytest.raises(error, match=words):
        mp.write_batch(given, "gemini", tmp_path, **kwargs)


def test_write_batch_leaves_the_conversations_unchanged(tmp_path: Path) -> None:
    """The caller's messages are not changed by rendering them."""
    conversation = [mp.User(["hi", mp.part(PNG)])]
    before = [m.to_dict() for m in conversation]
    mp.write_batch([("a", conversation)], "openai", tmp_path, model="gpt-4o", workers=1)
    assert [m.to_dict() for m in conversation] == before


def test_write_batch_names_the_request_that_fails_in_process(tmp_path: Path) -> None:
    """In this process too, an error making one line names its id."""
    bad = [("ok", "hi"), ("broken", [mp.User([mp.part(PNG[:60])])])]
    with pytest.raises(mp.MediaError, match="'broken'"):
        mp.write_batch(bad, "gemini", tmp_path, workers=1)


def test_write_batch_chunk_returns_lines_and_warnings() -> None:
    """A worker's chunk gives back each id's line, and the warnings raised making them."""
    job = _batch_write._Job(
        mp.providers.get("openai"), {}, mp.Options(model="gpt-4o", transforms=mp.TransformPolicy())
    )
    lost = [mp.User(["hi"]), mp.Assistant([mp.ReasoningPart(text="t", provider="gemini")])]
    lines, caught = _batch_write._chunk(job, [("a", "hi"), ("b", lost)])
    assert [custom_id for custom_id, _ in lines] == ["a", "b"]
    assert lines[0][1] == mp.batch_line("a", "hi", "openai", model="gpt-4o")
    ((message, category),) = caught
    assert category is mp.ConversionWarning and "ReasoningPart" in message


def test_write_batch_sizes_chunks_by_the_bytes_of_their_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Large lines make small chunks: the requests in flight hold about CHUNK_BYTES each."""
    monkeypatch.setattr(_batch_write, "CHUNK_BYTES", 1)  # every line is "large"
    sizes: list[int] = []
    submit = ProcessPoolExecutor.submit

    def spy(self: Any, fn: Any, job: Any, chunk: list[Any]) -> Any:
        sizes.append(len(chunk))
        return submit(self, fn, job, chunk)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", spy)
    files = mp.write_batch(requests(100), "gemini", tmp_path, workers=2)
    assert sum(f.requests for f in files) == 100
    assert sizes[0] == _batch_write.FIRST_CHUNK and set(sizes[-10:]) == {1}


def test_write_batch_bounds_the_media_in_flight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Requests are read ahead only until their media reach INPUT_BYTES (one at least)."""
    photo = mp.ImagePart.from_path(TESTDATA / "alpha.png")
    assert photo.size is not None
    monkeypatch.setattr(_batch_write, "INPUT_BYTES", 3 * photo.size)
    pulled = 0
    ahead: list[int] = []

    def requests() -> Iterator[tuple[str, Any]]:
        nonlocal pulled
        for i in range(20):
            pulled += 1
            yield f"r{i}", [mp.User(["What is it?", photo])]

    files = mp.write_batch(
        requests(), "gemini", tmp_path, workers=2, progress=lambda done: ahead.append(pulled - done)
    )
    assert sum(f.requests for f in files) == 20
    assert max(ahead) <= 3


@pytest.mark.parametrize(
    ("conversation", "weight"),
    [
        ("text", 0),
        (b"1234", 4),
        (mp.ImagePart.from_url("https://example.com/a.png"), 0),
        ([mp.User(["a", mp.part(PNG)]), mp.System("b")], len(PNG)),
        ([[b"12"]], 0),
        ({"role": "user"}, 0),
    ],
    ids=["text", "bytes", "url", "messages", "nested", "dict"],
)
def test_write_batch_weighs_the_loaded_media(conversation: Any, weight: int) -> None:
    """A conversation's weight is the bytes of its loaded media, what it holds in memory."""
    assert _batch_write._weight(conversation) == weight


def _die() -> None:
    os._exit(3)


class _KillsTheWorker:
    """A conversation whose unpickling ends the worker process, as the OOM killer would."""

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return _die, ()


def test_write_batch_names_the_requests_of_a_dead_worker(tmp_path: Path) -> None:
    """A worker that dies is a MediaError saying so, not a bare BrokenProcessPool."""

    def requests() -> Iterator[tuple[str, Any]]:
        yield "first", "hello"
        yield "bomb", _KillsTheWorker()

    with pytest.raises(mp.MediaError, match=r"a worker process died .* from 'first' on"):
        mp.write_batch(requests(), "gemini", tmp_path, workers=2)
