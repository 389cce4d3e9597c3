"""The `mediaparts` command line (also `python -m mediaparts`).

    mediaparts inspect PATH_OR_URL... [--provider P]... [--model M] [--json]
    mediaparts normalize PATH_OR_URL... --provider P [--model M] [--out DIR] [--json]
    mediaparts render PATH_OR_URL... --provider P [--text PROMPT] [--model M] [--summary]
    mediaparts carry FILE --from X --to Y [--model M] [--on-loss MODE] [--reasoning-as-text]
                     [--summary]   (its old name, `convert`, still works)
    mediaparts show FILE [--from X] [--max-text N]
    mediaparts batch write FILE --provider P --out DIR [--model M] [--param KEY=VALUE]...
    mediaparts batch read FILE --provider P [--json]
    mediaparts --version

Exit status: 0 when every input was read and accepted, 1 when some could not be read or
were rejected (each said on one line naming the input, never a traceback), 2 for a usage
error (an unknown option, provider or model, an --out that cannot be written to), 130 when
interrupted. With several inputs, a progress bar is drawn on stderr when it is a terminal.
URLs are fetched under the default fetch policy; `--allow-private` lets it reach loopback and
private-network hosts (a local dev server), for that run only.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import io
import json
import os
import sys
import warnings
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import mediaparts
from mediaparts import normalize, render
from mediaparts._boundary import translated
from mediaparts._conversation._make_part import part
from mediaparts._conversation._messages import User
from mediaparts._conversation._parts import ImagePart, MediaPart
from mediaparts._errors import CodecUnavailable, MediaError, UnknownModelWarning, excerpt
from mediaparts._models import unknown_models
from mediaparts.cli._batch import add_batch_commands, run_batch
from mediaparts.cli._conversations import (
    add_conversation_commands,
    print_payload,
    run_carry,
    run_show,
)
from mediaparts.cli._files import as_given, out_problem, shown, written
from mediaparts.cli._urls import add_allow_private, allowing_private, said
from mediaparts.detection import detect
from mediaparts.providers import NormalizedPart, get, names

__all__ = ["main"]


def _version() -> str:
    """The installed distribution's version; a source tree's own when it is not installed."""
    try:
        return importlib.metadata.version("mediaparts")
    except importlib.metadata.PackageNotFoundError:
        return str(getattr(mediaparts, "__version__", "unknown"))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mediaparts",
        description="Media for LLM providers: see what a file is, what each provider would "
        "get, and the request payload.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"mediaparts {_version()}",
        help="print mediaparts and its version, and exit",
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
    add_allow_private(inspect)

    fit = _for_one_provider(
        commands,
        "normalize",
        help="make each input what a provider accepts; optionally write the results",
        description="Normalize each input for one provider (orient, convert, downscale, fit "
        "its byte limit) and say what was done; with --out, write each result to DIR as "
        "NAME.PROVIDER.EXT. URLs are fetched and inlined.",
    )
    fit.add_argument("--model", help="the model, for model-dependent sizes and tokens")
    fit.add_argument("--out", type=_out_dir, metavar="DIR", help="write the results to DIR")
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
    add_batch_commands(commands)
    return parser


def _out_dir(text: str) -> Path:
    """Read `--out`; an empty one (an unset variable in a script) is refused, not the current
    directory."""
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty; give a directory (a missing one is made)")
    return Path(text)


def _for_one_provider(commands: Any, name: str, **texts: str) -> argparse.ArgumentParser:
    """Add a command that takes inputs and one `--provider` (normalize, render)."""
    command: argparse.ArgumentParser = commands.add_parser(name, **texts)
    command.add_argument("inputs", nargs="+", metavar="PATH_OR_URL", help="files or URLs")
    command.add_argument("--provider", required=True, choices=names(), metavar="P", help="provider")
    add_allow_private(command)
    return command


def _verdict(made: MediaPart, provider: str, model: str | None) -> dict[str, Any]:
    """Say what a provider would get: the part as is, changed (how), or nothing (why)."""
    try:
        result = normalize(made, provider, model=model)
    except MediaError as exc:
        return _refused(exc, provider)
    return _verdict_of(result)


def _refused(exc: MediaError, provider: str) -> dict[str, Any]:
    """Say why a provider gets nothing: it will not take the input (rejected), or this machine
    cannot prepare it (error: a missing codec is the installation's fault, not the file's)."""
    reason = said(exc).removeprefix(f"{provider}: ")  # the line already names the provider
    return {
        "verdict": "error" if isinstance(exc, CodecUnavailable) else "rejected",
        "reason": reason,
    }


def _verdict_of(result: NormalizedPart) -> dict[str, Any]:
    verdict = "accepted as is" if result.unchanged else "normalized"
    out: dict[str, Any] = {"verdict": verdict, "media_type": result.media_type}
    if result.steps:
        out["steps"] = list(result.steps)
    if result.width is not None:
        out["width"], out["height"] = result.width, result.height
    if result.byte_size is not None:
        out["bytes"] = result.byte_size
    if result.pieces:  # sent as several parts: frames, split PDFs, page images
        out["pieces"] = [p.media_type for p in result.pieces if isinstance(p, NormalizedPart)]
    elif result.text is not None:
        out["as_text"] = True
    out["tokens"] = result.tokens
    return out


def _inspect_one(source: str, providers: list[str], model: str | None) -> dict[str, Any]:
    made = part(source)
    if not isinstance(made, MediaPart):  # pragma: no cover - part() of a str is media
        raise TypeError(source)
    made = made.resolve()
    found = detect(made.data, filename=made.filename)
    info: dict[str, Any] = {
        "input": as_given(source),
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
            verdict["media_rule"] = get(p, model).model_rules
    return info


def _line(info: dict[str, Any]) -> str:
    if "error" in info:
        return f"{shown(info['input'])}: error: {info['error']}"
    dims = f" {info['width']}x{info['height']}" if info.get("width") else ""
    warn = "" if info["name_agrees"] else "  (the file name says otherwise: bytes win)"
    what = f"{info['kind']}{dims}, {info['bytes']:,} bytes, by {info['detected_by']}"
    lines = [f"{shown(info['input'])}: {info['media_type']} ({what}){warn}"]
    for provider, verdict in info.get("providers", {}).items():
        lines.append(f"  {provider}: {_verdict_line(verdict)}")
    return "\n".join(lines)


def _verdict_line(verdict: dict[str, Any]) -> str:
    if verdict["verdict"] in ("rejected", "error"):
        return f"{verdict['verdict']}: {verdict['reason']}"
    tokens = verdict.get("tokens")
    cost = f", ~{tokens:,} tokens" if tokens is not None else ""
    if verdict.get("steps") == ["url pass-through"]:
        return f"passed as a URL: the provider fetches it itself{cost}"
    if verdict["verdict"] == "accepted as is":
        return f"accepted as is{cost}"
    steps = verdict.get("steps", [])
    if steps[:1] == ["as text"]:  # a text file: its bytes as they are, or decoded
        how = ", ".join(steps[1:]) or "unchanged (UTF-8)"
        return f"sent as text, {how}{cost}"
    if "pieces" in verdict:
        kinds = Counter(verdict["pieces"])
        made = " + ".join(f"{n} {media_type}" for media_type, n in kinds.items())
        return f"sent as {made} ({', '.join(steps)}){cost}"
    if verdict.get("as_text"):
        return f"sent as text, {verdict['media_type']} ({', '.join(steps)}){cost}"
    size = f" {verdict['width']}x{verdict['height']}" if verdict.get("width") else ""
    return f"normalized to {verdict['media_type']}{size} ({', '.join(steps)}){cost}"


def _providers_asked(args: argparse.Namespace) -> list[str]:
    """The providers a command's `--model` is for: inspect's `--provider`s, carry's `--to`."""
    if args.command in ("carry", "convert"):
        return [args.into]
    chosen = getattr(args, "provider", None) or []
    return chosen if isinstance(chosen, list) else [chosen]


