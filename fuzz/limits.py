"""Run the limits harness by hand: the small set (as CI does) or the large set, and print a table.

Each case runs in its own child process under address-space, CPU and wall-clock limits and
must stay within issue 10's bound: at most 2 s of CPU and 200 MB of peak RSS growth above the
case's decoded-pixel budget, with only `MediaError` escaping. See docs/robustness.md.

    python fuzz/limits.py                    # the small set, as CI runs it (tests/robustness/)
    python fuzz/limits.py --large -j 2       # hundreds of cases, two children at a time
    python fuzz/limits.py --large -k jpeg --cpu-backstop 600 --wall-limit 900   # full costs
    python fuzz/limits.py --large --json results.json

Exit status: 0 when every case held, 1 when any broke the bound.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the corpus and harness live in tests/

from tests.robustness.limits_corpus import large_set, small_set  # noqa: E402  # after the path is set
from tests.robustness.limits_harness import (  # noqa: E402
    CPU_BACKSTOP,
    MB,
    WALL_LIMIT,
    Case,
    Result,
    limits_supported,
    run_case,
)


def _row(result: Result) -> str:
    worst_cpu = max((o.cpu for o in result.outcomes), default=0.0)
    worst_rss = max((o.rss for o in result.outcomes), default=0)
    status = "FAIL" if result.problems else "ok"
    escaped = sorted({o.error.rsplit(".", 1)[-1] for o in result.outcomes if o.error})
    return (
        f"{status:4}  {result.case.name:58}  cpu {worst_cpu:7.2f} s  rss +{worst_rss / MB:6.0f} MB"
        f"  (bound {result.case.rss_limit / MB:.0f} MB)  {', '.join(escaped)}"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the chosen cases and print one row each, then every failure in full."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--large", action="store_true", help="the large set (default: small)")
    parser.add_argument("-k", action="append", default=[], help="only cases whose name has this")
    parser.add_argument("-j", type=int, default=1, help="children at a time (CPU is per child)")
    parser.add_argument("--cpu-backstop", type=float, default=CPU_BACKSTOP)
    parser.add_argument("--wall-limit", type=float, default=WALL_LIMIT)
    parser.add_argument("--json", type=Path, help="also write every measurement to this file")
    args = parser.parse_args(argv)
    if not limits_supported():
        print("the harness needs Linux (RLIMIT_AS, /proc, wait4)", file=sys.stderr)
        return 2
    cases = large_set() if args.large else small_set()
    if args.k:
        cases = [case for case in cases if any(word in case.name for word in args.k)]
    print(f"{len(cases)} cases", file=sys.stderr)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mp-limits-") as folder:

        def one(case: Case) -> Result:
            return run_case(
                case,
                Path(folder),
                cpu_backstop=args.cpu_backstop,
                wall_limit=args.wall_limit,
            )

        results = []
        with ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
            for result in pool.map(one, cases):
                print(_row(result), flush=True)
                results.append(result)
    failed = [r for r in results if r.problems]
    for result in failed:
        print("\n" + result.describe())
    print(
        f"\n{len(results) - len(failed)} held, {len(failed)} broke the bound "
        f"({time.monotonic() - started:.0f} s)",
        file=sys.stderr,
    )
    if args.json:
        records = [
            {
                "case": r.case.name,
                "entry": r.case.entry,
                "rss_limit": r.case.rss_limit,
                "problems": r.problems,
                "outcomes": [asdict(o) for o in r.outcomes],
            }
            for r in results
        ]
        args.json.write_text(json.dumps(records, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
