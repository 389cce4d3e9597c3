"""SVG rasterised to PNG (size, pixels, transparency, steps) and passed on as text.

Hostile SVGs (external references, entities, nesting, bombs) are in
tests/robustness/test_svg_hostile.py.
"""

from __future__ import annotations

import base64
import codecs
import gzip
import io
import math
import sys
from collections.abc import Callable

import pytest
from PIL import Image

from mediaparts._errors import CodecUnavailable, InvalidConfig, InvalidMedia, MediaTooLarge
from mediaparts.converting import (
    Converted,
    TransformPolicy,
    _svg,
    _svg_cost,
    _svg_geometry,
    rasterize_svg,
    svg_text,
    using_transforms,
)
from mediaparts.converting._extras import Deadline
from mediaparts.converting._svg import svg_size, work_budget
from mediaparts.converting._svg_scan import scan_svg
from mediaparts.detection import detect_media_type
from tests._builders import png_header, read
from tests._orphans import orphan_survives

pytest.importorskip("resvg_py")

NS = 'xmlns="http://www.w3.org/2000/svg"'
RED = (255, 0, 0, 255)
BLUE = (0, 0, 255, 255)
CLEAR = (0, 0, 0, 0)


def svg(attributes: str, body: str = '<rect width="100%" height="100%" fill="red"/>') -> bytes:
    """Return an SVG document whose root has `attributes`."""
    return f"<svg {NS} {attributes}>{body}</svg>".encode()


def pixels(converted: Converted) -> Image.Image:
    """Return the PNG made, opened, after checking it says its own size."""
    assert converted.media_type == "image/png" and converted.data is not None
    image = Image.open(io.BytesIO(converted.data))
    assert image.format == "PNG"
    assert image.size == (converted.width, converted.height)
    return image


SIZES = [
    # (case, document, max_side, max_pixels, expected size)
    ("drawing.svg", read("drawing.svg"), 2048, None, (64, 48)),
    ("viewBox only", read("diagram.svg"), 2048, None, (400, 300)),
    ("px", svg('width="30px" height="20px"'), 2048, None, (30, 20)),
    ("in", svg('width="2in" height="1in"'), 2048, None, (192, 96)),
    ("cm", svg('width="2.54cm" height="5.08cm"'), 2048, None, (96, 192)),
    ("mm", svg('width="25.4mm" height="12.7mm"'), 2048, None, (96, 48)),
    ("pt", svg('width="72pt" height="36pt"'), 2048, None, (96, 48)),
    ("pc", svg('width="6pc" height="3pc"'), 2048, None, (96, 48)),
    (
        "percent falls back",
        svg('width="100%" height="100%" viewBox="0 0 300 200"'),
        2048,
        None,
        (300, 200),
    ),
    ("em falls back", svg('width="10em" height="5em" viewBox="0 0 120 80"'), 2048, None, (120, 80)),
    ("width and viewBox", svg('width="200" viewBox="0 0 100 50"'), 2048, None, (200, 100)),
    ("height and viewBox", svg('height="100" viewBox="0,0,100,50"'), 2048, None, (200, 100)),
    (
        "zero width falls back",
        svg('width="0" height="0" viewBox="0 0 40 30"'),
        2048,
        None,
        (40, 30),
    ),
    ("nothing: the default", svg(""), 2048, None, (512, 512)),
    ("huge width capped", svg('width="100000" height="50000"'), 2048, None, (2048, 1024)),
    ("absurd width capped", svg('width="1e300" height="1e300"'), 2048, None, (2048, 2048)),
    ("max_side", read("diagram.svg"), 100, None, (100, 75)),
    ("max_pixels", read("diagram.svg"), 2048, 10_000, (115, 86)),
    ("never up", svg('width="16" height="16"'), 2048, None, (16, 16)),
]


