"""What `normalize` does with documents a provider cannot take as they are.

- a PDF over the provider's page or byte limit: split into PDFs within them, or its pages as
  images, as `TransformPolicy.pdf` says (or refused);
- an Office document (docx, xlsx, pptx) or RTF the provider does not take: its text, Markdown
  where the structure allows (`mediaparts.converting.office_to_text`).
"""

from __future__ import annotations

from mediaparts import converting
from mediaparts._errors import MediaError, ProviderLimitError
from mediaparts._parts import ImagePart, MediaPart, TextPart
from mediaparts.converting import Converted, TransformPolicy
from mediaparts.providers._convert import (
    PDF,
    Fit,
    name_of,
    piece,
    stem_of,
    to_limit,
    whole,
)
from mediaparts.providers._normalized import NormalizedPart
from mediaparts.providers._registry import Provider

__all__ = ["document"]


def document(
    media: MediaPart,
    media_type: str,
    provider: Provider,
    model: str | None,
    policy: TransformPolicy,
    fit: Fit,
) -> NormalizedPart | None:
    """A document the provider does not take as it is: a PDF over its page or byte limit, or
    an Office file or RTF it does not take. None when no transform applies (take it as is, or
    refuse it)."""
    rules = provider.rules.file
    if media_type == PDF and rules.accepts(PDF):
        return _pdf(media, provider, model, policy, fit)
    if media_type in converting.OFFICE_TYPES and not rules.accepts(media_type):
        made = converting.office_to_text(media.data, media_type, policy)
        return NormalizedPart(
            kind="file",
            media_type=made.media_type,
            text=made.text,
            filename=media.filename,
            steps=made.steps,
            part=media,
        )
    return None


def _pdf(
    media: MediaPart,
    provider: Provider,
    model: str | None,
    policy: TransformPolicy,
    fit: Fit,
) -> NormalizedPart | None:
    rules = provider.rules.file
    data = media.data
    over_bytes = not rules.fits(len(data))
    pages = converting.page_count(data, policy) if rules.max_pages is not None else None
    over_pages = pages is not None and rules.max_pages is not None and pages > rules.max_pages
    if not over_bytes and not over_pages:
        return None
    why = (
        f"{pages:,} pages; {provider.name} takes at most {rules.max_pages:,} a document"
        if over_pages
        else f"{rules.measured(len(data)):,} bytes; {provider.name} takes at most "
        f"{rules.max_bytes:,}"
    )
    match policy.pdf:
        case "refuse":
            raise ProviderLimitError(
                f"this PDF has {why}; TransformPolicy(pdf='split') splits it, pdf='pages' "
                "sends its pages as images",
                media_type=PDF,
                provider=provider.name,
            )
        case "split":
            made: list[Converted] = to_limit(
                lambda: converting.split_pdf(
                    data,
                    policy,
                    max_pages=rules.max_pages,
                    max_bytes=rules.max_bytes,
                    measure=rules.measure,
                ),
                provider,
                rules.max_bytes,
                PDF,
            )
            return _split(media, provider, model, made, why)
        case "pages":
            return _pages(media, policy, fit, why)


def _split(
    media: MediaPart, provider: Provider, model: str | None, made: list[Converted], why: str
) -> NormalizedPart:
    stem = stem_of(media, "document")
    quiet = media.model_copy(update={"cache": None})
    pieces: list[NormalizedPart | TextPart] = []
    for part in made:
        assert part.data is not None  # PDFs are bytes
        pieces.append(
            NormalizedPart(
                kind="file",
                media_type=PDF,
                data=part.data,
                filename=f"{stem} ({part.label}).pdf" if part.label else f"{stem}.pdf",
                tokens=_pdf_tokens(provider, model, part.pages),
                steps=part.steps,
                part=quiet,
            )
        )
    return whole(
        media, "file", PDF, pieces, [f"over the limit ({why})", f"split into {len(made)} PDFs"]
    )


def _pdf_tokens(provider: Provider, model: str | None, pages: int | None) -> int | None:
    if pages is None or not provider.rules.costs:
        return None
    try:
        return provider.rules.costs_for(model).pdf_tokens(pages)
    except MediaError:
        return None


def _pages(media: MediaPart, policy: TransformPolicy, fit: Fit, why: str) -> NormalizedPart:
    made = converting.render_pages(media.data, policy)
    name, stem = name_of(media, "the document"), stem_of(media, "page")
    quiet = media.model_copy(update={"cache": None})
    pieces: list[NormalizedPart | TextPart] = []
    for index, page in enumerate(made, 1):
        assert page.data is not None  # page images are bytes
        label = page.label or f"page {index}"
        image = fit(ImagePart.from_bytes(page.data, filename=f"{stem} {label}.png"))
        pieces.append(TextPart(text=f"[{name}, {label}]"))
        pieces.append(piece(image, quiet, (*page.steps, *image.steps)))
    steps = [f"over the limit ({why})", f"pdf→{len(made)} page images"]
    return whole(media, "file", PDF, pieces, steps)
