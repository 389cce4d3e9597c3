"""The geometry the SVG cost model reads from attributes: numbers and lengths, a shape's box and
outline, a transform's stretch, a viewport, and the shortest dash period a document writes.

Every pattern here is linear by construction (tests/robustness/test_regex_safety.py), and every
number is clamped finite: the text is the client's.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Mapping, Sequence
from itertools import pairwise, repeat

__all__ = [
    "Sized",
    "count_numbers",
    "dash_period",
    "fraction",
    "length",
    "numbers",
    "outline_length",
    "own_scale",
    "shape_box",
    "viewport",
]

Sized = tuple[float, float]

# Linear by construction (tests/robustness/test_regex_safety.py): each run is entered once.
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_COMMAND = re.compile(r"([MmZzLlHhVvCcSsQqTtAa])")
# A name starts after a non-letter and arguments stop at any parenthesis: without both, a
# transform of 40,000 letters (or of "a(" repeated) took 15 s, each offset rescanning the rest.
_TRANSFORM = re.compile(r"(?<![A-Za-z])([A-Za-z]+)\s*\(([^()]*)\)")
_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_ARGUMENTS = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "t": 2, "a": 7, "z": 0}


def shape_box(local: str, attributes: Mapping[str, str]) -> tuple[float, float] | None:
    """Return an element's width and height in its user units, where its own attributes say;
    None for a group, text, or anything sized by its content."""
    get = attributes.get
    if local in ("rect", "image", "use", "svg", "foreignObject", "pattern", "symbol"):
        width, height = length(get("width")), length(get("height"))
        if width is None or height is None:
            return None
        box = (width, height)
    elif local == "circle":
        side = 2 * (length(get("r")) or 0.0)
        box = (side, side)
    elif local == "ellipse":
        box = (2 * (length(get("rx")) or 0.0), 2 * (length(get("ry")) or 0.0))
    elif local == "line":
        x1, y1 = length(get("x1")) or 0.0, length(get("y1")) or 0.0
        x2, y2 = length(get("x2")) or 0.0, length(get("y2")) or 0.0
        box = (abs(x2 - x1), abs(y2 - y1))
    elif local in ("polygon", "polyline"):
        box = _extent(numbers(get("points", "")))
    elif local == "path":
        box = _small_path_box(get("d", "")) or _path_box(get("d", ""))
    else:
        return None
    stroke = abs(length(get("stroke-width")) or 1.0)
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
    view = numbers(attributes.get("viewBox", ""))
    if len(view) == 4 and view[2] > 0 and view[3] > 0:
        if local == "marker":
            width = length(attributes.get("markerWidth")) or 3.0
            height = length(attributes.get("markerHeight")) or 3.0
            scale *= max(1.0, widest_stroke)
        else:
            width = length(attributes.get("width")) or room
            height = length(attributes.get("height")) or room
        scale *= max(abs(width) / view[2], abs(height) / view[3])
    elif local == "marker":
        scale *= max(1.0, widest_stroke)
    return min(max(scale, 1e-9), 1e12)


def viewport(kept: Mapping[str, str]) -> Sized | None:
    """An `<svg>`'s viewport in its user units: its viewBox, else its width and height."""
    view = numbers(kept.get("viewBox", ""))
    if len(view) == 4 and view[2] > 0 and view[3] > 0:
        return (view[2], view[3])
    width, height = length(kept.get("width")), length(kept.get("height"))
    if width and height and width > 0 and height > 0:
        return (width, height)
    return None


def _transform_scale(text: str) -> float:
    """The largest factor a transform list stretches a length by (a bound: row sums)."""
    scale = 1.0
    for name, arguments in _TRANSFORM.findall(text):
        values = numbers(arguments)
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
    lengths = [abs(number) for number in numbers(value)]
    total = sum(lengths) * (2 if len(lengths) % 2 else 1)
    return total if total > 0 else math.inf


def outline_length(local: str, attributes: Mapping[str, str]) -> float:
    """A bound on the length of a shape's outline, in its user units: what a dash pattern
    walks (a curve is no longer than its control polygon, an arc than its ellipse and chord)."""
    get = attributes.get
    if local == "line":
        x1, y1 = length(get("x1")) or 0.0, length(get("y1")) or 0.0
        x2, y2 = length(get("x2")) or 0.0, length(get("y2")) or 0.0
        return min(math.hypot(x2 - x1, y2 - y1), 1e12)
    if local in ("polygon", "polyline"):
        values = numbers(get("points", ""))
        points = list(zip(values[0::2], values[1::2], strict=False))
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


def count_numbers(text: str) -> int:
    """How many numbers `text` holds (a path's or a polygon's, to bound its vertices)."""
    return len(_NUMBER.findall(text))


def numbers(text: str) -> list[float]:
    return [_finite(token) for token in _NUMBER.findall(text)]


def _finite(token: str) -> float:
    value = float(token)
    return value if math.isfinite(value) else 1e12


def length(text: str | None) -> float | None:
    """A length's number (units other than px are within a small factor: a bound suffices)."""
    found = _NUMBER.match((text or "").strip())
    return (
        _finite(found.group()) * (96.0 if (text or "").strip().endswith("in") else 1.0)
        if found
        else None
    )


def fraction(text: str | None) -> tuple[float, bool] | None:
    """A filter region's width or height: its number, and whether it is a percentage."""
    value = length(text)
    return None if value is None else (value, (text or "").strip().endswith("%"))
