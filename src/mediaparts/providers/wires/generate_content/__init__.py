"""Google Gemini API: its media rules, `render` to a `generateContent` body, and its readers.

`render` writes the REST body (`contents`, `systemInstruction`, `inlineData`, `fileData`,
`functionCall`, `functionResponse`, in camelCase); `read` reads that body back, in camelCase
or in the Python SDK's snake_case, or just its `contents`; `read_response` reads a
`GenerateContentResponse`, the SDK's object or its dict (google-genai 3.4 `types.py`, read
2026-11); `stream` reads a streamed reply (`streamGenerateContent`, the SDK's
`generate_content_stream`): each event is one `GenerateContentResponse` chunk, the SDK's
object or its dict in either spelling.

A stream is read by adding its chunks up into the one non-streamed response of the same
content and reading that with `read_response`, so both give the same message: consecutive
text fragments of one kind (thought or not) are one part; a function call (sent whole),
media and code parts are kept where they sit; a `thoughtSignature` stays on the part it came
on, and one on a text fragment (often an empty last one) signs the run of text it ends, as the
non-streamed response holds it; a run takes one signature, so a second starts a new part.
The last chunk's `finishReason`, `usageMetadata`, `modelVersion` and `responseId` count;
citations add up. Arguments streamed in pieces (`partialArgs`, Vertex AI's
`streamFunctionCallArguments`) are put together. Deltas: `index` is the part's position in
the message; a function call is one `"tool_call"` delta with its whole arguments (a streamed
one: a first delta with its name, then one with its arguments when they are whole); media
parts get no delta; citations get theirs when the reply ends. A chunk `{"error": {...}}`
raises `StreamError` with that error.

What a body holds beyond the common model is kept under `native["gemini"]`, so that
`render(read(body))` gives the body back exactly. The hints:

- On a message: `"split": True` (it starts a new Content although the one before has the
  same role), `"join": True` (it continues the Content of the message before: a Content
  holding text and function responses is read as several messages), `"no_role": True` (the
  Content had no `role`), `"contents": "string"` (the SDK's `contents="..."`, one user turn
  given as a string).
- On a system message: `"field"` (where the instruction was: `systemInstruction`,
  `system_instruction`, `config.systemInstruction` or `config.system_instruction`),
  `"string": True` (written as a plain string), `"role"` (the role its Content gave).
- On a tool result (`functionResponse`): `"snake": True` (spelled in snake_case),
  `"response"`: `"json"` (the text is the JSON of the `response` object, sent back as that
  object), `"error"` (the response was `{"error": text}`, the tool's `error`) or `"absent"`
  (no `response`); `"inner"` (the function response's other fields, e.g. `willContinue`).
- On a part: `"snake": True` (spelled in snake_case), `"extra"` (the Part's fields we do not
  model, verbatim: `thoughtSignature` on text and function calls, `videoMetadata`,
  `mediaResolution`, `partMetadata`), `"own_fields"` (the names of those fields: rendered for
  another provider, the part goes without them and a `ConversionWarning` names them),
  `"inner"` (the other fields of its `inlineData`, `fileData` or `functionCall`, e.g.
  `displayName`), `"bytes": True` (inline data or a thought
  signature given as bytes, as the SDK types them), `"nested": True` (media read from inside a
  `functionResponse`), `"empty": True` (an empty text part the body had), `"no_args": True` (a
  function call without `args`), `"unsigned": True` (the first function call of a model
  Content, read without a `thoughtSignature`: sent back without one, where an unsigned call
  rendered for Gemini 3 gets Google's validator-skipping signature), `"passed_url": True` (a
  `fileData` web URL, which Gemini fetched: rendering it back for Gemini passes it through,
  even without a `mimeType`), `"own_url": True` (the same link: a YouTube video or a web page
  that Gemini reads itself, left out for any other provider, through `on_loss`, before
  anything is fetched).

Its quirks (`QUIRKS`, checked by `check_quirks`): `older_models`, the model name prefixes
older than multimodal function responses and signature-less replays; `file_uris`, the URI
prefixes of the file stores the API behind the provider reads (a part stored elsewhere is
refused by `render` and its `fileData` flagged by `check`; without it, every store).

Gemini's signature of a thought is the `ReasoningPart.signature`; a signature on a text or a
function call part stays a hint of that part (Gemini 3 requires it back on the same part).

Internal export (not in `__all__`, no compatibility promise): `STOP_REASONS` (the API's
stop reasons in the common vocabulary).
"""

from mediaparts.providers.wires.generate_content._check import check_request
from mediaparts.providers.wires.generate_content._read import read
from mediaparts.providers.wires.generate_content._render import media_site, render
from mediaparts.providers.wires.generate_content._response import read_response
from mediaparts.providers.wires.generate_content._sdk import sdk_kwargs
from mediaparts.providers.wires.generate_content._shapes import QUIRKS, check_quirks
from mediaparts.providers.wires.generate_content._shapes import STOP_REASONS as STOP_REASONS
from mediaparts.providers.wires.generate_content._stream import stream

__all__ = [
    "QUIRKS",
    "check_quirks",
    "check_request",
    "media_site",
    "read",
    "read_response",
    "render",
    "sdk_kwargs",
    "stream",
]