@pytest.mark.parametrize(
    ("document", "max_side", "max_pixels", "size"),
    [case[1:] for case in SIZES],
    ids=[case[0] for case in SIZES],
)
def test_rasterize_svg_size(
    document: bytes, max_side: int, max_pixels: int | None, size: tuple[int, int]
) -> None:
    """The PNG's size comes from width/height, else the viewBox, scaled down to the caps."""
    policy = TransformPolicy() if max_pixels is None else TransformPolicy(max_pixels=max_pixels)
    converted = rasterize_svg(document, policy, max_side=max_side)
    assert (converted.width, converted.height) == size
    assert pixels(converted).size == size
    assert converted.steps == (f"svg→png {size[0]}x{size[1]}",)


@pytest.mark.parametrize(
    ("name", "max_side", "red", "blue", "clear"),
    [
        ("drawing.svg", 2048, (3, 3), (60, 3), None),
        ("drawing.svg", 32, (1, 1), (30, 1), None),
        ("diagram.svg", 2048, (25, 25), (300, 30), (200, 150)),
        ("diagram.svg", 200, (12, 12), (150, 15), (100, 75)),
    ],
)
def test_rasterize_svg_pixels_in_place(
    name: str,
    max_side: int,
    red: tuple[int, int],
    blue: tuple[int, int],
    clear: tuple[int, int] | None,
) -> None:
    """The red and blue shapes are drawn where the SVG puts them; the background stays clear."""
    image = pixels(rasterize_svg(read(name), TransformPolicy(), max_side=max_side))
    assert image.mode == "RGBA"
    assert image.getpixel(red) == RED
    assert image.getpixel(blue) == BLUE
    if clear is not None:
        assert image.getpixel(clear) == CLEAR


