"""RTF to plain text with striprtf, after a linear pass that makes its work linear too.

striprtf (the `[office]` extra) reads RTF with regular expressions. Two of them (hyperlink
fields, the font table) scan to the end of the line from each place they might start, so one
long line of fields or fonts costs time quadratic in its length (a 380 KB line: 24 s); its
`\\bin` handling reads the length with `int()`, and a `\\u` code point out of range raises.
`clean_rtf` rewrites the RTF first, keeping its meaning: bare line breaks are ignored by RTF
readers (RTF 1.9.1 spec, "Conventions of an RTF reader"), so lines are broken before each
group and every `_LINE` characters; `\\bin` data and the contents of picture and object groups
(which striprtf drops anyway) are removed; `\\u` values outside 16 bits become U+FFFD.
"""

from __future__ import annotations

import re

from mediaparts._errors import InvalidMedia
from mediaparts.converting._extras import Deadline, require
from mediaparts.converting._result import Converted

__all__ = ["clean_rtf", "rtf_to_text"]

# Tokens of RTF: control words (letters, an optional number, one optional space), hex
# escapes, other control symbols, braces, and runs of text.
_TOKEN = re.compile(
    r"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?|\\'[0-9a-fA-F]{0,2}|\\.?|[{}]|[^\\{}]+", re.DOTALL
)
_LINE = 256
# Destinations whose content is binary or hex data, never text (RTF 1.9.1: \pict, \objdata,
# \themedata, \colorschememapping, \datastore, \fontemb, \fontfile).
_BULKY = frozenset(
    {"pict", "objdata", "themedata", "colorschememapping", "datastore", "fontemb", "fontfile"}
)
# Control words after which a group's brace must stay on the same line: striprtf recognises
# a hyperlink field only as `{\field{\*\fldinst{`.
_GLUED = frozenset({"field", "fldinst"})
_UNITS = 1 << 14  # tokens between deadline checks


def rtf_to_text(data: bytes, media_type: str, deadline: Deadline) -> Converted:
    """Return an RTF document's text.

    Raises:
        CodecUnavailable: striprtf is not installed (the `[office]` extra).
        InvalidMedia: striprtf cannot read it.
        MediaTooLarge: The deadline passed.
    """
    striprtf = require(
        "striprtf.striprtf",
        package="striprtf",
        extra="office",
        media_type=media_type,
        doing=f"turn {media_type} into text",
    )
    # RTF is 7-bit text whose other characters are escaped; a stray 8-bit byte is read as
    # Windows-1252, RTF's default code page (\ansi), one character per byte.
    source = clean_rtf(data.decode("cp1252", errors="replace"), deadline)
    deadline.check()
    try:
        text: str = striprtf.rtf_to_text(source, errors="replace")
    except (ValueError, OverflowError, LookupError, IndexError) as exc:
        raise InvalidMedia(
            f"this {media_type} could not be read as RTF ({str(exc)[:120]})",
            media_type=media_type,
        ) from exc
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    return Converted("text/plain", text="\n".join(lines).strip() + "\n", steps=("rtf→text",))


def clean_rtf(text: str, deadline: Deadline) -> str:
    """Return `text` with the same meaning, lines short, and binary data left out."""
    out: list[str] = []
    line = 0  # characters since the last line break written
    depth = 0
    skipping = 0  # the depth of the binary group being left out, or 0
    fresh = False  # no control word yet in the current group (but `\*`)
    previous = ""
    pos, end, units = 0, len(text), 0
    while pos < end:
        units += 1
        if units % _UNITS == 0:
            deadline.check()
        match = _TOKEN.match(text, pos)
        assert match is not None  # the last alternative takes any character but \ { }
        token, word, number = match.group(0), match.group(1), match.group(2)
        pos = match.end()
        if token == "{":
            depth += 1
            if not skipping:
                if previous not in _GLUED:
                    out.append("\n")
                    line = 0
                out.append(token)
                line += 1
            fresh, previous = True, "{"
            continue
        if token == "}":
            if skipping == depth:
                skipping = 0
            depth -= 1
            if not skipping:
                out.append(token)
                line += 1
            fresh, previous = False, "}"
            continue
        if word is not None and word.startswith("bin"):
            # \binN: N raw bytes follow, which may hold braces and backslashes. Other words
            # starting "bin" (\binfsxn, paper trays) carry no text and go as well.
            if word == "bin" and number is not None:
                pos = min(end, pos + max(0, int(number)))
            continue
        if skipping:
            continue
        if word is not None:
            if fresh and word in _BULKY:
                skipping = depth
                continue
            if word == "u" and number is not None and not -32768 <= int(number) <= 65535:
                token = "\\u65533 "
            fresh = False
        elif token != "\\*":
            fresh = False
        previous = word or ""
        if line > _LINE and not token.startswith("\\'"):
            # Text may break anywhere; hex escapes never, since striprtf joins a run of them
            # into one multi-byte character.
            out.append("\n")
            line = 0
        if word is None and not token.startswith("\\") and len(token) > _LINE:
            for start in range(0, len(token), _LINE):
                out.append(token[start : start + _LINE])
                out.append("\n")
            line = 0
            continue
        out.append(token)
        newline = token.rfind("\n")
        line = len(token) - newline - 1 if newline >= 0 else line + len(token)
    return "".join(out)
