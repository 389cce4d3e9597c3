"""Anthropic Messages API: media rules, `render` to `messages.create` arguments, and readers
of responses and streams.

The shapes follow the anthropic SDK's `MessageParam` (anthropic-sdk-python 2.12, read
2026-11): text (with citations), `image` and `document` blocks (`base64`, `url`, `text`,
`content` and Files API `file` sources), `thinking` and `redacted_thinking`, `tool_use` from
the assistant and `tool_result` blocks (which may hold images and documents) in the user
turn that follows, and server-tool blocks. Turns must alternate, so same-role turns merge.

`read` and `read_response` turn those shapes back into messages; `render` reproduces a
payload it read exactly, from the hints the reader leaves under `native[<provider>]` (the
name of the provider served: `"anthropic"`, or one registered on this wire):

On messages:
- `"system"`: `"blocks"` when the top-level `system` was a list of text blocks, `"message"`
  for a system-role message inside `messages` (rendered back in place).
- `"content"`: `"list"` when one text block was written as a list rather than a string;
  on a `Tool`, `"str"` when the `tool_result` content was a string, `"list"` when it was an
  empty list.
- `"extra"` (on a `Tool`): `tool_result` fields the parts do not hold, verbatim
  (`toolset_name`, an explicit `is_error: false`).
- `"stop_sequence"`, `"stop_details"` (on an `Assistant` read from a response): what the
  response said; never sent.

On parts:
- `"ttl": True`: the default TTL (`"5m"`) was written out in `cache_control`.
- `"on_result": True`: the cache breakpoint was on the `tool_result` holding this part.
- `"passed_url": true`: the media came from a `url` source and goes back as one (not
  fetched; `normalize` honours this one key for every provider).
- `"title": None`: a document sent without a title although the part has a file name.
- `"context"`, `"citations"`: a document's `context` and citations setting.
- `"citations": []` (on text): an explicit empty citation list.
- `"extra"`: block fields the parts do not hold, verbatim (`caller`, `toolset_name`,
  `transformations`, a `null` written out).

Block types the parts do not model (`server_tool_use`, `web_search_tool_result` and the other
server-tool results, `search_result`, `content` documents, `container_upload`, ...) are read
as `ProviderPart`s and sent back verbatim, to Anthropic only.

`stream(served)` reads one streamed response (`messages.create(..., stream=True)`, or the
`messages.stream()` helper's events, whose own synthetic events and snapshots are skipped):
it returns the wire's `StreamState`, whose message is what `read_response` gives for the
`Message` the events add up to (`_stream.py` lists the events and how each is read). Its
deltas' `index` is the content block's `index`, which is the part's position: every block is
one part. Each `content_block_start` adds one delta announcing the part (a `tool_call` with
its id and name, a `provider` delta naming a server tool's block type, or the block's initial
text); `signature_delta` adds none (a signature is no text); `input_json_delta` grows a
`tool_call` (on `tool_use`) or a `provider` delta (on a server tool's block); the `stop` delta
comes with `message_delta`, although the message so far has no stop reason before
`message_stop`.

Its one quirk (`QUIRKS`, checked by `check_quirks`): `file_sources`, False when the API
behind the provider reads no Files API `file` sources (the Messages API as some clouds serve
it): `render` refuses a part given by file id, and `check` flags a `file` source.

Internal export (not in `__all__`, no compatibility promise): `STOP_REASONS` (the API's
stop reasons in the common vocabulary).
"""

from mediaparts.providers.wires.messages._check import check_request
from mediaparts.providers.wires.messages._read import read, read_response
from mediaparts.providers.wires.messages._render import media_site, render, replays
from mediaparts.providers.wires.messages._shapes import QUIRKS, check_quirks
from mediaparts.providers.wires.messages._shapes import STOP_REASONS as STOP_REASONS
from mediaparts.providers.wires.messages._stream import stream

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
