"""mediaparts.imaging: pass-through, orientation, conversion, resizing, byte fitting, refusals."""

from __future__ import annotations

import array
import base64
import io
import random
import struct
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageSequence, ImageStat
from PIL.JpegImagePlugin import JpegImageFile

import mediaparts as mp
import mediaparts.imaging as imaging
from mediaparts import InvalidMedia, MediaTooLarge, ProviderLimitError, UnsupportedMediaType
from mediaparts.imaging import FitSpec, FittedImage, fit_image, image_orientation
from mediaparts.imaging._spec import limit_size
from tests._builders import IMAGES, png_header, read
from tests._builders import encode as encoded

WEB = ("image/jpeg", "image/png", "image/gif", "image/webp")
TYPES = {
    ".jpg": "image/jpeg",
    ".png": "image/png",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".bmp": "image/bmp",
    ".tiff": "image/tiff",
    ".ico": "image/vnd.microsoft.icon",
    ".heic": "image/heic",
    ".avif": "image/avif",
}
RED, BLUE = (255, 0, 0), (0, 0, 255)


def long_edge(limit: int) -> Callable[[int, int], tuple[int, int]]:
    """A target that scales the long edge down to `limit`, as Anthropic's standard tier does."""

    def target(width: int, height: int) -> tuple[int, int]:
        scale = min(1.0, limit / max(width, height))
        return round(width * scale), round(height * scale)

    return target


ANTHROPIC = FitSpec(
    accepted=WEB,
    animated_ok=False,
    target=long_edge(1568),
    max_bytes=5 * 1024 * 1024,
    measure="base64",
)
OPENAI = FitSpec(accepted=WEB, animated_ok=False, max_width=2048, max_height=2048)
JPEG_PNG = FitSpec(accepted=("image/jpeg", "image/png"))
SPECS = {"anthropic": ANTHROPIC, "openai": OPENAI}


def opened(fitted: FittedImage) -> Image.Image:
    """Open (and fully decode) the fitted bytes with Pillow."""
    image = Image.open(io.BytesIO(fitted.data))
    image.load()
    return image


def noise(size: tuple[int, int], mode: str = "RGB", seed: int = 7) -> Image.Image:
    """A deterministic picture of random pixels, which no codec can compress."""
    bands = len(mode)
    return Image.frombytes(mode, size, random.Random(seed).randbytes(size[0] * size[1] * bands))


def near(pixel: object, colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    """Whether an RGB pixel is within `tolerance` of `colour` on every channel."""
    assert isinstance(pixel, tuple)
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour, strict=False))


