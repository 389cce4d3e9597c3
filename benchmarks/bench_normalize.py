"""`mp.normalize` for every provider, and `mp.normalize_many` on all cores, against the obvious way.

The naive pipeline is what one writes with Pillow alone: open and load every pixel,
`exif_transpose`, LANCZOS straight to the size mediaparts chose, save in the format mediaparts
chose (JPEG q=85, or PNG with Pillow's defaults). Where mediaparts passes the image through
untouched the naive pipeline still re-encodes, because it cannot know it need not.
"""

from __future__ import annotations

import functools
import io
import os
from collections.abc import Callable

import inputs
from harness import Row, median_time
from PIL import Image, ImageOps

import mediaparts as mp

# JPEG qualities, as mediaparts' ladder tries them (imaging/_encode.py QUALITY_LADDER from 85).
_RUNGS = (85, 75, 65, 55, 45)
_FORMATS = {"image/jpeg": "JPEG", "image/png": "PNG", "image/webp": "WEBP", "image/gif": "GIF"}


def naive(
    data: bytes, size: tuple[int, int], media_type: str, fits: Callable[[int], bool] = bool
) -> bytes:
    """Decode fully, transpose, LANCZOS to `size`, save as `media_type` (JPEG at q=85, then
    down the same quality rungs as mediaparts until `fits` takes the size: a provider's byte
    limit makes the obvious way try again too)."""
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        upright = ImageOps.exif_transpose(image)
        if upright.size != size:
            upright = upright.resize(size, Image.Resampling.LANCZOS)
        fmt = _FORMATS.get(media_type, "PNG")
        if fmt == "JPEG" and upright.mode not in ("RGB", "L"):
            upright = upright.convert("RGB")
        for quality in _RUNGS if fmt == "JPEG" else (None,):
            buffer = io.BytesIO()
            upright.save(buffer, format=fmt, **({"quality": quality} if quality else {}))
            if fits(len(buffer.getvalue())):
                break
        return buffer.getvalue()


def fresh(data: bytes, work: Callable[[mp.ImagePart], object], runs: int) -> Callable[[], object]:
    """`work` on a new part of `data` at each of `runs` calls, the parts made beforehand: a part
    remembers what it was fitted to, and these rows time the fitting."""
    parts = iter([mp.ImagePart.from_bytes(data) for _ in range(runs)])
    return lambda: work(next(parts))


def _images() -> list[tuple[str, Callable[[], bytes], int]]:
    """(label, bytes, repeats): fewer repeats for the slow decoders."""
    return [
        ("24 MP JPEG (6000x4000)", inputs.photo_jpeg, 5),
        ("12 MP HEIC (4000x3000)", inputs.photo_heic, 3),
        ("12 MP PNG (4000x3000)", inputs.photo_png, 3),
    ]


def normalize_rows(providers: list[str] | None = None) -> list[Row]:
    import pillow_heif

    pillow_heif.register_heif_opener()  # the naive pipeline needs it as much as we do
    rows = []
    for label, make, repeat in _images():
        data = make()
        part = mp.ImagePart.from_bytes(data)
        baselines: dict[tuple[object, ...], tuple[float, int]] = {}
        for provider in providers or list(mp.providers.names()):
            fitted = mp.normalize(part, provider)
            size = (fitted.width or 0, fitted.height or 0)
            out_type = fitted.media_type
            job = fresh(data, lambda m, p=provider: mp.normalize(m, p), repeat + 1)
            ours = median_time(job, repeat=repeat)
            rules = mp.providers.get(provider).rules.image
            key = (size, out_type, rules.max_bytes, rules.measure)
            if key not in baselines:  # same output, same job: measure it once per image
                job = functools.partial(naive, data, size, out_type, rules.fits)
                baselines[key] = (median_time(job, repeat=repeat), len(job()))
            baseline, naive_bytes = baselines[key]
            passed = not fitted.steps
            out_kb = len(fitted.data or b"") / 1e3
            is_goal = provider == "anthropic" and "JPEG" in label
            rows.append(
                Row(
                    f"normalize {label} for {provider} → {size[0]}x{size[1]} "
                    f"{out_type.split('/')[1]}",
                    ours,
                    baseline,
                    "naive Pillow: load, exif_transpose, LANCZOS, save",
                    target="≤ 0.6× (issue 6)" if is_goal else "≤ 1.05× (never slower, 5% noise)",
                    goal=("≤", 0.6) if is_goal else ("≤", 1.05),
                    note=(
                        "passed through untouched; naive re-encodes"
                        if passed
                        else f"steps: {', '.join(fitted.steps)}; {out_kb:.0f} KB vs naive "
                        f"{naive_bytes / 1e3:.0f} KB"
                    ),
                )
            )
    return rows


def normalize_many_rows(
    count: int = 500, provider: str = "anthropic", repeat: int = 1
) -> list[Row]:
    paths = inputs.folder(count)

    def job(workers: int | None) -> Callable[[], object]:
        # Fresh parts each run: a part keeps its bytes once loaded.
        return lambda: mp.normalize_many([mp.part(p) for p in paths], provider, workers=workers)

    all_cores = median_time(job(None), repeat=repeat, warmup=0)
    one = median_time(job(1), repeat=repeat, warmup=0)
    cores = os.cpu_count() or 1
    return [
        Row(
            f"normalize_many, {count} 1600x1200 JPEGs for {provider}, workers=None ({cores} cores)",
            all_cores,
            one,
            "workers=1",
            target="≥ 1.7× faster on 2 cores (ratio ≤ 0.588×)",
            goal=("≤", 1 / 1.7),
            note=f"speed-up {one / all_cores:.2f}×; {count / all_cores:.0f} images/s",
        )
    ]