INKSCAPE = b"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->
<svg xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
   xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
   xmlns:xlink="http://www.w3.org/1999/xlink" xmlns="http://www.w3.org/2000/svg"
   width="120mm" height="80mm" viewBox="0 0 120 80" version="1.1" id="svg1">
  <sodipodi:namedview id="namedview1" pagecolor="#ffffff" inkscape:zoom="1.2"/>
  <style><![CDATA[ .warm > rect { fill: #e94; stroke: #333; stroke-width: .5 } ]]></style>
  <defs id="defs1">
    <linearGradient id="stops"><stop offset="0" style="stop-color:#36c"/><stop offset="1" style="stop-color:#9cf"/></linearGradient>
    <linearGradient xlink:href="#stops" id="sky" x1="0" y1="0" x2="0" y2="80" gradientUnits="userSpaceOnUse"/>
  </defs>
  <g inkscape:label="Layer 1" inkscape:groupmode="layer" id="layer1">
    <rect style="fill:url(#sky)" width="120" height="50" x="0" y="0" id="rect1"/>
    <g class="warm"><rect x="10" y="55" width="30" height="20" rx="3"/></g>
    <path style="fill:none;stroke:#060;stroke-width:2" d="m 50,70 c 10,-20 30,-20 40,0" id="path1"/>
    <text xml:space="preserve" x="60" y="30" style="font-size:8px;font-family:sans-serif;fill:#fff"><tspan x="60" y="30">A &amp; B</tspan></text>
  </g>
</svg>
"""


@pytest.mark.parametrize(
    ("document", "size"),
    [
        (read("drawing.svg"), b'width="64" height="48"'),
        (read("diagram.svg"), b'viewBox="0 0 400 300"'),
        (INKSCAPE, b'width="120mm" height="80mm"'),
    ],
    ids=["drawing", "diagram", "inkscape"],
)
def test_rasterize_svg_rewrite_draws_the_same_pixels(document: bytes, size: bytes) -> None:
    """A clean document draws the very pixels resvg draws from the original at that size."""
    resvg_py = pytest.importorskip("resvg_py")
    converted = rasterize_svg(document, max_side=300)
    sized = f'width="{converted.width}" height="{converted.height}" '.encode()
    original = document.replace(size, sized + (size if size.startswith(b"viewBox") else b""))
    alone = resvg_py.svg_to_bytes(svg_string=original.decode(), dpi=96.0)
    assert pixels(converted).tobytes() == Image.open(io.BytesIO(alone)).tobytes()


def test_rasterize_svg_keeps_partial_transparency() -> None:
    """A half-transparent fill stays half transparent (no background is painted)."""
    document = svg(
        'width="10" height="10"', '<rect width="10" height="10" fill="#00f" opacity=".5"/>'
    )
    pixel = pixels(rasterize_svg(document)).getpixel((5, 5))
    assert isinstance(pixel, tuple)
    assert pixel[:3] == (0, 0, 255) and 120 <= pixel[3] <= 135


ENCODINGS: dict[str, Callable[[str], bytes]] = {
    "utf-8 with BOM": lambda text: codecs.BOM_UTF8 + text.encode(),
    "utf-16 with BOM": lambda text: text.encode("utf-16"),
    "utf-16-be without BOM": lambda text: text.encode("utf-16-be"),
    "latin-1 declared": lambda text: ('<?xml version="1.0" encoding="ISO-8859-1"?>' + text).encode(
        "latin-1"
    ),
}


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_rasterize_svg_reads_encodings(encoding: str) -> None:
    """UTF-8 and UTF-16 with or without a mark, and a declared encoding, all draw."""
    text = f'<svg {NS} width="8" height="8"><title>Crème</title><rect width="8" height="8" fill="red"/></svg>'
    image = pixels(rasterize_svg(ENCODINGS[encoding](text)))
    assert image.getpixel((4, 4)) == RED


def test_rasterize_svg_reads_svgz() -> None:
    """A gzipped SVG (svgz) is gunzipped first, and says so."""
    converted = rasterize_svg(gzip.compress(read("drawing.svg")))
    assert converted.steps == ("svgz→svg", "svg→png 64x48")
    assert pixels(converted).getpixel((3, 3)) == RED


def test_rasterize_svg_draws_embedded_data_images() -> None:
    """A data: PNG and a data: SVG are kept and drawn; the steps report no removal."""
    green = io.BytesIO()
    Image.new("RGB", (4, 4), (0, 255, 0)).save(green, "PNG")
    inner = svg('width="4" height="4"', '<rect width="4" height="4" fill="blue"/>')
    body = (
        f'<image href="data:image/png;base64,{_b64(green.getvalue())}" width="10" height="10"/>'
        f'<image x="10" href="data:image/svg+xml;base64,{_b64(inner)}" width="10" height="10"/>'
    )
    converted = rasterize_svg(svg('width="20" height="10"', body))
    image = pixels(converted)
    assert image.getpixel((5, 5)) == (0, 255, 0, 255)
    assert image.getpixel((15, 5)) == BLUE
    assert converted.steps == ("svg→png 20x10",)


def test_rasterize_svg_reports_removed_references() -> None:
    """Removing an external reference is a step; the rest of the drawing is kept."""
    body = '<image href="picture.png" width="5" height="5"/><rect x="5" width="5" height="5" fill="red"/>'
    converted = rasterize_svg(svg('width="10" height="5"', body))
    assert converted.steps == ("external references removed", "svg→png 10x5")
    assert pixels(converted).getpixel((7, 2)) == RED


def test_rasterize_svg_uses_the_policy_in_force() -> None:
    """Without a policy argument, the one `using_transforms` sets applies."""
    with using_transforms(TransformPolicy(max_pixels=1200)):
        converted = rasterize_svg(read("diagram.svg"))
    assert (converted.width, converted.height) == (40, 30)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (b"", "not well-formed"),
        (b"<svg", "not well-formed"),
        (f"<svg {NS}><rect></svg>".encode(), "not well-formed"),
        (b"<html><body/></html>", "not an SVG"),
        (b"\xff\xfe\x00", "not text"),
        (b"\x1f\x8b\x09\x00" + bytes(6) + b"garbage", "not valid gzip"),
        (gzip.compress(read("drawing.svg"))[:-20], "truncated"),
        (b'<?xml version="1.0" encoding="no-such-codec"?><svg/>', "not text in no-such-codec"),
        (b'<?xml version="1.0" encoding="\x00UTF-8"?>', "not well-formed"),
    ],
    ids=[
        "empty",
        "cut",
        "unclosed",
        "html",
        "bad utf-16",
        "bad gzip",
        "cut gzip",
        "unknown encoding",
        "NUL in the encoding's name",
    ],
)
def test_rasterize_svg_malformed_is_invalid_media(document: bytes, message: str) -> None:
    """Malformed XML, another root, bad text or bad gzip is InvalidMedia naming the problem."""
    with pytest.raises(InvalidMedia, match=message) as caught:
        rasterize_svg(document)
    assert caught.value.media_type == "image/svg+xml"


def test_rasterize_svg_renderer_refusal_is_invalid_media() -> None:
    """What resvg itself refuses (an undeclared namespace prefix) is InvalidMedia, not ValueError."""
    with pytest.raises(InvalidMedia, match="renderer could not draw"):
        rasterize_svg(svg('width="10" height="10"', "<x:rect/>"))


def test_rasterize_svg_without_resvg_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without resvg-py the error is CodecUnavailable naming the [svg] extra."""
    monkeypatch.setitem(sys.modules, "resvg_py", None)
    with pytest.raises(CodecUnavailable, match=r"mediaparts' \[svg\] extra") as caught:
        rasterize_svg(read("drawing.svg"))
    assert (caught.value.extra, caught.value.package) == ("svg", "resvg-py")


@pytest.mark.parametrize("max_side", [0, -1, True, 2.5])
def test_rasterize_svg_bad_max_side_is_invalid_config(max_side: object) -> None:
    """max_side must be a positive whole number."""
    with pytest.raises(InvalidConfig, match="max_side"):
        rasterize_svg(read("drawing.svg"), max_side=max_side)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "steps"),
    [
        (read("drawing.svg"), ("svg as text",)),
        (read("drawing.svg").decode().encode("utf-16"), ("svg as text",)),
        (codecs.BOM_UTF8 + read("drawing.svg"), ("svg as text",)),
        (gzip.compress(read("drawing.svg")), ("svgz→svg", "svg as text")),
    ],
    ids=["utf-8", "utf-16", "utf-8 BOM", "svgz"],
)
def test_svg_text_is_the_document(data: bytes, steps: tuple[str, ...]) -> None:
    """The text is the document decoded, without its byte order mark."""
    converted = svg_text(data)
    assert converted.media_type == "image/svg+xml" and converted.data is None
    assert converted.text == read("drawing.svg").decode()
    assert converted.steps == steps


def test_svg_text_without_resvg(monkeypatch: pytest.MonkeyPatch) -> None:
    """The text fallback needs no extra."""
    monkeypatch.setitem(sys.modules, "resvg_py", None)
    assert svg_text(read("diagram.svg")).text == read("diagram.svg").decode()


@pytest.mark.parametrize(
    "data", [read("diagram.svg"), gzip.compress(read("diagram.svg") * 4)], ids=["svg", "svgz"]
)
def test_svg_text_over_the_cap_is_too_large(data: bytes) -> None:
    """More text than max_expanded_bytes is MediaTooLarge, also when it is gzipped."""
    with pytest.raises(MediaTooLarge, match="max_expanded_bytes"):
        svg_text(data, TransformPolicy(max_expanded_bytes=1000))


@pytest.mark.parametrize(
    "data",
    [
        read("drawing.svg"),
        read("diagram.svg"),
        svg(""),
        read("drawing.svg").decode().encode("utf-16"),
        b'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "svg11.dtd">' + svg(""),
        b'<!-- made by hand -->\n<svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>',
    ],
    ids=["drawing", "diagram", "bare", "utf-16", "doctype", "prefixed"],
)
def test_detection_types_svg_inputs(data: bytes) -> None:
    """mediaparts.detection types every SVG these tests feed the rasteriser as image/svg+xml."""
    assert detect_media_type(data) == "image/svg+xml"


def test_rasterize_svg_checks_embedded_raster_headers() -> None:
    """An embedded PNG whose header is over max_pixels is refused before anything decodes it."""
    body = f'<image href="data:image/png;base64,{_b64(png_header(100_000, 100_000))}" width="5" height="5"/>'
    with pytest.raises(MediaTooLarge, match="max_pixels"):
        rasterize_svg(svg('width="5" height="5"', body))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_rasterize_svg_child_dies_with_its_parent() -> None:
    """A process killed outright (SIGKILL) while its renderer draws leaves no renderer running."""
    code = (
        "from mediaparts.converting import TransformPolicy, rasterize_svg\n"
        'body = \'<filter id="f"><feMorphology radius="200"/></filter>\''
        ' \'<rect width="2000" height="2000" filter="url(#f)"/>\'\n'
        'svg = f\'<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000">{body}</svg>\'\n'
        "rasterize_svg(svg.encode(), TransformPolicy(timeout=600, svg_work_per_byte=10**15))\n"
    )
    assert not orphan_survives(code)


# ---------------------------------------------------------------------------- drawing work

MORPH = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">'
    '<filter id="f"><feMorphology radius="{r}"/></filter>{uses}'
    '<rect id="r" width="512" height="512" filter="url(#f)"/></svg>'
)


