"""Decompression bombs and huge headers are refused from their headers, undecoded.

The bombs claim from 1.6 billion to 280 trillion pixels, in a few hundred KB at most; every
one must be refused from its header, with Pillow's `load()` patched to fail so that decoding
a single pixel fails the test, and with memory growth measured. Files that are cheap to send
but costly to decode (many scans, huge canvases, many frames) must stay within the decode
budget.
"""

from __future__ import annotations

import contextlib
import io
import os
import struct
import subprocess
import sys
import tracemalloc
import zlib
from typing import Any

import pytest
from PIL import Image

import mediaparts as mp
from tests._builders import png_chunk
from tests.conftest import PixelsDecoded
from tests.robustness._entry_points import PROVIDERS, TESTDATA, read, run_public_api, within

pytestmark = pytest.mark.slow  # decompression bombs, memory measured in a child process

ROOT = TESTDATA.parent
MB = 1 << 20


# ---------------------------------------------------------------------------- bombs


def png_bomb(side: int = 40_000) -> bytes:
    """Return a valid 1-bit grey PNG of side x side black pixels: 1.6 gigapixels in ~190 KB."""
    # Streamed a row at a time through one compressor with a reused zero row, so building it
    # never holds the 200 MB of filtered scanlines (1 filter byte + side / 8 bytes per row).
    compressor = zlib.compressobj(9)
    row = bytes(1 + (side + 7) // 8)
    idat = [compressor.compress(row) for _ in range(side)]
    idat.append(compressor.flush())
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", header)
        + png_chunk(b"IDAT", b"".join(idat))
        + png_chunk(b"IEND", b"")
    )


def _patch(data: bytes, at: int, fmt: str, *values: int) -> bytes:
    out = bytearray(data)
    struct.pack_into(fmt, out, at, *values)
    return bytes(out)


def jpeg_huge(name: str = "photo.jpg", side: int = 65_000) -> bytes:
    """Return a real JPEG whose start-of-frame claims side x side pixels."""
    data = read(name)
    i = 2
    while data[i + 1] not in (0xC0, 0xC1, 0xC2):  # walk the marker segments to the SOF
        i += 2 + struct.unpack(">H", data[i + 2 : i + 4])[0]
    return _patch(data, i + 5, ">HH", side, side)


def gif_huge() -> bytes:
    """Return a 1x1 GIF whose logical screen is 65535 x 65535 (4.3 gigapixels)."""
    buffer = io.BytesIO()
    Image.new("P", (1, 1)).save(buffer, "GIF")
    return _patch(buffer.getvalue(), 6, "<HH", 0xFFFF, 0xFFFF)


def webp_canvas() -> bytes:
    """Return an animated WebP whose VP8X canvas is 2**24 x 2**24 (the format's maximum)."""
    data = read("animated.webp")
    return data[:24] + b"\xff\xff\xff\xff\xff\xff" + data[30:]


def webp_lossless() -> bytes:
    """Return a lossless WebP whose VP8L header says 16384 x 16384 (268 megapixels)."""
    data = read("lossless.webp")
    (bits,) = struct.unpack("<I", data[21:25])
    return _patch(data, 21, "<I", bits | 0x0FFFFFFF)


def bmp_huge() -> bytes:
    """Return a BMP whose header claims 60000 x 60000 pixels."""
    return _patch(read("image.bmp"), 18, "<ii", 60_000, 60_000)


def tiff_huge() -> bytes:
    """Return a TIFF whose ImageWidth and ImageLength tags claim 65000 x 65000."""
    data = bytearray(read("image.tiff"))
    order = "<" if data[:2] == b"II" else ">"
    (ifd,) = struct.unpack_from(order + "I", data, 4)
    (count,) = struct.unpack_from(order + "H", data, ifd)
    for entry in range(ifd + 2, ifd + 2 + 12 * count, 12):
        tag, kind = struct.unpack_from(order + "HH", data, entry)
        if tag in (256, 257):  # ImageWidth, ImageLength: a SHORT (3) or a LONG (4)
            struct.pack_into(order + ("H" if kind == 3 else "I"), data, entry + 8, 65_000)
    return bytes(data)


def heif_huge(name: str) -> bytes:
    """Return a HEIC or AVIF whose image spatial extents (`ispe`) claim 65000 x 65000."""
    data = bytearray(read(name))
    at = data.find(b"ispe")
    while at >= 0:
        struct.pack_into(">II", data, at + 8, 65_000, 65_000)
        at = data.find(b"ispe", at + 4)
    return bytes(data)


