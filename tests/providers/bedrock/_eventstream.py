"""A real botocore `bedrock-runtime` client whose HTTP layer answers with AWS event-stream
frames (`application/vnd.amazon.eventstream`), for reading `converse_stream` end to end.

Each frame is a prelude (total length, headers length, the prelude's CRC32), string headers
(`:event-type`, `:message-type`, `:content-type`, or `:exception-type` for an error), the
event's JSON payload (blobs as base64, as the service writes them) and the message's CRC32.
botocore decodes them into the event dicts boto3 yields. Nothing leaves the machine: a
`before-send` handler answers every request, and the credentials are dummies.
"""

from __future__ import annotations

import base64
import json
import struct
import zlib
from collections.abc import Iterator
from typing import Any

from tests.providers._streams import chunks

# The HTTP answer's content type for an event stream.
EVENTSTREAM = "application/vnd.amazon.eventstream"


def frame(headers: dict[str, str], payload: bytes) -> bytes:
    """Return one event-stream message with string headers and a payload."""
    encoded = b"".join(
        bytes([len(name)])
        + name.encode()
        + b"\x07"
        + struct.pack(">H", len(value.encode()))
        # 7 is the header value type of a string
        + value.encode()
        for name, value in headers.items()
    )
    prelude = struct.pack(">II", 16 + len(encoded) + len(payload), len(encoded))
    prelude += struct.pack(">I", zlib.crc32(prelude))
    message = prelude + encoded + payload
    return message + struct.pack(">I", zlib.crc32(message))


def _jsonable(value: Any) -> Any:
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value


def event_frame(event: dict[str, Any]) -> bytes:
    """Return the frame of one `converse_stream` event dict (`{type: payload}`)."""
    ((kind, value),) = event.items()
    headers = {":event-type": kind, ":message-type": "event", ":content-type": "application/json"}
    return frame(headers, json.dumps(_jsonable(value)).encode())


def exception_frame(kind: str, message: str) -> bytes:
    """Return the frame of an error the service sends mid-stream (`throttlingException`...)."""
    headers = {
        ":exception-type": kind,
        ":message-type": "exception",
        ":content-type": "application/json",
    }
    return frame(headers, json.dumps({"message": message}).encode())


class _Body:
    """The raw HTTP body botocore's `EventStream` reads, in chunks of the given sizes."""

    def __init__(self, body: bytes, sizes: Iterator[int]) -> None:
        self._pieces = chunks(body, sizes)

    def stream(self, *args: Any, **kwargs: Any) -> Iterator[bytes]:
        yield from self._pieces

    def read(self, *args: Any, **kwargs: Any) -> bytes:
        return b"".join(self._pieces)

    def close(self) -> None:
        pass


def client(body: bytes, sizes: Iterator[int] | None = None) -> Any:
    """Return a botocore `bedrock-runtime` client whose every answer is `body`."""
    import botocore.session
    from botocore.awsrequest import AWSResponse

    session = botocore.session.Session()
    made = session.create_client(
        "bedrock-runtime",
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )

    def answer(request: Any, **kwargs: Any) -> AWSResponse:
        raw = _Body(body, sizes or iter(lambda: 4096, None))
        return AWSResponse(request.url, 200, {"content-type": EVENTSTREAM}, raw)

    made.meta.events.register("before-send.bedrock-runtime.ConverseStream", answer)
    return made
