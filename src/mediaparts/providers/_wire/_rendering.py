"""What the provider renderers share: the `Prepare` seam, text files, tool results and turns.

Each provider module maps `NormalizedPart`s to its SDK's shapes; everything that is the same
for several providers lives here, so the provider modules hold only their own shapes.
"""

from __future__ import annotations

import html
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeAlias

from typing_extensions import assert_never

from mediaparts._conversation._messages import Assistant, Message, System, Tool
from mediaparts._conversation._parts import (
    MediaPart,
    ProviderPart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
)
from mediaparts._errors import InvalidConfig, InvalidMedia, UnsupportedMediaType, excerpt
from mediaparts.detection import extension_for
from mediaparts.providers._fitting._normalized import NormalizedPart
from mediaparts.providers._rules import Rules

__all__ = [
    "OWN_FIELDS",
    "OWN_URL",
    "TEXT_TYPES",
    "Block",
    "Prepare",
    "Served",
    "cache_plan",
    "call_arguments",
    "call_ids",
    "check_names_quirk",
    "collapse_text",
    "copied",
    "error_text",
    "filename_for",
    "hints",
    "left_out",
    "merge_turns",
    "own",
    "parts",
    "text_file",
    "tool_names",
    "unsupported",
    "without_cache",
]


class Served(Protocol):
    """What a wire knows of the provider it serves (a `Provider` is one).

    `name` goes where the API shape writes a provider's name (the `native` key of the hints a
    reader leaves, `ProviderPart.provider`, error messages); `rules` are its limits; `quirks`
    its wire's documented quirk keys (the wire's `QUIRKS`).
    """

    @property
    def name(self) -> str: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def quirks(self) -> Mapping[str, Any]: ...


class Prepare(Protocol):
    """What a provider's `render` receives beside the messages.

    Calling it fits one media part to the provider (`mp.normalize` bound to it, or a file
    reference checked against the provider's store) or raises. `model` is the model asked
    for (None when not given), for shapes that differ by model. `served` is the provider
    served (`provider` and `rules` are its name and rules). `lose` reports a part (or a
    message field) the provider's shapes cannot carry; the caller's `on_loss` decides what
    happens (a `ConversionWarning`, nothing, or a `ConversionError` raised there and then).
    """

    @property
    def served(self) -> Served: ...

    provider: str
    rules: Rules
    model: str | None

    def __call__(self, part: MediaPart, /) -> NormalizedPart: ...

    def lose(self, part: Any, why: str, /) -> None: ...


# Keys of a provider's `native` hints that generic code reads (beside `PASSED_URL`), so that
# rendering for another provider reports what only that provider's API reads, whatever wire
# the reader is. A reader sets `OWN_FIELDS` on a part to the names of the fields it keeps for
# its own API alone (Gemini's `thoughtSignature` on a function call, its `videoMetadata`): for
# another provider the part is sent without them, and their loss reported. It sets `OWN_URL`
# (True) on a URL part whose URL only its API reads (a Gemini `fileData` link: a YouTube
# video, a web page Google fetches), which is then left out for another provider, unfetched.
OWN_FIELDS = "own_fields"
OWN_URL = "own_url"

Block: TypeAlias = TextPart | NormalizedPart | ReasoningPart | ToolCall | RefusalPart | ProviderPart
"""One part of a message as `parts` gives it: media prepared, everything else as it is."""

# Text formats every provider here is given as text (a text part, or Anthropic's text document,
# or Bedrock's `DocumentSource.text`), never as a file. Our choice, not a provider fact: any text
# format reads the same to a model once decoded. OpenAI's file-inputs guide lists txt, md, json,
# html, xml, code and csv; Gemini's document-processing page lists html, css, plain, xml, csv,
# javascript and json "read as text" (both read 2026-08).
TEXT_TYPES: tuple[str, ...] = (
    "text/plain",
    "text/markdown",
    "text/csv",
    "text/tab-separated-values",
    "text/html",
    "text/css",
    "text/javascript",
    "text/x-python",
    "text/x-shellscript",
    "application/json",
    "application/x-ndjson",
    "application/xml",
    "application/yaml",
)


