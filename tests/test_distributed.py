"""The Ray path of `mediaparts.distributed`, on one local Ray instance for the module: the
output is the local path's (`mp.normalize`, `mp.render`, `mp.batch_line` into a
`BatchWriter`), byte for byte and in order, errors become rows when asked, and the caller's
dataset is left as it was. Skips without Ray.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.distributed import normalize_dataset, render_dataset, write_batch_dataset
from mediaparts.distributed._ray import ray_module
from tests._builders import KNOWN_MODELS, TESTDATA

pytestmark = pytest.mark.slow  # starts a local Ray

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")

NOT_A_DATASET: Any = [{"source": b"x"}]
NOT_A_MODE: Any = "skip"
IMAGES = ("photo.jpg", "alpha.png", "image.bmp", "cmyk.jpg", "progressive.jpg", "lossy.webp")


@pytest.fixture(scope="module", autouse=True)
def _ray(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """One local Ray of 2 CPUs for the module, its files in a temporary folder."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
        logging_level=logging.ERROR,
        _temp_dir=str(tmp_path_factory.mktemp("ray")),
    )
    ray_module().data.DataContext.get_current().enable_progress_bars = False
    try:
        yield
    finally:
        ray.shutdown()


def _images() -> list[bytes]:
    return [(TESTDATA / name).read_bytes() for name in IMAGES]


@pytest.mark.parametrize("provider", mp.providers.names())
def test_normalize_dataset_matches_normalize(provider: str) -> None:
    """Each output row holds mp.normalize's bytes and facts for its input row, in input order."""
    raws = _images() * 3
    ds = ray.data.from_items([{"source": raw, "n": i} for i, raw in enumerate(raws)])
    rows = normalize_dataset(ds, provider, batch_size=2).take_all()
    assert [r["n"] for r in rows] == list(range(len(raws)))
    for raw, row in zip(raws, rows, strict=True):
        local = mp.normalize(raw, provider)
        assert (row["data"], row["media_type"], row["tokens"], tuple(row["steps"])) == (
            local.data,
            local.media_type,
            local.tokens,
            local.steps,
        )


def test_normalize_dataset_reads_binary_files(tmp_path: Path) -> None:
    """A dataset read with ray.data.read_binary_files normalizes its `bytes` column."""
    for name in IMAGES:
        (tmp_path / name).write_bytes((TESTDATA / name).read_bytes())
    ds = ray.data.read_binary_files(str(tmp_path), include_paths=True)
    rows = normalize_dataset(ds, "anthropic", column="bytes").take_all()
    assert sorted(Path(r["path"]).name for r in rows) == sorted(IMAGES)
    for row in rows:
        assert row["data"] == mp.normalize(Path(row["path"]), "anthropic").data


def test_normalize_dataset_keeps_errors_as_rows(tmp_path: Path) -> None:
    """With errors="keep", bad rows hold their error and the good rows their result."""
    (tmp_path / "a.jpg").write_bytes((TESTDATA / "photo.jpg").read_bytes())
    sources = ["a.jpg", "/etc/passwd", "../a.jpg", "http://127.0.0.1/x.png", None, "a.jpg"]
    ds = ray.data.from_items([{"source": s} for s in sources])
    rows = normalize_dataset(ds, "openai", base_dir=tmp_path, errors="keep").take_all()
    kinds = [r["error_type"] for r in rows]
    assert kinds == [None, "BlockedPath", "BlockedPath", "BlockedURL", "InvalidMedia", None]
    assert rows[0]["data"] == rows[5]["data"] == mp.normalize(tmp_path / "a.jpg", "openai").data


def test_normalize_dataset_raises_by_default() -> None:
    """With errors="raise", one bad row stops the job with our error, class and message."""
    ds = ray.data.from_items([{"source": "secret.jpg"}])
    with pytest.raises(mp.BlockedPath, match="secret"):
        normalize_dataset(ds, "openai").take_all()


