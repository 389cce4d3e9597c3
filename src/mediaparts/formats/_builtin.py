"""The built-in image formats: one record each, registered in the order readers list them.

What each flag means is on `Format`. Facts with a source: Pillow's plugin names are those of
`PIL.Image.OPEN`/`SAVE` (Pillow 11); Pillow >= 11.2 reads AVIF itself, older pillow-heif
releases registered it as "HEIF"; Pillow's ICO and CUR readers decode the largest icon inside
`Image.open`; the modes are those Pillow's writers store without conversion.
"""

from __future__ import annotations

from mediaparts.formats._imageinfo import (
    bmp_size,
    gif_complete,
    gif_size,
    heif_size,
    ico_size,
    jpeg_complete,
    jpeg_size,
    strip_jpeg,
)
from mediaparts.formats._png import png_complete, png_size, strip_png
from mediaparts.formats._registry import Encoding, Format, Plugin, Sample, register
from mediaparts.formats._riff import strip_webp, webp_lossless, webp_size

__all__ = ["HEIF_PLUGIN"]

# The package whose opener Pillow needs for HEIC/HEIF (pillow-heif's README, read 2026-12:
# `from pillow_heif import register_heif_opener; register_heif_opener()`).
HEIF_PLUGIN = Plugin("pillow_heif", "register_heif_opener", "pillow-heif", "heif")

for _format in (
    Format(
        "image/png",
        "image",
        (".png", ".apng"),
        ("image/apng", "image/vnd.mozilla.apng", "image/x-png"),
        pillow=("PNG",),
        lossless=True,
        animatable=True,
        exif=True,
        alpha=True,
        write_rank=1,
        rewrite=True,
        # zlib's default level, not `optimize`: optimize made a 12 MP PNG's fit 5x slower than
        # the naive pipeline (2.5 s of 2.8) for a file 10% smaller; byte limits are met by
        # scaling, which saves far more.
        encoding=Encoding(),
        modes=frozenset({"1", "L", "LA", "I", "I;16", "P", "RGB", "RGBA"}),
        size=png_size,
        strip=strip_png,
        complete=png_complete,
        longest_frame=65_535,  # Pillow's APNG writer: a 16-bit delay_num over 1000 (APNG, fcTL)
        sample=Sample("png"),
    ),
    Format(
        "image/jpeg",
        "image",
        (".jpg", ".jpeg", ".jpe", ".jfif", ".pjpeg", ".pjp"),
        ("image/jpg", "image/pjpeg"),
        pillow=("JPEG", "MPO"),
        exif=True,
        write_rank=0,
        rewrite=True,
        # 4:2:0 subsampling and no `optimize`: Pillow's defaults, the fastest encode; the
        # quality ladder, not Huffman tuning, is what fits the byte limit.
        encoding=Encoding(lossless=None, quality="quality"),
        modes=frozenset({"RGB", "L", "CMYK"}),
        size=jpeg_size,
        strip=strip_jpeg,
        complete=jpeg_complete,
        sample=Sample("jpg", (("quality", 90),)),
    ),
    Format(
        "image/gif",
        "image",
        (".gif",),
        pillow=("GIF",),
        lossless=True,
        animatable=True,
        alpha=True,
        write_rank=3,
        encoding=Encoding(icc=False),  # Pillow's GIF writer stores no ICC profile
        modes=frozenset({"1", "L", "P"}),
        size=gif_size,
        complete=gif_complete,
        longest_frame=655_350,  # a 16-bit count of centiseconds (GIF89a, 23.c.vii)
        sample=Sample("gif"),
    ),
    Format(
        "image/webp",
        "image",
        (".webp",),
        pillow=("WEBP",),
        lossless_check=webp_lossless,
        animatable=True,
        exif=True,
        alpha=True,
        write_rank=2,
        rewrite=True,
        encoding=Encoding(lossless=(("lossless", True),), quality="quality"),
        modes=frozenset({"RGB", "RGBA"}),
        size=webp_size,
        strip=strip_webp,
        longest_frame=0xFFFFFF,  # 24 bits of milliseconds (WebP container spec, ANMF)
        sample=Sample("webp", (("quality", 80),)),
    ),
    Format(
        "image/bmp",
        "image",
        (".bmp", ".dib"),
        ("image/x-bmp", "image/x-ms-bmp", "image/x-windows-bmp"),
        pillow=("BMP", "DIB"),
        lossless=True,
        size=bmp_size,
        sample=Sample("bmp"),
    ),
    Format(
        "image/tiff",
        "image",
        (".tif", ".tiff"),
        ("image/x-tiff",),
        pillow=("TIFF",),
        lossless=True,
        exif=True,
        sample=Sample("tiff", (("compression", "tiff_deflate"),)),
    ),
    Format(
        "image/vnd.microsoft.icon",
        "image",
        (".ico",),
        ("image/x-icon", "image/ico", "image/icon"),
        short="ico",
        pillow=("ICO",),
        lossless=True,
        decoded_on_open=True,
        size=ico_size,
    ),
    Format(
        "image/x-win-bitmap",
        "image",
        (".cur",),
        pillow=("CUR",),
        lossless=True,
        decoded_on_open=True,
    ),
    Format(
        "image/heic",
        "image",
        (".heic", ".heics"),
        ("image/heic-sequence",),
        pillow=("HEIF",),
        plugin=HEIF_PLUGIN,
        size=heif_size,
    ),
    Format(
        "image/heif",
        "image",
        (".heif", ".heifs", ".hif"),
        ("image/heif-sequence",),
        pillow=("HEIF",),
        plugin=HEIF_PLUGIN,
        size=heif_size,
    ),
    Format(
        "image/avif",
        "image",
        (".avif", ".avifs"),
        ("image/avif-sequence",),
        pillow=("AVIF", "HEIF"),
        exif=True,
        size=heif_size,
        sample=Sample("avif", (("quality", 75),)),
    ),
    Format("image/jxl", "image", (".jxl",), ("image/x-jxl",)),
    Format("image/jp2", "image", (".jp2", ".jpg2")),
    Format("image/jpx", "image", (".jpx", ".jpf")),
    Format("image/jxr", "image", (".jxr", ".wdp", ".hdp"), ("image/vnd.ms-photo",)),
    Format(
        "image/vnd.adobe.photoshop",
        "image",
        (".psd", ".psb"),
        (
            "image/x-photoshop",
            "image/psd",
            "image/x-psd",
            "application/x-photoshop",
            "application/psd",
        ),
        short="psd",
        pillow=("PSD",),
        lossless=True,
    ),
    Format("image/x-icns", "image", (".icns",)),
    Format("image/x-canon-cr2", "image", (".cr2",)),
    Format("image/vnd.djvu", "image", (".djvu", ".djv")),
):
    register(_format)
