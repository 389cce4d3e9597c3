"""Gemini 3's thought signatures on function calls: kept, or Google's sentinel where none is."""

from __future__ import annotations

from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers.wires.generate_content._render import SKIP_SIGNATURE
from tests.providers.gemini._payloads import SIGNATURE
from tests.providers.gemini.test_render import _quiet, _validate

_LOOP = [
    mp.User("Weather in Paris and Rome?"),
    mp.Assistant(
        "Checking both.",
        tool_calls=[
            mp.ToolCall(id="toolu_1", name="weather", arguments='{"city": "Paris"}'),
            mp.ToolCall(id="toolu_2", name="weather", arguments='{"city": "Rome"}'),
        ],
    ),
    mp.Tool("18C", tool_call_id="toolu_1"),
    mp.Tool("24C", tool_call_id="toolu_2"),
]


def _model_parts(payload: dict[str, Any]) -> list[list[dict[str, Any]]]:
    return [c["parts"] for c in payload["contents"] if c.get("role") == "model"]


@pytest.mark.parametrize(
    "model",
    [
        None,
        "gemini-3-pro-preview",
        "gemini-3-flash",
        "models/gemini-3.1-pro-preview",
        "gemini-flash-latest",
    ],
)
def test_signatures_skip_sentinel_on_the_first_unsigned_call(model: str | None) -> None:
    """For Gemini 3 on (or no model), an unsigned step's first call gets the sentinel, only it."""
    rendered = _quiet(_LOOP, model=model)
    (parts,) = _model_parts(rendered)
    assert parts[0] == {"text": "Checking both."}
    assert parts[1]["thoughtSignature"] == SKIP_SIGNATURE
    assert "thoughtSignature" not in parts[2]
    _validate(rendered)


@pytest.mark.parametrize(
    "model", ["gemini-2.5-flash", "gemini-2.0-flash", "models/gemini-2.5-pro", "gemini-1.5-pro"]
)
def test_signatures_no_sentinel_before_gemini_3(model: str) -> None:
    """For a model given that is not Gemini 3, no signature is invented."""
    (parts,) = _model_parts(_quiet(_LOOP, model=model))
    assert all("thoughtSignature" not in p for p in parts)


def test_signatures_each_step_gets_its_own() -> None:
    """Each model content (step) is checked alone: each unsigned one gets the sentinel."""
    messages = [
        mp.User("Go."),
        mp.Assistant(tool_calls=[mp.ToolCall(name="a")]),
        mp.Tool("1", name="a"),
        mp.Assistant(tool_calls=[mp.ToolCall(name="b")]),
        mp.Tool("2", name="b"),
    ]
    steps = _model_parts(_quiet(messages))
    assert [p[0]["thoughtSignature"] for p in steps] == [SKIP_SIGNATURE, SKIP_SIGNATURE]


def test_signatures_merged_assistants_get_one() -> None:
    """Two assistant messages sent as one content get one sentinel, on its first call."""
    messages = [
        mp.User("Go."),
        mp.Assistant(tool_calls=[mp.ToolCall(name="a")]),
        mp.Assistant(tool_calls=[mp.ToolCall(name="b")]),
    ]
    (parts,) = _model_parts(_quiet(messages))
    assert [("thoughtSignature" in p) for p in parts] == [True, False]


def test_signatures_real_signature_is_never_overridden() -> None:
    """A call read with its signature keeps it, and the calls after it get nothing."""
    payload = {
        "contents": [
            {"role": "user", "parts": [{"text": "Go."}]},
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "a", "args": {}}, "thoughtSignature": SIGNATURE},
                    {"functionCall": {"name": "b", "args": {}}},
                ],
            },
        ]
    }
    messages = mp.messages_from(payload, "gemini")
    assert _quiet(messages, model="gemini-3-pro-preview") == payload
    edited = [*messages[:1], messages[1].model_copy(update={"native": {}})]
    assert _quiet(edited) == payload  # the signature is the call's own, not the message's


@pytest.mark.parametrize("model", [None, "gemini-3-pro-preview"])
def test_signatures_body_read_unsigned_comes_back_unsigned(model: str | None) -> None:
    """A body read from Gemini without signatures re-renders byte for byte, in both spellings."""
    payload = {
        "contents": [
            {"role": "user", "parts": [{"text": "Go."}]},
            {"role": "model", "parts": [{"functionCall": {"name": "a", "args": {}}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "a", "response": {}}}]},
            {"role": "model", "parts": [{"function_call": {"name": "b", "args": {}}}]},
        ]
    }
    assert _quiet(mp.messages_from(payload, "gemini"), model=model) == payload


def test_signatures_snake_call_gets_snake_sentinel() -> None:
    """A call written in snake_case gets `thought_signature` when it is signed by us."""
    call = mp.ToolCall(name="a", native={"gemini": {"snake": True}})
    (parts,) = _model_parts(_quiet([mp.User("Go."), mp.Assistant(tool_calls=[call])]))
    assert parts == [
        {"function_call": {"name": "a", "args": {}}, "thought_signature": SKIP_SIGNATURE}
    ]


def test_signatures_unsigned_reply_gets_the_sentinel() -> None:
    """A reply read unsigned (e.g. from Gemini 2.5) is signed by us when it goes to Gemini 3."""
    reply = mp.message_from_response(
        {
            "candidates": [
                {"content": {"role": "model", "parts": [{"functionCall": {"name": "a"}}]}}
            ]
        },
        "gemini",
    )
    (parts,) = _model_parts(_quiet([mp.User("Go."), reply], model="gemini-3-flash"))
    assert parts[0]["thoughtSignature"] == SKIP_SIGNATURE
