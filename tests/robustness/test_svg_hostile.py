"""Hostile SVGs: no file or URL outside the input is touched, no bomb ends or stalls the caller.

Files: Linux inotify records every open and read of a canary file (and of the other files an
SVG names) by any code in the process, Rust included; a control test shows resvg, handed the
same documents unscanned, does open them. Network: a real HTTP server on 127.0.0.1 records
every request. Bombs (entities, nesting, `<use>`, gzip, embedded rasters) are refused with our
errors before the renderer runs; what only the renderer can find (a pattern tile it cannot
allocate, a filter that would run for minutes) ends its child process, not ours. A hypothesis
fuzz over mutated SVG text lets only our errors out.
"""

from __future__ import annotations

import base64
import ctypes
import gzip
import io
import os
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from mediaparts._errors import CodecUnavailable, InvalidMedia, MediaError, MediaTooLarge
from mediaparts.converting import Converted, TransformPolicy, _svg, rasterize_svg
from tests._builders import read
from tests.conftest import LocalServer
from tests.robustness.limits_svg import SVGS

pytestmark = pytest.mark.slow  # SVG bombs, each rendered in a child process

resvg_py = pytest.importorskip("resvg_py")

NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
MAX_DEPTH = 128  # converting._svg_scan.MAX_DEPTH, written out: the test pins the promise


def svg(body: str, prolog: str = "") -> bytes:
    return f'{prolog}<svg {NS} width="20" height="20">{body}</svg>'.encode()


# ---------------------------------------------------------------------------- watching files

_IN_ACCESS, _IN_OPEN = 0x001, 0x020


class FileWatch:
    """Counts the opens and reads of some files by anyone (Linux inotify)."""

    def __init__(self, *paths: Path) -> None:
        self._libc = ctypes.CDLL(None, use_errno=True)
        self._fd = self._libc.inotify_init1(os.O_NONBLOCK)
        assert self._fd >= 0, os.strerror(ctypes.get_errno())
        for path in paths:
            assert self._libc.inotify_add_watch(self._fd, bytes(path), _IN_ACCESS | _IN_OPEN) >= 0

    def events(self) -> int:
        count = 0
        while True:
            try:
                chunk = os.read(self._fd, 65536)
            except BlockingIOError:
                return count
            at = 0
            while at < len(chunk):
                count += 1
                at += 16 + struct.unpack_from("iIII", chunk, at)[3]

    def close(self) -> None:
        os.close(self._fd)


@pytest.fixture
def canaries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, FileWatch]]:
    """A folder (the working directory) of files no SVG may read, and a watch on them."""
    if not sys.platform.startswith("linux"):
        pytest.skip("inotify is Linux's")
    Image.new("RGB", (4, 4), (0, 255, 0)).save(tmp_path / "canary.png")
    (tmp_path / "canary.txt").write_text("secret")
    (tmp_path / "other.svg").write_bytes(svg('<rect id="a" width="20" height="20" fill="lime"/>'))
    (tmp_path / "style.css").write_text("rect { fill: lime }")
    monkeypatch.chdir(tmp_path)
    watch = FileWatch(
        *(tmp_path / n for n in ("canary.png", "canary.txt", "other.svg", "style.css"))
    )
    yield tmp_path, watch
    watch.close()


