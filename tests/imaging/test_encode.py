"""The encoder fitting writes with: options per output type, alpha, ICC profiles, step labels."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from mediaparts.formats import writable
from mediaparts.imaging._encode import QUALITY_LADDER, encode, label, ladder

_RGB_ICC = b"\0" * 16 + b"RGB " + b"\0" * 108
_GRAY_ICC = b"\0" * 16 + b"GRAY" + b"\0" * 108


def _decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize(
    ("media_type", "quality", "expected"),
    [
        ("image/png", None, "png"),
        ("image/png", 85, "png"),
        ("image/gif", None, "gif"),
        ("image/jpeg", 85, "jpeg q=85"),
        ("image/webp", 75, "webp q=75"),
        ("image/webp", None, "webp lossless"),
    ],
)
def test_label_names_each_encoding(media_type: str, quality: int | None, expected: str) -> None:
    """Each step label names the format, and the quality where there is one."""
    assert label(media_type, quality) == expected


@pytest.mark.parametrize(
    ("first", "expected"),
    [(90, (90, *QUALITY_LADDER)), (85, QUALITY_LADDER), (70, (70, 65, 55, 45)), (40, (40,))],
)
def test_ladder_starts_at_the_first_rung(first: int, expected: tuple[int, ...]) -> None:
    """The ladder is the spec's quality, then every standard rung below it."""
    assert ladder(first) == expected


@pytest.mark.parametrize("media_type", writable())
def test_encode_writes_each_encodable_type(media_type: str) -> None:
    """Every output type is written in its own format, at the image's size."""
    image = Image.new("RGB", (8, 6), (200, 30, 30))
    data = encode(image, media_type, 80)
    decoded = _decode(data)
    assert Image.MIME[decoded.format or ""] == media_type
    assert decoded.size == (8, 6)


def test_encode_jpeg_flattens_alpha_onto_white() -> None:
    """A transparent pixel becomes white in a JPEG, which has no transparency."""
    image = Image.new("RGBA", (8, 8), (0, 0, 0, 0))
    pixel = _decode(encode(image, "image/jpeg", 95)).convert("RGB").getpixel((4, 4))
    assert isinstance(pixel, tuple)
    assert min(pixel) >= 250


def test_encode_webp_without_quality_is_lossless() -> None:
    """Quality None writes lossless WebP: the pixels come back exactly."""
    image = Image.effect_noise((16, 16), 60).convert("RGB")
    decoded = _decode(encode(image, "image/webp", None)).convert("RGB")
    assert decoded.tobytes() == image.tobytes()


def test_encode_webp_with_quality_is_lossy_and_smaller_at_lower_quality() -> None:
    """A WebP quality writes lossy WebP, smaller at a lower rung."""
    image = Image.effect_noise((64, 64), 60).convert("RGB")
    assert len(encode(image, "image/webp", 45)) < len(encode(image, "image/webp", 95))


@pytest.mark.parametrize(
    ("mode", "icc", "media_type", "kept"),
    [
        ("RGB", _RGB_ICC, "image/png", True),
        ("RGBA", _RGB_ICC, "image/png", True),
        ("L", _GRAY_ICC, "image/png", True),
        ("RGB", _RGB_ICC, "image/jpeg", True),
        ("RGB", _RGB_ICC, "image/webp", True),
        ("L", _RGB_ICC, "image/png", False),  # an RGB profile cannot describe grey samples
        ("RGB", _GRAY_ICC, "image/png", False),
        ("RGB", _RGB_ICC, "image/gif", False),  # GIF carries no ICC profile here
        ("RGB", None, "image/png", False),
    ],
)
def test_encode_keeps_the_icc_profile_only_when_it_fits(
    mode: str, icc: bytes | None, media_type: str, kept: bool
) -> None:
    """The ICC profile is embedded when its colour space is the output's, never in GIF."""
    image = Image.new(mode, (4, 4))
    profile = _decode(encode(image, media_type, 90, icc)).info.get("icc_profile")
    assert profile == (icc if kept else None)
