"""`estimate_tokens`: what media costs on a provider, from headers, without re-encoding."""

from __future__ import annotations

import os
from typing import Any

from typing_extensions import assert_never

from mediaparts._build import is_single_source, part
from mediaparts._errors import InvalidMedia, NoDocumentedRule, UnsupportedMediaType
from mediaparts._parts import (
    ImagePart,
    MediaPart,
    Part,
    ProviderPart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
)
from mediaparts.detection import kind_of
from mediaparts.imaging import image_orientation
from mediaparts.providers import _costs
from mediaparts.providers._registry import Provider, get
from mediaparts.providers._render import as_messages
from mediaparts.providers._vision import check_model

__all__ = ["estimate_tokens"]

# EXIF orientations 5-8 turn the picture a quarter: the upright size swaps width and height.
_QUARTER_TURNS = frozenset({5, 6, 7, 8})


def estimate_tokens(
    part_or_messages: Any,
    provider: str | Provider,
    *,
    model: str | None = None,
    detail: str | None = None,
) -> int:
    """Return the documented token cost of media on a provider, following its formula.

    Images are priced from their upright size read from the header, by the model's rule
    (the provider's own resizing included). Audio and video are priced by duration, PDFs by
    page count, where the provider documents a rate. Text is not counted: text parts and text
    files sent as text cost 0 here.

    Args:
        part_or_messages: A part (or anything `mp.part()` takes), a message, or messages.
        provider: A provider name or `Provider`.
        model: The model, for model-dependent rules; None for the newest documented rule.
        detail: The image detail level; defaults to each image's own `detail`.

    Returns:
        The estimated tokens, summed over every media part.

    Raises:
        UnknownProvider: No provider has that name.
        UnsupportedMediaType: The provider does not take some of the media.
        NoDocumentedRule: Some media has no documented token rule (no guess is made).
        InvalidMedia: An image's size, a duration or a page count cannot be read.
    """
    chosen = get(provider)
    check_model(model)
    if isinstance(part_or_messages, MediaPart | TextPart):
        return _part_tokens(part_or_messages, chosen, model, detail)
    if isinstance(part_or_messages, str | os.PathLike) or is_single_source(part_or_messages):
        # One piece of media, as `mp.part` reads it (`render` reads a str as a prompt instead).
        return _part_tokens(part(part_or_messages), chosen, model, detail)
    messages = as_messages(part_or_messages)
    return sum(_part_tokens(p, chosen, model, detail) for m in messages for p in m.parts)


def _part_tokens(
    part: Part | MediaPart, provider: Provider, model: str | None, detail: str | None
) -> int:
    match part:
        case TextPart() | ReasoningPart() | ToolCall() | RefusalPart() | ProviderPart():
            return 0  # media only: text and the rest are counted by the provider's tokenizer
        case MediaPart():
            return _media_part_tokens(part, provider, model, detail)
        case _:
            assert_never(part)


def _media_part_tokens(
    part: MediaPart, provider: Provider, model: str | None, detail: str | None
) -> int:
    if part.file_id is not None:
        raise NoDocumentedRule(
            f"{part.file_id!r} is a file in {part.file_provider}'s file store: its bytes are not "
            "here to count",
            provider=provider.name,
            media_type=part.media_type,
            model=model,
        )
    resolved = part.resolve()
    media_type = resolved.media_type or "application/octet-stream"
    kind = kind_of(media_type)
    rules = provider.rules.for_kind(kind)
    if kind == "file" and media_type in provider.rules.file.text_types:
        return 0
    if not rules.media_types:
        raise UnsupportedMediaType(
            f"{provider.name} does not accept {kind} ({media_type})",
            media_type=media_type,
            provider=provider.name,
        )
    match kind:
        case "image":
            assert isinstance(resolved, ImagePart)
            return _image_tokens(resolved, media_type, provider, model, detail)
        case "audio" | "video" | "file":
            return _costs.media_tokens(provider, kind, media_type, resolved.data, model)
        case _:
            assert_never(kind)


def _image_tokens(
    image: ImagePart, media_type: str, provider: Provider, model: str | None, detail: str | None
) -> int:
    """Price an image from its upright size read from the header, by the model's rule."""
    width, height = image.width, image.height
    if width is None or height is None:
        raise InvalidMedia(f"cannot read the size of this {media_type}", media_type=media_type)
    if image_orientation(image.data) in _QUARTER_TURNS:
        width, height = height, width
    geometry = _costs.vision(provider, model, strict=True)
    level = _costs.choose_detail(provider, geometry, detail, image.detail)
    tokens = _costs.image_tokens(geometry, width, height, level)
    if tokens is None:
        raise NoDocumentedRule(
            f"{provider.name} documents no image token rule for model {model!r}",
            provider=provider.name,
            media_type=media_type,
            model=model,
        )
    return tokens
