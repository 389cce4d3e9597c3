"""`mp.cost`: what a conversation costs on a provider and model, before the call or after it.

Before the call the input tokens are `count_tokens`' total (an estimate) and the output tokens
are what the caller expects; after it they are the response's `Usage`, cache reads and writes
and reasoning included. Prices are the caller's own (`Price`, for one model or by pattern) or
else the genai-prices package's dated data (`_price_data`, the extra `mediaparts[prices]`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import Decimal, InvalidOperation, localcontext
from typing import Any

from mediaparts._conversation._messages import MAX_TOKENS, Assistant, Usage
from mediaparts._errors import InvalidConfig, InvalidMedia, excerpt
from mediaparts.providers._budgets._count import TokenCount, count_tokens
from mediaparts.providers._budgets._price_data import price_with_data
from mediaparts.providers._budgets._vision import ModelRule, check_model
from mediaparts.providers._registry import Provider, get

__all__ = ["Cost", "Price", "Prices", "cost"]

_PER = 1_000_000  # prices are per million tokens
_ZERO = Decimal(0)
_ONE = Decimal(1)


def _amount(name: str, value: object) -> Decimal:
    """Read an amount as a Decimal (a float by its shortest repr), or refuse it."""
    if isinstance(value, bool) or not isinstance(value, Decimal | int | float | str):
        raise InvalidConfig(f"Price.{name} must be a number, got {type(value).__name__}")
    try:
        amount = Decimal(repr(value) if isinstance(value, float) else value)
    except InvalidOperation:
        raise InvalidConfig(f"Price.{name} must be a number, got {excerpt(value)}") from None
    if not amount.is_finite() or amount < 0:
        raise InvalidConfig(
            f"Price.{name} must be a finite price of 0 or more, got {excerpt(value)}"
        )
    if amount and not -30 <= amount.adjusted() <= 12:
        # A price per million tokens beyond a trillion, or finer than 1e-30, is a typo or an
        # attack: its arithmetic and its text would run away (Decimal's context is 28 digits).
        raise InvalidConfig(f"Price.{name} is out of range (1e-30 to 1e12), got {excerpt(value)}")
    return amount


Amount = Decimal | int | float | str
"""A price as the caller may write it: `Decimal("2.5")`, `2.5`, `"2.5"` or `3`."""


@dataclass(frozen=True, slots=True, init=False)
class Price:
    """One model's prices per million tokens: the caller's own, used before any price data.

    `mp.Price(3, 15, cache_read="0.3", cache_write=3.75)`: amounts may be written as a
    Decimal, int, str or float (read by its shortest repr, so `0.3` is `Decimal("0.3")`).

    Attributes:
        input: Per million input tokens (not cached).
        output: Per million output tokens, reasoning included.
        cache_read: Per million tokens read from the cache; None bills them as input.
        cache_write: Per million tokens written to the cache; None bills them as input.
        currency: The currency of the amounts.
        source: Where the prices come from, shown in each `Cost` (a price page, a contract).
    """

    input: Decimal
    output: Decimal
    cache_read: Decimal | None
    cache_write: Decimal | None
    currency: str
    source: str

    def __init__(
        self,
        input: Amount,
        output: Amount,
        cache_read: Amount | None = None,
        cache_write: Amount | None = None,
        *,
        currency: str = "USD",
        source: str = "prices given by the caller",
    ) -> None:
        # Frozen: each field is set once, here, through object.__setattr__.
        amounts: dict[str, Amount | None] = {"input": input, "output": output}
        amounts |= {"cache_read": cache_read, "cache_write": cache_write}
        for name, value in amounts.items():
            read = None if value is None and name.startswith("cache") else _amount(name, value)
            object.__setattr__(self, name, read)
        for name, text in (("currency", currency), ("source", source)):
            if not isinstance(text, str):
                raise InvalidConfig(f"Price.{name} must be a string, got {type(text).__name__}")
            object.__setattr__(self, name, text)


Prices = Price | Mapping[str, Price]
"""What `prices=` takes: one `Price` for the model asked about, or `{pattern: Price}`."""


def _tidy(amount: Decimal) -> Decimal:
    """Drop trailing zeros (`0.00001500` → `0.000015`, `0E-8` → `0`), never writing `1E+2`."""
    with localcontext() as context:
        # Token counts up to 2**63 times prices up to 1e12: exact in 60 digits.
        context.prec = 60
        tidy = amount.normalize()
        exponent = tidy.as_tuple().exponent  # an int for every finite amount
        return tidy.quantize(_ONE) if isinstance(exponent, int) and exponent > 0 else tidy


@dataclass(frozen=True, slots=True)
class Cost:
    """What a call costs, split by kind of token, with where the prices come from.

    Attributes:
        input: The input tokens not read from or written to the cache.
        cache_read: The input tokens read from the cache.
        cache_write: The input tokens written to the cache.
        output: The output tokens, reasoning included.
        other: What the price data adds beside tokens (a fee per request); usually 0.
        currency: The currency of every amount (`"USD"` for the price data).
        provider: The provider's name.
        model: The model asked about.
        priced_as: What was matched: the price data's model id, or the caller's pattern.
        source: The prices' source: `"genai-prices 0.2.3 (bundled data)"`, or a `Price`'s.
        reference: The provider's price page, as the price data names it.
        notes: The price data's notes on the model's prices: where and when they were checked,
            what they leave out (its `price_comments`), when it has them.
        estimate: True before the call: the input is a token count's total, the output the
            tokens the caller expected.
        unknown_parts: Before the call, how many parts no rule could count (their tokens, and
            so their cost, are missing: the cost is a lower bound). 0 after the call.
        usage: The tokens priced.
        at: The time the prices are for (prices change; the data keeps their dates).
    """

    input: Decimal
    cache_read: Decimal
    cache_write: Decimal
    output: Decimal
    other: Decimal
    currency: str
    provider: str
    model: str
    priced_as: str
    source: str
    reference: str | None = None
    notes: str | None = field(default=None, repr=False)  # long: read it, do not log it
    estimate: bool = False
    unknown_parts: int = 0
    usage: Usage = field(default_factory=Usage)
    at: datetime | None = None

    def __post_init__(self) -> None:
        for name in ("input", "cache_read", "cache_write", "output", "other"):
            object.__setattr__(self, name, _tidy(getattr(self, name)))

    @property
    def total(self) -> Decimal:
        """Every amount added up."""
        return self.input + self.cache_read + self.cache_write + self.output + self.other

    def __str__(self) -> str:
        """One line: the total, its parts, and what it was priced as and from where."""
        names = ("input", "cache read", "cache write", "output", "other")
        amounts = (self.input, self.cache_read, self.cache_write, self.output, self.other)
        parts = ", ".join(
            f"{name} {self._money(amount)}"
            for name, amount in zip(names, amounts, strict=True)
            if amount
        )
        kind = "estimated, " if self.estimate else ""
        return (
            f"{self._money(self.total)} ({parts or 'nothing'}; {kind}{self.model} on "
            f"{self.provider} as {self.priced_as}, {self.source})"
        )

    def _money(self, amount: Decimal) -> str:
        # Fixed-point (`0.0000004`, never `4E-7`), the dollar sign where the currency is USD.
        return f"${amount:f}" if self.currency == "USD" else f"{amount:f} {self.currency}"


def cost(
    what: Any,
    provider: str | Provider,
    *,
    model: str | None = None,
    output_tokens: int = 0,
    prices: Prices | None = None,
    at: datetime | None = None,
) -> Cost:
    """Return what a call costs on a provider and model, before it or after it.

    After the call, `what` is the response's `mp.Usage`, or the `mp.Assistant` that carries
    it (and its `model`). Before it, `what` is what `count_tokens` takes (a part, a message,
    messages) or its `TokenCount`: the input is the count's total, and `output_tokens` is what
    the caller expects back.

    Prices: the first of `prices` that fits the model (a `Price`, or a `{pattern: Price}`
    mapping matched like the model tables: `fnmatch`, case-insensitive, on the name after any
    `provider/` prefix), else the genai-prices package's data (`pip install
    'mediaparts[prices]'`), which never fetches anything unless the application started its
    `UpdatePrices`.

    Args:
        what: A `Usage`, an `Assistant` with `usage`, a `TokenCount`, or parts or messages.
        provider: A provider name or `Provider`.
        model: The model; None takes an `Assistant`'s or a `TokenCount`'s own.
        output_tokens: Before the call, the output tokens expected (reasoning included).
        prices: The caller's prices, tried before the price data.
        at: When the call is or was made, for dated prices (timezone-aware, as a message's
            `created_at`); None for now.

    Returns:
        The cost, by kind of token, with its source and date.

    Raises:
        UnknownProvider: No provider has that name.
        InvalidConfig: No model (prices are per model), a bad `prices`, `output_tokens` or
            `at`, or an `Assistant` without `usage`.
        InvalidMedia: A `Usage` whose cache tokens exceed its input (or reasoning its output).
        NoDocumentedRule: No price for the model: neither given nor in the price data, or the
            price data is not installed (the message says how to install it).
    """
    chosen = get(provider)
    check_model(model)
    usage, own_model, unknown = _tokens(what, chosen, model, output_tokens)
    model = model or own_model
    if model is None:
        raise InvalidConfig(
            f"prices are per model: pass model= to price a call on {chosen.name}"
            " (or an Assistant that carries its model)"
        )
    _check_usage(usage)
    when = _when(at)
    common: dict[str, Any] = {
        "provider": chosen.name,
        "model": model,
        "estimate": not isinstance(what, Usage | Assistant),
        "unknown_parts": unknown,
        "usage": usage,
        "at": when,
    }
    given = _given(prices, model)
    if given is not None:
        pattern, price = given
        return Cost(**_by_price(usage, price), priced_as=pattern, source=price.source, **common)
    priced = price_with_data(usage, chosen, model, when)
    return Cost(
        input=priced.input,
        cache_read=priced.cache_read,
        cache_write=priced.cache_write,
        output=priced.output,
        other=priced.other,
        currency="USD",
        priced_as=priced.matched,
        source=priced.source,
        reference=priced.reference,
        notes=priced.notes,
        **common,
    )


def _when(at: object) -> datetime:
    """Return the time to price at: now, or `at`, which must say its time zone."""
    if at is None:
        return datetime.now(timezone.utc)
    if not isinstance(at, datetime):
        raise InvalidConfig(f"at must be a datetime, got {type(at).__name__}")
    if at.tzinfo is None or at.utcoffset() is None:
        raise InvalidConfig(
            "at must be timezone-aware (a naive time is ambiguous): e.g. "
            "datetime.now(timezone.utc), as a message's created_at"
        )
    return at


def _tokens(
    what: Any, provider: Provider, model: str | None, output_tokens: int
) -> tuple[Usage, str | None, int]:
    """Return the usage to price, the model `what` names, and how many parts went uncounted."""
    if isinstance(what, Usage | Assistant) and output_tokens:
        raise InvalidConfig(
            "output_tokens= is for a cost before the call; a Usage already has its output tokens"
        )
    if (
        isinstance(output_tokens, bool)
        or not isinstance(output_tokens, int)
        or not 0 <= output_tokens <= MAX_TOKENS
    ):
        raise InvalidConfig(
            f"output_tokens must be a whole number from 0 to 2**63-1, got {excerpt(output_tokens)}"
        )
    if isinstance(what, Usage):
        return what, None, 0
    if isinstance(what, Assistant):
        if what.usage is None:
            raise InvalidConfig(
                "this Assistant carries no usage to price; to price it as input before a call, "
                "pass it in a list of messages"
            )
        return what.usage, what.model, 0
    if isinstance(what, TokenCount) and what.provider != provider.name:
        raise InvalidConfig(
            f"this TokenCount is for {what.provider}, not {provider.name}: count for the "
            "provider you price for"
        )
    if isinstance(what, TokenCount) and model is not None and what.model not in (None, model):
        raise InvalidConfig(
            f"this TokenCount was counted for model {excerpt(what.model)}, not {excerpt(model)}: "
            "count for the model you price for (or leave model= out to price it as counted)"
        )
    count = what if isinstance(what, TokenCount) else count_tokens(what, provider, model=model)
    usage = Usage(input_tokens=count.total, output_tokens=output_tokens)
    return usage, count.model, len(count.unknown)


def _check_usage(usage: Usage) -> None:
    if usage.cache_read_tokens + usage.cache_write_tokens > usage.input_tokens:
        raise InvalidMedia(
            f"this Usage has {usage.cache_read_tokens} cache read and {usage.cache_write_tokens} "
            f"cache write tokens but {usage.input_tokens} input tokens: input_tokens counts all "
            "input, the cached included"
        )
    if usage.reasoning_tokens > usage.output_tokens:
        raise InvalidMedia(
            f"this Usage has {usage.reasoning_tokens} reasoning tokens but {usage.output_tokens} "
            "output tokens: output_tokens counts all output, reasoning included"
        )


def _given(prices: Prices | None, model: str) -> tuple[str, Price] | None:
    """Return the caller's price for the model and what it was matched by, if any."""
    if prices is None:
        return None
    if isinstance(prices, Price):
        return model, prices
    if not isinstance(prices, Mapping):
        raise InvalidConfig(
            f"prices must be a Price or a {{pattern: Price}} mapping, got {type(prices).__name__}"
        )
    for pattern, price in prices.items():
        if not isinstance(pattern, str) or not isinstance(price, Price):
            raise InvalidConfig(
                f"prices must map model patterns (str) to Price, got {excerpt(pattern)}: "
                f"{type(price).__name__}"
            )
        if ModelRule(pattern, price).matches(model):
            return pattern, price
    return None


def _by_price(usage: Usage, price: Price) -> dict[str, Any]:
    """Split a usage's cost with the caller's prices (cache tokens without a rate as input)."""
    uncached = usage.input_tokens - usage.cache_read_tokens - usage.cache_write_tokens

    def part(rate: Decimal | None, tokens: int) -> Decimal:
        return (price.input if rate is None else rate) * tokens / _PER

    return {
        "input": price.input * uncached / _PER,
        "cache_read": part(price.cache_read, usage.cache_read_tokens),
        "cache_write": part(price.cache_write, usage.cache_write_tokens),
        "output": price.output * usage.output_tokens / _PER,
        "other": _ZERO,
        "currency": price.currency,
    }
