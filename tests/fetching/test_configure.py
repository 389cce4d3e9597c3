"""`mp.configure`: each argument is checked when given, not at the next URL load."""

from __future__ import annotations

import httpx
import pytest

import mediaparts as mp
from mediaparts.fetching import _fetch, default_policy


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"fetch": 5}, r"fetch=\.\.\.\) takes a mediaparts.FetchPolicy or None, got int"),
        ({"client": "http://x"}, r"client=\.\.\.\) takes a httpx.Client"),
        ({"async_client": httpx.Client()}, r"async_client=\.\.\.\) takes a httpx.AsyncClient"),
    ],
)
def test_configure_refuses_a_wrong_argument(arguments: dict[str, object], message: str) -> None:
    """A wrong type is InvalidConfig naming the argument, and nothing is set."""
    before = (_fetch._settings.client, _fetch._settings.async_client, default_policy())
    try:
        with pytest.raises(mp.InvalidConfig, match=message):
            mp.configure(**arguments)  # type: ignore[arg-type]  # wrong on purpose
        after = (_fetch._settings.client, _fetch._settings.async_client, default_policy())
        assert after == before
    finally:
        for value in arguments.values():
            if isinstance(value, httpx.Client):
                value.close()
