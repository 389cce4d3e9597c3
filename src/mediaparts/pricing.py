"""Money in one namespace: `cost` and the price tables it reads.

`cost(usage_or_count, provider, model=...)` returns a `Cost`, before a call or after it;
`Price` is one model's rates, and `Prices` what `cost(prices=...)` takes (a `Price`, or
patterns to `Price`s), tried before the genai-prices data. Token counts
are in `mediaparts.tokens`. `mp.cost` keeps its top-level spelling, and so do the classes
(`mp.Cost`), without a warning.
"""

from mediaparts.providers import Cost, Price, Prices, cost

__all__ = ["Cost", "Price", "Prices", "cost"]
