"""Run one hostile input through one entry point in a child process, and measure what it cost.

The bound this checks (issue 10, docs/robustness.md): over every entry point, no input of at
most 1 MB takes more than 2 s of CPU or 200 MB of memory above the decoded-pixel budget the
docs state, and only `mediaparts.MediaError` escapes.

Each run is a fresh interpreter (`python -m tests.robustness.limits_harness CHILD-JSON`), so one case's
caches, imports and heap never count against the next. The child imports mediaparts and warms
its lazy imports, builds or reads its input, then measures each call on its own:

- CPU: `getrusage(RUSAGE_SELF)` user + system, before and after the call (all threads), plus
  `RUSAGE_CHILDREN` (the renderers' child processes).
- Memory: the peak RSS after the call minus the RSS just before it. The peak is the kernel's
  `VmHWM`, reset to the current RSS before each call by writing 5 to `/proc/self/clear_refs`
  (Linux 4.0+). Not `ru_maxrss`: it also counts the peak of the process image before `exec`,
  the parent's, which can be larger than anything the case does. Pillow allocates pixels
  outside Python's allocator, so `tracemalloc` would not see them.
- What escaped: the exception's type, or none.

Limits make a runaway fail cleanly instead of taking the machine with it: `RLIMIT_AS` at the
address space after import plus the bound plus slack (a `MemoryError` then, reported as such),
`RLIMIT_CPU` a few seconds past the CPU bound for each call (the kernel's SIGXCPU), and a
parent-side wall clock that kills the child (a hang: a FIFO read, a stalled lock). When a
child is killed, the parent charges the call with the CPU time `wait4` reports and the last
`VmHWM` it polled from `/proc/<pid>/status`, less what the child reported before the call.

Used by tests/robustness/test_limits.py (the small set, in CI) and fuzz/limits.py (the large set, by hand).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.robustness.limits_entries import ENTRIES, Upload

ROOT = Path(__file__).resolve().parents[2]
MB = 2**20
CPU_BOUND = 2.0  # seconds of CPU per call (issue 10, "Done when")
RSS_BOUND = 200 * MB  # bytes of peak RSS growth per call, above the case's pixel allowance
# Bytes a decoded pixel may take: RGBA, the widest mode fitting converts to. docs/robustness.md
# states the budget this way: a 170-megapixel RGBA image "about 680 MB".
BYTES_PER_PIXEL = 4
MAX_INPUT = 1 * MB  # the bound is for inputs of at most 1 MB
# Address space granted above the import baseline, the bound and the allowance: enough for
# glibc arenas, thread stacks and the codecs' own buffers, so hitting it means a real overrun.
AS_SLACK = 512 * MB
CPU_BACKSTOP = 5.0  # kill a call this many CPU seconds past its start (well past the bound)
WALL_LIMIT = 20.0  # seconds of wall clock per call, on top of start-up: hangs only
START_LIMIT = 30.0  # wall-clock allowance for the child's start-up (imports, warm-up, input)

__all__ = [
    "CPU_BOUND",
    "ENTRIES",
    "RSS_BOUND",
    "Case",
    "Outcome",
    "Result",
    "limits_supported",
    "run_case",
]


# ---------------------------------------------------------------------------- cases


@dataclass(frozen=True)
class Case:
    """One hostile input for one entry point, with what it may cost.

    Attributes:
        name: Unique and stable, e.g. `pdf-digits/detect`; `-k` selects it in pytest.
        entry: A key of `ENTRIES`.
        data: The input's bytes, built in the parent (so a builder's own memory never counts),
            or a function that builds them when the case runs (collection stays fast).
        build: Or the name of a builder in `limits_corpus.CHILD_BUILDERS`, run in the child
            before measuring: for inputs that are Python objects (message dicts nested
            100,000 deep) or that must exist on the child's side (a FIFO).
        options: Passed to the entry point (file name, declared type, accept, providers).
        pixels: Pixels the case may legitimately decode (the documented budget); 0 for input
            that must be refused before decoding. Adds `pixels * BYTES_PER_PIXEL` to the
            memory bound.
        refused: The case must end in a `MediaError` (or exit status 1 for the CLI), not an
            answer: a local file named by an untrusted dict, bytes nobody can identify.
        ci: In the small set that tests/robustness/test_limits.py runs.
    """

    name: str
    entry: str
    data: bytes | Callable[[], bytes] | None = None
    build: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    pixels: int = 0
    refused: bool = False
    ci: bool = False

    def input_bytes(self) -> bytes | None:
        """The input's bytes (built now if need be), or None when the child builds it."""
        return self.data() if callable(self.data) else self.data

    @property
    def rss_limit(self) -> int:
        """The most peak-RSS growth a call may show."""
        return RSS_BOUND + self.pixels * BYTES_PER_PIXEL


