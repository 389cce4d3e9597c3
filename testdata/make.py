"""Generate the media fixtures in ``testdata/``.

Every file in this folder (except this script, ``README.md`` and ``.gitattributes``) is written
by this script with real encoders; nothing is downloaded or copied from elsewhere.

Usage, from the repository root::

    python testdata/make.py                # (re)make every fixture
    python testdata/make.py --show-ffmpeg  # print the ffmpeg commands that would run, then exit
    python testdata/make.py --no-ffmpeg    # only the Pillow / stdlib fixtures
    python testdata/make.py --rewrite      # write even files that are the same media
    python testdata/make.py --out DIR      # make them in another folder

Requirements: Pillow (with WebP, and AVIF for ``image.avif``), pillow-heif (for ``photo.heic``;
it is skipped with a message when missing) and, optionally, ``ffmpeg`` on ``PATH``.

* Files made with Pillow or the standard library are rewritten on every run.
* Files made with ffmpeg are rewritten only when ``ffmpeg`` is on ``PATH``; otherwise the
  committed copies are left alone and the script says so.

Output is deterministic: with the same library versions, two runs produce the same bytes (no
random seeds, no timestamps, fixed PDF dates and ZIP entry dates, ffmpeg in bitexact mode with a
single thread). Other builds of the encoders write other bytes for the same media; a file whose
new bytes are the same media as the copy already there (`same_media`) is left as it is, so a
rerun changes nothing unless a fixture really changed. The drawings mark orientation: a red
square at the top-left corner and a blue square at the top-right corner of the upright picture.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import wave
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

try:
    from PIL import Image, ImageChops, ImageDraw, ImageFont, features
except ImportError:  # run with a Python that lacks the project's dependencies
    raise SystemExit(
        "make.py needs Pillow: run it with the project's environment "
        "(.venv/bin/python testdata/make.py), or pip install -e '.[heif]' first"
    ) from None

OUT = Path(__file__).resolve().parent

RED = (255, 0, 0)
BLUE = (0, 0, 255)
FIXED_PDF_TIME = time.gmtime(1704067200)  # 2024-01-01T00:00:00Z
ZIP_DATE_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest date a ZIP entry can hold

Builder = Callable[[], bytes]


# ---------------------------------------------------------------------------------------------
# Drawing helpers
# ---------------------------------------------------------------------------------------------


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled default font (FreeType when available), so no system fonts are used."""
    return ImageFont.load_default(size=size)


