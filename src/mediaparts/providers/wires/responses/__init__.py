"""OpenAI Responses API: its media rules, `render` to `responses.create` arguments, and readers.

The shapes follow the openai SDK's `ResponseInputParam` and `Response` (openai-python 3.54,
read 2026-11): messages of `input_text` / `input_image` / `input_file` blocks (easy messages
with a string or a list, or `type: message` items), assistant output messages of `output_text`
(with annotations) and `refusal`, `reasoning` items, `function_call` items and
`function_call_output` items, whose output may hold images and files.

`read` and `read_response` map every item and block to parts: the `instructions` argument
becomes a first `System`, `developer` stays a `System(role="developer")`, a run of
assistant-side items (reasoning, messages, function calls, other items) one `Assistant`, a
`function_call_output` a `Tool`. Items and blocks not modelled (`web_search_call`,
`file_search_call`, `item_reference`, custom tool calls, ...) become `ProviderPart`s, rendered
back verbatim. A `prompt_cache_breakpoint` is the part's `cache`: "5m" renders as
`{"mode": "explicit"}` (the request's TTL, 30m by default), "1h" adds `"ttl": "12h"` (one
table, reader and writer with Chat Completions, from the `openai` package). A tool result has
no error flag: `Tool.error` is the output's first line, and `is_error` without error text is
reported lost, its content sent (the same policy as Chat Completions).

What a reader keeps under `native["openai-responses"]`, so that `render` writes the payload
back exactly (other providers ignore it):

- on a message: `instructions` (this `System` was the `instructions` argument), `string`
  (this `User` was `input` given as a string), `list` (text-only content was a list of
  `input_text` blocks), `role` (a `User` that was a system or developer message holding
  media), `name` (on a `Tool`: write its `name` into the item), `extra` (the item's keys the
  message does not hold: `type`, `status`, `id`, ...);
- on a part: `extra` (the block's or item's keys the part does not hold: `status`,
  `logprobs`, `namespace`, a file's `detail`, a `filename` beside a URL or file id, explicit
  nulls), `omit` (keys the renderer writes by default that the block lacked: an image's
  `detail` in a tool output, an inline file's `filename`), `breakpoint` (the exact
  `prompt_cache_breakpoint` when `cache` alone would render another: a "30m" TTL, keys we
  do not know), `bare` (`file_data` was
  base64 without a `data:` prefix), `texts` (a reasoning item's `content` texts when there
  were not exactly one), `block` (a `ProviderPart` that was a block of an assistant message,
  not an item);
- on the first part of an assistant message: `item` (the message's envelope: `type`, `id`,
  `status`, `phase`; with an `id` it renders as an output message of `output_text` and
  `refusal` blocks, else as an easy message whose content is one string: its texts and
  refusals joined by blank lines, citations and kept blocks reported as lost), and `empty`
  (its content was `[]`).

Internal export (not in `__all__`, no compatibility promise): `STOP_REASONS` (its
`incomplete_details.reason` and `status` values in the common vocabulary).

Its one quirk, shared with Chat Completions (`QUIRKS`, checked by `check_quirks`):
`breakpoint_models`, the models (fnmatch patterns) that take `prompt_cache_breakpoint`; a
provider without it takes none, and breakpoints are left out.
"""

from mediaparts.providers.wires.chat_completions import QUIRKS, check_quirks
from mediaparts.providers.wires.responses._check import check_request
from mediaparts.providers.wires.responses._read import read, read_response
from mediaparts.providers.wires.responses._render import media_site, render, replays
from mediaparts.providers.wires.responses._shapes import STOP_REASONS as STOP_REASONS

__all__ = [
    "QUIRKS",
    "check_quirks",
    "check_request",
    "media_site",
    "read",
    "read_response",
    "render",
    "replays",
]