def parts(message: Message, prepare: Prepare, *, assistant_media: bool = False) -> list[Block]:
    """Return a message's parts in order, media prepared, for the provider `prepare` fits to.

    What no provider but its own can take is reported through `prepare.lose` and left out:
    media `left_out` says so of (a file of another store, another API's own URL), a
    `ProviderPart` of another provider, and reasoning signed by another provider (`openai`
    and `openai-responses` share files, not reasoning). A part sent without the fields
    another provider's reader kept for that API alone (`OWN_FIELDS`: a Gemini signature) is
    reported too. Empty text parts are left out, unless they have citations or this
    provider's own hints (Gemini replays an empty text part that carries a signature).
    Media in an assistant message is reported and left out too, unless the provider takes
    media from the model (`assistant_media`, Gemini).
    """
    out: list[Block] = []
    for part in message.parts:
        match part:
            case TextPart():
                _lose_own_fields(part, prepare)
                if part.text or part.citations or prepare.provider in part.native:
                    out.append(part)
            case MediaPart():
                if isinstance(message, Assistant) and not assistant_media:
                    prepare.lose(
                        part,
                        f"{prepare.provider} takes media only from the user and tool results, "
                        "not in the model's turn",
                    )
                    continue
                why = left_out(part, prepare.provider, prepare.rules)
                if why is not None:
                    prepare.lose(part, why)
                    continue
                _lose_own_fields(part, prepare)
                out.extend(prepare(part).sent)  # several pieces: frames, split PDFs
            case ReasoningPart() | ProviderPart():
                if part.provider is not None and not own(part, prepare):
                    prepare.lose(part, f"only {part.provider} can read it")
                    continue
                out.append(part)
            case ToolCall() | RefusalPart():
                _lose_own_fields(part, prepare)
                out.append(part)
            case _:
                assert_never(part)
    return out


def left_out(part: MediaPart, provider: str, rules: Rules) -> str | None:
    """Return why `provider` (with `rules`) is never sent a media part, or None if it may be.

    A file in a store the provider does not read, and a URL that another provider's reader
    marked as one only its API reads (`OWN_URL`), are left out before anything is fetched.
    """
    if part.file_id is not None and not rules.reads(part.file_provider):
        return (
            f"it is a file in {part.file_provider}'s file store, and {provider} reads only "
            f"{rules.store}'s"
        )
    if part.url is not None:
        for reader, hint in part.native.items():
            if reader != provider and isinstance(hint, dict) and hint.get(OWN_URL) is True:
                return (
                    f"its URL is {reader}'s own file link (a YouTube video or a web page that "
                    f"{reader}'s API fetches itself): it is not fetched for {provider}"
                )
    return None


def _lose_own_fields(part: Any, prepare: Prepare) -> None:
    """Report the fields another provider's reader kept on `part` for its API alone."""
    for reader, hint in part.native.items():
        fields = hint.get(OWN_FIELDS) if isinstance(hint, dict) else None
        if reader != prepare.provider and fields:
            named = ", ".join(str(f) for f in fields)
            prepare.lose(
                part,
                f"its {named}: only {reader}'s API reads {'it' if len(fields) == 1 else 'them'} "
                "(the rest of the part is kept)",
            )


def hints(holder: Any, provider: str) -> dict[str, Any]:
    """Return a copy of the `native` hints `provider`'s reader left on a message or part, or
    `{}`: what a renderer puts in the payload from them is its own (see `copied`).

    A prepared media part (`NormalizedPart`) answers with its source part's hints.
    """
    if isinstance(holder, NormalizedPart):
        holder = holder.part
    native = getattr(holder, "native", None)
    found = native.get(provider) if isinstance(native, dict) else None
    return copied(found) if isinstance(found, dict) and found else {}


def copied(value: Any) -> Any:
    """Return JSON-like data with new dicts and lists (strings and bytes are immutable: shared).

    A part's own dicts (a provider block, a citation, hints) are copied where a renderer puts
    them in a payload, so that a caller who edits the payload never edits a frozen part;
    what the renderer builds itself is new already, and is not copied again. (`copy.deepcopy`
    would do, at several times the cost.)
    """
    if isinstance(value, dict):
        return {key: copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copied(item) for item in value]
    return value


def own(part: ReasoningPart | ProviderPart, prepare: Prepare) -> bool:
    """Tell whether reasoning or a provider block was written by the provider rendered for."""
    return part.provider == prepare.provider


def text_file(part: NormalizedPart) -> str:
    """Return a text file as the text a model reads: the decoded text inside a `<file>` tag.

    The tag carries the file name (escaped) and the media type, so the model can tell the
    file's text from the prompt around it and refer to the file by name.
    """
    name = f' name="{html.escape(part.filename, quote=True)}"' if part.filename else ""
    text = part.text or ""
    end = "" if text.endswith("\n") else "\n"
    return f'<file{name} media_type="{part.media_type}">\n{text}{end}</file>'


