"""The work an audio transcode may do: samples in proportion to the input's bytes.

A few hundred bytes of FLAC can declare hours of silence, and FFmpeg decodes every sample of
it: the work of a transcode follows the samples, not the bytes. `SampleBudget` allows
`TransformPolicy.max_audio_samples_per_byte` samples per input byte (at least
`audio_samples_floor`), counted on the wider side of the transcode (what is decoded, or what
is encoded when that is more: a resample up, or fewer channels in than out). It is checked
against what the headers declare before anything is decoded, and charged with every packet
read and every frame decoded, since a header can lie or say nothing.

A packet costs `PACKET_SAMPLES` when copied, `DECODED_PACKET_SAMPLES` when decoded, on top of
its samples: reading, decoding and resampling one has a fixed cost in Python and FFmpeg, so a
file of tiny packets cannot run for long either.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

from mediaparts._errors import MediaTooLarge
from mediaparts.converting._policy import TransformPolicy

__all__ = ["DECODED_PACKET_SAMPLES", "PACKET_SAMPLES", "SampleBudget", "memory_guard"]

# What one packet costs in samples, at the 0.15 us a transcoded sample costs (docs/security.md).
# Copied in a remux, 10-15 us whatever it holds (46,000 Opus packets took 0.7 s): Opus at 6 kb/s,
# the smallest packets real files have, about 16 bytes each, is then 6 samples a byte.
PACKET_SAMPLES = 96
# Decoded, resampled and handed to the encoder, 60-90 us in all, whatever its samples: 10 minutes
# of AMR at 12.2 kb/s (30,000 frames of 160 samples, 1 MB) took 2.3 s to become MP3.
DECODED_PACKET_SAMPLES = 512


@dataclass(slots=True)
class SampleBudget:
    """The samples one transcode may still decode or encode.

    Attributes:
        limit: The samples allowed in all.
        size: The input's bytes, for messages.
        media_type: The input's type, for messages.
        per_byte: The ratio the limit came from, for messages.
        spent: The samples charged so far.
    """

    limit: int
    size: int
    media_type: str
    per_byte: int
    spent: int = 0

    @classmethod
    def of(cls, size: int, media_type: str, policy: TransformPolicy) -> SampleBudget:
        """The budget of an input of `size` bytes under `policy`."""
        per_byte = policy.max_audio_samples_per_byte
        limit = max(policy.audio_samples_floor, per_byte * size)
        return cls(limit, size, media_type, per_byte)

    def check_declared(self, seconds: float | None, width: int) -> None:
        """Refuse, before decoding, an input whose headers declare more than the budget.

        Args:
            seconds: The duration the headers declare, None when they say nothing.
            width: Samples a second on the wider side: rate x channels decoded or encoded.
        """
        if seconds is None:
            return
        declared = int(seconds * width)
        if declared > self.limit:
            raise MediaTooLarge(
                f"this {self.media_type} declares {seconds:,.0f} s of audio, {declared:,} "
                f"samples to transcode, over its work budget of {self._rule()}; refused "
                "before decoding",
                size=declared,
                limit=self.limit,
                media_type=self.media_type,
            )

    def charge(self, samples: int) -> None:
        """Count `samples` of work (decoded, encoded or a packet's cost); stop over the limit."""
        self.spent += samples
        if self.spent > self.limit:
            raise MediaTooLarge(
                f"this {self.media_type}'s audio runs past its work budget of {self._rule()} "
                "(counted while decoding; its headers said less or nothing); stopped",
                size=self.spent,
                limit=self.limit,
                media_type=self.media_type,
            )

    def _rule(self) -> str:
        return (
            f"{self.limit:,} samples (TransformPolicy.max_audio_samples_per_byte="
            f"{self.per_byte:,} x {self.size:,} input bytes, at least audio_samples_floor)"
        )


@contextlib.contextmanager
def memory_guard(media_type: str, doing: str) -> Iterator[None]:
    """Turn a `MemoryError` raised inside (by FFmpeg's bindings or a buffer) into ours."""
    try:
        yield
    except MemoryError as exc:
        raise MediaTooLarge(
            f"ran out of memory to {doing}; lower TransformPolicy.max_audio_samples_per_byte "
            "or give the process more memory",
            media_type=media_type,
        ) from exc
