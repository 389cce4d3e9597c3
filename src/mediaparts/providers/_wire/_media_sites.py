"""Media sites: what `check` needs to know about one media block of a rendered payload.

Each provider module declares the block shapes of its API as a function, `media_site(node, at,
problems)`, that reads one JSON object and returns the `Site` it holds (or None when the object
is not a media block of that API). `check` walks the payload and asks every registered
provider's function, so a block shape is written once, beside the renderer that writes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mediaparts._errors import InvalidMedia, excerpt
from mediaparts._inline import b64decode, is_data_uri, parse_data_uri
from mediaparts.detection import media_type_from_filename
from mediaparts.formats import Kind

__all__ = ["Problems", "Site", "Where", "payload_bytes", "url_text_site"]

# Problems found while reading a payload: (JSON path, rule, message).
Problems = list[tuple[str, str, str]]

_KEY_SHOWN = 40  # characters of a key shown in a path; a hostile key may be megabytes


@dataclass(frozen=True, slots=True)
class Where:
    """A JSON path, built as a chain and spelled out only when a site or a problem needs it.

    Spelling every path out while walking costs the depth at every node (quadratic in the
    nesting); most nodes are never named.
    """

    parent: Where | None
    step: str

    def __str__(self) -> str:
        steps: list[str] = []
        node: Where | None = self
        while node is not None:
            steps.append(node.step)
            node = node.parent
        return "".join(reversed(steps))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def key(self, key: Any) -> Where:
        """Return the path one key further (a long key is shortened)."""
        text = str(key)
        return Where(self, f".{text[:_KEY_SHOWN]}…" if len(text) > _KEY_SHOWN else f".{text}")


@dataclass(frozen=True, slots=True)
class Site:
    """One media block found in a payload.

    Attributes:
        path: JSON path of the value checked (the bytes, the URL, or the block).
        kind: `"image"`, `"audio"`, `"video"` or `"file"`.
        declared: The media type the block declares, if any.
        data: The decoded bytes, when the block carries them inline.
        url: The URL, when the block points to one.
        name: The block's own name (Bedrock documents), when the API has one.
        name_problem: Why `name` breaks the API's naming rule, if it does.
        detail: The image detail level the block asks for, if any.
    """

    path: str
    kind: Kind
    declared: str | None
    data: bytes | None = None
    url: str | None = None
    name: str | None = None
    name_problem: str | None = None
    detail: str | None = None


def payload_bytes(value: Any, path: str, problems: Problems) -> bytes | None:
    """Return a block's bytes (raw, or base64 text decoded), or None with a problem noted."""
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if isinstance(value, str):
        try:
            return b64decode(value)
        except InvalidMedia as exc:
            problems.append((path, "payload.base64", str(exc)))
            return None
    problems.append((path, "payload.data", f"expected base64 text or bytes, got {excerpt(value)}"))
    return None


def url_text_site(
    kind: Kind, text: Any, path: str, problems: Problems, *, detail: Any = None
) -> Site:
    """Return the site of a field that holds a data URI or a URL."""
    shown = detail if isinstance(detail, str) else None
    if is_data_uri(text):
        try:
            uri = parse_data_uri(text)
        except InvalidMedia as exc:
            problems.append((path, f"{kind}.data_uri", str(exc)))
            return Site(path, kind, None, detail=shown)
        return Site(path, kind, uri.media_type, data=uri.data, detail=shown)
    url = text if isinstance(text, str) else None
    guess = media_type_from_filename(url) if url else None
    return Site(path, kind, guess, url=url, detail=shown)
