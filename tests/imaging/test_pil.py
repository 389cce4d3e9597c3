"""Pillow handled once: what it raises, quietening its warnings, and transparency."""

from __future__ import annotations

import io
import warnings

import pytest
from PIL import Image

from mediaparts.imaging._pil import PIL_ERRORS, flatten_alpha, has_alpha, quiet


def _palette_with_transparency() -> Image.Image:
    image = Image.new("P", (4, 4), 1)
    image.putpalette([0, 0, 0, 255, 0, 0] + [0] * 762)
    image.info["transparency"] = 1
    return image


@pytest.mark.parametrize(
    ("image", "expected"),
    [
        (Image.new("RGBA", (1, 1)), True),
        (Image.new("LA", (1, 1)), True),
        (Image.new("PA", (1, 1)), True),
        (_palette_with_transparency(), True),
        (Image.new("RGB", (1, 1)), False),
        (Image.new("L", (1, 1)), False),
        (Image.new("LAB", (1, 1)), False),  # its A is a colour axis, not alpha
        (Image.new("P", (1, 1)), False),
    ],
)
def test_has_alpha_by_mode_and_transparent_colour(image: Image.Image, expected: bool) -> None:
    """An alpha band or a transparent colour makes an image possibly transparent."""
    assert has_alpha(image) is expected


@pytest.mark.parametrize(
    "image",
    [
        Image.new("RGBA", (4, 4), (0, 0, 0, 0)),
        Image.new("LA", (4, 4), (0, 0)),
        _palette_with_transparency(),
    ],
)
def test_flatten_alpha_composites_onto_white(image: Image.Image) -> None:
    """Fully transparent pixels become white, in RGB."""
    flat = flatten_alpha(image)
    assert flat.mode == "RGB"
    assert flat.getpixel((0, 0)) == (255, 255, 255)


def test_flatten_alpha_keeps_opaque_pixels() -> None:
    """An opaque pixel keeps its colour when flattened."""
    image = Image.new("RGBA", (2, 2), (10, 20, 30, 255))
    assert flatten_alpha(image).getpixel((1, 1)) == (10, 20, 30)


@pytest.mark.parametrize("mode", ["RGB", "L", "CMYK"])
def test_flatten_alpha_returns_an_opaque_image_as_it_is(mode: str) -> None:
    """An image that cannot be transparent is returned unchanged, not copied."""
    image = Image.new(mode, (2, 2))
    assert flatten_alpha(image) is image


@pytest.mark.parametrize(
    "category", [UserWarning, Image.DecompressionBombWarning], ids=lambda c: c.__name__
)
def test_quiet_silences_what_pillow_warns_on_damaged_or_large_images(
    category: type[Warning],
) -> None:
    """Pillow's damaged-data and decompression-bomb warnings do not escape under -W error."""
    with quiet():
        warnings.warn("from a Pillow plugin", category, stacklevel=1)


def test_quiet_lets_other_warnings_through() -> None:
    """Deprecations still reach the caller: only Pillow's reading complaints are silenced."""
    with pytest.raises(DeprecationWarning), quiet():
        warnings.warn("deprecated", DeprecationWarning, stacklevel=1)


@pytest.mark.parametrize(
    "data",
    [b"not an image", b"\x89PNG\r\n\x1a\n" + b"\0" * 40, b"GIF89a\x01\x00\x01\x00"],
    ids=["unknown", "png-cut", "gif-cut"],
)
def test_pil_errors_cover_what_pillow_raises_on_bad_bytes(data: bytes) -> None:
    """Opening and loading bad bytes raises one of PIL_ERRORS."""
    with pytest.raises(PIL_ERRORS), quiet(), Image.open(io.BytesIO(data)) as image:
        image.load()
