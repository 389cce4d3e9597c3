"""`python -m mediaparts` runs the command line."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

import mediaparts


def test_main_module_runs_the_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """python -m mediaparts --help prints the CLI's help and exits 0."""
    monkeypatch.setattr(sys, "argv", ["mediaparts", "--help"])
    # By path: pytest's import hook (it rewrites the plugin mediaparts.testing) cannot give
    # runpy.run_module the package's code.
    main = Path(mediaparts.__file__).with_name("__main__.py")
    with pytest.raises(SystemExit) as exited:
        runpy.run_path(str(main), run_name="__main__")
    assert exited.value.code == 0
    assert "inspect" in capsys.readouterr().out
