"""fuzz/fuzz_messages.py builds message dicts from bytes and its plain runner keeps working."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

TARGET = Path(__file__).resolve().parents[2] / "fuzz" / "fuzz_messages.py"


@pytest.fixture(scope="module")
def target() -> Any:
    """The fuzz target, loaded as the plain runner does (never instrumented)."""
    saved = sys.argv
    sys.argv = ["fuzz_messages.py", "--plain"]
    try:
        spec = importlib.util.spec_from_file_location("fuzz_messages", TARGET)
        assert spec is not None and spec.loader is not None
        module: ModuleType = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.argv = saved
    return module


@pytest.mark.parametrize("data", [b"", b"\x00" * 64, bytes(range(256)), b"\xff" * 300])
def test_fuzz_messages_build_is_deterministic(target: Any, data: bytes) -> None:
    """The same bytes always make the same message dict, with a role."""
    assert target.build(data) == target.build(data)
    assert "role" in target.build(data)


def test_fuzz_messages_paths_stay_in_the_sandbox(target: Any) -> None:
    """Every path the target can write into a dict lies inside its own temporary folder."""
    for path in target.PATHS:
        resolved = (target.SANDBOX / path).resolve()
        assert resolved.is_relative_to(target.SANDBOX), path


def test_fuzz_messages_plain_runner_passes(
    target: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The plain runner's first 60 inputs raise only MediaError and read no local path."""
    monkeypatch.setattr(target, "STARTED_IN", tmp_path)  # where a failing input is saved
    monkeypatch.chdir(target.SANDBOX)
    sys.addaudithook(target._audit)  # inert unless an input is running
    assert target.run_plain(60) == 0
    assert list(tmp_path.iterdir()) == []
