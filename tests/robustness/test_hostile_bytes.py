"""Empty, truncated, random and damaged files give library errors, quickly.

Every input goes through every public entry point (`run_public_api`); only MediaError may
escape, and no input takes longer than a hang would. The decompression bombs are in
test_bombs.py, mutated real files in test_fuzz.py.
"""

from __future__ import annotations

import contextlib
import random
import struct

import pytest

import mediaparts as mp
from tests.robustness._entry_points import PROVIDERS, read, run_public_api, within

pytestmark = pytest.mark.slow  # every damaged file through every entry point

IMAGES = ("alpha.png", "photo.jpg", "progressive.jpg", "still.gif", "lossy.webp",
          "lossless.webp", "image.bmp", "image.tiff", "icon.ico", "photo.heic", "image.avif",
          "palette.png", "gray16.png", "cmyk.jpg")  # fmt: skip
OTHERS = ("tone.wav", "tone.mp3", "tone.ogg", "tone.flac", "tone.m4a", "clip.mp4", "clip.webm",
          "clip.mov", "clip.mkv", "clip.avi", "document.pdf", "document.docx", "notes.txt")  # fmt: skip

# ---------------------------------------------------------------------------- empty and tiny


@pytest.mark.parametrize("data", [b"", b"\x00", b"\xff", b"\x89", b"G", b"R", b"\xff\xd8", b"\n"])
def test_empty_and_tiny_inputs_raise_only_media_error(data: bytes) -> None:
    """Empty and one- or two-byte inputs go through every entry point with no other error."""
    with within():
        run_public_api(data)


@pytest.mark.parametrize("data", [b"", b"\x00", b"\xff\xd8", b"\x89PNG\r\n\x1a\n"])
@pytest.mark.parametrize("declared", ["image/png", "image/jpeg", "image/gif"])
def test_tiny_inputs_declared_images_are_refused(data: bytes, declared: str) -> None:
    """Nothing labelled an image is still nothing: it has no size and normalize refuses it."""
    if not data:  # no bytes at all is refused as soon as it is seen
        with pytest.raises(mp.InvalidMedia, match=r"empty \(0 bytes\)"):
            mp.part(data, media_type=declared)
        return
    made = mp.part(data, media_type=declared)
    assert not isinstance(made, mp.ImagePart) or made.width is None
    with pytest.raises(mp.MediaError):
        mp.normalize(made, "anthropic")


# ---------------------------------------------------------------------------- truncations

HEADER_CUTS = (8, 12, 16, 24, 32, 48, 64, 128, 256)


