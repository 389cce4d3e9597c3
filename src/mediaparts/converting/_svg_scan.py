"""Reading an SVG without trusting it: the bounded scan that comes before any renderer.

resvg (through resvg-py) reads the files an `<image href>` names, absolute or relative to the
working directory (checked with resvg-py 0.5.0 / resvg 0.48), so it cannot be handed a
document as it came. This scan parses the document with expat (in C, with its own stack: deep
nesting cannot overflow the interpreter's) and writes a new one, which is all the renderer
ever reads:

- no DTD, comments or processing instructions (so no `<?xml-stylesheet?>`), no `<script>`
  and no `on*` handlers;
- every `href` that is not a `#fragment` or a checked `data:` URI removed (a `data:` SVG is
  scanned the same way, a `data:` raster kept only when its header's pixels fit the policy);
- every CSS `url()` that is not a `#fragment` replaced by `none`, every `@import` removed.

Entities: only internal ones whose value is plain text are expanded (Adobe Illustrator
declares namespace URIs that way); external, parameter and unparsed entities (XXE), and an
entity whose value refers to another (the billion laughs) are refused before any expansion,
and the text the rest may expand to is bounded before parsing starts.

The work a renderer would do is bounded too: nesting through children and references
(`<use>`, `url(#...)`, `href="#..."`) deeper than `MAX_DEPTH` is refused, since resvg recurses
on its stack for each level; so is a document that would draw far more elements than it has,
counting each reference as a copy of what it names (a `<use>` bomb); so is a reference loop.
The scan also records what the drawing work depends on (each element's box, transforms,
filters and their primitives, text), which `_svg_cost` adds up once the canvas is known. What
only the renderer can find (a pattern tile too large to allocate) is bounded by running it in
a child process (`_svg_render`).
"""

from __future__ import annotations

import math
import pyexpat
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from mediaparts._errors import InvalidMedia, MediaTooLarge, excerpt
from mediaparts._inline import data_uri, parse_data_uri
from mediaparts.converting._extras import Deadline
from mediaparts.converting._policy import TransformPolicy
from mediaparts.converting._svg_cost import KEPT, SvgCost, dash_period, plan, viewport
from mediaparts.converting._svg_text import GZIP, SVG, decode_svg, too_large
from mediaparts.detection import detect_media_type
from mediaparts.formats import header_size

__all__ = ["MAX_DEPTH", "ScannedSvg", "scan_svg"]

MAX_DEPTH = 128
"""The deepest nesting drawn, through children and references. resvg uses about 34 KB of
stack per level (measured: 8 MB overflows near 240 `<g>`, and a chain of 200 `<use>`); the
renderer's thread (in its child process) has 64 MB, far more than this needs, and real
drawings stay well under 40 levels."""

# A document may draw this many elements, counting each reference as a copy of what it names,
# or ten times the elements it has, whichever is more: a big map is linear, a bomb exponential.
_WORK_FLOOR = 250_000
_WORK_FACTOR = 10
_MAX_NESTED = 2  # a data: SVG inside a data: SVG inside the document, and no deeper
_CHUNK = 2**20  # bytes fed to expat between deadline checks
_RASTERS = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})  # what resvg decodes

_REFERENCE = re.compile(r"&([^\s&;#<>\"']+);")
# ASCII letters only, so that indexes in the lowered copy are indexes in the text.
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_ATTRIBUTE_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\t": "&#9;", "\n": "&#10;"}
)
_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})


@dataclass(frozen=True, slots=True)
class ScannedSvg:
    """A document rewritten by the scan: what the renderer may read.

    Attributes:
        root: The root element's name as written (`"svg"`, or `"svg:svg"` with a prefix).
        attributes: The root element's attributes, cleaned like every other element's.
        body: Everything after the root's start tag, up to and including its end tag.
        removed: How many external references were removed or replaced.
        embedded: The pixels of the rasters embedded as `data:` URIs, which the renderer
            decodes whole.
    """

    root: str
    attributes: tuple[tuple[str, str], ...]
    body: str
    removed: int
    embedded: int = 0
    cost: SvgCost = field(default_factory=SvgCost)

    def attribute(self, name: str) -> str | None:
        """Return the root's attribute `name`, or None."""
        return next((value for key, value in self.attributes if key == name), None)

    def document(self, **changes: str) -> str:
        """Return the document, with some of the root's attributes set (`viewBox="..."`)."""
        attributes = dict(self.attributes) | changes
        written = "".join(
            f' {k}="{v.translate(_ATTRIBUTE_ESCAPES)}"' for k, v in attributes.items()
        )
        return f"<{self.root}{written}>{self.body}"


