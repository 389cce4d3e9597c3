"""mp.cost: before the call from a count, after it from a Usage; the caller's own prices."""

from __future__ import annotations

import dataclasses
import sys
from datetime import datetime, timezone
from decimal import Decimal
from importlib.util import find_spec
from typing import Any

import pytest

import mediaparts as mp

needs_data = pytest.mark.skipif(
    find_spec("genai_prices") is None,
    reason="genai-prices is not installed (mediaparts' [prices] extra)",
)

SONNET = mp.Price(3, 15, cache_read="0.3", cache_write=3.75, source="a price page, 2026-11")
USAGE = mp.Usage(
    input_tokens=10_000,
    cache_read_tokens=6_000,
    cache_write_tokens=2_000,
    output_tokens=1_000,
    reasoning_tokens=400,
)


@pytest.fixture
def no_price_data(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `import genai_prices` fail, as where the extra is not installed."""
    monkeypatch.setitem(sys.modules, "genai_prices", None)


def test_cost_with_a_price_splits_by_kind_of_token() -> None:
    """Uncached input, cache reads, cache writes and output (reasoning in it) at their rates."""
    cost = mp.cost(USAGE, "anthropic", model="my-claude", prices=SONNET)
    assert (cost.input, cost.cache_read, cost.cache_write, cost.output, cost.other) == (
        Decimal("0.006"),  # 2,000 uncached at $3 a million
        Decimal("0.0018"),  # 6,000 at $0.30
        Decimal("0.0075"),  # 2,000 at $3.75
        Decimal("0.015"),  # 1,000 at $15, the 400 reasoning tokens among them
        Decimal(0),
    )
    assert cost.total == Decimal("0.0303")
    assert (cost.source, cost.priced_as, cost.currency) == (
        "a price page, 2026-11",
        "my-claude",
        "USD",
    )
    assert (cost.estimate, cost.unknown_parts, cost.usage) == (False, 0, USAGE)


def test_cost_cache_tokens_without_a_rate_are_input() -> None:
    """A Price without cache rates bills cache reads and writes at the input rate."""
    cost = mp.cost(USAGE, "openai", model="m", prices=mp.Price(2, 8))
    assert cost.input + cost.cache_read + cost.cache_write == Decimal("0.02")  # 10,000 at $2


@pytest.mark.parametrize(
    ("model", "priced_as"),
    [
        ("claude-sonnet-4-5", "claude-sonnet-*"),
        ("Claude-Sonnet-4-5", "claude-sonnet-*"),  # case-insensitive
        ("anthropic/claude-sonnet-4-5", "claude-sonnet-*"),  # after a provider/ prefix
        ("claude-opus-4-5", "claude-*"),  # first match wins, in the mapping's order
    ],
)
def test_cost_prices_by_pattern(model: str, priced_as: str, no_price_data: None) -> None:
    """A {pattern: Price} mapping is matched like the model tables, first match wins."""
    prices = {"claude-sonnet-*": SONNET, "claude-*": mp.Price(5, 25)}
    assert mp.cost(USAGE, "anthropic", model=model, prices=prices).priced_as == priced_as


def test_cost_user_prices_work_without_the_package(no_price_data: None) -> None:
    """The caller's prices need no price data; a model they do not cover names the extra."""
    assert mp.cost(USAGE, "anthropic", model="claude-x", prices={"claude-*": SONNET}).total > 0
    with pytest.raises(mp.NoDocumentedRule, match=r"mediaparts' \[prices\] extra"):
        mp.cost(USAGE, "anthropic", model="gpt-x", prices={"claude-*": SONNET})


@needs_data
def test_cost_user_prices_come_before_the_price_data() -> None:
    """A given price wins over the data; a model it does not cover falls back to the data."""
    given = mp.cost(USAGE, "openai", model="gpt-4o", prices={"gpt-4o*": mp.Price(1, 1)})
    assert (given.total, given.priced_as) == (Decimal("0.011"), "gpt-4o*")
    data = mp.cost(USAGE, "openai", model="gpt-4o", prices={"claude-*": mp.Price(1, 1)})
    assert data.source.startswith("genai-prices ")


def test_cost_before_the_call_prices_the_count(no_price_data: None) -> None:
    """Before the call: the count's total as input, plus the output the caller expects."""
    chat = [mp.System("You are terse."), mp.User("What is in a name? " * 20)]
    count = mp.count_tokens(chat, "openai", model="gpt-4o")
    cost = mp.cost(chat, "openai", model="gpt-4o", output_tokens=500, prices=mp.Price(2, 10))
    assert cost.usage == mp.Usage(input_tokens=count.total, output_tokens=500)
    assert cost.total == (count.total * 2 + 500 * 10) / Decimal(1_000_000)
    assert (cost.estimate, cost.unknown_parts) == (True, 0)
    again = mp.cost(count, "openai", output_tokens=500, prices=mp.Price(2, 10))
    assert (again.total, again.model) == (cost.total, "gpt-4o")  # the count's own model


def test_cost_before_the_call_says_what_went_uncounted() -> None:
    """Parts nobody could count make the estimate a lower bound, and are counted as such."""
    stored = {"file_id": "file-1", "provider": "anthropic", "media_type": "application/pdf"}
    chat = [mp.User("Hello", files=[stored])]
    cost = mp.cost(chat, "anthropic", model="claude-x", prices=SONNET)
    assert (cost.estimate, cost.unknown_parts) == (True, 1)


def test_cost_of_an_assistant_uses_its_usage_and_model() -> None:
    """After the call, an Assistant's usage is priced for its model unless model= says."""
    reply = mp.Assistant("Done.", usage=USAGE, model="claude-sonnet-4-5")
    prices = {"claude-sonnet-*": SONNET, "other": mp.Price(0, 0)}
    cost = mp.cost(reply, "anthropic", prices=prices)
    assert (cost.model, cost.total, cost.estimate) == (
        "claude-sonnet-4-5",
        Decimal("0.0303"),
        False,
    )
    assert mp.cost(reply, "anthropic", model="other", prices=prices).total == 0


def test_cost_at_is_kept() -> None:
    """The time the prices are for is kept on the cost (now when not given); a naive time is
    refused, as for a message's created_at."""
    at = datetime(2026, 10, 1, tzinfo=timezone.utc)
    assert mp.cost(USAGE, "openai", model="m", prices=SONNET, at=at).at == at
    now = mp.cost(USAGE, "openai", model="m", prices=SONNET).at
    assert now is not None and now.tzinfo is not None
    with pytest.raises(mp.InvalidConfig, match="timezone-aware"):
        mp.cost(USAGE, "openai", model="m", prices=SONNET, at=datetime(2026, 10, 1))


@pytest.mark.parametrize(
    ("written", "read"),
    [
        (3, Decimal(3)),
        ("0.30", Decimal("0.30")),
        (0.3, Decimal("0.3")),
        (Decimal("1.25"), Decimal("1.25")),
    ],
)
def test_price_reads_amounts_exactly(written: Any, read: Decimal) -> None:
    """Amounts are Decimals; a float is read by its shortest repr (0.3, not 0.2999...)."""
    assert mp.Price(written, written).input == read


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"input": -1, "output": 1}, "Price.input must be a finite price of 0 or more"),
        ({"input": "abc", "output": 1}, "Price.input must be a number"),
        ({"input": 1, "output": float("nan")}, "Price.output must be a finite price"),
        ({"input": 1, "output": True}, "Price.output must be a number"),
        ({"input": 1, "output": 1, "cache_read": [1]}, "Price.cache_read must be a number"),
        ({"input": 1, "output": 1, "currency": 1}, "Price.currency must be a string"),
    ],
)
def test_price_refuses_bad_amounts(kwargs: dict[str, Any], match: str) -> None:
    """A price that is not a non-negative number is InvalidConfig, naming the field."""
    with pytest.raises(mp.InvalidConfig, match=match):
        mp.Price(**kwargs)


