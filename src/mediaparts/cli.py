"""The `mediaparts` command line (also `python -m mediaparts`).

    mediaparts inspect photo.jpg notes.pdf https://example.com/cat [--provider P]... [--json]

Exit status: 0 when every input was read (and accepted by every provider asked about), 1
when some could not be or were rejected, 2 for a usage error.
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
from mediaparts.providers import names
from mediaparts.providers._normalize import normalize

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mediaparts",
        description="Inspect media the way mediaparts sees it: type from the bytes, kind, size.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    inspect = commands.add_parser(
        "inspect",
        help="show each input's type, kind, size, and what each provider would get",
        description="Show each input's detected type, kind, size and dimensions, whether its "
        "file name agrees with its bytes, and for each --provider: accepted as is, what "
        "normalize would do, or rejected and why, with the token estimate. URLs are fetched "
        "under the default fetch policy.",
    )
    inspect.add_argument("inputs", nargs="+", metavar="PATH_OR_URL", help="files or URLs")
    inspect.add_argument(
        "--provider",
        action="append",
        default=[],
        choices=names(),
        metavar="P",
        help=f"also say what this provider would get ({', '.join(names())}); repeatable",
    )
    inspect.add_argument("--model", help="the model, for model-dependent sizes and tokens")
    inspect.add_argument("--json", action="store_true", help="print one JSON object per input")
    return parser


def _verdict(made: MediaPart, provider: str, model: str | None) -> dict[str, Any]:
    """Say what a provider would get: the part as is, changed (how), or nothing (why)."""
    try:
        result = normalize(made, provider, model=model)
    except MediaError as exc:
        return {"verdict": "rejected", "reason": str(exc)}
    verdict = "accepted as is" if result.unchanged else "normalized"
    out: dict[str, Any] = {"verdict": verdict, "media_type": result.media_type}
    if result.steps:
        out["steps"] = list(result.steps)
    if result.width is not None:
        out["width"], out["height"] = result.width, result.height
    if result.byte_size is not None:
        out["bytes"] = result.byte_size
    out["tokens"] = result.tokens
    return out


def _inspect_one(source: str, providers: list[str], model: str | None) -> dict[str, Any]:
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
    if providers:
        info["providers"] = {p: _verdict(made, p, model) for p in providers}
    return info


def _line(info: dict[str, Any]) -> str:
    if "error" in info:
        return f"{info['input']}: error: {info['error']}"
    dims = f" {info['width']}x{info['height']}" if info.get("width") else ""
    warn = "" if info["name_agrees"] else "  (the file name says otherwise: bytes win)"
    lines = [
        f"{info['input']}: {info['media_type']} ({info['kind']}{dims}, {info['bytes']:,} bytes, "
        f"by {info['detected_by']}){warn}"
    ]
    for provider, verdict in info.get("providers", {}).items():
        lines.append(f"  {provider}: {_verdict_line(verdict)}")
    return "\n".join(lines)


def _verdict_line(verdict: dict[str, Any]) -> str:
    if verdict["verdict"] == "rejected":
        return f"rejected: {verdict['reason']}"
    tokens = verdict.get("tokens")
    cost = f", ~{tokens:,} tokens" if tokens is not None else ""
    if verdict["verdict"] == "accepted as is":
        return f"accepted as is{cost}"
    size = f" {verdict['width']}x{verdict['height']}" if verdict.get("width") else ""
    steps = ", ".join(verdict.get("steps", []))
    return f"normalized to {verdict['media_type']}{size} ({steps}){cost}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors and 0 for --help
        return int(exc.code or 0)
    failed = 0
    for source in args.inputs:
        try:
            info = _inspect_one(source, args.provider, args.model)
        except MediaError as exc:
            failed += 1
            info = {"input": source, "error": str(exc)}
        else:
            verdicts = info.get("providers", {}).values()
            failed += any(v["verdict"] == "rejected" for v in verdicts)
        if args.json:
            print(json.dumps(info))
        else:
            print(_line(info))
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
