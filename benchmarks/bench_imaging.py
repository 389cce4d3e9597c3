"""Benchmark: fitting a 24 MP JPEG for Anthropic against the naive Pillow pipeline.

    python benchmarks/bench_imaging.py

The naive pipeline decodes every pixel, transposes, resizes with LANCZOS straight to the same
output size and saves at quality 85. `fit_image` sets a JPEG draft so libjpeg-turbo decodes at
1/2 scale, then resizes the smaller picture. Target: ours <= 0.6x the naive time.
"""

from __future__ import annotations

import io
import os
import platform
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import PIL  # noqa: E402
from harness import median_time  # noqa: E402  (beside this file)
from PIL import Image, ImageOps  # noqa: E402

from mediaparts.imaging import FitSpec, fit_image  # noqa: E402  (the path above)

WIDTH, HEIGHT = 6000, 4000
LONG_EDGE = 1568


def long_edge(limit: int) -> Callable[[int, int], tuple[int, int]]:
    """Return a target that scales the long edge down to `limit` (Anthropic's standard tier)."""

    def target(width: int, height: int) -> tuple[int, int]:
        scale = min(1.0, limit / max(width, height))
        return round(width * scale), round(height * scale)

    return target


ANTHROPIC = FitSpec(
    accepted=("image/jpeg", "image/png", "image/gif", "image/webp"),
    animated_ok=False,
    target=long_edge(LONG_EDGE),
    max_bytes=5 * 1024 * 1024,
    measure="base64",
)


def photo() -> bytes:
    """Return a 6000x4000 JPEG (quality 90) of smooth gradients with sensor-like noise."""
    # Gradients alone compress to almost nothing; the noise gives a photo-like entropy.
    horizontal = Image.linear_gradient("L").resize((WIDTH, HEIGHT))
    vertical = Image.linear_gradient("L").rotate(90).resize((WIDTH, HEIGHT))
    noise = Image.effect_noise((WIDTH, HEIGHT), 24).point(lambda v: v // 2)
    picture = Image.merge("RGB", (horizontal, vertical, ImageOps.invert(horizontal)))
    picture = Image.blend(picture, Image.merge("RGB", (noise, noise, noise)), 0.25)
    buffer = io.BytesIO()
    picture.save(buffer, format="JPEG", quality=90)
    return buffer.getvalue()


def naive(data: bytes, size: tuple[int, int]) -> bytes:
    """Decode fully, transpose, LANCZOS to `size`, save at quality 85."""
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        upright = ImageOps.exif_transpose(image)
        small = upright.resize(size, Image.Resampling.LANCZOS)
        buffer = io.BytesIO()
        small.save(buffer, format="JPEG", quality=85)
        return buffer.getvalue()


def main() -> None:
    data = photo()
    fitted = fit_image(data, "image/jpeg", ANTHROPIC)
    size = (fitted.width, fitted.height)
    ours = median_time(lambda: fit_image(data, "image/jpeg", ANTHROPIC), repeat=5)
    baseline = median_time(lambda: naive(data, size), repeat=5)
    print(
        f"Python {platform.python_version()}, Pillow {PIL.__version__}, {platform.machine()}, "
        f"{os.cpu_count()} cores; input {len(data) / 1e6:.1f} MB, output {size[0]}x{size[1]} "
        f"{len(fitted.data) / 1e3:.0f} KB, steps {', '.join(fitted.steps)}\n"
    )
    print("| benchmark | mediaparts | baseline | ratio | target |")
    print("|---|---|---|---|---|")
    print(
        f"| fit_image of a {WIDTH}x{HEIGHT} JPEG to {LONG_EDGE} px | {ours * 1e3:.3f} ms | "
        f"{baseline * 1e3:.3f} ms (open+load, exif_transpose, LANCZOS, save q=85) | "
        f"{ours / baseline:.3f}× | ≤ 0.6× |"
    )


if __name__ == "__main__":
    main()