def _unknown_model(command: str, providers: list[str], model: str | None) -> str | None:
    """Say, once, what the library says of a `--model` no row of a provider's table matches.

    One policy with the library: a warning naming the default rules used (the command goes
    on), or, with `MEDIAPARTS_UNKNOWN_MODELS=error`, a usage error (returned, for exit 2).
    """
    for rules in (get(provider).rules for provider in providers):
        if model is not None and rules.model_patterns and rules.model_row(model) is None:
            row = rules.model_row(None)
            said = (
                f"unknown model {excerpt(model)} for {rules.provider}; "
                f"its known model patterns: {', '.join(rules.model_patterns)}"
            )
            if unknown_models() == "error":
                return f"mediaparts {command}: error: {said}"
            used = f"; using the default rules, for {row.pattern!r}" if row else ""
            print(f"mediaparts {command}: warning: {said}{used}", file=sys.stderr)
    return None


def _assumed(provider: str, model: str | None) -> str:
    """Say in one line which model, or which default rules, the provider's rules are for
    (and the row of its `models` table, where what it takes differs by model)."""
    row = get(provider, model).model_rules
    said = _assumed_tables(provider, model)
    return said if row is None else f"{said}; what it takes: the rules for {row}"


def _assumed_tables(provider: str, model: str | None) -> str:
    """Say which row of the provider's token tables its model gets."""
    rules = get(provider).rules
    row = rules.model_row(model)
    if row is None and model and rules.model_patterns:
        default = rules.model_row(None)
        assert default is not None  # a table has a default row
        return f"{provider}: model {model}, unknown: the default rules, for {default.pattern}"
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
            info = {"input": as_given(source), "error": said(exc)}
        else:
            verdicts = info.get("providers", {}).values()
            failed += any(v["verdict"] in ("rejected", "error") for v in verdicts)
        progress.done()
        print(json.dumps(info) if args.json else _line(info))
    return 1 if failed else 0


