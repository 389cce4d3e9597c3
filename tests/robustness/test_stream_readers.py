"""Streams are hostile input: every recorded stream, mutated at every node of every event, is
read with only our own errors, and the reply so far reads or is refused with one of them."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

import mediaparts as mp
from tests.providers._streams import cases
from tests.robustness._mutations import mutated, paths

pytestmark = pytest.mark.slow  # every stream mutated at every node

# What each node is replaced by: one value of each JSON type (and removal, `...`).
_REPLACEMENTS: tuple[Any, ...] = (..., None, True, -1, 10**30, "", "a\ud800b", [], {}, {"type": 1})


def _read(events: list[Any], provider: str) -> None:
    """Feed every event (stopping at a refusal), then show the reply so far and ask for the whole."""
    reader = mp.StreamReader(provider)
    for event in events:
        try:
            reader.feed(event)
        except mp.MediaError:
            break
    with contextlib.suppress(mp.MediaError):
        mp.show([reader.message])
    with contextlib.suppress(mp.MediaError):
        reader.result()


@pytest.mark.parametrize(("provider", "name", "case"), cases())
def test_stream_reader_refuses_every_mutation_with_our_errors(
    provider: str, name: str, case: dict[str, Any]
) -> None:
    """Any one node of any event replaced or removed: a reply or a MediaError, never a crash."""
    events = case["events"]
    for i, event in enumerate(events):
        for path in paths(event):
            for replacement in _REPLACEMENTS:
                changed = [*events[:i], mutated(event, path, replacement), *events[i + 1 :]]
                _read(changed, provider)


@pytest.mark.parametrize(("provider", "name", "case"), cases())
def test_stream_reader_takes_events_in_any_order_with_our_errors(
    provider: str, name: str, case: dict[str, Any]
) -> None:
    """Events reversed, or each sent twice: a reply or a MediaError, never a crash."""
    events = case["events"]
    _read(events[::-1], provider)
    _read([e for event in events for e in (event, event)], provider)
