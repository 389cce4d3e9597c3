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
  arguments `{"input": text}`. `"absent"` on a function call written without `type` (read
  as a function call, written back without it).
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

Its quirks (`QUIRKS`, checked by `check_quirks`). Those of `_common` (`BREAKPOINT_QUIRKS`,
which the Responses wire takes too): `breakpoint_models`, the models (fnmatch patterns) that
take `prompt_cache_breakpoint` (OpenAI's record: gpt-5.6 and later); a provider without it
takes none, and its breakpoints are left out and reported lost (for a model no pattern names
they are left out quietly, its API caching by itself; a model not given: sent when any
pattern is set). `stream_extra` and `refusal_as_text`, for APIs whose chunks carry an object
of their own and that have no refusal field (a refusal sent as text; `check_request`
refuses an assistant's `refusal`). `file_urls`, true for a provider that fetches a document
given as an http(s) URL in the `file` part's `file_data` (OpenRouter's record), which the
API's own shape has no field for: a file part by URL is then rendered so and read back as a
URL part (without it, refused as `UnsupportedMediaType`). The others (`_variants`) name what
an API takes instead of the openai SDK's shapes:

- `reasoning_field`: the assistant message field in which the provider returns the model's
  reasoning as text, and takes it back (`"reasoning_content"`, `"reasoning"`): `read`,
  `read_response` and `stream` read it into a `ReasoningPart` of the provider served (first
  in the message; a stream's reasoning deltas are at index 0), and `render` writes that
  provider's own reasoning parts back into it (joined by a blank line); another provider's
  reasoning is reported lost. Without it the field is kept verbatim by `read`, like any
  field not modelled, and reasoning is not sent.

- `image_url_string`: `image_url` may be a bare URL or data URI string. `read` takes it (the
  part's `form` hint is `"string"`) and `render` writes it back so; a new image is written as
  the object. `media_site` reads both forms for any provider.
- `audio_string`: `input_audio` is a bare string, the file's base64 or a URL, with no
  `format`. `render` writes the URL where `audio.url_types` lets it pass, else the base64;
  `read` takes either (a URL as a URL part); `media_site` sniffs the bytes, or the URL.
- `document_url`: a document goes as `{"type": "document_url", "document_url": <URL or data
  URI>, "document_name": <its file name, when it has one>}` and a stored file as `{"type":
  "file", "file_id": ...}`, instead of the `file` part's object. `render` writes those (a
  document URL passes where `file.url_types` lets it), `read` takes both, `media_site` reads
  a `document_url`; media in a tool result moves to the next user message as other media do.
- `thinking_chunks`: the assistant's own reasoning goes back as a `thinking` chunk of its
  content (`{"type": "thinking", "thinking": [{"type": "text", "text": ...}], "signature":
  ...}`); `read` reads such a chunk as reasoning. Without it, `render` sends no reasoning
  (reported lost).
- `message_names=False` (a flag that defaults to True): a system, user or assistant
  message's `name` is reported lost, and `check_request` refuses one.
- `roles`: the message roles the API takes (a `developer` message goes as `system`, its role
  reported lost; `check_request` refuses the others).

`read_response` also reads a reply whose `content` is a list of chunks (`_variants.
reply_chunks`: text chunks as text, `thinking` chunks as reasoning with their `signature`,
others as `ProviderPart`s), and `stream` a delta whose `content` is a list of `thinking` and
`text` chunks (a chunk of another type is `InvalidMedia`).

A tool result has no error flag in either OpenAI API: `Tool.error` is sent as the content's
first line (`Error (type): message`), and `is_error` without error text is reported lost
(`on_loss`), its content sent as it is.

Internal exports, for `openai_responses` (not in `__all__`, no compatibility promise):
`BREAKPOINT_QUIRKS` and `check_breakpoint_quirks` (the quirk both APIs read, and its check),
`read_breakpoint`, `write_breakpoint` (one reader and writer of breakpoints for both APIs),
`takes_breakpoints` (whether the provider served takes them for a model), `FILE_URLS` (the
quirk's key, for a provider record setting it), `without_breakpoints` (the messages as it
takes them, breakpoints a provider never takes reported lost), and
`tool_error` (a tool result's error line, the lost flag reported); `STOP_REASONS` (its
`finish_reason` values in the common vocabulary).
"""

from collections.abc import Mapping
from typing import Any

from mediaparts.providers.wires.chat_completions import _common, _variants
from mediaparts.providers.wires.chat_completions._check import check_request
from mediaparts.providers.wires.chat_completions._common import FILE_URLS as FILE_URLS
from mediaparts.providers.wires.chat_completions._common import read_breakpoint as read_breakpoint
from mediaparts.providers.wires.chat_completions._common import (
    takes_breakpoints as takes_breakpoints,
)
from mediaparts.providers.wires.chat_completions._common import tool_error as tool_error
from mediaparts.providers.wires.chat_completions._common import (
    without_breakpoints as without_breakpoints,
)
from mediaparts.providers.wires.chat_completions._common import write_breakpoint as write_breakpoint
from mediaparts.providers.wires.chat_completions._read import read, read_response
from mediaparts.providers.wires.chat_completions._render import file_data_site, media_site, render
from mediaparts.providers.wires.chat_completions._shapes import STOP_REASONS as STOP_REASONS
from mediaparts.providers.wires.chat_completions._stream import stream

# The quirk it shares with Responses, and its check (internal exports).
BREAKPOINT_QUIRKS = _common.QUIRKS
check_breakpoint_quirks = _common.check_quirks
# Its quirks: the breakpoint models, and the chunk shapes of `_variants`.
QUIRKS = {**_common.QUIRKS, **_variants.QUIRKS}


def check_quirks(name: str, quirks: Mapping[str, Any]) -> None:
    """Refuse a quirk of the wrong form (breakpoint models, the chunk flags).

    Raises:
        InvalidConfig: A quirk is of the wrong form, naming the provider and the quirk.
    """
    _common.check_quirks(name, quirks)
    _variants.check_quirks(name, quirks)


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
