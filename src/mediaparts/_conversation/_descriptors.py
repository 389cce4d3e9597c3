"""One-line descriptors of media: `<image/png 640x480 12.3 KB sha256:1a2b3c photo.png>`.

What `mp.show`, `mediaparts.testing.describe`/`summarize` and the CLI print for media: the
type, the pixel size from headers, the size, a digest, and the name or URL, never the bytes.
Also the value formatting they share: a value cut to a length (`cut`), control characters
escaped so the text is safe to print (`clean`, `one_line`), a header value as one item of a
line (`value`).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from mediaparts._conversation._parts import ImagePart, MediaPart
from mediaparts.detection import detect
from mediaparts.fetching import redact
from mediaparts.imaging import image_size

__all__ = [
    "URL_CHARS",
    "clean",
    "cut",
    "describe",
    "describe_part",
    "descriptor",
    "human_size",
    "one_line",
    "shown_value",
]

URL_CHARS = 200
# What a terminal would act on rather than show: C0 and C1 controls (tab and newline kept),
# bidirectional overrides and isolates (a file name `invoice\u202efdp.exe` reads as
# `invoiceexe.pdf`), zero-width characters and the Unicode line and paragraph separators.
_CONTROL = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]"
)
_BARE = re.compile(r"[\w.:/@+#=-]+")


def describe(data: bytes) -> str:
    """Return a one-line descriptor of media bytes, as `summarize` writes it.

    Args:
        data: The bytes.

    Returns:
        `<image/png 640x480 12.3 KB sha256:1a2b3c>`: the type detected from the bytes, the
        pixel size for images (as stored, before any EXIF orientation), the size, and the
        first six hex digits of the SHA-256.
    """
    media_type = detect(data).media_type
    size = image_size(data, media_type) if media_type.startswith("image/") else None
    return descriptor(media_type, data, size)


def describe_part(part: MediaPart) -> str:
    """Return a one-line descriptor of a media part without fetching it or decoding pixels.

    Inline bytes: `<image/png 640x480 12.3 KB sha256:1a2b3c photo.png>` (as `describe`); a
    URL part not loaded yet: its type as declared or guessed and its URL (password hidden);
    a provider file reference: `<application/pdf file_id=file-abc provider=openai>`.
    """
    media_type = part.effective_media_type or part.kind
    extra = [f"detail={part.detail}"] if isinstance(part, ImagePart) and part.detail else []
    if part.file_id is not None:
        words = [
            f"file_id={shown_value(part.file_id)}",
            f"provider={shown_value(part.file_provider)}",
        ]
        name = [shown_value(part.filename)] if part.filename else []
        return f"<{media_type} {' '.join(words + name + extra)}>"
    url = [cut(one_line(redact(part.url)), URL_CHARS)] if part.url is not None else []
    if not part.is_loaded:
        return f"<{media_type} {' '.join(url + extra)}>"
    pixels = None
    if isinstance(part, ImagePart) and part.width is not None and part.height is not None:
        pixels = (part.width, part.height)  # a header read, cached on the part
    name = [shown_value(part.filename)] if part.filename and not url else []
    return descriptor(media_type, part.data, pixels, *name, *url, *extra)


def descriptor(media_type: str, data: bytes, pixels: tuple[int, int] | None, *extra: str) -> str:
    """Return `describe`'s descriptor of bytes whose type and pixel size are known, with
    `extra` words before the closing bracket (`<image/png 64x48 1.2 KB sha256:1a2b3c a.png>`)."""
    dims = f" {pixels[0]}x{pixels[1]}" if pixels else ""
    digest = hashlib.sha256(data).hexdigest()[:6]
    words = "".join(f" {word}" for word in extra)
    return f"<{media_type}{dims} {human_size(len(data))} sha256:{digest}{words}>"


def human_size(size: int) -> str:
    """Return a byte count as `describe` writes it: `812 B`, `12.3 KB`, `4.0 MB`."""
    # Decimal units, one decimal place: readable, and stable in golden files.
    if size < 1000:
        return f"{size} B"
    value = size / 1000
    for unit in ("KB", "MB"):
        if value < 999.95:  # what would round to "1000.0" is shown in the next unit
            return f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} GB"


def shown_value(value: Any) -> str:
    # A header value (an id, a name, a model, an error) is one item of a line: cut, however
    # long the value a file gave.
    text = cut(value.isoformat() if hasattr(value, "isoformat") else str(value), URL_CHARS)
    return text if _BARE.fullmatch(text) else clean(json.dumps(text, ensure_ascii=False))


def cut(text: str, limit: int | None) -> str:
    if limit is None or len(text) <= limit:
        return text
    return f"{text[:limit]}… (+{len(text) - limit:,} chars)"


def clean(text: str) -> str:
    return _CONTROL.sub(_escaped, text)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def one_line(text: str) -> str:
    """`clean`, newlines escaped too: for a value that is one item of a line (a URL, a title)."""
    return clean(text).replace("\n", "\\x0a")
