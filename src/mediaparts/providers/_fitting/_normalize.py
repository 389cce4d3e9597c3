"""`normalize`: make one part what a provider accepts, or say clearly why it cannot be.

Images are fitted (oriented, converted, downscaled, re-encoded) by `mediaparts.imaging` to
the provider's rules; audio, video, SVG and documents pass through where accepted, and are
converted by `mediaparts.converting` where not (`_convert` chooses how, under the caller's
`TransformPolicy`); text files become text where the provider reads them as text; everything
else is refused by name.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Literal, cast

from typing_extensions import assert_never

from mediaparts._boundary import Boundary
from mediaparts._conversation._make_part import PartLike
from mediaparts._conversation._make_part import part as make_part
from mediaparts._conversation._parts import MediaPart
from mediaparts._errors import (
    BlockedURL,
    InvalidConfig,
    InvalidMedia,
    MediaError,
    ProviderLimitError,
    UnsupportedMediaType,
    excerpt,
    rewrap,
)
from mediaparts.converting import TransformPolicy, default_transforms
from mediaparts.detection import kind_of
from mediaparts.fetching import FetchPolicy, check_url
from mediaparts.formats import Kind, readable
from mediaparts.imaging import fit_image
from mediaparts.providers._budgets import _rates as _costs
from mediaparts.providers._budgets._vision import VisionGeometry, check_model
from mediaparts.providers._fitting import _convert, _documents
from mediaparts.providers._fitting._accepted import refusal
from mediaparts.providers._fitting._image_spec import image_spec
from mediaparts.providers._fitting._normalized import PASSED_URL, NormalizedPart
from mediaparts.providers._fitting._remember import fitting_inputs, keep, recall
from mediaparts.providers._fitting._textfiles import decode_text, read_text
from mediaparts.providers._options import Options, resolve
from mediaparts.providers._registry import Provider, get
from mediaparts.providers._rules import KindRules
from mediaparts.providers._wire._rendering import left_out

__all__ = ["UrlMode", "anormalize", "decode_text", "normalize", "normalize_many"]

# Only MediaError leaves normalize_many (see Boundary).
_NORMALIZING_MANY = Boundary("normalizing many parts")

# Only MediaError leaves anormalize (see Boundary).
_ANORMALIZING = Boundary("normalizing")

# Only MediaError leaves normalize (see Boundary).
_NORMALIZING = Boundary("normalizing")

UrlMode = Literal["auto", "inline", "pass"]
_PASSED = ("url pass-through",)
# Which URLs may pass through to a provider: public hosts only, whatever the fetch policy.
_PUBLIC_ONLY = FetchPolicy(allow_private=False)


def _media(value: Any) -> MediaPart:
    made = value if isinstance(value, MediaPart) else make_part(value)
    if not isinstance(made, MediaPart):
        raise InvalidMedia("normalize() takes media, not text; text needs no normalizing")
    return made


def _named(provider: Provider, model: str | None) -> VisionGeometry | None:
    """The geometry of a named model, for the detail of a part sent by reference (a URL or a
    file id): nothing is fitted, so without a model its own level, if the provider takes it,
    is kept rather than judged by the default row (gpt-4o's has no "original")."""
    return None if model is None else _costs.vision(provider, model)


def _passed_url(
    part: MediaPart, provider: Provider, urls: UrlMode, model: str | None, detail: str | None
) -> NormalizedPart | None:
    """Return the part as a URL to pass through, when allowed; None to load and inline it.

    A URL passes where the provider fetches that type itself, and also where a payload read
    from this provider sent it as a URL (its reader marked it `native[provider]["passed_url"]`):
    rendering that payload back must not fetch what the API fetched.
    """
    if part.url is None or urls == "inline":
        return None
    media_type = part.effective_media_type
    kind = kind_of(media_type) if media_type else None
    if part.native.get(provider.name, {}).get(PASSED_URL) is True:
        kind, media_type = kind or part.kind, media_type or "application/octet-stream"
        passes = True
    else:
        passes = kind is not None and media_type in provider.rules.for_kind(kind).url_types
        # The provider fetches it from its own network: a loopback, private or local host
        # (a dev server, reachable here with allow_private) is out of its reach, so inline it.
        passes = passes and _public(part.url)
    if passes and kind is not None and media_type is not None:
        return NormalizedPart(
            kind=kind,
            media_type=media_type,
            url=part.url,
            filename=part.filename,
            detail=_costs.choose_detail(
                provider, _named(provider, model), detail, getattr(part, "detail", None)
            )
            if kind == "image"
            else None,
            steps=_PASSED,
            part=part,
        )
    if urls == "pass":
        what = media_type or "a URL of unknown type"
        raise UnsupportedMediaType(
            f"{provider.label} does not fetch {what} from URLs itself, and urls='pass' forbids "
            "fetching it here; use urls='auto' to inline it",
            media_type=media_type,
            provider=provider.name,
        )
    return None


def _public(url: str) -> bool:
    """Whether a URL's host is one a provider's servers could reach (no private address or
    local name), judged without network traffic. Other schemes than HTTP (a bucket's `s3://`,
    `gs://`) name the provider's own storage and pass."""
    if not url.lower().startswith(("http://", "https://")):
        return True
    try:
        check_url(url, _PUBLIC_ONLY)
    except BlockedURL:
        return False
    return True


def _check_urls(urls: str, model: Any = None) -> None:
    """Refuse a bad `urls` option (a setting: InvalidConfig) or a model that is no string."""
    if urls not in ("auto", "inline", "pass"):
        raise InvalidConfig(f"urls must be 'auto', 'inline' or 'pass', got {excerpt(urls)}")
    check_model(model)


def _start(
    part: Any, provider: str | Provider, model: str | None, detail: str | None, urls: str
) -> tuple[MediaPart, Provider, NormalizedPart | None]:
    """Check the arguments; return the part, the provider, and the URL if it passes through."""
    _check_urls(urls, model)
    mode = cast(UrlMode, urls)  # checked just above
    chosen = get(provider, model)
    media = _media(part)
    if media.file_id is not None:
        return media, chosen, _reference(media, chosen, model, detail)
    if (why := left_out(media, chosen.name, chosen.rules)) is not None:  # before any fetch
        raise UnsupportedMediaType(why, media_type=media.media_type, provider=chosen.name)
    return media, chosen, _passed_url(media, chosen, mode, model, detail)


def _reference(
    part: MediaPart, provider: Provider, model: str | None, detail: str | None
) -> NormalizedPart:
    """Return a provider file reference as it is sent, if the provider reads that store."""
    store = provider.rules.store
    if not provider.rules.reads(part.file_provider):
        raise UnsupportedMediaType(
            f"{excerpt(part.file_id)} is a file in {part.file_provider}'s file store, and "
            f"{provider.name} reads only {store}'s: upload the file there, or give its bytes",
            media_type=part.media_type,
            provider=provider.name,
        )
    return NormalizedPart(
        kind=part.kind,
        media_type=part.media_type or "application/octet-stream",
        file_id=part.file_id,
        filename=part.filename,
        detail=_costs.choose_detail(
            provider, _named(provider, model), detail, getattr(part, "detail", None)
        )
        if part.kind == "image"
        else None,
        steps=("file reference",),
        part=part,
    )


def normalize(
    part: PartLike,
    provider: str | Provider,
    *,
    model: str | None = None,
    detail: str | None = None,
    urls: UrlMode = "auto",
    transforms: TransformPolicy | None = None,
    options: Options | None = None,
) -> NormalizedPart:
    """Make a part what `provider` accepts: the bytes it will receive, and what was done.

    Args:
        part: A part, or anything `mp.part()` takes.
        provider: A provider name (`"openai"`, `"anthropic"`, ...) or a `Provider`.
        model: The model, for model-dependent rules (image sizes, tokens); None for the
            provider's newest documented rule.
        detail: The image detail level for this provider. Defaults to the part's own `detail`,
            which is dropped where this provider or model has no such level.
        urls: `"auto"` passes a URL through where the provider fetches that type itself,
            else loads and inlines it; `"inline"` always inlines; `"pass"` never fetches.
        transforms: What may be done to audio, video, SVG and documents the provider cannot
            take as they are, and the caps on that work; None for the default policy
            (`mp.configure(transforms=...)`, `mp.using_transforms(...)`).
        options: These settings as one `mp.Options` value (its `model`, `detail`, `urls`
            and `transforms`); a keyword above that is given wins over its field.

    Returns:
        The normalized part: `media_type`, `data` (or `url`, or `text`, or `pieces`: video
        frames, split PDFs, page images), `width`/`height`, `byte_size`, `tokens`, `steps`.

    Raises:
        UnsupportedMediaType: The provider cannot take this media (names provider, type and
            what it accepts).
        ProviderLimitError: The media cannot be fitted to the provider's limits.
        CodecUnavailable: The conversion needs an extra that is not installed (it names it).
        MediaTooLarge: The conversion would pass a cap of the `TransformPolicy`.
        FetchError: A URL part could not be fetched.
        InvalidConfig: `urls` is not one of the three modes.
        InvalidConfig: `model` is not a string.
        UnknownProvider: No provider has that name.
    """
    try:
        # Sync twin of `anormalize` (load vs aload, fitting here vs in a thread); the steps are
        # `_start` and `_prepare`, written once.
        opts = resolve(options, model=model, detail=detail, urls=urls, transforms=transforms)
        model, detail = opts.model, opts.detail
        media, chosen, passed = _start(part, provider, model, detail, opts.urls)
        if passed is not None:
            return passed
        policy = _policy(opts.transforms)
        media.load()
        inputs = fitting_inputs(chosen, model, detail, policy)  # fitted before: not again
        if (found := recall(media, inputs)) is not None:
            return found
        return keep(media, inputs, _prepare(media, chosen, model, detail, policy))
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _NORMALIZING.reraise(exc)


async def anormalize(
    part: PartLike,
    provider: str | Provider,
    *,
    model: str | None = None,
    detail: str | None = None,
    urls: UrlMode = "auto",
    transforms: TransformPolicy | None = None,
    options: Options | None = None,
) -> NormalizedPart:
    """`normalize` for async code: fetches with `aload`, fits and converts in a worker thread."""
    try:
        # Async twin of `normalize` (aload, fitting in a thread); the steps are `_start` and
        # `_prepare`, written once.
        opts = resolve(options, model=model, detail=detail, urls=urls, transforms=transforms)
        model, detail = opts.model, opts.detail
        media, chosen, passed = _start(part, provider, model, detail, opts.urls)
        if passed is not None:
            return passed
        policy = _policy(opts.transforms)  # read here: the worker thread has its own context
        await media.aload()
        inputs = fitting_inputs(chosen, model, detail, policy)  # fitted before: not again
        if (found := recall(media, inputs)) is not None:
            return found
        made = await asyncio.to_thread(_prepare, media, chosen, model, detail, policy)
        return keep(media, inputs, made)
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _ANORMALIZING.reraise(exc)


def _policy(transforms: Any) -> TransformPolicy:
    """The policy given, else the one in force; anything else is a setting error."""
    if transforms is None:
        return default_transforms()
    if not isinstance(transforms, TransformPolicy):
        raise InvalidConfig(
            f"transforms must be a TransformPolicy, got {type(transforms).__name__}"
        )
    return transforms


def normalize_many(
    parts: Sequence[PartLike],
    provider: str | Provider,
    *,
    model: str | None = None,
    detail: str | None = None,
    urls: UrlMode = "auto",
    workers: int | None = None,
    transforms: TransformPolicy | None = None,
    options: Options | None = None,
) -> list[NormalizedPart]:
    """Normalize many parts, in worker processes (all cores when `workers` is None).

    Results come back in the order of `parts`. With `workers=1`, or a single part, the work
    is done in this process. `options` and the other keywords are `normalize`'s. Raises what
    `normalize` raises, and `InvalidConfig` for a `workers` that is not a positive whole number.
    """
    try:
        opts = resolve(options, model=model, detail=detail, urls=urls, transforms=transforms)
        _check_urls(opts.urls, opts.model)
        chosen = get(provider, opts.model)
        # Given to each worker: a process does not inherit this one's configured default.
        opts = dataclasses.replace(opts, transforms=_policy(opts.transforms))
        if isinstance(parts, str | bytes) or not isinstance(parts, Sequence):
            raise InvalidMedia(
                f"normalize_many() takes a list of parts, got {type(parts).__name__}"
            )
        if workers is not None and (not isinstance(workers, int) or workers < 1):
            raise InvalidConfig(f"workers must be a positive whole number, got {excerpt(workers)}")
        medias = [_media(p) for p in parts]
        count = workers or os.cpu_count() or 1
        if count <= 1 or len(medias) <= 1:
            return [normalize(m, chosen, options=opts) for m in medias]
        with ProcessPoolExecutor(max_workers=min(count, len(medias))) as pool:
            jobs = [pool.submit(normalize, m, chosen, options=opts) for m in medias]
            return [job.result() for job in jobs]
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _NORMALIZING_MANY.reraise(exc)


def _prepare(
    media: MediaPart,
    provider: Provider,
    model: str | None,
    detail: str | None,
    policy: TransformPolicy,
) -> NormalizedPart:
    media_type = media.effective_media_type or "application/octet-stream"
    kind = kind_of(media_type)

    def fit(image: MediaPart) -> NormalizedPart:  # frames, pages and rasters, as any image
        return _image(image, image.media_type or "", provider, model, detail)

    if media_type == _convert.SVG and not provider.rules.image.accepts(media_type):
        return _convert.svg(media, provider, policy, fit)  # a picture, though not an image kind
    match kind:
        case "image":
            return _image(media, media_type, provider, model, detail)
        case "file":
            converted = _documents.document(media, media_type, provider, model, policy, fit)
            return converted or _file(media, media_type, provider, model)
        case "audio":
            if _taken(provider.rules.audio, media_type, media):
                return _audio_video(media, media_type, kind, provider, model)
            return _convert.audio(media, media_type, provider, model, policy)
        case "video":
            if _taken(provider.rules.video, media_type, media):
                return _audio_video(media, media_type, kind, provider, model)
            return _convert.video(media, media_type, provider, model, policy, fit)
        case _:
            assert_never(kind)


def _taken(rules: KindRules, media_type: str, media: MediaPart) -> bool:
    """Whether the provider takes this audio or video as it is (type and size)."""
    return rules.accepts(media_type) and rules.fits(len(media.data))


def _image(
    media: MediaPart, media_type: str, provider: Provider, model: str | None, detail: str | None
) -> NormalizedPart:
    rules = provider.rules.image
    if not rules.media_types:
        raise refusal(provider, "image", media_type)
    geometry = _costs.vision(provider, model)
    detail = _costs.choose_detail(provider, geometry, detail, getattr(media, "detail", None))
    target = None if geometry is None else lambda w, h: geometry.target_size(w, h, detail)
    spec = image_spec(rules, target=target)
    try:
        fitted = fit_image(media.data, media_type, spec)
    except InvalidMedia as exc:
        if rules.accepts(media_type):
            raise
        if media_type not in readable():
            # A type Pillow has no decoder for (SVG): the refusal is the news, not "corrupt".
            raise refusal(provider, "image", media_type) from exc
        # A type we convert (HEIC, TIFF, AVIF) whose bytes do not decode: say both.
        raise InvalidMedia(
            f"{provider.label} does not accept {media_type} as is, and this one cannot be "
            f"converted: {exc}",
            media_type=media_type,
            provider=provider.name,
        ) from exc
    except (UnsupportedMediaType, ProviderLimitError) as exc:
        # Keep the class and what it carries (`accepted`, ...); add which provider refused it.
        error = rewrap(exc, f"{provider.name}: {exc}")
        error.media_type, error.provider = media_type, provider.name
        raise error from exc
    try:  # tokens only where the model's rule is known: an unknown model fits, but is not priced
        pricing = _costs.vision(provider, model, strict=True)
    except MediaError:
        pricing = None
    tokens = _costs.image_tokens(pricing, fitted.width, fitted.height, detail)
    return NormalizedPart(
        kind="image",
        media_type=fitted.media_type,
        data=fitted.data,
        filename=media.filename,
        width=fitted.width,
        height=fitted.height,
        detail=detail,
        tokens=tokens,
        steps=fitted.steps,
        part=media,
    )


def _within(provider: Provider, rules: KindRules, kind: Kind, media_type: str, size: int) -> None:
    if not rules.fits(size):
        measured = rules.measured(size)
        how = " as base64" if rules.measure == "base64" else ""
        raise ProviderLimitError(
            f"this {media_type} {kind} is {measured:,} bytes{how}; {provider.name} takes at "
            f"most {rules.max_bytes:,}",
            media_type=media_type,
            provider=provider.name,
        )


def _audio_video(
    media: MediaPart,
    media_type: str,
    kind: Literal["audio", "video"],
    provider: Provider,
    model: str | None,
) -> NormalizedPart:
    data = media.data  # taken as it is (`_taken`)
    return NormalizedPart(
        kind=kind,
        media_type=media_type,
        data=data,
        filename=media.filename,
        tokens=_costs.known_tokens(provider, kind, media_type, data, model),
        part=media,
    )


def _file(
    media: MediaPart, media_type: str, provider: Provider, model: str | None
) -> NormalizedPart:
    rules = provider.rules.file
    data = media.data
    if rules.accepts(media_type):
        _within(provider, rules, "file", media_type, len(data))
        return NormalizedPart(
            kind="file",
            media_type=media_type,
            data=data,
            filename=media.filename,
            tokens=_costs.known_tokens(provider, "file", media_type, data, model),
            part=media,
        )
    if media_type in rules.text_types:
        text, how = read_text(data, media_type)
        return NormalizedPart(
            kind="file",
            media_type=media_type,
            text=text,
            filename=media.filename,
            steps=("as text", *how),
            part=media,
        )
    raise refusal(provider, "file", media_type, filename=media.filename)