@dataclass
class Outcome:
    """What one call in the child did."""

    call: str
    cpu: float = 0.0
    rss: int = 0  # peak RSS growth in bytes
    error: str | None = None  # qualified name of the exception that escaped
    media_error: bool = False
    message: str = ""
    killed: str | None = None  # why the parent or the kernel ended the child during this call


@dataclass
class Result:
    """A case's outcomes, and every way it broke the bound (empty when it held)."""

    case: Case
    outcomes: list[Outcome]
    problems: list[str]
    stderr: str = ""

    def describe(self) -> str:
        """Say which case, which entry point, what was measured and which bound broke."""
        lines = [f"{self.case.name} ({self.case.entry}):"]
        lines += [f"  - {problem}" for problem in self.problems]
        for o in self.outcomes:
            escaped = f", raised {o.error}" if o.error else ""
            killed = f", KILLED: {o.killed}" if o.killed else ""
            lines.append(
                f"    {o.call}: cpu {o.cpu:.2f} s, rss +{o.rss / MB:.0f} MB{escaped}{killed}"
            )
        if self.stderr.strip() and self.problems:
            lines.append("  stderr (tail): " + self.stderr.strip()[-800:])
        return "\n".join(lines)


def limits_supported() -> bool:
    """Whether this platform has what the harness needs (Linux: RLIMIT_AS, wait4, /proc)."""
    return sys.platform == "linux" and hasattr(os, "wait4")


