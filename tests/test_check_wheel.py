""".ci/check_wheel.py: what counts as an import when it walks the wheel's modules."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

KNOWN = {"mediaparts", "mediaparts.providers", "mediaparts.providers.anthropic"}


def _check_wheel() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / ".ci" / "check_wheel.py"
    spec = importlib.util.spec_from_file_location("check_wheel", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ('_BUILT_IN = {"anthropic": "mediaparts.providers.anthropic"}', KNOWN),
        ('"""Rules live in mediaparts.providers.anthropic."""', set()),
        ('def f() -> None:\n    """See mediaparts.providers.anthropic."""', set()),
        ('NAME = "anthropic"', set()),
        ("from mediaparts.providers import anthropic", KNOWN),
    ],
)
def test_check_wheel_counts_dotted_paths_in_code_only(source: str, found: set[str]) -> None:
    """A module's dotted path in code is an import; a docstring or a bare word is not."""
    imported = _check_wheel().imported_modules("mediaparts.x", "mediaparts", source, KNOWN)
    assert imported == found
