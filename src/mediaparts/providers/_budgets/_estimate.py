"""What one media part costs on a provider, from its headers, without re-encoding."""

from __future__ import annotations

from typing_extensions import assert_never

from mediaparts._conversation._parts import (
    ImagePart,
    MediaPart,
)
from mediaparts._errors import InvalidMedia, NoDocumentedRule, UnsupportedMediaType, excerpt
from mediaparts.detection import kind_of
from mediaparts.providers._budgets import _rates as _costs
from mediaparts.providers._fitting._normalize import decode_text
from mediaparts.providers._registry import Provider

__all__ = ["media_part_tokens", "resolved", "sent_as_text"]

# EXIF orientations 5-8 turn the picture a quarter: the upright size swaps width and height.
_QUARTER_TURNS = frozenset({5, 6, 7, 8})


def resolved(part: MediaPart, provider: Provider, model: str | None) -> MediaPart:
    """Return the part typed by its bytes, or raise why its bytes are not here to count.

    Raises:
        NoDocumentedRule: The part is a reference to a provider's file store.
    """
    if part.file_id is not None:
        raise NoDocumentedRule(
            f"{excerpt(part.file_id)} is a file in {part.file_provider}'s file store: its bytes "
            "are not "
            "here to count",
            provider=provider.name,
            media_type=part.media_type,
            model=model,
        )
    return part.resolve()


def sent_as_text(part: MediaPart, provider: Provider) -> str | None:
    """Return a text file's decoded text when the provider is sent it as text, else None."""
    media_type = part.media_type or "application/octet-stream"
    if kind_of(media_type) != "file" or media_type not in provider.rules.file.text_types:
        return None
    return decode_text(part.data, media_type)


def media_part_tokens(
    part: MediaPart, provider: Provider, model: str | None, detail: str | None
) -> tuple[int, str]:
    """Return a resolved media part's documented tokens and how they were counted, or raise why not.

    Raises:
        UnsupportedMediaType: The provider does not take this kind or type.
        NoDocumentedRule: No rule is documented for it (or for this model).
        InvalidMedia: A size, duration or page count cannot be read from the headers.
        MediaTooLarge: A PDF past the page counter's caps.
    """
    media_type = part.media_type or "application/octet-stream"
    kind = kind_of(media_type)
    rules = provider.rules.for_kind(kind)
    if not rules.media_types:
        raise UnsupportedMediaType(
            f"{provider.label} does not accept {kind} ({media_type})",
            media_type=media_type,
            provider=provider.name,
        )
    match kind:
        case "image":
            assert isinstance(part, ImagePart)
            return _image_tokens(part, media_type, provider, model, detail)
        case "audio" | "video" | "file":
            tokens = _costs.media_tokens(provider, kind, media_type, part.data, model)
            return tokens, f"{provider.name}'s documented {kind} rate"
        case _:
            assert_never(kind)


def _image_tokens(
    image: ImagePart, media_type: str, provider: Provider, model: str | None, detail: str | None
) -> tuple[int, str]:
    """Price an image from its upright size read from the header, by the model's rule."""
    width, height = image.width, image.height
    if width is None or height is None:
        raise InvalidMedia(f"cannot read the size of this {media_type}", media_type=media_type)
    if image._orientation() in _QUARTER_TURNS:  # read once per part
        width, height = height, width
    geometry = _costs.vision(provider, model, strict=True)
    level = _costs.choose_detail(provider, geometry, detail, image.detail)
    tokens = _costs.image_tokens(geometry, width, height, level)
    if tokens is None:
        raise NoDocumentedRule(
            f"{provider.name} documents no image token rule for model {excerpt(model)}",
            provider=provider.name,
            media_type=media_type,
            model=model,
        )
    assert geometry is not None  # image_tokens gives None without one
    return tokens, geometry.describe()
