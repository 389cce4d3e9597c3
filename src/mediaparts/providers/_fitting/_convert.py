"""What `normalize` does with media a provider cannot take as it is.

The transforms live in `mediaparts.converting` and know nothing of providers; this module
chooses them from one provider's rules and the caller's `TransformPolicy`, and makes their
outputs what the provider is sent:

- audio: remuxed to a type the provider takes where the codec allows (AAC to ADTS, Opus to
  Ogg), else transcoded; fitted to the byte limit (bitrate, mono, 16 kHz);
- video, for a provider that takes video: remuxed or transcoded to a container it takes, and
  fitted to its byte limit; for one that takes none, what `TransformPolicy.video` says:
  sampled frames as images (each after a text part with its time), the audio track, both,
  or a refusal;
- SVG: rasterised to PNG and fitted like any image; without the `[svg]` extra, sent as its
  text (every provider reads text);
- documents (`_documents`): a PDF over the provider's page or byte limit split or sent as
  page images, Office documents and RTF it does not take sent as their text.

A transform runs only when the provider cannot take the original.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import PurePath
from typing import Any

from mediaparts import converting
from mediaparts._conversation._parts import ImagePart, MediaPart, TextPart
from mediaparts._errors import (
    CodecUnavailable,
    MediaError,
    MediaTooLarge,
    ProviderLimitError,
    UnsupportedMediaType,
)
from mediaparts.converting import Converted, TransformPolicy
from mediaparts.detection import extension_for
from mediaparts.formats import Kind
from mediaparts.providers._fitting._accepted import refusal
from mediaparts.providers._fitting._normalized import NormalizedPart
from mediaparts.providers._registry import Provider

__all__ = [
    "PDF",
    "SVG",
    "Fit",
    "audio",
    "converts",
    "estimating",
    "is_estimating",
    "name_of",
    "piece",
    "refusal",
    "stem_of",
    "svg",
    "to_limit",
    "video",
    "whole",
]

Fit = Callable[[MediaPart], NormalizedPart]

# Set while a token count normalizes a part: frames are then stand-ins of the right size and
# labels, read from the headers, not decoded (a video's tokens need no pixels).
_estimating: ContextVar[bool] = ContextVar("mediaparts_estimating", default=False)


@contextlib.contextmanager
def estimating() -> Iterator[None]:
    """Within the block, `normalize` sends a video's frames as header-read stand-ins."""
    token = _estimating.set(True)
    try:
        yield
    finally:
        _estimating.reset(token)


def is_estimating() -> bool:
    """Whether `normalize` is inside `estimating()` (its results differ: see `_remember`)."""
    return _estimating.get()


"""Fits an image part to the provider (normalize's image path), for frames, pages and SVG."""

SVG = "image/svg+xml"
PDF = "application/pdf"
# The audio type a codec reaches by a remux (no re-encoding), where the provider takes it.
_REMUX = {
    "aac": "audio/aac",
    "mp3": "audio/mpeg",
    "opus": "audio/ogg",
    "vorbis": "audio/ogg",
    "flac": "audio/flac",
}
# Types that keep every sample: over a byte limit, a lossy type the provider takes goes first.
_LOSSLESS = frozenset({"audio/wav", "audio/aiff", "audio/flac"})
# The longest side of a sampled frame (see `_frame_side`).
_FRAME_SIDE = 2048
# Otherwise the first of these the provider takes: MP3 is small and every audio API reads it;
# WAV last, as it is the largest.
_TARGETS = ("audio/mpeg", "audio/ogg", "audio/aac", "audio/flac", "audio/wav")


def to_limit(run: Callable[[], Any], provider: Provider, limit: int | None, media_type: str) -> Any:
    """Run a transform given the provider's byte limit; a `MediaTooLarge` at that limit (the
    media cannot be made to fit) becomes the provider's `ProviderLimitError`."""
    try:
        return run()
    except MediaTooLarge as exc:
        if limit is None or exc.limit != limit:
            raise  # a cap of the policy (seconds, pixels, pages): the input's fault
        raise ProviderLimitError(
            f"{provider.name}: {exc}", media_type=media_type, provider=provider.name
        ) from exc


def name_of(media: MediaPart, default: str) -> str:
    return media.filename or default


def stem_of(media: MediaPart, default: str) -> str:
    return PurePath(media.filename).stem if media.filename else default


def converts(media_type: str, provider: Provider, policy: TransformPolicy) -> bool:
    """Whether `normalize` sends this type to the provider as something else (another type,
    or pieces), so that its tokens are those of what is sent: audio, video or SVG it does not
    take, an Office file or RTF it does not take, and (with `pdf="pages"`) PDFs, which may
    become page images."""
    rules = provider.rules
    match media_type.partition("/")[0]:
        case _ if media_type == SVG:
            return not rules.image.accepts(media_type)
        case "audio":
            return not rules.audio.accepts(media_type)
        case "video":
            return not rules.video.accepts(media_type)
        case "image" | "text":  # fitted, or read as text: what is sent is priced as it is
            return False
        case _ if media_type == PDF:
            limited = rules.file.max_pages or rules.file.max_request_pages
            return policy.pdf == "pages" and limited is not None
        case _:
            return media_type in converting.OFFICE_TYPES and not rules.file.accepts(media_type)


