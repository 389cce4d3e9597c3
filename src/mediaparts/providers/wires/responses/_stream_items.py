"""The output items of a streamed Responses reply, as they grow: what `_stream.py` accumulates.

Each output item is a `Slot`: the item as the API last gave it whole (`output_item.added`, then
`output_item.done`), and the text that has arrived since in fragments (a message's blocks, a
function call's arguments, a reasoning item's summary and content). `Slot.built()` is the item
as it stands, the shape `read_response` reads; `grown(old, new)` the deltas that take a slot
from what was read before to a whole item given later (an item's `done`, or the completed
response), so a stream whose deltas were left out still says every piece once.

Where each slot's parts start in the message is kept in `Offsets` (a Fenwick tree: a message
item's part count changes as blocks arrive, and the start of every later item with it).
"""

from __future__ import annotations

from typing import Any

from mediaparts._conversation._dialogue import Citation
from mediaparts.providers._wire._deltas import SUMMARY, Delta, DeltaKind
from mediaparts.providers._wire._rendering import Served
from mediaparts.providers._wire._streaming import Fragments
from mediaparts.providers.wires.responses._read import _citation

__all__ = ["Block", "Offsets", "Slot", "block_grown", "citation", "grown", "settled", "suffix"]

# Reasoning texts are joined with a blank line by `read_response` (its `text`).
REASONING_JOIN = "\n\n"

# A message block's type → (the delta kind its text grows, the key of its text).
_MESSAGE_BLOCKS: dict[str, tuple[DeltaKind, str]] = {
    "output_text": ("text", "text"),
    "refusal": ("refusal", "refusal"),
}


def suffix(old: str, new: str) -> str:
    """Return what `new` adds to `old`: its rest when it starts with `old`, else nothing (a
    text that changed rather than grew cannot be said as a delta)."""
    return new[len(old) :] if len(new) > len(old) and new.startswith(old) else ""


def settled(text: Fragments, final: str) -> tuple[Fragments, str]:
    """Return `text` made `final` (a `.done` event's text), and what that added to it."""
    grew = suffix(str(text), final)
    if grew:
        text.add(grew)
    elif str(text) != final:
        text = Fragments(final)
    return text, grew


class Block:
    """One block of an item: a message's `output_text` or `refusal`, a reasoning summary's or
    content's text; or a block we do not model (`kind` None), kept as it came."""

    __slots__ = ("block", "field", "kind", "notes", "text")

    def __init__(self, block: dict[str, Any], kind: DeltaKind | None, field: str | None) -> None:
        self.block = block
        self.kind = kind
        self.field = field
        value = block.get(field) if field is not None else None
        self.text = Fragments(value if isinstance(value, str) else "")
        notes = block.get("annotations") if block.get("type") == "output_text" else None
        self.notes: list[Any] = list(notes) if isinstance(notes, list | tuple) else []

    @classmethod
    def of_message(cls, block: dict[str, Any]) -> Block:
        """A message's content block."""
        type_ = block.get("type")
        if not isinstance(type_, str) or type_ not in _MESSAGE_BLOCKS:
            return cls(block, None, None)
        return cls(block, *_MESSAGE_BLOCKS[type_])

    @classmethod
    def of_reasoning(cls, block: dict[str, Any]) -> Block:
        """A reasoning item's summary or content block."""
        return cls(block, "reasoning", "text")

    def settle(self, final: str) -> str:
        """Make the text `final` (a `.done` event's); return what it added to the deltas."""
        self.text, grew = settled(self.text, final)
        return grew

    def holds(self, old: Block) -> bool:
        """Whether this block (given whole) holds all that `old` had: its text and notes."""
        if len(self.text) < len(old.text) or len(self.notes) < len(old.notes):
            return False  # decided without joining the text (a hostile stream alternates)
        return str(self.text).startswith(str(old.text))

    def built(self) -> dict[str, Any]:
        """The block as it stands."""
        if self.field is None:
            return self.block
        out = {**self.block, self.field: str(self.text)}
        if self.notes or "annotations" in self.block:
            out["annotations"] = list(self.notes)
        return out


