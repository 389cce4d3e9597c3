"""A bad option of normalize, render and their twins is InvalidConfig, as the error policy says."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

import mediaparts as mp

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
