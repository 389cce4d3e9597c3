"""The price data: `mp.cost` agrees with genai-prices' own calculator on its examples."""

from __future__ import annotations

import json
import socket
import sys
from datetime import datetime, timezone
from decimal import Decimal
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp

pytestmark = pytest.mark.skipif(
    find_spec("genai_prices") is None,
    reason="genai-prices is not installed (mediaparts' [prices] extra)",
)

AT = datetime(2026, 11, 1, tzinfo=timezone.utc)  # prices are dated: fix the day asked about
# Our provider names -> genai-prices' provider ids and usage extractor flavours.
IDS = {
    "openai": ("openai", "chat"),
    "openai-responses": ("openai", "responses"),
    "anthropic": ("anthropic", "default"),
    "gemini": ("google", "default"),
    "bedrock": ("aws", "default"),
    "mistral": ("mistral", "default"),
}
BEDROCK_MODEL = "us.anthropic.claude-sonnet-4-20250514-v1:0"  # Converse responses name none


def _theirs(usage: dict[str, int], provider: str, model: str) -> Any:
    import genai_prices

    pid = IDS[provider][0]
    return genai_prices.calc_price(
        genai_prices.Usage(**usage), model, provider_id=pid, genai_request_timestamp=AT
    )


def _agree(ours: mp.Cost, theirs: Any) -> None:
    assert ours.total == theirs.total_price
    assert ours.input + ours.cache_read + ours.cache_write == theirs.input_price
    assert ours.output == theirs.output_price
    assert ours.source.startswith("genai-prices ")


# (where the example is from, provider, model, our Usage, their Usage in their own words):
# genai-prices' README and tests/test_price_calc.py, each in our Usage's meaning, plus cases
# with reasoning tokens and price tiers on every provider.
EXAMPLES = [
    (
        "README calc_price",
        "openai",
        "gpt-4o",
        mp.Usage(input_tokens=1000, output_tokens=100),
        {"input_tokens": 1000, "output_tokens": 100},
    ),
    (
        "README cached input tokens",
        "anthropic",
        "claude-sonnet-4-20250514",
        mp.Usage(input_tokens=4740, cache_write_tokens=4735, output_tokens=255),
        {
            "input_tokens": 4740,
            "cache_read_tokens": 0,
            "cache_write_tokens": 4735,
            "output_tokens": 255,
        },
    ),
    (
        "README request pricing context",
        "openai",
        "o3",
        mp.Usage(input_tokens=1_000_000, output_tokens=1_000_000),
        {"input_tokens": 1_000_000, "output_tokens": 1_000_000},
    ),
    (
        "test_sync_success_with_url",
        "anthropic",
        "claude-3.5-sonnet",
        mp.Usage(input_tokens=1000, output_tokens=100, cache_write_tokens=20, cache_read_tokens=30),
        {
            "input_tokens": 1000,
            "output_tokens": 100,
            "cache_write_tokens": 20,
            "cache_read_tokens": 30,
        },
    ),
    (
        "test_gpt_5_6_long_context_mixed_price",
        "openai-responses",
        "gpt-5.6-sol",
        mp.Usage(
            input_tokens=300_000,
            cache_write_tokens=100_000,
            cache_read_tokens=50_000,
            output_tokens=10_000,
        ),
        {
            "input_tokens": 300_000,
            "cache_write_tokens": 100_000,
            "cache_read_tokens": 50_000,
            "output_tokens": 10_000,
        },
    ),
    (
        "test_gpt_5_6_cache_write_price",
        "openai",
        "gpt-5.6-terra",
        mp.Usage(input_tokens=1_000, cache_write_tokens=1_000),
        {"input_tokens": 1_000, "cache_write_tokens": 1_000},
    ),
    (
        "reasoning inside the output (o-series)",
        "openai",
        "o3",
        mp.Usage(
            input_tokens=2_000, cache_read_tokens=1_024, output_tokens=900, reasoning_tokens=640
        ),
        {
            "input_tokens": 2_000,
            "cache_read_tokens": 1_024,
            "output_tokens": 900,
            "output_reasoning_tokens": 640,
        },
    ),
    (
        "reasoning and the over-200k tier (Gemini 2.5 Pro)",
        "gemini",
        "gemini-2.5-pro",
        mp.Usage(
            input_tokens=250_000,
            cache_read_tokens=50_000,
            output_tokens=2_000,
            reasoning_tokens=1_500,
        ),
        {
            "input_tokens": 250_000,
            "cache_read_tokens": 50_000,
            "output_tokens": 2_000,
            "output_reasoning_tokens": 1_500,
        },
    ),
    (
        "thinking and cache on Claude through Bedrock",
        "bedrock",
        BEDROCK_MODEL,
        mp.Usage(
            input_tokens=5_000,
            cache_read_tokens=3_000,
            cache_write_tokens=1_000,
            output_tokens=700,
            reasoning_tokens=300,
        ),
        {
            "input_tokens": 5_000,
            "cache_read_tokens": 3_000,
            "cache_write_tokens": 1_000,
            "output_tokens": 700,
            "output_reasoning_tokens": 300,
        },
    ),
]


@pytest.mark.parametrize(
    ("provider", "model", "usage", "their_usage"),
    [example[1:] for example in EXAMPLES],
    ids=[example[0] for example in EXAMPLES],
)
def test_cost_matches_the_price_data_calculator_on_its_examples(
    provider: str, model: str, usage: mp.Usage, their_usage: dict[str, int]
) -> None:
    """A Usage with cache and reasoning tokens costs what genai-prices' calc_price says."""
    _agree(mp.cost(usage, provider, model=model, at=AT), _theirs(their_usage, provider, model))


