"""Nothing is lost quietly: every part the corpus carries to another provider is in the
payload, or a `ConversionWarning` names it (see `_losses` for how a part is found), for every
source and target, a user's twin of a built-in among the targets. The checker's own tests
inject silent drops into a payload and see them reported.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.testing import MediaURLs
from tests._builders import TESTDATA
from tests.conversations._corpus import TWINS, cases, load, media_files, path_of
from tests.conversations._losses import unwarned

REQUESTS = cases("requests")


def _carried(messages: list[mp.Message], target: str) -> tuple[dict[str, Any] | None, list[str]]:
    """Render for `target`; return the payload (None when media is refused) and the warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            payload = mp.render(messages, target)
        except mp.UnsupportedMediaType:
            return None, []
    assert all(issubclass(w.category, mp.ConversionWarning) for w in caught), caught
    return payload, [str(w.message) for w in caught]


@pytest.mark.mediaparts(assert_all_requested=False)
@pytest.mark.parametrize("target", [*mp.providers.names(), *TWINS.values()])
@pytest.mark.parametrize("case", REQUESTS, ids="/".join)
def test_losses_of_the_corpus_are_all_warned(
    case: tuple[str, str], target: str, media_urls: MediaURLs
) -> None:
    """What a corpus conversation loses on its way to any provider, a warning names."""
    for url, path in media_files().items():
        media_urls.add(url, path)
    messages = mp.messages_from(load(path_of(case[0], "requests", case[1])), case[0])
    payload, warned = _carried(messages, target)
    if payload is None:  # media the target takes in no form (test_corpus checks the refusal)
        pytest.skip(f"{target} refuses its media (UnsupportedMediaType)")
    assert [str(loss) for loss in unwarned(messages, payload, target, warned)] == []


def _conversation() -> list[mp.Message]:
    """A conversation holding one of each thing the checker looks for."""
    return [
        mp.System("Be brief."),
        mp.User(
            [
                "Look at this.",
                mp.part(TESTDATA / "palette.png"),
                mp.TextPart("Which colour?", cache="5m"),
            ]
        ),
        mp.Assistant(
            parts=[mp.TextPart("Zooming."), mp.ToolCall(id="c1", name="zoom", arguments='{"x": 1}')]
        ),
        mp.Tool("zoomed in", tool_call_id="c1"),
        mp.Assistant("Red."),
    ]


def _drop_block(turn: int, block: int) -> Callable[[dict[str, Any]], None]:
    def drop(payload: dict[str, Any]) -> None:
        del payload["messages"][turn]["content"][block]

    return drop


def _drop_cache(payload: dict[str, Any]) -> None:
    del payload["messages"][0]["content"][2]["cache_control"]


def _edit_arguments(payload: dict[str, Any]) -> None:
    payload["messages"][1]["content"][1]["input"] = {"x": 2}


# A silent drop injected into an Anthropic payload of `_conversation()`, and the loss the
# checker must report for it: "message <i>: <what>".
INJECTED = {
    "a text": (_drop_block(0, 0), "message 1: TextPart 'Look at this.'"),
    "an image": (_drop_block(0, 1), "message 1: ImagePart"),
    "a cache breakpoint": (
        _drop_cache,
        "message 1: the cache breakpoint of TextPart 'Which colour?'",
    ),
    "an assistant text": (_drop_block(1, 0), "message 2: TextPart 'Zooming.'"),
    "a tool call's arguments": (_edit_arguments, "message 2: ToolCall zoom"),
    "a tool result": (_drop_block(2, 0), "message 3: a tool result"),
}


def test_losses_checker_finds_nothing_in_a_whole_payload() -> None:
    """The payload as rendered loses nothing: the checker reports nothing."""
    messages = _conversation()
    payload, warned = _carried(messages, "anthropic")
    assert payload is not None and warned == []
    assert unwarned(messages, payload, "anthropic", warned) == []


@pytest.mark.parametrize("case", INJECTED.values(), ids=list(INJECTED))
def test_losses_checker_reports_an_injected_silent_drop(
    case: tuple[Callable[[dict[str, Any]], None], str],
) -> None:
    """A thing taken out of the payload with no warning is reported, named."""
    inject, expected = case
    messages = _conversation()
    payload, _ = _carried(messages, "anthropic")
    assert payload is not None
    inject(payload)
    found = [str(loss) for loss in unwarned(messages, payload, "anthropic", [])]
    assert expected in found


@pytest.mark.parametrize("case", INJECTED.values(), ids=list(INJECTED))
def test_losses_checker_accepts_a_drop_a_warning_names(
    case: tuple[Callable[[dict[str, Any]], None], str],
) -> None:
    """The same drop, named by a warning as render names a loss, is not reported; a warning
    naming another part of another message does not excuse it."""
    inject, expected = case
    messages = _conversation()
    payload, _ = _carried(messages, "anthropic")
    assert payload is not None
    inject(payload)
    losses = unwarned(messages, payload, "anthropic", [])
    named = []
    for loss in losses:
        role = messages[loss.message].role
        why = "its cache breakpoint: ..." if "cache" in loss.what else "..."
        named.append(
            f"anthropic cannot carry {type(loss.part).__name__} in message "
            f"{loss.message} ({role}): {why}"
        )
    assert unwarned(messages, payload, "anthropic", named) == []
    elsewhere = ["anthropic cannot carry RefusalPart in message 4 (assistant): ..."]
    assert expected in [str(loss) for loss in unwarned(messages, payload, "anthropic", elsewhere)]


def test_losses_checker_needs_one_warning_per_loss() -> None:
    """Two parts lost from one message need two warnings: one excuses only one."""
    messages = _conversation()
    payload, _ = _carried(messages, "anthropic")
    assert payload is not None
    del payload["messages"][0]["content"][0:2]  # the text and the image
    one = ["anthropic cannot carry TextPart 'Look at this.' in message 1 (user): ..."]
    assert [str(loss) for loss in unwarned(messages, payload, "anthropic", one)] == [
        "message 1: ImagePart"
    ]


def test_losses_checker_reports_an_unwarned_own_field() -> None:
    """A Gemini call's signature left out for Anthropic must be named: with render's warning
    nothing is reported, without it the signature is."""
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather?"}]},
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "weather", "args": {}}, "thoughtSignature": "c2ln"}
                ],
            },
        ]
    }
    messages = mp.messages_from(body, "gemini")
    payload, warned = _carried(messages, "anthropic")
    assert payload is not None
    assert unwarned(messages, payload, "anthropic", warned) == []
    others = [w for w in warned if "thoughtSignature" not in w]
    assert [str(loss) for loss in unwarned(messages, payload, "anthropic", others)] == [
        "message 1: gemini's thoughtSignature on ToolCall weather"
    ]