# -- audio ----------------------------------------------------------------------------------


def audio_target(codec: str | None, accepted: tuple[str, ...]) -> str | None:
    """Return the audio type to make of a codec for a provider: a remux where possible."""
    remux = _REMUX.get(codec or "")
    if remux in accepted:
        return remux
    if codec is not None and codec.startswith("pcm_") and "audio/wav" in accepted:
        return "audio/wav"
    return next((t for t in _TARGETS if t in accepted), None)


def audio(
    media: MediaPart,
    media_type: str,
    provider: Provider,
    model: str | None,
    policy: TransformPolicy,
) -> NormalizedPart:
    """Return audio (or a video's audio track) as the provider takes it.

    Raises:
        UnsupportedMediaType: The provider takes no audio.
        ProviderLimitError: Even the smallest encoding is over its byte limit.
        CodecUnavailable: PyAV is missing (the `[av]` extra).
    """
    rules = provider.rules.audio
    if not rules.media_types:
        raise refusal(provider, "audio", media_type)
    data = media.data
    if rules.accepts(media_type):
        # Taken, but over the byte limit: a compressed type it takes shrinks it most (WAV to
        # MP3), else the same type down the ladder.
        lossy = [t for t in _TARGETS if t in rules.media_types and t not in _LOSSLESS]
        target: str | None = media_type if media_type not in _LOSSLESS or not lossy else lossy[0]
    else:
        target = audio_target(
            converting.audio_info(data, media_type, policy).codec, rules.media_types
        )
    if target is None:  # pragma: no cover - _TARGETS covers every audio type a provider lists
        raise refusal(provider, "audio", media_type)
    made: Converted = to_limit(
        lambda: converting.convert_audio(
            data, media_type, target, policy, max_bytes=rules.max_bytes, measure=rules.measure
        ),
        provider,
        rules.max_bytes,
        media_type,
    )
    return _audio_part(made, media, provider, model)


def _audio_part(
    made: Converted, media: MediaPart, provider: Provider, model: str | None
) -> NormalizedPart:
    assert made.data is not None  # audio is bytes
    return NormalizedPart(
        kind="audio",
        media_type=made.media_type,
        data=made.data,
        filename=_renamed(media.filename, made.media_type),
        tokens=_seconds_tokens(provider, model, "audio", made.seconds),
        steps=made.steps,
        part=media,
    )


def _seconds_tokens(
    provider: Provider, model: str | None, kind: str, seconds: float | None, *, track: bool = True
) -> int | None:
    """The documented tokens of `seconds` of audio or video, or None without a rule."""
    if seconds is None or not provider.rules.costs:
        return None
    try:
        costs = provider.rules.costs_for(model)
        if kind == "audio":
            return costs.audio_tokens(seconds)
        return costs.video_tokens(seconds, has_audio=track)
    except MediaError:
        return None


def _renamed(filename: str | None, media_type: str) -> str | None:
    """The file name with the extension of the type it was converted to."""
    if filename is None:
        return None
    extension = extension_for(media_type)
    return str(PurePath(filename).with_suffix(extension)) if extension else filename


# -- video ----------------------------------------------------------------------------------


def video(
    media: MediaPart,
    media_type: str,
    provider: Provider,
    model: str | None,
    policy: TransformPolicy,
    fit: Fit,
) -> NormalizedPart:
    """Return a video as the provider takes it: fitted where it takes video, else frames,
    its audio track, or both, as `policy.video` says.

    Raises:
        UnsupportedMediaType: `policy.video` is "refuse", or "audio" for a provider that takes
            no audio, or the video has no audio track.
        ProviderLimitError: The video cannot be fitted to the provider's byte limit.
        CodecUnavailable: PyAV is missing (the `[av]` extra).
    """
    rules = provider.rules.video
    data = media.data
    if rules.media_types:
        made: Converted = to_limit(
            lambda: converting.fit_video(
                data,
                media_type,
                rules.media_types,
                policy,
                max_bytes=rules.max_bytes,
                measure=rules.measure,
            ),
            provider,
            rules.max_bytes,
            media_type,
        )
        assert made.data is not None  # video is bytes
        track = converting.video_info(made.data, made.media_type, policy).audio_codec is not None
        return NormalizedPart(
            kind="video",
            media_type=made.media_type,
            data=made.data,
            filename=_renamed(media.filename, made.media_type),
            tokens=_seconds_tokens(provider, model, "video", made.seconds, track=track),
            steps=made.steps,
            part=media,
        )
    hint = "; TransformPolicy(video='frames') sends sampled frames as images"
    match policy.video:
        case "refuse":
            raise refusal(provider, "video", media_type, hint)
        case "audio":
            if not provider.rules.audio.media_types:
                raise refusal(provider, "video", media_type, f", and no audio{hint}")
            if converting.video_info(data, media_type, policy).audio_codec is None:
                raise UnsupportedMediaType(
                    f"{provider.name}: this {media_type} has no audio track to send as audio{hint}",
                    media_type=media_type,
                    provider=provider.name,
                )
            return audio(media, media_type, provider, model, policy)
        case "frames" | "frames+audio":
            return _frames(media, media_type, provider, model, policy, fit)