def ico_bomb() -> bytes:
    """Return an icon whose directory says 256 x 256 but whose PNG is 40000 x 40000."""
    png = png_bomb()
    entry = struct.pack("<BBBBHHII", 0, 0, 0, 0, 1, 32, len(png), 22)
    return b"\x00\x00\x01\x00\x01\x00" + entry + png


@pytest.fixture(scope="module")
def bombs() -> dict[str, bytes]:
    """Every bomb and huge-header file, built once."""
    return make_bombs()


def make_bombs() -> dict[str, bytes]:
    """Build every bomb and huge-header file (also used by the memory check's subprocess)."""
    return {
        "png-40000": png_bomb(),
        "jpeg-65000": jpeg_huge(),
        "jpeg-progressive-65000": jpeg_huge("progressive.jpg"),
        "gif-65535": gif_huge(),
        "webp-canvas": webp_canvas(),
        "webp-lossless": webp_lossless(),
        "bmp-60000": bmp_huge(),
        "tiff-65000": tiff_huge(),
        "heic-65000": heif_huge("photo.heic"),
        "avif-65000": heif_huge("image.avif"),
        "ico-png-40000": ico_bomb(),
    }


BOMB_NAMES = [
    "png-40000", "jpeg-65000", "jpeg-progressive-65000", "gif-65535", "webp-canvas",
    "webp-lossless", "bmp-60000", "tiff-65000", "heic-65000", "avif-65000", "ico-png-40000",
]  # fmt: skip


def test_bombs_are_small() -> None:
    """The PNG bomb is 1.6 gigapixels in about 200 KB, and the rest are smaller still."""
    built = make_bombs()
    assert sorted(built) == sorted(BOMB_NAMES)
    assert len(built["png-40000"]) < 250_000
    assert struct.unpack(">II", built["png-40000"][16:24]) == (40_000, 40_000)


@pytest.mark.usefixtures("no_decoding")
@pytest.mark.parametrize("name", BOMB_NAMES)
def test_bomb_is_refused_without_decoding(bombs: dict[str, bytes], name: str) -> None:
    """normalize refuses a bomb from its header, for every provider, decoding no pixel."""
    data = bombs[name]
    for provider in PROVIDERS:
        with within(), pytest.raises(mp.MediaTooLarge, match="pixels"):
            mp.normalize(data, provider)


@pytest.mark.usefixtures("no_decoding")
@pytest.mark.parametrize("name", BOMB_NAMES)
def test_bomb_width_reads_only_the_header(bombs: dict[str, bytes], name: str) -> None:
    """ImagePart.width of a bomb is its claimed width (or None), read without decoding."""
    with within():
        width = mp.ImagePart.from_bytes(bombs[name]).width
    assert width is None or width >= 16_384
    with within():
        run_public_api(bombs[name], name)


@pytest.mark.usefixtures("no_decoding")
def test_huge_header_jpeg_is_refused(bombs: dict[str, bytes]) -> None:
    """A JPEG claiming 65000 x 65000 is refused by the pixel cap, naming its size."""
    with pytest.raises(mp.MediaTooLarge, match="65000x65000") as caught:
        mp.normalize(bombs["jpeg-65000"], "anthropic")
    assert caught.value.size == 65_000 * 65_000
    assert mp.ImagePart.from_bytes(bombs["jpeg-65000"]).width == 65_000


def test_png_bomb_peak_python_memory(bombs: dict[str, bytes]) -> None:
    """Refusing the PNG bomb allocates well under 200 MB of Python memory (tracemalloc)."""
    data = bombs["png-40000"]
    tracemalloc.start()
    try:
        with contextlib.suppress(mp.MediaError):
            mp.normalize(data, "anthropic")
        assert mp.ImagePart.from_bytes(data).width == 40_000
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 * MB, f"peak {peak / MB:.0f} MB"


