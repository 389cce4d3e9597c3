"""The row work of `mediaparts.distributed`, run in this process on Arrow batches: the same
functions the Ray tasks run, checked against `mp.normalize`, `mp.render` and `mp.batch_line`.

Ray itself is not started here (tests/test_distributed.py runs the Ray path); only pyarrow is
needed. The missing-extra error and the import cost need neither.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.distributed import _rows, _tables
from mediaparts.fetching import default_policy
from tests._builders import KNOWN_MODELS, TESTDATA

IMAGES = ("photo.jpg", "alpha.png", "image.bmp", "cmyk.jpg")


@pytest.fixture
def pa() -> Any:
    """pyarrow (installed with ray[data]); the test skips without it."""
    return pytest.importorskip("pyarrow")


def _opts(provider: str = "openai", **given: Any) -> _rows.RowJob:
    return _rows.options("a test", provider, **given)


def _b64(value: Any) -> Any:
    """A payload as its JSON text carries it: bytes as base64 text."""
    return json.loads(_rows.payload_json(value))


@pytest.mark.parametrize("provider", mp.providers.names())
def test_normalized_table_matches_normalize(pa: Any, provider: str) -> None:
    """Each row of a normalized batch holds exactly what mp.normalize returns for its bytes."""
    raws = [(TESTDATA / name).read_bytes() for name in IMAGES]
    table = pa.table({"source": pa.array(raws, pa.binary()), "n": list(range(len(raws)))})
    out = _tables.normalized_table(table, _opts(provider), _tables.Columns("source"))
    rows = out.to_pylist()
    assert [r["n"] for r in rows] == list(range(len(raws)))
    for raw, row in zip(raws, rows, strict=True):
        local = mp.normalize(raw, provider)
        assert row["data"] == local.data, provider
        assert (row["media_type"], row["width"], row["height"], row["tokens"]) == (
            local.media_type,
            local.width,
            local.height,
            local.tokens,
        )
        assert tuple(row["steps"]) == local.steps and row["error"] is None


@pytest.mark.slow  # every path row normalized for every provider
def test_normalized_table_paths_only_inside_base_dir(pa: Any, tmp_path: Path) -> None:
    """A path row is read inside base_dir; outside it, or with no base_dir, it is a BlockedPath row."""
    (tmp_path / "a.jpg").write_bytes((TESTDATA / "photo.jpg").read_bytes())
    sources = ["a.jpg", str(TESTDATA / "photo.jpg"), "../a.jpg"]
    table = pa.table({"source": sources})
    kept = _opts(base_dir=tmp_path, errors="keep")
    rows = _tables.normalized_table(table, kept, _tables.Columns("source")).to_pylist()
    assert [r["error_type"] for r in rows] == [None, "BlockedPath", "BlockedPath"]
    assert rows[0]["data"] == mp.normalize(tmp_path / "a.jpg", "openai").data
    none = _tables.normalized_table(table, _opts(errors="keep"), _tables.Columns("source"))
    assert {r["error_type"] for r in none.to_pylist()} == {"BlockedPath"}


@pytest.mark.parametrize(
    ("value", "error_type"),
    [
        (None, "InvalidMedia"),
        ("http://127.0.0.1/a.png", "BlockedURL"),
        ("http://169.254.169.254/latest/meta-data", "BlockedURL"),
        ("data:image/png;base64,!!!", "InvalidMedia"),
        ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA", "InvalidMedia"),
    ],
)
def test_normalized_table_bad_row_is_an_error_row(pa: Any, value: Any, error_type: str) -> None:
    """With errors="keep", a row that fails holds its error's class and message, nothing else."""
    table = pa.table({"source": pa.array([value], pa.string())})
    (row,) = _tables.normalized_table(
        table, _opts(urls="inline", errors="keep"), _tables.Columns("source")
    ).to_pylist()
    assert row["error_type"] == error_type and row["error"]
    assert all(row[name] is None for name in _rows.NORMALIZED_COLUMNS)


def test_normalized_table_raises_by_default(pa: Any) -> None:
    """With errors="raise", the first failing row raises our error."""
    table = pa.table({"source": ["nothing/here.jpg"]})
    with pytest.raises(mp.BlockedPath, match=r"here\.jpg"):
        _tables.normalized_table(table, _opts(), _tables.Columns("source"))


def test_normalized_table_refuses_pieces(pa: Any) -> None:
    """A part the provider takes only as several pieces is an error row that says what to use."""
    table = pa.table({"source": pa.array([(TESTDATA / "clip.mp4").read_bytes()], pa.binary())})
    (row,) = _tables.normalized_table(
        table, _opts("openai", errors="keep"), _tables.Columns("source")
    ).to_pylist()
    assert row["error_type"] in ("InvalidMedia", "CodecUnavailable"), row
    if row["error_type"] == "InvalidMedia":
        assert "render_dataset" in row["error"]


