"""What both OpenAI APIs (Chat Completions and Responses) share: cache breakpoints, tool errors.

`openai_responses` imports these through the package's internal exports, so that one table and
one reader and writer decide both APIs' `prompt_cache_breakpoint` and one policy their tool
errors.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from typing import Any

from mediaparts._blocks import Cache
from mediaparts._errors import InvalidMedia
from mediaparts._messages import Tool
from mediaparts.providers._read_common import as_dict, maybe, shown
from mediaparts.providers._render_common import Prepare, error_text

__all__ = [
    "CACHE_BREAKPOINTS",
    "read_breakpoint",
    "takes_breakpoints",
    "tool_error",
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
# "Supported for `gpt-5.6` and later models" (openai-python 3.54 `PromptCacheOptions`, read
# 2026-11). The older models cache prompts by themselves, so a breakpoint for them is left out,
# a documented no-op (as for Gemini); with no model given, it is sent.
_BREAKPOINT_MODELS = ("gpt-5.[6-9]*", "gpt-5.[1-9][0-9]*", "gpt-[6-9]*", "gpt-[1-9][0-9]*")

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


def takes_breakpoints(model: str | None) -> bool:
    """Tell whether a model takes `prompt_cache_breakpoint` (unknown: None, yes)."""
    return model is None or any(fnmatch.fnmatchcase(model, p) for p in _BREAKPOINT_MODELS)


def write_breakpoint(cache: Cache, written: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Return the `prompt_cache_breakpoint` for `cache`: the one read (`written`), if any."""
    return dict(written if written is not None else CACHE_BREAKPOINTS[cache])


def tool_error(message: Tool, prepare: Prepare) -> str | None:
    """Return a tool result's error line (`"Error (Timeout): took too long"`), or None.

    Neither API has an error flag for a tool result: the error text, if any, is sent as the
    output's first line, and a flag without error text is reported lost (`prepare.lose`).
    """
    if message.is_error and message.error is None:
        prepare.lose(message, "its error flag: OpenAI tool results have none (the content is sent)")
    return error_text(message)