def filename_for(part: NormalizedPart, stem: str = "file") -> str:
    """Return the part's file name, or `stem` plus the usual extension of its type."""
    return part.filename or stem + (extension_for(part.media_type) or "")


def unsupported(provider: str, part: NormalizedPart, why: str) -> UnsupportedMediaType:
    """Return the error for a prepared part that `provider`'s request shape cannot carry."""
    source = "a URL" if part.url is not None else "inline data"
    return UnsupportedMediaType(
        f"{provider} cannot take {part.media_type} ({part.kind}) as {source} {why}",
        media_type=part.media_type,
        provider=provider,
    )


def error_text(message: Tool) -> str | None:
    """Return a tool's error as one line (`"Error (Timeout): took too long"`), or None."""
    if message.error is None:
        return None
    label = f"Error ({message.error_type})" if message.error_type else "Error"
    return f"{label}: {message.error}"


def call_arguments(call_id: str | None, name: str, arguments: Any) -> dict[str, Any]:
    """Return parsed tool-call arguments, checked to be the JSON object the APIs need.

    Raises:
        InvalidMedia: The arguments are JSON but not an object.
    """
    if not isinstance(arguments, dict):
        raise InvalidMedia(
            f"the arguments of tool call {excerpt(call_id)} ({name}) must be a JSON object, "
            f"got {type(arguments).__name__}"
        )
    return arguments


def tool_names(messages: Sequence[Message]) -> dict[str, str]:
    """Map each tool-call id in the assistant messages to the tool's name."""
    return {
        call.id: call.name
        for message in messages
        if isinstance(message, Assistant)
        for call in message.tool_calls
        if call.id is not None
    }


def cache_plan(messages: Sequence[Message], prepare: Prepare, *, limit: int = 4) -> list[Message]:
    """Fit the cache breakpoints to Anthropic's rules (Anthropic, and Claude on Bedrock).

    The API reads the system prompt, then the messages, in order, and refuses a 1-hour
    breakpoint after a 5-minute one and more than `limit` breakpoints (its 400s name both;
    Anthropic prompt-caching docs, read 2026-11). So a 5-minute breakpoint before a later
    1-hour one becomes 1-hour (the later one keeps that prefix for the hour anyway), and the
    earliest breakpoints beyond `limit` are reported through `prepare.lose` and removed (the
    later ones cover their prefix). Returns the messages with those parts changed (the others
    are the same objects).
    """
    order: list[Message] = [m for m in messages if isinstance(m, System)]
    order += [m for m in messages if not isinstance(m, System)]
    marked = [p for m in order for p in m.parts if p.cache is not None]
    changed: dict[int, Any] = {}
    for part in marked[: max(0, len(marked) - limit)]:
        prepare.lose(
            part,
            f"its cache breakpoint: {prepare.provider} takes {limit} at most, and "
            "the later ones cover this prefix",
        )
        changed[id(part)] = None
    kept = marked[-limit:] if limit else []
    hours = [i for i, p in enumerate(kept) if p.cache == "1h"]
    for part in kept[: hours[-1]] if hours else []:
        if part.cache == "5m":
            changed[id(part)] = "1h"
    if not changed:
        return list(messages)
    out: list[Message] = []
    for message in messages:
        parts = tuple(
            p.model_copy(update={"cache": changed[id(p)]}) if id(p) in changed else p
            for p in message.parts
        )
        touched = any(a is not b for a, b in zip(parts, message.parts, strict=True))
        out.append(message.model_copy(update={"parts": parts}) if touched else message)
    return out


def without_cache(messages: Sequence[Message]) -> list[Message]:
    """Return the messages with every cache breakpoint removed (for a model that takes none)."""
    out: list[Message] = []
    for message in messages:
        if any(p.cache is not None for p in message.parts):
            parts = tuple(p.model_copy(update={"cache": None}) for p in message.parts)
            message = message.model_copy(update={"parts": parts})
        out.append(message)
    return out