@pytest.mark.parametrize(
    ("columns", "message"),
    [
        (("missing",), "no column 'missing'"),
        (("source",), "already has the column"),
    ],
)
def test_tables_refuse_wrong_columns(pa: Any, columns: tuple[str, ...], message: str) -> None:
    """A missing input column, or one the job would overwrite, is an InvalidConfig."""
    table = pa.table({"source": ["a.jpg"], "data": [b"x"]})
    with pytest.raises(mp.InvalidConfig, match=message):
        _tables.normalized_table(table, _opts(errors="keep"), _tables.Columns(*columns))


@pytest.mark.parametrize("provider", mp.providers.names())
def test_rendered_table_matches_render(pa: Any, provider: str) -> None:
    """A rendered row's payload is mp.render's, from conversation JSON and from prompt + media."""
    photo = (TESTDATA / "photo.jpg").read_bytes()
    conversation = [mp.System("Be brief."), mp.User("What is this?", files=[photo])]
    text = json.dumps([m.to_dict() for m in conversation])
    table = pa.table({"conversation": [text], "prompt": ["Describe"], "media": [photo]})
    opts = _opts(provider)
    (row,) = _tables.rendered_table(table, opts, _tables.Columns("conversation")).to_pylist()
    assert json.loads(row["payload"]) == _b64(mp.render(conversation, provider))
    assert row["payload"] == _rows.payload_json(mp.render(conversation, provider))
    split = _tables.Columns("conversation", prompt="prompt", media="media")
    (row,) = _tables.rendered_table(table, opts, split).to_pylist()
    local = mp.render([mp.User("Describe", files=[photo])], provider)
    assert row["payload"] == _rows.payload_json(local) and row["warnings"] == []


def test_rendered_table_keeps_loss_warnings(pa: Any) -> None:
    """What on_loss="warn" reports for a row lands in its warnings column, not the log."""
    convo = [
        mp.User("hi"),
        mp.Assistant([mp.ProviderPart(provider="anthropic", data={"type": "server_tool_use"})]),
    ]
    table = pa.table({"conversation": [json.dumps([m.to_dict() for m in convo])]})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows = _tables.rendered_table(table, _opts("gemini"), _tables.Columns("conversation"))
    assert caught == []
    (row,) = rows.to_pylist()
    with pytest.warns(mp.ConversionWarning) as local:
        mp.render(convo, "gemini")
    assert row["warnings"] == [str(w.message) for w in local]


@pytest.mark.parametrize(
    ("conversation", "error_type"),
    [
        ("not json", "InvalidMedia"),
        ("[" * 100_000, "InvalidMedia"),
        ('"a string"', "InvalidMedia"),
        ("[1]", "InvalidMedia"),
        ('[{"role": "user", "content": [{"path": "/etc/passwd"}]}]', "BlockedPath"),
        ('{"role": "nobody"}', "InvalidMedia"),
    ],
)
def test_rendered_table_hostile_conversation_is_an_error_row(
    pa: Any, conversation: str, error_type: str
) -> None:
    """A conversation that is no JSON list of message dicts, or names a file, is an error row."""
    table = pa.table({"conversation": [conversation]})
    (row,) = _tables.rendered_table(
        table, _opts(errors="keep"), _tables.Columns("conversation")
    ).to_pylist()
    assert row["error_type"] == error_type and row["payload"] is None


