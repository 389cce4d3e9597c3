"""What imaging exports to the layers above: header size with Pillow's fallback, animation,
metadata stripping, and Pillow's errors and warnings handled in one place."""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Callable

import pytest
from PIL import Image

import mediaparts.imaging as imaging
from mediaparts import InvalidMedia


def _encode(fmt: str, size: tuple[int, int] = (12, 7), **options: object) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, "teal").save(buffer, format=fmt, **options)
    return buffer.getvalue()


def _gif(frames: int) -> bytes:
    images = [Image.new("RGB", (4, 4), (80 * i, 0, 0)) for i in range(frames)]
    buffer = io.BytesIO()
    images[0].save(buffer, format="GIF", save_all=True, append_images=images[1:])
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("data", "animated"),
    [
        (_gif(3), True),
        (_gif(1), False),
        (_encode("PNG"), False),
        (_encode("TIFF"), False),  # not a format that animates: never opened
        (b"GIF89a" + bytes(7), False),  # a cut header: Pillow cannot read it
        (b"", False),
    ],
)
def test_exports_is_animated(data: bytes, animated: bool) -> None:
    """`is_animated` is True for a multi-frame GIF only, False for anything Pillow cannot read."""
    assert imaging.is_animated(data) is animated


def test_exports_image_size_falls_back_to_pillow() -> None:
    """A format without a header parser of ours (TIFF) is measured by Pillow's header read."""
    assert imaging.image_size(_encode("TIFF", (333, 77)), "image/tiff") == (333, 77)
    assert imaging.image_size(b"II*\x00garbage", "image/tiff") is None


def _damaged_exif() -> None:
    """Read an EXIF block cut short: Pillow skips the tag and warns (UserWarning)."""
    exif = Image.Exif()
    exif[0x010E] = "x" * 100  # ImageDescription, stored past the directory
    damaged = Image.Exif()
    damaged.load(exif.tobytes()[:-50])
    dict(damaged)


def _bomb() -> None:
    """Open a picture above MAX_IMAGE_PIXELS (lowered by the test): Pillow warns."""
    with Image.open(io.BytesIO(_encode("PNG", (12, 7)))) as img:
        img.load()


@pytest.mark.parametrize(
    ("provoke", "category"),
    [(_damaged_exif, UserWarning), (_bomb, Image.DecompressionBombWarning)],
)
def test_exports_quiet_silences_pillow_warnings(
    provoke: Callable[[], None], category: type[Warning], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inside `quiet()`, the warnings Pillow itself gives for damaged or huge files are silent."""
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 60)  # 84 pixels: a warning, not an error
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(category):  # Pillow really warns: the test below can fail
            provoke()
        with imaging.quiet():
            provoke()


def test_exports_strip_metadata_drops_exif() -> None:
    """`strip_metadata` returns the image without its EXIF block, in its own format."""
    exif = Image.Exif()
    exif[0x010E] = "secret description"
    data = _encode("JPEG", exif=exif.tobytes())
    out, media_type = imaging.strip_metadata(
        data, "image/jpeg", max_pixels=10_000, budget=imaging.DecodeBudget(), label="the file"
    )
    assert media_type == "image/jpeg"
    assert b"secret description" in data and b"secret description" not in out


def test_exports_strip_metadata_names_the_input_when_corrupt() -> None:
    """A file damaged past its header is InvalidMedia, named by the caller's label."""
    data = _encode("PNG", (64, 64))
    with pytest.raises(InvalidMedia, match=re.escape("the upload 'x.png'")):
        imaging.strip_metadata(
            data[:-40],
            "image/png",
            max_pixels=10_000,
            budget=imaging.DecodeBudget(),
            label="the upload 'x.png'",
        )


def test_exports_strip_metadata_needs_only_the_pixel_cap() -> None:
    """`strip_metadata` takes the default decode budget and a generic label when not given."""
    data = _encode("PNG")
    out, media_type = imaging.strip_metadata(data, "image/png", max_pixels=10_000)
    assert media_type == "image/png" and out[:8] == b"\x89PNG\r\n\x1a\n"
