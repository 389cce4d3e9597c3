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

`stream(served)` reads a streamed reply (`responses.create(stream=True)`, or the events of the
SDK's `responses.stream()` helper, whose snapshots it ignores) for `mp.StreamReader`:

- `response.created` / `.queued` / `.in_progress` give the response's shell (id, model);
  `response.output_item.added` begins an output item and `.done` gives it whole (an item
  whose deltas were left out is said then: what it adds to what was read); the text of
  `output_text`, `refusal`, function-call arguments, custom tool-call input, reasoning
  summaries and reasoning text grows by their `.delta` events and settles at their `.done`.
- The final event, `response.completed` or `response.incomplete`, carries the whole response,
  read with `read_response` (a response without `output` takes the items the stream gave);
  before it, the message is the response as it stands (items so far, texts accumulated; a
  function call whose arguments are not JSON yet keeps its text), with no stop reason.
- `response.failed` and `error` events raise `StreamError` (its `error` the response's error
  object, or the `error` event itself). Events of other types (a server tool's progress,
  audio, ...) are skipped: their items come whole in `output_item.done`. Events after the
  final one are skipped too (a successor response is another stream).
- Deltas: `index` is the part's position in the final message, in `read_response`'s order:
  the items in order, a message one part per content block (one empty text when it has
  none), any other item one part. A message's text and refusal blocks grow by `"text"` and
  `"refusal"` deltas, an annotation is a `"citation"` delta; a function call's first delta
  (on `output_item.added`) carries its `call_id` as `id` and its `name`; a reasoning item's
  summary texts are `"reasoning"` deltas that concatenate to the summary texts joined with
  nothing between them, its reasoning texts to its `text` (a blank line between two); a
  custom tool call, a server tool's item or a block we do not model begins with a
  `"provider"` delta (`name` its type; a custom call's input grows in `text`). The final
  event adds a `"usage"` and a `"stop"` delta.
- Hostile input: an `output_index`, `content_index`, `summary_index` or `annotation_index`
  no greater than the count of items or blocks so far (else `InvalidMedia` naming it); each
  added or done item is read as `read_response` reads it when it arrives.

Internal export (not in `__all__`, no compatibility promise): `STOP_REASONS` (its
`incomplete_details.reason` and `status` values in the common vocabulary).

Its one quirk, shared with Chat Completions (`QUIRKS`, checked by `check_quirks`):
`breakpoint_models`, the models (fnmatch patterns) that take `prompt_cache_breakpoint`; a
provider without it takes none, and its breakpoints are left out and reported lost.
"""

from mediaparts.providers.wires.chat_completions import BREAKPOINT_QUIRKS as QUIRKS
from mediaparts.providers.wires.chat_completions import (
    check_breakpoint_quirks as check_quirks,
)
from mediaparts.providers.wires.responses._check import check_request
from mediaparts.providers.wires.responses._read import read, read_response
from mediaparts.providers.wires.responses._render import media_site, render, replays
from mediaparts.providers.wires.responses._shapes import STOP_REASONS as STOP_REASONS
from mediaparts.providers.wires.responses._stream import stream

__all__ = [
    "QUIRKS",
    "check_quirks",
    "check_request",
    "media_site",
    "read",
    "read_response",
    "render",
    "replays",
    "stream",
]
