"""The generated images every benchmark shares, made once and cached (see `harness.cached`).

- `photo_jpeg()`: 6000x4000 JPEG q=90, 3.6 MB (`bench_imaging.photo`: gradients plus noise);
- `camera_jpeg()`: the same at q=95 with EXIF Orientation=6, as a phone writes it;
- `phone_jpeg(i)`: the path of a 12 MP phone photo (4032x3024 crop, q=90, Orientation=6);
- `photo_heic()`: 4000x3000 HEIC (pillow-heif), 12 MP;
- `photo_png()`: 4000x3000 PNG;
- `folder(n)`: n different 1600x1200 JPEGs (crops of the photo), for `normalize_many`.
"""

from __future__ import annotations

import io
from pathlib import Path

from bench_imaging import photo
from harness import cache_dir, cached
from PIL import Image


def photo_jpeg() -> bytes:
    return cached("photo-6000x4000.jpg", photo)


def _picture(size: tuple[int, int]) -> Image.Image:
    return Image.open(io.BytesIO(photo_jpeg())).convert("RGB").resize(size, Image.Resampling.BOX)


def camera_jpeg() -> bytes:
    """A 24 MP camera JPEG: q=95, stored sideways with EXIF Orientation=6 (rotate 90° CW)."""

    def make() -> bytes:
        picture = Image.open(io.BytesIO(photo_jpeg())).convert("RGB")
        exif = Image.Exif()
        exif[0x0112] = 6  # Orientation: the viewer must rotate 90° clockwise
        exif[0x010F] = "BenchCam"  # Make
        exif[0x0110] = "Model 24"  # Model
        buffer = io.BytesIO()
        picture.save(buffer, format="JPEG", quality=95, exif=exif.tobytes())
        return buffer.getvalue()

    return cached("camera-6000x4000-q95-orient6.jpg", make)


def phone_jpeg(index: int, size: tuple[int, int] = (4032, 3024)) -> Path:
    """The path of a phone photo (a crop of the photo, different for each index), q=90, stored
    sideways with EXIF Orientation=6, as phones write them; 12 MP unless `size` says."""
    width, height = size
    name = f"phone-{width}x{height}-q90-orient6-{index}.jpg"

    def make() -> bytes:
        picture = Image.open(io.BytesIO(photo_jpeg())).convert("RGB")
        left = (index * 397) % (picture.width - width + 1)
        top = (index * 211) % (picture.height - height + 1)
        crop = picture.crop((left, top, left + width, top + height))
        exif = Image.Exif()
        exif[0x0112] = 6  # Orientation: the viewer must rotate 90° clockwise
        exif[0x010F] = "BenchPhone"  # Make
        buffer = io.BytesIO()
        crop.save(buffer, format="JPEG", quality=90, exif=exif.tobytes())
        return buffer.getvalue()

    cached(name, make)
    return cache_dir() / name


def photo_heic() -> bytes:
    def make() -> bytes:
        import pillow_heif

        pillow_heif.register_heif_opener()
        buffer = io.BytesIO()
        _picture((4000, 3000)).save(buffer, format="HEIF", quality=85)
        return buffer.getvalue()

    return cached("photo-4000x3000.heic", make)


def photo_png() -> bytes:
    def make() -> bytes:
        buffer = io.BytesIO()
        _picture((4000, 3000)).save(buffer, format="PNG")
        return buffer.getvalue()

    return cached("photo-4000x3000.png", make)


def folder(count: int = 500, size: tuple[int, int] = (1600, 1200)) -> list[Path]:
    """Return `count` distinct JPEGs (crops of the photo at different offsets, q=90)."""
    where = cache_dir() / f"folder-{count}-{size[0]}x{size[1]}"
    paths = [where / f"img{i:04d}.jpg" for i in range(count)]
    if all(p.exists() for p in paths):
        return paths
    where.mkdir(exist_ok=True)
    big = Image.open(io.BytesIO(photo_jpeg())).convert("RGB")
    span_x, span_y = big.width - size[0], big.height - size[1]
    for i, path in enumerate(paths):
        x, y = (i * 397) % span_x, (i * 211) % span_y
        tile = big.crop((x, y, x + size[0], y + size[1]))
        if i % 2:
            tile = tile.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        tile.save(path, format="JPEG", quality=90)
    return paths