def scan_svg(text: str, policy: TransformPolicy, deadline: Deadline) -> ScannedSvg:
    """Check and rewrite an SVG's text for the renderer (see the module's docstring).

    Raises:
        InvalidMedia: Not well-formed XML, not an SVG, an entity other than plain text, or a
            reference loop.
        MediaTooLarge: Over the policy's bytes or pixels, nested deeper than `MAX_DEPTH`,
            too much to draw, or over the policy's timeout.
    """
    return _Scan(policy, deadline, _Budget(policy.max_expanded_bytes), 0).run(text)


@dataclass(slots=True)
class _Budget:
    """Characters the rewritten documents (the outer one and the data: SVGs) may still use,
    and the pixels their embedded rasters have used so far."""

    chars: int
    pixels: int = 0


@dataclass(slots=True)
class _Element:
    parent: int
    local: str = ""
    refs: list[str] = field(default_factory=list)
    work: int = 0  # what a data: SVG in its href draws
    depth: int = 0  # and how deep it nests
    kept: dict[str, str] = field(default_factory=dict)  # what the cost reads (`_svg_cost`)
    chars: int = 0  # characters of text directly inside, not counting white space
    inner: SvgCost | None = None  # what a data: SVG in its href costs to draw


class _Scan:
    """One pass of expat over one document, writing the cleaned copy as it goes."""

    def __init__(self, policy: TransformPolicy, deadline: Deadline, budget: _Budget, nested: int):
        self.policy, self.deadline, self.budget, self.nested = policy, deadline, budget, nested
        self.out: list[str] = []
        self.nodes: list[_Element] = []
        self.open: list[int] = []  # the elements open, as indexes into nodes
        # Every element of each id: which one a renderer picks among duplicates is its own
        # business, so a reference counts as a reference to all of them.
        self.ids: dict[str, list[int]] = {}
        self.sheet_refs: list[str] = []  # url(#...) in <style>: may apply to every element
        self.dash = math.inf  # the shortest dash period written anywhere (`dash_period`)
        self.entities: dict[str, str] = {}
        self.depth = 0
        self.skipping = 0  # inside a <script>
        self.style: list[str] | None = None  # the text of the <style> being read
        self.root: tuple[str, tuple[tuple[str, str], ...]] | None = None
        self.removed = 0
        self.text = ""
        self.total_work = 0  # elements drawn, counting references (known after run)
        self.max_depth = 0
        self.cost = SvgCost()  # what drawing it costs, by canvas (known after run)

    def run(self, text: str) -> ScannedSvg:
        self.text = text
        parser = pyexpat.ParserCreate(
            encoding="utf-8"
        )  # decoded already: the declaration's is moot
        parser.ordered_attributes = True
        parser.buffer_text = True
        parser.SetParamEntityParsing(pyexpat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._characters
        parser.EntityDeclHandler = self._entity
        parser.EndDoctypeDeclHandler = self._doctype_end
        parser.ExternalEntityRefHandler = self._external
        encoded = text.encode("utf-8", "surrogatepass")
        try:
            for start in range(0, len(encoded), _CHUNK):
                parser.Parse(encoded[start : start + _CHUNK], False)
                self.deadline.check()
            parser.Parse(b"", True)
        except pyexpat.ExpatError as exc:
            raise InvalidMedia(
                f"this SVG is not well-formed XML: {pyexpat.ErrorString(exc.code)} at line "
                f"{exc.lineno}, column {exc.offset}",
                media_type=SVG,
            ) from exc
        if self.root is None:  # expat refuses a document without an element first
            raise InvalidMedia("this SVG has no root element", media_type=SVG)
        self._check_work()
        name, attributes = self.root
        return ScannedSvg(
            name, attributes, "".join(self.out), self.removed, self.budget.pixels, self.cost
        )

    # --- the DTD: plain-text internal entities only, their expansion bounded ---

    def _entity(self, name: str, parameter: int, value: str | None, *rest: object) -> None:
        if parameter or value is None:
            raise InvalidMedia(
                f"this SVG declares an external or parameter entity {excerpt(name)} (a way to "
                "read files or URLs: XXE); refused",
                media_type=SVG,
            )
        if "&" in value or "%" in value:
            raise InvalidMedia(
                f"this SVG declares entity {excerpt(name)} in terms of another (nested "
                "expansion, the 'billion laughs'); refused",
                media_type=SVG,
            )
        self.entities[name] = value

    def _doctype_end(self) -> None:
        # Every expansion is plain text now, so the expanded size is at most the text plus
        # each reference's value: checked before expat expands any of them. (An attribute's
        # default, given to each element, is bounded by what `_emit` may write.)
        if not self.entities:
            return
        uses = Counter(_REFERENCE.findall(self.text))  # one pass, however many were declared
        expanded = len(self.text) + sum(
            uses[name] * len(value) for name, value in self.entities.items()
        )
        if expanded > self.budget.chars:
            raise too_large(f"entities expanding to {expanded:,} characters", self.budget.chars)

    def _external(self, *args: object) -> int:
        raise InvalidMedia("this SVG refers to an external entity; refused", media_type=SVG)

    # --- elements and text ---

    def _start(self, name: str, flat: list[str]) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _too_deep()
        local = _local(name)
        if self.skipping or local == "script":
            self.skipping += 1
            return
        if self.root is None and local != "svg":
            raise InvalidMedia(f"this is XML with root {excerpt(name)}, not an SVG", media_type=SVG)
        index = len(self.nodes)
        self.nodes.append(_Element(self.open[-1] if self.open else -1, local))
        self.open.append(index)
        attributes = tuple(self._clean(flat, index, local))
        if self.root is None:
            self.root = (name, attributes)
        else:
            written = "".join(
                f' {key}="{value.translate(_ATTRIBUTE_ESCAPES)}"' for key, value in attributes
            )
            self._emit(f"<{name}{written}>")
        if local == "style":
            self.style = []

    def _end(self, name: str) -> None:
        self.depth -= 1
        if self.skipping:
            self.skipping -= 1
            return
        if self.style is not None and _local(name) == "style":
            sheet = self._css("".join(self.style), None)
            self.style = None
            self.dash = min(self.dash, dash_period(sheet, sheet=True))
            self._emit(sheet.translate(_TEXT_ESCAPES))
        self._emit(f"</{name}>")
        self.open.pop()

    def _characters(self, data: str) -> None:
        if self.skipping:
            return
        if self.style is not None:
            self.style.append(data)  # spent when written, at the end of the element
        else:
            if self.open:
                self.nodes[self.open[-1]].chars += len(data) - sum(map(data.count, " \t\r\n"))
            self._emit(data.translate(_TEXT_ESCAPES))

    def _emit(self, piece: str) -> None:
        self._spend(len(piece))
        self.out.append(piece)

    def _spend(self, chars: int) -> None:
        self.budget.chars -= chars
        if self.budget.chars < 0:
            raise too_large("its rewritten text", self.policy.max_expanded_bytes)

    # --- attributes: handlers dropped, references checked ---

    def _clean(self, flat: list[str], index: int, element: str) -> list[tuple[str, str]]:
        kept: list[tuple[str, str]] = []
        for key, value in zip(flat[0::2], flat[1::2], strict=True):
            local = _local(key)
            if key.lower().startswith("on"):
                continue  # resvg runs no script; the handler is dropped all the same
            if local == "href":
                cleaned = self._href(value, index, element)
                if cleaned is None:
                    continue
                value = cleaned
            elif local == "id":
                self.ids.setdefault(value.strip(), []).append(index)
            elif "url(" in value.lower():
                value = self._css(value, index)
            if local in KEPT:
                self.nodes[index].kept[local] = value
            if local in _DASHED:
                self.dash = min(self.dash, dash_period(value, sheet=local == "style"))
            kept.append((key, value))
        return kept

    def _href(self, value: str, index: int, element: str) -> str | None:
        target = value.strip()
        if target.startswith("#"):
            self.nodes[index].refs.append(target[1:])
            return value
        if element == "a":
            return None  # a link is followed by nobody here: nothing is lost
        if target[:5].lower() == "data:":
            return self._data(target, index)
        self.removed += 1
        return None

    def _css(self, text: str, index: int | None) -> str:
        """Replace each `url()` that is not `#fragment` by `none`, and drop `@import` rules."""
        refs = self.sheet_refs if index is None else self.nodes[index].refs
        out: list[str] = []
        lowered = text.translate(_ASCII_LOWER)
        at = 0
        while True:
            url, rule = lowered.find("url(", at), lowered.find("@import", at)
            if url < 0 and rule < 0:
                break
            if rule >= 0 and (url < 0 or rule < url):
                out.append(text[at:rule])
                end = text.find(";", rule)
                at = len(text) if end < 0 else end + 1
                self.removed += 1
                continue
            end = text.find(")", url)
            if end < 0:
                break
            target = text[url + 4 : end].strip().strip("\"'").strip()
            if target.startswith("#"):
                refs.append(target[1:])
                out.append(text[at : end + 1])
            else:
                out.append(text[at:url] + "none")
                self.removed += 1
            at = end + 1
        out.append(text[at:])
        return "".join(out)

    def _data(self, uri: str, index: int) -> str | None:
        """Return a `data:` URI the renderer may read, or None to drop it."""
        try:
            data = parse_data_uri(uri).data
        except InvalidMedia:
            return None  # the renderer could not read it either
        kind = SVG if data[:2] == GZIP else detect_media_type(data)
        if kind == SVG:
            if self.nested >= _MAX_NESTED:
                self.removed += 1
                return None
            text, _ = decode_svg(data, self.policy)
            inner = _Scan(self.policy, self.deadline, self.budget, self.nested + 1)
            scanned = inner.run(text)
            node = self.nodes[index]
            node.work, node.depth = inner.total_work, inner.max_depth
            node.inner = inner.cost
            self.removed += scanned.removed
            return data_uri("image/svg+xml", scanned.document().encode())
        if kind not in _RASTERS:
            return None
        size = header_size(data, kind)
        if size is None:
            return None
        self.budget.pixels += size[0] * size[1]
        if self.budget.pixels > self.policy.max_pixels:
            raise MediaTooLarge(
                f"this SVG embeds images of {self.budget.pixels:,} pixels in all, over "
                f"TransformPolicy.max_pixels={self.policy.max_pixels:,}; refused",
                size=self.budget.pixels,
                limit=self.policy.max_pixels,
                media_type=SVG,
            )
        # Named by the type found, not the one claimed: the renderer picks its decoder by it.
        return data_uri(kind, data)

    # --- what drawing it would cost ---

    def _check_work(self) -> None:
        count = len(self.nodes)
        cap = max(_WORK_FLOOR, _WORK_FACTOR * count)
        work, depth, order = _costs(self.nodes, self.ids, cap, self.deadline.check)
        sheet = sum(work[i] for r in self.sheet_refs for i in self.ids.get(r, ()))
        self.total_work = min(cap + 1, work[0] + sheet * count)
        self.max_depth = depth[0]
        if self.max_depth > MAX_DEPTH:
            raise _too_deep()
        if self.total_work > cap:
            raise MediaTooLarge(
                f"this SVG of {count:,} elements would draw over {cap:,}, counting each "
                "<use> and reference as a copy of what it names; refused",
                size=self.total_work,
                limit=cap,
                media_type=SVG,
            )
        nodes, ids = self.nodes, self.ids
        children: list[list[int]] = [[] for _ in nodes]
        for index, node in enumerate(nodes[1:], start=1):
            children[node.parent].append(index)
        references = [[i for r in node.refs for i in ids.get(r, ())] for node in nodes]
        everywhere = [i for r in self.sheet_refs for i in ids.get(r, ())]
        self.cost = plan(nodes, children, references, order, _view(nodes), everywhere, self.dash)


def _costs(
    nodes: list[_Element], ids: dict[str, list[int]], cap: int, check: Callable[[], None]
) -> tuple[list[int], list[int], list[int]]:
    """Return each element's work (elements drawn) and depth, through children and references,
    and the elements in the order their walk finished (each after all it draws).

    An iterative depth-first walk: a hostile document cannot exhaust the interpreter's stack.
    """
    count = len(nodes)
    children: list[list[int]] = [[] for _ in range(count)]
    for index, node in enumerate(nodes[1:], start=1):
        children[node.parent].append(index)

    def successors(index: int) -> list[int]:
        return children[index] + [i for r in nodes[index].refs for i in ids.get(r, ())]

    work, depth, order = [0] * count, [0] * count, []
    state = bytearray(count)  # 0 unseen, 1 open (on the current path), 2 done
    stack = [0] if count else []
    steps = 0
    while stack:
        index = stack[-1]
        if state[index] == 0:
            state[index] = 1
            for next_index in successors(index):
                if state[next_index] == 1:
                    raise InvalidMedia(
                        "this SVG has a reference loop (an element that contains or refers "
                        "to itself); refused",
                        media_type=SVG,
                    )
                if state[next_index] == 0:
                    stack.append(next_index)
            continue
        stack.pop()
        if state[index] == 2:
            continue
        state[index] = 2
        order.append(index)
        after = successors(index)
        node = nodes[index]
        work[index] = min(cap + 1, 1 + node.work + sum(work[i] for i in after))
        depth[index] = 1 + max([node.depth, *(depth[i] for i in after)])
        steps += 1
        if steps % 4096 == 0:
            check()
    return work, depth, order


def _view(nodes: list[_Element]) -> tuple[float, float]:
    """The root's viewport in its user units: its viewBox, else its size, else 512 x 512."""
    kept = nodes[0].kept if nodes else {}
    box = viewport(kept)
    return box or (512.0, 512.0)


_DASHED = frozenset({"stroke-dasharray", "style"})


def _local(name: str) -> str:
    return name.rpartition(":")[2]


def _too_deep() -> MediaTooLarge:
    return MediaTooLarge(
        f"this SVG nests deeper than {MAX_DEPTH} levels (counting <use> and references); "
        "refused: the renderer recurses once per level",
        media_type=SVG,
    )