def _run_normalize(args: argparse.Namespace) -> int:
    if args.out is not None:
        problem = out_problem(args.out)
        if problem:  # a usage error, said once, before any input is read
            print(
                f"mediaparts normalize: error: --out {shown(args.out)}: {problem}", file=sys.stderr
            )
            return 2
    failed = 0
    progress = _Progress(len(args.inputs))
    used: set[str] = set()
    for index, source in enumerate(args.inputs, 1):
        progress.step(index, source)
        info = _normalize_one(source, args, used)
        failed += info["verdict"] in ("rejected", "error")
        progress.done()
        if args.json:
            print(json.dumps(info))
        else:
            where = f" -> {info['written']}" if "written" in info else ""
            print(f"{shown(source)}: {_verdict_line(info)}{where}")
    return 1 if failed else 0


def _normalize_one(source: str, args: argparse.Namespace, used: set[str]) -> dict[str, Any]:
    """Read one input (error: it cannot be read), normalize it (rejected: the provider will
    not take it) and write the result to `--out` (error: it cannot be written)."""
    info: dict[str, Any] = {"input": as_given(source), "provider": args.provider}
    try:
        made = part(source).resolve()
    except MediaError as exc:
        return {**info, "verdict": "error", "reason": said(exc)}
    try:
        result = normalize(made, args.provider, model=args.model, urls="inline")
    except MediaError as exc:
        return {**info, **_refused(exc, args.provider)}
    info.update(_verdict_of(result))
    if args.out is None:
        return info
    try:
        info["written"] = written(result, source, args.provider, args.out, used)
    except OSError as exc:  # writing: one line for this input, and on to the next
        where = f" {shown(exc.filename)}" if exc.filename else ""
        info["verdict"], info["reason"] = "error", f"cannot write{where}: {exc.strerror or exc}"
    return info


def _run_render(args: argparse.Namespace) -> int:
    made: list[MediaPart] = []
    for source in args.inputs:
        try:
            made.append(part(source))
        except MediaError as exc:
            return _failed(source, exc)
    content: list[Any] = [args.text] if args.text else []
    try:
        payload = render([User([*content, *made])], args.provider, model=args.model, urls=args.urls)
    except MediaError:
        # Which input? Each alone, in order: the first that fails is named (the happy path
        # normalizes each input once, inside render).
        for source, one in zip(args.inputs, made, strict=True):
            try:
                normalize(one, args.provider, model=args.model, urls=args.urls)
            except MediaError as exc:
                return _failed(source, exc)
        raise
    print_payload(payload, summary=args.summary)
    # The model the sizes and tokens are for, on stderr: stdout stays the payload's JSON.
    print(f"mediaparts: {_assumed(args.provider, args.model)}", file=sys.stderr)
    return 0


def _failed(source: str, error: MediaError) -> int:
    """Say on stderr which input failed and why; return the exit status (1)."""
    print(f"mediaparts: {shown(source)}: error: {said(error)}", file=sys.stderr)
    return 1


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
    run = {
        "inspect": _run_inspect,
        "normalize": _run_normalize,
        "render": _run_render,
        "carry": run_carry,
        "convert": run_carry,
        "show": run_show,
        "batch": run_batch,
    }
    try:
        unknown = _unknown_model(args.command, _providers_asked(args), getattr(args, "model", None))
        if unknown:  # a usage error, as argparse's own
            print(unknown, file=sys.stderr)
            return 2
        with allowing_private(getattr(args, "allow_private", False)), warnings.catch_warnings():
            # Said once above, in the command's words; not again for every part.
            warnings.simplefilter("ignore", UnknownModelWarning)
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
    except MediaError as exc:  # one clear line, never a traceback
        print(f"mediaparts: error: {said(exc)}", file=sys.stderr)
        return 1
    except OSError as exc:  # the OS's words, without Python's "[Errno 2]"
        where = f"{shown(exc.filename)}: " if exc.filename else ""
        print(f"mediaparts: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug: still one line (the library maps it the same way)
        error = translated(exc, f"running 'mediaparts {args.command}'")
        print(f"mediaparts: error: {said(error)}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
