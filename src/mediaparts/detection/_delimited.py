"""Heuristics for the text formats without any marker: CSV, TSV and Markdown.

Both are guesses, made only on strong evidence: a CSV needs the same number of delimiters
(outside quotes, RFC 4180 §2) on every record of a sample, and Markdown needs several distinct
CommonMark constructs. Prose with commas and code with `#` comments must stay plain text.
"""

from __future__ import annotations

import re

__all__ = ["delimited_type", "looks_like_markdown"]

_SAMPLE_CHARS = 8192
_SAMPLE_RECORDS = 40
_DELIMITERS = (("\t", "text/tab-separated-values"), (",", "text/csv"), (";", "text/csv"))


def _records(text: str, cut: bool) -> list[str]:
    """Split a sample into records, joining lines inside a quoted field (RFC 4180 §2.6)."""
    records: list[str] = []
    pending = ""
    for line in text.splitlines():
        pending = f"{pending}\n{line}" if pending else line
        if pending.count('"') % 2:  # an odd number of quotes: the field goes on
            continue
        if pending.strip():
            records.append(pending)
        pending = ""
        if len(records) > _SAMPLE_RECORDS:
            break
    if cut and records and not pending and len(records) <= _SAMPLE_RECORDS:
        records.pop()  # the last record may be cut short
    return records[:_SAMPLE_RECORDS]


def delimited_type(text: str, truncated: bool) -> str | None:
    """Return `text/csv` or `text/tab-separated-values` for a delimited table, else None.

    Every record of a sample must have the same, non-zero number of one delimiter outside
    quotes.
    """
    sample = text[:_SAMPLE_CHARS]
    records = _records(sample, truncated or len(text) > len(sample))
    if len(records) < 2:
        return None
    # Drop quoted fields: a record's quotes pair up (see _records), and an escaped quote `""`
    # closes and reopens a field, so the text outside quotes is every other piece.
    unquoted = ["".join(record.split('"')[::2]) for record in records]
    for delimiter, media_type in _DELIMITERS:
        counts = {record.count(delimiter) for record in unquoted}
        if len(counts) != 1 or 0 in counts:
            continue
        if delimiter == "\t":
            # Tab-indented code has one leading tab per line; a table's fields follow text.
            if sum(record[:1].isspace() for record in unquoted) * 2 >= len(unquoted):
                continue
        else:
            # Prose puts a space after its commas; CSV writers do not.
            total = sum(counts) * len(unquoted)
            spaced = sum(record.count(delimiter + " ") for record in unquoted)
            if spaced * 2 > total:
                continue
        return media_type
    return None


# CommonMark constructs, each worth its weight once.
_HEADING = re.compile(r"^#{1,6}[ \t]+\S", re.MULTILINE)
_SETEXT = re.compile(r"^\S[^\n]*\n(?:=+|-+)[ \t]*$", re.MULTILINE)
_FENCE = re.compile(r"^[ \t]{0,3}(?:```|~~~)", re.MULTILINE)
# Neither run may hold the character that opens it (`[` in the text; `]`, which precedes the
# `(`, in the URL): a line of "[a](" tried from every `[` scanned to the line's end each time,
# quadratic (0.3 s for the 8 KiB sample, 21 s for 64 KiB). Nested brackets count by the
# inner link.
_LINK = re.compile(r'!?\[[^\[\]\n]+\]\([^)\]\s]+(?:\s+"[^"]*")?\)')
_LIST = re.compile(r"^[ \t]{0,3}(?:[-*+]|\d{1,3}[.)])[ \t]+\S", re.MULTILINE)
_EMPHASIS = re.compile(r"\*\*[^*\n]+\*\*|__[^_\n]+__|`[^`\n]+`")
_QUOTE = re.compile(r"^>[ \t]?\S", re.MULTILINE)
_TABLE_RULE = re.compile(r"^\|?[ \t]*:?-{3,}:?[ \t]*\|", re.MULTILINE)
_ESCAPE = re.compile(r"\\[!#*_`\[\](){}.+-]")
_COMMENT_RUN = re.compile(r"^#[^\n]*\n#", re.MULTILINE)


def looks_like_markdown(text: str) -> bool:
    """Tell whether text shows enough Markdown structure to be called Markdown.

    A heading counts when a blank line or the end follows it, as in Markdown documents; runs of
    `#` lines are shell, Python or YAML comments instead.
    """
    sample = text[:_SAMPLE_CHARS]
    # Each pattern is tried only where the text holds a piece every match of it contains
    # (`in` scans far faster than a pattern anchored at each line start).
    if "\n#" in sample and _COMMENT_RUN.search(sample):
        return False
    score = 0
    strong = False
    headings = 0
    for heading in _HEADING.finditer(sample) if "#" in sample else ():
        line_end = sample.find("\n", heading.start())
        next_end = sample.find("\n", line_end + 1)
        if line_end < 0 or not sample[line_end + 1 : next_end if next_end >= 0 else None].strip():
            headings += 1
            if headings == 2:
                break
    if headings:
        score += headings + 1  # one heading: 2, two or more: 3
        strong = True
    for pattern, weight, is_strong, pieces in (
        (_FENCE, 3, True, ("```", "~~~")),
        (_LINK, 2, True, ("](",)),
        (_TABLE_RULE, 2, True, ("---",)),
        (_SETEXT, 2, True, ("\n=", "\n-")),
        (_LIST, 1, False, ()),
        (_EMPHASIS, 1, False, ()),
        (_QUOTE, 1, False, ()),
        (_ESCAPE, 1, False, ()),
    ):
        if not (strong or is_strong):
            return False  # the rest are weak: without a strong construct, no score is enough
        if (not pieces or any(piece in sample for piece in pieces)) and pattern.search(sample):
            score += weight
            strong = strong or is_strong
        if score >= 3 and strong:
            return True
    return False