_MEMORY_SCRIPT = """
import contextlib, resource, sys
import mediaparts as mp
from tests.robustness.test_bombs import PROVIDERS, make_bombs
bombs = make_bombs()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
for data in bombs.values():
    mp.ImagePart.from_bytes(data).width
    for provider in PROVIDERS:
        with contextlib.suppress(mp.MediaError):
            mp.normalize(data, provider)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def test_bombs_peak_process_memory() -> None:
    """Refusing every bomb grows the peak RSS of a fresh process by less than 200 MB."""
    # tracemalloc sees only Python's allocator; Pillow decodes into malloc'd memory, so the
    # process's own high-water mark (ru_maxrss, in KiB on Linux) is what proves nothing decoded.
    if sys.platform != "linux":
        pytest.skip("ru_maxrss is in KiB on Linux only")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", _MEMORY_SCRIPT],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    grown_kib = int(done.stdout.split()[-1])
    assert grown_kib < 200 * 1024, f"peak RSS grew by {grown_kib / 1024:.0f} MB"


@pytest.mark.usefixtures("no_decoding")
def test_no_decoding_fixture_catches_a_decode() -> None:
    """The fixture works: an image that must be converted does reach a patched load()."""
    with pytest.raises(PixelsDecoded):
        mp.normalize(read("image.bmp"), "anthropic")


@pytest.mark.usefixtures("no_decoding")
def test_icon_bomb_orientation_is_not_decoded(bombs: dict[str, bytes]) -> None:
    """An icon's orientation is 1 without opening it: Pillow decodes icons in Image.open."""
    from mediaparts.imaging import image_orientation

    assert image_orientation(bombs["ico-png-40000"]) == 1
    assert mp.estimate_tokens(mp.part(bombs["ico-png-40000"]), "openai") > 0


def test_icon_size_is_its_largest_embedded_image() -> None:
    """ImagePart.width of an icon is what Pillow reports, read from the embedded header."""
    with Image.open(TESTDATA / "icon.ico") as icon:
        made = mp.part(read("icon.ico"))
        assert isinstance(made, mp.ImagePart)
        assert (made.width, made.height) == icon.size
    assert mp.ImagePart.from_bytes(ico_bomb()).height == 40_000


# ---------------------------------------------------------------------------- decode budget


def many_scans(side: int, scans: int) -> bytes:
    """Return a progressive grey JPEG whose last scan is repeated until it has `scans` scans."""
    buffer = io.BytesIO()
    Image.new("L", (side, side), 128).save(buffer, "JPEG", progressive=True)
    data = buffer.getvalue()
    # Entropy-coded data stuffs every 0xFF with 0x00, so FF DA only ever starts a scan; the
    # last scan runs to the EOI that ends the file.
    start, end, found = data.rfind(b"\xff\xda"), len(data) - 2, data.count(b"\xff\xda")
    return data[:end] + data[start:end] * (scans - found) + data[end:]


def webp_big_canvas(side: int = 12_000) -> bytes:
    """Return a ~140-byte animated WebP: two 1x1 frames on a side x side canvas."""
    frames = [
        Image.new("RGBA", (1, 1), (255, 0, 0, 255)),
        Image.new("RGBA", (1, 1), (0, 0, 255, 99)),
    ]
    buffer = io.BytesIO()
    frames[0].save(buffer, "WEBP", save_all=True, append_images=frames[1:], lossless=True)
    data = bytearray(buffer.getvalue())
    data[24:30] = (side - 1).to_bytes(3, "little") * 2  # VP8X canvas width - 1, height - 1
    return bytes(data)


def gif_of_frames(screen: int, frames: int, delay: int = 10, *, move: bool = True) -> bytes:
    """Return a GIF of `frames` one-pixel frames on a screen x screen logical screen."""
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", screen, screen, 0x80, 0, 0))
    out += bytes([0, 0, 0, 255, 255, 255])  # a two-colour global table
    for k in range(frames):
        out += b"\x21\xf9\x04" + struct.pack("<BHB", 0x04, delay, 0) + b"\x00"
        left = k % screen if move else 0
        out += b"\x2c" + struct.pack("<HHHHB", left, 0, 1, 1, 0) + b"\x02\x02\x44\x01\x00"
    return bytes(out + b";")


@pytest.fixture(scope="module")
def costly() -> dict[str, bytes]:
    """The decode-budget inputs, built before `no_decoding` patches Pillow's load()."""
    return {
        "scans-101": many_scans(512, 101),
        "scans-21": many_scans(512, 21),
        "webp-canvas": webp_big_canvas(),
        "gif-20x2000": gif_of_frames(2000, 20),
    }


def test_budget_builders_make_what_they_say() -> None:
    """The hostile builders give the scan count, canvas and frame count they claim."""
    assert many_scans(64, 150).count(b"\xff\xda") == 150
    assert Image.open(io.BytesIO(many_scans(64, 150))).size == (64, 64)
    with pytest.warns(Image.DecompressionBombWarning):  # 144 megapixels: Pillow warns
        webp = Image.open(io.BytesIO(webp_big_canvas()))
    frames = webp.n_frames  # type: ignore[attr-defined]  # Pillow's stubs omit n_frames
    assert (webp.size, frames, len(webp_big_canvas()) < 200) == ((12_000, 12_000), 2, True)
    gif = Image.open(io.BytesIO(gif_of_frames(4000, 20)))
    assert (gif.size, gif.n_frames) == ((4000, 4000), 20)  # type: ignore[attr-defined]


