"""The one exception tree of mediaparts.

Every error the library raises on purpose is a `MediaError`; input or settings that are
malformed are also a `ValueError`, so code that already catches `ValueError` keeps working::

    MediaError
    ├── UnsupportedMediaType      the bytes are a type this part, call or provider does not take
    │   └── CodecUnavailable      this machine lacks the decoder (carries `package`, `extra`)
    ├── NoDocumentedRule          the provider documents no rule for this (a model's formula, ...)
    ├── InvalidMedia (ValueError) corrupt or truncated media, bad base64, data URI or shorthand
    │   ├── BlockedPath           untrusted input (a message dict) names a local file
    │   └── StreamError           a streamed reply failed or ended early (carries `partial`)
    ├── InvalidConfig (ValueError) a setting, option or rule override is wrong
    │   ├── UnknownProvider       no provider has that name (carries `name`, `known`)
    │   └── UnknownModel          no row of a model table matches, and unknown models are errors
    ├── MediaTooLarge             more bytes (or pixels) than a cap allows
    ├── ProviderLimitError        cannot be fitted to a provider's limits
    │   └── BudgetExceeded        no trim of the conversation fits the token budget
    ├── ConversionError           a part the target provider cannot carry (render on_loss="error")
    ├── FetchError                a URL could not be fetched (carries `url`, `status_code`)
    │   ├── BlockedURL            the fetch policy refuses the URL before any request
    │   └── OfflineError          fetching is switched off (`mp.offline()`, MEDIAPARTS_OFFLINE=1)
    └── InternalError             a foreign exception at a public entry point: a bug to report

Messages say what was wrong, with which input, and what to do about it.

The policy every module follows:

- Raise the most specific class above, never a bare `MediaError`, `ValueError`, `TypeError` or
  `KeyError` (a test greps `src` for `raise MediaError(`). A mistake in a setting, a config
  object's field or a rule override is `InvalidConfig`; a provider name nobody registered is
  `UnknownProvider`, wherever the name is read.
- Say what was wrong, with which input (redacted: no credentials), and what to do. The input
  is shown through `excerpt`: at most 80 of its characters, however long it is (a 40 KB
  base64 string passed as a path, a crafted name), since messages reach logs, HTTP
  responses and terminals.
- Carry context as attributes (`media_type`, `provider`, `url`, `accepted`, ...).
- When an error is caught and raised again with more context, keep its class and attributes
  (`rewrap` does it) and chain the cause with `raise ... from exc`.
- Library code that calls Pillow, zlib or the OS catches their errors at that call and raises
  one of these; a foreign exception escaping a public call is a bug. The public entry points
  run inside a `Boundary` (`_boundary.py`), which turns one that slipped through into a
  `MediaError` with the cause kept: `MemoryError` into `MediaTooLarge`, a `RecursionError` or
  an encode error into `InvalidMedia`, anything else into `InternalError`. What the caller's
  own code raises (a callback, a generator of requests, a file object) passes unchanged, and
  so do `KeyboardInterrupt`, `SystemExit`, `GeneratorExit` and `asyncio.CancelledError`.
"""

from __future__ import annotations

import reprlib
from typing import Any

__all__ = [
    "BlockedPath",
    "BlockedURL",
    "BudgetExceeded",
    "CodecUnavailable",
    "ConversionError",
    "ConversionWarning",
    "FetchError",
    "InternalError",
    "InvalidConfig",
    "InvalidMedia",
    "MediaError",
    "MediaTooLarge",
    "NoDocumentedRule",
    "OfflineError",
    "ProviderLimitError",
    "StreamError",
    "UnknownModel",
    "UnknownModelWarning",
    "UnknownProvider",
    "UnsupportedMediaType",
    "cut_middle",
    "empty_media",
    "excerpt",
]

SHOWN_CHARS = 80
"""The most characters of a caller's input an error message repeats (see `excerpt`)."""


