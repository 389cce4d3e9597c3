"""Stream events as text: the JSON of one event, and server-sent events read from raw bytes.

An application that calls an HTTP API itself (with httpx, say) holds the response body: bytes
in server-sent events (`text/event-stream`), each event's `data:` the JSON of one event of the
API. `SSEDecoder` cuts those bytes into events as they arrive, in chunks of any size, at a cost
linear in the bytes however they are cut (a line is joined once, when its end arrives), and
`json_events` turns the text of one event into the events it holds.

Decoding follows the WHATWG server-sent events rules: lines end at CR LF, LF or CR; a line
starting with `:` is a comment; the `data` lines of one event are joined with LF; an empty line
ends the event; a byte-order mark at the start is dropped; `event`, `id` and `retry` fields are
ignored (every API here repeats the event's type in its JSON).
"""

from __future__ import annotations

import codecs
import json
from typing import Any

from mediaparts._errors import InvalidMedia

__all__ = ["DONE", "SSEDecoder", "json_events"]

# Chat Completions ends its server-sent events with this data, which is not JSON.
DONE = "[DONE]"


class SSEDecoder:
    """Server-sent events from raw bytes fed in chunks: the `data` of each complete event."""

    __slots__ = ("_carry_cr", "_data", "_line", "_text")

    def __init__(self) -> None:
        self._text = codecs.getincrementaldecoder("utf-8-sig")(errors="strict")
        self._line: list[str] = []  # the pieces of the line not yet ended
        self._data: list[str] = []  # the data lines of the event not yet ended
        self._carry_cr = False  # the last chunk ended in CR: a LF next belongs to it

    def feed(self, chunk: bytes) -> list[str]:
        """Return the data of the events this chunk completes.

        Raises:
            InvalidMedia: The bytes are not UTF-8.
        """
        try:
            text = self._text.decode(chunk)
        except UnicodeDecodeError as exc:
            raise InvalidMedia(f"a server-sent event is not UTF-8 text: {exc.reason}") from exc
        return self._lines(text)

    def close(self) -> list[str]:
        """Return the data of an event the stream ended without closing (no blank line)."""
        try:
            text = self._text.decode(b"", final=True)
        except UnicodeDecodeError as exc:
            raise InvalidMedia("a server-sent event ends inside a UTF-8 character") from exc
        done = self._lines(text)
        if self._line:
            self._field("".join(self._line))
            self._line.clear()
        if self._data:
            done.append("\n".join(self._data))
            self._data.clear()
        return done

    def _lines(self, text: str) -> list[str]:
        done: list[str] = []
        if self._carry_cr and text.startswith("\n"):
            text = text[1:]
        self._carry_cr = False
        if "\n" not in text and "\r" not in text:
            if text:
                self._line.append(text)
            return done
        self._carry_cr = text.endswith("\r")
        pieces = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for i, piece in enumerate(pieces[:-1]):
            line = "".join((*self._line, piece)) if i == 0 and self._line else piece
            if i == 0:
                self._line.clear()
            if line:
                self._field(line)
            elif self._data:
                done.append("\n".join(self._data))
                self._data.clear()
        if pieces[-1]:
            self._line.append(pieces[-1])
        return done

    def _field(self, line: str) -> None:
        if line.startswith("data"):
            name, _, value = line.partition(":")
            if name == "data":
                self._data.append(value[1:] if value.startswith(" ") else value)


def json_events(text: str, at: str) -> list[Any]:
    """Return the events the JSON text of one server-sent event (or of a JSON array of them)
    holds: none for Chat Completions' `[DONE]`.

    Raises:
        InvalidMedia: The text is not JSON.
    """
    stripped = text.strip()
    if stripped == DONE:
        return []
    try:
        value = json.loads(stripped)
    except json.JSONDecodeError as exc:
        raise InvalidMedia(f"{at}: not JSON ({exc.msg} at character {exc.pos})") from exc
    except ValueError as exc:  # a number of more digits than Python converts
        raise InvalidMedia(f"{at}: holds a number of more than 4,300 digits") from exc
    # Gemini without `alt=sse` streams one JSON array of responses.
    return list(value) if isinstance(value, list) else [value]
