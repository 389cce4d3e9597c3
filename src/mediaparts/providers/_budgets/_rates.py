"""Token costs from a provider's rules: image geometry, and audio, video and PDF rates."""

from __future__ import annotations

from collections.abc import Callable

from typing_extensions import assert_never

from mediaparts import converting
from mediaparts._errors import InvalidMedia, MediaError, MediaTooLarge, NoDocumentedRule, excerpt
from mediaparts.converting import default_transforms
from mediaparts.detection import canonical_media_type
from mediaparts.formats import (
    Kind,
    audio_duration,
    video_duration,
    video_has_audio,
)
from mediaparts.providers._budgets._vision import VisionGeometry
from mediaparts.providers._registry import Provider

__all__ = [
    "approximate_pdf_tokens",
    "choose_detail",
    "converted_audio_tokens",
    "image_tokens",
    "known_tokens",
    "media_tokens",
    "vision",
]


def vision(provider: Provider, model: str | None, *, strict: bool = False) -> VisionGeometry | None:
    """Return the image geometry for a model, or None when the provider has no table.

    Fitting may fall back to the default rule for a model it does not know (the default is
    the safe one); an estimate passes `strict` and refuses to guess.
    """
    rules = provider.rules
    return rules.vision_for(model, strict=strict) if rules.vision else None


def choose_detail(
    provider: Provider, geometry: VisionGeometry | None, explicit: str | None, own: str | None
) -> str | None:
    """Pick the image detail level to use on this provider and model.

    A part's own `detail` is a hint written once for every provider: where this provider or
    model has no such level it is dropped (the provider's default applies). A level passed
    explicitly for this call must be one the provider takes.

    Raises:
        InvalidMedia: An explicit level the provider, or this model, does not take.
    """
    levels = provider.rules.image.detail_levels
    if explicit == "auto" and "auto" not in levels:
        explicit = None  # "let the provider decide" is what its default does
    if explicit is not None:
        if explicit not in levels:
            allowed = ", ".join(levels) if levels else "none (it has no detail setting)"
            raise InvalidMedia(
                f"{provider.name} takes image detail levels: {allowed}; got {excerpt(explicit)}"
            )
        # Checked here, before any fitting, so that the error is about the level and not
        # reported later as a problem with the image (gpt-4o has no "original").
        if geometry is not None:
            geometry.check_detail(explicit)
        return explicit
    if own is None or own not in levels:
        return None
    if geometry is not None and own not in geometry.detail_levels:
        return None
    return own


def image_tokens(
    geometry: VisionGeometry | None, width: int, height: int, detail: str | None
) -> int | None:
    """Return an image's documented token cost, or None where no rule is documented."""
    if geometry is None or not geometry.documented:
        return None
    return geometry.tokens(width, height, detail)


def media_tokens(
    provider: Provider, kind: Kind, media_type: str, data: bytes, model: str | None
) -> int:
    """Return the documented token cost of audio, video or a PDF.

    Raises:
        NoDocumentedRule: No rule is documented for this kind, type or model.
        UnsupportedMediaType: The provider does not take this kind at all.
        InvalidMedia: The duration or page count cannot be read from the headers.
        MediaTooLarge: A PDF past the page counter's caps (objects, inflated bytes).
    """
    costs = provider.rules.costs_for(model)
    # Each branch asks for the rate first: reading a duration or counting pages is work wasted
    # without one.
    match kind:
        case "audio":
            costs.audio_tokens(0)
            return costs.audio_tokens(_seconds(provider, media_type, data, audio_duration))
        case "video":
            costs.video_tokens(0)
            seconds = _seconds(provider, media_type, data, video_duration)
            # A silent video costs no audio tokens; when the headers do not say, assume a track.
            track = video_has_audio(data, canonical_media_type(media_type))
            return costs.video_tokens(seconds, has_audio=track is not False)
        case "image" | "file":
            if media_type != "application/pdf":
                raise NoDocumentedRule(
                    f"{provider.name} documents no token rule for {media_type}",
                    media_type=media_type,
                    provider=provider.name,
                    model=model,
                )
            costs.pdf_tokens(0)
            pages = converting.page_count(data, default_transforms())  # exact with [pdf]
            if pages is None:
                raise InvalidMedia(
                    "cannot count the pages of this PDF, so its tokens are unknown",
                    media_type=media_type,
                )
            return costs.pdf_tokens(pages)
        case _:
            assert_never(kind)