def corners(image: Image.Image) -> tuple[object, object]:
    """Sample a few pixels inside the top-left and top-right corners of an RGB image."""
    rgb = image.convert("RGB")
    inset = max(2, min(rgb.size) // 40)
    return rgb.getpixel((inset, inset)), rgb.getpixel((rgb.width - 1 - inset, inset))


@pytest.mark.parametrize("spec_name", sorted(SPECS))
@pytest.mark.parametrize("name", IMAGES)
def test_fit_testdata_accepted_within_limits(name: str, spec_name: str) -> None:
    """Every testdata image comes out an accepted, still type within the limits, true to its bytes."""
    spec = SPECS[spec_name]
    data = read(name)
    fitted = fit_image(data, TYPES[Path(name).suffix], spec)
    image = opened(fitted)
    assert fitted.media_type in spec.accepted
    assert Image.MIME[image.format or ""] == fitted.media_type
    assert (fitted.width, fitted.height) == image.size
    assert getattr(image, "n_frames", 1) == 1
    assert max(image.size) <= (1568 if spec is ANTHROPIC else 2048)
    assert len(base64.b64encode(fitted.data)) <= 5 * 1024 * 1024
    assert image_orientation(fitted.data) == 1
    assert fitted.unchanged == (fitted.data is data)
    assert fitted.unchanged == (fitted.steps == ())


def test_fit_photo_comes_out_upright() -> None:
    """photo.jpg (stored 640x480, orientation 6) comes out 480x640, red top-left, blue top-right."""
    fitted = fit_image(read("photo.jpg"), "image/jpeg", ANTHROPIC)
    image = opened(fitted)
    assert (fitted.width, fitted.height) == image.size == (480, 640)
    left, right = corners(image)
    assert near(left, RED)
    assert near(right, BLUE)
    assert 0x0112 not in image.getexif()
    assert fitted.steps == ("exif-transpose", "jpeg q=85")


# Stored pixels for each orientation: the upright picture put through the inverse transform.
INVERSE = {
    1: None,
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,
}


@pytest.mark.parametrize("orientation", sorted(INVERSE))
def test_fit_every_exif_orientation_upright(orientation: int) -> None:
    """Each of the 8 EXIF orientations comes out upright, telling rotations from mirrors."""
    upright = Image.new("RGB", (120, 80), (128, 128, 128))
    upright.paste(RED, (0, 0, 20, 20))
    upright.paste(BLUE, (100, 0, 120, 20))
    method = INVERSE[orientation]
    stored = upright if method is None else upright.transpose(method)
    exif = Image.Exif()
    exif[0x0112] = orientation
    data = encoded(stored, "JPEG", quality=95, exif=exif.tobytes())
    assert image_orientation(data) == orientation
    fitted = fit_image(data, "image/jpeg", ANTHROPIC)
    image = opened(fitted)
    assert image.size == (120, 80)
    left, right = corners(image)
    assert near(left, RED)
    assert near(right, BLUE)
    assert fitted.unchanged == (orientation == 1)


@pytest.mark.parametrize("name", ["upright.jpg", "progressive.jpg", "alpha.png", "lossy.webp"])
def test_fit_already_fitting_passes_through(name: str) -> None:
    """An accepted, upright image within every limit is returned byte for byte, undecoded."""
    data = read(name)
    fitted = fit_image(data, TYPES[Path(name).suffix], ANTHROPIC)
    assert fitted.unchanged
    assert fitted.data is data
    assert fitted.steps == ()
    assert (fitted.width, fitted.height) == Image.open(io.BytesIO(data)).size


@pytest.mark.usefixtures("no_decoding")
def test_fit_pass_through_decides_from_header() -> None:
    """Deciding to pass an image through never decodes its pixels."""
    assert fit_image(read("upright.jpg"), "image/jpeg", ANTHROPIC).unchanged


@pytest.mark.parametrize(
    ("spec", "unchanged"),
    [
        (FitSpec(accepted=WEB, target=lambda w, h: (w * 2, h * 2)), True),
        (FitSpec(accepted=WEB, max_width=4000, max_pixels=10**8), True),
        (FitSpec(accepted=WEB, max_width=160), False),
    ],
)
def test_fit_never_upscales(spec: FitSpec, unchanged: bool) -> None:
    """A target or limit larger than the image leaves it alone; a smaller one shrinks it."""
    fitted = fit_image(read("upright.jpg"), "image/jpeg", spec)
    assert fitted.unchanged is unchanged
    assert fitted.width <= 320 and fitted.height <= 240


def test_fit_heic_becomes_jpeg() -> None:
    """A HEIC photo becomes a JPEG of the same size for a provider that refuses HEIC."""
    fitted = fit_image(read("photo.heic"), "image/heic", ANTHROPIC)
    assert fitted.media_type == "image/jpeg"
    assert fitted.steps == ("heic→jpeg", "jpeg q=85")
    assert opened(fitted).size == (320, 240)


def test_fit_rgba_tiff_becomes_png_keeping_alpha() -> None:
    """An RGBA TIFF, refused as is, becomes a PNG that keeps its transparency."""
    picture = Image.new("RGBA", (64, 48), (0, 128, 255, 255))
    picture.paste((255, 0, 0, 0), (0, 0, 16, 16))
    fitted = fit_image(encoded(picture, "TIFF"), "image/tiff", JPEG_PNG)
    image = opened(fitted)
    assert fitted.media_type == "image/png"
    assert fitted.steps == ("tiff→png",)  # not "png" again after the conversion
    assert image.mode == "RGBA"
    assert image.getpixel((4, 4))[3] == 0  # type: ignore[index]
    assert image.getpixel((40, 40)) == (0, 128, 255, 255)


@pytest.mark.parametrize(
    ("name", "media_type"),
    [
        ("image.bmp", "image/png"),
        ("image.tiff", "image/png"),
        ("icon.ico", "image/png"),
        ("image.avif", "image/jpeg"),
        ("photo.heic", "image/jpeg"),
        ("lossless.webp", "image/png"),
        ("lossy.webp", "image/jpeg"),
    ],
)
def test_fit_converts_by_lossless_or_alpha(name: str, media_type: str) -> None:
    """Unaccepted types become PNG when lossless or transparent, JPEG otherwise."""
    fitted = fit_image(read(name), TYPES[Path(name).suffix], JPEG_PNG)
    assert fitted.media_type == media_type
    assert fitted.steps[0].endswith("→" + media_type.split("/")[1])


def test_fit_icon_uses_largest_frame() -> None:
    """An ICO becomes its largest image (48x48 of 16, 32, 48)."""
    fitted = fit_image(read("icon.ico"), "image/vnd.microsoft.icon", JPEG_PNG)
    assert (fitted.width, fitted.height) == (48, 48)


@pytest.mark.parametrize("name", ["animated.gif", "animated.png", "animated.webp"])
def test_fit_animation_becomes_first_frame(name: str) -> None:
    """With animated_ok=False an animation becomes a single still frame."""
    fitted = fit_image(read(name), TYPES[Path(name).suffix], ANTHROPIC)
    image = opened(fitted)
    assert getattr(image, "n_frames", 1) == 1
    assert not getattr(image, "is_animated", False)
    assert fitted.steps[0] == "first frame"
    assert image.size == (160, 120)


@pytest.mark.parametrize("name", ["animated.gif", "animated.png", "animated.webp"])
def test_fit_animation_resized_keeps_frames(name: str) -> None:
    """With animated_ok=True an animation that must shrink keeps all its frames."""
    spec = FitSpec(accepted=WEB, max_width=80)
    fitted = fit_image(read(name), TYPES[Path(name).suffix], spec)
    image = opened(fitted)
    assert fitted.media_type == TYPES[Path(name).suffix]
    assert image.size == (fitted.width, fitted.height) == (80, 60)
    assert len(list(ImageSequence.Iterator(image))) == 3
    assert fitted.steps[-1].endswith("frames=3")


@pytest.mark.parametrize("accepted", [("image/jpeg",), ("image/png",)])
def test_fit_16bit_png_scales_not_clips(accepted: tuple[str, ...]) -> None:
    """A 16-bit grey of 32768 (mid-grey) stays mid-grey in 8 bits, it is not clipped to white."""
    picture = Image.new("I;16", (64, 48), 32768)
    spec = FitSpec(accepted=accepted, max_width=32)
    fitted = fit_image(encoded(picture, "PNG"), "image/png", spec)
    image = opened(fitted)
    assert image.mode == "L"
    low, high = image.getextrema()
    assert 124 <= float(low) <= float(high) <= 132  # type: ignore[arg-type]  # one band
    assert "mode I;16→L" in fitted.steps


def test_fit_gray16_testdata_keeps_its_mean() -> None:
    """gray16.png's mean brightness survives the 16→8 bit step (clipping would whiten it)."""
    data = read("gray16.png")
    samples = array.array("H", Image.open(io.BytesIO(data)).tobytes())
    if sys.byteorder == "big":  # I;16 samples are little-endian
        samples.byteswap()
    source_mean = sum(samples) / len(samples) / 257
    spec = FitSpec(accepted=("image/png",), max_width=64)
    fitted_mean = ImageStat.Stat(opened(fit_image(data, "image/png", spec))).mean[0]
    assert abs(fitted_mean - source_mean) < 2


def test_fit_cmyk_jpeg_becomes_rgb() -> None:
    """A CMYK JPEG is re-encoded as RGB, since providers' decoders expect RGB."""
    fitted = fit_image(read("cmyk.jpg"), "image/jpeg", ANTHROPIC)
    image = opened(fitted)
    assert image.mode == "RGB"
    assert fitted.steps == ("mode CMYK→RGB", "jpeg q=85")
    left, right = corners(image)
    assert near(left, RED, 60)
    assert near(right, BLUE, 60)


def test_fit_mislabelled_png_is_typed_by_its_bytes() -> None:
    """PNG bytes declared as image/jpeg pass through as image/png: the bytes win."""
    fitted = fit_image(read("mislabelled.jpg"), "image/jpeg", ANTHROPIC)
    assert fitted.unchanged
    assert fitted.media_type == "image/png"


def test_fit_noise_jpeg_meets_base64_limit() -> None:
    """A 3000x2000 noise JPEG is fitted under 500,000 bytes of base64 by quality, then scale."""
    data = encoded(noise((3000, 2000)), "JPEG", quality=90)
    spec = FitSpec(accepted=WEB, max_bytes=500_000, measure="base64")
    fitted = fit_image(data, "image/jpeg", spec)
    assert len(base64.b64encode(fitted.data)) <= 500_000
    assert fitted.media_type == "image/jpeg"
    assert opened(fitted).size == (fitted.width, fitted.height)
    assert fitted.steps[-2].endswith("to fit max_bytes")
    assert fitted.steps[-1].startswith("jpeg q=")


def test_fit_noise_png_without_alpha_switches_to_jpeg() -> None:
    """An opaque noise PNG that PNG cannot fit becomes a JPEG when JPEG is accepted."""
    data = encoded(noise((600, 400)), "PNG")
    fitted = fit_image(data, "image/png", FitSpec(accepted=WEB, max_bytes=200_000))
    assert len(fitted.data) <= 200_000
    assert fitted.media_type == "image/jpeg"
    assert fitted.steps[0] == "png→jpeg"


def test_fit_noise_png_with_alpha_stays_png() -> None:
    """A transparent PNG that must shrink to fit stays PNG, alpha and all."""
    data = encoded(noise((600, 400), "RGBA"), "PNG")
    fitted = fit_image(data, "image/png", FitSpec(accepted=WEB, max_bytes=200_000))
    image = opened(fitted)
    assert len(fitted.data) <= 200_000
    assert fitted.media_type == "image/png"
    assert image.mode == "RGBA"
    assert max(image.size) < 600


@pytest.mark.parametrize("limit", [60_000, 250_000])
def test_fit_skips_lossless_coding_that_cannot_fit(
    monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    """An opaque PNG whose first lossless encode shows no smaller lossless size can fit goes
    lossy then, without the other lossless encodes (each costs seconds at 12 MP); nearer the
    limit, lossless keeps its tries."""
    import mediaparts.imaging._fit as fit_module

    written: list[str] = []
    real = fit_module.encode  # type: ignore[attr-defined]

    def counted(image: Image.Image, media_type: str, *rest: object) -> bytes:
        written.append(media_type)
        return real(image, media_type, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(fit_module, "encode", counted)
    data = encoded(noise((600, 400)), "PNG")  # about 720 KB of noise
    fitted = fit_image(data, "image/png", FitSpec(accepted=WEB, max_bytes=limit))
    assert len(fitted.data) <= limit
    if limit < len(data) * 0.75**4:  # hopeless at the smallest lossless scaling
        assert written[:2] == ["image/png", "image/jpeg"] and fitted.media_type == "image/jpeg"
    else:  # lossless keeps its tries, and here fits at a smaller size
        assert written.count("image/png") >= 2 and fitted.media_type == "image/png"


def test_fit_impossible_limit_raises() -> None:
    """A byte limit that even a 64 px image cannot meet raises ProviderLimitError."""
    data = encoded(noise((800, 600)), "PNG")
    spec = FitSpec(accepted=("image/png",), max_bytes=2_000)
    with pytest.raises(ProviderLimitError, match=r"2,000 bytes .*at 64x48"):
        fit_image(data, "image/png", spec)


def test_fit_no_writable_accepted_type_raises() -> None:
    """A spec accepting only types fitting cannot write refuses what needs converting."""
    with pytest.raises(UnsupportedMediaType, match="image/tiff"):
        fit_image(read("image.bmp"), "image/bmp", FitSpec(accepted=("image/tiff",)))


@pytest.fixture(scope="module")
def photo_24mp(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A 6000x4000 JPEG of gradients and noise, written once to a temporary folder."""
    horizontal = Image.linear_gradient("L").resize((6000, 4000))
    vertical = Image.linear_gradient("L").rotate(90).resize((6000, 4000))
    grain = Image.effect_noise((6000, 4000), 24)
    picture = Image.merge("RGB", (horizontal, vertical, grain))
    path = tmp_path_factory.mktemp("imaging") / "24mp.jpg"
    picture.save(path, format="JPEG", quality=90)
    return path.read_bytes()


def with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """Insert an EXIF APP1 segment carrying `orientation` right after the JPEG's SOI marker."""
    exif = Image.Exif()
    exif[0x0112] = orientation
    payload = exif.tobytes()  # starts with b"Exif\0\0"
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


@pytest.mark.parametrize(
    ("orientation", "requested", "expected"),
    [
        (1, (1568, 1045), (1568, 1045)),
        # Stored 6000x4000 shown 4000x6000: the draft asks for the stored-axis size.
        (6, (1568, 1045), (1045, 1568)),
    ],
)
def test_fit_24mp_jpeg_decodes_at_draft_scale(
    photo_24mp: bytes,
    monkeypatch: pytest.MonkeyPatch,
    orientation: int,
    requested: tuple[int, int],
    expected: tuple[int, int],
) -> None:
    """A 24 MP JPEG bound for 1568 px is decoded at 1/2 scale via draft(), never at 6000x4000."""
    data = photo_24mp if orientation == 1 else with_orientation(photo_24mp, orientation)
    drafts: list[tuple[tuple[int, int] | None, tuple[int, int]]] = []
    original = JpegImageFile.draft

    def spy(self: JpegImageFile, mode: str | None, size: tuple[int, int] | None) -> object:
        result = original(self, mode, size)
        drafts.append((size, self.size))
        return result

    monkeypatch.setattr(JpegImageFile, "draft", spy)
    fitted = fit_image(data, "image/jpeg", ANTHROPIC)
    assert drafts == [(requested, (3000, 2000))]
    assert (fitted.width, fitted.height) == opened(fitted).size == expected
    upright = "6000x4000" if orientation == 1 else "4000x6000"
    assert fitted.steps[-2:] == (f"resize {upright}→{expected[0]}x{expected[1]}", "jpeg q=85")


@pytest.mark.usefixtures("no_decoding")
def test_fit_bomb_refused_before_decoding() -> None:
    """A PNG claiming 40000x40000 raises MediaTooLarge without any pixel being decoded."""
    with pytest.raises(MediaTooLarge, match="1,600,000,000 pixels") as caught:
        fit_image(png_header(40000, 40000), "image/png", ANTHROPIC)
    assert caught.value.size == 1_600_000_000
    assert caught.value.limit == ANTHROPIC.pixel_cap


def test_fit_pixel_cap_applies_to_small_images() -> None:
    """The cap is the spec's: a 320x240 JPEG with pixel_cap=10,000 is refused."""
    spec = FitSpec(accepted=WEB, pixel_cap=10_000)
    with pytest.raises(MediaTooLarge, match="76,800 pixels exceeds the pixel cap of 10,000"):
        fit_image(read("upright.jpg"), "image/jpeg", spec)


@pytest.mark.parametrize(
    ("data", "media_type"),
    [
        (read("photo.jpg")[:12_000], "image/jpeg"),  # truncated and needs rotating
        (read("upright.jpg")[:6_000], "image/jpeg"),  # truncated, would otherwise pass through
        (read("alpha.png")[:5_000], "image/png"),
        (random.Random(3).randbytes(4096), "image/jpeg"),
        (random.Random(4).randbytes(4096), "image/png"),
        (b"\xff\xd8\xff\xe0" + random.Random(5).randbytes(2048), "image/jpeg"),
    ],
)
def test_fit_corrupt_raises_invalid_media(data: bytes, media_type: str) -> None:
    """Truncated or garbage images raise InvalidMedia (also a ValueError) naming the type."""
    with pytest.raises(InvalidMedia, match=f"cannot decode {media_type}") as caught:
        fit_image(data, media_type, ANTHROPIC)
    assert isinstance(caught.value, ValueError)


def test_fit_heic_without_pillow_heif(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without pillow-heif a HEIC that must be converted says how to install the extra."""
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # makes `import pillow_heif` fail
    with pytest.raises(mp.CodecUnavailable, match=r"mediaparts' \[heif\] extra") as caught:
        fit_image(read("photo.heic"), "image/heic", ANTHROPIC)
    assert (caught.value.package, caught.value.extra) == ("pillow-heif", "heif")


def test_fit_heic_accepted_passes_through_without_pillow_heif(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A HEIC for a provider that takes HEIC (Gemini) needs no decoder at all."""
    monkeypatch.setitem(sys.modules, "pillow_heif", None)
    fitted = fit_image(read("photo.heic"), "image/heic", FitSpec(accepted=("image/heic",)))
    assert fitted.unchanged
    assert (fitted.width, fitted.height) == (320, 240)


def test_fit_avif_without_a_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """An AVIF on a Pillow without the AVIF plugin is refused as unsupported, not as corrupt."""
    Image.init()
    monkeypatch.delitem(Image.OPEN, "AVIF")
    monkeypatch.delitem(Image.OPEN, "HEIF", raising=False)
    with pytest.raises(mp.CodecUnavailable, match="cannot read image/avif") as caught:
        fit_image(read("image.avif"), "image/avif", ANTHROPIC)
    assert (caught.value.package, caught.value.extra) == ("pillow", None)


@pytest.mark.parametrize(
    ("data", "orientation"),
    [
        (read("photo.jpg"), 6),
        (read("upright.jpg"), 1),
        (read("alpha.png"), 1),
        (b"not an image at all", 1),
        (b"\xff\xd8\xff\xe1\x00\x10Exif\x00\x00garbage", 1),
        (b"", 1),
    ],
)
def test_image_orientation_reads_header(data: bytes, orientation: int) -> None:
    """image_orientation gives the EXIF tag, or 1 when absent or unreadable."""
    assert image_orientation(data) == orientation


@pytest.mark.parametrize(
    ("size", "spec", "expected"),
    [
        ((6000, 4000), FitSpec(accepted=WEB, target=long_edge(1568)), (1568, 1045)),
        ((4000, 6000), FitSpec(accepted=WEB, max_width=2048, max_height=2048), (1365, 2048)),
        ((3000, 3000), FitSpec(accepted=WEB, max_pixels=1_000_000), (1000, 1000)),
        ((1000, 10), FitSpec(accepted=WEB, max_pixels=99), (99, 1)),
        ((300, 200), FitSpec(accepted=WEB, max_width=8000, target=long_edge(1568)), (300, 200)),
    ],
)
def test_limit_size_table(size: tuple[int, int], spec: FitSpec, expected: tuple[int, int]) -> None:
    """The fitted size is the largest within every limit and the target, never larger."""
    assert limit_size(*size, spec) == expected


def test_public_all_is_sorted() -> None:
    """The imaging package exports exactly its sorted __all__."""
    assert imaging.__all__ == sorted(imaging.__all__)
    assert all(hasattr(imaging, name) for name in imaging.__all__)


def _gif_grown_after_frame_0() -> bytes:
    """A GIF whose 10x10 first frame is red and whose later frames grow the canvas to 100x100."""
    palette = [255, 0, 0, 0, 255, 0, 0, 0, 255] + [0] * (253 * 3)

    def gif(size: tuple[int, int], index: int) -> bytes:
        image = Image.new("P", size, index)
        image.putpalette(palette)
        out = io.BytesIO()
        image.save(out, "GIF", duration=50, optimize=False)
        return out.getvalue()

    def split(data: bytes) -> tuple[bytes, bytes]:  # (header with its colour table, the frame)
        table = 3 * 2 ** ((data[10] & 7) + 1) if data[10] & 0x80 else 0
        return data[: 13 + table], data[13 + table : -1]

    head, red = split(gif((10, 10), 0))
    _, green = split(gif((100, 100), 1))
    _, blue = split(gif((100, 100), 2))
    loop = b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    return head + loop + red + green + blue + b";"


def test_fit_animation_given_up_sends_the_first_frame() -> None:
    """When the frame check refuses a later frame, the still sent is frame 0, not that frame."""
    budget = imaging.DecodeBudget(max_frame_pixels=5000)
    spec = FitSpec(accepted=("image/gif", "image/png"), max_width=8, budget=budget)
    fitted = fit_image(_gif_grown_after_frame_0(), "image/gif", spec)
    assert "first frame" in fitted.steps
    with Image.open(io.BytesIO(fitted.data)) as out:
        assert out.convert("RGB").getpixel((0, 0)) == (255, 0, 0)


def test_transparent_colour_counts_its_rgba_copy_in_the_budget() -> None:
    """A grey PNG with a transparent colour is charged for the full-size RGBA it decodes to."""
    image = Image.new("L", (2000, 2000), 7)
    out = io.BytesIO()
    image.save(out, "PNG", transparency=7)
    # 4 M pixels: 4 MB as grey alone, over 30 MB once its RGB and RGBA copies are counted.
    spec = FitSpec(
        accepted=("image/png",),
        max_width=1000,
        budget=imaging.DecodeBudget(max_decoded_bytes=20_000_000),
    )
    with pytest.raises(MediaTooLarge, match="max_decoded_bytes"):
        fit_image(out.getvalue(), "image/png", spec)
