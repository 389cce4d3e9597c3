"""What some providers on this wire take instead of the openai SDK's shapes.

`roles` (a sequence of role names) says which message roles the API takes: `render` sends a
`developer` message as `system` where the API has no `developer` role (the role reported
lost), and `check_request` refuses the others. `message_names=False`: no message takes a
`name` (`render` reports a system, user or assistant message's name lost).
`thinking_chunks=True`: the assistant's own reasoning goes back as `{"type": "thinking",
"thinking": [{"type": "text", "text": ...}], "signature": ...}` in its content (another
provider's is reported lost), and `read` reads such a chunk as reasoning. Three flags
change how media is written and read; `media_site` knows every shape without them (a
payload's shape is unambiguous):

- `image_url_string`: `image_url` may also be a bare string (a URL or a data URI) instead of
  `{"url": ..., "detail": ...}`. `read` takes it, and `render` writes it back so (the part's
  `form` hint); a new image is written as the object, which such an API takes too.
- `audio_string`: `input_audio` is a bare string, the base64 of the file or a URL, with no
  `format`, instead of `{"data": ..., "format": ...}`. `render` writes a URL where the rules
  let it pass (`audio.url_types`), else the base64; `read` takes either.
- `document_url`: documents go as `{"type": "document_url", "document_url": <URL or data URI>,
  "document_name": <file name>}` (the name only when the part has one), and a stored file as
  `{"type": "file", "file_id": ...}`, instead of the `file` part's `{"file": {...}}`. `render`
  writes those; `read` takes both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mediaparts._conversation._make_part import is_url
from mediaparts._conversation._parts import (
    MediaPart,
    ProviderPart,
    ReasoningPart,
    TextPart,
)
from mediaparts._errors import InvalidConfig, excerpt
from mediaparts._sources import is_data_uri
from mediaparts.providers._fitting._normalized import NormalizedPart
from mediaparts.providers._wire._media_sites import (
    Problems,
    Site,
    Where,
    payload_bytes,
    url_text_site,
)
from mediaparts.providers._wire._reading import (
    as_dict,
    file_reference,
    inline_media,
    maybe,
    need,
    url_media,
)
from mediaparts.providers._wire._rendering import Served, check_names_quirk

__all__ = [
    "AUDIO_STRING",
    "DOCUMENT_URL",
    "IMAGE_URL_STRING",
    "MESSAGE_NAMES",
    "QUIRKS",
    "REASONING_FIELD",
    "ROLES",
    "THINKING",
    "audio_block",
    "check_quirks",
    "file_block",
    "has",
    "read_block",
    "read_thinking",
    "reasoning_field",
    "reply_chunks",
    "roles",
    "site",
    "takes",
    "thinking_block",
    "written_as_string",
]

ROLES = "roles"
THINKING = "thinking_chunks"
MESSAGE_NAMES = "message_names"
IMAGE_URL_STRING = "image_url_string"
AUDIO_STRING = "audio_string"
DOCUMENT_URL = "document_url"
# The assistant message field carrying the model's reasoning as text, in responses, stream
# deltas and requests alike (DeepSeek's and xAI's `reasoning_content`, Ollama's `reasoning`;
# the openai SDK's types have none): read as a `ReasoningPart` of the provider served, first
# in the message, and that provider's own reasoning written back there. DeepSeek answers 400
# when a tool-call turn's reasoning is not sent back (its Thinking Mode guide, read 2026-12).
REASONING_FIELD = "reasoning_field"
# The fields of an assistant message the wire itself writes: no reasoning goes there.
_OWN_FIELDS = frozenset(
    {"role", "content", "name", "refusal", "audio", "tool_calls", "function_call"}
)
QUIRKS: Mapping[str, str] = {
    ROLES: "the message roles the API takes (a sequence); without it all six. A developer "
    "message is sent as system where developer is not among them (reported lost)",
    THINKING: "True: the assistant's own reasoning goes back as thinking chunks in its content "
    "(text and signature), and is read from them",
    MESSAGE_NAMES: "False: no message takes a name (a system, user or assistant message's "
    "name is reported lost); True, the default: they do",
    IMAGE_URL_STRING: "True: image_url may be a bare URL or data URI string (read, and written "
    "back as read); new images are written as the object",
    AUDIO_STRING: "True: input_audio is a bare string, base64 data or a URL, with no format",
    DOCUMENT_URL: "True: documents go as document_url chunks (URL or data URI, document_name), "
    "stored files as {type: file, file_id}, instead of the file part",
    REASONING_FIELD: "the assistant message field carrying reasoning text (read into a "
    "ReasoningPart, the provider's own reasoning written back there); without it, reasoning "
    "is neither read from nor sent in a message field",
}


def check_quirks(name: str, quirks: Mapping[str, Any]) -> None:
    """Refuse a flag quirk that is not True or False.

    Raises:
        InvalidConfig: One of the flags is something else, naming the provider and the quirk.
    """
    check_names_quirk(name, quirks, ROLES, "message role names")
    field = quirks.get(REASONING_FIELD, "reasoning")
    if not isinstance(field, str) or not field.isidentifier() or field in _OWN_FIELDS:
        raise InvalidConfig(
            f"provider {excerpt(name)}: quirk {REASONING_FIELD} must name a message field of "
            f"its own (an identifier string, not one the wire writes: "
            f"{', '.join(sorted(_OWN_FIELDS))}), got {excerpt(field)}"
        )
    for quirk in QUIRKS.keys() - {ROLES, REASONING_FIELD}:
        value = quirks.get(quirk, False)
        if not isinstance(value, bool):
            raise InvalidConfig(
                f"provider {excerpt(name)}: quirk {quirk} must be True or False, "
                f"got {excerpt(value)}"
            )


def reasoning_field(served: Served) -> str | None:
    """Return the message field the provider served writes its reasoning in, or None."""
    field: str | None = served.quirks.get(REASONING_FIELD)
    return field


def has(served: Served, quirk: str) -> bool:
    """Tell whether the provider served has a flag quirk set."""
    return served.quirks.get(quirk) is True


def takes(served: Served, quirk: str) -> bool:
    """Tell whether the provider served takes what a flag quirk that defaults to True names
    (`message_names`): it does unless the flag is False."""
    return served.quirks.get(quirk) is not False


def roles(served: Served, every: tuple[str, ...]) -> tuple[str, ...]:
    """Return the message roles the provider served takes (`every` without the quirk)."""
    taken: tuple[str, ...] = tuple(served.quirks.get(ROLES, every))
    return taken


# -- render --------------------------------------------------------------------------------------


def audio_block(item: NormalizedPart) -> dict[str, Any]:
    """Return an `input_audio` chunk holding a bare string: the URL passed, else the base64."""
    return {"type": "input_audio", "input_audio": item.url if item.url is not None else item.base64}


def file_block(item: NormalizedPart, hints: Mapping[str, Any]) -> dict[str, Any]:
    """Return a stored file's `file` chunk, or a document's `document_url` chunk (named when
    the part has a file name, unless it was read from a chunk without one)."""
    if item.file_id is not None:
        return {"type": "file", "file_id": item.file_id}
    url = item.url if item.url is not None else item.data_uri
    block: dict[str, Any] = {"type": "document_url", "document_url": url}
    if item.filename and hints.get("document_name") is not False:
        block["document_name"] = item.filename
    return block


# -- read ----------------------------------------------------------------------------------------

CacheReader = Callable[[dict[str, Any], str, dict[str, Any]], Any]
"""Reads a chunk's cache breakpoint into its `cache`, noting the exact one in the hints."""


