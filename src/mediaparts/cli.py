"""The `mediaparts` command line (also `python -m mediaparts`).

    mediaparts inspect PATH_OR_URL... [--provider P]... [--model M] [--json]
    mediaparts normalize PATH_OR_URL... --provider P [--model M] [--out DIR] [--json]
    mediaparts render PATH_OR_URL... --provider P [--text PROMPT] [--model M] [--summary]
    mediaparts convert FILE --from X --to Y [--model M] [--on-loss MODE] [--reasoning-as-text]
                       [--summary]
    mediaparts show FILE [--from X] [--max-text N]

Exit status: 0 when every input was read and accepted, 1 when some could not be read or
were rejected (each said on one line, never a traceback), 2 for a usage error (130 when
interrupted). With several inputs, a progress bar is drawn on stderr when it is a terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mediaparts import normalize, render
from mediaparts._build import part
from mediaparts._cli_conversations import (
    add_conversation_commands,
    print_payload,
    run_convert,
    run_show,
)
from mediaparts._errors import MediaError
from mediaparts._messages import User
from mediaparts._parts import ImagePart, MediaPart
from mediaparts.detection import detect, extension_for
from mediaparts.providers import NormalizedPart, get, names

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mediaparts",
        description="Media for LLM providers: see what a file is, what each provider would "
        "get, and the request payload.",
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

    fit = _for_one_provider(
        commands,
        "normalize",
        help="make each input what a provider accepts; optionally write the results",
        description="Normalize each input for one provider (orient, convert, downscale, fit "
        "its byte limit) and say what was done; with --out, write each result to DIR as "
        "NAME.PROVIDER.EXT. URLs are fetched and inlined.",
    )
    fit.add_argument("--model", help="the model, for model-dependent sizes and tokens")
    fit.add_argument("--out", type=Path, metavar="DIR", help="write the results to DIR")
    fit.add_argument("--json", action="store_true", help="print one JSON object per input")

    show = _for_one_provider(
        commands,
        "render",
        help="print the request payload a provider's SDK would be given",
        description="Render one user message (--text, then the inputs in order) into the "
        "keyword arguments of the provider's SDK call, and print it as JSON. Raw bytes "
        "(for an SDK that takes bytes) print as base64.",
    )
    show.add_argument("--text", metavar="PROMPT", help="text to put before the files")
    show.add_argument("--model", help="the model, for model-dependent sizes")
    show.add_argument(
        "--urls", choices=("auto", "inline", "pass"), default="auto", help="URL handling"
    )
    show.add_argument(
        "--summary", action="store_true", help="replace base64 and bytes with short descriptors"
    )

    add_conversation_commands(commands)
    return parser


def _for_one_provider(commands: Any, name: str, **texts: str) -> argparse.ArgumentParser:
    """Add a command that takes inputs and one `--provider` (normalize, render)."""
    command: argparse.ArgumentParser = commands.add_parser(name, **texts)
    command.add_argument("inputs", nargs="+", metavar="PATH_OR_URL", help="files or URLs")
    command.add_argument("--provider", required=True, choices=names(), metavar="P", help="provider")
    return command


def _verdict(made: MediaPart, provider: str, model: str | None) -> dict[str, Any]:
    """Say what a provider would get: the part as is, changed (how), or nothing (why)."""
    try:
        result = normalize(made, provider, model=model)
    except MediaError as exc:
        return {"verdict": "rejected", "reason": str(exc)}
    return _verdict_of(result)


def _verdict_of(result: NormalizedPart) -> dict[str, Any]:
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
        for p, verdict in info["providers"].items():  # and the model table row it was given
            row = get(p).rules.model_row(model)
            verdict.update(model=model, model_rule=row.pattern if row else None)
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
    if verdict["verdict"] in ("rejected", "error"):
        return f"{verdict['verdict']}: {verdict['reason']}"
    tokens = verdict.get("tokens")
    cost = f", ~{tokens:,} tokens" if tokens is not None else ""
    if verdict["verdict"] == "accepted as is":
        return f"accepted as is{cost}"
    size = f" {verdict['width']}x{verdict['height']}" if verdict.get("width") else ""
    steps = ", ".join(verdict.get("steps", []))
    return f"normalized to {verdict['media_type']}{size} ({steps}){cost}"


def _providers_asked(args: argparse.Namespace) -> list[str]:
    """The providers a command's `--model` is for: inspect's `--provider`s, convert's `--to`."""
    if args.command == "convert":
        return [args.into]
    chosen = getattr(args, "provider", None) or []
    return chosen if isinstance(chosen, list) else [chosen]


def _unknown_model(command: str, providers: list[str], model: str | None) -> str | None:
    """Say why `--model` is a usage error: no row of a provider's model table matches it."""
    for rules in (get(provider).rules for provider in providers):
        if model is not None and rules.model_patterns and rules.model_row(model) is None:
            return (
                f"mediaparts {command}: error: unknown model {model!r:.80} for {rules.provider}; "
                f"its known model patterns: {', '.join(rules.model_patterns)}"
            )
    return None


