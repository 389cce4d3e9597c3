"""AWS Bedrock Converse: its media rules, `render` to `client.converse` arguments, and `read`.

`read` turns `converse` arguments (or their `messages` list) back into messages and
`read_response` a `converse` response into an `Assistant`; `render(read(p))` gives `p` back.
`stream` reads a `converse_stream` reply (the event dicts of its `["stream"]`, as
`mp.StreamReader` feeds them) into the `Assistant` that `read_response` gives for the
non-streamed response of the same content: one part per `contentBlockIndex` (a delta's
`index`), tool input JSON fragments parsed at the end (kept as the text that arrived when they
never make a JSON object), `finished` once `messageStop` arrives (`metadata` with the usage
usually follows), error events raised as `StreamError` (see `_stream.py`).
What the common model does not hold is kept under `native["bedrock"]`, and only `render` for
Bedrock reads it:

On a part:
- `ttl`: true when the `cachePoint` after the part wrote `"ttl": "5m"` (the default) itself.
- `format`: the block's format name when it is not the one `render` picks from the media
  type (an alias such as `mpg`, `mpga`, `x-aac`), or null: the document had no `format`.
- `bucketOwner`: the `s3Location`'s bucket owner.
- `source`: `"text"` or `"content"` for a document given as text, or as text pieces.
- `chunks`: the length of each text piece (a document's `content`, a `citationsContent`'s
  `content`) when there were not exactly one.
- `context`, `citations`: a document's own `context` and `citations` settings.
- `citations_content`: true for text read from a `citationsContent` block.
- `guard`, `qualifiers`: text or an image read from `guardContent` (and its qualifiers).
- `json`: true for a tool result's `json` block (the text part holds its JSON text).
- `error`: an image or audio block's `error`, as a response wrote it.

On a message:
- `in_messages`: a `System` (or a `User` marked `system`) read from a `role: "system"` turn
  inside `messages` (a mid-conversation system message), rendered back in place.
- `system`: a `User` holding system blocks that `System` cannot (a guarded image, a
  `toolAddition`, a `cachePoint` after nothing), rendered back among the system blocks.
- `status`: `"success"` when a `toolResult` wrote it; `type`: a `toolResult`'s `type`.

Internal exports, for the records of the providers it serves (not in `__all__`, no
compatibility promise): `formats` and `FORMAT_NAMES` (the API's `format` enums by media
type, and back), `media_type_of`, `VALID_NAME`, `NAME_BAD`, `NAME_MAX` (the document name
rule) and `STOP_REASONS` (its stop reasons in the common vocabulary).
"""

from mediaparts.providers.wires.converse._check import check_request
from mediaparts.providers.wires.converse._read import read, read_response
from mediaparts.providers.wires.converse._render import media_site, render
from mediaparts.providers.wires.converse._shapes import FORMAT_NAMES as FORMAT_NAMES
from mediaparts.providers.wires.converse._shapes import NAME_BAD as NAME_BAD
from mediaparts.providers.wires.converse._shapes import NAME_MAX as NAME_MAX
from mediaparts.providers.wires.converse._shapes import STOP_REASONS as STOP_REASONS
from mediaparts.providers.wires.converse._shapes import VALID_NAME as VALID_NAME
from mediaparts.providers.wires.converse._shapes import formats as formats
from mediaparts.providers.wires.converse._shapes import media_type_of as media_type_of
from mediaparts.providers.wires.converse._stream import stream

__all__ = [
    "check_request",
    "media_site",
    "read",
    "read_response",
    "render",
    "stream",
]