class MediaError(Exception):
    """Base class of every error mediaparts raises on purpose.

    Attributes:
        media_type: The media type involved, when known.
        provider: The provider involved, when the error is about one.
    """

    def __init__(
        self, message: str, *, media_type: str | None = None, provider: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.media_type = media_type
        self.provider = provider

    def __str__(self) -> str:
        return self.message


class UnsupportedMediaType(MediaError):
    """The media is of a type that this part class, function or provider does not accept.

    Attributes:
        accepted: The types that would have been accepted, when there is a short list.
    """

    def __init__(
        self,
        message: str,
        *,
        media_type: str | None = None,
        provider: str | None = None,
        accepted: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message, media_type=media_type, provider=provider)
        self.accepted = accepted


class CodecUnavailable(UnsupportedMediaType):
    """The type is one mediaparts reads, but this machine lacks the optional decoder for it.

    A fault of the installation, not of the file: a web app answers it with a 5xx and a message
    for its operator (install the extra), never by blaming the upload. Still an
    `UnsupportedMediaType`, so existing `except` clauses keep catching it.

    Attributes:
        package: The package to install (`"pillow-heif"`).
        extra: The mediaparts extra that installs it (`"heif"`), or None when there is none.
    """

    def __init__(
        self,
        message: str,
        *,
        media_type: str | None = None,
        provider: str | None = None,
        package: str = "",
        extra: str | None = None,
    ) -> None:
        super().__init__(message, media_type=media_type, provider=provider)
        self.package = package
        self.extra = extra


class NoDocumentedRule(MediaError):
    """The provider documents no rule for this: no token formula for a model or kind, no limit.

    Callers that can fall back (an approximate count, a default) catch this class; the
    estimates of whole conversations do so and label the part.

    Attributes:
        model: The model asked about, when there was one.
    """

    def __init__(
        self,
        message: str,
        *,
        media_type: str | None = None,
        provider: str | None = None,
        model: str | None = None,
    ) -> None:
        super().__init__(message, media_type=media_type, provider=provider)
        self.model = model


class InvalidMedia(MediaError, ValueError):
    """The input is malformed: corrupt or truncated media, bad base64 or data URI, bad shorthand.

    Attributes:
        path: The local path as given, whole, when the error is about one (its message shows
            at most 80 characters of it).
    """

    def __init__(
        self,
        message: str,
        *,
        media_type: str | None = None,
        provider: str | None = None,
        path: str | None = None,
    ) -> None:
        super().__init__(message, media_type=media_type, provider=provider)
        self.path = path


class BlockedPath(InvalidMedia):
    """Untrusted input (a message dict, a provider payload) names a local file it may not read.

    Dicts are read with no access to local files unless the caller names a `base_dir`; then
    only files whose real path lies inside it are read.

    Attributes:
        path: The path as the input gave it.
    """

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message, path=path)


class StreamError(InvalidMedia):
    """A streamed reply failed (the API sent an error event) or ended before its final event.

    Attributes:
        partial: The `Assistant` message read so far (None when nothing was read).
        error: The API's error, as its event said it (`{"type": "overloaded_error", ...}`),
            or None when the stream was cut short.
    """

    def __init__(self, message: str, *, partial: Any = None, error: Any = None) -> None:
        super().__init__(message)
        self.partial = partial
        self.error = error


class InvalidConfig(MediaError, ValueError):
    """A setting is wrong: a config object's field, an option's value, a rule override's key."""


class UnknownProvider(InvalidConfig):
    """No provider is registered under this name.

    Attributes:
        name: The name asked for.
        known: The names that are registered.
    """

    def __init__(self, name: object, known: tuple[str, ...] = ()) -> None:
        shown = excerpt(name) if isinstance(name, str) else f"a {type(name).__name__}"
        super().__init__(
            f"unknown provider {shown}; the providers are {', '.join(known)}"
            " (mp.providers.names(); mp.providers.register adds one)"
        )
        self.name = name
        self.known = known


class UnknownModel(InvalidConfig):
    """No row of the provider's model table matches the model, and unknown models are errors
    (`mp.configure(unknown_models="error")` or `MEDIAPARTS_UNKNOWN_MODELS=error`).

    Attributes:
        provider: The provider whose table was read.
        model: The model asked for.
        known: The table's model patterns.
    """

    def __init__(
        self, message: str, *, provider: str, model: str, known: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message)
        self.provider = provider
        self.model = model
        self.known = known


class UnknownModelWarning(UserWarning):
    """A model matched no row of the provider's model table: its default rules were used.

    The message names the model, the provider and the row whose rules were used. Make it an
    error with `mp.configure(unknown_models="error")` (or `MEDIAPARTS_UNKNOWN_MODELS=error`),
    which raises `UnknownModel` instead.
    """


class MediaTooLarge(MediaError):
    """The input has more bytes (or pixels) than a configured cap allows.

    Attributes:
        size: How large the input is (or at least is), in the unit of `limit`.
        limit: The cap that was exceeded.
        path: The local file's path as given, whole, when the input was one.
    """

    def __init__(
        self,
        message: str,
        *,
        size: int | None = None,
        limit: int | None = None,
        media_type: str | None = None,
        path: str | None = None,
    ) -> None:
        super().__init__(message, media_type=media_type)
        self.size = size
        self.limit = limit
        self.path = path


class ProviderLimitError(MediaError):
    """The media cannot be made to fit a provider's limits (bytes, pixels, count)."""


class BudgetExceeded(ProviderLimitError):
    """Even the smallest conversation `trim` may return is over the token budget.

    Attributes:
        max_tokens: The budget asked for.
        tokens: The fewest tokens a trimmed conversation can have: the system messages and
            the newest turn (its images shrunk, when shrinking was asked for).
        model: The model counted for, when one was named.
    """

    def __init__(
        self,
        message: str,
        *,
        max_tokens: int | None = None,
        tokens: int | None = None,
        provider: str | None = None,
        model: str | None = None,
    ) -> None:
        super().__init__(message, provider=provider)
        self.max_tokens = max_tokens
        self.tokens = tokens
        self.model = model