@pytest.mark.parametrize(
    ("what", "kwargs", "error", "match"),
    [
        (USAGE, {}, mp.InvalidConfig, "prices are per model: pass model="),
        (mp.Assistant("Hi", usage=USAGE), {}, mp.InvalidConfig, "pass model="),
        (mp.Assistant("Hi", model="m"), {}, mp.InvalidConfig, "carries no usage"),
        (USAGE, {"model": "m", "output_tokens": 5}, mp.InvalidConfig, "before the call"),
        ([mp.User("Hi")], {"model": "m", "output_tokens": -1}, mp.InvalidConfig, "output_tokens"),
        ([mp.User("Hi")], {"model": 4}, mp.InvalidConfig, "model must be a model name"),
        (USAGE, {"model": "m", "prices": [SONNET]}, mp.InvalidConfig, "prices must be a Price"),
        (USAGE, {"model": "m", "at": "2026-10-01"}, mp.InvalidConfig, "at must be a datetime"),
        (USAGE, {"model": "m", "prices": {"m": 3}}, mp.InvalidConfig, "map model patterns"),
        (
            mp.Usage(input_tokens=5, cache_read_tokens=4, cache_write_tokens=2),
            {"model": "m"},
            mp.InvalidMedia,
            "input_tokens counts all input",
        ),
        (
            mp.Usage(output_tokens=5, reasoning_tokens=6),
            {"model": "m"},
            mp.InvalidMedia,
            "output_tokens counts all output",
        ),
    ],
)
def test_cost_refuses_what_it_cannot_price(
    what: Any, kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    """No model, a misplaced output_tokens, bad prices or an inconsistent Usage are refused."""
    with pytest.raises(error, match=match):
        mp.cost(what, "openai", **{"prices": SONNET, **kwargs})


def test_cost_unknown_provider() -> None:
    """An unknown provider name is UnknownProvider, as everywhere."""
    with pytest.raises(mp.UnknownProvider):
        mp.cost(USAGE, "acme", model="m", prices=SONNET)


def test_cost_count_of_another_provider_is_refused() -> None:
    """A TokenCount made for one provider is not priced for another."""
    count = mp.count_tokens([mp.User("Hi")], "openai")
    with pytest.raises(mp.InvalidConfig, match="this TokenCount is for openai, not anthropic"):
        mp.cost(count, "anthropic", model="m", prices=SONNET)


def test_cost_count_of_another_model_is_refused() -> None:
    """A TokenCount made for one model is not priced as another's (its tokens differ)."""
    count = mp.count_tokens([mp.User("Hi")], "openai", model="gpt-4o")
    with pytest.raises(mp.InvalidConfig, match="counted for model 'gpt-4o', not 'gpt-5'"):
        mp.cost(count, "openai", model="gpt-5", prices=SONNET)
    assert mp.cost(count, "openai", model="gpt-4o", prices=SONNET).model == "gpt-4o"
    assert mp.cost(count, "openai", prices=SONNET).model == "gpt-4o"


def test_cost_takes_model_by_keyword() -> None:
    """model is keyword-only, as in count_tokens, render and normalize."""
    with pytest.raises(TypeError):
        mp.cost(USAGE, "openai", "m", prices=SONNET)  # type: ignore[call-arg]


def test_cost_is_frozen() -> None:
    """A Cost and a Price are values: their fields cannot be reassigned."""
    cost = mp.cost(USAGE, "openai", model="m", prices=SONNET)
    with pytest.raises(AttributeError):
        cost.input = Decimal(0)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        SONNET.input = Decimal(0)  # type: ignore[misc]


def test_rules_prices_id_must_be_a_string() -> None:
    """A price data provider id that is not a string is InvalidConfig, however it is set."""
    rules = mp.providers.get("openai").rules
    with pytest.raises(mp.InvalidConfig, match="prices_id must be a provider id string"):
        dataclasses.replace(rules, prices_id=3)  # type: ignore[arg-type]
    with pytest.raises(mp.InvalidConfig, match="prices_id must be a str"):
        mp.providers.get("openai").with_rules(prices_id=3)


@pytest.mark.parametrize(
    ("cost", "text"),
    [
        (
            mp.cost(USAGE, "anthropic", model="claude-sonnet-4-5", prices={"claude-*": SONNET}),
            "$0.0303 (input $0.006, cache read $0.0018, cache write $0.0075, output $0.015; "
            "claude-sonnet-4-5 on anthropic as claude-*, a price page, 2026-11)",
        ),
        (
            mp.cost(
                [mp.User("Hi")],
                "openai",
                model="ft-1",
                output_tokens=10,
                prices=mp.Price(0, "1.6", currency="EUR", source="contract"),
            ),
            "0.000016 EUR (output 0.000016 EUR; estimated, ft-1 on openai as ft-1, contract)",
        ),
        (
            mp.cost(mp.Usage(), "openai", model="m", prices=SONNET),
            "$0 (nothing; m on openai as m, a price page, 2026-11)",
        ),
    ],
)
def test_cost_str_is_one_readable_line(cost: mp.Cost, text: str) -> None:
    """str(cost): the total, the parts that are not zero, in fixed-point, and the source."""
    assert str(cost) == text


@pytest.mark.parametrize(
    ("make", "error"),
    [
        (lambda: mp.Usage(input_tokens=10**34), mp.InvalidMedia),
        (lambda: mp.cost(USAGE, "openai", model="m", prices=SONNET, output_tokens=10**30), None),
        (lambda: mp.Price("1e999999", 1), mp.InvalidConfig),
        (lambda: mp.Price("1e-999990", 1), mp.InvalidConfig),
    ],
)
def test_cost_hostile_sizes_are_our_errors(make: Any, error: type[Exception] | None) -> None:
    """Counts past 64 bits and prices out of range are refused with our errors, never a
    decimal.InvalidOperation or Overflow."""
    with pytest.raises(error or mp.InvalidConfig):
        make()


def test_cost_of_the_largest_usage_is_exact() -> None:
    """The largest counts a Usage holds, at the largest price, are priced without overflow."""
    big = mp.Usage(input_tokens=2**63 - 1, output_tokens=2**63 - 1)
    cost = mp.cost(big, "openai", model="m", prices=mp.Price("1e12", "1e12"))
    assert cost.total > 0
