"""The `batch` commands of the command line: `batch write` and `batch read`.

`batch write` reads a JSONL file of conversations (`{"id": ..., "messages": [...]}`, our
message dicts) and writes a provider's batch input files with `write_batch`, a progress bar
on stderr when it is a terminal. The file is untrusted: a local path in its messages is read
only under `--base-dir` (by default the file's own folder). `batch read` prints a provider's
batch result file, one line (or JSON object) per request. `mediaparts.cli` adds their parsers
and runs them.
"""

from __future__ import annotations

import argparse
import json
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mediaparts._conversation._messages import Message, message_from_dict
from mediaparts._errors import BlockedPath, InvalidMedia, MediaError
from mediaparts.cli._files import out_problem, shown
from mediaparts.cli._urls import said
from mediaparts.providers import BatchError, BatchResult, names, read_batch_results, write_batch

__all__ = ["add_batch_commands", "run_batch"]

# The longest input line read: one conversation's JSON, its media inline as base64.
MAX_INPUT_LINE = 64 * 1024 * 1024


def add_batch_commands(commands: Any) -> None:
    """Add `batch write` and `batch read` to the command line's subparsers."""
    batch = commands.add_parser(
        "batch",
        help="write a provider's batch input files, or read its result file",
        description="Batch files for a provider's batch API: 'batch write' turns a JSONL "
        "file of conversations into its input files, split at its per-file limits; "
        "'batch read' prints its result file.",
    )
    actions = batch.add_subparsers(dest="action", metavar="ACTION", required=True)
    write = actions.add_parser(
        "write",
        help="write batch input files from a JSONL file of conversations",
        description='Read FILE, one conversation per line as {"id": ..., "messages": '
        "[...]} (message dicts), and write the provider's batch input files to DIR as "
        "PREFIX-00001.jsonl, ..., a new file at each per-file limit. Local files the messages "
        "name are read only under --base-dir (default: FILE's folder). A progress bar is "
        "drawn on stderr when it is a terminal; each file written is printed.",
    )
    write.add_argument("file", metavar="FILE", help="the conversations, JSONL")
    write.add_argument("--provider", required=True, choices=names(), metavar="P", help="provider")
    write.add_argument(
        "--out", required=True, type=_directory, metavar="DIR", help="where to write"
    )
    write.add_argument("--model", help="the model (named in each request where the API wants it)")
    write.add_argument(
        "--param",
        action="append",
        default=[],
        type=_param,
        metavar="KEY=VALUE",
        help="a request field for every request (VALUE is JSON, else text), e.g. "
        "max_tokens=1024; repeatable",
    )
    write.add_argument("--prefix", default="batch", help="the files' name prefix (batch)")
    write.add_argument("--max-requests", type=int, metavar="N", help="fewer requests per file")
    write.add_argument("--max-bytes", type=int, metavar="N", help="fewer bytes per file")
    write.add_argument(
        "--base-dir", type=Path, metavar="DIR", help="where the messages' local files may be"
    )
    write.add_argument("--workers", type=int, metavar="N", help="worker processes (all cores)")
    write.add_argument(
        "--on-loss",
        choices=("warn", "drop", "error"),
        default="warn",
        help="what the provider cannot carry",
    )
    write.add_argument("--json", action="store_true", help="print one JSON object per file")
    read = actions.add_parser(
        "read",
        help="print a provider's batch result file",
        description="Read FILE, the provider's batch result JSONL, and print each request's "
        "id and answer, or its error. Exit 1 when any request has an error.",
    )
    read.add_argument("file", metavar="FILE", help="the result file, JSONL")
    read.add_argument("--provider", required=True, choices=names(), metavar="P", help="provider")
    read.add_argument(
        "--json", action="store_true", help="print one JSON object per request (message dicts)"
    )


def _directory(text: str) -> Path:
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty; give a directory (a missing one is made)")
    return Path(text)


