"""Find what a rendered payload lost of a conversation, and check each loss was warned about.

`unwarned(source, payload, target, warned)` reads the payload back (`mp.messages_from`) and
looks for each thing the source conversation holds:

- a text (of a text or refusal part, of reasoning, a tool's error): inside some text the
  payload reads back as (texts may be joined, wrapped, or become another kind of text part);
- reasoning without readable text (signed or encrypted only): reasoning with the same
  signature or data;
- a tool call: a call of the same name with the same arguments (ids may be renamed), each
  call of the payload taken once;
- a tool result: counted (Chat Completions keeps no tool names to match them by);
- a provider block: the same block of the same provider;
- media: a part of its own kind, in order, else one of a kind it may become (`_BECOMES`: a
  video as frames, a document as its `<file>` text or page images; a format conversion keeps
  the kind), each part of the payload taken once;
- a cache breakpoint: on the part found for it (texts: some part holding the text);
- the fields a reader kept for its own API alone (`own_fields`: a Gemini `thoughtSignature`)
  on a part found for any other target: a warning naming them.

What is not found must be named by a `ConversionWarning`: its part type and where it was
(`in message <i> (<role>)`), as `render` names a loss, or its text. What is found differently
(a cache breakpoint on a neighbour of a merged text) counts as found: this checks that
nothing is dropped quietly, not that a conversion is faithful. Its blind spot: a lost image
of a conversation whose PDF was sent as page images may pass for one of the pages.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import mediaparts as mp

__all__ = ["Loss", "unwarned"]

# The kinds of part a media part of each kind may come back as (see the module docstring).
_BECOMES = {
    "image": ("image",),
    "audio": ("audio",),
    "video": ("video", "image"),
    "file": ("file", "text", "image"),
}


@dataclass(frozen=True)
class Loss:
    """Something of the source conversation that the payload does not hold."""

    message: int
    part: Any
    what: str
    # Words the warning naming it must hold too (what of the part was lost).
    needs: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"message {self.message}: {self.what}"


def unwarned(
    source: list[mp.Message], payload: dict[str, Any], target: str, warned: list[str]
) -> list[Loss]:
    """Return what `payload` (rendered for `target`) lost of `source` with no warning naming it.

    Each warning names one loss at most (two images lost from one message need two).
    """
    back = mp.messages_from(payload, target)
    left = list(warned)
    out = []
    for loss in _losses(source, back, target):
        found = next((w for w in left if _names(w, loss, source)), None)
        if found is None:
            out.append(loss)
        else:
            left.remove(found)
    return out


def _losses(source: list[mp.Message], back: list[mp.Message], target: str) -> Iterator[Loss]:
    texts = [t for m in back for t in _texts_of(m)]
    reasoning = [p for m in back for p in m.parts if isinstance(p, mp.ReasoningPart)]
    calls = [p for m in back for p in m.parts if isinstance(p, mp.ToolCall)]
    blocks = [p.data for m in back for p in m.parts if isinstance(p, mp.ProviderPart)]
    results = sum(isinstance(m, mp.Tool) for m in back)
    media = _media(source, back)
    cached = [p for m in back for p in m.parts if p.cache is not None]
    for index, message in enumerate(source):
        if isinstance(message, mp.Tool):
            results -= 1
            if results < 0:
                yield Loss(index, message, "a tool result")
            if message.error and not _within(message.error, texts):
                yield Loss(index, message, f"the tool's error {message.error!r}")
        for part in message.parts:
            found = _find(part, texts, reasoning, calls, blocks, media)
            if found is None:
                yield Loss(index, part, _what(part))
                continue  # lost whole: what it held is lost with it
            if part.cache is not None and not _cached(part, found, cached):
                yield Loss(index, part, f"the cache breakpoint of {_what(part)}", ("cache",))
            yield from _own_fields(index, part, target)


def _own_fields(index: int, part: Any, target: str) -> Iterator[Loss]:
    """Yield the fields another provider's reader kept on `part` for its API alone (its
    `own_fields` hint: a Gemini `thoughtSignature`), which `target` cannot be sent."""
    for reader, hint in part.native.items():
        fields = hint.get("own_fields") if isinstance(hint, dict) else None
        if reader != target and fields:
            named = ", ".join(fields)
            yield Loss(index, part, f"{reader}'s {named} on {_what(part)}", tuple(fields))


def _find(
    part: Any,
    texts: list[tuple[str, Any]],
    reasoning: list[mp.ReasoningPart],
    calls: list[mp.ToolCall],
    blocks: list[Any],
    media: dict[int, Any],
) -> Any:
    """Return what the payload holds for `part` (True when found without a part), or None."""
    match part:
        case mp.TextPart() | mp.RefusalPart():
            return _within(part.text, texts) if part.text else True
        case mp.ReasoningPart():
            shown = [t for t in (part.text, *part.summary) if t]
            if shown:
                return next((found for t in shown if (found := _within(t, texts))), None)
            return next(
                (r for r in reasoning if (r.signature, r.data) == (part.signature, part.data)),
                None,
            )
        case mp.ToolCall():
            wanted = (part.name, part.parsed_arguments())
            call = next((c for c in calls if (c.name, c.parsed_arguments()) == wanted), None)
            if call is not None:
                calls.remove(call)  # each call of the payload answers one: parallel twins too
            return call
        case mp.ProviderPart():
            return True if part.data in blocks else None
        case mp.MediaPart():
            return media[id(part)]
    raise AssertionError(f"a part kind the checker does not know: {part!r}")


def _within(text: str, texts: list[tuple[str, Any]]) -> Any:
    """Return the part whose text holds `text`, or None."""
    return next((part for shown, part in texts if text in shown), None)


def _cached(part: Any, found: Any, cached: list[Any]) -> bool:
    """Whether the payload kept a breakpoint for `part`, found as `found`."""
    if isinstance(part, mp.TextPart | mp.RefusalPart | mp.ReasoningPart) and cached:
        return True  # texts may be joined with their neighbours, and the breakpoint with them
    return any(found is c for c in cached)


def _texts_of(message: mp.Message) -> Iterator[tuple[str, Any]]:
    if isinstance(message, mp.Tool) and message.error:
        yield message.error, message
    for part in message.parts:
        match part:
            case mp.TextPart() | mp.RefusalPart():
                yield part.text, part
            case mp.ReasoningPart():
                for text in (part.text, *part.summary):
                    if text:
                        yield text, part
            case _:
                pass


def _media(source: list[mp.Message], back: list[mp.Message]) -> dict[int, Any]:
    """Map `id()` of each source media part to the payload's part found for it, or None.

    Each part of the payload is taken once, in order: first by media of its own kind, then
    what is left by media that may become it (a file's page images, a video's frames), so a
    lost file cannot take the image of a later message that was carried.
    """
    wanted = [p for m in source for p in m.parts if isinstance(p, mp.MediaPart)]
    queues: dict[str, list[Any]] = {}
    for message in back:
        for part in message.parts:
            if isinstance(part, mp.MediaPart):
                queues.setdefault(part.kind, []).append(part)
            elif isinstance(part, mp.TextPart) and part.text.startswith("<file"):
                queues.setdefault("text", []).append(part)
    found: dict[int, Any] = {}
    for others in (False, True):
        for part in wanted:
            if found.get(id(part)) is not None:
                continue
            kinds = _BECOMES[part.kind][1:] if others else _BECOMES[part.kind][:1]
            queue = next((queues[k] for k in kinds if queues.get(k)), None)
            found[id(part)] = queue.pop(0) if queue else None
    return found


def _what(part: Any) -> str:
    if isinstance(part, mp.TextPart | mp.RefusalPart) and part.text:
        return f"{type(part).__name__} {part.text[:40]!r}"
    if isinstance(part, mp.ToolCall):
        return f"ToolCall {part.name}"
    return type(part).__name__


def _names(warning: str, loss: Loss, source: list[mp.Message]) -> bool:
    """Whether a warning names the lost thing: its type where it was, or its text."""
    if not all(word in warning for word in loss.needs):
        return False
    thing = loss.part
    name = type(thing).__name__
    if name not in warning:
        return False
    if f" in message {loss.message} ({source[loss.message].role})" in warning:
        return True
    shown = getattr(thing, "text", None) or getattr(thing, "error", None)
    return isinstance(shown, str) and bool(shown.strip()) and shown.strip()[:30] in warning
