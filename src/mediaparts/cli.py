"""The `mediaparts` command line (also `python -m mediaparts`).

    mediaparts inspect photo.jpg notes.pdf https://example.com/cat [--json]

Exit status: 0 when every input was read, 1 when some could not be, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from mediaparts._build import part
from mediaparts._errors import MediaError
from mediaparts._parts import ImagePart, MediaPart
from mediaparts.detection import detect

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mediaparts",
        description="Inspect media the way mediaparts sees it: type from the bytes, kind, size.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    inspect = commands.add_parser(
        "inspect",
        help="show each input's detected type, kind, size and dimensions",
        description="Show each input's detected type, kind, size and dimensions, and whether "
        "its file name agrees with its bytes. URLs are fetched under the default fetch policy.",
    )
    inspect.add_argument("inputs", nargs="+", metavar="PATH_OR_URL", help="files or URLs")
    inspect.add_argument("--json", action="store_true", help="print one JSON object per input")
    return parser


def _inspect_one(source: str) -> dict[str, Any]:
    made = part(source)
    if not isinstance(made, MediaPart):  # pragma: no cover - part() of a str is media
        raise TypeError(source)
    made = made.resolve()
    found = detect(made.data, filename=made.filename)
    info: dict[str, Any] = {
        "input": source,
        "media_type": made.media_type,
        "kind": made.kind,
        "bytes": made.size,
        "detected_by": found.source,
        "name_agrees": not found.mismatch,
    }
    if isinstance(made, ImagePart):
        info["width"], info["height"] = made.width, made.height
    return info


def _line(info: dict[str, Any]) -> str:
    if "error" in info:
        return f"{info['input']}: error: {info['error']}"
    dims = f" {info['width']}x{info['height']}" if info.get("width") else ""
    warn = "" if info["name_agrees"] else "  (the file name says otherwise: bytes win)"
    return (
        f"{info['input']}: {info['media_type']} ({info['kind']}{dims}, {info['bytes']:,} bytes, "
        f"by {info['detected_by']}){warn}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors and 0 for --help
        return int(exc.code or 0)
    failed = 0
    for source in args.inputs:
        try:
            info = _inspect_one(source)
        except MediaError as exc:
            failed += 1
            info = {"input": source, "error": str(exc)}
        if args.json:
            print(json.dumps(info))
        else:
            print(_line(info))
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
