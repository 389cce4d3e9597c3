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

from mediaparts.detection._sniff import CONTROL_CHARS, HIGH, NOT_CONTROL
from mediaparts.formats import PREFIX_SIZE

__all__ = ["text_to_the_end"]

_WINDOW = 1 << 20
# CONTROL_CHARS, HIGH and NOT_CONTROL are the sniffer's own byte classes, so the whole is
# judged exactly as the prefix was.
_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),  # before UTF-16 LE, whose mark it starts with
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def text_to_the_end(data: bytes) -> bool:
    """Tell whether all of `data` is text, judged as the sniffer judges its prefix.

    Args:
        data: The whole upload, whose prefix content sniffing found to be text.

    Returns:
        False when some of it is not text in the encoding its start is in.
    """
    for bom, encoding in _WIDE_BOMS:
        if data.startswith(bom):
            return _decodes(data[len(bom) :], encoding)
    if b"\x00" in data[:PREFIX_SIZE]:  # where the sniffer took it for UTF-16
        return _decodes(data, _utf16_order(data))
    # One control byte in a thousand at most, as in the prefix (a stray NUL in a long log).
    if len(data.translate(None, NOT_CONTROL)) > len(data) // 1000:
        return False
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    if _decodes(body, "utf-8", count=False):  # control bytes were just counted
        return True
    # A single-byte code page (Latin-1, Windows-1252) if high bytes are a minority.
    return len(body) - len(body.translate(None, HIGH)) <= len(body) * 0.3


def _utf16_order(data: bytes) -> str:
    """UTF-16 without a mark: the byte order whose high bytes are the zeros (as the sniffer)."""
    sample = data[: min(len(data), 1024) & ~1]
    return "utf-16-le" if sample[1::2].count(0) >= sample[0::2].count(0) else "utf-16-be"


def _decodes(data: bytes, encoding: str, *, count: bool = True) -> bool:
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
