"""benchmarks/run.py keeps running: a smoke test of the harness, never of the speed it measures."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

RUN = Path(__file__).resolve().parent.parent / "benchmarks" / "run.py"

pytestmark = pytest.mark.skipif(not RUN.is_file(), reason="benchmarks/ is not in this checkout")


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(RUN), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=None if env is None else {**os.environ, **env},
    )


def test_run_small_sections_print_a_table_of_ratios() -> None:
    """The cheap sections run at a tiny size and print one row each, with a baseline and ratio."""
    done = _run("--only", "base64,detect-path", "--base64-mib", "1", "--detect-mib", "1")
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    names = [row.split(" | ")[0].removeprefix("| ") for row in rows[1:]]
    assert names == [
        "to_base64 of 1 MiB",
        "to_base64 peak memory added, 1 MiB",
        "to_data_uri of 1 MiB",
        "to_data_uri peak memory added, 1 MiB",
        "detect() by path, 1 MiB file",
    ]
    assert all("×" in row.split(" | ")[3] for row in rows[1:])


def test_run_peer_requests_without_peers_keeps_our_rows(tmp_path: Path) -> None:
    """Without the peer environment, peers-requests still times ours, and says why alone."""
    done = _run(
        "--only",
        "peers-requests",
        "--requests-messages",
        "10",
        "--requests-photo",
        "64x48",
        "--repeat-requests",
        "1",
        env={
            "MEDIAPARTS_PEER_PYTHON": str(tmp_path / "no-python"),
            "MEDIAPARTS_BENCH_CACHE": str(tmp_path),
        },
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    names = [row.split(" | ")[0].removeprefix("| ") for row in rows]
    assert "render anthropic again, 20 messages with two 64x48 EXIF-rotated photos" in names
    assert "count_tokens, 10 text messages, openai (gpt-4o)" in names
    assert "peers: peer environment not installed" in done.stdout


def test_run_unknown_section_is_a_usage_error() -> None:
    """An unknown section name exits 2 and lists the sections there are."""
    done = _run("--only", "nonsense")
    assert done.returncode == 2
    assert "unknown sections ['nonsense']" in done.stderr
    assert "detection, base64, detect-path" in done.stderr