def references(folder: Path, base: str) -> dict[str, str]:
    """Documents that name a file in `folder` or a URL under `base`, each its own way."""
    png = folder / "canary.png"
    return {
        "image absolute path": f'<image href="{png}" width="20" height="20"/>',
        "image file URL": f'<image xlink:href="file://{png}" width="20" height="20"/>',
        "image relative": '<image href="canary.png" width="20" height="20"/>',
        "image svg file": '<image href="other.svg" width="20" height="20"/>',
        "use other file": '<use href="other.svg#a"/>',
        "feImage": '<filter id="f"><feImage href="canary.png"/></filter><rect width="9" height="9" filter="url(#f)"/>',
        "css import": f'<style>@import url("{base}/style.css"); @import "style.css";</style><rect width="9" height="9"/>',
        "css url in style attr": '<rect width="9" height="9" style="fill: url(other.svg#a)"/>',
        "css url in sheet": f'<style>rect {{ fill: url({base}/x.svg#g) }}</style><rect width="9" height="9"/>',
        "font-face": f'<style>@font-face {{ font-family: x; src: url({base}/x.ttf) }}</style><text style="font-family:x">a</text>',
        "http image": f'<image href="{base}/x.png" width="20" height="20"/>',
        "stylesheet PI": "",
        "default attribute": '<image width="20" height="20"/>',
        "xinclude": f'<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="{base}/x.svg"/>',
        "script": f'<script>fetch("{base}/script")</script><script href="{base}/x.js"/>',
        "onload": f'<rect width="9" height="9" onload="fetch(\'{base}/onload\')"/>',
        "nested data svg": '<image width="20" height="20" href="data:image/svg+xml;base64,'
        + base64.b64encode(svg('<image href="canary.png" width="20" height="20"/>')).decode()
        + '"/>',
    }


PROLOGS = {
    "stylesheet PI": '<?xml-stylesheet href="style.css" type="text/css"?>',
    "default attribute": '<!DOCTYPE svg [<!ATTLIST image href CDATA "canary.png">]>',
}
CASES = list(references(Path("/x"), "http://x"))


@pytest.mark.parametrize("case", CASES)
def test_rasterize_svg_touches_no_file_or_url(
    case: str, canaries: tuple[Path, FileWatch], local_server: LocalServer
) -> None:
    """Each way an SVG names a file or URL draws without opening it or sending a request."""
    folder, watch = canaries
    document = svg(references(folder, local_server.base)[case], PROLOGS.get(case, ""))
    converted = rasterize_svg(document)
    assert isinstance(converted, Converted)
    assert watch.events() == 0
    assert local_server.hits == {}


@pytest.mark.parametrize("case", ["image absolute path", "image relative", "image svg file"])
def test_resvg_alone_opens_the_files(case: str, canaries: tuple[Path, FileWatch]) -> None:
    """The control: resvg given the document unscanned reads the file (so the watch works)."""
    folder, watch = canaries
    document = svg(references(folder, "http://127.0.0.1:9")[case]).decode()
    resvg_py.svg_to_bytes(svg_string=document, dpi=96.0)
    assert watch.events() > 0


# ---------------------------------------------------------------------------- entities

LAUGHS = "".join(
    f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' if i else '<!ENTITY lol0 "lol">' for i in range(10)
)


@pytest.mark.parametrize(
    ("prolog", "body", "message"),
    [
        (f"<!DOCTYPE svg [{LAUGHS}]>", "<text>&lol9;</text>", "billion laughs"),
        ('<!DOCTYPE svg [<!ENTITY x SYSTEM "canary.txt">]>', "<text>&x;</text>", "XXE"),
        ('<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>', "<text>&x;</text>", "XXE"),
        ('<!DOCTYPE svg [<!ENTITY % p SYSTEM "canary.txt"> %p;]>', "", "XXE"),
        ('<!DOCTYPE svg [<!ENTITY i SYSTEM "canary.png" NDATA png>]>', "", "XXE"),
    ],
    ids=["billion laughs", "system entity", "file URL entity", "parameter entity", "unparsed"],
)
def test_rasterize_svg_refuses_entity_tricks(
    prolog: str, body: str, message: str, canaries: tuple[Path, FileWatch]
) -> None:
    """Nested, external, parameter and unparsed entities are refused before any expansion."""
    with pytest.raises(InvalidMedia, match=message):
        rasterize_svg(svg(body, prolog))
    assert canaries[1].events() == 0