def _frames(
    media: MediaPart,
    media_type: str,
    provider: Provider,
    model: str | None,
    policy: TransformPolicy,
    fit: Fit,
) -> NormalizedPart:
    """Sampled frames as images, each after a text part saying when it was taken; with the
    audio track after them for "frames+audio" where the provider takes audio."""
    data = media.data
    most = provider.rules.image.max_count
    if most is not None and policy.frames > most:
        scope = "message" if provider.rules.image.count_scope == "message" else "request"
        raise ProviderLimitError(
            f"TransformPolicy.frames={policy.frames} is more images than {provider.name} takes "
            f"in one {scope} ({most}); ask for fewer frames",
            media_type=media_type,
            provider=provider.name,
        )
    sample = converting.frame_stand_ins if _estimating.get() else converting.sample_frames
    frames = sample(data, media_type, policy, max_side=_frame_side(provider))
    name, stem = name_of(media, "the video"), stem_of(media, "frame")
    pieces: list[NormalizedPart | TextPart] = []
    quiet = media.model_copy(update={"cache": None})  # the breakpoint goes on the last piece
    steps = [f"video→{len(frames)} frames ({policy.sampling})"]
    for index, frame in enumerate(frames, 1):
        assert frame.data is not None  # frames are bytes
        label = frame.label or f"frame {index}"
        image = ImagePart.from_bytes(frame.data, filename=f"{stem} {label}.jpg")
        made = fit(image)
        pieces.append(TextPart(text=f"[{name}, frame {index} of {len(frames)}, at {label}]"))
        pieces.append(piece(made, quiet, (*frame.steps, *made.steps)))
    if policy.video == "frames+audio":
        if not provider.rules.audio.media_types:
            steps.append(f"audio track not sent: {provider.name} takes no audio")
        elif converting.video_info(data, media_type, policy).audio_codec is None:
            steps.append("no audio track")
        else:
            track = audio(quiet, media_type, provider, model, policy)
            pieces.append(TextPart(text=f"[{name}, audio track]"))
            pieces.append(track)
            steps.append("audio track")
    return whole(media, "video", media_type, pieces, steps)


def _frame_side(provider: Provider) -> int:
    """The longest side a frame is decoded at: the provider's image limit, and no more than
    2048 px, the most any default detail level keeps (OpenAI's high fits 2048, Anthropic's
    1568): a 4K frame is never held, encoded and decoded again at full size."""
    rules = provider.rules.image
    return min(side for side in (rules.max_width, rules.max_height, _FRAME_SIDE) if side)


def piece(made: NormalizedPart, source: MediaPart, steps: tuple[str, ...]) -> NormalizedPart:
    """`made` as a piece of `source` (the caller's part, or its copy without the cache
    breakpoint), with `steps`."""
    return dataclasses.replace(made, steps=steps, part=source)


def whole(
    media: MediaPart,
    kind: Kind,
    media_type: str,
    pieces: list[NormalizedPart | TextPart],
    steps: list[str],
) -> NormalizedPart:
    """The part sent as `pieces`: the last media piece carries the caller's part (and so its
    cache breakpoint); tokens are the pieces' sum when every media piece has them."""
    last = max(i for i, p in enumerate(pieces) if isinstance(p, NormalizedPart))
    final = pieces[last]
    assert isinstance(final, NormalizedPart)
    pieces[last] = piece(final, media, final.steps)
    counted = [p.tokens for p in pieces if isinstance(p, NormalizedPart)]
    tokens = None if any(t is None for t in counted) else sum(t or 0 for t in counted)
    return NormalizedPart(
        kind=kind,
        media_type=media_type,
        filename=media.filename,
        tokens=tokens,
        steps=tuple(steps),
        part=media,
        pieces=tuple(pieces),
    )


# -- images: SVG ----------------------------------------------------------------------------


def svg(media: MediaPart, provider: Provider, policy: TransformPolicy, fit: Fit) -> NormalizedPart:
    """An SVG for a provider that takes no SVG: a PNG fitted like any image, or, without the
    `[svg]` extra, its text (every provider reads text)."""
    try:
        made = converting.rasterize_svg(media.data, policy)
    except CodecUnavailable as exc:
        if not provider.rules.file.text_types:
            raise
        text = converting.svg_text(media.data, policy)
        return NormalizedPart(
            kind="file",
            media_type=SVG,
            text=text.text,
            filename=media.filename,
            steps=(
                *text.steps,
                f"no rasteriser: {exc.package} ([{exc.extra}] extra) is not installed",
            ),
            part=media,
        )
    assert made.data is not None  # a raster is bytes
    image = fit(ImagePart.from_bytes(made.data, filename=_renamed(media.filename, "image/png")))
    return piece(image, media, (*made.steps, *image.steps))
