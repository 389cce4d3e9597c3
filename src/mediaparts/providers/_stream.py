"""Streamed replies: `StreamReader`, `message_from_stream` and `amessage_from_stream`.

One reader per streamed response, for any provider whose wire reads streams. It takes what
the application holds — the SDK's stream event objects, their dicts, the JSON text of each
server-sent event's `data:`, or the raw bytes of the whole `text/event-stream` body in chunks of
any size — and hands each event to its wire's `StreamState` (`_wire/_streaming.py`), which
returns the deltas and holds the message so far.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, NoReturn

from mediaparts._boundary import Boundary
from mediaparts._conversation._messages import Assistant
from mediaparts._errors import InvalidConfig, InvalidMedia, StreamError, excerpt
from mediaparts._paths import UntrustedPaths
from mediaparts.providers._read import settled
from mediaparts.providers._record import Provider
from mediaparts.providers._registry import get
from mediaparts.providers._wire._deltas import Delta
from mediaparts.providers._wire._events import SSEDecoder, json_events
from mediaparts.providers._wire._streaming import StreamState

__all__ = ["StreamReader", "amessage_from_stream", "message_from_stream"]

# Only MediaError leaves the readers (see Boundary).
_READING_A_STREAM = Boundary("reading a provider stream")

_BYTES = (bytes, bytearray, memoryview)


class StreamReader:
    """Read one streamed response of a provider: deltas as events come, the message at the end.

    ```python
    reader = mp.StreamReader("anthropic")
    for event in stream:
        for delta in reader.feed(event):
            ...                       # mp.Delta, in order
    reply = reader.message            # mp.Assistant so far; stop_reason None until the end
    ```

    Each event is one of: the SDK's stream event object or its dict; the JSON text of one
    server-sent event's `data:` (Chat Completions' closing `[DONE]` included); or raw bytes
    of the `text/event-stream` body, in chunks cut anywhere (call `close()` after the last, so
    an event the body did not end with a blank line is read too). Bedrock's `converse_stream`
    is read as the event dicts boto3 yields. The reader is not thread-safe: one per stream.

    Args:
        provider: A provider name or `Provider` whose wire reads streams.
        model: The model the request named: the reply's `model` when the stream does not
            say it (Bedrock's never does).

    Raises:
        InvalidConfig: The provider's wire does not read streams.
        UnknownProvider: No provider has that name.
    """

    __slots__ = ("_cached", "_guard", "_model", "_provider", "_sse", "_state")

    def __init__(self, provider: str | Provider, model: str | None = None) -> None:
        try:
            self._provider = get(provider)
            self._state = _state_of(self._provider)
        except Exception as exc:  # only MediaError leaves (see Boundary)
            _READING_A_STREAM.reraise(exc)
        if model is not None and not isinstance(model, str):
            raise InvalidConfig(f"model must be a string or None, got {excerpt(model)}")
        self._model = model
        self._sse: SSEDecoder | None = None
        self._cached: Assistant | None = None
        # Readers name no path; a second guard, entered once per event, so a cheap one.
        self._guard = UntrustedPaths("mp.StreamReader")

    @property
    def provider(self) -> Provider:
        """The provider whose stream this reads."""
        return self._provider

    @property
    def finished(self) -> bool:
        """Whether the API's final event has arrived."""
        return self._state.finished

    @property
    def message(self) -> Assistant:
        """The reply so far (its `stop_reason` is None until the API says why it stopped).

        Built from what has arrived when asked (a cost in proportion to the message), and
        kept until the next event.
        """
        if self._cached is None:
            try:
                with self._guard:
                    self._cached = self._reply()
            except Exception as exc:  # only MediaError leaves (see Boundary)
                _READING_A_STREAM.reraise(exc)
        return self._cached

    def feed(self, event: Any) -> list[Delta]:
        """Read one event; return the deltas it added, in order.

        Raises:
            InvalidMedia: The event is malformed (the message names the field).
            StreamError: The API sent an error mid-stream (its `.partial` is the reply so
                far, its `.error` the API's error).
        """
        try:
            with self._guard:
                return self._feed(event)
        except Exception as exc:  # only MediaError leaves (see Boundary)
            self._reraise(exc)

    def close(self) -> list[Delta]:
        """Read what raw bytes left unfinished (an event the body did not end with a blank
        line); return its deltas. Feeding events after `close` is allowed (it is idempotent)."""
        if self._sse is None:
            return []
        try:
            with self._guard:
                return self._events(self._sse.close())
        except Exception as exc:  # only MediaError leaves (see Boundary)
            self._reraise(exc)

    def result(self) -> Assistant:
        """Return the whole reply, once the stream has ended.

        Raises:
            StreamError: The stream ended before the API's final event (`.partial` holds
                the reply so far).
        """
        self.close()
        if not self._state.finished:
            raise StreamError(
                f"the {self._provider.name} stream ended before its final event: the reply is "
                "incomplete (the connection dropped, or not every event was fed); "
                "error.partial holds what arrived",
                partial=self._partial(),
            )
        return self.message

    def relay(self, stream: Iterable[Any]) -> Iterator[Any]:
        """Yield each event of `stream` unchanged, reading it on the way.

        For an application that forwards the SDK's events (to a browser, say) and wants the
        message at the end: `for event in reader.relay(stream): forward(event)`, then
        `reader.result()`.
        """
        for event in stream:
            self.feed(event)
            yield event

    async def arelay(self, stream: AsyncIterable[Any]) -> AsyncIterator[Any]:
        """Yield each event of an async `stream` unchanged, reading it on the way."""
        async for event in stream:
            self.feed(event)
            yield event

    def _reraise(self, error: Exception) -> NoReturn:
        """Raise what may leave a public method (see Boundary), a StreamError with the reply
        so far."""
        if isinstance(error, StreamError) and error.partial is None:
            error.partial = self._partial()
        _READING_A_STREAM.reraise(error)

    def _feed(self, event: Any) -> list[Delta]:
        self._cached = None
        if isinstance(event, _BYTES):
            if self._sse is None:
                self._sse = SSEDecoder()
            return self._events(self._sse.feed(bytes(event)))
        if isinstance(event, str):
            return self._events([event])
        return self._state.feed(event)

    def _events(self, texts: list[str]) -> list[Delta]:
        self._cached = None
        deltas: list[Delta] = []
        for text in texts:
            for event in json_events(text, f"{self._provider.name} stream event"):
                deltas.extend(self._state.feed(event))
        return deltas

    def _reply(self) -> Assistant:
        reply = settled(self._state.message())
        if reply.model is None and self._model is not None:
            reply = reply.model_copy(update={"model": self._model})
        return reply

    def _partial(self) -> Assistant | None:
        """The reply so far, or None when even that cannot be read."""
        try:
            return self.message
        except Exception:  # a partial reply is a courtesy to an error already being raised
            return None


def _state_of(provider: Provider) -> StreamState:
    stream = getattr(provider.shape, "stream", None)
    if stream is None:
        raise InvalidConfig(
            f"provider {excerpt(provider.name)} cannot read streams "
            f"(its wire {provider.wire} has no stream())"
        )
    state: StreamState = stream(provider)
    return state


def message_from_stream(
    events: Iterable[Any], provider: str | Provider, *, model: str | None = None
) -> Assistant:
    """Read a whole streamed response into an `Assistant` message.

    For a stream and the non-streamed response of the same content,
    `message_from_stream(events, X) == message_from_response(response, X)`.

    Args:
        events: The stream: the SDK's stream (its event objects), their dicts, the JSON text
            of each server-sent event, or the raw bytes of the body in chunks (or whole, as
            one `bytes`).
        provider: A provider name or `Provider` whose wire reads streams.
        model: The model the request named, for a stream that does not say it.

    Raises:
        StreamError: The API sent an error mid-stream, or the stream ended before its final
            event (`.partial` holds the reply so far).
        InvalidMedia: An event is malformed (the message names the field).
        InvalidConfig: The provider's wire does not read streams.
        UnknownProvider: No provider has that name.
    """
    reader = StreamReader(provider, model)
    for event in _iterable(events):
        reader.feed(event)
    return reader.result()


def _iterable(events: Any) -> Iterable[Any]:
    """Return the events to iterate: a whole body (bytes) or one JSON text is one event.

    What the caller's iterator raises while iterating (its SDK's errors) passes unchanged.

    Raises:
        InvalidMedia: `events` is not iterable.
    """
    if isinstance(events, str | bytes | bytearray | memoryview):
        return [events]
    if not isinstance(events, Iterable):
        raise InvalidMedia(
            f"events must be a stream or an iterable of events (or a whole body as bytes), "
            f"got {type(events).__name__}"
        )
    return events


async def amessage_from_stream(
    events: AsyncIterable[Any] | Iterable[Any],
    provider: str | Provider,
    *,
    model: str | None = None,
) -> Assistant:
    """`message_from_stream` for an async stream (`AsyncStream`, an async generator of
    events or byte chunks, such as httpx's `response.aiter_bytes()`); a plain iterable is
    taken too."""
    reader = StreamReader(provider, model)
    if isinstance(events, AsyncIterable):
        async for event in events:
            reader.feed(event)
    else:
        for event in _iterable(events):
            reader.feed(event)
    return reader.result()
