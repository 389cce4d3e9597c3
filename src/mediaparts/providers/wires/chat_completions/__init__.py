"""The Chat Completions wire: `render`, `media_site`, and its readers (no provider's rules).

The shapes follow the openai SDK's `ChatCompletionMessageParam` and `ChatCompletion`
(openai-python 3.54, read 2026-11): `system`, `developer`, `user`, `assistant`, `tool` and the
legacy `function` messages; text, `image_url`, `input_audio`, `file` and `refusal` content
parts, each with an optional `prompt_cache_breakpoint`; assistant `refusal`, `audio`,
`tool_calls` (function and custom) and the legacy `function_call`; `tool` messages whose
content is text only.

`read` and `read_response` keep what the common model does not hold in `native[<provider>]`
(the name of the provider served: `"openai"`, or a provider registered on this wire), so
that `render` writes the payload back as it was. On a message:

- `content`: how the content was written when `render` would write it otherwise:
  `"string"`, `"list"`, `"null"` or `"absent"`.
- `fields`: keys the common model does not hold, and keys written as `null`, verbatim.
- `role`: `"function"` on a `Tool` read from a legacy `function` message.

On a part:

- `fields`: keys of a content part the common model does not hold, verbatim; `inner`: the
  same inside its `image_url`, `input_audio` or `file` object.
- `breakpoint`: the `prompt_cache_breakpoint` exactly as written, when `cache` alone would
  write another (`cache="5m"` writes `{"mode": "explicit"}`, `"1h"` adds `"ttl": "12h"`): a
  `"30m"` TTL, or keys we do not know, which go back as they were.
- `in`: where a part goes: `"content"` (a `RefusalPart` from the content list; the default for
  a `ProviderPart`), `"message"` (a `ProviderPart` holding a message field: `{"audio": {"id":
  ...}}`), `"tool_calls"` (a `ProviderPart` holding a tool call of an unknown type),
  `"function_call"` (a `ToolCall` from the legacy `function_call`).
- `type`: `"custom"` on a `ToolCall` of a custom tool; its free-text input is held as the
  arguments `{"input": text}`.
- `filename`: `False` when inline file data was written without a file name; `file_data`:
  `"base64"` when it was bare base64, not a data URI.
- `transcript`: `True` on the text of an audio reply's transcript, which `render` leaves out
  when the audio goes back by id.

Its one quirk (`QUIRKS`, checked by `check_quirks`), shared with Responses:
`breakpoint_models`, the models (fnmatch patterns) that take `prompt_cache_breakpoint`
(OpenAI's record: gpt-5.6 and later); a provider without it takes none, and breakpoints are
left out (a model not given: sent when any pattern is set).

A tool result has no error flag in either OpenAI API: `Tool.error` is sent as the content's
first line (`Error (type): message`), and `is_error` without error text is reported lost
(`on_loss`), its content sent as it is.

Internal exports, for `openai_responses` (not in `__all__`, no compatibility promise):
`read_breakpoint`, `write_breakpoint` (one reader and writer of breakpoints for both APIs),
`takes_breakpoints` (whether the provider served takes them for a model), and
`tool_error` (a tool result's error line, the lost flag reported); `STOP_REASONS` (its
`finish_reason` values in the common vocabulary).
"""

from mediaparts.providers.wires.chat_completions._check import check_request
from mediaparts.providers.wires.chat_completions._common import QUIRKS, check_quirks
from mediaparts.providers.wires.chat_completions._common import read_breakpoint as read_breakpoint
from mediaparts.providers.wires.chat_completions._common import (
    takes_breakpoints as takes_breakpoints,
)
from mediaparts.providers.wires.chat_completions._common import tool_error as tool_error
from mediaparts.providers.wires.chat_completions._common import write_breakpoint as write_breakpoint
from mediaparts.providers.wires.chat_completions._read import read, read_response
from mediaparts.providers.wires.chat_completions._render import file_data_site, media_site, render
from mediaparts.providers.wires.chat_completions._shapes import STOP_REASONS as STOP_REASONS

__all__ = [
    "QUIRKS",
    "check_quirks",
    "check_request",
    "file_data_site",
    "media_site",
    "read",
    "read_response",
    "render",
]
