"""Text rules as data: each provider's TEXT table, its sources, and overriding it."""

from __future__ import annotations

import re
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers import ModelRule, TextRule


@pytest.mark.parametrize("name", mp.providers.names())
def test_text_every_provider_has_a_sourced_table(name: str) -> None:
    """Each built-in provider has a text table, or says its docs give none (the generic
    approximation counts its text), with its source and the date it was read."""
    rules = mp.providers.get(name).rules
    assert re.search(r"\(read 2026-1[12]\)", rules.text_source), rules.text_source
    assert rules.text or "no tokenizer" in rules.text_source
    assert all(row.rule.approximation for row in rules.text)


# (provider, model, encoding, characters per token without it): tiktoken's model map for
# OpenAI, Anthropic's glossary and models overview, Gemini's tokens page.
RULES = [
    ("openai", None, "o200k_base", 4.0),
    ("openai", "gpt-5.4-mini", "o200k_base", 4.0),
    ("openai", "gpt-4.1-nano", "o200k_base", 4.0),
    ("openai", "gpt-4o-2024-08-06", "o200k_base", 4.0),
    ("openai", "o1", "o200k_base", 4.0),
    ("openai", "o3-mini", "o200k_base", 4.0),
    ("openai", "o4-mini", "o200k_base", 4.0),
    ("openai", "gpt-4-0613", "cl100k_base", 4.0),
    ("openai", "gpt-4", "cl100k_base", 4.0),
    ("openai", "gpt-3.5-turbo", "cl100k_base", 4.0),
    ("openai-responses", "gpt-4o", "o200k_base", 4.0),
    ("anthropic", None, None, 2.5),
    ("anthropic", "claude-opus-4-7", None, 2.5),
    ("anthropic", "claude-sonnet-5", None, 2.5),
    ("anthropic", "claude-sonnet-4-6", None, 3.5),
    ("anthropic", "claude-opus-4-5-20251101", None, 3.5),
    ("anthropic", "claude-3-7-sonnet-20250219", None, 3.5),
    ("bedrock", "us.anthropic.claude-opus-4-7-v1:0", None, 2.5),
    ("bedrock", "anthropic.claude-3-5-haiku-20241022-v1:0", None, 3.5),
    ("bedrock", "amazon.nova-pro-v1:0", None, 4.0),
    ("gemini", "gemini-3-pro", None, 4.0),
]


@pytest.mark.parametrize(("provider", "model", "encoding", "chars"), RULES)
def test_text_rule_per_model(
    provider: str, model: str | None, encoding: str | None, chars: float
) -> None:
    """Each model gets its tokenizer's encoding, or the approximation its provider documents."""
    rule = mp.providers.get(provider).rules.text_for(model)
    assert (rule.encoding, rule.chars_per_token) == (encoding, chars)


def test_text_framing_only_where_documented() -> None:
    """OpenAI documents framing (3 a message, 1 a name, 3 a request); the others none."""
    openai = mp.providers.get("openai").rules.text_for("gpt-4o")
    assert (openai.per_message, openai.per_name, openai.per_request) == (3, 1, 3)
    for name in ("anthropic", "gemini", "bedrock"):
        assert not mp.providers.get(name).rules.text_for(None).framed


@pytest.mark.parametrize(
    ("provider", "model", "replay"),
    [
        ("openai", None, "not_sent"),
        ("openai-responses", None, "unknown"),
        ("anthropic", None, "counted"),
        ("anthropic", "claude-opus-4-5", "counted"),
        ("anthropic", "claude-sonnet-4-6", "counted"),
        ("anthropic", "claude-sonnet-5", "counted"),
        ("anthropic", "claude-opus-4-1", "earlier_turns_free"),
        ("anthropic", "claude-sonnet-4-5", "earlier_turns_free"),
        ("anthropic", "claude-haiku-4-5", "earlier_turns_free"),
        ("bedrock", "anthropic.claude-haiku-4-5-20251001-v1:0", "earlier_turns_free"),
        ("gemini", None, "counted"),
    ],
)
def test_text_replayed_reasoning_per_provider(
    provider: str, model: str | None, replay: str
) -> None:
    """What replayed reasoning costs is a rule of each provider and model, with its reason
    (Anthropic: thinking of earlier turns kept by Opus 4.5+ and Sonnet 4.6+, else stripped)."""
    rule = mp.providers.get(provider).rules.text_for(model)
    assert rule.reasoning == replay and rule.reasoning_source


def test_text_strict_lookup_names_the_known_patterns() -> None:
    """A strict lookup of an unknown model raises, naming the provider and the patterns."""
    with pytest.raises(mp.NoDocumentedRule, match=r"openai: .*gpt-4o\*"):
        mp.providers.get("openai").rules.text_for("made-up", strict=True)


def test_text_without_a_table_is_generic() -> None:
    """Rules without a text table count text at the generic 4 characters a token."""
    rules = mp.providers.get("openai").with_rules(text=()).rules
    rule = rules.text_for("gpt-4o")
    assert (rule.encoding, rule.chars_per_token, rule.framed) == (None, 4.0, False)
    bare = mp.providers.get("openai").with_rules(text=())
    assert mp.estimate_tokens(mp.User("12345678"), bare) == 2


@pytest.mark.parametrize(
    "table",
    [
        "o200k_base",
        [TextRule()],
        [ModelRule("*", "o200k_base")],
        [ModelRule("*", mp.providers.OpenAITiles(base=1, tile=1))],
    ],
)
def test_text_override_refuses_a_wrong_table(table: Any) -> None:
    """`with_rules(text=...)` takes a table of ModelRule rows of TextRules, nothing else."""
    with pytest.raises(mp.InvalidConfig, match=r"Rules\.text"):
        mp.providers.get("openai").with_rules(text=table)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("chars_per_token", 0),
        ("chars_per_token", -1.0),
        ("chars_per_token", True),
        ("chars_per_token", "4"),
        ("encoding", 200),
        ("per_message", -1),
        ("per_request", 1.5),
        ("reasoning", "sometimes"),
    ],
)
def test_text_rule_refuses_bad_values(field: str, value: Any) -> None:
    """A TextRule with a value that would break a count is refused, naming the field."""
    with pytest.raises(mp.InvalidConfig, match=rf"TextRule\.{field}"):
        TextRule(**{field: value})


def test_text_source_override() -> None:
    """`text_source` is overridable like the other sources, and must be text."""
    provider = mp.providers.get("gemini").with_rules(text_source="measured, 2026-11")
    assert provider.rules.text_source == "measured, 2026-11"
    with pytest.raises(mp.InvalidConfig, match="text_source"):
        mp.providers.get("gemini").with_rules(text_source=3)
