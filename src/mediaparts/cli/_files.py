"""The command line's file names: inputs named in its lines, `normalize --out` checked and
written to.

`mediaparts.cli` uses these; they never raise for a name, however hostile.
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

from mediaparts._errors import cut_middle
from mediaparts.detection import extension_for
from mediaparts.fetching import redact
from mediaparts.providers import NormalizedPart

__all__ = ["as_given", "out_problem", "shown", "written"]


def _printable(char: str) -> str:
    """A character as a terminal may show it: control, format, surrogate and unassigned
    characters and the line separators (which move the cursor, set a title, fake a line or
    hide text) as their escape, `\\x1b`."""
    if unicodedata.category(char)[0] == "C" or char in "\u2028\u2029":
        return char.encode("unicode_escape", "backslashreplace").decode("ascii")
    return char


def as_given(argument: str) -> str:
    """Return an input as given, but for a URL's user name and password (a file name with a
    `:` and an `@` is left alone)."""
    return redact(argument) if "://" in argument else argument


def shown(argument: str | os.PathLike[str]) -> str:
    """Return an input or path as given, for a line that names it: without a URL's user name
    or password, and cut in the middle to about 80 characters, keeping its start and its end.
    """
    return cut_middle("".join(map(_printable, as_given(os.fspath(argument)))))


def out_problem(out: Path) -> str | None:
    """Say why results cannot be written to the directory `out` (made if missing), or None.

    Checked before any input is read, so a mistyped `--out` is one usage error, not one
    error per input; nothing is made here.
    """
    existing = out
    try:
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        is_dir = existing.is_dir()
    except OSError as exc:  # a parent we may not even look into
        return f"cannot be checked ({exc.strerror or exc}); choose another directory"
    if not is_dir:
        what = "a file" if existing.is_file() else "not a regular file"
        if existing == out:
            return f"is {what}, not a directory; give a directory (a missing one is made)"
        return f"cannot be made: {shown(existing)} is {what}, not a directory"
    if os.access(existing, os.W_OK | os.X_OK):
        return None
    where = "" if existing == out else f" in {shown(existing)}"
    if hasattr(os, "statvfs") and os.statvfs(existing).f_flag & os.ST_RDONLY:
        return f"read-only file system{where}; choose another directory"
    return f"permission denied{where}; choose another directory, or one you may write to"


# What may not appear in a file name on some system we write to: separators, NUL and the
# other control characters, and the characters Windows reserves (Microsoft, "Naming Files,
# Paths, and Namespaces"); lone surrogates too, which no file system encoding takes.
_UNSAFE_NAME = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|\ud800-\udfff]')
_RESERVED_STEMS = {"con", "prn", "aux", "nul"} | {
    f"{p}{n}" for p in ("com", "lpt") for n in "123456789"
}
# Most file systems take names of up to 255 bytes; the stem stays well under that, leaving
# room for ".PROVIDER.EXT" and a "-N" that makes it unique.
_STEM_BYTES = 120


def _stem(result: NormalizedPart, source: str) -> str:
    """Make a file-name stem from a part's (or URL's) name that is safe to write anywhere.

    The name comes from the input (a URL's last segment, percent-decoded), so it may hold a
    NUL, a separator, '..' or hundreds of characters; none of that reaches the file system.
    """
    name = result.filename or Path(source).name or "part"
    stem = Path(_UNSAFE_NAME.sub("_", name)).stem
    stem = stem.strip(". ")  # no '..', no hidden file; Windows drops trailing dots and spaces
    encoded = stem.encode("utf-8")
    if len(encoded) > _STEM_BYTES:
        stem = encoded[:_STEM_BYTES].decode("utf-8", "ignore").rstrip(". ")
    if not stem:
        return "part"
    return f"_{stem}" if stem.split(".")[0].lower() in _RESERVED_STEMS else stem


def written(result: NormalizedPart, source: str, provider: str, out: Path, used: set[str]) -> str:
    """Write a normalized part to `out` as NAME.PROVIDER.EXT (NAME-2... when taken); a part
    sent as pieces (frames, split PDFs, page images) as one file per piece, NAME-1..., and
    its text labels not at all. Returns the path written, or the first and how many.

    `used` holds the names written so far in this run (case-folded, for file systems that
    ignore case), so two inputs with the same name do not overwrite each other.

    Raises:
        OSError: The file cannot be written.
    """
    stem = _stem(result, source)
    pieces = [p for p in result.sent if isinstance(p, NormalizedPart)]
    paths = [
        _write(piece, f"{stem}-{n}" if len(pieces) > 1 else stem, provider, out, used)
        for n, piece in enumerate(pieces, 1)
    ]
    more = f" (and {len(paths) - 1} more)" if len(paths) > 1 else ""
    return f"{paths[0]}{more}"


def _write(result: NormalizedPart, stem: str, provider: str, out: Path, used: set[str]) -> Path:
    ext = extension_for(result.media_type) or ".bin"
    name = f"{stem}.{provider}{ext}"
    counter = 1
    while name.casefold() in used:
        counter += 1
        name = f"{stem}-{counter}.{provider}{ext}"
    used.add(name.casefold())
    path = out / name
    out.mkdir(parents=True, exist_ok=True)
    if result.text is not None:
        path.write_text(result.text, encoding="utf-8")
    else:
        path.write_bytes(result.data or b"")
    return path
