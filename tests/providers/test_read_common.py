"""What the readers share: token counts and JSON paths put on errors raised without one."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers._read_common import located, token_count
from tests.conversations._corpus import load, path_of


@pytest.mark.parametrize(
    ("node", "expected"),
    [({"n": 3}, 3), ({"n": 0}, 0), ({}, 0), ({"n": None}, 0)],
)
def test_token_count_reads_a_whole_number_or_nothing(node: dict[str, Any], expected: int) -> None:
    """A count is a whole number, 0 or more; missing or null is 0."""
    assert token_count(node, "n", "usage") == expected


@pytest.mark.parametrize("value", [-1, True, False, 2.0, "3", [], {}])
def test_token_count_refuses_what_is_not_a_count(value: Any) -> None:
    """Bools, negatives and non-integers are InvalidMedia naming the JSON path."""
    with pytest.raises(mp.InvalidMedia, match=r"^usage\.n: expected a token count"):
        token_count({"n": value}, "n", "usage")


def test_token_count_required_refuses_missing() -> None:
    """A required count that is missing names its path too."""
    with pytest.raises(mp.InvalidMedia, match=r"^usage\.n: expected a token count.*missing"):
        token_count({}, "n", "usage", required=True)


def test_located_names_the_path_once() -> None:
    """An error without the path gets it; one that already starts with it is left alone."""
    with pytest.raises(mp.InvalidMedia, match=r"^messages\[1\]: bad$"), located("messages[1]"):
        raise mp.InvalidMedia("bad")
    with (
        pytest.raises(mp.InvalidMedia, match=r"^messages\[1\]\.role: bad$"),
        located("messages[1]"),
    ):
        raise mp.InvalidMedia("messages[1].role: bad")


# provider → (a corpus response, the keys down to one count, the JSON path in the error)
COUNTS: dict[str, tuple[str, list[str], str]] = {
    "openai": ("01_text_usage.json", ["usage", "prompt_tokens"], "usage.prompt_tokens"),
    "openai-responses": (
        "01_text_cached_usage.json",
        ["usage", "input_tokens"],
        "usage.input_tokens",
    ),
    "anthropic": ("01_text_cache_usage.json", ["usage", "input_tokens"], "usage.input_tokens"),
    "gemini": (
        "01_text_usage.json",
        ["usageMetadata", "promptTokenCount"],
        "usageMetadata.promptTokenCount",
    ),
    "bedrock": ("01_text_cache_usage.json", ["usage", "inputTokens"], "usage.inputTokens"),
}


@pytest.mark.parametrize("value", [-5, True, "12"])
@pytest.mark.parametrize("provider", list(COUNTS))
def test_every_reader_names_the_path_of_a_bad_token_count(provider: str, value: Any) -> None:
    """All five readers refuse a negative, boolean or textual count naming its JSON path."""
    name, keys, where = COUNTS[provider]
    response = copy.deepcopy(load(path_of(provider, "responses", name)))
    node = response
    for key in keys[:-1]:
        node = node[key]
    node[keys[-1]] = value
    with pytest.raises(mp.InvalidMedia, match=re.escape(where) + ": expected a token count"):
        mp.message_from_response(response, provider)