@pytest.mark.parametrize("name", IMAGES)
@pytest.mark.parametrize("cut", [*HEADER_CUTS, "half"])
def test_truncated_image_is_refused(name: str, cut: int | str) -> None:
    """An image cut inside its header, or in half, raises a MediaError from normalize."""
    data = read(name)
    data = data[: cut if isinstance(cut, int) else len(data) // 2]
    with within(), pytest.raises(mp.MediaError):
        mp.normalize(data, "anthropic")
    with within():
        run_public_api(data)


@pytest.mark.parametrize("name", OTHERS)
@pytest.mark.parametrize("cut", [1, 4, *HEADER_CUTS, "half"])
def test_truncated_media_raises_only_media_error(name: str, cut: int | str) -> None:
    """Audio, video and documents cut short raise nothing but MediaError anywhere."""
    data = read(name)
    with within():
        run_public_api(data[: cut if isinstance(cut, int) else len(data) // 2])


# ---------------------------------------------------------------------------- random bytes

MAGICS = {
    "png": b"\x89PNG\r\n\x1a\n",
    "png-ihdr": b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR",
    "jpeg": b"\xff\xd8\xff\xe0",
    "jpeg-sof": b"\xff\xd8\xff\xc0\x00\x11\x08",
    "gif": b"GIF89a",
    "webp": b"RIFF\xff\xff\xff\x7fWEBPVP8 ",
    "webp-x": b"RIFF\x00\x00\x00\x00WEBPVP8X",
    "bmp": b"BM",
    "tiff": b"II*\x00\x08\x00\x00\x00",
    "ico": b"\x00\x00\x01\x00\x01\x00",
    "heic": b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic",
    "avif": b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf",
    "mp4": b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2",
    "wav": b"RIFF\xff\xff\xff\xffWAVEfmt ",
    "ebml": b"\x1a\x45\xdf\xa3",
    "pdf": b"%PDF-1.7\n",
    "zip": b"PK\x03\x04",
}


@pytest.mark.parametrize("magic", MAGICS.values(), ids=MAGICS.keys())
@pytest.mark.parametrize("seed", range(4))
def test_magic_then_random_bytes_raise_only_media_error(magic: bytes, seed: int) -> None:
    """A real signature followed by random bytes is refused or passed, never a crash."""
    rng = random.Random(seed)
    data = magic + rng.randbytes(rng.choice([1, 16, 200, 5000]))
    with within():
        run_public_api(data)
    if magic in (MAGICS["png"], MAGICS["jpeg"], MAGICS["gif"], MAGICS["bmp"], MAGICS["tiff"]):
        with pytest.raises(mp.MediaError):
            mp.normalize(data, "anthropic")


@pytest.mark.parametrize("size", [1, 64, 4096, 300_000])
def test_random_bytes_raise_only_media_error(size: int) -> None:
    """Random bytes of any length raise nothing but MediaError anywhere."""
    with within():
        run_public_api(random.Random(size).randbytes(size))


# ---------------------------------------------------------------------------- regressions


def test_tiff_with_damaged_tags_is_fitted_without_warnings() -> None:
    """Pillow's "Tag data larger than file" warning does not escape (pytest errors on it)."""
    data = bytearray(read("image.tiff"))
    struct.pack_into("<I", data, data.find(b"\x02\x01\x03\x00") + 4, 0x0010_0000)  # tag 258 count
    with contextlib.suppress(mp.MediaError):
        mp.normalize(bytes(data), "anthropic")


def test_undecodable_avif_is_invalid_media() -> None:
    """libavif's refusal (a RuntimeError from Pillow's AVIF plugin) becomes InvalidMedia."""
    from mediaparts.imaging import FitSpec, fit_image

    data = read("image.avif")
    at = data.find(b"mdat") + 4
    with pytest.raises(mp.InvalidMedia, match="cannot decode image/avif"):
        fit_image(data[:at] + bytes(len(data) - at), "image/avif", FitSpec(("image/png",)))


def test_gif_without_trailer_is_decoded_not_passed_on() -> None:
    """A GIF cut short is refused, not sent unchanged; one missing only ';' is re-encoded."""
    data = read("still.gif")
    with pytest.raises(mp.InvalidMedia, match="truncated"):
        mp.normalize(data[: len(data) // 2], "anthropic")
    assert mp.normalize(data[:-1], "anthropic").steps
    assert mp.normalize(data, "anthropic").steps == ()


@pytest.mark.parametrize(
    "data",
    [
        b"%PDF-1.4\n" + b"1" * 300_000,
        b"%PDF-1.4\n" + b"1 " + b"2" * 300_000,
        b"%PDF-1.4\n1 0 obj << /Type /Pages /Count " + b"9" * 5000 + b" >> endobj\n",
        b"%PDF-1.4\n1 0 obj << /Type /ObjStm /Filter /FlateDecode /First "
        + b"9" * 5000
        + b" >> stream\nx\x9c\x03\x00\x00\x00\x00\x01\nendstream endobj\n",
    ],
    ids=["digits", "number-then-digits", "count-5000-digits", "first-5000-digits"],
)
def test_hostile_pdf_page_count_is_fast_and_safe(data: bytes) -> None:
    """Long digit runs neither take quadratic time nor raise int()'s 4,300-digit ValueError."""
    made = mp.part(data)
    for provider in PROVIDERS:
        with within(), contextlib.suppress(mp.MediaError):
            mp.estimate_tokens(made, provider)
        with within(), contextlib.suppress(mp.MediaError):
            mp.normalize(made, provider)


def test_pdf_page_count_still_reads_real_counts() -> None:
    """The digit limits leave ordinary page trees alone."""
    from mediaparts.formats._pdf import pdf_page_count

    assert pdf_page_count(read("document.pdf")) == 2
    assert pdf_page_count(b"1 0 obj << /Type /Pages /Count 2147483647 >> endobj") == 2147483647
    assert pdf_page_count(b"1 0 obj << /Type /Pages /Count 21474836470 >> endobj") is None


@pytest.mark.parametrize(
    "data",
    [read("still.gif")[:-1] + b"!", read("animated.gif")[:4135]],
    ids=["still-gif-cut-extension", "animated-gif-cut-in-second-frame"],
)
def test_gif_damaged_after_first_frame_keeps_it(data: bytes) -> None:
    """Pillow's IndexError while counting frames gives the re-encoded first frame, no crash."""
    for provider in ("anthropic", "openai", "bedrock"):
        fitted = mp.normalize(data, provider)
        assert fitted.media_type == "image/png"
        assert "gif→png" in fitted.steps


@pytest.mark.parametrize("name", ["animated.gif", "animated.png", "animated.webp"])
def test_truncated_animation_raises_only_media_error(name: str) -> None:
    """Animations cut at every 97th byte raise nothing but MediaError anywhere."""
    data = read(name)
    for cut in range(13, len(data), 97):
        with within():
            run_public_api(data[:cut])
