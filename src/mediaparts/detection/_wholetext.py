"""Is text that detection found in a prefix still text at the end? For uploads, read whole.

`detect` sniffs text from the first 64 KiB (`PREFIX_SIZE`), which is right for telling formats
apart but lets a client put 64 KiB of words in front of megabytes of anything and have it all
called `text/plain`. `from_upload` holds the whole upload anyway, so it asks this module
whether the rest is text by the same rules the sniffer applies to the prefix
(`detection._sniff.decode_text`): the encoding a byte order mark or the NUL pattern shows, or
else at most one control byte in a thousand and UTF-8, or a single-byte code page where high
bytes are a minority. Linear, in C-speed passes, and decoded 1 MiB at a time, so memory stays
flat whatever the size.
"""

from __future__ import annotations

import codecs

from mediaparts.detection._sniff import BOMS, CONTROL_CHARS, HIGH, NOT_CONTROL, utf16_order
from mediaparts.formats import PREFIX_SIZE

__all__ = ["text_to_the_end"]

_WINDOW = 1 << 20
# BOMS, CONTROL_CHARS, HIGH, NOT_CONTROL and utf16_order are the sniffer's own, so the whole
# is judged exactly as the prefix was.


def text_to_the_end(data: bytes) -> bool:
    """Tell whether all of `data` is text, judged as the sniffer judges its prefix.

    Args:
        data: The whole upload, whose prefix content sniffing found to be text.

    Returns:
        False when some of it is not text in the encoding its start is in.
    """
    view = memoryview(data)  # slices of a view copy nothing
    body = view
    for bom, encoding in BOMS:
        if data.startswith(bom):
            if encoding != "utf-8":
                return _decodes(view[len(bom) :], encoding)
            body = view[len(bom) :]
            break
    else:
        if b"\x00" in data[:PREFIX_SIZE]:  # where the sniffer took it for UTF-16
            order = utf16_order(data)
            return order is not None and _decodes(view, order)
    # One control byte in a thousand at most, as in the prefix (a stray NUL in a long log).
    if _count_without(view, NOT_CONTROL) > len(data) // 1000:
        return False
    if _decodes(body, "utf-8", count=False):  # control bytes were just counted
        return True
    # A single-byte code page (Latin-1, Windows-1252) if high bytes are a minority.
    return len(body) - _count_without(body, HIGH) <= len(body) * 0.3


def _count_without(data: memoryview, delete: bytes) -> int:
    """Count the bytes of `data` not in `delete`, a window at a time (no whole-size copy)."""
    return sum(
        len(data[start : start + _WINDOW].tobytes().translate(None, delete))
        for start in range(0, len(data), _WINDOW)
    )


def _decodes(data: memoryview, encoding: str, *, count: bool = True) -> bool:
    """Decode in windows; refuse on an error or on more than one control character in 1000."""
    decoder = codecs.getincrementaldecoder(encoding)()
    chars = controls = 0
    try:
        for start in range(0, len(data), _WINDOW):
            text = decoder.decode(data[start : start + _WINDOW])
            chars += len(text)
            controls += len(CONTROL_CHARS.findall(text)) if count else 0
            if controls > len(data) // 1000:  # more than the end could allow: stop reading
                return False
    except UnicodeDecodeError:
        return False
    # A character cut at the very end is tolerated, as the sniffer tolerates it in a prefix.
    return controls <= chars // 1000
