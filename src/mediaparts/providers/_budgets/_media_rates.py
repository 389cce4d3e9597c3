"""`MediaRates`: the token rates of audio, video and PDF input, one row of a provider's table.

Each provider module holds its own table (`COSTS`, a tuple of `ModelRule[MediaRates]`) with its
sources; `Rules.costs_for(model)` picks the row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mediaparts._errors import InvalidMedia, NoDocumentedRule, UnsupportedMediaType, excerpt
from mediaparts.providers._budgets._vision import ModelRule

__all__ = ["MediaRates", "RatesTable"]


@dataclass(frozen=True)
class MediaRates:
    """Token rates of audio, video and PDF input; None where no rule is documented.

    Attributes:
        provider: The provider's display name, for messages.
        audio_per_second: Tokens per second of audio.
        video_per_second: Tokens per second of video frames; the audio track is added at
            `audio_per_second` when the video has one.
        pdf_per_page: Tokens per PDF page.
        pdf_per_page_approx: Where no exact PDF rule is documented, a documented
            approximation of the tokens per page (counted as `"approximate"`).
        pdf_approximation: What that approximation is and its source, for the breakdown.
        not_accepted: Kinds (`"audio"`, `"video"`, `"pdf"`) the API does not take at all.
    """

    provider: str
    audio_per_second: int | None = None
    video_per_second: int | None = None
    pdf_per_page: int | None = None
    not_accepted: frozenset[str] = frozenset()
    pdf_per_page_approx: int | None = None
    pdf_approximation: str = ""

    def _rate(self, kind: str, rate: int | None) -> int:
        if kind in self.not_accepted:
            raise UnsupportedMediaType(
                f"{self.provider} does not accept {kind} input", provider=self.provider
            )
        if rate is None:
            raise NoDocumentedRule(
                f"{self.provider} documents no token rule for {kind}; no estimate is made",
                provider=self.provider,
                media_type=_MEDIA_TYPES.get(kind),
            )
        return rate

    def audio_tokens(self, seconds: float) -> int:
        """Return the tokens of `seconds` of audio, rounded up."""
        return math.ceil(_nonnegative(seconds) * self._rate("audio", self.audio_per_second))

    def video_tokens(self, seconds: float, *, has_audio: bool = True) -> int:
        """Return the tokens of `seconds` of video, with its audio track unless told otherwise."""
        frames = math.ceil(_nonnegative(seconds) * self._rate("video", self.video_per_second))
        return frames + (self.audio_tokens(seconds) if has_audio else 0)

    def pdf_tokens(self, pages: int) -> int:
        """Return the tokens of a PDF of `pages` pages (the page images, not extracted text)."""
        return int(_nonnegative(pages)) * self._rate("pdf", self.pdf_per_page)


RatesTable = tuple[ModelRule[MediaRates], ...]
"""A provider's model-keyed media token rates, first match wins (each provider's `COSTS`)."""

# The media type a NoDocumentedRule carries for each rate (audio and video: any type).
_MEDIA_TYPES = {"pdf": "application/pdf"}


def _nonnegative(value: float) -> float:
    if not value >= 0:  # also refuses NaN
        raise InvalidMedia(f"a duration or page count must be >= 0, got {excerpt(value)}")
    return value
