"""The price data `mp.cost` reads when the caller gives no price: the genai-prices package.

genai-prices (pydantic, MIT; the optional extra `mediaparts[prices]`) bundles dated prices per
provider and model, with their source pages, and computes a price from token counts. Its
`Usage` means what ours means: `input_tokens` is every input token, cache reads and writes
included (they are parts of it, priced at their own rates); `output_tokens` is every output
token, reasoning included (`output_reasoning_tokens` is part of it, priced apart only where a
model has a reasoning rate). So our counts pass over unchanged.

Nothing here reaches the network: the bundled data is used unless the application itself
started genai-prices' opt-in `UpdatePrices`, whose fetched data is then used (and said so in
the cost's `source`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from mediaparts._conversation._messages import Usage
from mediaparts._errors import NoDocumentedRule, excerpt
from mediaparts.providers._registry import Provider

__all__ = ["PACKAGE", "Priced", "price_with_data"]

PACKAGE = "genai-prices"
_INSTALL = "pip install genai-prices, or mediaparts' [prices] extra"
_PER = 1_000_000  # the data's token prices are per million tokens


@dataclass(frozen=True, slots=True)
class Priced:
    """What the price data says a usage costs, split as `mp.Cost` splits it."""

    input: Decimal
    cache_read: Decimal
    cache_write: Decimal
    output: Decimal
    other: Decimal
    matched: str
    source: str
    reference: str | None
    notes: str | None


def _require() -> None:
    """Import genai-prices (on first use only: it is optional, and not light).

    Raises:
        NoDocumentedRule: It is not installed; the message says how to install it.
    """
    try:
        import genai_prices  # noqa: F401
    except ImportError as exc:
        raise NoDocumentedRule(
            f"no price data: the {PACKAGE} package is not installed ({_INSTALL}), "
            "and no price was given for this model (prices=mp.Price(...))"
        ) from exc


def price_with_data(usage: Usage, provider: Provider, model: str, at: datetime | None) -> Priced:
    """Price a usage with genai-prices' data for a provider (by its `prices_id`) and model.

    The model is looked up as given, then by its last path segment (`models/gemini-2.5-pro`,
    a Bedrock ARN's `.../anthropic.claude-...`).

    Raises:
        NoDocumentedRule: genai-prices is not installed, or has no price for the model.
    """
    _require()
    prices_id = provider.rules.prices_id or provider.name
    import genai_prices
    from genai_prices.types import TieredPrices, calc_unit_price

    theirs = genai_prices.Usage(
        input_tokens=usage.input_tokens,
        cache_read_tokens=usage.cache_read_tokens,
        cache_write_tokens=usage.cache_write_tokens,
        output_tokens=usage.output_tokens,
        output_reasoning_tokens=usage.reasoning_tokens,
    )
    names = dict.fromkeys((model, model.rsplit("/", 1)[-1]))
    for name in names:
        try:
            calc = genai_prices.calc_price(
                theirs, name, provider_id=prices_id, genai_request_timestamp=at
            )
            break
        except LookupError:
            continue
    else:
        raise NoDocumentedRule(
            f"{PACKAGE} {genai_prices.__version__} has no price for model {excerpt(model)} on "
            f"{provider.name} (its id there: {excerpt(prices_id)}); pass prices=mp.Price(...) for "
            "it",
            provider=provider.name,
            model=model,
        )
    rates = calc.model_price

    def part(rate: Decimal | TieredPrices | None, tokens: int) -> Decimal:
        # The cache rate, else the input rate (as the data bills cache tokens without their own
        # rate); `calc_unit_price` picks a tier from the whole input, as the total does.
        # (No rate at all, and it returns 0.)
        chosen = rates.input_mtok if rate is None else rate
        return calc_unit_price(chosen, tokens, usage.input_tokens, _PER)

    cache_read = part(rates.cache_read_mtok, usage.cache_read_tokens)
    cache_write = part(rates.cache_write_mtok, usage.cache_write_tokens)
    updated = calc.auto_update_timestamp
    data = f"data fetched {updated:%Y-%m-%d %H:%M}" if updated else "bundled data"
    urls = calc.provider.pricing_urls
    return Priced(
        input=calc.input_price - cache_read - cache_write,
        cache_read=cache_read,
        cache_write=cache_write,
        output=calc.output_price,
        other=calc.total_price - calc.input_price - calc.output_price,
        matched=calc.model.id,
        source=f"{PACKAGE} {genai_prices.__version__} ({data})",
        reference=urls[0] if urls else None,
        notes=calc.model.price_comments,
    )