class ConversionError(MediaError):
    """A conversation holds something the target provider cannot carry, and `on_loss="error"`.

    Attributes:
        part: The part (or message) that would be lost.
        reason: Why the provider cannot carry it.
    """

    def __init__(
        self, message: str, *, provider: str | None = None, part: Any = None, reason: str = ""
    ) -> None:
        super().__init__(message, provider=provider)
        self.part = part
        self.reason = reason


class ConversionWarning(UserWarning):
    """Rendering for a provider left out a part it cannot carry (`render(on_loss="warn")`).

    The message names the part, its message and why; `on_loss="drop"` silences these,
    `on_loss="error"` raises `ConversionError` instead.
    """


class FetchError(MediaError):
    """A URL could not be fetched.

    Attributes:
        url: The URL, with any credentials removed.
        status_code: The HTTP status of the failed response, if there was one.
    """

    def __init__(
        self,
        message: str,
        *,
        url: str | None = None,
        status_code: int | None = None,
        media_type: str | None = None,
    ) -> None:
        super().__init__(message, media_type=media_type)
        self.url = url
        self.status_code = status_code


class BlockedURL(FetchError):
    """The fetch policy refuses this URL (scheme, address or redirect), before any request."""


class OfflineError(FetchError):
    """Fetching is switched off, by `mp.offline()`, `MEDIAPARTS_OFFLINE=1` or a test fixture."""


class InternalError(MediaError):
    """A foreign exception reached a public entry point: a bug in mediaparts or in a library
    it calls, not a fault of the input. The original is the `__cause__`; please report it,
    with the traceback.

    Attributes:
        doing: What the call was doing (`"normalizing"`, `"counting tokens"`).
    """

    def __init__(self, message: str, *, doing: str = "") -> None:
        super().__init__(message)
        self.doing = doing


def excerpt(value: object, limit: int = SHOWN_CHARS, *, ends: bool = False) -> str:
    """Return `value`'s repr for a message, showing at most `limit` characters of it.

    Text is quoted as `repr` quotes it and cut at `limit`, saying how many characters were
    left out; with `ends=True` (paths and URLs, whose end names the file) it is cut in the
    middle instead, keeping its start and its end (`cut_middle`). Any other value is its
    repr, cut at the end. Every message that names what the caller passed (a path, a URL, a
    name, a key, a media type) shows it through here.
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        if ends:
            return f"{cut_middle(value, limit)!r}"
        return f"{value[:limit]!r}…(+{len(value) - limit:,} chars)"
    if isinstance(value, bytes | bytearray | memoryview):
        # The repr of a prefix only: 50 MB of bytes would make a 200 MB repr to cut.
        data = bytes(value[:limit])
        more = len(value) - len(data)
        return f"{data!r}"[:limit] + (f"…(+{more:,} bytes)" if more > 0 else "")
    bounded = reprlib.Repr()  # keyword arguments only from Python 3.12
    bounded.maxstring = bounded.maxother = limit
    try:
        shown = bounded.repr(value)
    except Exception:  # a caller's object whose repr fails is named by its type
        return f"<{type(value).__name__}>"
    return shown if len(shown) <= limit else f"{shown[:limit]}…"


def cut_middle(text: str, limit: int = SHOWN_CHARS) -> str:
    """Return `text` cut in the middle to `limit` characters, keeping its start and its end.

    For a path or URL, whose end names the file: `'/home/alice/pro…/IMG_0042.HEIC'`.
    """
    if len(text) <= limit:
        return text
    head = limit // 2 - 1
    return f"{text[:head]}…{text[-(limit - head - 1) :]}"


def empty_media(what: str, advice: str = "give a source that holds the media") -> InvalidMedia:
    """Return the error for a source with no bytes: a 0-byte file, upload, URL body or text.

    Raised where the bytes are first seen, so an empty `.png` is said to be empty rather than
    a PNG with a corrupt header (which is what decoding it would report). Every such message
    reads `<what> is empty (0 bytes); <advice>`.
    """
    return InvalidMedia(f"{what} is empty (0 bytes); {advice}")


def rewrap(error: MediaError, message: str) -> MediaError:
    """Return a copy of `error` with a new message, keeping its class and every attribute.

    For code that catches an error to add context (which part, which provider) and raises it
    again: `raise rewrap(exc, f"part 3: {exc}") from exc`.
    """
    clone = error.__class__.__new__(error.__class__)
    clone.__dict__.update(error.__dict__)
    clone.message = message
    clone.args = (message,)
    return clone


# Tracebacks and pytest's reports name the public path (`mediaparts.OfflineError`, where users
# catch it), not this private module; pickling resolves the same path. httpx does the same.
for _name in __all__:
    if isinstance(globals()[_name], type) and issubclass(globals()[_name], BaseException | Warning):
        globals()[_name].__module__ = "mediaparts"  # not an import
del _name