def test_rasterize_svg_bounds_plain_entity_expansion() -> None:
    """Plain-text entities expanding past max_expanded_bytes are refused before expanding."""
    prolog = f'<!DOCTYPE svg [<!ENTITY big "{"x" * 10_000}">]>'
    with pytest.raises(MediaTooLarge, match="entities expanding"):
        rasterize_svg(
            svg("<text>" + "&big;" * 1000 + "</text>", prolog),
            TransformPolicy(max_expanded_bytes=10**6),
        )


def test_rasterize_svg_bounds_attribute_defaults() -> None:
    """A long default given to every element is bounded by what the rewrite may write."""
    prolog = f'<!DOCTYPE svg [<!ATTLIST rect title CDATA "{"x" * 10_000}">]>'
    with pytest.raises(MediaTooLarge, match="rewritten text"):
        rasterize_svg(svg("<rect/>" * 1000, prolog), TransformPolicy(max_expanded_bytes=10**6))


def test_rasterize_svg_expands_plain_entities() -> None:
    """Illustrator's plain namespace entities are expanded and the drawing renders."""
    prolog = (
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" ['
        '<!ENTITY ns_svg "http://www.w3.org/2000/svg"><!ENTITY red "#ff0000">]>'
    )
    document = (
        prolog
        + '<svg xmlns="&ns_svg;" width="4" height="4"><rect width="4" height="4" fill="&red;"/></svg>'
    )
    converted = rasterize_svg(document.encode())
    assert converted.data is not None
    assert Image.open(io.BytesIO(converted.data)).getpixel((2, 2)) == (255, 0, 0, 255)


# ---------------------------------------------------------------------------- nesting and work


def nested(depth: int, tag: str = "g") -> bytes:
    return svg(f"<{tag}>" * depth + '<rect width="5" height="5"/>' + f"</{tag}>" * depth)


def use_chain(length: int) -> bytes:
    """`length` groups, each drawing the next through <use>: deep, though the XML is flat."""
    groups = "".join(f'<g id="g{i}"><use href="#g{i + 1}"/></g>' for i in range(length))
    return svg(f'<defs>{groups}<rect id="g{length}" width="5" height="5"/></defs><use href="#g0"/>')


def use_bomb(levels: int, fan: int, *, decoys: bool = False) -> bytes:
    """Each level draws the one below `fan` times: fan ** levels elements from a few hundred.

    With `decoys`, each level's id is first given to an empty group, so a count that believes
    only the first of duplicate ids sees nothing to draw; a renderer may pick the last.
    """
    first = "".join(f'<g id="b{i}"/>' for i in range(levels)) if decoys else ""
    groups = "".join(
        f'<g id="b{i}">' + f'<use href="#b{i + 1}"/>' * fan + "</g>" for i in range(levels)
    )
    return svg(
        f'<defs>{first}{groups}<rect id="b{levels}" width="1" height="1"/></defs><use href="#b0"/>'
    )


@pytest.mark.parametrize(
    "document",
    [
        nested(MAX_DEPTH),
        nested(MAX_DEPTH, "svg"),
        nested(50_000),
        use_chain(MAX_DEPTH),
        use_chain(5000),
    ],
    ids=["groups", "svgs", "50000 groups", "use chain", "5000 uses"],
)
def test_rasterize_svg_refuses_deep_nesting(document: bytes) -> None:
    """Nesting past MAX_DEPTH, by elements or by <use> chains, is MediaTooLarge, not a crash."""
    with pytest.raises(MediaTooLarge, match="nests deeper"):
        rasterize_svg(document)


def clip_chain(length: int) -> bytes:
    """`length` clip paths, each clipped by the next: deep through references only."""
    clips = "".join(
        f'<clipPath id="c{i}"><rect width="9" height="9" clip-path="url(#c{i + 1})"/></clipPath>'
        for i in range(length)
    )
    return svg(
        f'<defs>{clips}<clipPath id="c{length}"><rect width="9" height="9"/></clipPath></defs>'
        '<rect width="9" height="9" clip-path="url(#c0)"/>'
    )