def test_normalize_dataset_leaves_the_callers_dataset_alone() -> None:
    """The output keeps order and lets its map use every CPU, through its own context; the
    caller's dataset and its context are unchanged."""
    ds = ray.data.from_items([{"source": b"x"}])
    before = ds.context.execution_options.preserve_order
    reserved = ds.context.op_resource_reservation_enabled
    out = normalize_dataset(ds, "openai")
    assert out.context.execution_options.preserve_order is True
    assert out.context.op_resource_reservation_enabled is False
    assert ds.context.execution_options.preserve_order is before
    assert ds.context.op_resource_reservation_enabled is reserved
    assert ds.columns() == ["source"]


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (
            lambda ds: normalize_dataset(NOT_A_DATASET, "openai"),
            mp.InvalidConfig,
            "ray.data.Dataset",
        ),
        (lambda ds: normalize_dataset(ds, "openai", column="image"), mp.InvalidConfig, "image"),
        (lambda ds: normalize_dataset(ds, "openai", batch_size=0), mp.InvalidConfig, "batch"),
        (lambda ds: normalize_dataset(ds, "nobody"), mp.UnknownProvider, "nobody"),
        (lambda ds: render_dataset(ds, "openai", errors=NOT_A_MODE), mp.InvalidConfig, "errors"),
    ],
)
def test_dataset_functions_refuse_wrong_calls(
    call: Any, error: type[Exception], match: str
) -> None:
    """A wrong argument is refused before any Ray task starts."""
    ds = ray.data.from_items([{"source": b"x"}]).materialize()
    with pytest.raises(error, match=match):
        call(ds)


@pytest.mark.parametrize("provider", mp.providers.names())
def test_render_dataset_matches_render(provider: str) -> None:
    """Each payload is mp.render's for the row's conversation, as JSON text, in order."""
    photos = _images()
    conversations = [
        [mp.System("Be brief."), mp.User(f"Photo {i}?", files=[raw])]
        for i, raw in enumerate(photos)
    ]
    ds = ray.data.from_items(
        [{"conversation": json.dumps([m.to_dict() for m in c])} for c in conversations]
    )
    rows = render_dataset(ds, provider, batch_size=2).take_all()
    for conversation, row in zip(conversations, rows, strict=True):
        local = mp.render(conversation, provider)
        assert json.loads(row["payload"]) == json.loads(json.dumps(local, default=_b64))
        assert row["warnings"] == [] and row["error"] is None


@pytest.mark.parametrize("how", ["keyword", "options"])
def test_render_dataset_foreign_reasoning(how: str, tmp_path: Path) -> None:
    """Another provider's reasoning goes as text when asked, as keyword or as mp.Options,
    in render_dataset and write_batch_dataset alike."""
    thought = [
        mp.User("q"),
        mp.Assistant([mp.ReasoningPart(text="a thought", provider="acme"), "answer"]),
        mp.User("more"),
    ]
    settings: dict[str, Any] = (
        {"foreign_reasoning": "text"}
        if how == "keyword"
        else {"options": mp.Options(foreign_reasoning="text")}
    )
    rows = [{"custom_id": "r1", "conversation": json.dumps([m.to_dict() for m in thought])}]
    ds = ray.data.from_items(rows)
    (row,) = render_dataset(ds, "openai", **settings).take_all()
    assert json.loads(row["payload"]) == mp.render(thought, "openai", foreign_reasoning="text")
    (batch,) = write_batch_dataset(ds, "openai", tmp_path, model="gpt-4o", **settings)
    assert b"a thought" in batch.path.read_bytes()


def _b64(value: Any) -> str:
    import base64

    assert isinstance(value, bytes)
    return base64.b64encode(value).decode()


def test_render_dataset_prompt_and_media_columns() -> None:
    """A prompt and a media column make one user message per row."""
    raws = _images()
    ds = ray.data.from_items([{"p": f"Photo {i}", "m": raw} for i, raw in enumerate(raws)])
    rows = render_dataset(ds, "anthropic", prompt="p", media="m").take_all()
    for i, (raw, row) in enumerate(zip(raws, rows, strict=True)):
        local = mp.render([mp.User(f"Photo {i}", files=[raw])], "anthropic")
        assert json.loads(row["payload"]) == local


