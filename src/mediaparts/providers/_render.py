"""`render`: messages (or parts) to the exact keyword arguments of a provider's SDK call."""

from __future__ import annotations

import asyncio
import dataclasses
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from mediaparts._boundary import Boundary
from mediaparts._conversation._make_part import Conversation, is_single_source, part
from mediaparts._conversation._messages import Assistant, Message, System, Tool, User
from mediaparts._conversation._parts import (
    MediaPart,
    ProviderPart,
    ReasoningPart,
    TextPart,
    ToolCall,
)
from mediaparts._errors import (
    ConversionError,
    ConversionWarning,
    InvalidConfig,
    InvalidMedia,
    excerpt,
)
from mediaparts.converting import TransformPolicy
from mediaparts.providers._fitting._normalize import UrlMode, _check_urls, anormalize, normalize
from mediaparts.providers._fitting._normalized import NormalizedPart
from mediaparts.providers._fitting._uploads import PartUploader, RenderUrls
from mediaparts.providers._options import ForeignReasoning, OnLoss, Options, renamed, resolve
from mediaparts.providers._registry import Provider, get
from mediaparts.providers._wire._rendering import left_out

__all__ = ["ForeignReasoning", "OnLoss", "Preparer", "arender", "as_messages", "render"]

# Only MediaError leaves arender (see Boundary).
_ARENDERING = Boundary("rendering")

# Only MediaError leaves render (see Boundary).
_RENDERING = Boundary("rendering")

_MESSAGE_TYPES = (System, User, Assistant, Tool)


def as_messages(value: Any) -> list[Message]:
    """Read a message, a list of messages, a prompt or parts (one user message) as messages.

    A `str` is a prompt (one user message of text; an empty one, no message); another single
    value is one part (bytes, a path object, a PIL image, a part); in a list, as in message
    content, a `str` is text. An empty list is an empty conversation.
    """
    if isinstance(value, _MESSAGE_TYPES):
        return [value]
    if isinstance(value, str):
        return [User(value)] if value else []
    if is_single_source(value) or not isinstance(value, Sequence):
        return [User([part(value)])]
    items = list(value)
    if all(isinstance(m, _MESSAGE_TYPES) for m in items):
        return items
    if any(isinstance(m, _MESSAGE_TYPES) for m in items):
        raise InvalidMedia("give messages, or parts for one user message, not a mix of both")
    return [User(items)]


class Preparer:
    """The `Prepare` a renderer receives: fits media, and keeps account of what is lost."""

    def __init__(
        self,
        provider: Provider,
        messages: Sequence[Message],
        fit: Callable[[MediaPart], NormalizedPart],
        on_loss: OnLoss,
        model: str | None = None,
    ) -> None:
        self.served = provider
        self.provider = provider.name
        self.rules = provider.rules
        self.model = model
        self.losses: list[str] = []
        self._messages = messages
        self._index: dict[int, int] | None = None  # id() of a message or part -> message index
        self._fit = fit
        self._on_loss = on_loss

    def __call__(self, part: MediaPart, /) -> NormalizedPart:
        return self._fit(part)

    def lose(self, part: Any, why: str, /) -> None:
        """Report that `part` (a part, or a message for one of its fields) is not carried."""
        message = f"{self.provider} cannot carry {_describe(part)}{self._where(part)}: {why}"
        if self._on_loss == "error":
            raise ConversionError(
                f"{message} (on_loss='error'; 'warn' or 'drop' would leave it out)",
                provider=self.provider,
                part=part,
                reason=why,
            )
        if self._on_loss == "warn":
            self.losses.append(message)

    def _where(self, thing: Any) -> str:
        if self._index is None:  # built once, at the first loss: a lookup per loss after that
            self._index = {}
            for index, message in enumerate(self._messages):
                self._index[id(message)] = index
                self._index.update((id(p), index) for p in message.parts)
        found = self._index.get(id(thing))
        if found is None and getattr(thing, "cache", "") is None:
            found = self._uncached(thing)
        if found is None:
            return ""
        return f" in message {found} ({self._messages[found].role})"

    def _uncached(self, thing: Any) -> int | None:
        """Find the message of a renderer's copy of a part made without its cache breakpoint
        (`without_cache`, for a model that takes none), which is not the part itself."""
        for index, message in enumerate(self._messages):
            for given in message.parts:
                if given.cache is not None and given.model_copy(update={"cache": None}) == thing:
                    return index
        return None

    def warn(self) -> None:
        """Issue one `ConversionWarning` per loss, attributed to the caller of `render`."""
        for loss in self.losses:
            # 4: past this method, render (or arender) and its `renamed` wrapper.
            warnings.warn(loss, ConversionWarning, stacklevel=4)


