"""The work done for one row, with no Ray in it: the same functions run in a Ray task and in
this process, so the distributed result cannot drift from the local one.

A row's value is untrusted data (a 100,000-row table is rarely written by hand): a path is
read only inside the `base_dir` the caller names (none by default), a URL is fetched under
the fetch policy given, and every error of ours becomes the row's `error` when the caller
keeps errors, while any other exception (a bug) stops the job.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

from mediaparts._conversation._make_part import part as make_part
from mediaparts._conversation._messages import Message, User, message_from_dict
from mediaparts._errors import ConversionWarning, InvalidConfig, InvalidMedia, MediaError, excerpt
from mediaparts._paths import untrusted_paths
from mediaparts.converting import TransformPolicy, default_transforms
from mediaparts.fetching import FetchPolicy, default_policy, using_policy
from mediaparts.providers import (
    ForeignReasoning,
    NormalizedPart,
    OnLoss,
    Options,
    batch_line,
    get,
    normalize,
    render,
)

__all__ = [
    "ERROR_COLUMNS",
    "NORMALIZED_COLUMNS",
    "Errors",
    "RowJob",
    "batch_row",
    "conversation_of",
    "guarded",
    "normalized_row",
    "options",
    "payload_json",
    "rendered_row",
]

Errors = Literal["raise", "keep"]
Urls = Literal["auto", "inline", "pass"]  # `normalize`'s modes

# What `normalize_dataset` adds to each row, in this order; `error_type` and `error` are None
# on a row that worked, and every other column None on one that did not.
NORMALIZED_COLUMNS = (
    "media_type",
    "data",
    "url",
    "text",
    "filename",
    "width",
    "height",
    "detail",
    "tokens",
    "steps",
)
ERROR_COLUMNS = ("error_type", "error")

# A conversation given as JSON text is parsed only up to this size: a row is one request, and
# the requests providers take inline are below it (Anthropic's 32 MB, Gemini's 100 MB; OpenAI's
# 32 MB of documents, as base64 text about 43 MB; provider tables re-read 2026-12). OpenAI's
# 512 MB payload limit is above it: a larger row is refused with the error saying this cap.
MAX_JSON_CHARS = 128 * 1024 * 1024


@dataclass(frozen=True)
class RowJob:
    """Everything a row's work needs, fixed on the driver and shipped to every task.

    The defaults in force on the driver (`mp.configure`'s fetch and transform policies) are
    read once, here: a Ray worker is another process and would otherwise use its own.
    """

    provider: str
    reader: str
    options: Options  # what normalize, render and batch_line are given
    fetch: FetchPolicy | None = None
    base_dir: str | None = None
    errors: Errors = "raise"
    params: dict[str, Any] | None = None  # a batch request's further fields


def options(
    reader: str,
    provider: Any,
    *,
    model: str | None = None,
    detail: str | None = None,
    urls: Urls = "auto",
    on_loss: OnLoss = "warn",
    foreign_reasoning: ForeignReasoning = "drop",
    transforms: TransformPolicy | None = None,
    fetch: FetchPolicy | None = None,
    base_dir: str | os.PathLike[str] | None = None,
    errors: str = "raise",
    params: Mapping[str, Any] | None = None,
    settings: Options | None = None,
) -> RowJob:
    """Check the settings on the driver, before any task starts, and fix the defaults.

    `settings` is the caller's `mp.Options`; a keyword that is given wins over its field.
    """
    chosen = get(provider)  # UnknownProvider here, not in the first task
    if errors not in ("raise", "keep"):
        raise InvalidConfig(f"errors must be 'raise' or 'keep', got {excerpt(errors)}")
    if settings is not None and not isinstance(settings, Options):
        raise InvalidConfig(f"options must be an mp.Options, got {type(settings).__name__}")
    given = (settings or Options()).given(
        model=model,
        detail=detail,
        urls=urls,
        on_loss=on_loss,
        foreign_reasoning=foreign_reasoning,
        transforms=transforms,
    )
    if given.urls == "upload":
        raise InvalidConfig(
            f"urls must be 'auto', 'inline' or 'pass' in {reader}, got 'upload': rows are "
            "rendered in Ray tasks, which do not upload"
        )
    if fetch is not None and not isinstance(fetch, FetchPolicy):
        raise InvalidConfig(f"fetch must be a FetchPolicy, got {type(fetch).__name__}")
    if base_dir is not None:
        with untrusted_paths(reader, base_dir):  # InvalidMedia now if it is no directory
            pass
    # A dry run of the checks normalize and render make of their own arguments.
    render([], chosen, options=given)
    return RowJob(
        provider=chosen.name,
        reader=reader,
        options=dataclasses.replace(given, transforms=given.transforms or default_transforms()),
        fetch=fetch or default_policy(),
        # Absolute: a Ray worker need not run in this process's working directory.
        base_dir=None if base_dir is None else os.path.abspath(base_dir),
        errors="keep" if errors == "keep" else "raise",
        params=None if params is None else dict(params),
    )


@contextmanager
def _policies(opts: RowJob) -> Iterator[None]:
    """Run a row's work under the caller's path and fetch policies."""
    with untrusted_paths(opts.reader, opts.base_dir), using_policy(opts.fetch or FetchPolicy()):
        yield


def guarded(opts: RowJob, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run one row's work; with `errors="keep"`, a `MediaError` becomes the row's error."""
    try:
        with _policies(opts):
            done = work()
    except MediaError as exc:
        if opts.errors == "raise":
            raise
        return {"error_type": type(exc).__name__, "error": str(exc)}
    return {**done, "error_type": None, "error": None}


def normalized_row(value: Any, opts: RowJob) -> dict[str, Any]:
    """Normalize one row's value (a path, URL, data URI or bytes) into its output columns."""
    if not isinstance(value, str | bytes):
        kind = "nothing" if value is None else type(value).__name__
        raise InvalidMedia(
            f"a row holds {kind}; normalize_dataset takes a path, a URL, a data URI or bytes"
        )
    done = normalize(
        make_part(value),
        opts.provider,
        options=opts.options,
    )
    return normalized_columns(done)


def normalized_columns(done: NormalizedPart) -> dict[str, Any]:
    """The columns of one normalized part; a part sent as several pieces is refused."""
    if done.pieces:
        raise InvalidMedia(
            f"this {done.media_type} becomes {len(done.pieces)} pieces for the provider "
            "(frames, split documents or page images), which a row of one part cannot hold; "
            "use render_dataset, which sends the pieces where the part stands",
            media_type=done.media_type,
        )
    return {
        "media_type": done.media_type,
        "data": done.data,
        "url": done.url,
        "text": done.text,
        "filename": done.filename,
        "width": done.width,
        "height": done.height,
        "detail": done.detail,
        "tokens": done.tokens,
        "steps": list(done.steps),
    }


def conversation_of(value: Any, opts: RowJob) -> list[Message]:
    """Read one row's conversation: JSON text, or a list of message dicts.

    The dicts are untrusted: they are read as `mp.message_from_dict` reads them, with paths
    only inside `base_dir`.
    """
    if isinstance(value, bytes | str):
        if len(value) > MAX_JSON_CHARS:
            raise InvalidMedia(
                f"a row's conversation is {len(value):,} characters of JSON; at most "
                f"{MAX_JSON_CHARS:,} are read"
            )
        try:
            value = json.loads(value)
        except (ValueError, RecursionError) as exc:  # RecursionError: nesting too deep
            raise InvalidMedia(f"a row's conversation is not JSON: {excerpt(str(exc))}") from exc
    if isinstance(value, Mapping):
        value = [value]
    if not isinstance(value, list | tuple):
        raise InvalidMedia(
            f"a row's conversation is {type(value).__name__}; it must be a list of message "
            "dicts (or their JSON text)"
        )
    messages = []
    for item in value:
        if not isinstance(item, Mapping):
            raise InvalidMedia(
                f"a row's conversation holds {type(item).__name__}, not a message dict"
            )
        messages.append(message_from_dict(item, base_dir=opts.base_dir))
    return messages


def prompt_conversation(prompt: Any, media: Any) -> list[Message]:
    """One user message: the row's prompt text, then its media (a path, URL, data URI or
    bytes), either of which may be missing."""
    if prompt is not None and not isinstance(prompt, str):
        raise InvalidMedia(f"a row's prompt is {type(prompt).__name__}, not text")
    if media is not None and not isinstance(media, str | bytes):
        raise InvalidMedia(
            f"a row's media is {type(media).__name__}; it must be a path, a URL, a data URI "
            "or bytes"
        )
    files = [] if media is None else [make_part(media)]
    return [User(prompt or "", files=files)]


def rendered_row(messages: Callable[[], list[Message]], opts: RowJob) -> dict[str, Any]:
    """Render one row's conversation into its payload, as JSON text, and the warnings of
    what it left out (`on_loss="warn"`)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConversionWarning)
        payload = render(
            messages(),
            opts.provider,
            options=dataclasses.replace(opts.options, detail=None),
        )
    lost = [str(w.message) for w in caught if issubclass(w.category, ConversionWarning)]
    for other in caught:  # not ours to swallow: said again, as they were said
        if not issubclass(other.category, ConversionWarning):
            warnings.warn_explicit(other.message, other.category, other.filename, other.lineno)
    return {"payload": payload_json(payload), "warnings": lost}


def batch_row(custom_id: Any, messages: Callable[[], list[Message]], opts: RowJob) -> bytes:
    """Make one row's batch line, as `mp.write_batch` makes each."""
    return batch_line(
        custom_id,
        messages(),
        opts.provider,
        params=opts.params,
        options=dataclasses.replace(opts.options, detail=None),
    )


def payload_json(payload: Any) -> str:
    """Return a payload as compact JSON text, bytes (Bedrock's inline media) as base64.

    Base64 is how bytes travel in Converse's own JSON; `json.loads` of the text gives the
    payload back with each bytes value as its base64 string.
    """
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), default=_bytes)


def _bytes(value: Any) -> str:
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(value).decode("ascii")
    raise InvalidMedia(f"a payload holds {type(value).__name__}, which JSON cannot carry")
