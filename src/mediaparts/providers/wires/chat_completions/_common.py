"""What both OpenAI APIs (Chat Completions and Responses) share: cache breakpoints, tool errors.

`openai_responses` imports these through the package's internal exports, so that one table and
one reader and writer decide both APIs' `prompt_cache_breakpoint` and one policy their tool
errors.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping, Sequence
from typing import Any

from mediaparts._conversation._dialogue import Cache
from mediaparts._conversation._messages import Message, Tool
from mediaparts._errors import InvalidConfig, InvalidMedia, excerpt
from mediaparts.providers._wire._reading import as_dict, maybe, shown
from mediaparts.providers._wire._rendering import (
    Prepare,
    Served,
    check_names_quirk,
    error_text,
    without_cache,
)

__all__ = [
    "BREAKPOINT_MODELS",
    "CACHE_BREAKPOINTS",
    "FILE_URLS",
    "QUIRKS",
    "REFUSAL_AS_TEXT",
    "STREAM_EXTRA",
    "check_quirks",
    "file_urls",
    "read_breakpoint",
    "takes_breakpoints",
    "tool_error",
    "without_breakpoints",
    "write_breakpoint",
]

# `prompt_cache_breakpoint` on a content part (Chat Completions) or an input_text / input_image /
# input_file block (Responses): `mode` "explicit" and an optional `ttl`, "30m" or "12h", a
# minimum lifetime; without `ttl` the request's own, 30m by default (openai-python 3.54
# chat_completion_content_part_text_param.py, responses/response_input_text_param.py,
# completion_create_params.py, response_create_params.py, read 2026-11). Our `cache` is the
# shortest lifetime wanted: the default meets "5m", "1h" needs "12h".
CACHE_BREAKPOINTS: Mapping[Cache, Mapping[str, str]] = {
    "5m": {"mode": "explicit"},
    "1h": {"mode": "explicit", "ttl": "12h"},
}
# The quirk naming the models that take `prompt_cache_breakpoint` (fnmatch patterns). OpenAI's
# record sets it (its `_tables.BREAKPOINT_MODELS`); a provider without it takes none, and a
# breakpoint for it is left out, a documented no-op (the API caches prefixes by itself).
BREAKPOINT_MODELS = "breakpoint_models"
# The quirk naming the key of a provider's own object in a streamed chunk, whose `usage` (in the
# final chunk) is the stream's usage and whose `error` says why the stream stopped early.
STREAM_EXTRA = "stream_extra"
# The quirk of an API without OpenAI's refusal (the assistant's `refusal` field and `refusal`
# content parts): a refusal goes as the assistant's text instead.
REFUSAL_AS_TEXT = "refusal_as_text"
# Chat Completions' `file` part takes `file_data` (a data URI, or bare base64) or `file_id`;
# it has no URL field (openai-python 3.63 chat_completion_content_part_param.py, read
# 2026-12). A provider that fetches a document given as a URL in `file_data` (OpenRouter's
# record sets it) says so with this quirk: a file part by URL is then sent, and read back, so.
FILE_URLS = "file_urls"
QUIRKS: Mapping[str, str] = {
    BREAKPOINT_MODELS: "the models (fnmatch patterns) that take prompt_cache_breakpoint (the "
    "provider's other models cache by themselves: breakpoints are left out); without it none "
    "do, and breakpoints are reported lost",
    STREAM_EXTRA: "the key of the provider's own object in a streamed chunk: its `usage` is "
    "the stream's (when the chunk has none), its `error` ends the stream",
    REFUSAL_AS_TEXT: "true when the API has no refusal field or part: an assistant's refusal "
    "goes as its text, and that it was a refusal is reported lost",
    FILE_URLS: "true when file_data may carry an http(s) URL the provider fetches (a file part "
    "by URL is then sent as one); without it a file part by URL is refused (Chat Completions)",
}

# Read back, a TTL is the cache it meets.
_TTL_CACHE: Mapping[str, Cache] = {"30m": "5m", "12h": "1h"}


def read_breakpoint(value: Any, at: str) -> tuple[Cache, dict[str, Any] | None]:
    """Return the `cache` a `prompt_cache_breakpoint` asks for, and the breakpoint itself
    when `write_breakpoint(cache)` would write another (a `"30m"` TTL, keys we do not know:
    kept so that they go back as written).

    Args:
        value: The `prompt_cache_breakpoint` as written (hostile).
        at: Its JSON path, for errors.

    Raises:
        InvalidMedia: It is not an object, its `mode` is not "explicit", or its `ttl` is not
            one of "30m" and "12h" (naming the JSON path).
    """
    point = as_dict(value, at)
    mode = point.get("mode")
    if mode != "explicit":
        raise InvalidMedia(f"{at}.mode: expected 'explicit', got {shown(mode)}")
    ttl = maybe(point, "ttl", at, str)
    if ttl is not None and ttl not in _TTL_CACHE:
        raise InvalidMedia(f"{at}.ttl: expected one of {', '.join(_TTL_CACHE)}, got {shown(ttl)}")
    cache: Cache = "5m" if ttl is None else _TTL_CACHE[ttl]
    return cache, None if point == CACHE_BREAKPOINTS[cache] else point


def check_quirks(name: str, quirks: Mapping[str, Any]) -> None:
    """Refuse a quirk of the wrong form: `breakpoint_models` not a sequence of model patterns,
    `refusal_as_text` or `file_urls` not a bool, `stream_extra` not a non-empty string.

    Raises:
        InvalidConfig: A quirk is of the wrong form (naming it).
    """
    check_names_quirk(name, quirks, BREAKPOINT_MODELS, "model patterns (fnmatch)")
    if not isinstance(quirks.get(REFUSAL_AS_TEXT, False), bool):
        raise InvalidConfig(
            f"provider {excerpt(name)}: the {REFUSAL_AS_TEXT} quirk is true or false, got "
            f"{excerpt(quirks[REFUSAL_AS_TEXT])}"
        )
    extra = quirks.get(STREAM_EXTRA)
    if extra is not None and (not isinstance(extra, str) or not extra):
        raise InvalidConfig(
            f"provider {excerpt(name)}: the {STREAM_EXTRA} quirk is a chunk key (a non-empty "
            f"string), got {excerpt(extra)}"
        )
    if not isinstance(quirks.get(FILE_URLS, False), bool):
        raise InvalidConfig(
            f"provider {excerpt(name)}: the {FILE_URLS} quirk is true or false, got "
            f"{excerpt(quirks[FILE_URLS])}"
        )


def file_urls(served: Served) -> bool:
    """Tell whether the provider served fetches a document given as a URL in `file_data`."""
    return served.quirks.get(FILE_URLS, False) is True


def takes_breakpoints(served: Served, model: str | None) -> bool:
    """Tell whether the provider served takes `prompt_cache_breakpoint` for a model.

    Its `breakpoint_models` quirk (checked by `check_quirks` when it was registered) lists the
    models that do; with no model given, any pattern means yes (sent), none means no.
    """
    patterns: Sequence[str] = served.quirks.get(BREAKPOINT_MODELS, ())
    if model is None:
        return bool(patterns)
    return any(fnmatch.fnmatchcase(model, p) for p in patterns)


# A provider whose record names no `breakpoint_models` takes no `prompt_cache_breakpoint` on
# any model: each breakpoint is reported lost. For a model of one that names some, it is left
# out quietly: that API caches prefixes by itself (a documented no-op).
_NO_BREAKPOINTS = "its cache breakpoint: this API takes none (the part is kept)"


def without_breakpoints(messages: Sequence[Message], prepare: Prepare) -> Sequence[Message]:
    """Return the messages as the provider served takes them: with their cache breakpoints
    where it takes them for the model, else without (each reported lost when the provider
    names no model that takes them: `breakpoint_models` is not among its quirks)."""
    if takes_breakpoints(prepare.served, prepare.model):
        return messages
    if BREAKPOINT_MODELS not in prepare.served.quirks:
        for part in (p for m in messages for p in m.parts if p.cache is not None):
            prepare.lose(part, _NO_BREAKPOINTS)
    return without_cache(messages)


def write_breakpoint(cache: Cache, written: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Return the `prompt_cache_breakpoint` for `cache`: the one read (`written`), if any."""
    return dict(written if written is not None else CACHE_BREAKPOINTS[cache])


def tool_error(message: Tool, prepare: Prepare) -> str | None:
    """Return a tool result's error line (`"Error (Timeout): took too long"`), or None.

    Neither API has an error flag for a tool result: the error text, if any, is sent as the
    output's first line, and a flag without error text is reported lost (`prepare.lose`).
    """
    if message.is_error and message.error is None:
        prepare.lose(
            message, "its error flag: tool results of this API have none (the content is sent)"
        )
    return error_text(message)