def read_block(
    node: dict[str, Any], at: str, served: Served, cache_of: CacheReader
) -> MediaPart | None:
    """Read a user's chunk in one of the shapes the provider's quirks name (None: not one).

    Keys of the chunk the part does not hold are kept as its `fields` hint, written back.
    """
    kind = node.get("type")
    value = node.get(kind) if isinstance(kind, str) else None
    string_image = kind == "image_url" and isinstance(value, str) and has(served, IMAGE_URL_STRING)
    string_audio = kind == "input_audio" and isinstance(value, str) and has(served, AUDIO_STRING)
    documents = has(served, DOCUMENT_URL) and (
        kind == "document_url" or (kind == "file" and "file_id" in node and "file" not in node)
    )
    if not (string_image or string_audio or documents):
        return None
    hints: dict[str, Any] = {}
    extra = {k: v for k, v in node.items() if k not in _KNOWN_KEYS | {kind}}
    if extra:
        hints["fields"] = extra
    cache = cache_of(node, at, hints)
    if string_image:
        hints["form"] = "string"
    fields: dict[str, Any] = {"cache": cache, "native": {served.name: hints} if hints else {}}
    where = f"{at}.{kind}"
    if string_image:
        return url_media("image", value, None, where, **fields)
    if string_audio:
        assert isinstance(value, str)
        if is_url(value) or is_data_uri(value):
            return url_media("audio", value, None, where, **fields)
        return inline_media("audio", value, None, where, **fields)
    if kind == "file":
        return file_reference("file", node["file_id"], served.name, None, f"{at}.file_id", **fields)
    name = maybe(node, "document_name", at, str)
    if name is not None:
        fields["filename"] = name
    else:  # a URL's part names itself after the URL: written back without a name
        fields["native"] = {served.name: {**hints, "document_name": False}}
    return url_media("file", need(node, "document_url", at, str), None, where, **fields)