def _describe(thing: Any) -> str:
    """Name a part for a loss message, with enough of its text to find it."""
    name = type(thing).__name__
    match thing:
        case TextPart():
            return f"{name} {_excerpt(thing.text)}"
        case ReasoningPart():
            signed = f" from {thing.provider}" if thing.provider else ""
            shown = [_excerpt(t) for t in (thing.text, *thing.summary) if t]
            text = f" {' / '.join(shown)}" if shown else " (encrypted)"
            return f"{name}{signed}{text}"
        case ProviderPart():
            # A block's type is its "type" field, or its one key (Bedrock's union blocks).
            keys = list(thing.data)
            tag = thing.data.get("type", keys[0] if len(keys) == 1 else "block")
            return f"{name} ({thing.provider} {tag})"
        case ToolCall():
            return f"{name} {thing.name}({_excerpt(thing.arguments)})"
        case MediaPart() if thing.file_id is not None:
            return f"{name} {excerpt(thing.file_id)} ({thing.file_provider} file)"
        case System() | User() | Assistant() | Tool():
            return name  # a field of the message is lost, not its text: `_where` names it
        case _ if hasattr(thing, "text"):
            return f"{name} {_excerpt(str(thing.text))}"
    return name


def _excerpt(text: str | None, size: int = 80) -> str:
    text = text or ""
    return repr(text if len(text) <= size else text[: size - 1] + "…")


def _check_uploads(urls: Any, uploader: Any, model: Any) -> UrlMode:
    """Check `urls` and `uploader` together; return the mode parts are normalized in."""
    if urls != "upload":
        _check_urls(urls, model)
        if uploader is not None:
            raise InvalidConfig(
                f"an uploader is used only with urls='upload', got urls={excerpt(urls)}"
            )
        mode: UrlMode = urls  # checked by _check_urls
        return mode
    _check_urls("auto", model)
    if uploader is None:
        raise InvalidConfig(
            "urls='upload' needs uploader=: an mp.Uploader(client, ...) with the provider's "
            "SDK client, to send media to its file store"
        )
    if not isinstance(uploader, PartUploader):
        raise InvalidConfig(
            f"uploader must be an mp.Uploader (or meet mediaparts.providers.PartUploader), got "
            f"{type(uploader).__name__}"
        )
    return "auto"


def _fitting(options: Options) -> Options:
    """Check the URL and upload settings together; return the options each part is fitted by.

    `render` fits each image at its own `detail`, and uploads before fitting: the options
    given to `normalize` have neither.
    """
    mode = _check_uploads(options.urls, options.uploader, options.model)
    if mode == options.urls and options.detail is None and options.uploader is None:
        return options  # the common case, without the cost of a copy on the render path
    return dataclasses.replace(options, urls=mode, detail=None, uploader=None)


def _conversation(
    value: Any, provider: Provider, foreign_reasoning: ForeignReasoning
) -> list[Message]:
    """Return the messages to render; with `"text"`, other providers' reasoning made text."""
    messages = as_messages(value)
    if foreign_reasoning == "drop":
        return messages
    return [_reasoning_as_text(m, provider.name) for m in messages]


def _reasoning_as_text(message: Message, provider: str) -> Message:
    parts: list[Any] = []
    for p in message.parts:
        text = ""
        if isinstance(p, ReasoningPart) and p.provider != provider:
            text = "\n\n".join(t for t in (p.text, *p.summary) if t)
        parts.append(TextPart(f"<reasoning>\n{text}\n</reasoning>") if text else p)
    if all(a is b for a, b in zip(parts, message.parts, strict=True)):
        return message
    return message.model_copy(update={"parts": tuple(parts)})


