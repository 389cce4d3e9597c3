"""A bad option of normalize, render and their twins is InvalidConfig, as the error policy says."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

import mediaparts as mp
from mediaparts import distributed
from mediaparts.distributed import _rows

PNG = mp.part(bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"))

CALLS: dict[str, Callable[..., Any]] = {
    "normalize": lambda **kw: mp.normalize(PNG, "openai", **kw),
    "anormalize": lambda **kw: asyncio.run(mp.anormalize(PNG, "openai", **kw)),
    "normalize_many": lambda **kw: mp.normalize_many([PNG], "openai", **kw),
    "render": lambda **kw: mp.render([PNG], "openai", **kw),
    "arender": lambda **kw: asyncio.run(mp.arender([PNG], "openai", **kw)),
}


@pytest.mark.parametrize("call", sorted(CALLS))
@pytest.mark.parametrize("urls", ["sometimes", None, 1])
def test_options_bad_urls_is_invalid_config(call: str, urls: object) -> None:
    """A `urls` outside auto/inline/pass is InvalidConfig (not InvalidMedia: the media is fine)."""
    with pytest.raises(mp.InvalidConfig, match="urls must be 'auto', 'inline' or 'pass'") as caught:
        CALLS[call](urls=urls)
    assert not isinstance(caught.value, mp.InvalidMedia)


@pytest.mark.parametrize("workers", [0, -2, 1.5, "4"])
def test_options_bad_workers_is_invalid_config(workers: object) -> None:
    """`normalize_many(workers=...)` takes a positive whole number, else InvalidConfig."""
    with pytest.raises(mp.InvalidConfig, match="workers must be a positive whole number"):
        mp.normalize_many([PNG], "openai", workers=workers)  # type: ignore[arg-type]


# Every public function that takes `options=`, and the fields of `mp.Options` it does not
# read, each with the reason. A new field is read by every function here or named as not
# applying; a new function taking options is listed here (test_options_every_taker_listed).
TAKERS: dict[str, tuple[Callable[..., Any], dict[str, str]]] = {
    "render": (mp.render, {"detail": "each image is fitted at its own detail"}),
    "arender": (mp.arender, {"detail": "each image is fitted at its own detail"}),
    "normalize": (mp.normalize, dict.fromkeys(("on_loss", "foreign_reasoning"), "no conversation")),
    "anormalize": (
        mp.anormalize,
        dict.fromkeys(("on_loss", "foreign_reasoning"), "no conversation"),
    ),
    "normalize_many": (
        mp.normalize_many,
        dict.fromkeys(("on_loss", "foreign_reasoning"), "no conversation"),
    ),
    "count_tokens": (
        mp.count_tokens,
        {"urls": "counts what is sent", "on_loss": "counts", "foreign_reasoning": "counts"},
    ),
    "estimate_tokens": (
        mp.estimate_tokens,
        {"urls": "counts what is sent", "on_loss": "counts", "foreign_reasoning": "counts"},
    ),
    "trim": (
        mp.trim,
        {
            "detail": "read through options by count_tokens",
            "transforms": "read through options by count_tokens",
            "urls": "counts",
            "on_loss": "counts",
            "foreign_reasoning": "counts",
        },
    ),
    "batch_line": (mp.batch_line, {"detail": "as render"}),
    "write_batch": (mp.write_batch, {"detail": "as render"}),
    "normalize_dataset": (
        distributed.normalize_dataset,
        dict.fromkeys(("on_loss", "foreign_reasoning"), "no conversation"),
    ),
    "render_dataset": (distributed.render_dataset, {"detail": "as render"}),
    "write_batch_dataset": (distributed.write_batch_dataset, {"detail": "as render"}),
}
# `uploader` works with urls="upload", which only `render` and `arender` take.
UPLOADS = {"render", "arender"}
FIELDS = [f.name for f in dataclasses.fields(mp.Options)]


@pytest.mark.parametrize("name", sorted(TAKERS))
def test_options_every_field_is_a_keyword_or_said_not_to_apply(name: str) -> None:
    """Each function taking options has a keyword for each field, or says why it has none."""
    function, skipped = TAKERS[name]
    keywords = set(inspect.signature(function).parameters)
    assert "options" in keywords
    if name not in UPLOADS:
        skipped = {**skipped, "uploader": "no uploads"}
    missing = [f for f in FIELDS if f not in keywords and f not in skipped]
    assert not missing, f"{name} lacks keywords for Options fields {missing}"
    assert not [f for f in skipped if f in keywords], "a skipped field is a keyword"


def test_options_every_taker_listed() -> None:
    """Every public function with an `options=` parameter is in TAKERS."""
    found = {
        name
        for module in (mp.providers, distributed)
        for name in module.__all__
        if inspect.isfunction(function := getattr(module, name))
        and "options" in inspect.signature(function).parameters
    }
    assert found == set(TAKERS)


PHOTO = mp.ImagePart.from_pil(Image.new("RGB", (1200, 900), "teal"), format="PNG")
THOUGHT: list[mp.Message] = [
    mp.User("q"),
    mp.Assistant([mp.ReasoningPart(text="a thought", provider="acme"), "answer"]),
    mp.User("more"),
]
# (call, field, value): the call with options=Options(field=value) equals it with the keyword.
HONOURED: list[tuple[str, str, Any]] = [
    ("render", "foreign_reasoning", "text"),
    ("render", "model", "gpt-4o"),
    ("arender", "foreign_reasoning", "text"),
    ("batch_line", "foreign_reasoning", "text"),
    ("normalize", "detail", "low"),
    ("normalize", "urls", "inline"),
    ("count_tokens", "detail", "low"),
    ("estimate_tokens", "model", "gpt-4o-mini"),
    ("trim", "model", "gpt-4o"),
    ("render_dataset row", "foreign_reasoning", "text"),
    ("normalize_dataset row", "detail", "low"),
]
CALLED: dict[str, Callable[..., Any]] = {
    "render": lambda **kw: mp.render(THOUGHT, "openai", on_loss="drop", **kw),
    "arender": lambda **kw: asyncio.run(mp.arender(THOUGHT, "openai", on_loss="drop", **kw)),
    "batch_line": lambda **kw: mp.batch_line(
        "r1", THOUGHT, "openai", model="m", on_loss="drop", **kw
    ),
    "normalize": lambda **kw: mp.normalize(PHOTO, "openai", **kw).detail,
    "count_tokens": lambda **kw: mp.count_tokens([PHOTO], "openai", **kw).total,
    "estimate_tokens": lambda **kw: mp.estimate_tokens([PHOTO], "openai", **kw),
    "trim": lambda **kw: mp.trim(THOUGHT, "openai", max_tokens=10**6, **kw),
    "render_dataset row": lambda **kw: _rows.rendered_row(
        lambda: THOUGHT, _row_job("render_dataset", kw)
    ),
    "normalize_dataset row": lambda **kw: _rows.normalized_row(
        PHOTO.data, _row_job("normalize_dataset", kw)
    ),
}


def _row_job(name: str, given: dict[str, Any]) -> Any:
    settings = given.pop("options", None)
    given.setdefault("on_loss", "drop")
    return _rows.options(f"{name}()", "openai", settings=settings, **given)


@pytest.mark.parametrize(("call", "field", "value"), HONOURED)
def test_options_field_acts_as_its_keyword(call: str, field: str, value: Any) -> None:
    """A field of the options value does what the keyword of the same name does."""
    by_keyword = CALLED[call](**{field: value})
    assert CALLED[call](options=mp.Options(**{field: value})) == by_keyword
    # The same settings either way; where the field changes the result, the test sees it.
    assert by_keyword != CALLED[call]() or field in ("model", "urls")


def test_options_foreign_reasoning_reaches_each_row() -> None:
    """render_dataset's rows send another provider's reasoning as text when asked."""
    row = CALLED["render_dataset row"](foreign_reasoning="text")
    assert "a thought" in row["payload"]
    assert "a thought" not in CALLED["render_dataset row"]()["payload"]


def test_options_keyword_given_wins() -> None:
    """A keyword given with options wins over the field; one left at its default does not."""
    opts = mp.Options(foreign_reasoning="text", urls="inline")
    assert opts.given(foreign_reasoning="drop", urls="pass") == dataclasses.replace(
        opts, urls="pass"
    )
    assert opts.given(model=None, on_loss="warn") is opts
    with_text = mp.render(THOUGHT, "openai", on_loss="drop", foreign_reasoning="text")
    assert mp.render(THOUGHT, "openai", on_loss="drop", options=opts) == with_text


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("model", 5),
        ("detail", 5),
        ("urls", "sometimes"),
        ("transforms", "all"),
        ("on_loss", "shout"),
        ("foreign_reasoning", "keep"),
        ("uploader", object()),
    ],
)
def test_options_bad_field_is_invalid_config(field: str, value: object) -> None:
    """A bad value of a field is InvalidConfig naming the field."""
    with pytest.raises(mp.InvalidConfig, match=field):
        mp.Options(**{field: value})  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(set(TAKERS) - {"normalize_dataset"}))
def test_options_not_an_options_value_is_invalid_config(name: str) -> None:
    """`options=` takes an `mp.Options`, else InvalidConfig (a dict is not read)."""
    calls: dict[str, Callable[..., Any]] = {
        **CALLED,
        "anormalize": lambda **kw: asyncio.run(mp.anormalize(PNG, "openai", **kw)),
        "normalize_many": lambda **kw: mp.normalize_many([PNG], "openai", **kw),
        "write_batch": lambda **kw: mp.write_batch([], "openai", "unused-dir", **kw),
        "render_dataset": lambda **kw: _rows.options("x", "openai", settings=kw["options"]),
        "write_batch_dataset": lambda **kw: _rows.options("x", "openai", settings=kw["options"]),
    }
    with pytest.raises(mp.InvalidConfig, match=r"options must be an mp\.Options"):
        calls[name](options={"urls": "inline"})


def test_options_urls_upload_refused_for_rows() -> None:
    """Rows are rendered in Ray tasks, which do not upload: urls='upload' is refused."""
    with pytest.raises(mp.InvalidConfig, match="do not upload"):
        _rows.options("x", "openai", settings=mp.Options(urls="upload"))


def test_trim_old_argument_order_warns() -> None:
    """trim(messages, max_tokens, provider, model) still works, with a DeprecationWarning."""
    new = mp.trim(THOUGHT, "openai", max_tokens=10**6, model="gpt-4o")
    with pytest.warns(DeprecationWarning, match="trim\\(messages, provider"):
        assert mp.trim(THOUGHT, 10**6, "openai", "gpt-4o") == new  # type: ignore[arg-type]
    with pytest.warns(DeprecationWarning, match="trim\\(messages, provider"):
        assert mp.trim(THOUGHT, 10**6, "openai", model="gpt-4o") == new  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes \\(messages, provider"):
        mp.trim(THOUGHT, "openai", 10**6)


@pytest.mark.parametrize(
    ("name", "old"),
    [
        ("render", "messages_or_parts"),
        ("arender", "messages_or_parts"),
        ("count_tokens", "part_or_messages"),
        ("estimate_tokens", "part_or_messages"),
    ],
)
def test_options_main_input_is_messages_old_keyword_warns(name: str, old: str) -> None:
    """The main input is `messages`; the keyword of earlier versions works, with a warning."""
    function = getattr(mp, name)
    assert next(iter(inspect.signature(function).parameters)) == "messages"

    def call(**kw: Any) -> Any:
        done = function(provider="openai", **kw)
        return asyncio.run(done) if inspect.iscoroutine(done) else done

    with pytest.warns(DeprecationWarning, match=f"{name}\\({old}=...\\) is deprecated"):
        by_old = call(**{old: [mp.User("hi")]})
    assert by_old == call(messages=[mp.User("hi")])
    assert inspect.iscoroutinefunction(function) == name.startswith("a")