def _assumed(provider: str, model: str | None) -> str:
    """Say in one line which model, or which default rules, the provider's rules are for."""
    rules = get(provider).rules
    row = rules.model_row(model)
    if row is None:
        return f"{provider}: model {model}" if model else f"{provider}: no --model"
    if model is not None:
        return f"{provider}: model {model}, rules for {row.pattern}"
    what = f" ({row.rule.describe()})" if rules.vision else ""  # the default image rule
    return f"{provider}: no --model, so the default rules, for {row.pattern}{what}"


class _Progress:
    """A progress bar on stderr for several inputs, drawn only when stderr is a terminal.

    It is cleared before each result is printed, so results never share a line with it.
    """

    _WIDTH = 24

    def __init__(self, total: int) -> None:
        self.total = total
        self.shown = total > 1 and sys.stderr.isatty()

    def step(self, index: int, name: str) -> None:
        """Draw the bar for input `index` (from 1), named `name`, about to be read."""
        if self.shown:
            filled = self._WIDTH * (index - 1) // self.total
            bar = "#" * filled + "-" * (self._WIDTH - filled)
            sys.stderr.write(f"\r\x1b[K[{bar}] {index}/{self.total} {name[-50:]}")
            sys.stderr.flush()

    def done(self) -> None:
        """Clear the bar."""
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _run_inspect(args: argparse.Namespace) -> int:
    failed = 0
    if not args.json:  # --json carries the model in each provider's verdict
        for provider in args.provider:
            print(_assumed(provider, args.model))
    progress = _Progress(len(args.inputs))
    for index, source in enumerate(args.inputs, 1):
        progress.step(index, source)
        try:
            info = _inspect_one(source, args.provider, args.model)
        except MediaError as exc:
            failed += 1
            info = {"input": source, "error": str(exc)}
        else:
            verdicts = info.get("providers", {}).values()
            failed += any(v["verdict"] == "rejected" for v in verdicts)
        progress.done()
        print(json.dumps(info) if args.json else _line(info))
    return 1 if failed else 0


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


def _written(result: NormalizedPart, source: str, provider: str, out: Path, used: set[str]) -> Path:
    """Write a normalized part to `out` as NAME.PROVIDER.EXT (NAME-2... when taken).

    `used` holds the names written so far in this run (case-folded, for file systems that
    ignore case), so two inputs with the same name do not overwrite each other.

    Raises:
        OSError: The file cannot be written.
    """
    stem = _stem(result, source)
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


def _run_normalize(args: argparse.Namespace) -> int:
    failed = 0
    progress = _Progress(len(args.inputs))
    used: set[str] = set()
    for index, source in enumerate(args.inputs, 1):
        progress.step(index, source)
        info: dict[str, Any] = {"input": source, "provider": args.provider}
        try:
            result = normalize(source, args.provider, model=args.model, urls="inline")
            info.update(_verdict_of(result))
            if args.out is not None:
                info["written"] = str(_written(result, source, args.provider, args.out, used))
        except MediaError as exc:
            failed += 1
            info["verdict"], info["reason"] = "rejected", str(exc)
        except OSError as exc:  # writing: one line for this input, and on to the next
            failed += 1
            where = f" {exc.filename}" if exc.filename else ""
            info["verdict"], info["reason"] = "error", f"cannot write{where}: {exc.strerror or exc}"
        progress.done()
        if args.json:
            print(json.dumps(info))
        else:
            where = f" -> {info['written']}" if "written" in info else ""
            print(f"{source}: {_verdict_line(info)}{where}")
    return 1 if failed else 0


def _run_render(args: argparse.Namespace) -> int:
    content: list[Any] = [args.text] if args.text else []
    content += [part(source) for source in args.inputs]
    payload = render([User(content)], args.provider, model=args.model, urls=args.urls)
    print_payload(payload, summary=args.summary)
    # The model the sizes and tokens are for, on stderr: stdout stays the payload's JSON.
    print(f"mediaparts: {_assumed(args.provider, args.model)}", file=sys.stderr)
    return 0


def _tolerant_output() -> None:
    """Escape what the output's encoding cannot hold (`→` in a cp1252 file) instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    _tolerant_output()
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors and 0 for --help
        return int(exc.code or 0)
    unknown = _unknown_model(args.command, _providers_asked(args), getattr(args, "model", None))
    if unknown:  # a usage error, as argparse's own
        print(unknown, file=sys.stderr)
        return 2
    run = {
        "inspect": _run_inspect,
        "normalize": _run_normalize,
        "render": _run_render,
        "convert": run_convert,
        "show": run_show,
    }
    try:
        return run[args.command](args)
    except BrokenPipeError:
        # The reader went away (`mediaparts inspect ... | head`): stop quietly, as `cat` does,
        # and keep Python from reporting the pipe again when it flushes stdout at exit.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        return 1
    except KeyboardInterrupt:
        print("\nmediaparts: interrupted", file=sys.stderr)
        return 130  # 128 + SIGINT, as shells report it
    except (MediaError, OSError) as exc:  # one clear line, never a traceback
        print(f"mediaparts: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