# The keys these chunks have besides the one their type names (an image or audio chunk none, a
# document `document_name`, a stored file `file_id`); a cache breakpoint is read as `cache`.
_KNOWN_KEYS = frozenset({"type", "prompt_cache_breakpoint", "document_name", "file_id"})


def written_as_string(part: Any, provider: str) -> bool:
    """Tell whether an image was read from a bare-string `image_url` (written back so)."""
    native = getattr(part, "native", None) or {}
    own = native.get(provider)
    return isinstance(own, dict) and own.get("form") == "string"


def thinking_block(part: ReasoningPart) -> dict[str, Any]:
    """Return the thinking chunk of a reasoning part: its text as one text chunk, and its
    signature when it has one."""
    block: dict[str, Any] = {"type": "thinking", "thinking": [{"type": "text", "text": part.text}]}
    if part.signature is not None:
        block["signature"] = part.signature
    return block


def read_thinking(chunk: dict[str, Any], at: str, served: Served) -> ReasoningPart | None:
    """Read a thinking chunk that `thinking_block` writes back as it is (one text chunk, an
    optional signature, nothing else) as reasoning; None for another chunk."""
    inner = chunk.get("thinking")
    if (
        chunk.get("type") != "thinking"
        or set(chunk) - {"type", "thinking", "signature"}
        or not isinstance(inner, list)
        or len(inner) != 1
        or not isinstance(inner[0], dict)
        or set(inner[0]) != {"type", "text"}
        or inner[0].get("type") != "text"
    ):
        return None
    text = need(inner[0], "text", f"{at}.thinking[0]", str)
    signature = maybe(chunk, "signature", at, str)
    return ReasoningPart(text=text, signature=signature, provider=served.name)


def reply_chunks(content: list[Any], at: str, served: Served) -> list[Any]:
    """Read a reply's `content` written as a list of chunks (an API that answers so: text,
    and `thinking` chunks of a reasoning model) as parts, in order: a text chunk as text, a
    thinking chunk as reasoning (its text chunks joined, its `signature` kept), any other
    chunk as a `ProviderPart`, verbatim."""
    parts: list[Any] = []
    for i, node in enumerate(content):
        where = f"{at}[{i}]"
        chunk = as_dict(node, where)
        kind = chunk.get("type")
        thinking = read_thinking(chunk, where, served) if kind == "thinking" else None
        if kind == "text":
            parts.append(TextPart(need(chunk, "text", where, str)))
        elif thinking is not None:
            parts.append(thinking)
        elif kind == "thinking" and isinstance(chunk.get("thinking"), list):
            pieces = [as_dict(p, f"{where}.thinking[{j}]") for j, p in enumerate(chunk["thinking"])]
            text = "".join(p["text"] for p in pieces if isinstance(p.get("text"), str))
            signature = maybe(chunk, "signature", where, str)
            parts.append(ReasoningPart(text=text, signature=signature, provider=served.name))
        else:
            parts.append(ProviderPart(provider=served.name, data=chunk))
    return parts


# -- check ---------------------------------------------------------------------------------------


def site(node: dict[str, Any], at: Where, problems: Problems) -> Site | None:
    """Return the media site of a chunk in one of these shapes, or None when it is not one."""
    kind = node.get("type")
    if kind == "image_url" and isinstance(node.get("image_url"), str):
        return url_text_site("image", node["image_url"], f"{at}.image_url", problems)
    if kind == "input_audio" and isinstance(node.get("input_audio"), str):
        where = f"{at}.input_audio"
        found = url_text_site("audio", node["input_audio"], where, problems)
        if found.data is None and found.url is not None and not is_url(found.url):  # base64
            found = Site(where, "audio", None, data=payload_bytes(found.url, where, problems))
        return found
    if kind == "document_url" and "document_url" in node:
        return url_text_site("file", node["document_url"], f"{at}.document_url", problems)
    return None
