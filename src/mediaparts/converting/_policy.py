"""`TransformPolicy`: what the transforms beyond images may do, and how much work they may cost.

Images are fitted by `mediaparts.imaging` under its `DecodeBudget`. Audio, video, vector images
and documents are converted here, each under the caps of one policy: the seconds decoded, the
pixels of any picture made, the pages read, the bytes a package may inflate to, and the wall
time of one transform. The caller's choices (what a provider that takes no video gets, what
happens to a PDF over a provider's page or byte limit) live in the same policy.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal, get_args

from mediaparts._errors import InvalidConfig, excerpt

__all__ = [
    "VIDEO_PIXEL_FLOOR",
    "PdfMode",
    "Sampling",
    "TransformPolicy",
    "VideoMode",
    "default_transforms",
    "set_default_transforms",
    "using_transforms",
]

VideoMode = Literal["frames", "audio", "frames+audio", "refuse"]
Sampling = Literal["uniform", "scenes"]
PdfMode = Literal["split", "pages", "refuse"]

# Bounds on the choices: more frames than any provider takes images in one request (Anthropic
# 100, Bedrock 20 a message), and a timeout past what a subprocess wait can hold (~24 days).
_MOST_FRAMES = 256
_MOST_SECONDS = 86_400
# The same cap as images' (`imaging.DecodeBudget.max_frame_pixels`, Pillow's bomb threshold):
# no frame, page or raster made here has more pixels than an image would be allowed to.
_PIXEL_CAP = 178_956_970
# Every video transform may decode this many pixels whatever its input's size: 30 frames of
# 4K, 123 of 1080p (about 0.6 s of CPU for the slowest decoder measured, HEVC); docs/security.md.
VIDEO_PIXEL_FLOOR = 256 * 2**20


@dataclass(frozen=True, slots=True)
class TransformPolicy:
    """What `normalize` may do to audio, video, SVG and documents a provider cannot take as
    they are, and the caps that bound the work a hostile input can cause.

    A transform runs only when the provider cannot take the original. Every cap is checked
    from the input's headers before decoding where the format allows, and again while
    decoding; an input over one raises `MediaTooLarge` naming it.

    Attributes:
        video: What a provider that takes no video gets: `"frames"` (sampled frames as
            images, each with its timestamp as text), `"audio"` (the audio track, where the
            provider takes audio), `"frames+audio"` (both), or `"refuse"`.
        frames: How many frames to sample (at most 256).
        sampling: `"uniform"` (evenly spaced) or `"scenes"` (at scene changes, judged on key
            frames; evenly spaced where the video has too few changes).
        pdf: What a PDF over a provider's page or byte limit becomes: `"split"` (several
            PDF parts, each within the limits), `"pages"` (each page rendered to an image),
            or `"refuse"`.
        max_seconds: The longest audio or video decoded.
        max_audio_samples_per_byte: The audio work budget: the samples (one channel's value
            at one instant; a second of 48 kHz stereo is 96,000) a transcode may decode or
            encode, per byte of its input, above `audio_samples_floor`. Checked from the
            headers before decoding and counted while decoding; see docs/security.md for
            why 10 (the MP3 of a 1 MB input then costs at most about 1.5 s of CPU).
        audio_samples_floor: The samples any audio input may cost, however small: a minute
            of 48 kHz stereo by default, so a short voice note converts whatever its bit rate.
        max_pixels: The most pixels of one picture made here: a video frame, a rendered page,
            a rasterised SVG. The same cap as images'.
        max_pages: The most pages of a document read, split or rendered.
        max_expanded_bytes: The most bytes an Office package (a zip) or an SVG may expand to
            when read: its entries' sizes, or an XML file's text.
        inflation_ratio: The most bytes an Office package's entries may hold in all per byte
            of the file, beyond a floor of 4 MiB (real packages hold 2 to 25; a ZIP bomb
            hundreds). The parts a reader opens are also held to a quarter of an XML tag
            per byte of the file, beyond a floor of 262,144 tags.
        text_ratio: The most characters of text a document may become per byte of the file,
            beyond a floor of 1 MiB (real documents become less than 5), counted while the
            text is made.
        svg_work_per_byte: The drawing work an SVG may ask of the rasteriser per byte of
            input, on top of a floor that any ordinary drawing fits in. The unit is about a
            nanosecond of resvg's time: filter primitives cost their region's pixels times
            a factor (a morphology window's area, a kernel's area, octaves of noise), each
            time the filter is applied; each shape, layer and character costs too. Judged
            before drawing (docs/security.md).
        video_pixels_per_byte: The decode work a video transform may do, in pixels decoded
            (and encoded, for a transcode) per byte of its input, above a floor of
            256 Mi pixels: frame sampling stops short of a wanted time when reaching it
            would pass the share of one frame (it takes the last frame reached, after the
            key frame before that time), and a transcode over it is refused. 400 by default:
            a phone video decoded whole is about 50, a screen recording 2,000 to 15,000
            (docs/security.md).
        timeout: The most seconds one transform may take (at most a day), checked between
            units of work (packets, frames, pages), or the child process drawing pages and
            SVGs is stopped; each transform of a part has its own (frames and then the audio
            track are two), so a request of N converted parts may take N times as long.
    """

    video: VideoMode = "frames"
    frames: int = 8
    sampling: Sampling = "uniform"
    pdf: PdfMode = "split"
    max_seconds: float = 4 * 3600.0
    max_audio_samples_per_byte: int = 10
    audio_samples_floor: int = 5_760_000
    max_pixels: int = _PIXEL_CAP
    max_pages: int = 1000
    max_expanded_bytes: int = 200 * 2**20
    inflation_ratio: float = 40.0
    text_ratio: float = 16.0
    svg_work_per_byte: int = 200
    video_pixels_per_byte: int = 400
    timeout: float = 120.0

    def __post_init__(self) -> None:
        """Check the fields: a wrong value is an `InvalidConfig` naming the field."""
        for name, allowed in (("video", VideoMode), ("sampling", Sampling), ("pdf", PdfMode)):
            value = getattr(self, name)
            if value not in get_args(allowed):
                choices = ", ".join(repr(a) for a in get_args(allowed))
                raise InvalidConfig(
                    f"TransformPolicy.{name} must be one of {choices}, got {excerpt(value)}"
                )
        if isinstance(self.frames, int) and self.frames > _MOST_FRAMES:
            raise InvalidConfig(
                f"TransformPolicy.frames must be at most {_MOST_FRAMES} (each is an image in "
                f"the request), got {excerpt(self.frames)}"
            )
        if isinstance(self.timeout, int | float) and self.timeout > _MOST_SECONDS:
            raise InvalidConfig(
                f"TransformPolicy.timeout must be at most {_MOST_SECONDS:,} seconds (a day), "
                f"got {excerpt(self.timeout)}"
            )
        for name in (
            "frames",
            "max_pixels",
            "max_pages",
            "max_expanded_bytes",
            "svg_work_per_byte",
            "video_pixels_per_byte",
            "max_audio_samples_per_byte",
            "audio_samples_floor",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidConfig(
                    f"TransformPolicy.{name} must be a positive whole number, got {excerpt(value)}"
                )
        for name in ("max_seconds", "inflation_ratio", "text_ratio", "timeout"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or value <= 0
            ):
                unit = " of seconds" if name in ("max_seconds", "timeout") else ""
                raise InvalidConfig(
                    f"TransformPolicy.{name} must be a positive number{unit}, got {excerpt(value)}"
                )

    def video_budget(self, size: int) -> int:
        """Return the pixels a video transform of a `size`-byte input may decode."""
        return max(VIDEO_PIXEL_FLOOR, self.video_pixels_per_byte * size)

    def video_frame_cap(self, size: int) -> int:
        """Return the most pixels one video frame of a `size`-byte input may have: an eighth
        of its budget (the 8 frames sampled by default each reachable), at most `max_pixels`."""
        return min(self.max_pixels, self.video_budget(size) // 8)

    def replace(self, **changes: object) -> TransformPolicy:
        """Return a copy with some fields changed (checked like a new policy)."""
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(self)})
        if unknown:
            raise InvalidConfig(f"TransformPolicy has no field {excerpt(unknown[0])}")
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


_default = TransformPolicy()
# A policy for one block of code (`using_transforms`), in this thread or task only.
_scoped: ContextVar[TransformPolicy | None] = ContextVar("mediaparts_transforms", default=None)


def default_transforms() -> TransformPolicy:
    """Return the policy in force: the innermost `using_transforms`, else the configured one."""
    return _scoped.get() or _default


def set_default_transforms(policy: TransformPolicy) -> None:
    """Set the process-wide default policy (`mp.configure(transforms=...)`)."""
    global _default
    if not isinstance(policy, TransformPolicy):
        raise InvalidConfig(f"transforms must be a TransformPolicy, got {type(policy).__name__}")
    _default = policy


@contextlib.contextmanager
def using_transforms(policy: TransformPolicy) -> Iterator[TransformPolicy]:
    """Use `policy` as the default inside a `with` block, in this thread or task only."""
    if not isinstance(policy, TransformPolicy):
        raise InvalidConfig(f"transforms must be a TransformPolicy, got {type(policy).__name__}")
    token = _scoped.set(policy)
    try:
        yield policy
    finally:
        _scoped.reset(token)
