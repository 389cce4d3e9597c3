"""What drawing an SVG would cost resvg, judged from the scanned document before it is drawn.

The unit is about a nanosecond of resvg's CPU time (resvg-py 0.5.0 on the benchmark machine:
measured per primitive and per pixel, see docs/security.md), so a budget in units is a budget
in time that does not depend on this machine's load. The cost is a sum over what resvg does:

- each filter primitive costs the filter region's pixels (at the output scale, through every
  `transform` and nested viewBox above the element) times a factor per primitive:
  `feMorphology` the area of its window, (2 rx + 1)(2 ry + 1), resvg visiting every pixel of
  it for each pixel; `feConvolveMatrix` its kernel's area; `feTurbulence` its octaves;
  `feGaussianBlur` a constant (box or IIR passes); the others a small constant;
- times how many times the filter is applied: once per time the element using it is drawn,
  counting every `<use>` and reference on the way (fan-out);
- plus each shape drawn (a constant, and its pixels up to the canvas), each layer (opacity,
  mask, clip-path: composited at the canvas's size at most) and each character of text.

The filter region is the filter's `x`, `y`, `width`, `height`: in user space, or fractions of
the element's bounding box (-10 %, 120 % by default). resvg allocates and walks the whole
region even where it lies outside the canvas, so it is not clipped here either. An element's
box comes from its attributes (rect, circle, ellipse, line, image, use, svg), its points or
path data; for a group or text, the extent of every shape in the document.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from mediaparts.converting._svg_geometry import (
    Sized,
    count_numbers,
    dash_period,
    fraction,
    length,
    numbers,
    outline_length,
    own_scale,
    shape_box,
    viewport,
)

__all__ = ["KEPT", "Node", "SvgCost", "dash_period", "outline_length", "plan", "viewport"]

# Units per pixel of the filter region, for each primitive (measured, see the module docstring).
_SIMPLE = 20.0  # offset, flood, composite, blend, colour matrix, component transfer, tile...
_FACTORS = {
    "fegaussianblur": 300.0,
    "fedropshadow": 350.0,
    "femergenode": 70.0,
    "fediffuselighting": 80.0,
    "fespecularlighting": 100.0,
    "fedisplacementmap": 60.0,
    "feimage": 40.0,
    "fetile": 150.0,  # a copy per tile: a 2 x 2 tile measured 100 per pixel
}
_MORPHOLOGY = 5.0  # per pixel of the window
_CONVOLVE = 15.0  # per kernel cell
_OCTAVE = 150.0  # per octave of noise
_SHAPE = 30_000.0  # a shape: our scan's share, usvg's parse, path building, stroking (measured)
_CANVAS = 45.0  # per pixel of the canvas: clear, encode as PNG (0.18 s at 2048 x 2048)
_FILL = 0.5  # per pixel covered (tiny-skia fills in SIMD)
_LAYER = 4.0  # per pixel of a layer: allocate, clear, composite
_PAINTS = {"pattern": 30.0, "linearGradient": 5.0, "radialGradient": 5.0}  # per pixel shaded
# Per character of one text element (with its tspans): shaping, outline, fill, 17 us each when
# fonts are installed; and its layout grows with the square of the element's characters
# (resvg 0.5 with system fonts: 12,000 characters in one <text> took 0.5 s, 60,000 6.8 s,
# 240,000 101 s; 50 elements of 1,200 took 1.0 s). Priced with fonts, whether or not this
# machine has them: without fonts nothing is shaped.
_GLYPH = 17_000.0
_GLYPH_PAIR = 2.0  # per pair of characters in one text element
_DASH = 2_000.0  # per dash of a dashed stroke: cut, stroked, filled (0.9-2.4 µs measured)
_MOST_DASHES = 1e6  # tiny-skia draws a path undashed past a million dashes (as Skia does)
_MOST = 1e18  # no sum grows past this: a float stays exact enough and finite

# The attributes the cost reads (by local name); every other one is left to the renderer.
KEPT = frozenset(
    {
        "x", "y", "width", "height", "r", "rx", "ry", "x1", "y1", "x2", "y2", "d", "points",
        "transform", "patternTransform", "viewBox", "markerWidth", "markerHeight",
        "stroke-width", "filterUnits", "primitiveUnits", "radius", "order",
        "numOctaves", "opacity", "mask", "clip-path", "style",
    }
)  # fmt: skip
SHAPES = frozenset({"rect", "circle", "ellipse", "line", "path", "polygon", "polyline", "image"})


@dataclass(frozen=True, slots=True)
class Filter:
    """A `<filter>`: its region as written and the cost per region pixel of its primitives."""

    user_space: bool
    # Width and height as written: a number, or a percentage (True) of the viewport in user
    # space or a fraction of the box; None: the default, 120 %.
    region: tuple[tuple[float, bool] | None, tuple[float, bool] | None]
    bounding_box_primitives: bool  # primitiveUnits="objectBoundingBox": radii scale with it
    flat: float  # units per pixel that do not depend on the scale
    morphology: tuple[tuple[float, float], ...]  # radii in user units (or box fractions)


@dataclass(slots=True)
class SvgCost:
    """The drawing work of one document, as sums to scale once the canvas is known.

    Each entry holds how many times it is drawn and the largest scale it is drawn at
    (through transforms), relative to the root's user units.
    """

    view: tuple[float, float] = (512.0, 512.0)  # the root's viewport, user units
    extent: tuple[float, float] = (512.0, 512.0)  # the largest shape's and the viewport's
    shapes: list[tuple[float, float, float]] = field(default_factory=list)  # count, scale, area
    layers: list[tuple[float, float, float]] = field(default_factory=list)  # count, scale, area
    paints: list[tuple[float, float, float, float]] = field(default_factory=list)  # and per pixel
    glyphs: float = 0.0
    dashes: float = 0.0
    filters: list[tuple[float, float, Filter, Sized | None]] = field(default_factory=list)
    nested: list[tuple[float, float, SvgCost, Sized]] = field(default_factory=list)

    def units(self, scale: float, canvas: int) -> float:
        """Return the work of drawing at `scale` output pixels per user unit on `canvas` pixels."""
        total = self.glyphs + self.dashes * _DASH + _CANVAS * canvas
        for count, at, area in self.shapes:
            total += count * (_SHAPE + _FILL * min(canvas, area * (scale * at) ** 2))
        for count, at, area in self.layers:
            total += count * _LAYER * min(canvas, area * (scale * at) ** 2)
        for count, at, area, factor in self.paints:
            total += count * factor * min(canvas, area * (scale * at) ** 2)
        for count, at, made, box in self.filters:
            total += count * _filter_units(made, box or self.extent, scale * at, self.view)
        for count, at, inner, box in self.nested:
            stretch = max(box[0] / inner.view[0], box[1] / inner.view[1])
            pixels = min(canvas, box[0] * box[1] * (scale * at) ** 2)
            total += count * inner.units(scale * at * stretch, max(1, math.ceil(pixels)))
        return total if total < _MOST else _MOST  # and NaN (inf - inf from a path) is _MOST


def _filter_units(made: Filter, box: Sized, scale: float, view: Sized) -> float:
    """The units of one application of `made` to an element whose box is `box` (user units)."""
    sides = []
    for written, side, whole in zip(made.region, box, view, strict=True):
        value, percent = written or (120.0, True)
        fraction = value / 100 if percent else value
        within = (whole if percent else 1.0) if made.user_space else side
        length = fraction * within
        sides.append(min(abs(length) * scale, 1e9))
    pixels = sides[0] * sides[1]
    per_pixel = made.flat
    unit = scale * (max(box) if made.bounding_box_primitives else 1.0)
    for rx, ry in made.morphology:
        window = (2 * min(abs(rx) * unit, sides[0]) + 1) * (2 * min(abs(ry) * unit, sides[1]) + 1)
        per_pixel += _MORPHOLOGY * window
    return min(pixels * per_pixel, _MOST)


class Node(Protocol):
    """What the cost reads of a scanned element."""

    local: str
    kept: dict[str, str]
    chars: int  # characters of text directly inside
    inner: SvgCost | None  # the cost of a data: SVG it draws


_TEXT = frozenset({"text", "tspan", "textPath", "tref"})
_LAYERED = frozenset({"mask", "clipPath", "filter"})


def plan(
    nodes: Sequence[Node],
    children: Sequence[list[int]],
    references: Sequence[list[int]],
    order: Sequence[int],
    view: Sized,
    everywhere: Sequence[int],
    dash: float = math.inf,
) -> SvgCost:
    """Return the cost of a document: `order` is a post-order of the elements from the root
    through `children` and `references` (each element's, by index), so its reverse has every
    element after all that draw it; `everywhere` are the elements a style sheet applies to
    every element; `dash` is the shortest dash period written anywhere in it (`dash_period`),
    taken for every shape since a style sheet or a group may give it to any.
    """
    count = len(nodes)
    drawn, scale = [0.0] * count, [1.0] * count
    if count:
        drawn[0] = 1.0
    strokes = [n.kept["stroke-width"] for n in nodes if "stroke-width" in n.kept]
    widest = max([length(stroke) or 1.0 for stroke in strokes] or [1.0])
    room = max(
        [*view, *(length(n.kept.get(k)) or 0.0 for n in nodes if n.local == "use" for k in _SIDES)]
    )
    own = [
        own_scale(n.local, n.kept, widest, room)
        if n.local == "marker" or _SCALING & n.kept.keys()
        else 1.0
        for n in nodes
    ]
    for index in reversed(order):
        times, at = drawn[index], scale[index]
        for after in (*children[index], *references[index]):
            more = times
            if nodes[after].local == "marker" and after not in children[index]:
                more = times * _vertices(nodes[index].kept)  # drawn at every vertex
            drawn[after] = min(drawn[after] + more, _MOST)
            if at * own[after] > scale[after]:
                scale[after] = min(at * own[after], 1e12)
    cost = SvgCost(view=view)
    boxes = [shape_box(n.local, n.kept) if n.local in _SIZED else None for n in nodes]
    cost.extent = (
        max([view[0], *(b[0] for b in boxes if b)]),
        max([view[1], *(b[1] for b in boxes if b)]),
    )
    filters: dict[int, Filter] = {}
    text_chars = _text_chars(nodes, children, order)
    total_drawn = min(sum(drawn), _MOST)
    for index, node in enumerate(nodes):
        box = boxes[index]
        times, at = drawn[index], scale[index]
        if box is not None and node.local in SHAPES:
            cost.shapes.append((times, at, box[0] * box[1]))
            if dash < math.inf and node.local != "image":
                dashes = min(_MOST_DASHES, outline_length(node.local, node.kept) / dash)
                cost.dashes = min(cost.dashes + times * dashes, _MOST)
        elif node.local in _TEXT:
            cost.shapes.append((times, at, cost.extent[0] * cost.extent[1]))
        if index in text_chars:
            chars = text_chars[index]
            units = _GLYPH * chars + _GLYPH_PAIR * chars * chars
            cost.glyphs = min(cost.glyphs + times * units, _MOST)
        if node.inner is not None and box is not None:
            cost.nested.append((times, at, node.inner, box))
        for target in references[index]:
            factor = _PAINTS.get(nodes[target].local)
            if factor and box is not None:
                cost.paints.append((times, at, box[0] * box[1], factor))
        targets = [t for t in references[index] if nodes[t].local in _LAYERED]
        if targets or node.kept.get("opacity", "1").strip() not in ("1", "1.0"):
            area = (box or cost.extent)[0] * (box or cost.extent)[1]
            cost.layers.append((times, at, area))
        for target in targets:
            if nodes[target].local == "filter":
                made = filters.get(target) or _filter_of(nodes, target, children)
                filters[target] = made
                cost.filters.append((times, at, made, box))
    for target in everywhere:
        if nodes[target].local == "filter":
            made = filters.get(target) or _filter_of(nodes, target, children)
            cost.filters.append((total_drawn, max(scale), made, None))
    return cost


_SIZED = SHAPES | {"use", "svg", "foreignObject"}
_SIDES = ("width", "height")
_SCALING = frozenset({"transform", "patternTransform", "viewBox"})


def _text_chars(
    nodes: Sequence[Node], children: Sequence[list[int]], order: Sequence[int]
) -> dict[int, int]:
    """The characters of each outermost text element, its tspans' included (laid out as one)."""
    inside: dict[int, int] = {}
    inner: set[int] = set()
    for index in order:  # children before their parents
        if nodes[index].local in _TEXT:
            nested = [c for c in children[index] if nodes[c].local in _TEXT]
            inner.update(nested)
            inside[index] = nodes[index].chars + sum(inside.get(c, 0) for c in nested)
    return {index: chars for index, chars in inside.items() if chars and index not in inner}


def _vertices(kept: Mapping[str, str]) -> float:
    """At most how many vertices a path, line or polygon has: its numbers, and two."""
    return 2.0 + count_numbers(kept.get("d", "") + " " + kept.get("points", ""))


def _filter_of(nodes: Sequence[Node], index: int, children: Sequence[list[int]]) -> Filter:
    """The `Filter` of element `index`: its primitives are its children and theirs (merge
    nodes, light sources)."""
    primitives: list[tuple[str, dict[str, str]]] = []
    for child in children[index]:
        primitives.append((nodes[child].local, nodes[child].kept))
        primitives.extend((nodes[g].local, nodes[g].kept) for g in children[child])
    return make_filter(nodes[index].kept, primitives)


def make_filter(
    attributes: Mapping[str, str], primitives: Iterable[tuple[str, dict[str, str]]]
) -> Filter:
    """Return the cost of a `<filter>` from its attributes and its primitives' (in order)."""
    flat, morphology = 0.0, []
    for name, values in primitives:
        local = name.lower()
        if local == "femorphology":
            radii = numbers(values.get("radius", "0"))[:2] or [0.0]
            rx = radii[0]
            ry = radii[1] if len(radii) > 1 else rx
            morphology.append((max(rx, 0.0), max(ry, 0.0)))
        elif local == "feconvolvematrix":
            order = numbers(values.get("order", "3"))[:2] or [3.0]
            cells = order[0] * (order[1] if len(order) > 1 else order[0])
            flat += _CONVOLVE * min(max(cells, 1.0), 1e12)
        elif local == "feturbulence":
            octaves = (numbers(values.get("numOctaves", "1")) or [1.0])[0]
            flat += _OCTAVE * min(max(octaves, 1.0), 1e12)
        elif local.startswith("fe") and not local.startswith(("fefunc", "fe" + "distant")):
            flat += _FACTORS.get(local, 0.0 if local.endswith("light") else _SIMPLE)
    return Filter(
        user_space=attributes.get("filterUnits", "").strip() == "userSpaceOnUse",
        region=(fraction(attributes.get("width")), fraction(attributes.get("height"))),
        bounding_box_primitives=primitive_units(attributes),
        flat=flat,
        morphology=tuple(morphology),
    )


def primitive_units(attributes: Mapping[str, str]) -> bool:
    """Whether the filter's primitives measure in fractions of the bounding box."""
    return attributes.get("primitiveUnits", "").strip() == "objectBoundingBox"