def gradient(width: int, height: int) -> Image.Image:
    """A smooth RGB background: horizontal ramp in green, vertical ramp in blue, radial in red."""
    ramp = Image.linear_gradient("L")  # 256x256, black at the top, white at the bottom
    green = ramp.rotate(90).resize((width, height), Image.Resampling.BICUBIC)
    blue = ramp.resize((width, height), Image.Resampling.BICUBIC)
    red = Image.radial_gradient("L").resize((width, height), Image.Resampling.BICUBIC)
    # Keep the red channel dim so that the red marker stays unmistakable.
    red = red.point(lambda v: 40 + v // 4)
    return Image.merge("RGB", (red, green, blue))


def scene(width: int, height: int, label: str, phase: int = 0) -> Image.Image:
    """Draw an RGB test card of the given size.

    It has a gradient background, a grid, a circle, a triangle, a label and two corner markers:
    a pure red square at the top-left and a pure blue square at the top-right, each one eighth
    of the shorter side. ``phase`` moves the circle, for animation frames.
    """
    img = gradient(width, height)
    draw = ImageDraw.Draw(img)
    short = min(width, height)
    step = max(8, short // 4)
    for x in range(0, width, step):
        draw.line([(x, 0), (x, height)], fill=(255, 255, 255), width=1)
    for y in range(0, height, step):
        draw.line([(0, y), (width, y)], fill=(255, 255, 255), width=1)

    radius = short // 5
    cx = width // 3 + phase * width // 6
    cy = height // 2
    draw.ellipse(
        [cx - radius, cy - radius, cx + radius, cy + radius],
        fill=(250, 200, 40),
        outline=(0, 0, 0),
        width=max(1, short // 80),
    )
    draw.polygon(
        [
            (width * 3 // 4, height // 4),
            (width * 9 // 10, height * 3 // 4),
            (width * 3 // 5, height * 3 // 4),
        ],
        fill=(30, 160, 90),
        outline=(0, 0, 0),
    )
    if short >= 48:
        size = max(10, short // 12)
        draw.text((width // 2, height - size), label, fill=(0, 0, 0), font=font(size), anchor="ms")

    marker = max(2, short // 8)
    draw.rectangle([0, 0, marker - 1, marker - 1], fill=RED)
    draw.rectangle([width - marker, 0, width - 1, marker - 1], fill=BLUE)
    return img


def frames(width: int, height: int, name: str) -> list[Image.Image]:
    """Three clearly different frames for the animated formats."""
    return [scene(width, height, f"{name} {i + 1}/3", phase=i) for i in range(3)]


def paletted(img: Image.Image, colors: int) -> Image.Image:
    """Quantize to ``colors`` colours plus exact red and blue entries, then redraw the markers.

    Plain quantization would blend the small corner markers into their neighbours.
    """
    quantized = img.quantize(
        colors=colors - 2, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    palette = (quantized.getpalette() or [])[: (colors - 2) * 3]
    palette += [*RED, *BLUE]
    quantized.putpalette(palette)
    draw = ImageDraw.Draw(quantized)
    width, height = img.size
    marker = max(2, min(width, height) // 8)
    draw.rectangle([0, 0, marker - 1, marker - 1], fill=colors - 2)
    draw.rectangle([width - marker, 0, width - 1, marker - 1], fill=colors - 1)
    return quantized


def encode(img: Image.Image, fmt: str, **params: object) -> bytes:
    """Save ``img`` with Pillow into memory and return the bytes."""
    buf = io.BytesIO()
    img.save(buf, fmt, **params)
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# Images (Pillow)
# ---------------------------------------------------------------------------------------------


def photo_jpg() -> bytes:
    """640x480 stored pixels, EXIF Orientation=6: shown upright as 480x640."""
    upright = scene(480, 640, "photo.jpg")
    # Orientation 6 means "rotate 90 degrees clockwise to display", so store the upright picture
    # rotated 90 degrees counter-clockwise (PIL's ROTATE_90 is counter-clockwise).
    stored = upright.transpose(Image.Transpose.ROTATE_90)
    exif = Image.Exif()
    exif[0x010F] = "Mediaparts"  # Make
    exif[0x0110] = "Fixture Camera 1"  # Model
    exif[0x0112] = 6  # Orientation
    return encode(stored, "JPEG", quality=85, exif=exif.tobytes())


def upright_jpg() -> bytes:
    return encode(scene(320, 240, "upright.jpg"), "JPEG", quality=85)


def progressive_jpg() -> bytes:
    return encode(scene(320, 240, "progressive.jpg"), "JPEG", quality=80, progressive=True)


def cmyk_jpg() -> bytes:
    return encode(scene(160, 120, "cmyk.jpg").convert("CMYK"), "JPEG", quality=80)


def gray_jpg() -> bytes:
    return encode(scene(160, 120, "gray.jpg").convert("L"), "JPEG", quality=80)


def alpha_png() -> bytes:
    """256x256 RGBA: opaque centre fading to a fully transparent rim; the markers stay opaque."""
    img = scene(256, 256, "alpha.png").convert("RGBA")
    # radial_gradient is 0 at the centre, 181 at the edge midpoints, 255 at the corners: the
    # result is opaque within a radius of 60 px and fully transparent from 120 px outwards.
    radial = Image.radial_gradient("L")  # 256x256
    alpha = radial.point(lambda v: min(255, max(0, (170 - v) * 3)))
    draw = ImageDraw.Draw(alpha)
    marker = 256 // 8
    draw.rectangle([0, 0, marker - 1, marker - 1], fill=255)
    draw.rectangle([256 - marker, 0, 255, marker - 1], fill=255)
    img.putalpha(alpha)
    return encode(img, "PNG")


def palette_png() -> bytes:
    return encode(paletted(scene(160, 120, "palette.png"), 16), "PNG")


def gray16_png() -> bytes:
    """128x96, 16-bit grayscale with real 16-bit values (the low byte is not a copy)."""
    width, height = 128, 96
    base = scene(width, height, "gray16").convert("L")
    values = [
        (base.getpixel((x, y)) << 8) | ((x + y) & 0xFF)  # type: ignore[operator]
        for y in range(height)
        for x in range(width)
    ]
    data = struct.pack(f"<{len(values)}H", *values)
    return encode(Image.frombytes("I;16", (width, height), data), "PNG")


def still_gif() -> bytes:
    return encode(paletted(scene(160, 120, "still.gif"), 64), "GIF")


def animated_gif() -> bytes:
    first, *rest = [paletted(f, 64) for f in frames(160, 120, "gif")]
    return encode(first, "GIF", save_all=True, append_images=rest, duration=200, loop=0)


def animated_png() -> bytes:
    first, *rest = frames(160, 120, "apng")
    return encode(first, "PNG", save_all=True, append_images=rest, duration=200, loop=0)


def lossy_webp() -> bytes:
    return encode(scene(320, 240, "lossy.webp"), "WEBP", quality=75, method=4)


def lossless_webp() -> bytes:
    img = scene(160, 120, "lossless.webp").convert("RGBA")
    img.putalpha(Image.linear_gradient("L").rotate(90).resize(img.size).point(lambda v: 64 + v))
    return encode(img, "WEBP", lossless=True, quality=100, method=4)


def animated_webp() -> bytes:
    first, *rest = frames(160, 120, "webp")
    return encode(
        first, "WEBP", save_all=True, append_images=rest, duration=200, loop=0, quality=60
    )


def image_bmp() -> bytes:
    return encode(scene(96, 64, "bmp"), "BMP")


def image_tiff() -> bytes:
    # LZW with the horizontal-differencing predictor (tag 317 = 2): gradients compress well.
    img = scene(160, 120, "image.tiff")
    return encode(img, "TIFF", compression="tiff_lzw", tiffinfo={317: 2})


def icon_ico() -> bytes:
    return encode(scene(64, 64, "ico").convert("RGBA"), "ICO", sizes=[(16, 16), (32, 32), (48, 48)])


def photo_heic() -> bytes | None:
    try:
        import pillow_heif
    except ImportError:
        return None
    pillow_heif.register_heif_opener()
    return encode(scene(320, 240, "photo.heic"), "HEIF", quality=50)


def image_avif() -> bytes | None:
    img = scene(320, 240, "image.avif")
    if features.check("avif"):
        return encode(img, "AVIF", quality=50, speed=6, max_threads=1)
    try:
        import pillow_heif
    except ImportError:
        return None
    # pillow-heif dropped AVIF in 1.0; older versions can still encode it.
    register_avif = getattr(pillow_heif, "register_avif_opener", None)
    if register_avif is None or not pillow_heif.libheif_info().get("AVIF"):
        return None
    register_avif()
    return encode(img, "AVIF", quality=50)


def mislabelled_jpg() -> bytes:
    """PNG bytes under a .jpg name: the bytes, not the name, say what this is."""
    return encode(scene(64, 48, "png"), "PNG")


def document_pdf() -> bytes:
    """A 2-page PDF (A6 at 72 dpi); each page is an image with drawn text, no text layer."""
    pages: list[Image.Image] = []
    for number, lines in enumerate(
        [
            ["mediaparts test document", "", "Page 1 of 2", "", "Hello, PDF."],
            ["Page 2 of 2", "", "The quick brown fox", "jumps over the lazy dog."],
        ],
        start=1,
    ):
        page = Image.new("RGB", (298, 420), "white")
        draw = ImageDraw.Draw(page)
        draw.rectangle([0, 0, 23, 23], fill=RED)
        for row, line in enumerate(lines):
            draw.text((36, 48 + row * 24), line, fill="black", font=font(16))
        draw.ellipse([99, 260, 199, 360], outline=(30, 60, 200), width=4)
        draw.text((149, 400), f"- {number} -", fill="black", font=font(12), anchor="ms")
        pages.append(page)
    return encode(
        pages[0],
        "PDF",
        save_all=True,
        append_images=pages[1:],
        resolution=72.0,
        title="mediaparts test document",
        author="mediaparts",
        subject="testdata",
        creator="testdata/make.py",
        producer="Pillow",
        creationDate=FIXED_PDF_TIME,
        modDate=FIXED_PDF_TIME,
    )


# ---------------------------------------------------------------------------------------------
# Audio (stdlib)
# ---------------------------------------------------------------------------------------------


def tone_wav() -> bytes:
    """1.0 s, 16 kHz, mono, 16-bit PCM, 440 Hz sine at half amplitude."""
    rate, seconds, freq = 16_000, 1.0, 440.0
    samples = [
        round(0.5 * 32767 * math.sin(2 * math.pi * freq * n / rate))
        for n in range(int(rate * seconds))
    ]
    buf = io.BytesIO()
    with wave.open(buf, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(struct.pack(f"<{len(samples)}h", *samples))
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# Text and documents (stdlib)
# ---------------------------------------------------------------------------------------------


def utf8(text: str) -> Builder:
    return lambda: text.encode("utf-8")


NOTES = (
    "Notes for mediaparts\n"
    "====================\n"
    "\n"
    "Plain UTF-8 text with a few non-ASCII characters: café, naïve, Zürich, Ωmega, 東京, ✓.\n"
    "Second line — with an em dash.\n"
)

LATIN1 = (
    "Notes in ISO-8859-1 (Latin-1)\n"
    "Crème brûlée, façade, Ångström, smørrebrød, 25 °C, ½ price, «quotes».\n"
)

UTF16 = "Notes in UTF-16 (little-endian, with a byte order mark)\nGrüße aus Köln — 東京 ✓\n"


def notes_latin1() -> bytes:
    return LATIN1.encode("iso-8859-1")


def notes_utf16() -> bytes:
    # Spell the BOM and byte order out: the "utf-16" codec would use the platform's byte order.
    return b"\xff\xfe" + UTF16.encode("utf-16-le")


ROWS = [
    ["id", "name", "city", "note"],
    ["1", "Ada Lovelace", "London", "analyst, programmer"],
    ["2", "Alan Turing", "Wilmslow", 'said "hello"'],
    ["3", "Grace Hopper", "Arlington", "compiler"],
    ["4", "Zoë Müller", "Zürich", "non-ASCII"],
]


def table(delimiter: str) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    writer.writerows(ROWS)
    return buf.getvalue().encode("utf-8")


def data_json() -> bytes:
    doc = {
        "name": "mediaparts testdata",
        "version": 1,
        "tags": ["image", "audio", "video", "document"],
        "nested": {"ok": True, "ratio": 0.5, "none": None},
        "unicode": "café ✓",
    }
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


PAGE_HTML = """\
<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>mediaparts test page</title>
</head>
<body>
  <h1>mediaparts test page</h1>
  <p>A small HTML document with a <a href="https://example.com/">link</a> and a list:</p>
  <ul>
    <li>first</li>
    <li>second &amp; last</li>
  </ul>
</body>
</html>
"""

DRAWING_SVG = """\
<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48" viewBox="0 0 64 48">
  <title>mediaparts test drawing</title>
  <rect width="64" height="48" fill="#eeeeff"/>
  <rect x="0" y="0" width="8" height="8" fill="#ff0000"/>
  <rect x="56" y="0" width="8" height="8" fill="#0000ff"/>
  <circle cx="32" cy="22" r="14" fill="#3366cc" stroke="#000000"/>
  <text x="32" y="45" font-family="sans-serif" font-size="7" text-anchor="middle">mediaparts</text>
</svg>
"""

FEED_XML = """\
<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>mediaparts test feed</title>
    <link>https://example.com/</link>
    <description>A tiny RSS 2.0 document.</description>
    <item>
      <title>First item</title>
      <link>https://example.com/1</link>
    </item>
  </channel>
</rss>
"""

README_MD = """\
# mediaparts sample

Some *Markdown* with **emphasis**.

## A list

- one
- two
- three

## A link

See [the example site](https://example.com/).

## Code

```python
print("hello")
```
"""

GIF8_TXT = (
    "GIF8 is not an image, it is the start of this sentence.\n"
    "A sniffer that trusts four bytes would call this file a GIF.\n"
)
BM_TXT = "BM: a text file that starts like a bitmap.\nIt is plain UTF-8 text.\n"

CONTENT_TYPES = """\
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
  <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
  <Default Extension="xml" ContentType="application/xml"/>
  <Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>
"""  # noqa: E501

PACKAGE_RELS = """\
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>
"""  # noqa: E501

DOCUMENT_XML = """\
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
  <w:body>
    <w:p>
      <w:r><w:rPr><w:b/></w:rPr><w:t>mediaparts test document</w:t></w:r>
    </w:p>
    <w:p>
      <w:r><w:t xml:space="preserve">Hello, Word. Some non-ASCII text: café, Zürich.</w:t></w:r>
    </w:p>
    <w:sectPr>
      <w:pgSz w:w="11906" w:h="16838"/>
      <w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"
               w:header="708" w:footer="708" w:gutter="0"/>
    </w:sectPr>
  </w:body>
</w:document>
"""


def document_docx() -> bytes:
    """A minimal WordprocessingML package; fixed entry dates and attributes for determinism."""
    parts = [
        ("[Content_Types].xml", CONTENT_TYPES),
        ("_rels/.rels", PACKAGE_RELS),
        ("word/document.xml", DOCUMENT_XML),
    ]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        for name, text in parts:
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 0  # MS-DOS, as Word writes; the default depends on the platform
            info.external_attr = 0
            archive.writestr(info, text.encode("utf-8"), compresslevel=9)
    return buf.getvalue()


# --- office: Word, Excel and PowerPoint files made by their Python libraries, and an RTF ---

OFFICE_TIME = "2024-01-01T00:00:00Z"  # every date in docProps/core.xml
OFFICE_STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z?")


def office_library(module: str) -> object | None:
    """Import python-docx, openpyxl or python-pptx (the [office] extra), or None."""
    try:
        return __import__(module)
    except ImportError:
        print(f"  ({module} is not installed: pip install -e '.[office]')")
        return None


def repack(data: bytes) -> bytes:
    """Rewrite a package with fixed entry dates and creation times, so reruns are equal."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for entry in source.infolist():
            member = source.read(entry)
            if entry.filename == "docProps/core.xml":
                member = OFFICE_STAMP.sub(OFFICE_TIME.encode(), member)
            info = zipfile.ZipInfo(entry.filename, date_time=ZIP_DATE_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 0
            info.external_attr = 0
            target.writestr(info, member, compresslevel=9)
    return out.getvalue()


def report_docx() -> bytes | None:
    """A Word report: a title heading, paragraphs with bold and italic, lists, a table."""
    if office_library("docx") is None:
        return None
    import docx

    document = docx.Document()
    document.core_properties.author = "mediaparts testdata"
    document.core_properties.last_modified_by = "mediaparts testdata"
    document.core_properties.revision = 1
    document.add_heading("Quarterly report", level=1)
    intro = document.add_paragraph("Sales grew in every region. ")
    intro.add_run("Revenue").bold = True
    intro.add_run(" rose by ")
    intro.add_run("12 %").italic = True
    intro.add_run(" over the quarter.")
    document.add_heading("Highlights", level=2)
    for item in ("New office in Zürich", "Two products launched"):
        document.add_paragraph(item, style="List Bullet")
    for item in ("Hire a team", "Open a second office"):
        document.add_paragraph(item, style="List Number")
    document.add_heading("Figures", level=2)
    grid = document.add_table(rows=3, cols=3)
    for row, values in zip(
        grid.rows,
        [("Region", "Q1", "Q2"), ("North", "120", "135"), ("South", "98", "110")],
        strict=True,
    ):
        for cell, value in zip(row.cells, values, strict=True):
            cell.text = value
    document.add_paragraph("Prepared by the finance team.")
    buffer = io.BytesIO()
    document.save(buffer)
    return repack(buffer.getvalue())


def sheet_xlsx() -> bytes | None:
    """An Excel workbook: two sheets of numbers, text and dates (one formula, no cached value)."""
    if office_library("openpyxl") is None:
        return None
    import datetime

    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.properties.creator = "mediaparts testdata"
    sales = workbook.active
    sales.title = "Sales"
    sales.append(["Date", "Region", "Units", "Price"])
    sales.append([datetime.date(2024, 1, 15), "North", 120, 9.5])
    sales.append([datetime.date(2024, 2, 15), "South", 98, 10.25])
    sales.append([datetime.datetime(2024, 3, 15, 9, 30), "East | West", 75, 11])
    people = workbook.create_sheet("People")
    people.append(["Name", "Joined", "Active"])
    people.append(["Ada Lovelace", datetime.date(2023, 12, 1), True])
    people.append(["Alan Turing", None, False])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return repack(buffer.getvalue())


def slides_pptx() -> bytes | None:
    """A PowerPoint deck: a title slide with notes, and a slide of bullets and a table."""
    if office_library("pptx") is None:
        return None
    import pptx
    from pptx.util import Inches

    deck = pptx.Presentation()
    deck.core_properties.author = "mediaparts testdata"
    deck.core_properties.last_modified_by = "mediaparts testdata"
    deck.core_properties.revision = 1
    first = deck.slides.add_slide(deck.slide_layouts[0])
    first.shapes.title.text = "Project kickoff"
    first.placeholders[1].text = "Spring 2024"
    first.notes_slide.notes_text_frame.text = "Welcome everyone; introduce the team."
    second = deck.slides.add_slide(deck.slide_layouts[5])  # title only
    second.shapes.title.text = "Plan"
    box = second.shapes.add_textbox(Inches(0.5), Inches(1.5), Inches(4), Inches(2))
    frame = box.text_frame
    frame.text = "Goals for the quarter:"
    for text, level in (("Ship the beta", 0), ("Fix the top ten bugs", 1), ("Hire", 0)):
        paragraph = frame.add_paragraph()
        paragraph.text = text
        paragraph.level = level
        properties = paragraph._p.get_or_add_pPr()
        bullet = properties.makeelement(
            "{http://schemas.openxmlformats.org/drawingml/2006/main}buChar", {"char": "•"}
        )
        properties.append(bullet)
    shape = second.shapes.add_table(3, 2, Inches(5), Inches(1.5), Inches(4), Inches(1.5))
    milestones = [("Milestone", "Date"), ("Beta", "May"), ("GA", "July")]
    for row, values in zip(shape.table.rows, milestones, strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            cell.text = value
    buffer = io.BytesIO()
    deck.save(buffer)
    return repack(buffer.getvalue())


MEMO_RTF = (
    r"{\rtf1\ansi\ansicpg1252\deff0"
    r"{\fonttbl{\f0\fswiss\fcharset0 Arial;}}"
    r"{\info{\title Memo}{\author mediaparts testdata}}"
    "\r\n"
    r"\f0\fs24 {\b Memo:} the meeting moves to Z\u252?rich.\par"
    "\r\n"
    r"Bring the caf\'e9 order and {\i the slides}.\par"
    "\r\n}"
)


def memo_rtf() -> bytes:
    """A hand-written RTF: a bold phrase, a \\u escape, a \\' escape, two paragraphs."""
    return MEMO_RTF.encode("ascii")


# --- PDF transforms (issue 15) ---
# PDFs written object by object (no library), with a real text layer in Helvetica, one of the
# 14 standard fonts every PDF reader has built in, and uncompressed content streams, so the
# bytes depend on nothing but this script.

A4 = (595, 842)  # points (1/72 inch)


def pdf_file(objects: Sequence[bytes]) -> bytes:
    """A PDF 1.7 file of `objects` (object 1 is the catalog), with a cross-reference table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def pdf_stream(content: bytes) -> bytes:
    return b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content)


def pdf_text(lines: Sequence[tuple[int, str]], *, top: int = 760) -> bytes:
    """A content stream writing each (size, text) line in Helvetica, 36 pt from the left."""
    ops = [b"BT", b"36 %d Td" % top]
    for size, text in lines:
        escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        ops += [
            b"/F1 %d Tf" % size,
            b"(%s) Tj" % escaped.encode("latin-1"),
            b"0 -%d Td" % (size + 8),
        ]
    ops.append(b"ET")
    return b"\n".join(ops)


HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
TEXT_PDF_LINES = [
    (20, "mediaparts text layer"),
    (12, ""),
    (12, "This page is text, not a picture of text:"),
    (12, "a PDF reader can select and extract every word of it."),
    (12, "The quick brown fox jumps over the lazy dog."),
]


def text_pdf() -> bytes:
    """A 1-page A4 PDF whose text is real text (Helvetica), not an image."""
    return pdf_file(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /Font << /F1 5 0 R"
            b" >> >> /Contents 4 0 R >>" % A4,
            pdf_stream(pdf_text(TEXT_PDF_LINES)),
            HELVETICA,
        ]
    )


LONG_PDF_PAGES = 300
LONG_PDF_BRANCH = 100  # pages under each of the root's three /Pages nodes


def pages300_pdf() -> bytes:
    """A 300-page A4 PDF, each page saying "Page N of 300" in text; a two-level page tree."""
    nodes = LONG_PDF_PAGES // LONG_PDF_BRANCH
    first_page = 4 + nodes  # objects: 1 catalog, 2 root, 3 font, 4.. nodes, then page+content
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>"
        % (b" ".join(b"%d 0 R" % (4 + n) for n in range(nodes)), LONG_PDF_PAGES),
        HELVETICA,
    ]
    for node in range(nodes):
        kids = range(node * LONG_PDF_BRANCH, (node + 1) * LONG_PDF_BRANCH)
        refs = b" ".join(b"%d 0 R" % (first_page + 2 * page) for page in kids)
        objects.append(b"<< /Type /Pages /Parent 2 0 R /Kids [%s] /Count %d >>" % (refs, len(kids)))
    for page in range(LONG_PDF_PAGES):
        number = first_page + 2 * page
        objects.append(
            b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %d %d] /Resources << /Font << /F1 3 0 R"
            b" >> >> /Contents %d 0 R >>" % (4 + page // LONG_PDF_BRANCH, *A4, number + 1)
        )
        text = [(36, f"Page {page + 1} of {LONG_PDF_PAGES}"), (12, "mediaparts long document")]
        objects.append(pdf_stream(pdf_text(text)))
    return pdf_file(objects)


# --- SVG transforms (issue 15) ---

# A diagram with a viewBox and no width or height (the renderer sizes it from the viewBox),
# no background (transparent outside the shapes), and shapes at known places: a red box at
# (20, 20)-(120, 80) and a blue one at (280, 20)-(380, 80) in viewBox units; a box reused
# through <use>, a gradient, an arrow with a marker, and text.
DIAGRAM_SVG = """\
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     viewBox="0 0 400 300">
  <title>mediaparts test diagram</title>
  <defs>
    <linearGradient id="fade" x1="0" x2="1" y1="0" y2="0">
      <stop offset="0" stop-color="#33cc66"/>
      <stop offset="1" stop-color="#116633"/>
    </linearGradient>
    <marker id="head" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8"
            orient="auto">
      <path d="M0,0 L10,5 L0,10 z" fill="#333333"/>
    </marker>
    <g id="box"><rect width="100" height="60" rx="8" stroke="#000000" stroke-width="2"/></g>
  </defs>
  <use xlink:href="#box" x="20" y="20" fill="#ff0000"/>
  <use href="#box" x="280" y="20" fill="#0000ff"/>
  <rect x="150" y="200" width="100" height="60" rx="8" fill="url(#fade)"/>
  <path d="M120,50 L278,50" stroke="#333333" stroke-width="3" marker-end="url(#head)"/>
  <path d="M70,82 L70,230 L148,230" fill="none" stroke="#333333" stroke-width="3"
        marker-end="url(#head)"/>
  <text x="70" y="56" font-family="sans-serif" font-size="14" text-anchor="middle"
        fill="#ffffff">parts</text>
  <text x="330" y="56" font-family="sans-serif" font-size="14" text-anchor="middle"
        fill="#ffffff">PNG</text>
  <text x="200" y="235" font-family="sans-serif" font-size="14" text-anchor="middle">provider</text>
</svg>
"""


# ---------------------------------------------------------------------------------------------
# The Pillow / stdlib fixtures, in the order they are written
# ---------------------------------------------------------------------------------------------

BUILDERS: dict[str, Callable[[], bytes | None]] = {
    "photo.jpg": photo_jpg,
    "upright.jpg": upright_jpg,
    "progressive.jpg": progressive_jpg,
    "cmyk.jpg": cmyk_jpg,
    "gray.jpg": gray_jpg,
    "alpha.png": alpha_png,
    "palette.png": palette_png,
    "gray16.png": gray16_png,
    "still.gif": still_gif,
    "animated.gif": animated_gif,
    "animated.png": animated_png,
    "lossy.webp": lossy_webp,
    "lossless.webp": lossless_webp,
    "animated.webp": animated_webp,
    "image.bmp": image_bmp,
    "image.tiff": image_tiff,
    "icon.ico": icon_ico,
    "photo.heic": photo_heic,
    "image.avif": image_avif,
    "mislabelled.jpg": mislabelled_jpg,
    "document.pdf": document_pdf,
    "tone.wav": tone_wav,
    "gif8.txt": utf8(GIF8_TXT),
    "bm.txt": utf8(BM_TXT),
    "notes.txt": utf8(NOTES),
    "notes-latin1.txt": notes_latin1,
    "notes-utf16.txt": notes_utf16,
    "data.csv": lambda: table(","),
    "data.tsv": lambda: table("\t"),
    "data.json": data_json,
    "page.html": utf8(PAGE_HTML),
    "drawing.svg": utf8(DRAWING_SVG),
    "feed.xml": utf8(FEED_XML),
    "readme.md": utf8(README_MD),
    "document.docx": document_docx,
    "report.docx": report_docx,
    "sheet.xlsx": sheet_xlsx,
    "slides.pptx": slides_pptx,
    "memo.rtf": memo_rtf,
    "text.pdf": text_pdf,
    "300-pages.pdf": pages300_pdf,
    "diagram.svg": utf8(DIAGRAM_SVG),
}


# ---------------------------------------------------------------------------------------------
# ffmpeg fixtures
# ---------------------------------------------------------------------------------------------

BITEXACT = ["-fflags", "+bitexact", "-map_metadata", "-1", "-threads", "1"]
AUDIO_BITEXACT = ["-flags:a", "+bitexact"]
VIDEO_BITEXACT = ["-flags:v", "+bitexact"]


def sine(rate: int) -> list[str]:
    """A 1 s, 440 Hz mono sine from lavfi at the given sample rate."""
    return ["-f", "lavfi", "-i", f"sine=frequency=440:sample_rate={rate}:duration=1"]


# 1 s of testsrc2 at 160x120, 10 frames per second.
TESTSRC = ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=1"]


@dataclass(frozen=True)
class FfmpegJob:
    """One ffmpeg run: the arguments between ``ffmpeg`` and the output file name."""

    name: str
    args: tuple[str, ...]

    def command(self) -> list[str]:
        return ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", *self.args, self.name]


def available_encoders() -> set[str]:
    """Names of the encoders this ffmpeg build has (``ffmpeg -encoders``)."""
    listing = subprocess.run(
        ["ffmpeg", "-hide_banner", "-encoders"], capture_output=True, text=True, check=True
    ).stdout
    names: set[str] = set()
    for line in listing.splitlines():
        fields = line.split()
        # Rows look like " V....D libx264   description"; the legend above them has "=".
        if len(fields) >= 2 and len(fields[0]) == 6 and "=" not in line:
            names.add(fields[1])
    return names


def first_of(encoders: set[str], *candidates: str) -> str | None:
    return next((c for c in candidates if c in encoders), None)


def ffmpeg_jobs(encoders: set[str]) -> tuple[list[FfmpegJob], list[str]]:
    """The jobs this ffmpeg can run, with codecs chosen from ``encoders``, and skip messages."""
    jobs: list[FfmpegJob] = []
    skipped: list[str] = []

    def audio(name: str, rate: int, *codec: str) -> None:
        jobs.append(FfmpegJob(name, (*sine(rate), *codec, *BITEXACT, *AUDIO_BITEXACT)))

    def video(name: str, *codec: str) -> None:
        args = (*TESTSRC, *sine(16_000), *codec, *BITEXACT, *VIDEO_BITEXACT, *AUDIO_BITEXACT)
        jobs.append(FfmpegJob(name, args))

    mp3 = first_of(encoders, "libmp3lame", "libshine")
    if mp3:
        mp3_args = ("-c:a", mp3, "-b:a", "32k")
        audio("tone.mp3", 44_100, *mp3_args, "-id3v2_version", "0", "-write_id3v1", "0")
        audio(
            "tagged.mp3",
            44_100,
            *mp3_args,
            "-id3v2_version",
            "3",
            "-metadata",
            "title=A440 test tone",
            "-metadata",
            "artist=mediaparts testdata",
        )
    else:
        skipped += ["tone.mp3", "tagged.mp3"]

    vorbis = "libvorbis" in encoders
    opus = "libopus" in encoders
    if vorbis:
        audio("tone.ogg", 16_000, "-c:a", "libvorbis", "-q:a", "0")
    else:
        audio("tone.ogg", 16_000, "-c:a", "flac", "-sample_fmt", "s16")
    if opus:
        audio("tone.opus", 16_000, "-c:a", "libopus", "-b:a", "24k")
    else:
        skipped.append("tone.opus")
    audio("tone.flac", 16_000, "-c:a", "flac", "-sample_fmt", "s16")
    audio("tone.m4a", 16_000, "-c:a", "aac", "-b:a", "32k")
    audio("tone.aac", 16_000, "-c:a", "aac", "-b:a", "32k", "-f", "adts")
    audio("tone.aiff", 8_000, "-c:a", "pcm_s16be")
    webm_audio = ("-c:a", "libopus", "-b:a", "24k") if opus else ("-c:a", "libvorbis", "-q:a", "0")
    if opus or vorbis:
        audio("tone.webm", 16_000, *webm_audio)
    else:
        skipped.append("tone.webm")

    h264 = "libx264" in encoders
    avc = (
        ("-c:v", "libx264", "-preset", "medium", "-crf", "32", "-pix_fmt", "yuv420p")
        if h264
        else ("-c:v", "mpeg4", "-q:v", "8", "-pix_fmt", "yuv420p")
    )
    aac = ("-c:a", "aac", "-b:a", "32k")
    video("clip.mp4", *avc, *aac)
    video("clip.mov", *avc, *aac)
    video("clip.mkv", *avc, *(("-c:a", "libopus", "-b:a", "24k") if opus else aac))
    vpx = first_of(encoders, "libvpx-vp9", "libvpx")
    if vpx and (opus or vorbis):
        vpx_args: tuple[str, ...] = (
            "-c:v",
            vpx,
            "-b:v",
            "0",
            "-crf",
            "40",
            "-deadline",
            "good",
            "-cpu-used",
            "4",
        )
        if vpx == "libvpx-vp9":
            vpx_args += ("-row-mt", "0")
        video("clip.webm", *vpx_args, *webm_audio)
    else:
        skipped.append("clip.webm")
    avi_audio = ("-c:a", mp3, "-b:a", "32k") if mp3 else ("-c:a", "pcm_s16le")
    video("clip.avi", "-c:v", "mpeg4", "-q:v", "12", *avi_audio)
    jobs += video_transform_jobs(h264)
    jobs += audio_conversion_jobs()
    return jobs, skipped


# --- video transforms (issue 15) ---

# Four scenes of unequal length (1.2, 0.6, 1.4 and 0.8 s) at 160x120, 10 fps: the cuts fall at
# 1.2, 1.8 and 3.2 s, where evenly spaced frames would not find them all.
SCENES = (
    "testsrc2=size=160x120:rate=10:duration=1.2[a];"
    "smptebars=size=160x120:rate=10:duration=0.6[b];"
    "mandelbrot=size=160x120:rate=10,trim=duration=1.4[c];"
    "testsrc=size=160x120:rate=10:duration=0.8[d];"
    "[a][b][c][d]concat=n=4:v=1:a=0,format=yuv420p[v]"
)


def video_transform_jobs(h264: bool) -> list[FfmpegJob]:
    """`clip.3gp` (a sixth video container, with a codec MP4 fitting must transcode) and
    `scenes.mp4` (key frames at the scene cuts, and one a second inside the scenes)."""
    phone = ("-f", "lavfi", "-i", "testsrc2=size=176x144:rate=10:duration=1", *sine(16_000))
    h263 = ("-c:v", "h263", "-q:v", "10", "-c:a", "aac", "-b:a", "32k")
    bitexact = (*BITEXACT, *VIDEO_BITEXACT)
    # x264 starts a key frame at each cut (its scenecut) and at least every second (-g 10).
    codec = ("-c:v", "libx264", "-preset", "medium", "-crf", "30") if h264 else ("-c:v", "mpeg4")
    scenes = ("-filter_complex", SCENES, "-map", "[v]", *codec, "-g", "10", "-pix_fmt", "yuv420p")
    return [
        FfmpegJob("clip.3gp", (*phone, *h263, *bitexact, *AUDIO_BITEXACT)),
        FfmpegJob("scenes.mp4", (*scenes, *bitexact)),
    ]


# --- audio transforms (converting/_audio) ---

# Two chirps, one per channel (200 Hz rising to 2 kHz on the left, falling on the right), each
# swelling at a syllable's pace (3-4 Hz): a stereo, 44.1 kHz input with a speech-like band for
# the downmix and resample steps of the audio ladder.
VOICE = (
    "aevalsrc=exprs="
    "0.4*sin(2*PI*(200*t+300*t*t))*(0.6+0.4*sin(2*PI*4*t))|"
    "0.4*sin(2*PI*(2000*t-300*t*t))*(0.6+0.4*sin(2*PI*3*t))"
    ":s=44100:d=3"
)


def audio_conversion_jobs() -> list[FfmpegJob]:
    """voice.m4a: 3 s of stereo 44.1 kHz AAC-LC at 96 kb/s in an M4A (ipod muxer)."""
    args = ("-f", "lavfi", "-i", VOICE, "-c:a", "aac", "-b:a", "96k", *BITEXACT, *AUDIO_BITEXACT)
    return [FfmpegJob("voice.m4a", args)]


# ---------------------------------------------------------------------------------------------
# Same media, other bytes
# ---------------------------------------------------------------------------------------------
#
# Another build of libjpeg-turbo, libwebp, x264, libvpx, LAME or ffmpeg itself writes other bytes
# for the same picture or sound (13 of the ffmpeg files differ between ffmpeg 5.1 and 9.0). The
# tests pin some fixtures' bytes (golden payloads carry their hashes), so a fixture whose new
# bytes are the same media as the committed copy is left as it is: rerunning this script with
# other encoder builds changes nothing. `--rewrite` writes every file regardless.

# How far two decodings of one picture may drift apart: the mean difference in any 8x8 block
# (0-255, the largest band). Another JPEG or WebP build moves pixels by a level or two, spread
# out; a changed word or marker moves one block by tens.
BLOCK_TOLERANCE = 12
PDF_STREAM = re.compile(rb"stream\r?\n(.*?)\r?\nendstream", re.S)


def picture_traits(image: Image.Image) -> tuple[object, ...]:
    """What a fixture is for besides its pixels: the EXIF orientation, the ICC profile's
    presence, progressive JPEG, the loop count and the current frame's duration."""
    return (
        image.getexif().get(0x0112),
        bool(image.info.get("icc_profile")),
        bool(image.info.get("progressive") or image.info.get("progression")),
        image.info.get("loop"),
        image.info.get("duration"),
    )


def same_picture(old: bytes, new: bytes) -> bool:
    """Whether Pillow reads both as the same format, size, mode, frames and `picture_traits`,
    with pixels within `BLOCK_TOLERANCE`."""
    try:
        with Image.open(io.BytesIO(old)) as a, Image.open(io.BytesIO(new)) as b:
            frames = getattr(a, "n_frames", 1)
            if (a.format, a.size, a.mode, frames) != (
                b.format,
                b.size,
                b.mode,
                getattr(b, "n_frames", 1),
            ):
                return False
            for index in range(frames):
                a.seek(index)
                b.seek(index)
                if picture_traits(a) != picture_traits(b):
                    return False
                diff = ImageChops.difference(a.convert("RGBA"), b.convert("RGBA"))
                cells = (max(1, a.width // 8), max(1, a.height // 8))
                # Band by band: an RGBA resize would weigh colour by the difference's alpha.
                for band in diff.split():
                    if band.resize(cells, Image.BOX).getextrema()[1] > BLOCK_TOLERANCE:
                        return False
    except (OSError, ValueError, EOFError, Image.DecompressionBombError):
        return False
    return True


# What another JPEG encoder changes in a PDF besides its pictures: their lengths, and so the
# cross-reference table's offsets and where it starts.
PDF_LENGTH = re.compile(rb"/Length \d+")
PDF_XREF_ROW = re.compile(rb"\d{10} \d{5} [nf]")
PDF_START = re.compile(rb"startxref\s+\d+")


def same_pdf(old: bytes, new: bytes) -> bool:
    """Whether two PDFs differ only in their embedded JPEGs (the same pictures) and the
    lengths and offsets those change."""
    old_streams, new_streams = PDF_STREAM.findall(old), PDF_STREAM.findall(new)
    if len(old_streams) != len(new_streams):
        return False
    skeleton = []
    for data in (old, new):
        data = PDF_STREAM.sub(b"stream", data)
        data = PDF_START.sub(b"startxref", PDF_XREF_ROW.sub(b"", PDF_LENGTH.sub(b"/Length", data)))
        skeleton.append(data)
    if skeleton[0] != skeleton[1]:
        return False
    return all(a == b or same_picture(a, b) for a, b in zip(old_streams, new_streams, strict=True))


# What a library's version changes in an Office package besides the document: the
# application's name and version in docProps/app.xml.
OFFICE_SUFFIXES = (".docx", ".xlsx", ".pptx")


def same_package(old: bytes, new: bytes) -> bool:
    """Whether two Office packages hold the same entries, in the same order, with the same
    bytes in each but docProps/app.xml."""
    try:
        with zipfile.ZipFile(io.BytesIO(old)) as a, zipfile.ZipFile(io.BytesIO(new)) as b:
            if a.namelist() != b.namelist():
                return False
            return all(
                name == "docProps/app.xml" or a.read(name) == b.read(name) for name in a.namelist()
            )
    except (zipfile.BadZipFile, OSError, ValueError):
        return False


def ffmpeg_read(data: bytes, suffix: str, *output: str) -> subprocess.CompletedProcess[bytes]:
    """Run ffmpeg on `data` (as a file named with `suffix`) with the given output arguments."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"probe{suffix}"
        path.write_bytes(data)
        command = ["ffmpeg", "-hide_banner", "-nostdin", "-i", str(path), *output]
        return subprocess.run(command, capture_output=True, check=False)


# Tags that name the encoder build rather than the media (compared in lower case), and
# Matroska's per-stream DURATION, which another muxer rounds otherwise (the duration is
# compared to 0.1 s already).
BUILD_TAGS = {"encoder", "vendor_id", "duration"}


def describe_with_ffmpeg(data: bytes, suffix: str) -> tuple[str, ...]:
    """What ffmpeg says a file holds: its container, duration (to 0.1 s) and each stream's
    kind, codec, size, rate and channels, and the tags (not the encoder's), without bit
    rates, start times or ids."""
    # With no output file ffmpeg exits 1 after printing what it read.
    report = ffmpeg_read(data, suffix).stderr.decode("utf-8", "replace")
    facts: list[str] = []
    for line in map(str.strip, report.splitlines()):
        if line.startswith("Input #"):
            facts.append(line.rsplit(", from", 1)[0])  # the container, not the path
        elif match := re.match(r"Duration: (\d+):(\d+):([\d.]+)", line):
            hours, minutes, seconds = match.groups()
            facts.append(f"duration {int(hours) * 3600 + int(minutes) * 60 + float(seconds):.1f}")
        elif (tag := re.match(r"([\w ]+?)\s*: (.*)", line)) and tag[1].lower() not in BUILD_TAGS:
            facts.append(f"tag {tag[1]}={tag[2]}")  # title, artist, brands, handler names
        elif line.startswith("Stream #") and (match := re.search(r"(Audio|Video): (\w+)", line)):
            shape = re.findall(r"\b\d+x\d+\b|\d+ Hz|\bmono\b|\bstereo\b|[\d.]+ fps", line)
            facts.append(" ".join([*match.groups(), *shape]))
    return tuple(facts)


# Small decodings to compare: the first audio stream as 8 kHz mono 16-bit samples, the first
# video stream's frames as 40x30 grey pictures.
AUDIO_SAMPLES = ("-map", "0:a:0", "-ac", "1", "-ar", "8000", "-f", "s16le", "-")
VIDEO_FRAMES = ("-map", "0:v:0", "-vf", "scale=40:30", "-pix_fmt", "gray", "-f", "rawvideo", "-")


def same_signal(old: bytes, new: bytes, *, scale: float, shift: int = 0) -> bool:
    """Whether two decodings agree: the same length (to 2 %) and a root mean square difference
    under 10 % of `scale`, once one is moved by up to `shift` samples against the other (an
    encoder's start padding moves a sound by a few milliseconds)."""
    if not old or abs(len(old) - len(new)) > len(old) // 50:
        return old == new
    fmt = "<h" if scale > 255 else "B"
    size = struct.calcsize(fmt)
    a = [v for (v,) in struct.iter_unpack(fmt, old[: len(old) // size * size])]
    b = [v for (v,) in struct.iter_unpack(fmt, new[: len(new) // size * size])]
    inner = range(shift, min(len(a), len(b)) - shift)

    def rms(lag: int, step: int = 1) -> float:
        picked = inner[::step]
        return math.sqrt(sum((a[i] - b[i + lag]) ** 2 for i in picked) / max(1, len(picked)))

    # The lag from every 8th sample, then the difference at that lag from all of them.
    lag = min(range(-shift, shift + 1), key=lambda lag: rms(lag, 8))
    return rms(lag) < 0.1 * scale


def same_media(name: str, old: bytes, new: bytes, *, ffmpeg: bool) -> bool:
    """Whether `new` holds the same picture, document or sound as the committed `old`."""
    suffix = Path(name).suffix
    if not ffmpeg:
        if suffix in OFFICE_SUFFIXES:
            return same_package(old, new)
        return same_pdf(old, new) if suffix == ".pdf" else same_picture(old, new)
    described = describe_with_ffmpeg(old, suffix)
    if not any(fact.startswith(("Audio", "Video")) for fact in described):
        return False
    if described != describe_with_ffmpeg(new, suffix):
        return False
    for kind, output, scale, shift in (
        ("Audio", AUDIO_SAMPLES, 16384.0, 160),  # a half-scale sine; up to 20 ms at 8 kHz
        ("Video", VIDEO_FRAMES, 255.0, 0),
    ):
        if any(fact.startswith(kind) for fact in described):
            first, second = ffmpeg_read(old, suffix, *output), ffmpeg_read(new, suffix, *output)
            if not same_signal(first.stdout, second.stdout, scale=scale, shift=shift):
                return False
    return True


# ---------------------------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------------------------


def write(folder: Path, name: str, data: bytes, *, rewrite: bool, ffmpeg: bool = False) -> None:
    """Write one fixture, unless the copy there already holds the same bytes or the same media."""
    target = folder / name
    old = target.read_bytes() if target.exists() else None
    if old == data:
        print(f"  same    {name:<18} {len(data):>7} bytes")
    elif old is not None and not rewrite and same_media(name, old, data, ffmpeg=ffmpeg):
        print(
            f"  kept    {name:<18} {len(old):>7} bytes (this build writes other bytes, same media)"
        )
    else:
        target.write_bytes(data)
        print(f"  wrote   {name:<18} {len(data):>7} bytes")


def make_python_fixtures(folder: Path, *, rewrite: bool) -> list[str]:
    """Write every Pillow / stdlib fixture; return the names that could not be made."""
    missing: list[str] = []
    for name, build in BUILDERS.items():
        data = build()
        if data is None:
            print(f"  skipped {name}: no encoder for it here (left as it is)")
            missing.append(name)
        else:
            write(folder, name, data, rewrite=rewrite)
    return missing


def make_ffmpeg_fixtures(folder: Path, jobs: Sequence[FfmpegJob], *, rewrite: bool) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        for job in jobs:
            subprocess.run(job.command(), cwd=scratch, check=True)
            data = (Path(scratch) / job.name).read_bytes()
            write(folder, job.name, data, rewrite=rewrite, ffmpeg=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--show-ffmpeg", action="store_true", help="print ffmpeg commands, exit")
    parser.add_argument("--no-ffmpeg", action="store_true", help="skip the ffmpeg fixtures")
    parser.add_argument(
        "--rewrite", action="store_true", help="write every file, even when it is the same media"
    )
    parser.add_argument("--out", type=Path, default=OUT, help="the folder to write (testdata/)")
    options = parser.parse_args(argv)

    ffmpeg = None if options.no_ffmpeg else shutil.which("ffmpeg")
    if options.show_ffmpeg:
        if not ffmpeg:
            print("ffmpeg is not on PATH", file=sys.stderr)
            return 1
        jobs, skipped = ffmpeg_jobs(available_encoders())
        for job in jobs:
            print(shlex.join(job.command()))
        for name in skipped:
            print(f"# skipped {name}: no suitable encoder")
        return 0

    folder: Path = options.out
    if folder.exists() and not folder.is_dir():
        parser.error(f"--out {folder} is a file, not a directory; give a directory")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"Pillow / stdlib fixtures -> {folder}")
    make_python_fixtures(folder, rewrite=options.rewrite)
    if ffmpeg:
        jobs, skipped = ffmpeg_jobs(available_encoders())
        print("ffmpeg fixtures")
        make_ffmpeg_fixtures(folder, jobs, rewrite=options.rewrite)
        for name in skipped:
            print(f"  skipped {name}: this ffmpeg has no suitable encoder (left as it is)")
    elif options.no_ffmpeg:
        print("ffmpeg fixtures skipped (--no-ffmpeg); the committed copies are left alone")
    else:
        print("ffmpeg is not on PATH: the ffmpeg fixtures are left as they are")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