@pytest.mark.usefixtures("no_decoding")
def test_jpeg_with_too_many_scans_is_refused_undecoded(costly: dict[str, bytes]) -> None:
    """A JPEG with one scan repeated past max_scans is refused from its markers when decoded."""
    from mediaparts.imaging import FitSpec, fit_image

    data = costly["scans-101"]
    with pytest.raises(mp.MediaTooLarge, match="max_scans=100"):
        fit_image(data, "image/jpeg", FitSpec(accepted=("image/jpeg",), max_width=256))
    with pytest.raises(mp.MediaTooLarge, match="scans"):
        mp.from_upload(io.BytesIO(data))  # the strip's check would decode every scan
    # Bytes passed on untouched are never decoded, so they are not refused.
    assert mp.normalize(data, "openai").steps == ()


@pytest.mark.usefixtures("no_decoding")
def test_jpeg_scan_pixels_over_budget_are_refused_undecoded(costly: dict[str, bytes]) -> None:
    """Pixels x scans over max_scan_pixels is refused, however few the scans."""
    from mediaparts.imaging import DecodeBudget, FitSpec, fit_image

    budget = DecodeBudget(max_scan_pixels=512 * 512 * 20)
    spec = FitSpec(accepted=("image/png",), budget=budget)
    with pytest.raises(mp.MediaTooLarge, match=r"512x512 pixels x 21 scans.*max_scan_pixels"):
        fit_image(costly["scans-21"], "image/jpeg", spec)


def test_jpeg_with_real_scan_counts_is_fitted() -> None:
    """Progressive files with libjpeg's ten scans, or 100, are still fitted and stripped."""
    from mediaparts.imaging import FitSpec, fit_image

    for scans in (10, 100):
        data = many_scans(256, scans)
        fitted = fit_image(data, "image/jpeg", FitSpec(accepted=("image/jpeg",), max_width=128))
        assert (fitted.width, fitted.height) == (128, 128)
        assert mp.from_upload(io.BytesIO(data)).media_type == "image/jpeg"


@pytest.mark.usefixtures("no_decoding")
def test_tiny_file_claiming_a_huge_canvas_is_refused_undecoded(costly: dict[str, bytes]) -> None:
    """140 bytes of animated WebP on a 12000x12000 canvas: refused by pixels per byte."""
    data = costly["webp-canvas"]
    for provider in ("anthropic", "bedrock"):  # both take a still: the first frame is decoded
        with pytest.raises(mp.MediaTooLarge, match="per byte"):
            mp.normalize(data, provider)


@pytest.mark.usefixtures("no_decoding")
def test_animated_webp_canvas_decoded_bytes_are_refused_undecoded(
    costly: dict[str, bytes],
) -> None:
    """Three RGBA canvases of an animated WebP count against max_decoded_bytes."""
    from mediaparts.imaging import DecodeBudget, FitSpec, fit_image

    lenient = DecodeBudget(max_pixels_per_byte=1 << 40)  # the canvas check alone
    spec = FitSpec(accepted=("image/png",), animated_ok=False, budget=lenient)
    with pytest.raises(mp.MediaTooLarge, match="three animation canvases") as caught:
        fit_image(costly["webp-canvas"], "image/webp", spec)
    assert caught.value.size == 12_000 * 12_000 * 12
    assert caught.value.limit == 1 << 30


@pytest.mark.parametrize(
    "limits",
    [{}, {"max_frame_pixels": 50_000_000, "max_pixels_per_byte": 1 << 40}],
    ids=["defaults", "max_frame_pixels"],
)
def test_animation_frames_times_source_canvas_give_its_first_frame(
    costly: dict[str, bytes], limits: dict[str, int]
) -> None:
    """Frames x source canvas over the budget: the first frame, not every frame composited."""
    from mediaparts.imaging import FitSpec, fit_image

    options: dict[str, Any] = {}
    if limits:
        from mediaparts.imaging import DecodeBudget

        options["budget"] = DecodeBudget(**limits)
    # 20 frames x 4 megapixels, to be shrunk to 100x100 (the old check: 20 x 100 x 100 pixels).
    spec = FitSpec(accepted=("image/gif", "image/png"), max_width=100, **options)
    fitted = fit_image(costly["gif-20x2000"], "image/gif", spec)
    assert fitted.steps[0] == "first frame"
    assert (fitted.width, fitted.height) == (100, 100)


