"""Text files as a model reads them: decoded by their byte order mark, UTF-16's NULs, UTF-8,
else Windows-1252, with what was done said as normalize's steps."""

from __future__ import annotations

from mediaparts._errors import InvalidMedia
from mediaparts.detection import utf16_order

__all__ = ["decode_text", "read_text"]


def decode_text(data: bytes, media_type: str) -> str:
    """Decode a text file: BOMs first, then UTF-16 without one, then UTF-8, then Windows-1252
    (a superset of Latin-1)."""
    return read_text(data, media_type)[0]


# Byte order marks, longest first (UTF-32's starts with UTF-16's), with the codec and its name.
_BOMS = (
    (b"\xef\xbb\xbf", "utf-8-sig", "UTF-8"),
    (b"\xff\xfe\x00\x00", "utf-32", "UTF-32"),
    (b"\x00\x00\xfe\xff", "utf-32", "UTF-32"),
    (b"\xff\xfe", "utf-16", "UTF-16"),
    (b"\xfe\xff", "utf-16", "UTF-16"),
)


def read_text(data: bytes, media_type: str) -> tuple[str, tuple[str, ...]]:
    """Decode a text file as `decode_text` does, and say how, as normalize's steps.

    Returns:
        The text, and what was done to the bytes: nothing for UTF-8 without a BOM (sent as
        they are); `UTF-8 byte order mark removed`; `decoded from UTF-16` (or UTF-32);
        `decoded from UTF-16 (no byte order mark)` for UTF-16 told by its NULs; or
        `decoded from Windows-1252` for bytes that are not UTF-8.
    """
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(codec)
            except UnicodeDecodeError as exc:
                raise InvalidMedia(f"this {media_type} file is not valid {name}") from exc
            said = f"{name} byte order mark removed" if name == "UTF-8" else f"decoded from {name}"
            return text, (said,)
    # Checked before UTF-8, which mostly-ASCII UTF-16 also is (NULs and all): detection's own
    # rule, so what it typed as text by its NULs is read the same way here.
    order = utf16_order(data)
    if order is not None:
        try:
            return data.decode(order), ("decoded from UTF-16 (no byte order mark)",)
        except UnicodeDecodeError as exc:
            raise InvalidMedia(f"this {media_type} file is not valid UTF-16") from exc
    try:
        return data.decode("utf-8"), ()
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), ("decoded from Windows-1252",)
