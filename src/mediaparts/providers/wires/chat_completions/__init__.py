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

`stream(served)` reads a streamed reply (`stream=True`; openai-python 3.63's
`ChatCompletionChunk`, read 2026-12-05) for `mp.StreamReader`: the chunks (the SDK's objects,
their dicts, or the `chunk` events of its `chat.completions.stream()` helper, whose derived
events are skipped) are gathered into the non-streamed `ChatCompletion` and read by
`read_response`, so both read alike. Only the first choice is read, as `read_response` reads
it; the reply is finished when its `finish_reason` arrives (the usage-only chunk of
`stream_options={"include_usage": True}` may follow). A delta's `index` is where its part
stands in the message, in `read_response`'s order: the text, an audio reply's transcript, the
audio (announced once, by a `"provider"` delta, when its last update or the stop arrives), the
refusal, the legacy `function_call`, then the tool calls by their `index`. The API sends
these in that order; a field arriving after one that follows it moves the later parts, and
the deltas already given keep the index they had. A custom tool's deltas carry the JSON text
of its arguments `{"input": ...}` in pieces, closed when the reply stops; a tool call of a
type we do not know is kept as its first fragment said it. An `{"error": ...}` chunk raises
`StreamError` carrying it.

Its quirks (`QUIRKS`, checked by `check_quirks`; the Responses wire reads the same table):
`breakpoint_models`, the models (fnmatch patterns) that take `prompt_cache_breakpoint` (OpenAI's
record: gpt-5.6 and later); a provider without it takes none, and breakpoints are left out (a
model not given: sent when any pattern is set). `stream_extra` and `refusal_as_text`, for APIs
whose chunks carry an object of their own and that have no refusal field (`_common`).
`file_urls`, true for a provider that fetches a document given as an http(s) URL in the `file`
part's `file_data` (OpenRouter's record), which the API's own shape has no field for: a file
part by URL is then rendered so and read back as a URL part (without it, refused as
`UnsupportedMediaType`).

A tool result has no error flag in either OpenAI API: `Tool.error` is sent as the content's
first line (`Error (type): message`), and `is_error` without error text is reported lost
(`on_loss`), its content sent as it is.

Internal exports, for `openai_responses` (not in `__all__`, no compatibility promise):
`read_breakpoint`, `write_breakpoint` (one reader and writer of breakpoints for both APIs),
`takes_breakpoints` (whether the provider served takes them for a model), `FILE_URLS` (the
quirk's key, for a provider record setting it), and
`tool_error` (a tool result's error line, the lost flag reported); `STOP_REASONS` (its
`finish_reason` values in the common vocabulary).
"""

from mediaparts.providers.wires.chat_completions._check import check_request
from mediaparts.providers.wires.chat_completions._common import FILE_URLS as FILE_URLS
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
from mediaparts.providers.wires.chat_completions._stream import stream

__all__ = [
    "QUIRKS",
    "check_quirks",
    "check_request",
    "file_data_site",
    "media_site",
    "read",
    "read_response",
    "render",
    "stream",
]