def call_ids(
    messages: Sequence[Message], valid: Callable[[str], object] | None = None
) -> dict[int, str]:
    """Give every tool call and tool result an id, for APIs that pair them by id.

    Maps `id()` of each `ToolCall` (in any message) and each `Tool` message to the id to send:
    its own, else a stable one made from its position (`call_1`, `call_2`, ... in
    conversation order, skipping any id a call already has). An id the target's pattern
    refuses (`valid` says no: another API's `functions.get:0` for Anthropic) is replaced the
    same way, in the call and in the results that answer it. A result without
    `tool_call_id` answers the earliest unanswered call of its tool's name (or, without a
    name, the earliest unanswered call), as Gemini pairs them.
    """
    taken = {
        p.id for m in messages for p in m.parts if isinstance(p, ToolCall) and p.id is not None
    } | {m.tool_call_id for m in messages if isinstance(m, Tool) and m.tool_call_id is not None}
    renamed: dict[str, str] = {}
    count = 0

    def fresh() -> str:
        nonlocal count
        while True:
            count += 1
            if f"call_{count}" not in taken:
                taken.add(f"call_{count}")
                return f"call_{count}"

    def sent(own_id: str) -> str:
        if valid is None or valid(own_id):
            return own_id
        if own_id not in renamed:
            renamed[own_id] = fresh()
        return renamed[own_id]

    ids: dict[int, str] = {}
    # The calls not answered yet, in order, and two ways to find them: by the id sent, and by
    # the tool's name (queues skip calls already answered), so pairing stays linear.
    pending: dict[int, ToolCall] = {}
    by_id: dict[str, list[int]] = {}
    by_name: dict[str | None, deque[int]] = {}

    def answer(queue: deque[int]) -> int | None:
        while queue:
            key = queue.popleft()
            if pending.pop(key, None) is not None:
                return key
        return None

    for message in messages:
        if isinstance(message, Tool):
            if message.tool_call_id is not None:
                ids[id(message)] = sent(message.tool_call_id)
                for answered in by_id.pop(ids[id(message)], ()):
                    pending.pop(answered, None)
                continue
            key = answer(by_name.get(message.name, deque()))
            ids[id(message)] = ids[key] if key is not None else fresh()
        for call in message.parts:
            if isinstance(call, ToolCall) and id(call) not in ids:
                ids[id(call)] = fresh() if call.id is None else sent(call.id)
                pending[id(call)] = call
                by_id.setdefault(ids[id(call)], []).append(id(call))
                by_name.setdefault(call.name, deque()).append(id(call))
                by_name.setdefault(None, deque()).append(id(call))
    return ids


def merge_turns(
    turns: list[dict[str, Any]],
    *,
    key: str = "content",
    first: Callable[[Any], bool] | None = None,
) -> list[dict[str, Any]]:
    """Merge adjacent turns of the same role and drop empty ones, for APIs that alternate.

    Args:
        turns: Dicts with a `role` and a list of blocks under `key`; they are not changed.
        key: The name of the block list (`"content"`, or Gemini's `"parts"`).
        first: Blocks for which this is true go first in a merged turn (tool results must
            lead the user turn that follows a tool call), in their order.

    Returns:
        New turns, none empty, no two adjacent ones with the same role.
    """
    merged: list[dict[str, Any]] = []
    for turn in turns:
        if not turn[key]:
            continue
        if merged and merged[-1]["role"] == turn["role"]:
            merged[-1] = {**merged[-1], key: merged[-1][key] + turn[key]}
        else:
            merged.append({**turn, key: list(turn[key])})
    if first is not None:
        for turn in merged:
            blocks = turn[key]
            turn[key] = [b for b in blocks if first(b)] + [b for b in blocks if not first(b)]
    return merged


def collapse_text(blocks: list[dict[str, Any]]) -> str | list[dict[str, Any]]:
    """Return the text of a lone `{"type": "text"}` block as a plain string, else the blocks."""
    if len(blocks) == 1 and blocks[0].get("type") == "text" and set(blocks[0]) == {"type", "text"}:
        text: str = blocks[0]["text"]
        return text
    return blocks


def check_names_quirk(name: str, quirks: Mapping[str, Any], quirk: str, what: str) -> None:
    """Refuse a quirk that should name models (`what`: "fnmatch patterns", ...) and does not.

    For a wire's `check_quirks`: a string, a value that is not a sequence, or one holding
    something else than strings is refused when the provider is registered.

    Raises:
        InvalidConfig: The quirk is of the wrong form, naming the provider and the quirk.
    """
    value = quirks.get(quirk, ())
    if (
        isinstance(value, str)
        or not isinstance(value, Sequence)
        or not all(isinstance(v, str) for v in value)
    ):
        raise InvalidConfig(
            f"provider {excerpt(name)}: quirk {quirk} must be a sequence of {what}, "
            f"got {excerpt(value)}"
        )