def _seconds(
    provider: Provider, media_type: str, data: bytes, read: Callable[[bytes, str], float | None]
) -> float:
    """Return a duration read from the headers by `read`, or raise why the tokens are unknown."""
    media_type = canonical_media_type(media_type)  # the duration readers take no aliases
    seconds = read(data, media_type)
    if seconds is None:
        raise InvalidMedia(
            f"cannot read the duration of this {media_type}, so its tokens are unknown",
            media_type=media_type,
            provider=provider.name,
        )
    return seconds


def converted_audio_tokens(
    provider: Provider, media_type: str, data: bytes, model: str | None
) -> tuple[int, str]:
    """Return the tokens of audio that `normalize` would remux or transcode, and how.

    Priced at the provider's audio rate on the duration the headers declare (a remux or a
    transcode keeps it), never by decoding: that would cost what converting does, and a few
    hundred bytes can declare hours. The rate is asked for first, so a provider with none
    says so at once. A duration past `TransformPolicy.max_seconds` is refused as `normalize`
    refuses it.

    Raises:
        NoDocumentedRule: The provider documents no audio rate.
        InvalidMedia: The headers declare no duration, or FFmpeg cannot read them.
        UnsupportedMediaType: FFmpeg has no decoder for the codec.
        CodecUnavailable: The duration needs FFmpeg's reading, and PyAV is not installed.
        MediaTooLarge: The duration is past `TransformPolicy.max_seconds`.
    """
    costs = provider.rules.costs_for(model)
    costs.audio_tokens(0)
    policy = default_transforms()

    def declared(data: bytes, media_type: str) -> float | None:
        # The readers of formats first; else FFmpeg's header (AMR, CAF...): it opens the
        # container within a bounded probe and decodes nothing.
        return (
            audio_duration(data, media_type)
            or converting.audio_info(data, media_type, policy).seconds
        )

    seconds = _seconds(provider, media_type, data, declared)
    if seconds > policy.max_seconds:
        raise MediaTooLarge(
            f"this {media_type} lasts {seconds:,.0f} s, over TransformPolicy.max_seconds="
            f"{policy.max_seconds:,g}; it would not be converted",
            media_type=media_type,
        )
    how = f"{provider.name}'s documented audio rate, on the duration its headers declare"
    return costs.audio_tokens(seconds), f"{how} (converted to a type it takes, not decoded)"


def known_tokens(
    provider: Provider, kind: Kind, media_type: str, data: bytes, model: str | None
) -> int | None:
    """`media_tokens`, or None where there is no rule (normalize reports what is known)."""
    try:
        return media_tokens(provider, kind, media_type, data, model)
    except MediaError:
        return None


def approximate_pdf_tokens(
    provider: Provider, media_type: str, data: bytes, model: str | None
) -> tuple[int, str] | None:
    """Return a PDF's tokens by the provider's documented approximation, and what it is.

    None where the provider documents none (or no costs table), so the caller keeps the reason
    the exact rule gave.

    Raises:
        InvalidMedia: The page count cannot be read.
        MediaTooLarge: A PDF past the page counter's caps.
    """
    if media_type != "application/pdf" or not provider.rules.costs:
        return None
    costs = provider.rules.costs_for(model)
    if costs.pdf_per_page_approx is None:
        return None
    pages = converting.page_count(data, default_transforms())  # exact with [pdf]
    if pages is None:
        raise InvalidMedia(
            "cannot count the pages of this PDF, so its tokens are unknown",
            media_type=media_type,
        )
    return pages * costs.pdf_per_page_approx, f"{pages} pages x {costs.pdf_approximation}"