class Slot:
    """One output item: the item as last given whole, and what has grown since."""

    __slots__ = ("announced", "blocks", "final", "item", "kind", "summary", "text")

    def __init__(self, item: dict[str, Any] | None = None, *, final: bool = False) -> None:
        self.item = item
        self.final = final
        self.announced = False  # a tool call's first delta (its id and name) is said
        self.blocks: list[Block] = []
        self.summary: list[Block] = []
        self.text = Fragments()
        if item is None:
            self.kind: str | None = None
            return
        kind = item.get("type")
        self.kind = "message" if kind is None and item.get("role") == "assistant" else kind
        content = item.get("content")
        if self.kind == "message":
            if isinstance(content, str):
                content = [{"type": "output_text", "text": content}]
            self.blocks = [Block.of_message(b) for b in content or () if isinstance(b, dict)]
        elif self.kind == "reasoning":
            self.blocks = [Block.of_reasoning(b) for b in content or () if isinstance(b, dict)]
            summary = item.get("summary") or ()
            self.summary = [Block.of_reasoning(b) for b in summary if isinstance(b, dict)]
        elif self.kind in ("function_call", "custom_tool_call"):
            value = item.get(self.field)
            self.text = Fragments(value if isinstance(value, str) else "")

    @property
    def field(self) -> str:
        """The key of a tool call's streamed text: `arguments`, or a custom call's `input`."""
        return "arguments" if self.kind == "function_call" else "input"

    @property
    def count(self) -> int:
        """How many parts `read_response` makes of it: a message one per block (one empty
        text when it has none), any other item one; an empty added event none."""
        if self.item is None:
            return 0
        return max(1, len(self.blocks)) if self.kind == "message" else 1

    def built(self) -> dict[str, Any] | None:
        """The item as it stands (None for an empty added event)."""
        if self.item is None or self.final:
            return self.item
        if self.kind == "message":
            return {**self.item, "content": [b.built() for b in self.blocks]}
        if self.kind in ("function_call", "custom_tool_call"):
            return {**self.item, self.field: str(self.text)}
        if self.kind == "reasoning":
            out = {**self.item, "summary": [b.built() for b in self.summary]}
            if self.blocks:
                out["content"] = [b.built() for b in self.blocks]
            return out
        return self.item


class Offsets:
    """Where each slot's parts start: prefix sums of the slots' part counts, each change and
    each look-up in time logarithmic in the number of slots (a Fenwick tree)."""

    __slots__ = ("_counts", "_tree")

    def __init__(self) -> None:
        self._counts: list[int] = []
        self._tree: list[int] = []

    def start(self, slot: int) -> int:
        """The index in the message's parts of the first part of `slot`."""
        total, i = 0, slot
        while i > 0:
            total += self._tree[i - 1]
            i -= i & -i
        return total

    def set(self, slot: int, count: int) -> None:
        """Set the part count of `slot` (the next slot, or one already there)."""
        if slot == len(self._counts):
            n = slot + 1
            self._counts.append(count)
            self._tree.append(count + self.start(slot) - self.start(n - (n & -n)))
            return
        change = count - self._counts[slot]
        if not change:
            return
        self._counts[slot] = count
        i = slot + 1
        while i <= len(self._tree):
            self._tree[i - 1] += change
            i += i & -i


def grown(old: Slot, new: Slot, start: int, at: str, served: Served) -> list[Delta]:
    """The deltas that take an item from `old` (what was read of it) to `new` (given whole).

    A piece already said is not said again; a text that changed rather than grew is not said.
    """
    if old.kind != new.kind:
        old = Slot()
    if new.kind == "message":
        deltas: list[Delta] = []
        for j, block in enumerate(new.blocks):
            before = old.blocks[j] if j < len(old.blocks) else None
            if before is not None and before.kind != block.kind:
                before = None
            deltas += block_grown(before, block, start + j, f"{at}.content[{j}]", served)
        return deltas
    if new.kind == "reasoning":
        return _reasoning_grown(old, new, start)
    if new.kind in ("function_call", "custom_tool_call"):
        grew = suffix(str(old.text), str(new.text))
        if old.announced and not grew:
            return []
        if new.kind == "custom_tool_call":
            return [Delta(kind="provider", index=start, name=new.kind, text=grew)]
        first = not old.announced
        call_id = new.item.get("call_id") if first and new.item is not None else None
        name = new.item.get("name") if first and new.item is not None else None
        return [Delta(kind="tool_call", index=start, id=call_id, name=name, arguments=grew)]
    if new.item is None or old.announced:
        return []
    return [Delta(kind="provider", index=start, name=new.kind)]


def block_grown(old: Block | None, new: Block, index: int, at: str, served: Served) -> list[Delta]:
    if new.kind is None:
        kind = new.block.get("type")
        name = kind if isinstance(kind, str) else None
        return [] if old is not None else [Delta(kind="provider", index=index, name=name)]
    deltas = []
    grew = suffix(str(old.text) if old is not None else "", str(new.text))
    if grew:
        deltas.append(Delta(kind=new.kind, index=index, text=grew))
    said = len(old.notes) if old is not None else 0
    for j in range(said, len(new.notes)):
        deltas.append(citation(new.notes[j], index, f"{at}.annotations[{j}]", served))
    return deltas


def _reasoning_grown(old: Slot, new: Slot, start: int) -> list[Delta]:
    deltas = []
    for j, block in enumerate(new.summary):
        before = str(old.summary[j].text) if j < len(old.summary) else ""
        grew = suffix(before, str(block.text))
        if grew:
            deltas.append(Delta(kind="reasoning", index=start, text=grew, name=SUMMARY))
    for j, block in enumerate(new.blocks):
        begun = j < len(old.blocks)
        grew = suffix(str(old.blocks[j].text) if begun else "", str(block.text))
        text = (REASONING_JOIN if j and not begun else "") + grew
        if text:
            deltas.append(Delta(kind="reasoning", index=start, text=text))
    return deltas


def citation(note: Any, index: int, at: str, served: Served) -> Delta:
    """The delta of an annotation added to the text part at `index`."""
    made: Citation = _citation(note, at, served)
    return Delta(kind="citation", index=index, citation=made)