ALLOWED_DEEP = {
    **{
        tag: nested(MAX_DEPTH - 2, tag)
        for tag in ("g", "svg", "a", "switch", "mask", "clipPath", "pattern")
    },
    "use chain": use_chain((MAX_DEPTH - 3) // 2),
    "clip chain": clip_chain((MAX_DEPTH - 4) // 2),
}


@pytest.mark.parametrize("case", list(ALLOWED_DEEP))
def test_rasterize_svg_draws_the_deepest_allowed_on_a_small_stack(case: str) -> None:
    """Nesting just within MAX_DEPTH draws even when called from a thread with a 256 KiB stack."""
    document = ALLOWED_DEEP[case]
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(rasterize_svg(document))
        except MediaError as exc:
            outcome.append(exc)

    previous = threading.stack_size(256 * 1024)
    try:
        thread = threading.Thread(target=run)
        thread.start()
    finally:
        threading.stack_size(previous)
    thread.join()
    assert len(outcome) == 1 and isinstance(outcome[0], Converted)


@pytest.mark.parametrize(
    ("document", "error", "message"),
    [
        (use_bomb(9, 10), MediaTooLarge, "would draw over"),
        (use_bomb(30, 2), MediaTooLarge, "would draw over"),
        (use_bomb(9, 10, decoys=True), MediaTooLarge, "would draw over"),
        (svg('<g id="a"><use href="#a"/></g>'), InvalidMedia, "reference loop"),
        (
            svg('<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>'),
            InvalidMedia,
            "reference loop",
        ),
        (svg('<pattern id="p"><rect fill="url(#p)"/></pattern>'), InvalidMedia, "reference loop"),
    ],
    ids=[
        "10^9 uses",
        "2^30 uses",
        "behind duplicate ids",
        "self use",
        "mutual use",
        "pattern in itself",
    ],
)
def test_rasterize_svg_refuses_reference_bombs(
    document: bytes, error: type[MediaError], message: str
) -> None:
    """Exponential <use> fan-out and reference loops are refused before drawing."""
    with pytest.raises(error, match=message):
        rasterize_svg(document)


def test_rasterize_svg_draws_linear_reuse() -> None:
    """Reusing one shape many times (linear, not exponential) is drawn."""
    uses = '<use href="#dot"/>' * 5000
    converted = rasterize_svg(svg(f'<defs><circle id="dot" r="1"/></defs>{uses}'))
    assert converted.steps == ("svg→png 20x20",)


# ---------------------------------------------------------------------------- sizes and time


@pytest.mark.parametrize(
    ("document", "policy", "message"),
    [
        (
            gzip.compress(b" " * 2_000_000),
            TransformPolicy(max_expanded_bytes=10**6),
            "max_expanded_bytes",
        ),
        (
            svg("<text>" + "a" * 20_000 + "</text>"),
            TransformPolicy(max_expanded_bytes=10_000),
            "max_expanded_bytes",
        ),
        (read("diagram.svg"), TransformPolicy(timeout=1e-9), "timeout"),
    ],
    ids=["gzip bomb", "text over the cap", "timeout"],
)
def test_rasterize_svg_caps(document: bytes, policy: TransformPolicy, message: str) -> None:
    """The policy's expanded-bytes and time caps hold, gzipped or not."""
    with pytest.raises(MediaTooLarge, match=message):
        rasterize_svg(document, policy)


PATTERN = (
    '<defs><pattern id="p" width="{side}" height="{side}" patternUnits="userSpaceOnUse">'
    '<rect width="5" height="5"/></pattern></defs><rect width="20" height="20" fill="url(#p)"/>'
)


@pytest.mark.parametrize("side", ["1e7", "1e5"])
def test_rasterize_svg_huge_pattern_tile_is_too_large(side: str) -> None:
    """A pattern tile resvg cannot allocate (it aborts its process) is MediaTooLarge here."""
    with pytest.raises(MediaTooLarge, match="memory"):
        rasterize_svg(svg(PATTERN.format(side=side)))


def test_resvg_alone_aborts_on_a_huge_pattern_tile() -> None:
    """The control: the same document aborts a process that runs resvg in itself."""
    document = svg(PATTERN.format(side="1e7")).decode()
    code = f"import resvg_py; resvg_py.svg_to_bytes(svg_string={document!r}, dpi=96.0)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, check=False, timeout=60
    )
    assert done.returncode != 0 and b"memory allocation" in done.stderr


def test_rasterize_svg_costly_filter_is_stopped_at_the_timeout() -> None:
    """A filter costing minutes, allowed by a budget raised by hand, ends at the timeout."""
    body = '<filter id="f"><feMorphology radius="100"/></filter><rect width="20" height="20" filter="url(#f)"/>'
    document = svg(body).replace(b'width="20" height="20"', b'width="1000" height="1000"')
    with pytest.raises(MediaTooLarge, match="timeout"):
        rasterize_svg(document, TransformPolicy(timeout=2, svg_work_per_byte=10**12))


@pytest.mark.parametrize("executable", ["", "/nonexistent/python"])
def test_rasterize_svg_without_an_interpreter_to_start(
    executable: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where no child interpreter can be started, the error says why and names the extra."""
    monkeypatch.setattr(sys, "executable", executable)
    with pytest.raises(CodecUnavailable, match="child Python") as caught:
        rasterize_svg(read("drawing.svg"))
    assert caught.value.extra == "svg"


def test_rasterize_svg_huge_dimensions_capped() -> None:
    """A root claiming a billion pixels a side draws at max_side, quickly and small."""
    converted = rasterize_svg(
        svg("").replace(b'width="20" height="20"', b'width="1e9" height="1e9"')
    )
    assert (converted.width, converted.height) == (2048, 2048)


# ---------------------------------------------------------------------------- fuzz

SNIPPETS = [
    "<",
    ">",
    "/>",
    "</g>",
    "<g>",
    '"',
    "&",
    "&amp;",
    "&#0;",
    "&#x110000;",
    "]]>",
    "<![CDATA[",
    "<!DOCTYPE svg [",
    '<!ENTITY a "b">',
    "&a;",
    'href="#a"',
    'href="canary.png"',
    'id="a"',
    "url(#a)",
    "url(x)",
    'viewBox="0 0 0 0"',
    'width="-1"',
    'width="1e999"',
    "\x00",
    "\ufffe",
    '<use href="#a"/>',
    "<svg>",
    "xmlns:x=''",
    "<x:y/>",
    "<?pi?>",
    "<!--",
    "-->",
]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    text = draw(st.sampled_from([read("drawing.svg"), read("diagram.svg")])).decode()
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "cut"]))
        if action == "insert":
            text = text[:at] + draw(st.sampled_from(SNIPPETS)) + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        else:
            text = text[:at]
    return text.encode("utf-8", "surrogatepass")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_rasterize_svg_fuzz_only_our_errors(document: bytes) -> None:
    """Mutated SVGs either draw within the caps or raise one of our errors."""
    try:
        converted = rasterize_svg(document, TransformPolicy(timeout=10), max_side=256)
    except MediaError:
        return
    assert converted.width is not None and converted.width <= 256


# ---------------------------------------------------------------------------- drawing work

HOSTILE_WORK = [name for name in SVGS if name not in ("small-paths", "transform-text")]
ATTACKS = {
    "filter on nested groups": '<filter id="f"><feMorphology radius="40"/></filter>'
    + '<g filter="url(#f)">' * 5
    + '<rect width="2048" height="2048"/>'
    + "</g>" * 5,
    "filter scaled by a transform": '<filter id="f"><feMorphology radius="0.3"/></filter>'
    '<g transform="scale(100)"><rect width="20" height="20" filter="url(#f)"/></g>',
    "filter scaled by a nested viewBox": '<svg width="2048" height="2048" viewBox="0 0 2 2">'
    '<filter id="f"><feMorphology radius="0.3"/></filter>'
    '<rect width="2" height="2" filter="url(#f)"/></svg>',
    "filter on a path far outside": '<filter id="f"><feGaussianBlur stdDeviation="3"/></filter>'
    '<g filter="url(#f)"><path d="M-20000 -20000 l 40000 40000"/></g>',
    "radius in bounding-box units": '<filter id="f" primitiveUnits="objectBoundingBox">'
    '<feMorphology radius="0.2"/></filter><rect width="2048" height="2048" filter="url(#f)"/>',
    "mask fan-out": '<defs><mask id="m"><rect width="2048" height="2048" fill="white"/></mask>'
    '<rect id="r" width="2048" height="2048" mask="url(#m)"/></defs>' + '<use href="#r"/>' * 20000,
    "clip-path chain": "<defs>"
    + "".join(
        f'<clipPath id="c{i}" clip-path="url(#c{i + 1})"><rect width="2048" height="2048"/></clipPath>'
        for i in range(100)
    )
    + '<clipPath id="c100"><rect width="2048" height="2048"/></clipPath></defs>'
    + '<rect width="2048" height="2048" clip-path="url(#c0)"/>' * 200,
    "tiny pattern tiles": '<defs><pattern id="p" width="1" height="1" patternUnits="userSpaceOnUse">'
    '<rect width="1" height="1"/></pattern></defs>'
    + '<rect width="2048" height="2048" fill="url(#p)"/>'
    * 100,
    "marker at every vertex": '<defs><marker id="m" markerWidth="2048" markerHeight="2048">'
    '<rect width="2048" height="2048"/></marker></defs>'
    '<path d="M0 0' + " L1 1" * 40000 + '" marker-mid="url(#m)"/>',
    "symbol stretched by its use": '<defs><symbol id="s" viewBox="0 0 1 1">'
    '<filter id="f"><feMorphology radius="0.02"/></filter>'
    '<rect width="1" height="1" filter="url(#f)"/></symbol></defs>'
    '<use href="#s" width="2048" height="2048"/>',
    "nested svg at 100 %": '<svg viewBox="0 0 1 1"><filter id="f"><feMorphology radius="0.02"/>'
    '</filter><rect width="1" height="1" filter="url(#f)"/></svg>',
    "huge strokes": '<path d="M0 0L2048 2048" stroke="black" stroke-width="100000"/>' * 5000,
    "opacity layers": '<g opacity="0.5">' * 120
    + '<rect width="2048" height="2048"/>'
    + "</g>" * 120,
}


def big(body: str) -> bytes:
    return f'<svg {NS} width="2048" height="2048">{body}</svg>'.encode()


@pytest.mark.parametrize("name", HOSTILE_WORK)
def test_rasterize_svg_refuses_costly_drawing_before_drawing(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each generated filter-heavy or draw-heavy SVG is refused by its work budget, unrendered."""
    monkeypatch.setattr(_svg, "render_png", _never)
    with pytest.raises(MediaTooLarge, match="svg_work_per_byte") as caught:
        rasterize_svg(SVGS[name]())
    assert caught.value.limit is not None and caught.value.size is not None
    assert caught.value.size > caught.value.limit


@pytest.mark.parametrize("name", ATTACKS)
def test_rasterize_svg_refuses_costly_constructs(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scaled, nested, fanned-out and tiled constructs count at the size and times drawn."""
    monkeypatch.setattr(_svg, "render_png", _never)
    with pytest.raises(MediaTooLarge, match="svg_work_per_byte"):
        rasterize_svg(big(ATTACKS[name]))


def test_rasterize_svg_draws_the_cheap_generated_ones() -> None:
    """A transform of 800 KB of nonsense is within the budget, and drawn."""
    assert rasterize_svg(SVGS["transform-text"]()).media_type == "image/png"


def _never(*args: object) -> bytes:
    raise AssertionError("the renderer was started")