@renamed("messages_or_parts", "messages")
def render(
    messages: Conversation,
    provider: str | Provider,
    *,
    model: str | None = None,
    urls: RenderUrls = "auto",
    on_loss: OnLoss = "warn",
    foreign_reasoning: ForeignReasoning = "drop",
    transforms: TransformPolicy | None = None,
    uploader: PartUploader | None = None,
    options: Options | None = None,
) -> dict[str, Any]:
    """Render messages into the keyword arguments of the provider's SDK call.

    Every media part is normalized for the provider first (fitted, converted, or refused
    with `UnsupportedMediaType`), so what is rendered is what the provider accepts. What the
    provider's shapes cannot carry at all (another provider's signed reasoning or blocks, a
    file in another provider's store, citations where the API has none) is never dropped
    silently: `on_loss` says what happens (see docs/conversations.md for each mapping).

    Args:
        messages: Messages; or a prompt (`str`) or parts, made into one user message (the
            keyword `messages_or_parts` of earlier versions works, with a warning).
        provider: A provider name or `Provider`.
        model: The model, for model-dependent rules.
        urls: `"auto"`, `"inline"` or `"pass"` (see `normalize`), or `"upload"`: as
            `"auto"`, but media over the provider's inline limits (or that the uploader is
            told to send anyway) go to the provider's file store through `uploader` and are
            sent by reference (docs/provider-files.md).
        on_loss: `"warn"` (a `ConversionWarning` naming each part left out and why),
            `"drop"` (leave it out quietly) or `"error"` (raise `ConversionError`).
        foreign_reasoning: Reasoning that another provider produced (or that names no
            provider) cannot be replayed to this one: `"drop"` leaves it out (through
            `on_loss`); `"text"` sends its readable text and summary as a `<reasoning>` text
            part instead (encrypted or redacted reasoning has none, and is still left out).
        transforms: What may be done to audio, video, SVG and documents the provider cannot
            take as they are (see `normalize`); None for the default policy.
        uploader: With `urls="upload"`, what uploads parts (`mp.Uploader(client, ...)`).
        options: The settings as one `mp.Options` value (`detail` aside: each image is fitted
            at its own); a keyword above that is given wins over its field.

    Returns:
        `openai`: `{"messages": [...]}`; `openai-responses`: `{"input": [...]}`;
        `anthropic`: `{"system": ..., "messages": [...]}`; `gemini`: the `generateContent`
        body; `bedrock`: `{"messages": [...], "system": [...]}` for `converse`. An empty
        list renders the provider's empty conversation.

    Raises:
        ConversionError: `on_loss="error"` and a part cannot be carried.
        InvalidConfig: `urls` or `on_loss` is not one of its modes; `urls="upload"` without
            an uploader, or an uploader without it; `options` is not an `mp.Options`.
        UnknownProvider: No provider has that name.
        MediaError: Whatever `normalize` raises for a part (a subclass of it), or the
            uploader for an upload.
    """
    try:
        # Sync twin of `arender` (parts normalized in turn vs concurrently); the provider's
        # renderer does the rest, once.
        opts = resolve(
            options,
            model=model,
            urls=urls,
            on_loss=on_loss,
            foreign_reasoning=foreign_reasoning,
            transforms=transforms,
            uploader=uploader,
        )
        fitting = _fitting(opts)
        chosen = get(provider, opts.model)
        conversation = _conversation(messages, chosen, opts.foreign_reasoning)
        model, uploader = opts.model, opts.uploader
        done: dict[int, NormalizedPart] = {}

        def fit(part: MediaPart) -> NormalizedPart:
            key = id(part)
            if key not in done:
                sent = part
                if uploader is not None and part.file_id is None:
                    sent = uploader.upload_part(part, chosen, model) or part
                done[key] = normalize(sent, chosen, options=fitting)
            return done[key]

        prepare = Preparer(chosen, conversation, fit, opts.on_loss, model)
        # The payload is the caller's to edit: renderers copy the parts' own dicts (provider
        # blocks, citations, hints) where they put them in it (`copied`), and build the rest.
        payload: dict[str, Any] = chosen.renderer(conversation, prepare)
        prepare.warn()
        return payload
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _RENDERING.reraise(exc)


@renamed("messages_or_parts", "messages")
async def arender(
    messages: Conversation,
    provider: str | Provider,
    *,
    model: str | None = None,
    urls: RenderUrls = "auto",
    on_loss: OnLoss = "warn",
    foreign_reasoning: ForeignReasoning = "drop",
    transforms: TransformPolicy | None = None,
    uploader: PartUploader | None = None,
    options: Options | None = None,
) -> dict[str, Any]:
    """`render` for async code: URL parts are fetched concurrently, images fitted in threads."""
    try:
        # Async twin of `render` (parts normalized concurrently vs in turn); the provider's
        # renderer does the rest, once.
        opts = resolve(
            options,
            model=model,
            urls=urls,
            on_loss=on_loss,
            foreign_reasoning=foreign_reasoning,
            transforms=transforms,
            uploader=uploader,
        )
        fitting = _fitting(opts)
        chosen = get(provider, opts.model)
        conversation = _conversation(messages, chosen, opts.foreign_reasoning)
        model, uploader = opts.model, opts.uploader

        async def prepared(part: MediaPart) -> NormalizedPart:
            sent = part
            if uploader is not None and part.file_id is None:
                sent = await uploader.aupload_part(part, chosen, model) or part
            return await anormalize(sent, chosen, options=fitting)

        media = list(
            {
                id(p): p
                for m in conversation
                for p in m.files
                if left_out(p, chosen.name, chosen.rules) is None  # never fetch what is left out
            }.values()
        )
        ready = await asyncio.gather(*(prepared(p) for p in media))
        table = {id(p): n for p, n in zip(media, ready, strict=True)}
        by_media: dict[MediaPart, NormalizedPart] = {}

        def fitted(part: MediaPart) -> NormalizedPart:
            found = table.get(id(part))
            if found is not None:
                return found
            # A renderer's copy with another cache breakpoint (`cache_plan`, `without_cache`): the
            # same media, fitted once; the copy is its part, as `render` would make it.
            if not by_media:
                by_media.update(
                    (p.model_copy(update={"cache": None}), n)
                    for p, n in zip(media, ready, strict=True)
                )
            same = by_media[part.model_copy(update={"cache": None})]
            return dataclasses.replace(same, part=part)

        prepare = Preparer(chosen, conversation, fitted, opts.on_loss, model)
        payload: dict[str, Any] = chosen.renderer(conversation, prepare)  # see render
        prepare.warn()
        return payload
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _ARENDERING.reraise(exc)