def work_of(document: str) -> float:
    """The work the scan judges `document` to cost at its own size."""
    policy = TransformPolicy()
    scanned = scan_svg(document, policy, Deadline(60, "test"))
    width, height, view_box = svg_size(scanned)
    return _svg._work(scanned, view_box, round(width), round(height))


def test_svg_work_grows_with_the_morphology_window() -> None:
    """feMorphology costs its window's area: a radius 10 times as large, about 100 times."""
    small, large = (work_of(MORPH.format(r=r, uses="")) for r in (2, 20))
    assert 50 < large / small < 150


def test_svg_work_counts_every_time_a_filter_is_applied() -> None:
    """A filtered element used 10 more times costs about 11 times as much."""
    once = work_of(MORPH.format(r=20, uses=""))
    many = work_of(MORPH.format(r=20, uses='<use href="#r"/>' * 10))
    assert 10 < many / once < 12


@pytest.mark.parametrize(
    ("d", "box"),
    [
        ("M1 1h3v3z", (4.0, 4.0)),
        ("m10 10 l 5 5 5 5", (20.0, 20.0)),
        ("M0 0C10 20 30 40 50 60", (50.0, 60.0)),
        ("M0 0a5 5 0 0 1 10 10", (15.0, 15.0)),
        ("M-2000-2000L2000 2000", (4000.0, 4000.0)),
        ("M 0 0 H 7 V 9 Z m 1 1", (7.0, 9.0)),
        ("", (0.0, 0.0)),
    ],
)
def test_svg_path_box(d: str, box: tuple[float, float]) -> None:
    """A path's box spans its points and control points, relative or absolute."""
    assert _svg_geometry._path_box(d) == box


