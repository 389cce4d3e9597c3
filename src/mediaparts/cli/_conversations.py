"""The conversation commands of the command line: `convert` and `show`.

Both read a conversation file (JSON: a provider's request payload, or our message dicts) that
is untrusted: `messages_from` and `message_from_dict` never read a local path it names.
`mediaparts.cli` adds their parsers and runs them.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path
from typing import Any

from mediaparts import render
from mediaparts._conversation._messages import message_from_dict
from mediaparts._conversation._show import show
from mediaparts._conversation._summary import summarize
from mediaparts._errors import ConversionWarning, InvalidMedia
from mediaparts._sources import b64encode
from mediaparts.cli._files import shown
from mediaparts.cli._urls import add_allow_private
from mediaparts.providers import messages_from, names

__all__ = ["add_conversation_commands", "print_payload", "run_carry", "run_show"]


def add_conversation_commands(commands: Any) -> None:
    """Add `carry` (and its old name, `convert`) and `show` to the command line's subparsers."""
    convert = commands.add_parser(
        "carry",
        aliases=["convert"],
        help="carry a request payload from one provider's shapes to another's",
        description="Read FILE (a JSON request payload for --from: the SDK call's keyword "
        "arguments, or just its message list; '-' reads stdin), and print the same "
        "conversation rendered for --to. What --to cannot carry is said on stderr, one line "
        "each (--on-loss drop: quietly; error: exit 1 instead). Bytes in the JSON "
        "(for an SDK that takes raw bytes) are base64 text, and print as such.",
    )
    convert.add_argument("file", metavar="FILE", help="the payload's JSON file, or - for stdin")
    _add_from(convert, required=True, says="the provider FILE is written for")
    convert.add_argument(
        "--to", dest="into", required=True, choices=names(), metavar="Y", help="the target"
    )
    convert.add_argument("--model", help="the target model, for model-dependent sizes")
    convert.add_argument(
        "--urls", choices=("auto", "inline", "pass"), default="auto", help="URL handling"
    )
    convert.add_argument(
        "--on-loss",
        choices=("warn", "drop", "error"),
        default="warn",
        help="what --to cannot carry",
    )
    convert.add_argument(
        "--reasoning-as-text",
        action="store_true",
        help="send other providers' readable reasoning as text instead of leaving it out",
    )
    convert.add_argument(
        "--summary", action="store_true", help="replace base64 and bytes with short descriptors"
    )
    add_allow_private(convert)  # --urls inline fetches the payload's URLs
    _add_show(commands)


def _add_show(commands: Any) -> None:
    show_command = commands.add_parser(
        "show",
        help="print a conversation file as readable text",
        description="Read FILE (a JSON list of message dicts as to_dict() writes them, or one "
        "of them; with --from, a provider's request payload; '-' reads stdin) and print it "
        "one block per message: roles, text, media as short descriptors, tool calls, "
        "reasoning. Nothing is fetched, and no local file the JSON names is read.",
    )
    show_command.add_argument("file", metavar="FILE", help="the JSON file, or - for stdin")
    _add_from(show_command, required=False, says="FILE is a request payload for this provider")
    show_command.add_argument(
        "--max-text", type=_positive, metavar="N", help="cut text longer than N characters"
    )


def _add_from(command: argparse.ArgumentParser, *, required: bool, says: str) -> None:
    """`--from X`: the provider FILE's payload is written for (convert and show)."""
    command.add_argument(
        "--from",
        dest="source",
        required=required,
        choices=names(),
        metavar="X",
        help=f"{says} ({', '.join(names())})",
    )


def _positive(text: str) -> int:
    """A positive whole number, or a usage error (exit 2) naming the option."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"takes a positive whole number, got {text!r}")
    return value


def _jsonable(value: Any) -> Any:
    """Raw bytes (Bedrock's payloads) become base64 text, so the payload prints as JSON."""
    if isinstance(value, bytes | bytearray):
        return b64encode(value)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def print_payload(payload: dict[str, Any], *, summary: bool) -> None:
    if summary:
        payload = summarize(payload)
    # Non-ASCII text as \u escapes where the output cannot hold it (a cp1252 file on Windows).
    utf = (sys.stdout.encoding or "").lower().replace("-", "") in ("utf8", "utf8sig")
    print(json.dumps(_jsonable(payload), indent=2, ensure_ascii=not utf))


def _read_json(file: str) -> Any:
    """Read a JSON file, or stdin for "-"."""
    try:
        if file != "-":
            text = Path(file).read_bytes().decode("utf-8-sig")
        else:  # the bytes when stdin has them, so a wrong encoding is ours to report
            stdin = getattr(sys.stdin, "buffer", None)
            text = stdin.read().decode("utf-8-sig") if stdin is not None else sys.stdin.read()
    except UnicodeDecodeError as exc:
        raise InvalidMedia(f"{shown(file)} is not UTF-8 JSON: {exc}") from exc
    if not text:
        raise InvalidMedia(f"{shown(file)} is empty (0 bytes); give a file that holds JSON")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, and a 5,000-digit number
        raise InvalidMedia(f"{shown(file)} is not JSON: {exc}") from exc


def run_carry(args: argparse.Namespace) -> int:
    """Run `carry`: read the payload for --from, print it rendered for --to."""
    if args.command == "convert":  # the old name, kept: "convert" is for bytes
        print("mediaparts: 'convert' is now 'carry' (the old name still works)", file=sys.stderr)
    messages = messages_from(_read_json(args.file), args.source)
    with warnings.catch_warnings(record=True) as lost:
        warnings.simplefilter("always", ConversionWarning)
        converted = render(
            messages,
            args.into,
            model=args.model,
            urls=args.urls,
            on_loss=args.on_loss,
            foreign_reasoning="text" if args.reasoning_as_text else "drop",
        )
    for warning in lost:
        print(f"mediaparts: {args.into}: {warning.message}", file=sys.stderr)
    print_payload(converted, summary=args.summary)
    return 0


def run_show(args: argparse.Namespace) -> int:
    # The file is untrusted: message_from_dict and messages_from never read a local path.
    data = _read_json(args.file)
    if args.source is not None:
        messages = messages_from(data, args.source)
    else:
        items = data if isinstance(data, list) else [data]
        messages = [message_from_dict(item) for item in items]
    print(show(messages, max_text=args.max_text))
    return 0
