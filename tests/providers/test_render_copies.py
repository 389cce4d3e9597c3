"""The payload `render` returns is the caller's: editing it edits no part and no later payload.

Renderers copy a part's own dicts (provider blocks, citations, hints) where they put them in
the payload and build the rest; these tests edit every dict and list of a payload in place
and check that nothing else changed.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.testing import MediaURLs
from tests._builders import TESTDATA
from tests.conversations._corpus import cases, load, path_of


def _wreck(value: Any) -> None:
    """Edit every dict and list inside `value` in place, innermost first."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _wreck(item)
        value.clear()
        value["edited"] = True
    elif isinstance(value, list):
        for item in list(value):
            _wreck(item)
        value[:] = ["edited"]


def _edited_twice(messages: list[mp.Message], provider: str) -> tuple[Any, Any]:
    """Return (a payload, the same payload rendered after another one was wrecked)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mp.ConversionWarning)
        expected = copy.deepcopy(mp.render(messages, provider))
        _wreck(mp.render(messages, provider))
        return expected, mp.render(messages, provider)


def _kept_everything(provider: str) -> list[mp.Message]:
    """A conversation with every part that holds dicts of its own, nested, for `provider`."""
    nested = {"outer": {"inner": ["a", {"deep": 1}]}}
    hints = {provider: {"fields": nested, "extra": nested, "inner": nested}}
    cited = mp.Citation(provider=provider, url="https://example.com", data={"type": "x", **nested})
    return [
        mp.System("Be brief.", native=hints),
        mp.User(
            parts=[
                mp.TextPart("look", cache="5m", native=hints),
                mp.ImagePart.from_path(TESTDATA / "palette.png", native=hints),
            ]
        ),
        mp.Assistant(
            parts=[
                mp.ReasoningPart(text="hm", signature="c2ln", provider=provider, native=hints),
                mp.TextPart("seen", citations=(cited,), native=hints),
                mp.ProviderPart(provider=provider, data={"type": "kept_block", **nested}),
                mp.ToolCall(id="call_1", name="zoom", arguments='{"x": 1}', native=hints),
            ]
        ),
        mp.Tool("done", tool_call_id="call_1", native=hints),
    ]


@pytest.mark.parametrize("provider", mp.providers.names())
def test_render_payload_edits_reach_no_part_and_no_later_payload(provider: str) -> None:
    """Wrecking a payload leaves the parts' dicts, and the next render, as they were."""
    messages = _kept_everything(provider)
    before = copy.deepcopy(messages)
    expected, again = _edited_twice(messages, provider)
    assert again == expected
    assert messages == before


@pytest.mark.parametrize("case", cases("requests"), ids="/".join)
def test_render_read_back_payload_edits_reach_no_part(
    case: tuple[str, str], media_urls: MediaURLs
) -> None:
    """The same for every conversation of the corpus, read back and rendered to its provider
    (which fetches none of its media)."""
    provider, name = case
    payload = load(path_of(provider, "requests", name))
    messages = mp.messages_from(payload, provider)
    expected, again = _edited_twice(messages, provider)
    assert again == expected
    assert messages == mp.messages_from(payload, provider)
