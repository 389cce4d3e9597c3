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
import re
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise, repeat
from typing import Protocol

__all__ = ["KEPT", "Node", "SvgCost", "dash_period", "outline_length", "plan", "viewport"]

Sized = tuple[float, float]

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
_GLYPH = 1_000.0  # per character of text: shaping, outline, fill
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

# Linear by construction (tests/robustness/test_regex_safety.py): each run is entered once.
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_COMMAND = re.compile(r"([MmZzLlHhVvCcSsQqTtAa])")
# A name starts after a non-letter and arguments stop at any parenthesis: without both, a
# transform of 40,000 letters (or of "a(" repeated) took 15 s, each offset rescanning the rest.
_TRANSFORM = re.compile(r"(?<![A-Za-z])([A-Za-z]+)\s*\(([^()]*)\)")
_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_ARGUMENTS = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "t": 2, "a": 7, "z": 0}


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
        total = self.glyphs * _GLYPH + self.dashes * _DASH + _CANVAS * canvas
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
    widest = max([_length(stroke) or 1.0 for stroke in strokes] or [1.0])
    room = max(
        [*view, *(_length(n.kept.get(k)) or 0.0 for n in nodes if n.local == "use" for k in _SIDES)]
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
        if node.local in _TEXT and node.chars:
            cost.glyphs = min(cost.glyphs + times * node.chars, _MOST)
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


def _vertices(kept: Mapping[str, str]) -> float:
    """At most how many vertices a path, line or polygon has: its numbers, and two."""
    return 2.0 + len(_NUMBER.findall(kept.get("d", "") + " " + kept.get("points", "")))


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
            radii = _numbers(values.get("radius", "0"))[:2] or [0.0]
            rx = radii[0]
            ry = radii[1] if len(radii) > 1 else rx
            morphology.append((max(rx, 0.0), max(ry, 0.0)))
        elif local == "feconvolvematrix":
            order = _numbers(values.get("order", "3"))[:2] or [3.0]
            cells = order[0] * (order[1] if len(order) > 1 else order[0])
            flat += _CONVOLVE * min(max(cells, 1.0), 1e12)
        elif local == "feturbulence":
            octaves = (_numbers(values.get("numOctaves", "1")) or [1.0])[0]
            flat += _OCTAVE * min(max(octaves, 1.0), 1e12)
        elif local.startswith("fe") and not local.startswith(("fefunc", "fe" + "distant")):
            flat += _FACTORS.get(local, 0.0 if local.endswith("light") else _SIMPLE)
    return Filter(
        user_space=attributes.get("filterUnits", "").strip() == "userSpaceOnUse",
        region=(_fraction(attributes.get("width")), _fraction(attributes.get("height"))),
        bounding_box_primitives=primitive_units(attributes),
        flat=flat,
        morphology=tuple(morphology),
    )


def primitive_units(attributes: Mapping[str, str]) -> bool:
    """Whether the filter's primitives measure in fractions of the bounding box."""
    return attributes.get("primitiveUnits", "").strip() == "objectBoundingBox"


def shape_box(local: str, attributes: Mapping[str, str]) -> tuple[float, float] | None:
    """Return an element's width and height in its user units, where its own attributes say;
    None for a group, text, or anything sized by its content."""
    get = attributes.get
    if local in ("rect", "image", "use", "svg", "foreignObject", "pattern", "symbol"):
        width, height = _length(get("width")), _length(get("height"))
        if width is None or height is None:
            return None
        box = (width, height)
    elif local == "circle":
        side = 2 * (_length(get("r")) or 0.0)
        box = (side, side)
    elif local == "ellipse":
        box = (2 * (_length(get("rx")) or 0.0), 2 * (_length(get("ry")) or 0.0))
    elif local == "line":
        x1, y1 = _length(get("x1")) or 0.0, _length(get("y1")) or 0.0
        x2, y2 = _length(get("x2")) or 0.0, _length(get("y2")) or 0.0
        box = (abs(x2 - x1), abs(y2 - y1))
    elif local in ("polygon", "polyline"):
        box = _extent(_numbers(get("points", "")))
    elif local == "path":
        box = _small_path_box(get("d", "")) or _path_box(get("d", ""))
    else:
        return None
    stroke = abs(_length(get("stroke-width")) or 1.0)
    return (min(box[0] + stroke, 1e12), min(box[1] + stroke, 1e12))


def own_scale(
    local: str, attributes: Mapping[str, str], widest_stroke: float, room: float
) -> float:
    """Return how much an element scales what it draws: its transform's largest stretch, and
    a nested viewport's (svg, symbol, pattern, marker) viewBox to its size; a viewport that
    does not say its size (a symbol sized by its `<use>`, 100 %) is taken as `room`, the
    largest the document gives anything."""
    scale = 1.0
    for name in ("transform", "patternTransform"):
        if name in attributes:
            scale *= _transform_scale(attributes[name])
    view = _numbers(attributes.get("viewBox", ""))
    if len(view) == 4 and view[2] > 0 and view[3] > 0:
        if local == "marker":
            width = _length(attributes.get("markerWidth")) or 3.0
            height = _length(attributes.get("markerHeight")) or 3.0
            scale *= max(1.0, widest_stroke)
        else:
            width = _length(attributes.get("width")) or room
            height = _length(attributes.get("height")) or room
        scale *= max(abs(width) / view[2], abs(height) / view[3])
    elif local == "marker":
        scale *= max(1.0, widest_stroke)
    return min(max(scale, 1e-9), 1e12)


def viewport(kept: Mapping[str, str]) -> Sized | None:
    """An `<svg>`'s viewport in its user units: its viewBox, else its width and height."""
    view = _numbers(kept.get("viewBox", ""))
    if len(view) == 4 and view[2] > 0 and view[3] > 0:
        return (view[2], view[3])
    width, height = _length(kept.get("width")), _length(kept.get("height"))
    if width and height and width > 0 and height > 0:
        return (width, height)
    return None


def _transform_scale(text: str) -> float:
    """The largest factor a transform list stretches a length by (a bound: row sums)."""
    scale = 1.0
    for name, arguments in _TRANSFORM.findall(text):
        values = _numbers(arguments)
        kind = name.lower()
        if kind == "matrix" and len(values) >= 4:
            a, b, c, d = values[:4]
            scale *= max(abs(a) + abs(c), abs(b) + abs(d), 1e-9)
        elif kind == "scale" and values:
            scale *= max(abs(values[0]), abs(values[-1]))
        elif kind in ("skewx", "skewy") and values:
            scale *= 1.0 + min(abs(math.tan(math.radians(values[0]))), 1e12)
        elif kind == "rotate":
            scale *= math.sqrt(2)
    return min(scale, 1e12)


def dash_period(text: str, *, sheet: bool) -> float:
    """The shortest dash period (the sum of a `stroke-dasharray`'s lengths, twice it for an odd
    count) in an attribute's value, or in every `stroke-dasharray` declaration of CSS text
    (`sheet`); infinity for none. Units and percentages are read as plain numbers: every unit
    but a few of the percentage's is longer, so the count of dashes is a bound."""
    if not sheet:
        return _period(text)
    lowered, shortest, at = text.translate(_LOWER), math.inf, 0
    while (found := lowered.find("stroke-dasharray", at)) >= 0:
        at = found + len("stroke-dasharray")
        end = min([len(text), *(i for i in map(lowered.find, ";}!", repeat(at)) if i >= 0)])
        shortest = min(shortest, _period(text[at:end].lstrip().removeprefix(":")))
    return shortest


def _period(value: str) -> float:
    lengths = [abs(number) for number in _numbers(value)]
    total = sum(lengths) * (2 if len(lengths) % 2 else 1)
    return total if total > 0 else math.inf


def outline_length(local: str, attributes: Mapping[str, str]) -> float:
    """A bound on the length of a shape's outline, in its user units: what a dash pattern
    walks (a curve is no longer than its control polygon, an arc than its ellipse and chord)."""
    get = attributes.get
    if local == "line":
        x1, y1 = _length(get("x1")) or 0.0, _length(get("y1")) or 0.0
        x2, y2 = _length(get("x2")) or 0.0, _length(get("y2")) or 0.0
        return min(math.hypot(x2 - x1, y2 - y1), 1e12)
    if local in ("polygon", "polyline"):
        numbers = _numbers(get("points", ""))
        points = list(zip(numbers[0::2], numbers[1::2], strict=False))
        return min(_polygon_length(points + points[:1]), 1e12)
    if local == "path":
        return _path_walk(get("d", ""))[2]
    box = shape_box(local, attributes) or (0.0, 0.0)  # rect, circle, ellipse: within 2π/4
    return min(4.0 * (box[0] + box[1]), 1e12)


def _polygon_length(points: Sequence[tuple[float, float]]) -> float:
    return math.fsum(math.hypot(bx - ax, by - ay) for (ax, ay), (bx, by) in pairwise(points))


def _small_path_box(d: str) -> tuple[float, float] | None:
    """A bound on a short path's sides without walking it (twice the sum of its numbers'
    sizes: wherever its points go, relative or absolute), or None for a longer one."""
    if len(d) > 48:
        return None
    side = min(2 * sum(abs(float(n)) for n in _NUMBER.findall(d)), 1e12)
    return (side, side)


def _path_box(d: str) -> tuple[float, float]:
    """A path's width and height, from every point and control point (arcs: their radii)."""
    width, height, _ = _path_walk(d)
    return (width, height)


def _path_walk(d: str) -> tuple[float, float, float]:
    """A path's width and height (`_path_box`), and a bound on its length: its points and
    control points joined in order, each arc's ellipse added."""
    xs: list[float] = [0.0]
    ys: list[float] = [0.0]
    length = 0.0
    x = y = start_x = start_y = 0.0
    pieces = _COMMAND.split(d)
    for command, arguments in zip(pieces[1::2], pieces[2::2], strict=False):
        lower = command.lower()
        if lower == "z":
            length += math.hypot(start_x - x, start_y - y)
            x, y = start_x, start_y
            xs.append(x)
            ys.append(y)
            continue
        need = _ARGUMENTS.get(lower, 0)
        values = [float(token) for token in _NUMBER.findall(arguments)]
        relative = command != command.upper()
        for at in range(0, len(values) - need + 1, need or 1):
            if need == 0:
                break
            group = values[at : at + need]
            ox, oy = (x, y) if relative else (0.0, 0.0)
            if lower == "h":
                length += abs(ox + group[0] - x)
                x = ox + group[0]
            elif lower == "v":
                length += abs(oy + group[0] - y)
                y = oy + group[0]
            elif lower == "a":
                length += 2 * math.pi * (abs(group[0]) + abs(group[1]))
                xs += (x - abs(group[0]), x + abs(group[0]))
                ys += (y - abs(group[1]), y + abs(group[1]))
                x, y = ox + group[5], oy + group[6]
            else:
                before = len(xs)
                xs += [ox + value for value in group[0::2]]
                ys += [oy + value for value in group[1::2]]
                x, y = xs[-1], ys[-1]
                if lower != "m" or at > 0:  # a move's later pairs are lines
                    ends = zip(xs[before - 1 :], ys[before - 1 :], strict=True)
                    length += _polygon_length(list(ends))
            xs.append(x)
            ys.append(y)
            if lower == "m" and at == 0:
                start_x, start_y = x, y
    side = min(max(xs) - min(xs), 1e12), min(max(ys) - min(ys), 1e12)
    return (side[0], side[1], min(length, 1e12) if length == length else 1e12)


def _extent(numbers: Sequence[float]) -> tuple[float, float]:
    xs, ys = numbers[0::2] or [0.0], numbers[1::2] or [0.0]
    return (max(xs) - min(xs), max(ys) - min(ys))


def _numbers(text: str) -> list[float]:
    return [_finite(token) for token in _NUMBER.findall(text)]


def _finite(token: str) -> float:
    value = float(token)
    return value if math.isfinite(value) else 1e12


def _length(text: str | None) -> float | None:
    """A length's number (units other than px are within a small factor: a bound suffices)."""
    found = _NUMBER.match((text or "").strip())
    return (
        _finite(found.group()) * (96.0 if (text or "").strip().endswith("in") else 1.0)
        if found
        else None
    )


def _fraction(text: str | None) -> tuple[float, bool] | None:
    """A filter region's width or height: its number, and whether it is a percentage."""
    value = _length(text)
    return None if value is None else (value, (text or "").strip().endswith("%"))
