"""What is uploaded: a part normalized for the provider, measured against its file store.

The part is normalized as `render` would (EXIF, conversions the provider needs, images fitted
to its vision limits), but its audio, video and document byte limits are the store's, not the
inline ones: a 300 MB MP4 goes to Gemini's File API as it is. What would be sent as text, or
as several pieces (video frames, a split PDF), or in a form the API does not take by
reference, has nothing to upload: `why_not` says so.
"""

from __future__ import annotations

from mediaparts._conversation._parts import MediaPart
from mediaparts._errors import UnsupportedMediaType
from mediaparts.converting import TransformPolicy
from mediaparts.formats import Kind
from mediaparts.providers import FileStoreRules, NormalizedPart, Provider, normalize

__all__ = ["fitted", "for_store", "over_inline", "refuse", "store_rules", "why_not"]


def store_rules(provider: Provider) -> FileStoreRules | None:
    """Return the provider's file store rules, or None when it has no file API."""
    return provider.files.rules if provider.files is not None else None


def for_store(provider: Provider, store: FileStoreRules) -> Provider:
    """Return the provider with the store's byte limit in place of its inline limits for
    audio, video and documents (images keep theirs: the model sees the same pixels)."""
    overrides: dict[str, object] = {}
    for kind in ("audio", "video", "file"):
        if kind in store.kinds:
            overrides[f"{kind}_max_bytes"] = store.max_bytes
            overrides[f"{kind}_measure"] = "raw"
    return provider.with_rules(**overrides) if overrides else provider


def why_not(fitted: NormalizedPart, store: FileStoreRules, provider: str) -> str | None:
    """Say why a normalized part cannot be stored and referenced, or None when it can."""
    if fitted.pieces:
        return f"{provider} is sent it as {len(fitted.pieces)} pieces, not one file"
    if fitted.text is not None or fitted.data is None:
        return f"{provider} is sent it as text"
    if not store.takes(fitted.kind, fitted.media_type):
        return f"{provider}'s API does not take {fitted.media_type} ({fitted.kind}) by reference"
    if len(fitted.data) > store.max_bytes:
        return (
            f"it is {len(fitted.data):,} bytes; {store.store}'s file store takes at most "
            f"{store.max_bytes:,}"
        )
    return None


def refuse(part: MediaPart, provider: Provider, why: str) -> UnsupportedMediaType:
    """Return the error for a part that cannot be uploaded for the provider."""
    return UnsupportedMediaType(
        f"cannot upload {part.media_type or 'this part'} for {provider.name}: {why}; send it "
        "inline (mp.render without urls='upload') instead",
        media_type=part.media_type,
        provider=provider.name,
    )


def fitted(
    part: MediaPart, provider: Provider, model: str | None, transforms: TransformPolicy | None
) -> NormalizedPart:
    """Normalize a loaded part for the provider against its file store's limits."""
    store = store_rules(provider)
    assert store is not None
    return normalize(
        part, for_store(provider, store), model=model, urls="inline", transforms=transforms
    )


def over_inline(provider: Provider, kind: Kind, size: int) -> bool:
    """Tell whether `size` bytes of a kind are over what the provider takes inline (the
    kind's limit, or the request's), as the provider measures them."""
    rules = provider.rules.for_kind(kind)
    if not rules.fits(size):
        return True
    limit = provider.rules.max_request_bytes
    return limit is not None and rules.measured(size) > limit
