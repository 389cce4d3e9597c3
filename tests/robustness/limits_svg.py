"""Filter-heavy and draw-heavy SVGs for the limits harness: small files that ask resvg for
seconds or minutes of work (filter primitives whose cost grows with a radius, a kernel, an
octave count or a region, filters applied many times over, many paths, much text).

Each is at most 1 MB, built here as text. `svg_cases(large)` gives the `Case`s: each document
through `normalize` (providers that need a raster), `estimate_tokens` and the conversation
readers (a Gemini `inlineData`, an OpenAI `file` part, an Anthropic `document` holding it).
"""

from __future__ import annotations

import base64
import functools
from collections.abc import Callable, Iterator

from tests.robustness.limits_harness import MAX_INPUT, Case

__all__ = ["SVGS", "payloads", "svg_cases"]

_NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
_RASTER = ("openai", "anthropic", "gemini")  # none takes SVG as it is


def _doc(body: str, side: int = 2048, view: str = "") -> bytes:
    box = f' viewBox="{view}"' if view else ""
    return f'<svg {_NS} width="{side}" height="{side}"{box}>{body}</svg>'.encode()


def _filtered(primitives: str, side: int = 2048, region: str = "") -> bytes:
    return _doc(
        f'<filter id="f" {region}>{primitives}</filter>'
        f'<rect width="{side}" height="{side}" fill="red" filter="url(#f)"/>',
        side,
    )


def morphology() -> bytes:
    """The issue's 176-byte case: a 300-pixel radius over a 2048-pixel square."""
    return _filtered('<feMorphology radius="300"/>')


def turbulence() -> bytes:
    return _filtered('<feTurbulence baseFrequency="0.05" numOctaves="1000"/>')


def convolve() -> bytes:
    kernel = " ".join(["1"] * 60 * 60)
    return _filtered(f'<feConvolveMatrix order="60" kernelMatrix="{kernel}"/>')


def tiles() -> bytes:
    chain = "<feTile/>" * 2000
    return _filtered('<feOffset dx="1" width="2" height="2"/>' + chain)


def displacement() -> bytes:
    return _filtered('<feDisplacementMap in2="SourceGraphic" scale="500"/>' * 2000)


def lighting() -> bytes:
    light = '<feDiffuseLighting surfaceScale="9"><fePointLight z="9"/></feDiffuseLighting>'
    return _filtered(light * 1000)


def blur_region() -> bytes:
    """A blur over a region a thousand times the canvas, in user space."""
    region = 'filterUnits="userSpaceOnUse" x="-50000" y="-50000" width="100000" height="100000"'
    return _filtered('<feGaussianBlur stdDeviation="3"/>', 512, region)


def fan_out() -> bytes:
    """One cheap-looking blur, applied by 20,000 `<use>` of a filtered rectangle."""
    uses = '<use href="#r"/>' * 20_000
    return _doc(
        '<defs><filter id="f"><feGaussianBlur stdDeviation="2"/></filter>'
        '<rect id="r" width="2048" height="2048" filter="url(#f)"/></defs>' + uses
    )


def paths() -> bytes:
    """100,000 paths drawn, each over the whole canvas: 1,000 paths used 100 times."""
    group = '<path d="M0 0H2048V2048H0z"/>' * 1000
    return _doc(f'<defs><g id="g">{group}</g></defs>' + '<use href="#g"/>' * 100)


def small_paths() -> bytes:
    """40,000 small paths of their own (about 1 MB): linear work, drawn or refused."""
    return _doc('<path d="M1 1h3v3z"/>' * 40_000)


def text() -> bytes:
    """900 KB of text in one element: its layout grows with the square of its characters
    (with fonts installed, 240 KB of it took resvg 101 s)."""
    return _doc('<text x="0" y="20" font-size="20">' + "Lorem ipsum " * 75_000 + "</text>")


def transform_text() -> bytes:
    """A transform attribute of 400,000 `a(`: a regular expression that rescanned the rest of
    it from every offset took minutes."""
    return _doc('<rect width="10" height="10" transform="' + "a(" * 400_000 + '"/>')


def dashes() -> bytes:
    """1,000 lines under a style sheet's dash pattern of 0.01: 51,200 dashes each."""
    lines = "".join(f'<path d="M0 {i} h1024" stroke="#000"/>' for i in range(1000))
    return _doc("<style>path{stroke-dasharray:.01}</style>" + lines, 1024)


SVGS: dict[str, Callable[[], bytes]] = {
    "morphology": morphology,
    "turbulence": turbulence,
    "convolve": convolve,
    "tiles": tiles,
    "displacement": displacement,
    "lighting": lighting,
    "blur-region": blur_region,
    "fan-out": fan_out,
    "paths": paths,
    "small-paths": small_paths,
    "text": text,
    "transform-text": transform_text,
    "dashes": dashes,
}

# In CI: the morphology read from payloads, a filter's fan-out, many paths drawn.
_CI = {("morphology", "svg_payloads"), ("fan-out", "normalize"), ("paths", "estimate_tokens")}


def svg_cases(large: bool) -> Iterator[Case]:
    """Each document through normalize, estimate_tokens and the three payload readers."""
    for name, build in SVGS.items():
        data = functools.partial(_checked, build)
        for entry in ("normalize", "estimate_tokens", "svg_payloads"):
            ci = (name, entry) in _CI
            if large or ci:
                options = {"providers": list(_RASTER)} if large else {"providers": ["openai"]}
                yield Case(f"svg-{name}/{entry}", entry, data=data, options=options, ci=ci)


def _checked(build: Callable[[], bytes]) -> bytes:
    data = build()
    if len(data) > MAX_INPUT:
        raise ValueError(f"{build.__name__} makes {len(data):,} bytes, over the 1 MB bound")
    return data


def payloads(data: bytes) -> dict[str, dict[str, object]]:
    """The SVG as each provider's request payload holds it."""
    text = base64.b64encode(data).decode()
    uri = "data:image/svg+xml;base64," + text
    return {
        "gemini": {"contents": [{"role": "user", "parts": [
            {"inlineData": {"mimeType": "image/svg+xml", "data": text}}]}]},
        "openai": {"messages": [{"role": "user", "content": [
            {"type": "file", "file": {"file_data": uri, "filename": "a.svg"}}]}]},
        "anthropic": {"messages": [{"role": "user", "content": [{"type": "document", "source": {
            "type": "base64", "media_type": "image/svg+xml", "data": text}}]}]},
    }  # fmt: skip
