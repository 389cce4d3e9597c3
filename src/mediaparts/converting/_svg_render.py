"""Running resvg in a child process, so that no SVG can end or stall the caller's process.

resvg aborts the process when an allocation fails, and a `<pattern>` tile's size is the
document's to choose (a 1e7 x 1e7 user-unit tile asks for 400 TB: measured, resvg-py 0.5.0
aborts), while some filters cost the pixels times the square of a radius the document gives
(`feMorphology`, seconds per unit). Neither can be bounded from the text without redoing the
renderer's geometry. So the renderer runs in a child interpreter (`python -I`, only resvg-py
imported) with an address-space cap (`RLIMIT_AS`, where the OS has it), in an empty working
directory, with a 64 MB stack for resvg's recursion, and is killed at the policy's timeout.
It dies with this process (Linux: `PR_SET_PDEATHSIG`), and its own CPU cap follows the drawing
work the scan allowed it (`_svg_cost`), so a document the cost model misjudges still ends
within a few times its budget.
Starting it costs about 45 ms per raster (measured on the benchmark machine).
"""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import tempfile
from types import ModuleType

from mediaparts._errors import CodecUnavailable, InvalidMedia, MediaTooLarge, excerpt
from mediaparts.converting._svg_text import SVG

__all__ = ["render_png"]

# Room for the interpreter, resvg, the system fonts it maps and its thread's stack, measured
# well under this; on top of it, a few copies of the canvas and of the embedded rasters
# (layers, decoded images, the PNG encoder's rows), 4 bytes a pixel.
_BASE_MEMORY = 2**30
_CANVAS_COPIES = 6

# CPU seconds per unit of drawing work (`_svg_cost`: about a nanosecond each), and the
# margin over it the child's own CPU cap allows (a slower machine, start-up, the PNG encoder).
_SECONDS_PER_UNIT = 1e-9
_CPU_MARGIN = 3.0
_CPU_START = 2  # seconds for the interpreter, resvg's import and its font database

# The child's whole program. Exit 3: resvg refused the document (its message on stderr).
# First of all, it asks the kernel for SIGKILL when its parent dies (Linux, prctl's
# PR_SET_PDEATHSIG), then checks that parent is still the one that started it: had it died
# before the request, the child was adopted already and ends at once.
_CHILD = """
import os, sys, threading
if sys.platform.startswith("linux"):
    try:
        import ctypes, signal
        ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
if os.getppid() != int(sys.argv[4]):
    os._exit(4)
try:
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))
    # A backstop: an orphan (its parent killed outright) ends at its own CPU cap.
    cpu = int(sys.argv[3])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
except (ImportError, ValueError, OSError):
    pass
sys.path.insert(0, sys.argv[2])
import resvg_py
document = sys.stdin.buffer.read().decode("utf-8")
outcome = []
def draw():
    try:
        outcome.append(resvg_py.svg_to_bytes(svg_string=document, dpi=96.0))
    except BaseException as exc:
        outcome.append(exc)
threading.stack_size(64 * 2**20)
thread = threading.Thread(target=draw)
thread.start()
thread.join()
if isinstance(outcome[0], bytes):
    sys.stdout.buffer.write(outcome[0])
    sys.exit(0)
sys.stderr.write(str(outcome[0]) or type(outcome[0]).__name__)
sys.exit(3)
"""


def render_png(resvg: ModuleType, document: str, pixels: int, seconds: float, work: int) -> bytes:
    """Return resvg's PNG of `document`, drawn in a child process.

    Args:
        resvg: The imported `resvg_py` (where the child finds it).
        document: The SVG, already rewritten by the scan, with its size in pixels set.
        pixels: The canvas's pixels and those of the rasters it embeds, for the child's
            memory cap.
        seconds: How long the child may take before it is killed.
        work: The drawing work it was judged to be allowed (`_svg_cost` units), which sets
            the child's own CPU cap.

    Raises:
        CodecUnavailable: No child interpreter could be started (an embedded Python without
            an executable, a sandbox that forbids processes).
        InvalidMedia: resvg refused the document, or its process failed.
        MediaTooLarge: It needed more memory than the cap, or more time than `seconds`.
    """
    if not sys.executable:
        raise CodecUnavailable(
            "to rasterise an SVG, mediaparts runs resvg in a child Python, and this one does "
            "not know its own executable (sys.executable is empty)",
            media_type=SVG,
            package="resvg-py",
            extra="svg",
        )
    where = os.path.dirname(os.path.dirname(os.path.abspath(resvg.__file__ or "")))
    memory = _BASE_MEMORY + _CANVAS_COPIES * 4 * pixels
    # A subprocess wait holds at most ~24 days: the policy allows a day, clamp all the same.
    wait = min(max(seconds, 0.001), 86_400.0)
    cpu = min(math.ceil(wait) + 1, _CPU_START + math.ceil(_CPU_MARGIN * work * _SECONDS_PER_UNIT))
    with tempfile.TemporaryDirectory(prefix="mediaparts-svg-") as empty:
        try:
            done = subprocess.run(
                [
                    sys.executable,
                    "-I",
                    "-c",
                    _CHILD,
                    str(memory),
                    where,
                    str(cpu),
                    str(os.getpid()),
                ],
                input=document.encode("utf-8"),
                capture_output=True,
                timeout=wait,
                cwd=empty,
                check=False,
            )
        except OSError as exc:  # no process may be started here (a sandbox), or no such file
            raise CodecUnavailable(
                f"to rasterise an SVG, mediaparts runs resvg in a child Python, which could not "
                f"start: {excerpt(str(exc))}",
                media_type=SVG,
                package="resvg-py",
                extra="svg",
            ) from exc
        except subprocess.TimeoutExpired as exc:  # run() has killed the child
            raise MediaTooLarge(
                f"rasterising this SVG took longer than the {seconds:.3g} s left of "
                "TransformPolicy.timeout; refused",
                media_type=SVG,
            ) from exc
    if done.returncode == 0:
        return done.stdout
    if done.returncode in (-getattr(signal, "SIGXCPU", 24), -signal.SIGKILL):  # its CPU cap
        raise MediaTooLarge(
            f"rasterising this SVG used its {cpu} s of CPU (from its drawing-work budget, "
            "TransformPolicy.svg_work_per_byte, and TransformPolicy.timeout); refused",
            media_type=SVG,
        )
    said = done.stderr.decode("utf-8", "replace").strip()
    if "memory allocation" in said or "MemoryError" in said:
        raise MediaTooLarge(
            f"rasterising this SVG needed more than {memory:,} bytes of memory (a pattern "
            "tile or layer too large to draw); refused",
            size=None,
            limit=memory,
            media_type=SVG,
        )
    if done.returncode == 3:
        raise InvalidMedia(f"the renderer could not draw this SVG: {excerpt(said)}", media_type=SVG)
    raise InvalidMedia(
        f"the renderer failed on this SVG (exit status {done.returncode}): "
        f"{excerpt(said.splitlines()[-1] if said else 'no message')}",
        media_type=SVG,
    )