# ---------------------------------------------------------------------------- the child


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def peak_rss(pid: int | str = "self") -> int:
    """Return the process's peak RSS in bytes since start or the last reset (`VmHWM`), or 0."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:  # the process is gone
        pass
    return 0


def _reset_peak_rss() -> None:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # "5": reset the peak RSS (Documentation/filesystems/proc.rst)


def _vm_size() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * resource.getpagesize()


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    # And the child processes waited for (the SVG and PDF renderers): their work is the call's.
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime + children.ru_utime + children.ru_stime


def _warm_up() -> None:
    """Import what the entry points import lazily, so no call pays for an import."""
    from PIL import Image

    import mediaparts as mp
    import mediaparts.cli
    import mediaparts.imaging

    Image.init()
    png = io.BytesIO()
    Image.new("RGB", (2, 2)).save(png, "PNG")
    photo = mp.part(png.getvalue())
    for provider in mp.providers.names():
        mp.normalize(photo, provider)
        if mp.providers.get(provider).rules.vision:  # else NoDocumentedRule, by design
            mp.estimate_tokens(photo, provider)
        mp.render([mp.User(["x", photo])], provider)
        # The first count loads the provider's tokenizer (o200k_base: ~1 s, ~130 MB), a
        # once-per-process cost like an import, not the work of the case measured after it.
        mp.count_tokens([mp.User(["x", photo])], provider)
    mp.message_from_dict({"role": "user", "content": "x"})
    mp.from_upload(Upload(png.getvalue(), "a.png", "image/png"))


def child_main(spec: dict[str, Any]) -> None:
    """Run one case's calls and write one JSON line per event to `spec["report"]`."""
    report = open(spec["report"], "a", buffering=1)  # noqa: SIM115  # open for the whole run

    def emit(**event: Any) -> None:
        report.write(json.dumps(event) + "\n")

    _warm_up()
    if spec.get("build"):
        from tests.robustness.limits_corpus import CHILD_BUILDERS

        value: Any = CHILD_BUILDERS[spec["build"]](Path(spec["workdir"]))
    else:
        value = Path(spec["input"]).read_bytes() if spec["entry"] != "cli" else spec["input"]
    options = spec["options"]
    if options.get("as_text"):  # a string input: a data URI, base64 text
        value = value.decode("ascii")
    import mediaparts as mp

    headroom = _vm_size() + spec["rss_limit"] + AS_SLACK
    resource.setrlimit(resource.RLIMIT_AS, (headroom, headroom))
    warnings.simplefilter("error")  # a warning is a finding too, as in the test suite
    for call, run in ENTRIES[spec["entry"]](value, options):
        start_cpu = _cpu()
        # Raising the soft limit up to the hard one is allowed; each call gets its own budget.
        resource.setrlimit(
            resource.RLIMIT_CPU, (int(start_cpu + spec["cpu_backstop"]) + 1, resource.RLIM_INFINITY)
        )
        _reset_peak_rss()
        start_rss = _rss()
        emit(event="start", call=call, cpu=start_cpu, rss=start_rss)
        error: BaseException | None = None
        error_message = ""
        try:
            result = run()
        except (Exception, RecursionError, MemoryError) as exc:
            error = exc
        else:
            if isinstance(result, int):  # the CLI's exit status
                error_message = f"exit {result}"
            del result
        peak = peak_rss()
        emit(
            event="end",
            call=call,
            cpu=_cpu() - start_cpu,
            rss=max(0, peak - start_rss),
            error=None if error is None else f"{type(error).__module__}.{type(error).__qualname__}",
            media_error=isinstance(error, mp.MediaError),
            message=error_message if error is None else str(error)[:300],
        )
    emit(event="done")
    report.close()


# ---------------------------------------------------------------------------- the parent


