"""SVG for providers that take no SVG: rasterised to PNG, or passed on as its text.

`rasterize_svg` draws with resvg (resvg-py, the `[svg]` extra), which has no script engine and
no network code but does read local files an `<image>` names; so the renderer only ever reads
the copy `_svg_scan` wrote, with every external reference gone, and runs in a child process
(`_svg_render`) that a crash, an allocation failure or a runaway filter ends alone.

The picture's size comes from the root's `width` and `height` (px, pt, pc, mm, cm, in at 96
dpi; `%`, `em` and `ex` fall back to the `viewBox`), else the `viewBox`, else 512 x 512; it is
scaled down to `max_side` and `TransformPolicy.max_pixels`, never up. The background stays
transparent.
"""

from __future__ import annotations

import math
import time
from types import ModuleType

from mediaparts._errors import InvalidConfig, MediaTooLarge, excerpt
from mediaparts.converting._extras import Deadline, require
from mediaparts.converting._policy import TransformPolicy, default_transforms
from mediaparts.converting._result import Converted
from mediaparts.converting._svg_render import render_png
from mediaparts.converting._svg_scan import ScannedSvg, scan_svg
from mediaparts.converting._svg_text import SVG, decode_svg
from mediaparts.formats import header_size

__all__ = ["DEFAULT_SIDE", "WORK_FLOOR", "rasterize_svg", "svg_size", "svg_text", "work_budget"]

DEFAULT_SIDE = 512
"""The side of an SVG that says neither its size nor its viewBox."""

WORK_FLOOR = 1_000_000_000
"""The drawing work (about a nanosecond a unit, `_svg_cost`) any SVG may ask, however small:
a 2048 x 2048 canvas blurred once over its whole area fits (measured 0.4 s)."""

# Pixels per unit at 96 dpi (CSS Values 3, "absolute lengths"): the ratios every renderer uses.
_NUMBER_CHARS = frozenset("0123456789+-.eE")
_UNITS = {"": 1.0, "px": 1.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 4 / 3, "pc": 16}


def rasterize_svg(
    data: bytes, policy: TransformPolicy | None = None, *, max_side: int = 2048
) -> Converted:
    """Draw an SVG (or svgz) as a PNG with a transparent background.

    Args:
        data: The whole file.
        policy: The caps (`max_expanded_bytes`, `max_pixels`, `timeout`); the policy in force
            when None.
        max_side: The longest side of the PNG, in pixels.

    Returns:
        `image/png` with its `width` and `height`; steps `"svg→png 800x600"`, preceded by
        `"svgz→svg"` and `"external references removed"` when they apply.

    Raises:
        CodecUnavailable: resvg-py is not installed (the `[svg]` extra).
        InvalidMedia: Not well-formed XML, not an SVG, a DTD entity other than plain text,
            a reference loop, or a document the renderer cannot draw.
        MediaTooLarge: Over the policy's bytes, pixels or timeout, or nested too deep, or
            drawing far more elements than it has (a `<use>` bomb), or asking more drawing
            work than `TransformPolicy.svg_work_per_byte` allows for its size (a costly
            filter, applied over a large region or many times), judged before drawing.
    """
    resvg = require(
        "resvg_py", package="resvg-py", extra="svg", media_type=SVG, doing="rasterise an SVG"
    )
    if isinstance(max_side, bool) or not isinstance(max_side, int) or max_side < 1:
        raise InvalidConfig(f"max_side must be a positive whole number, got {excerpt(max_side)}")
    policy = policy or default_transforms()
    try:
        return _rasterize(resvg, data, policy, max_side)
    except MemoryError as exc:  # the scan's copy, on a host with little memory to spare
        raise MediaTooLarge(
            f"reading this SVG of {len(data):,} bytes ran out of memory; refused "
            "(TransformPolicy.max_expanded_bytes bounds the text it may expand to)",
            media_type=SVG,
        ) from exc


