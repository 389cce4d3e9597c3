"""An SVG's text: gunzipped when it is svgz, decoded, within `TransformPolicy.max_expanded_bytes`.

Both the rasteriser and the text fallback read an SVG through `decode_svg`: UTF-8 and UTF-16
with or without a byte order mark, another encoding its XML declaration names, UTF-8
otherwise. A gzip stream is inflated at most one byte past the cap, so an svgz bomb stops there.
"""

from __future__ import annotations

import codecs
import zlib

from mediaparts._errors import InvalidMedia, MediaTooLarge
from mediaparts.converting._policy import TransformPolicy
from mediaparts.detection import utf16_order

__all__ = ["GZIP", "SVG", "decode_svg", "too_large"]

SVG = "image/svg+xml"
GZIP = b"\x1f\x8b"


def decode_svg(data: bytes, policy: TransformPolicy) -> tuple[str, bool]:
    """Return an SVG's text (gunzipped when it is svgz) and whether it was gzipped.

    UTF-8 and UTF-16 with or without a byte order mark; another encoding its XML declaration
    names; UTF-8 otherwise.

    Raises:
        MediaTooLarge: The text is longer than `policy.max_expanded_bytes`.
        InvalidMedia: Bad gzip, or bytes that are not text in the encoding.
    """
    limit = policy.max_expanded_bytes
    gzipped = data[:2] == GZIP
    if gzipped:
        data = _gunzip(data, limit)
    if len(data) > limit:
        raise too_large(f"{len(data):,} bytes", limit, len(data))
    encoding = _encoding(data)
    try:
        text = data.decode(encoding)
    except (ValueError, LookupError) as exc:  # a codec's own errors are ValueErrors too
        raise InvalidMedia(
            f"this SVG is not text in {encoding}: {exc}; save it as UTF-8", media_type=SVG
        ) from exc
    return text.removeprefix("\ufeff"), gzipped


def _gunzip(data: bytes, limit: int) -> bytes:
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(data, limit + 1)
    except zlib.error as exc:
        raise InvalidMedia(f"this svgz is not valid gzip: {exc}", media_type=SVG) from exc
    if len(out) > limit:
        raise too_large(f"more than {limit:,} bytes", limit)
    if not inflater.eof:
        raise InvalidMedia("this svgz is truncated", media_type=SVG)
    return out


def _encoding(data: bytes) -> str:
    if data[:3] == codecs.BOM_UTF8:
        return "utf-8-sig"
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        return "utf-16"
    order = utf16_order(data)
    if order is not None:
        return order
    return _declared(data[:256].lstrip()) or "utf-8"


def _declared(head: bytes) -> str | None:
    """Return the encoding an XML declaration (`<?xml ... encoding="..."?>`) names."""
    if not head.startswith(b"<?xml"):
        return None
    declaration = head[: max(head.find(b"?>"), 0)]
    _, found, rest = declaration.partition(b"encoding")
    _, equals, value = rest.partition(b"=")
    value = value.strip()
    if not found or not equals or value[:1] not in (b'"', b"'"):
        return None
    name = value[1:].partition(value[:1])[0]
    # XML's EncName: a letter, then letters, digits, '.', '_' or '-' (nothing a codec name
    # lookup could choke on, such as a NUL).
    plain = name.translate(None, b"._-")
    if name[:1].isalpha() and (not plain or plain.isalnum()) and name.isascii() and len(name) <= 40:
        return name.decode("ascii")
    return None


def too_large(what: str, limit: int, size: int | None = None) -> MediaTooLarge:
    """Return the error for an SVG over `max_expanded_bytes`, saying what was over."""
    return MediaTooLarge(
        f"this SVG expands to {what}, over TransformPolicy.max_expanded_bytes={limit:,}; refused",
        size=size,
        limit=limit,
        media_type=SVG,
    )
