"""Opening audio and video with PyAV (FFmpeg in process), under the policy's caps.

Every audio and video transform opens its input here: the `[av]` extra is required, the
container is read from memory (never a path or URL) and every further file or URL a demuxer
asks for is refused, so FFmpeg opens nothing else; the probing work is bounded, and an input
longer than `TransformPolicy.max_seconds` or with frames over `max_pixels` is refused before
anything is decoded.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from mediaparts._errors import InvalidMedia, MediaTooLarge
from mediaparts.converting._extras import require
from mediaparts.converting._policy import TransformPolicy

if TYPE_CHECKING:
    from av.container import InputContainer

__all__ = ["AV_ERRORS", "open_media", "seconds_of"]

# What PyAV raises on hostile or broken input: FFmpeg's errors (av.FFmpegError), and the
# Python errors its bindings raise for impossible values.
AV_ERRORS: tuple[type[BaseException], ...] = (ValueError, EOFError, OSError, IndexError)

# FFmpeg reads at most this much to find the streams (its default is 5 MB and 5 s of media),
# and only the formats listed may be opened: no playlists or other demuxers that name further
# files (hls, concat, image2's patterns), whatever the bytes claim.
_PROBE = {"probesize": str(5 * 2**20), "analyzeduration": str(5_000_000)}
# The streams whose probing is capped (FFmpeg takes per-stream options by index); FFmpeg's
# own cap on the streams of a file is 1,000 (AVFormatContext.max_streams).
_STREAMS = 1000
_PROBED = 8
_SAFE_FORMATS = (
    "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,ogg,wav,mp3,aac,flac,aiff,avi,flv,mpeg,mpegts,"
    "asf,amr,caf,w64"
)


def open_media(data: bytes, media_type: str, policy: TransformPolicy, doing: str) -> InputContainer:
    """Open `data` with PyAV, checked against the policy's caps.

    Args:
        data: The whole file.
        media_type: Its detected type, for messages.
        policy: The caps (`max_seconds`, `max_pixels`).
        doing: What the transform does, for the error when PyAV is missing.

    Raises:
        CodecUnavailable: PyAV is not installed (the `[av]` extra).
        InvalidMedia: FFmpeg cannot read the container.
        MediaTooLarge: Longer than `max_seconds`, or a video frame over `max_pixels`.
    """
    av = require("av", package="av", extra="av", media_type=media_type, doing=doing)
    try:
        container: InputContainer = av.open(
            io.BytesIO(data),
            mode="r",
            options={**_PROBE, "format_whitelist": _SAFE_FORMATS},
            metadata_errors="ignore",
            io_open=_no_other_file,
            stream_options=_probe_caps(policy.video_frame_cap(len(data))),
        )
    except (av.FFmpegError, *AV_ERRORS) as exc:
        raise InvalidMedia(
            f"this {media_type} could not be read: {_reason(exc)}", media_type=media_type
        ) from exc
    try:
        _check_caps(container, media_type, policy)
    except BaseException:
        container.close()
        raise
    return container


def _probe_caps(frame_cap: int) -> list[dict[str, str]]:
    """Options for each stream FFmpeg probes: it decodes a first frame of each to learn its
    parameters, no larger than a frame the transform may decode (a 940 KB MP4 of
    16000x10000 frames took 370 MB to open), and of the first `_PROBED` streams only (a
    Matroska file of 40 1080p tracks took 407 MB): the transforms read the first video and
    audio tracks, and a video frame past them is refused by its decoder at once."""
    probed = [{"max_pixels": str(frame_cap)}] * _PROBED
    return probed + [{"max_pixels": "1"}] * (_STREAMS - _PROBED)


def _no_other_file(url: str, flags: int, options: dict[str, str]) -> Any:
    """Refuse every further file or URL a demuxer asks to open: only `data` is read.

    FFmpeg calls this, instead of its own opener, for what the input names (a playlist's
    segments, a QuickTime reference); the allowed formats should never ask, but if one does,
    nothing is fetched or read.
    """
    raise PermissionError(f"mediaparts reads only the bytes given, not {url[:80]!r}")


def seconds_of(container: InputContainer) -> float | None:
    """Return the container's duration in seconds, or the longest stream's, when known."""
    if container.duration is not None and container.duration > 0:
        return float(container.duration) / 1_000_000
    best: float | None = None
    for stream in container.streams:
        if stream.duration is not None and stream.time_base is not None:
            seconds = float(stream.duration * stream.time_base)
            best = seconds if best is None else max(best, seconds)
    return best


def _check_caps(container: InputContainer, media_type: str, policy: TransformPolicy) -> None:
    seconds = seconds_of(container)
    if seconds is not None and seconds > policy.max_seconds:
        raise MediaTooLarge(
            f"this {media_type} lasts {seconds:,.0f} s, over TransformPolicy.max_seconds="
            f"{policy.max_seconds:,g}; refused before decoding",
            media_type=media_type,
        )
    for stream in container.streams.video:
        context: Any = stream.codec_context
        if context is None:  # no decoder for its codec: no frame of it is ever made
            continue
        pixels = (context.width or 0) * (context.height or 0)
        if pixels > policy.max_pixels:
            raise MediaTooLarge(
                f"this {media_type} has {context.width}x{context.height} frames, over "
                f"TransformPolicy.max_pixels={policy.max_pixels:,}; refused before decoding",
                size=pixels,
                limit=policy.max_pixels,
                media_type=media_type,
            )


def _reason(exc: BaseException) -> str:
    """FFmpeg's own words for what went wrong, without the errno prefix PyAV adds."""
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return str(text)[:120]
