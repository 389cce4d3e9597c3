"""`mp.count_tokens` of 100 and 1,000 messages: text only, and with media (headers read only).

The targets: under 5 ms per 100 messages of text (issue 13); on OpenAI, at most 1.15x the
tokenizer encoding the same texts (issue 30). The baseline is the least any count can do on the
same conversation: the tokenizer alone over every text (OpenAI, with the [tokens] extra), or the
characters-per-token division alone (the providers without a public tokenizer). With media,
every image is checked to stay undecoded: sizes come from the headers.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from harness import Row, median_time
from PIL import ImageFile

import mediaparts as mp
from mediaparts.providers._budgets import _tokenizer
from mediaparts.testing import MediaFactory

MESSAGES = 1000
_TARGET = "< 50 ms (5 ms per 100 messages, issue 13)"
_PROSE = (
    "the report shows revenue grew in every region while costs held flat, so margins widened; "
    "ask whether the trend holds next quarter and what drove the rise in the north"
)
_WORDS = _PROSE.split(" ")


def _text(i: int) -> str:
    """A message of 20 to 80 words, different for each i."""
    n = 20 + (i * 7) % 61
    return " ".join(_WORDS[(i + k) % len(_WORDS)] for k in range(n)) + f" ({i})"


def text_conversation(n: int = MESSAGES) -> list[mp.Message]:
    """`n` messages of text, users and assistants in turn, after a system message."""
    messages: list[mp.Message] = [mp.System("You are a careful analyst.")]
    for i in range(n - 1):
        messages.append(mp.User(_text(i)) if i % 2 == 0 else mp.Assistant(_text(i)))
    return messages


def media_conversation(n: int = MESSAGES) -> list[mp.Message]:
    """`n` messages: every fifth user message (100 in 1,000) carries an image, a PDF or audio."""
    media = MediaFactory()
    kinds: list[Callable[[int], mp.MediaPart]] = [
        lambda i: media.image(640 + i % 7, 480),
        lambda i: media.pdf(1 + i % 3),
        lambda i: media.audio(1.0),
    ]
    messages: list[mp.Message] = [mp.System("You are a careful analyst.")]
    for i in range(n - 1):
        if i % 2:
            messages.append(mp.Assistant(_text(i)))
        elif i % 10 == 0:
            messages.append(mp.User(_text(i), files=[kinds[(i // 10) % 3](i)]))
        else:
            messages.append(mp.User(_text(i)))
    return messages


@contextmanager
def _decodes() -> Iterator[list[int]]:
    """Count Pillow pixel loads while inside (the count is the list's one item)."""
    loads = [0]
    original = ImageFile.ImageFile.load

    def load(self: ImageFile.ImageFile) -> object:
        loads[0] += 1
        return original(self)

    ImageFile.ImageFile.load = load  # type: ignore[method-assign]  # counting, for this run only
    try:
        yield loads
    finally:
        ImageFile.ImageFile.load = original  # type: ignore[method-assign]  # put back


def _first_count(provider: str, model: str) -> float:
    """Seconds of one count of a freshly made conversation: every header read for the first time."""
    fresh = media_conversation()
    start = time.perf_counter()
    mp.count_tokens(fresh, provider, model=model)
    return time.perf_counter() - start


def _texts(messages: list[mp.Message]) -> list[str]:
    return [p.text for m in messages for p in m.parts if isinstance(p, mp.TextPart)]


def _paired(*fns: Callable[[], object], repeat: int) -> list[float]:
    """Median seconds of each of `fns`, run in turn (a drift in load hits them alike).

    Each timed run follows a collection and one untimed run: a full collection walks every
    object and leaves the caches cold, which no request meets right before it counts. Timed by
    this thread's CPU time: they run on this thread alone, so on an idle machine it is their
    wall time, and on a busy one (other jobs on the same cores) the ratios still hold.
    """
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for at, fn in enumerate(fns):
            gc.collect()
            fn()
            start = time.thread_time()
            fn()
            times[at].append(time.thread_time() - start)
    return [statistics.median(each) for each in times]


def _tokenizer_row(encoder: Any, n: int) -> Row:
    """count_tokens of `n` text messages on OpenAI, beside the tokenizer's own work on them."""
    text = text_conversation(n)
    texts = _texts(text)
    counted = _tokenizer.counter(encoder)
    ours, alone, counting = _paired(
        lambda: mp.count_tokens(text, "openai", model="gpt-4o"),
        lambda: [encoder.encode_ordinary(t) for t in texts],
        lambda: [counted(t) for t in texts],
        repeat=15 if n > 100 else 61,
    )
    return Row(
        f"count_tokens, {n:,} text messages, openai (o200k_base tokenizer)",
        ours,
        alone,
        "bpe-openai encode of the same texts alone",
        target="≤ 1.15× (issue 30); < 5 ms per 100 messages (issue 13)",
        goal=("≤", 1.15),
        note=f"{ours / counting:.2f}× the tokenizer's own count of them (no token lists)",
    )


def run() -> list[Row]:
    rows = []
    text = text_conversation()
    texts = _texts(text)
    encoder = _tokenizer.encoder("o200k_base")
    if encoder is not None:
        rows += [_tokenizer_row(encoder, n) for n in (100, MESSAGES)]
    ours = median_time(lambda: mp.count_tokens(text, "anthropic"), repeat=15)
    division = median_time(lambda: sum(math.ceil(len(t) / 2.5) for t in texts))
    rows.append(
        Row(
            "count_tokens, 1,000 text messages, anthropic (approximation)",
            ours,
            division,
            "ceil(len / 2.5) over the same texts alone",
            target=_TARGET,
            goal=("<", 0.05),
            goal_on="ours",
        )
    )
    mixed = media_conversation()
    media_texts = _texts(mixed)
    for provider, model in (("openai", "gpt-4o"), ("gemini", "gemini-2.5-flash")):
        with _decodes() as loads:
            mp.count_tokens(mixed, provider, model=model)  # the first count reads every header
            ours = median_time(lambda p=provider, m=model: mp.count_tokens(mixed, p, model=m))
        first = min(_first_count(provider, model) for _ in range(3))
        if encoder is not None and provider == "openai":
            alone = median_time(lambda: [encoder.encode_ordinary(t) for t in media_texts])
            baseline = "bpe-openai encode of the same texts alone"
        else:
            alone = median_time(lambda: sum(math.ceil(len(t) / 4) for t in media_texts))
            baseline = "ceil(len / 4) over the same texts alone"
        rows.append(
            Row(
                f"count_tokens, 1,000 messages, 100 with an image, PDF or audio, {provider}",
                ours,
                alone,
                baseline,
                target=_TARGET,
                goal=("<", 0.05),
                goal_on="ours",
                note=f"images decoded: {loads[0]}; first count of fresh parts (headers read): "
                f"{first * 1e3:.1f} ms",
            )
        )
    return rows


if __name__ == "__main__":
    from harness import table

    print(table(run()))
