"""What `normalize` does with documents a provider cannot take as they are.

- a PDF over the provider's page or byte limit: split into PDFs within them, or its pages as
  images, as `TransformPolicy.pdf` says (or refused);
- an Office document (docx, xlsx, pptx) or RTF the provider does not take: its text, Markdown
  where the structure allows (`mediaparts.converting.office_to_text`).
"""

from __future__ import annotations

from mediaparts import converting
from mediaparts._conversation._parts import ImagePart, MediaPart, TextPart
from mediaparts._errors import MediaError, ProviderLimitError
from mediaparts.converting import Converted, TransformPolicy
from mediaparts.providers._fitting._convert import (
    PDF,
    Fit,
    name_of,
    piece,
    stem_of,
    to_limit,
    whole,
)
from mediaparts.providers._fitting._normalized import NormalizedPart
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
    counted = rules.max_pages is not None or rules.max_request_pages is not None
    pages = converting.page_count(data, policy) if counted else None
    over_request = _over(pages, rules.max_request_pages)
    over_document = _over(pages, rules.max_pages)
    if not over_request and not over_document and rules.fits(len(data)):
        return None
    name = provider.name
    if over_request:
        why = (
            f"{pages:,} pages; {name} takes at most {rules.max_request_pages:,} PDF pages "
            "in one request, across its documents"
        )
    elif over_document:
        why = f"{pages:,} pages; {name} takes at most {rules.max_pages:,} a document"
    else:
        why = f"{rules.measured(len(data)):,} bytes; {name} takes at most {rules.max_bytes:,}"
    match policy.pdf:
        case "refuse" if over_request:
            raise ProviderLimitError(
                f"this PDF has {why}; send its pages in several requests",
                media_type=PDF,
                provider=name,
            )
        case "refuse":
            raise ProviderLimitError(
                f"this PDF has {why}; TransformPolicy(pdf='split') splits it, pdf='pages' "
                "sends its pages as images",
                media_type=PDF,
                provider=name,
            )
        case "split" if over_request:
            raise ProviderLimitError(
                f"this PDF has {why}: split or not, it does not fit one request; send its "
                "pages in several requests",
                media_type=PDF,
                provider=name,
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
            return _pages(media, provider, policy, fit, why, pages)


def _over(pages: int | None, limit: int | None) -> bool:
    return pages is not None and limit is not None and pages > limit


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


def _pages(
    media: MediaPart,
    provider: Provider,
    policy: TransformPolicy,
    fit: Fit,
    why: str,
    pages: int | None,
) -> NormalizedPart:
    images = provider.rules.image
    if pages is not None and images.max_count is not None and pages > images.max_count:
        scope = "message" if images.count_scope == "message" else "request"
        raise ProviderLimitError(
            f"this PDF has {why}, and as page images it would be {pages:,} images, over "
            f"{provider.name}'s {images.max_count:,} in one {scope}; send its pages in "
            "several requests",
            media_type=PDF,
            provider=provider.name,
        )
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