def _param(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def run_batch(args: argparse.Namespace) -> int:
    """Run `batch write` or `batch read`; return the exit status."""
    return _write(args) if args.action == "write" else _read(args)


def _conversations(path: Path, base: Path) -> Iterator[tuple[str, list[Message]]]:
    """Yield `(id, messages)` from the JSONL file, one line at a time, each line bounded."""
    with path.open("rb") as file:
        for number, line in enumerate(iter(lambda: file.readline(MAX_INPUT_LINE + 1), b""), 1):
            where = f"{shown(path)} line {number}"
            if len(line) > MAX_INPUT_LINE:
                raise InvalidMedia(f"{where}: over {MAX_INPUT_LINE:,} bytes")
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except (ValueError, RecursionError) as exc:
                raise InvalidMedia(f"{where}: not JSON ({type(exc).__name__})") from exc
            if not isinstance(record, dict) or not isinstance(record.get("messages"), list):
                raise InvalidMedia(f'{where}: expected {{"id": ..., "messages": [...]}}')
            custom_id = record.get("id")
            if isinstance(custom_id, int) and not isinstance(custom_id, bool):
                custom_id = str(custom_id)
            if not isinstance(custom_id, str) or not custom_id:
                raise InvalidMedia(f'{where}: "id" must be a non-empty string or a number')
            try:
                messages = [message_from_dict(m, base_dir=base) for m in record["messages"]]
            except BlockedPath as exc:  # its words name the Python call; say the option
                raise InvalidMedia(
                    f"{where}: {said(exc)}; files are read only under --base-dir {shown(str(base))}"
                ) from exc
            except MediaError as exc:
                raise InvalidMedia(f"{where}: {said(exc)}") from exc
            yield custom_id, messages


def _count(path: Path) -> int | None:
    """Count the file's lines (for the bar), a megabyte at a time; None when it is not a
    regular file: a pipe or `/dev/stdin` can be read only once, and that read is the work's."""
    try:
        regular = stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return None  # the open in _conversations reports it
    if not regular:
        return None
    lines = 0
    last = b"\n"
    with path.open("rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    return lines + (last != b"\n")  # a last line without its newline counts too


class _Bar:
    """A progress bar on stderr, drawn only when stderr is a terminal."""

    _WIDTH = 24

    def __init__(self, total: int | None) -> None:
        self.total = None if total is None else max(total, 1)
        self.shown = sys.stderr.isatty()

    def __call__(self, done: int) -> None:
        if not self.shown:
            return
        if self.total is None:  # no total known: the count alone
            sys.stderr.write(f"\r\x1b[K{done:,} requests")
        else:
            filled = self._WIDTH * min(done, self.total) // self.total
            bar = "#" * filled + "-" * (self._WIDTH - filled)
            sys.stderr.write(f"\r\x1b[K[{bar}] {done:,}/{self.total:,} requests")
        sys.stderr.flush()

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _write(args: argparse.Namespace) -> int:
    problem = out_problem(args.out)
    if problem:
        print(f"mediaparts batch write: error: --out {shown(args.out)}: {problem}", file=sys.stderr)
        return 2
    path = Path(args.file)
    base = args.base_dir if args.base_dir is not None else path.resolve().parent
    bar = _Bar(_count(path))
    try:
        files = write_batch(
            _conversations(path, base),
            args.provider,
            args.out,
            model=args.model,
            params=dict(args.param),
            prefix=args.prefix,
            max_requests=args.max_requests,
            max_bytes=args.max_bytes,
            workers=args.workers,
            progress=bar,
            on_loss=args.on_loss,
        )
    finally:
        bar.done()
    for f in files:
        if args.json:
            print(json.dumps({"path": str(f.path), "requests": f.requests, "bytes": f.bytes}))
        else:
            print(f"{shown(f.path)}: {f.requests:,} requests, {f.bytes:,} bytes")
    if not args.json:
        total = sum(f.requests for f in files)
        print(f"mediaparts: {total:,} requests in {len(files)} file(s)", file=sys.stderr)
    return 0


def _read(args: argparse.Namespace) -> int:
    failed = 0
    for result in read_batch_results(Path(args.file), args.provider):
        failed += not result.ok
        print(json.dumps(_as_json(result)) if args.json else _as_line(result))
    return 1 if failed else 0


def _error(result: BatchResult) -> dict[str, Any] | None:
    error = result.error
    if error is None:
        return None
    if isinstance(error, BatchError):
        return {"code": error.code, "message": error.message, "status": error.status}
    return {"code": type(error).__name__, "message": said(error), "status": None}


def _as_json(result: BatchResult) -> dict[str, Any]:
    message = result.message.to_dict() if result.message is not None else None
    return {
        "id": result.custom_id,
        "line": result.line,
        "message": message,
        "error": _error(result),
    }


def _as_line(result: BatchResult) -> str:
    name = shown(result.custom_id) if result.custom_id is not None else f"(line {result.line})"
    error = _error(result)
    if error is not None:
        status = f" ({error['status']})" if error["status"] is not None else ""
        return f"{name}: error: {error['code']}{status}: {shown(error['message'])}"
    assert result.message is not None
    return f"{name}: {shown(result.message.content)}"