def test_svg_work_budget_grows_with_the_input() -> None:
    """The budget is a floor plus the policy's units per input byte."""
    policy = TransformPolicy(svg_work_per_byte=7)
    assert work_budget(0, policy) == _svg.WORK_FLOOR
    assert work_budget(1000, policy) == _svg.WORK_FLOOR + 7000


def test_rasterize_svg_over_the_work_budget_names_the_field() -> None:
    """Over its budget, MediaTooLarge names svg_work_per_byte; drawn smaller, it fits."""
    document = MORPH.format(r=30, uses="").encode()
    with pytest.raises(MediaTooLarge, match="svg_work_per_byte"):
        rasterize_svg(document)
    assert rasterize_svg(document, max_side=64).width == 64


def test_rasterize_svg_memory_error_is_media_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    """Running out of memory while reading an SVG is MediaTooLarge, the MemoryError its cause."""

    def exhausted(*args: object) -> None:
        raise MemoryError

    monkeypatch.setattr(_svg, "scan_svg", exhausted)
    with pytest.raises(MediaTooLarge, match="memory") as caught:
        rasterize_svg(read("drawing.svg"))
    assert isinstance(caught.value.__cause__, MemoryError)


@pytest.mark.parametrize(
    ("d", "side"), [("M1 1h3v3z", 16.0), ("M-1e5 0H1e5", 4e5), ("M 1e999 0", 1e12)]
)
def test_svg_short_path_box_is_a_bound(d: str, side: float) -> None:
    """A short path's box is bounded by twice its numbers' sizes, without walking it."""
    assert _svg_geometry._small_path_box(d) == (side, side)
    assert _svg_geometry._small_path_box("M0 0" + " l1 1" * 20) is None


