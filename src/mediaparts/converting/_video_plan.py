"""What a video transcode writes: the size and rates for a byte budget.

The ladder goes from 1080p down to 360p as the bit rate that fits the duration falls; below
the last rung's floor (less in proportion to a smaller picture's pixels) the video is refused.
Without a byte limit the transcode keeps the picture's size at constant quality (`CRF`).
"""

from __future__ import annotations

from dataclasses import dataclass

from mediaparts._errors import MediaTooLarge

__all__ = ["CRF", "LADDER", "Recipe", "SizeRung", "recipe_for", "too_large"]


@dataclass(frozen=True, slots=True)
class SizeRung:
    """One size of the ladder: its short side, and the video bit rates (kb/s) it is used at."""

    side: int
    least: int
    most: int


# From the most to the least: a rung is used while the video's share of the budget is at
# least its `least`; more than its `most` buys nothing visible at that size (x264 veryfast).
LADDER = (
    SizeRung(1080, 3000, 8000),
    SizeRung(720, 1500, 4000),
    SizeRung(480, 600, 1500),
    SizeRung(360, 150, 800),
)
CRF = "23"


@dataclass(frozen=True, slots=True)
class Recipe:
    width: int
    height: int
    video_kbps: int | None  # None: constant quality (`CRF`), no byte limit
    audio_kbps: int
    channels: int

    def words(self, codec: str) -> str:
        side = min(self.width, self.height)
        rate = f"{self.video_kbps}k" if self.video_kbps else f"crf {CRF}"
        return f"transcode {codec}→h264 {side}p {rate}"


def recipe_for(
    size: tuple[int, int],
    budget: float | None,
    has_audio: bool,
    media_type: str,
    seconds: float,
    max_bytes: int | None,
) -> Recipe:
    """Choose the size and rates for a total of `budget` kb/s (None: no limit)."""
    width, height = size
    if budget is None:
        scale = min(1.0, LADDER[0].side / min(width, height))
        return Recipe(even(width * scale), even(height * scale), None, 128 if has_audio else 0, 2)
    audio = 0 if not has_audio else 128 if budget >= 2000 else 64 if budget >= 500 else 32
    video = budget - audio
    for rung in LADDER:
        if video >= rung.least or (rung is LADDER[-1] and video >= floor(size, rung)):
            scale = min(1.0, rung.side / min(width, height))
            return Recipe(
                even(width * scale),
                even(height * scale),
                int(min(video, rung.most)),
                audio,
                1 if audio <= 32 else 2,
            )
    least = floor(size, LADDER[-1])
    why = (
        f"that leaves {max(video, 0):,.0f} kb/s for the picture, under the least mediaparts "
        f"encodes at this size ({least:,.0f} kb/s)"
    )
    raise too_large(media_type, seconds, max_bytes, why)


def floor(size: tuple[int, int], rung: SizeRung) -> float:
    """The least video rate (kb/s) for a picture smaller than the last rung: less in
    proportion to its pixels, and never under 32 kb/s."""
    pixels = size[0] * size[1]
    return max(32.0, rung.least * min(1.0, pixels / (rung.side * rung.side * 16 / 9)))


def even(value: float) -> int:
    """H.264 in 4:2:0 needs even dimensions."""
    return max(2, int(value) // 2 * 2)


def too_large(media_type: str, seconds: float, max_bytes: int | None, why: str) -> MediaTooLarge:
    return MediaTooLarge(
        f"this {media_type} ({seconds:,.1f} s) cannot be made to fit {max_bytes:,} bytes: "
        f"{why}; send a shorter clip",
        limit=max_bytes,
        media_type=media_type,
    )