def _rasterize(resvg: ModuleType, data: bytes, policy: TransformPolicy, max_side: int) -> Converted:
    started = time.monotonic()
    deadline = Deadline(policy.timeout, "rasterising this SVG", SVG)
    text, gzipped = decode_svg(data, policy)
    scanned = scan_svg(text, policy, deadline)
    width, height, view_box = svg_size(scanned)
    pixels_wide, pixels_high = _fit(width, height, max_side, policy.max_pixels)
    budget = work_budget(len(data), policy)
    work = _work(scanned, view_box, pixels_wide, pixels_high)
    if work > budget:
        raise MediaTooLarge(
            f"drawing this SVG of {len(data):,} bytes would cost about {work:,.0f} units of "
            f"work (filters by their region, radius, kernel and octaves, each time applied; "
            f"shapes, layers, text), over its budget of {budget:,} (TransformPolicy."
            f"svg_work_per_byte={policy.svg_work_per_byte:,} per byte, at least {WORK_FLOOR:,}); "
            "refused before drawing",
            size=math.ceil(min(work, 1e18)),
            limit=budget,
            media_type=SVG,
        )
    document = scanned.document(width=str(pixels_wide), height=str(pixels_high), viewBox=view_box)
    seconds = policy.timeout - (time.monotonic() - started)
    pixels = pixels_wide * pixels_high + scanned.embedded
    png = render_png(resvg, document, pixels, seconds, budget)
    size = header_size(png, "image/png") or (pixels_wide, pixels_high)
    steps: tuple[str, ...] = ("svgz→svg",) if gzipped else ()
    if scanned.removed:
        steps += ("external references removed",)
    steps += (f"svg→png {size[0]}x{size[1]}",)
    return Converted("image/png", data=png, steps=steps, width=size[0], height=size[1])


def work_budget(size: int, policy: TransformPolicy) -> int:
    """Return the drawing work an SVG of `size` bytes may cost (`_svg_cost` units)."""
    return WORK_FLOOR + size * policy.svg_work_per_byte


def _work(scanned: ScannedSvg, view_box: str, wide: int, high: int) -> float:
    """The work of drawing `scanned` on a canvas of wide x high pixels showing `view_box`."""
    box = _view_box(view_box) or (float(wide), float(high))
    return scanned.cost.units(max(wide / box[0], high / box[1]), wide * high)


def svg_text(data: bytes, policy: TransformPolicy | None = None) -> Converted:
    """Return an SVG's text, for a provider that takes text where no rasteriser is installed.

    Args:
        data: The whole file (svgz is gunzipped).
        policy: Its `max_expanded_bytes` bounds the text; the policy in force when None.

    Returns:
        `image/svg+xml` with `text` set; steps `("svg as text",)`, after `"svgz→svg"` when
        it was gzipped.

    Raises:
        InvalidMedia: Bad gzip, or bytes that are not text.
        MediaTooLarge: The text is over `policy.max_expanded_bytes`.
    """
    text, gzipped = decode_svg(data, policy or default_transforms())
    steps = ("svgz→svg", "svg as text") if gzipped else ("svg as text",)
    return Converted(SVG, text=text, steps=steps)


def svg_size(scanned: ScannedSvg) -> tuple[float, float, str]:
    """Return the drawing's size in CSS pixels and the viewBox that maps its content to it.

    Without a viewBox the content's units are pixels of the size found, so the viewBox is
    that size, from the origin.
    """
    written = scanned.attribute("viewBox")
    box = _view_box(written)
    given = (_length(scanned.attribute("width")), _length(scanned.attribute("height")))
    ratio = box[1] / box[0] if box else 1.0
    match given:
        case (float() as width, float() as height):
            pass
        case (float() as width, None):
            height = width * ratio
        case (None, float() as height):
            width = height / ratio
        case _:
            width, height = box or (float(DEFAULT_SIDE), float(DEFAULT_SIDE))
    view_box = written if box and written else f"0 0 {width:g} {height:g}"
    return width, height, view_box


def _length(value: str | None) -> float | None:
    """Return a length in CSS pixels, or None when it is relative (%, em, ex) or not one."""
    text = (value or "").strip()
    number = text.rstrip("%abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    unit = text[len(number) :].lower()
    if unit not in _UNITS:
        return None
    pixels = _number(number)
    return pixels * _UNITS[unit] if pixels is not None and pixels > 0 else None


def _view_box(value: str | None) -> tuple[float, float] | None:
    numbers = [_number(field) for field in (value or "").replace(",", " ").split()]
    if len(numbers) != 4 or None in numbers:
        return None
    width, height = numbers[2] or 0.0, numbers[3] or 0.0
    return (width, height) if width > 0 and height > 0 else None


def _number(text: str) -> float | None:
    """Return a finite number written the SVG way (digits, a point, an exponent), or None."""
    if not text or not set(text) <= _NUMBER_CHARS:  # float() also takes "inf", "1_0", spaces
        return None
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _fit(width: float, height: float, max_side: int, max_pixels: int) -> tuple[int, int]:
    """Scale down (never up) to `max_side` and `max_pixels`; at least one pixel a side."""
    scale = min(1.0, max_side / max(width, height))
    width, height = width * scale, height * scale
    scale = min(1.0, math.sqrt(max_pixels / (width * height)))
    if scale < 1.0:
        width, height = width * scale, height * scale
        return max(1, math.floor(width)), max(1, math.floor(height))
    return max(1, round(width)), max(1, round(height))