FILTERED = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">{style}'
    '<filter id="f" {region}><feMorphology radius="2"/>{more}</filter>{body}</svg>'
)


def filtered(body: str, region: str = "", more: str = "", style: str = "") -> str:
    return FILTERED.format(body=body, region=region, more=more, style=style)


@pytest.mark.parametrize(
    ("cheap", "dear"),
    [
        *(
            (
                filtered(f'<g transform="{a}"><rect width="50" height="50" filter="url(#f)"/></g>'),
                filtered(f'<g transform="{b}"><rect width="50" height="50" filter="url(#f)"/></g>'),
            )
            for a, b in [
                ("matrix(1 0 0 1 5 5)", "matrix(8 0 0 8 5 5)"),
                ("scale(1)", "scale(1 9)"),
                ("skewX(0)", "skewX(80)"),
                ("translate(9)", "rotate(45) rotate(45) rotate(45)"),
            ]
        ),
        *(
            (filtered(f'<{a} filter="url(#f)"/>'), filtered(f'<{b} filter="url(#f)"/>'))
            for a, b in [
                ('circle r="5"', 'circle r="200"'),
                ('ellipse rx="5" ry="5"', 'ellipse rx="200" ry="200"'),
                ('line x2="5" y2="5"', 'line x1="-200" x2="200" y2="300"'),
                ('polygon points="0,0 5,5 0,5"', 'polygon points="0,0 400,400 0,400"'),
                ('path d="M0 0h5v5H0z"', 'path d="M0 0 L 100 100 z m 1 1 l 300 300 V 0 h 5"'),
                ('path d="M0 0a5 5 0 0 1 5 5"', 'path d="M0 0a5 5 0 0 1 5 5 A 200 200 0 0 1 1 1"'),
                ('rect width="5" height="5"', 'rect width="5in" height="5in"'),
            ]
        ),
        (
            filtered('<rect width="5" height="5"/>'),
            filtered(
                '<rect width="500" height="500"/>', style="<style>rect{filter:url(#f)}</style>"
            ),
        ),
        (
            filtered(
                '<rect width="5" height="5" filter="url(#f)"/>',
                'filterUnits="userSpaceOnUse" width="10%" height="10%"',
            ),
            filtered(
                '<rect width="5" height="5" filter="url(#f)"/>',
                'filterUnits="userSpaceOnUse" width="100%" height="100%"',
            ),
        ),
        (
            filtered('<rect width="50" height="50" filter="url(#f)"/>'),
            filtered(
                '<rect width="50" height="50" filter="url(#f)"/>',
                more="<feDiffuseLighting><feDistantLight/></feDiffuseLighting>"
                '<feComponentTransfer><feFuncR type="gamma"/></feComponentTransfer>'
                '<feConvolveMatrix order="9"/><feTurbulence numOctaves="9"/>',
            ),
        ),
    ],
)
def test_svg_work_follows_what_is_drawn(cheap: str, dear: str) -> None:
    """Larger boxes, stretching transforms, style sheets and costlier primitives cost more."""
    blank = work_of(filtered(""))  # the canvas alone
    assert work_of(dear) - blank > 2 * (work_of(cheap) - blank)


DASHED = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024">{style}'
    "<g {group}>{lines}</g></svg>"
)
LINES = "".join(f'<path d="M0 {i} h1024" stroke="#000" {{line}}/>' for i in range(100))


