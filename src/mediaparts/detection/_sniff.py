"""Text sniffing: is the prefix text at all, and if so HTML, SVG, XML, JSON, CSV, Markdown?

The decision runs once over the prefix: find the encoding (byte order mark, UTF-16 by its NUL
pattern, UTF-8, else a single-byte code page), reject binary (NULs, control characters), decode
once, then look at how the text starts. Markup and JSON are recognised with certainty; CSV, TSV
and Markdown are heuristics, and plain text is only the fallback, so a file name or declared
type may refine those (see `TextGuess.certain`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from mediaparts.detection._delimited import delimited_type, looks_like_markdown

__all__ = ["TextGuess", "decode_text", "sniff_text", "starts_with_bom"]


@dataclass(frozen=True, slots=True)
class TextGuess:
    """What text sniffing found.

    Attributes:
        media_type: The canonical media type.
        certain: False for the heuristic answers (plain text, CSV, TSV, Markdown), which a file
            name or declared type naming a more specific text format may override.
    """

    media_type: str
    certain: bool


BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),  # before UTF-16 LE, whose mark it starts with
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_BOM_BYTES = tuple(bom for bom, _ in BOMS)
# C0 control characters that do not occur in text: all but TAB, LF, VT, FF, CR and ESC
# (ANSI colour codes in logs); SUB is allowed too (a DOS end-of-file mark).
_CONTROL = bytes([*range(0x09), 0x0E, 0x0F, *range(0x10, 0x1A), *range(0x1C, 0x20), 0x7F])
NOT_CONTROL = bytes(sorted(set(range(256)) - set(_CONTROL)))
HIGH = bytes(range(0x80, 0x100))
CONTROL_CHARS = re.compile("[\x00-\x08\x0e-\x19\x1c-\x1f\x7f]")


def _utf16_without_bom(data: bytes) -> str | None:
    """Decode UTF-16 text without a byte order mark, recognised by its NULs.

    Mostly-ASCII text has a zero high byte in every code unit, so one byte of each pair is zero.
    """
    encoding = utf16_order(data)
    return None if encoding is None else _decode_units(data, encoding, 2)


def utf16_order(data: bytes) -> str | None:
    """Return the byte order of UTF-16 without a mark, from its first 1 KiB, or None.

    The zeros are the high bytes: nine in ten code units on one side, at most one in ten on the
    other. `_wholetext` judges a whole upload by the same rule.
    """
    sample = data[: min(len(data), 1024) & ~1]
    if len(sample) < 4:
        return None
    even_zeros = sample[0::2].count(0)
    odd_zeros = sample[1::2].count(0)
    units = len(sample) // 2
    if odd_zeros >= 0.9 * units and even_zeros <= 0.1 * units:
        return "utf-16-le"
    if even_zeros >= 0.9 * units and odd_zeros <= 0.1 * units:
        return "utf-16-be"
    return None


def _decode_units(data: bytes, encoding: str, unit: int) -> str | None:
    """Decode UTF-16/32, tolerating a code unit or surrogate pair cut at the end."""
    end = len(data) - len(data) % unit
    for cut in (0, 2, 4):
        try:
            text = data[: end - cut].decode(encoding)
        except UnicodeDecodeError:
            continue
        return None if len(CONTROL_CHARS.findall(text)) > len(text) // 1000 else text
    return None


def starts_with_bom(data: bytes) -> bool:
    """Tell whether the data opens with a Unicode byte order mark (UTF-8, UTF-16 or UTF-32)."""
    return data.startswith(_BOM_BYTES)


def decode_text(data: bytes) -> str | None:
    """Decode the prefix as text, or return None when it is binary.

    Args:
        data: The prefix; a multi-byte character cut at its end is allowed.

    Returns:
        The text, without a byte order mark, or None for binary data.
    """
    for bom, encoding in BOMS:
        if data.startswith(bom):
            if encoding == "utf-8":
                data = data[3:]
                break
            return _decode_units(data[len(bom) :], encoding, 4 if "32" in encoding else 2)
    if b"\x00" in data:
        return _utf16_without_bom(data)
    # Count control bytes with C-speed translate rather than a loop over the prefix.
    if len(data.translate(None, NOT_CONTROL)) > len(data) // 1000:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.reason == "unexpected end of data" and error.start >= len(data) - 3:
            return data[: error.start].decode("utf-8", "replace")
    # Not UTF-8: a legacy single-byte encoding (Latin-1, Windows-1252) if the high bytes are
    # a minority, as accented letters are in Western text.
    high = len(data) - len(data.translate(None, HIGH))
    if high > len(data) * 0.3:
        return None
    return data.decode("latin-1")


# --- markup -----------------------------------------------------------------------------------

_NAME = re.compile(r"<([A-Za-z_][\w.:-]*)")
# Elements that open HTML documents and fragments in the wild (the WHATWG MIME Sniffing
# standard §7.1 uses a similar list to recognise HTML).
_HTML_TAGS = frozenset(
    {"html", "head", "body", "title", "meta", "link", "script", "style", "base", "noscript"}
    | {"div", "span", "p", "a", "b", "i", "u", "em", "strong", "br", "hr", "img", "pre"}
    | {"table", "tr", "td", "th", "ul", "ol", "li", "form", "input", "button", "iframe"}
    | {"center", "font", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "nav"}
    | {"header", "footer", "main"}
)
_HTML = TextGuess("text/html", True)
# A fragment (`<p align="center">`, `<div>`) also opens many Markdown READMEs, which may embed
# HTML: a file name saying otherwise is believed.
_HTML_FRAGMENT = TextGuess("text/html", False)
_HTML_DOCUMENT_TAGS = frozenset({"html", "head", "body"})
_SVG = TextGuess("image/svg+xml", True)
_XML = TextGuess("application/xml", True)
# A bare root element with no prolog and no namespace (`<select>...</select>`) is only probably
# XML: HTML fragments and templates look the same, so a file name saying otherwise is believed.
_BARE_XML = TextGuess("application/xml", False)


def _doctype_end(text: str, pos: int) -> int:
    """Return the index just past a `<!DOCTYPE ...>`, including an internal subset `[...]`."""
    close = text.find(">", pos)
    bracket = text.find("[", pos, close if close >= 0 else None)
    if bracket >= 0:
        subset_end = text.find("]", bracket)
        close = text.find(">", subset_end) if subset_end >= 0 else -1
    return close + 1 if close >= 0 else -1


def _markup(text: str) -> TextGuess | None:
    """Classify text that starts with `<` as HTML, SVG or XML, or None.

    Looks past the XML declaration, processing instructions, comments and the document type
    declaration to the root element.
    """
    pos = 0
    prolog = False
    for _ in range(64):
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if text.startswith("<?", pos):
            prolog = prolog or text.startswith("<?xml", pos)
            end = text.find("?>", pos)
            pos = end + 2
        elif text.startswith("<!--", pos):
            end = text.find("-->", pos + 4)
            pos = end + 3
        elif text[pos : pos + 9].lower() == "<!doctype":
            root = text[pos + 9 : pos + 64].lstrip().lower()
            if root.startswith("html"):
                return _HTML
            if root.startswith("svg"):
                return _SVG
            prolog = True
            end = _doctype_end(text, pos)
            pos = end
        else:
            break
        if end < 0:
            # Cut inside the prolog: what was seen so far decides.
            return _XML if prolog else None
    match = _NAME.match(text, pos)
    if match is None:
        return None
    name = match.group(1)
    lowered = name.lower()
    if lowered.rpartition(":")[2] == "svg":
        return _SVG
    if lowered in _HTML_DOCUMENT_TAGS:
        return _HTML
    if lowered in _HTML_TAGS and not prolog:
        return _HTML_FRAGMENT
    if prolog:
        return _XML
    # A bare root element: XML only if it looks like one (a namespace, a closing tag, or an
    # empty-element tag), so "<3 you" or "<b>hi" stays plain text.
    tag_end = text.find(">", pos)
    tag = text[pos : tag_end + 1] if tag_end >= 0 else text[pos:]
    if "xmlns" in tag:
        return _XML
    if tag.endswith("/>") or f"</{name}" in text:
        return _BARE_XML
    return None


# --- JSON -------------------------------------------------------------------------------------


def _json(text: str, truncated: bool) -> TextGuess | None:
    """Recognise a JSON object or array (RFC 8259), or newline-delimited JSON objects.

    A whole document must parse. A prefix cut at 64 KiB cannot, so it passes when the parser
    only fails at the cut: its error lies at the very end, or is an unterminated string that
    runs to the end.
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        if truncated and _error_at_cut(text, error):
            return TextGuess("application/json", True)
        if error.msg == "Extra data" and _json_lines(text, truncated):
            return TextGuess("application/x-ndjson", True)
        return None
    except RecursionError:  # deeply nested arrays; still JSON-shaped
        return TextGuess("application/json", True)
    return TextGuess("application/json", True) if isinstance(value, (dict, list)) else None


