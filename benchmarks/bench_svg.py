"""Rasterising SVG to PNG at 1024 px on the long side: our scan plus resvg, against resvg alone.

    python benchmarks/bench_svg.py

`rasterize_svg` parses and rewrites the document with expat before resvg draws it (see
`converting/_svg_scan.py`), and draws in a child process (`converting/_svg_render.py`), which
costs a fixed 30-45 ms to start; the baseline is resvg-py drawing the same document at the
same size, unscanned, in this process. Two inputs: testdata/drawing.svg (a few shapes
and a line of text) and a generated diagram of 400 boxes with labels, 600 arrows with markers,
gradients and `<use>` (about 2,000 elements, 130 KB). Issue 15 asks for the cost per raster
to be reported; there is no target.
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from harness import Row  # noqa: E402  (beside this file)

from mediaparts.converting import TransformPolicy, rasterize_svg  # noqa: E402  (the path above)

SIDE = 1024


def drawing() -> str:
    """testdata/drawing.svg with its size set to 1024 x 768 (its viewBox maps the content)."""
    text = (ROOT / "testdata" / "drawing.svg").read_text()
    return text.replace('width="64" height="48"', f'width="{SIDE}" height="{SIDE * 3 // 4}"')


def diagram(boxes: int = 400) -> str:
    """A flow chart on a 4000 x 3000 viewBox: labelled boxes in a grid, arrows between them."""
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4000 3000">',
        "<defs>",
        '<linearGradient id="fill"><stop offset="0" stop-color="#cde"/>'
        '<stop offset="1" stop-color="#89a"/></linearGradient>',
        '<marker id="head" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z"/></marker>',
        '<rect id="box" width="120" height="60" rx="10" fill="url(#fill)" stroke="#234"/>',
        "</defs>",
    ]
    columns = 20
    for i in range(boxes):
        x, y = 40 + (i % columns) * 195, 40 + (i // columns) * 145
        parts.append(f'<use href="#box" x="{x}" y="{y}"/>')
        parts.append(
            f'<text x="{x + 60}" y="{y + 35}" font-family="sans-serif" font-size="14" '
            f'text-anchor="middle">step {i}</text>'
        )
        if i % columns:
            parts.append(
                f'<path d="M{x - 75},{y + 30} L{x - 2},{y + 30}" stroke="#234" '
                'marker-end="url(#head)"/>'
            )
        if i >= columns:
            curve = f"M{x + 60},{y - 85} C{x + 20},{y - 60} {x + 100},{y - 30} {x + 60},{y - 2}"
            parts.append(
                f'<path d="{curve}" fill="none" stroke="#a33" stroke-dasharray="4 2" '
                'marker-end="url(#head)"/>'
            )
    parts.append("</svg>")
    return "\n".join(parts)


def _medians(
    ours: Callable[[], object], baseline: Callable[[], object], repeat: int = 15
) -> tuple[float, float]:
    """Median times of two functions run in turn, so a busy machine slows both alike."""
    ours(), baseline()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for fn, found in ((ours, times[0]), (baseline, times[1])):
            gc.collect()
            start = time.perf_counter()
            fn()
            found.append(time.perf_counter() - start)
    return statistics.median(times[0]), statistics.median(times[1])


def _row(name: str, document: str) -> Row:
    import resvg_py

    data = document.encode()
    policy = TransformPolicy()
    converted = rasterize_svg(data, policy, max_side=SIDE)
    assert max(converted.width or 0, converted.height or 0) == SIDE, converted
    wide = (converted.width or 0) >= (converted.height or 0)
    size = {"width": SIDE} if wide else {"height": SIDE}
    ours, alone = _medians(
        lambda: rasterize_svg(data, policy, max_side=SIDE),
        lambda: resvg_py.svg_to_bytes(svg_string=document, dpi=96.0, **size),
    )
    return Row(
        f"rasterize_svg, {name}, {converted.width}x{converted.height} PNG",
        ours,
        alone,
        "resvg-py alone, same size, unscanned",
        target="reported",
        note=f"{len(data):,} bytes of SVG; includes starting the renderer's process",
    )


def run() -> list[Row]:
    """The rows for benchmarks/run.py (section `svg`); none without resvg-py."""
    try:
        import resvg_py  # noqa: F401  (only whether it is there)
    except ImportError:
        return []
    return [_row("drawing.svg", drawing()), _row("a 400-box diagram", diagram())]


if __name__ == "__main__":
    from harness import table

    print(table(run()))