def test_rendered_table_oversized_conversation_is_refused(
    pa: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """JSON over the size cap is refused before it is parsed."""
    monkeypatch.setattr(_rows, "MAX_JSON_CHARS", 10)
    table = pa.table({"conversation": ['[{"role": "user", "content": "hello"}]']})
    (row,) = _tables.rendered_table(
        table, _opts(errors="keep"), _tables.Columns("conversation")
    ).to_pylist()
    assert row["error_type"] == "InvalidMedia" and "at most 10" in row["error"]


@pytest.mark.parametrize(
    ("prompt", "media"), [(1, None), ("hi", 3)], ids=["prompt-not-text", "media-not-media"]
)
def test_prompt_conversation_refuses_wrong_types(prompt: Any, media: Any) -> None:
    """A prompt that is no text, or media that is no path, URL or bytes, is InvalidMedia."""
    with pytest.raises(mp.InvalidMedia):
        _rows.prompt_conversation(prompt, media)


def test_conversation_of_takes_dicts() -> None:
    """A conversation may be message dicts (one, or a list), as well as their JSON text."""
    opts = _opts()
    (one,) = _rows.conversation_of({"role": "user", "content": "hi"}, opts)
    assert one.content == "hi"
    with pytest.raises(mp.InvalidMedia, match="list of message dicts"):
        _rows.conversation_of(5, opts)


def test_payload_json_refuses_what_json_cannot_carry() -> None:
    """A value JSON has no form for is InvalidMedia, not a TypeError."""
    with pytest.raises(mp.InvalidMedia, match="set"):
        _rows.payload_json({"a": {1}})


def _batch_providers() -> list[str]:
    return [n for n in mp.providers.names() if mp.providers.get(n).batch_request is not None]


def _line(provider: str, custom_id: str, messages: Any) -> bytes:
    return mp.batch_line(
        custom_id, messages, provider, model=KNOWN_MODELS[provider], params={"max_tokens": 64}
    )


@pytest.mark.parametrize("provider", _batch_providers())
def test_line_table_matches_batch_line(pa: Any, provider: str) -> None:
    """Each line is mp.batch_line's bytes for the row's id and conversation, in order."""
    photo = (TESTDATA / "photo.jpg").read_bytes()
    table = pa.table({"custom_id": ["r1", "r2"], "prompt": ["one", "two"], "media": [photo, None]})
    columns = _tables.Columns("c", prompt="prompt", media="media", custom_id="custom_id")
    opts = _opts(provider, model=KNOWN_MODELS[provider], params={"max_tokens": 64})
    out = _tables.line_table(table, opts, columns).to_pylist()
    expected = [
        _line(provider, "r1", [mp.User("one", files=[photo])]),
        _line(provider, "r2", [mp.User("two")]),
    ]
    assert [r["line"] for r in out] == expected
    assert [r["custom_id"] for r in out] == ["r1", "r2"]


def test_line_table_carries_the_error_itself(pa: Any) -> None:
    """With errors="raise", a failing row carries its exception for the driver to raise."""
    table = pa.table({"custom_id": ["r1", None], "prompt": ["a", "b"]})
    columns = _tables.Columns("c", prompt="prompt", custom_id="custom_id")
    opts = _opts(model="gpt-4o", params={"max_tokens": 64})
    rows = _tables.line_table(table, opts, columns).to_pylist()
    assert rows[0]["error_type"] is None
    error = pickle.loads(rows[1]["error_pickle"])
    assert isinstance(error, mp.InvalidMedia) and rows[1]["custom_id"] is None
    keep = _opts(model="gpt-4o", params={"max_tokens": 64}, errors="keep")
    kept = _tables.line_table(table, keep, columns).to_pylist()
    assert kept[1]["error_type"] == "InvalidMedia" and kept[1]["error_pickle"] is None


@pytest.mark.parametrize(
    ("given", "error"),
    [
        ({"provider": "nobody"}, mp.UnknownProvider),
        ({"errors": "ignore"}, mp.InvalidConfig),
        ({"urls": "sometimes"}, mp.InvalidConfig),
        ({"on_loss": "shrug"}, mp.InvalidConfig),
        ({"transforms": "fast"}, mp.InvalidConfig),
        ({"fetch": {"allow_private": True}}, mp.InvalidConfig),
        ({"base_dir": "/nowhere/at/all"}, mp.InvalidMedia),
        ({"model": 5}, mp.InvalidConfig),
    ],
)
def test_options_refuse_wrong_settings(given: dict[str, Any], error: type[Exception]) -> None:
    """A wrong setting is refused on the driver, before any task starts."""
    provider = given.pop("provider", "openai")
    with pytest.raises(error):
        _rows.options("a test", provider, **given)


def test_options_fix_the_defaults_in_force() -> None:
    """The fetch and transform policies in force on the driver go to the tasks."""
    policy = mp.TransformPolicy(max_seconds=7)
    with mp.using_transforms(policy):
        opts = _opts()
    assert opts.options.transforms == policy and opts.fetch == default_policy()


def test_columns_refuse_a_name_that_is_not_text() -> None:
    """A column name must be a string."""
    with pytest.raises(mp.InvalidConfig, match="column name"):
        _tables.Columns(3)  # type: ignore[arg-type]


def test_missing_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Ray, a call raises CodecUnavailable naming the [ray] extra."""
    from mediaparts.distributed import _ray, normalize_dataset

    monkeypatch.setitem(sys.modules, "ray", None)
    monkeypatch.setitem(sys.modules, "ray.data", None)
    with pytest.raises(mp.CodecUnavailable, match=r"\[ray\] extra") as caught:
        normalize_dataset(object(), "openai")  # type: ignore[arg-type]
    assert caught.value.extra == "ray" and caught.value.package == "ray[data]"
    assert _ray.BATCH_SIZE > 0


def test_import_does_not_load_ray() -> None:
    """Importing mediaparts.distributed loads neither Ray nor pyarrow."""
    code = (
        "import sys, mediaparts, mediaparts.distributed\n"
        "print(sorted(m for m in ('ray', 'pyarrow') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == "[]"


def test_rendered_row_says_other_warnings_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A warning that is not a ConversionWarning is not swallowed into the row: it is said again."""

    def render(*args: Any, **kwargs: Any) -> dict[str, Any]:
        warnings.warn("something else", UserWarning, stacklevel=1)
        return {"messages": []}

    monkeypatch.setattr(_rows, "render", render)
    with pytest.warns(UserWarning, match="something else"):
        row = _rows.rendered_row(list, _opts())
    assert row == {"payload": '{"messages":[]}', "warnings": []}


def test_failures_file_that_cannot_be_made_is_invalid_config(tmp_path: Path) -> None:
    """The failed rows' file, when it cannot be created, is an InvalidConfig naming it."""
    from mediaparts.distributed._ray import _Failures

    (tmp_path / "batch-errors.jsonl").write_text("")
    with (
        pytest.raises(mp.InvalidConfig, match=r"batch-errors\.jsonl"),
        _Failures(tmp_path / "batch-errors.jsonl") as failures,
    ):
        failures.add({"custom_id": "a"})