def _error_at_cut(text: str, error: json.JSONDecodeError) -> bool:
    if error.pos >= len(text.rstrip()) - 8:
        return True
    if error.msg.startswith("Unterminated string"):
        rest = text[error.pos + 1 :].replace("\\\\", "").replace('\\"', "")
        return '"' not in rest
    return False


def _json_lines(text: str, truncated: bool) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    if truncated:
        lines = lines[:-1]
    sample = lines[:20]
    if len(sample) < 2:
        return False
    for line in sample:
        try:
            value = json.loads(line)
        except ValueError:
            return False
        if not isinstance(value, (dict, list)):
            return False
    return True


# --- everything else --------------------------------------------------------------------------

# Text formats that announce themselves on their first line.
_FIRST_LINE = (
    ("BEGIN:VCALENDAR", "text/calendar"),  # RFC 5545
    ("BEGIN:VCARD", "text/vcard"),  # RFC 6350
    ("WEBVTT", "text/vtt"),  # WebVTT §4.1
)
# Linux reads at most 255 characters of the `#!` line (BINPRM_BUF_SIZE, include/uapi/linux/
# binfmts.h); bounding the search there also bounds its work on a long first line.
_SHEBANG = re.compile(r"#![^\n]{0,253}?\b(python[\d.]{0,16}|sh|bash|zsh|dash|node)\b")
_INTERPRETERS = {"python": "text/x-python", "node": "text/javascript"}


def sniff_text(data: bytes, *, truncated: bool = False) -> TextGuess | None:
    """Classify the prefix as a text format, or return None when it is binary.

    Args:
        data: The prefix of the input.
        truncated: Whether the input goes on past `data`.

    Returns:
        The guess, or None for binary data.
    """
    text = decode_text(data)
    if text is None:
        return None
    start = text.lstrip()
    first = start[:1]
    if first == "<":
        found = _markup(start)
        if found:
            return found
    elif first in ("{", "["):
        found = _json(start, truncated)
        if found:
            return found
    elif first == "#" and start.startswith("#!"):
        shebang = _SHEBANG.match(start)
        if shebang:
            program = shebang.group(1).rstrip("0123456789.")
            return TextGuess(_INTERPRETERS.get(program, "text/x-shellscript"), True)
    for marker, media_type in _FIRST_LINE:
        if start.startswith(marker):
            return TextGuess(media_type, True)
    table = delimited_type(start, truncated)
    if table:
        return TextGuess(table, False)
    if looks_like_markdown(start):
        return TextGuess("text/markdown", False)
    return TextGuess("text/plain", False)
