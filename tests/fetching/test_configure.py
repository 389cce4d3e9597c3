"""`mp.configure`: each argument is checked when given, not at the next URL load."""

from __future__ import annotations

import asyncio
import threading

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
        ({"unknown_models": "ignore"}, r"unknown_models must be 'warn' or 'error'"),
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


def test_using_policy_is_scoped_to_its_block_and_thread() -> None:
    """using_policy sets the default for its block in this thread only: another thread keeps
    the configured policy, and the configured one is back (unchanged) after the block."""
    configured = default_policy()
    seen: list[mp.FetchPolicy] = []
    with mp.fetching.using_policy(mp.FetchPolicy(allow_private=True)) as policy:
        assert default_policy() is policy
        other = threading.Thread(target=lambda: seen.append(default_policy()))
        other.start()
        other.join()
    assert seen == [configured]
    assert default_policy() is configured


def test_using_policy_reaches_tasks_started_inside() -> None:
    """A task started inside the block sees its policy (contexts are copied into tasks)."""
    policy = mp.FetchPolicy(allow_private=True)

    async def inside() -> mp.FetchPolicy:
        return await asyncio.create_task(asyncio.to_thread(default_policy))

    with mp.fetching.using_policy(policy):
        assert asyncio.run(inside()) is policy


def test_using_policy_refuses_what_is_not_a_policy() -> None:
    """A value that is not a FetchPolicy is InvalidConfig, before the block runs."""
    scope = mp.fetching.using_policy({"allow_private": True})  # type: ignore[arg-type]
    with pytest.raises(mp.InvalidConfig, match="takes a FetchPolicy, got dict"), scope:
        pass
