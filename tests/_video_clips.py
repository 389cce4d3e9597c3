"""Videos the video transform tests make with PyAV: longer, larger or rotated than testdata's.

Plain functions (no pytest). Each frame is a grid of grey blocks that moves one block a frame,
with a red bar down its left edge, so that key frames, sizes and orientation can be checked.
"""

from __future__ import annotations

import io
import math
import struct
from fractions import Fraction
from typing import Any

from PIL import Image, ImageDraw

__all__ = ["encode_clip", "picture"]


def picture(index: int, width: int, height: int, *, busy: bool = False) -> Image.Image:
    """Frame `index`: grey blocks moving right, a red bar on the left edge; `busy` adds
    detail that does not compress, for clips that must be large."""
    block = max(2, min(width, height) // 6)
    image = Image.new("RGB", (width, height), (40, 40, 40))
    draw = ImageDraw.Draw(image)
    for y in range(0, height, block):
        for x in range(0, width, block):
            shade = (x // block * 37 + y // block * 91 + index * 13) % 256
            if busy:
                shade = (shade * 7919 + x * 31 + y * 17 + index * 101) % 256
            draw.rectangle([x, y, x + block - 1, y + block - 1], fill=(shade, shade, shade))
    draw.rectangle([0, 0, max(1, width // 8), height - 1], fill=(255, 0, 0))
    if busy:  # fine noise on top: a pattern of single pixels that changes every frame
        noise = Image.effect_noise((width, height), 64).convert("RGB")
        image = Image.blend(image, noise, 0.3)
    return image


def encode_clip(
    seconds: float,
    *,
    fps: int = 10,
    size: tuple[int, int] = (64, 48),
    gop: int = 10,
    rotation: int = 0,
    busy: bool = False,
    crf: int = 28,
    container: str = "mp4",
    codec: str = "libx264",
    audio: bool = False,
) -> bytes:
    """Encode a clip of `seconds` (libx264 unless `codec` says: a key frame every `gop`
    frames), with a 440 Hz AAC tone interleaved when `audio`."""
    import av

    buffer = io.BytesIO()
    with av.open(buffer, "w", format=container) as out:
        stream = out.add_stream(codec, rate=Fraction(fps))
        stream.width, stream.height = size
        stream.pix_fmt = "yuv420p"
        # scenecut=0: key frames only every `gop` frames, so counts in the tests are exact.
        stream.options = (
            {"preset": "ultrafast", "crf": str(crf), "g": str(gop), "x264-params": "scenecut=0"}
            if codec == "libx264"
            else {"g": str(gop)}
        )
        if rotation:
            stream.set_display_rotation(rotation)
        sound = out.add_stream("aac", rate=16_000) if audio else None
        if sound is not None:
            sound.layout = "mono"
        for index in range(round(seconds * fps)):
            if sound is not None:  # the tone first, so the header is written before any frame
                out.mux(sound.encode(_tone(av, index, 16_000 // fps)))
            frame = _frame(av, picture(index, *size, busy=busy))
            out.mux(stream.encode(frame))
        out.mux(stream.encode(None))
        if sound is not None:
            out.mux(sound.encode(None))
    return buffer.getvalue()


def _tone(av: Any, index: int, samples: int) -> Any:
    """`samples` of a 440 Hz tone at 16 kHz, the `index`-th run of them."""
    start = index * samples
    pcm = b"".join(
        struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * (start + i) / 16_000)))
        for i in range(samples)
    )
    frame = av.AudioFrame(format="s16", layout="mono", samples=samples)
    frame.planes[0].update(pcm)
    frame.sample_rate = 16_000
    frame.pts = start
    return frame


def _frame(av: Any, image: Image.Image) -> Any:
    """A PyAV frame of a Pillow picture (PyAV's own `from_image` is untyped)."""
    return av.VideoFrame.from_image(image)