def test_cost_splits_as_the_price_data_test_states() -> None:
    """Each kind of token is priced at its own rate, as of the day asked about."""
    usage = mp.Usage(
        input_tokens=300_000,
        cache_write_tokens=100_000,
        cache_read_tokens=50_000,
        output_tokens=10_000,
    )
    # genai-prices' test_gpt_5_6_long_context_mixed_price (0.1.4), over 272k input tokens:
    # $10 input, $12.5 cache write, $1 cache read, $45 output a million, the rates before
    # OpenAI's 2026-08-21 price cut; the data keeps that history.
    before = mp.cost(
        usage, "openai", model="gpt-5.6-sol", at=datetime(2026, 8, 1, tzinfo=timezone.utc)
    )
    assert (before.input, before.cache_write, before.cache_read, before.output) == (
        Decimal("1.5"),
        Decimal("1.25"),
        Decimal("0.05"),
        Decimal("0.45"),
    )
    assert (before.priced_as, before.currency, before.other) == ("gpt-5.6-sol", "USD", Decimal(0))
    assert mp.cost(usage, "openai", model="gpt-5.6-sol", at=AT).total < before.total
    assert before.notes is not None and "verified on 2026-10-12" in before.notes


def _name(path: Path) -> str:
    return f"{path.parents[1].name}/{path.stem}"


# Responses whose usage holds what `Usage` has no field for, priced apart by the data: there
# our cost is lower (a lower bound), by exactly that.
APART = {
    "anthropic/01_text_cache_usage": "1-hour cache writes (priced as 5-minute ones)",
    "anthropic/05_web_search": "a web search request",
    "openai/05_audio": "audio tokens (priced as text)",
}
# Left out, as the price data cannot take them: genai-prices reads camelCase usageMetadata
# only, and has no price for gpt-5-search-api.
UNREAD = {"gemini/07_snake_sdk_dump", "openai/04_length_citations"}
CORPUS = [
    path
    for path in sorted(Path(__file__).parents[1].glob("conversations/corpus/*/responses/*.json"))
    if _name(path) not in UNREAD
]


@pytest.mark.parametrize("path", CORPUS, ids=_name)
def test_cost_of_each_corpus_response_matches_the_price_data(path: Path) -> None:
    """Read back with message_from_response, a response costs what genai-prices extracts."""
    import genai_prices

    provider = path.parents[1].name
    raw = json.loads(path.read_text("utf-8"))
    reply = mp.message_from_response(raw, provider)
    model = reply.model or BEDROCK_MODEL
    pid, flavour = IDS[provider]
    extracted = genai_prices.extract_usage(raw, provider_id=pid, api_flavor=flavour)
    theirs = genai_prices.calc_price(
        extracted.usage, model, provider_id=pid, genai_request_timestamp=AT
    )
    ours = mp.cost(reply, provider, model=model, at=AT)
    if _name(path) in APART:
        assert ours.total < theirs.total_price
    else:
        _agree(ours, theirs)


def test_cost_prefixed_model_names_are_found() -> None:
    """`models/gemini-2.5-pro` and a Bedrock ARN are priced by their last path segment."""
    usage = mp.Usage(input_tokens=1000, output_tokens=10)
    plain = mp.cost(usage, "gemini", model="gemini-2.5-pro", at=AT)
    assert mp.cost(usage, "gemini", model="models/gemini-2.5-pro", at=AT).total == plain.total
    arn = f"arn:aws:bedrock:us-east-1:123456789012:inference-profile/{BEDROCK_MODEL}"
    assert (
        mp.cost(usage, "bedrock", model=arn, at=AT).total
        == mp.cost(usage, "bedrock", model=BEDROCK_MODEL, at=AT).total
    )


def test_cost_unknown_model_names_model_and_provider() -> None:
    """A model the price data does not know is NoDocumentedRule, naming both, and how to fix."""
    with pytest.raises(mp.NoDocumentedRule, match=r"'no-such-model' on anthropic") as caught:
        mp.cost(mp.Usage(input_tokens=1), "anthropic", model="no-such-model")
    assert (caught.value.model, caught.value.provider) == ("no-such-model", "anthropic")
    assert "prices=mp.Price" in str(caught.value)


def test_cost_never_reaches_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pricing reads the bundled data: no socket is opened and no price update is started."""
    import genai_prices

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("mp.cost tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(genai_prices.UpdatePrices, "start", refuse)
    cost = mp.cost(mp.Usage(input_tokens=10, output_tokens=10), "openai", model="gpt-4o")
    assert cost.source == f"genai-prices {genai_prices.__version__} (bundled data)"
    assert cost.reference is not None and cost.reference.startswith("https://")


def test_cost_without_the_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without genai-prices and without a price, the error says which extra to install."""
    monkeypatch.setitem(sys.modules, "genai_prices", None)  # `import genai_prices` now fails
    with pytest.raises(mp.NoDocumentedRule, match=r"mediaparts' \[prices\] extra"):
        mp.cost(mp.Usage(input_tokens=10), "openai", model="gpt-4o")


def test_cost_reads_the_provider_prices_id() -> None:
    """The price data is read under the provider's `rules.prices_id`, which can be overridden."""
    usage = mp.Usage(input_tokens=1000, output_tokens=10)
    as_openai = mp.providers.get("openai-responses").with_rules(prices_id="openai")
    assert (
        mp.cost(usage, as_openai, model="gpt-4o", at=AT).total
        == mp.cost(usage, "openai", model="gpt-4o", at=AT).total
    )
    elsewhere = mp.providers.get("openai").with_rules(prices_id="anthropic")
    with pytest.raises(mp.NoDocumentedRule, match="its id there: 'anthropic'"):
        mp.cost(usage, elsewhere, model="gpt-4o", at=AT)
