"""What a wire's stream reader is (`StreamState`), and the pieces the wires' readers share.

A wire that reads streams has a `stream(served)` member returning a fresh `StreamState` for
one streamed response. The generic `mp.StreamReader` decodes what the application holds
(server-sent event bytes, the JSON text of one event) into event objects, feeds them to the
state one at a time, and asks it for the message so far; the state never sees bytes.

What every wire's state promises (the tests hold each wire to it):

- `feed(event)` takes one event, the SDK's object or its dict, and returns the deltas it
  added, in order; a malformed event is `InvalidMedia` naming its field, an error the API
  sent mid-stream `StreamError` (its `error` the API's error object). It costs time in
  proportion to the event: fragments are appended, never joined again (`Fragments`).
- `message()` is the `Assistant` so far; once the final event has arrived it equals what the
  wire's `read_response` gives for the non-streamed response of the same content (most states
  build that response as a dict and read it with `read_response`, so the two cannot drift).
- `finished` is true once the API's final event has arrived.
- An event type the state does not know is skipped, unless it carries content the reply
  holds, which is kept (as a `ProviderPart` where the wire's `read_response` keeps such
  blocks); never a crash.
"""

from __future__ import annotations

import io
import json
from typing import Any, Protocol

from mediaparts._conversation._json_data import json_text
from mediaparts._conversation._messages import Assistant
from mediaparts._errors import InvalidMedia, StreamError
from mediaparts._surrogates import SURROGATE
from mediaparts.providers._wire._deltas import Delta
from mediaparts.providers._wire._reading import shown

__all__ = ["Fragments", "StreamState", "api_error", "event_index", "json_object"]


class StreamState(Protocol):
    """One streamed response being read by a wire (what its `stream(served)` returns)."""

    @property
    def finished(self) -> bool:
        """Whether the API's final event has arrived."""
        ...

    def feed(self, event: Any, /) -> list[Delta]:
        """Take one event (the SDK's object or its dict); return the deltas it added."""
        ...

    def message(self) -> Assistant:
        """Return the message so far."""
        ...


class Fragments:
    """Text that arrives in fragments: appended in constant time, joined once when read.

    Memory grows with the text, not with the number of fragments (a million one-character
    fragments cost a million characters, not a million string objects). Two halves of a
    surrogate pair that arrived in two fragments are joined into their character.
    """

    __slots__ = ("_buffer", "_length", "_text")

    def __init__(self, text: str = "") -> None:
        self._buffer = io.StringIO()
        self._buffer.write(text)
        self._length = len(text)
        self._text: str | None = text

    def add(self, fragment: str) -> None:
        """Append a fragment."""
        if fragment:
            self._buffer.write(fragment)
            self._length += len(fragment)
            self._text = None

    def __len__(self) -> int:
        """The characters appended (a surrogate pair's halves count two), without joining."""
        return self._length

    def __str__(self) -> str:
        if self._text is None:
            text = self._buffer.getvalue()
            if not text.isascii() and SURROGATE.search(text):
                # A character the API split between two events (half a surrogate pair in the
                # JSON escapes of each) is one character again; a lone half stays lone.
                text = text.encode("utf-16-le", "surrogatepass").decode(
                    "utf-16-le", "surrogatepass"
                )
            self._text = text
        return self._text

    def __bool__(self) -> bool:
        return self._length > 0


def event_index(value: Any, at: str, known: int) -> int:
    """Return a stream's block index: a whole number no greater than the count of blocks
    seen so far (`known`), so a hostile index can neither allocate nor skip ahead.

    Raises:
        InvalidMedia: It is not a whole number, or not one the stream could have reached.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidMedia(f"{at}: expected a whole number, got {shown(value)}")
    if not 0 <= value <= known:
        raise InvalidMedia(
            f"{at}: index {shown(value)} is out of order (the stream has had {known} blocks)"
        )
    return value


def json_object(text: str) -> dict[str, Any] | None:
    """Return the JSON object streamed tool input adds up to, or None when it holds none a
    message could keep (not JSON, not an object, NaN, nested too deeply): the caller then keeps
    the text as it arrived."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    try:
        json_text(value, what="the tool input")
    except InvalidMedia:
        return None
    return value


def api_error(name: str, error: Any, kind: str | None = None) -> StreamError:
    """Return the `StreamError` for an error the API sent mid-stream: `error` is its error
    object (kept whole as `.error`), `kind` what the event named it when the object does not
    (Bedrock's exception events); the message shows the error's kind and text, bounded.
    """
    said: list[str] = [] if kind is None else [kind]
    if isinstance(error, dict):
        if kind is None:
            said += [str(error[k]) for k in ("type", "status", "code") if _scalar(error.get(k))]
        if isinstance(error.get("message"), str):
            said.append(error["message"])
    elif error is not None:
        said.append(shown(error))
    text = ": ".join(piece if len(piece) <= 200 else piece[:199] + "…" for piece in said)
    return StreamError(
        f"the {name} stream sent an error mid-stream ({text or 'no details'}); "
        "error.error is the API's error, error.partial the reply so far",
        error=error,
    )


def _scalar(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