@pytest.mark.parametrize(
    ("style", "group", "line"),
    [
        ("", "", 'stroke-dasharray="0.01"'),
        ("", 'stroke-dasharray="0.005,0.015"', ""),
        ("", 'style="fill:none; stroke-dasharray: 0.01 !important"', ""),
        ("<style>path { stroke-dasharray : .01 }</style>", "", ""),
        ("<style>PATH{STROKE-DASHARRAY:1e-2}</style>", "", ""),
    ],
)
def test_svg_work_counts_dashes(style: str, group: str, line: str) -> None:
    """A dash pattern costs each dash however it is given: 100 lines of 51,200 dashes each
    (seconds of resvg) are over the budget, where the same lines solid cost little."""
    solid = DASHED.format(style="", group="", lines=LINES.format(line=""))
    dashed = DASHED.format(style=style, group=group, lines=LINES.format(line=line))
    assert work_of(solid) < 2 * 10**8
    assert work_of(dashed) > 5 * 10**9
    with pytest.raises(MediaTooLarge, match="svg_work_per_byte"):
        rasterize_svg(dashed.encode())


@pytest.mark.parametrize(
    ("text", "sheet", "period"),
    [
        ("4 2", False, 6.0),
        ("3", False, 6.0),
        ("1,2,3", False, 12.0),
        ("0 0", False, float("inf")),
        ("none", False, float("inf")),
        ("a{stroke-dasharray:5 5} b{stroke-dasharray: 1}", True, 2.0),
        ("a{stroke-dasharray:-1 -1", True, 2.0),
        ("a{stroke:red}", True, float("inf")),
    ],
)
def test_svg_dash_period(text: str, sheet: bool, period: float) -> None:
    """The period is the pattern's sum, doubled for an odd count; the shortest in a sheet."""
    assert _svg_cost.dash_period(text, sheet=sheet) == period


@pytest.mark.parametrize(
    ("local", "attributes", "length"),
    [
        ("line", {"x1": "0", "y1": "0", "x2": "3", "y2": "4"}, 5.0),
        ("polyline", {"points": "0,0 3,4 3,0"}, 12.0),
        ("path", {"d": "M0 0 h3 v4 Z"}, 12.0),
        ("path", {"d": "m0 0 3 4 l0 -4 M0 0"}, 9.0),
        ("path", {"d": "M0 0 C 0 10 10 10 10 0"}, 30.0),
        ("rect", {"width": "10", "height": "5"}, 68.0),
        ("path", {"d": "M 1e999 0 l -1e999 0"}, 1e12),
        ("path", {"d": "M0 0 a 1 2 0 0 1 5 5"}, 6 * math.pi),
    ],
)
def test_svg_outline_length_is_a_bound(
    local: str, attributes: dict[str, str], length: float
) -> None:
    """The outline's length joins a shape's points and control points (a box: 4 x its sides,
    stroke included)."""
    assert _svg_cost.outline_length(local, attributes) == pytest.approx(length)


def test_rasterize_svg_child_at_its_cpu_cap_is_media_too_large(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A renderer ended by its CPU cap's hard limit (SIGKILL) is MediaTooLarge naming the budget."""
    import signal
    import subprocess

    def killed(*args: object, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
        return subprocess.CompletedProcess([], -signal.SIGKILL, b"", b"")

    monkeypatch.setattr(subprocess, "run", killed)
    with pytest.raises(MediaTooLarge, match="svg_work_per_byte"):
        rasterize_svg(read("drawing.svg"))


def test_svg_cost_text_grows_with_the_square_of_one_element() -> None:
    """One text element's layout grows with the square of its characters, its tspans'
    included; the same characters in separate elements cost about linearly."""
    words = "Loremipsum" * 100  # 1,000 characters

    def text(body: str) -> str:
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">{body}</svg>'

    blank = work_of(text(""))
    one = work_of(text("<text>" + words * 50 + "</text>")) - blank
    spans = work_of(text("<text>" + f"<tspan>{words}</tspan>" * 50 + "</text>")) - blank
    apart = work_of(text(f"<text>{words}</text>" * 50)) - blank
    assert one == pytest.approx(spans, rel=0.01)
    assert one > 5 * apart
    assert apart == pytest.approx(50 * (work_of(text(f"<text>{words}</text>")) - blank), rel=0.01)