@pytest.mark.usefixtures("no_decoding")
def test_upload_frames_times_canvas_refused_undecoded(costly: dict[str, bytes]) -> None:
    """from_upload counts every frame at the canvas size before decoding any."""
    with pytest.raises(mp.MediaTooLarge, match="20 frames x 2000x2000 canvas"):
        mp.from_upload(io.BytesIO(costly["gif-20x2000"]))


def test_identical_frames_with_longest_delays_do_not_overflow() -> None:
    """Two identical 655.35 s GIF frames merge into one of at most 655.35 s, not an error."""
    from mediaparts.imaging import FitSpec, fit_image

    data = gif_of_frames(1, 2, delay=0xFFFF, move=False)
    assert len(data) < 90
    part = mp.from_upload(io.BytesIO(data))
    assert Image.open(io.BytesIO(part.data)).info["duration"] == 655_350
    with pytest.raises(mp.ProviderLimitError):  # was OverflowError from Pillow's GIF writer
        fit_image(data, "image/gif", FitSpec(accepted=("image/gif",), max_bytes=len(data) - 1))


_STILL_SCRIPT = """
import io, resource, struct, sys, zlib
from PIL import Image
from mediaparts.imaging import FitSpec, fit_image
side = 6000
def chunk(tag, body):
    return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))
row = b"\\x00" + bytes([200, 100, 50, 128]) * side
compressor = zlib.compressobj(1)  # a row at a time: building never holds the 144 MB
packed = b"".join([compressor.compress(row) for _ in range(side)] + [compressor.flush()])
data = (b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0))
        + chunk(b"IDAT", packed) + chunk(b"IEND", b""))
del packed
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
fitted = fit_image(data, "image/png", FitSpec(accepted=("image/png",), max_width=500))
assert (fitted.width, fitted.height) == (500, 500), fitted
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def test_large_still_is_held_at_full_size_once() -> None:
    """Fitting a 36-megapixel RGBA PNG grows peak RSS by well under two decoded copies."""
    # 6000 x 6000 RGBA decodes to 144 MB. Pillow's reduce() of RGBA premultiplies a full-size
    # copy first, and alpha was read through another; now one copy and small bands are held.
    if sys.platform != "linux":
        pytest.skip("ru_maxrss is in KiB on Linux only")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", _STILL_SCRIPT],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    grown_mb = int(done.stdout.split()[-1]) / 1024
    assert grown_mb < 1.5 * 144, f"peak RSS grew by {grown_mb:.0f} MB for 144 MB of pixels"


@pytest.mark.parametrize("mode", ["RGBA", "LA", "RGB", "L"])
def test_banded_reduce_equals_pillow_reduce(mode: str) -> None:
    """Reducing a band of rows at a time gives exactly Pillow's reduce() of the whole image."""
    from mediaparts.imaging._decode import reduce

    image = Image.effect_noise((701, 1283), 60).convert(mode)
    if "A" in mode:
        image.putalpha(Image.linear_gradient("L").resize(image.size))
    reduced, opaque = reduce(image, 3, track_alpha=True)
    assert reduced.tobytes() == image.reduce(3).tobytes()
    assert opaque is (False if "A" in mode else None)


@pytest.mark.parametrize(("subsampling", "per_pixel"), [(0, 4 + 6), (2, 4 + 3)])
def test_progressive_jpeg_coefficients_count_as_decoded_bytes(
    subsampling: int, per_pixel: int
) -> None:
    """A progressive JPEG's whole DCT coefficient buffer counts against max_decoded_bytes."""
    from mediaparts.imaging import DecodeBudget, FitSpec, fit_image

    buffer = io.BytesIO()
    Image.new("RGB", (512, 512), (9, 99, 199)).save(
        buffer, "JPEG", progressive=True, subsampling=subsampling
    )
    needed = 512 * 512 * per_pixel  # RGB output, plus 2 bytes per coefficient sample
    spec = FitSpec(accepted=("image/jpeg",), max_width=64)
    tight = FitSpec(
        accepted=spec.accepted, max_width=64, budget=DecodeBudget(max_decoded_bytes=needed - 1)
    )
    with pytest.raises(mp.MediaTooLarge, match="DCT coefficients") as caught:
        fit_image(buffer.getvalue(), "image/jpeg", tight)
    assert caught.value.size == needed
    assert fit_image(buffer.getvalue(), "image/jpeg", spec).width == 64