def _local_batch(
    provider: str, requests: list[tuple[str, Any]], out_dir: Path, **limits: Any
) -> list[bytes]:
    """What mp.write_batch writes: batch_line for each request, in order, into one writer."""
    with mp.BatchWriter(provider, out_dir, **limits) as writer:
        for custom_id, conversation in requests:
            writer.add(custom_id, _line(provider, custom_id, conversation))
    return [f.path.read_bytes() for f in writer.close()]


def _line(provider: str, custom_id: str, conversation: Any) -> bytes:
    return mp.batch_line(
        custom_id, conversation, provider, model=KNOWN_MODELS[provider], params={"max_tokens": 64}
    )


def _batch_providers() -> list[str]:
    return [n for n in mp.providers.names() if mp.providers.get(n).batch_request is not None]


@pytest.mark.parametrize("provider", _batch_providers())
def test_write_batch_dataset_matches_the_local_files(provider: str, tmp_path: Path) -> None:
    """The files are byte for byte those of the local path, split at the same limits."""
    raws = _images() * 2
    ds = ray.data.from_items(
        [{"custom_id": f"req-{i}", "p": f"Photo {i}", "m": raw} for i, raw in enumerate(raws)]
    )
    files = write_batch_dataset(
        ds,
        provider,
        tmp_path / "ray",
        prompt="p",
        media="m",
        model=KNOWN_MODELS[provider],
        params={"max_tokens": 64},
        max_requests=5,
        batch_size=2,
    )
    requests = [(f"req-{i}", [mp.User(f"Photo {i}", files=[raw])]) for i, raw in enumerate(raws)]
    local = _local_batch(provider, requests, tmp_path / "local", max_requests=5)
    assert [f.path.read_bytes() for f in files] == local
    assert [f.requests for f in files] == [5, 5, 2]
    written = mp.write_batch(
        requests,
        provider,
        tmp_path / "wb",
        model=KNOWN_MODELS[provider],
        params={"max_tokens": 64},
        max_requests=5,
        workers=1,
    )
    assert [f.path.read_bytes() for f in written] == local


def test_write_batch_dataset_raises_the_local_error(tmp_path: Path) -> None:
    """With errors="raise", the first failing row raises the error the local path raises."""
    rows = [
        {"custom_id": "ok", "conversation": json.dumps([{"role": "user", "content": "hi"}])},
        {
            "custom_id": "bad",
            "conversation": json.dumps([{"role": "user", "content": [{"path": "/etc/hosts"}]}]),
        },
    ]
    with pytest.raises(mp.BlockedPath, match="hosts"):
        write_batch_dataset(ray.data.from_items(rows), "openai", tmp_path, model="gpt-4o")


def test_write_batch_dataset_keeps_going_on_errors(tmp_path: Path) -> None:
    """With errors="keep", failing rows are left out and listed in <prefix>-errors.jsonl."""
    convo = json.dumps([{"role": "user", "content": "hi"}])
    rows = [
        {"custom_id": "a", "conversation": convo},
        {"custom_id": "b", "conversation": "not json"},
        {"custom_id": "c", "conversation": convo},
    ]
    files = write_batch_dataset(
        ray.data.from_items(rows),
        "openai",
        tmp_path / "out",
        model="gpt-4o",
        params={"max_tokens": 64},
        errors="keep",
    )
    local = _local_batch(
        "openai", [("a", [mp.User("hi")]), ("c", [mp.User("hi")])], tmp_path / "local"
    )
    assert [f.path.read_bytes() for f in files] == local
    failed = (tmp_path / "out" / "batch-errors.jsonl").read_text().splitlines()
    assert [json.loads(line)["custom_id"] for line in failed] == ["b"]
    assert json.loads(failed[0])["error_type"] == "InvalidMedia"
    with pytest.raises(mp.InvalidConfig, match=r"batch-errors\.jsonl already exists"):
        write_batch_dataset(
            ray.data.from_items(rows), "openai", tmp_path / "out", model="x", errors="keep"
        )