def _child_env() -> dict[str, str]:
    import mediaparts

    src = str(Path(mediaparts.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([src, str(ROOT), env.get("PYTHONPATH", "")])
    env["MEDIAPARTS_OFFLINE"] = "1"  # nothing here may reach the network
    return env


def _wait(pid: int, report: Path, wall_limit: float) -> tuple[int, Any, bool, int]:
    """Reap `pid`, killing it when start-up or one call outlasts its wall clock.

    Returns:
        The wait status, the child's rusage, whether the parent killed it, and the last peak
        RSS polled from it (what a killed child can no longer report).
    """
    deadline = time.monotonic() + START_LIMIT
    seen = 0
    peak = 0
    while True:
        peak = peak_rss(pid) or peak
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            return status, usage, False, peak
        size = report.stat().st_size
        if size != seen:  # a call started or ended: its own wall clock starts now
            seen = size
            deadline = time.monotonic() + wall_limit
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
            return status, usage, True, peak
        time.sleep(0.02)


def _read_events(path: Path) -> list[dict[str, Any]]:
    events = []
    for line in path.read_text().splitlines():
        with contextlib.suppress(json.JSONDecodeError):  # a line cut by a kill
            events.append(json.loads(line))
    return events


def run_case(
    case: Case,
    workdir: Path,
    *,
    cpu_backstop: float = CPU_BACKSTOP,
    wall_limit: float = WALL_LIMIT,
) -> Result:
    """Run `case` in a fresh child process under limits; return what it cost and what broke.

    Args:
        case: The case.
        workdir: A private folder for the input file and the child's report.
        cpu_backstop: CPU seconds after which the kernel ends a call (SIGXCPU).
        wall_limit: Wall-clock seconds per call after which the parent kills the child.
    """
    folder = Path(tempfile.mkdtemp(prefix="case-", dir=workdir))
    report = folder / "report.jsonl"
    report.touch()
    spec: dict[str, Any] = {
        "entry": case.entry,
        "options": dict(case.options),
        "rss_limit": case.rss_limit,
        "cpu_backstop": cpu_backstop,
        "report": str(report),
        "workdir": str(folder),
        "build": case.build,
        "input": None,
    }
    data = case.input_bytes()
    if data is not None:
        if len(data) > MAX_INPUT:
            raise ValueError(f"{case.name}: {len(data):,} bytes, over the 1 MB the bound covers")
        # The CLI takes a path; keep a name with the case's extension so it reads as a file would.
        name = Path(str(case.options.get("filename") or "input")).name
        (folder / name).write_bytes(data)
        spec["input"] = str(folder / name)
    spec_path = folder / "spec.json"
    spec_path.write_text(json.dumps(spec))
    stderr_path = folder / "stderr.txt"
    with stderr_path.open("wb") as stderr:
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.robustness.limits_harness", str(spec_path)],
            cwd=ROOT,
            env=_child_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,  # the CLI prints its report; only the events matter
            stderr=stderr,
        )
        status, usage, timed_out, peak = _wait(child.pid, report, wall_limit)
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    stderr_text = stderr_path.read_text(errors="replace")
    return _judge(case, _read_events(report), status, usage, timed_out, peak, stderr_text)


def _judge(
    case: Case,
    events: list[dict[str, Any]],
    status: int,
    usage: Any,
    timed_out: bool,
    peak: int,
    stderr: str,
) -> Result:
    outcomes: list[Outcome] = []
    problems: list[str] = []
    started: dict[str, Any] | None = None
    for event in events:
        if event["event"] == "start":
            started = event
        elif event["event"] == "end":
            started = None
            outcomes.append(
                Outcome(
                    call=event["call"],
                    cpu=event["cpu"],
                    rss=event["rss"],
                    error=event["error"],
                    media_error=event["media_error"],
                    message=event["message"],
                )
            )
    finished = any(event["event"] == "done" for event in events)
    if started is not None:  # ended inside a call: charge the child's whole rusage to it
        if timed_out:
            why = "killed by the parent's wall clock (a hang, or a loaded machine if CPU is high)"
        elif os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            why = "CPU backstop hit (SIGXCPU)" if sig == signal.SIGXCPU else f"signal {sig}"
        else:
            why = f"exited with status {os.waitstatus_to_exitcode(status)}"
        outcomes.append(
            Outcome(
                call=started["call"],
                cpu=usage.ru_utime + usage.ru_stime - started["cpu"],
                rss=max(0, peak - started["rss"]),
                killed=why,
            )
        )
        problems.append(f"{started['call']}: {why}")
    elif not finished:
        why = "hung" if timed_out else f"status {os.waitstatus_to_exitcode(status)}"
        problems.append(f"the child failed before its first call ({why}); see stderr")
    for o in outcomes:
        if o.cpu > CPU_BOUND:
            problems.append(f"{o.call}: {o.cpu:.2f} s of CPU, over the {CPU_BOUND:.0f} s bound")
        if o.rss > case.rss_limit:
            problems.append(
                f"{o.call}: peak RSS grew {o.rss / MB:.0f} MB, over the bound of "
                f"{case.rss_limit / MB:.0f} MB (200 MB + {case.pixels:,} px x {BYTES_PER_PIXEL} B)"
            )
        if o.error and not o.media_error:
            problems.append(f"{o.call}: {o.error} escaped ({o.message[:160]}); only MediaError may")
    if case.refused and finished:
        if case.entry == "cli":
            accepted = [o.call for o in outcomes if o.error is None and o.message != "exit 1"]
        else:
            accepted = [o.call for o in outcomes if o.error is None]
        if accepted:
            problems.append(f"accepted by {', '.join(accepted)}; it must be refused (MediaError)")
    return Result(case, outcomes, problems, stderr)


if __name__ == "__main__":
    child_main(json.loads(Path(sys.argv[1]).read_text()))
