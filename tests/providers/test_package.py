"""The public face of `mediaparts.providers`: every exported name resolves, lazily where heavy."""

from __future__ import annotations

import importlib
import subprocess
import sys
from typing import get_args

import pytest

import mediaparts as mp
import mediaparts.providers as providers

OPERATIONS = (
    "Violation",
    "anormalize",
    "arender",
    "check",
    "estimate_tokens",
    "normalize",
    "normalize_many",
    "render",
)


def test_providers_all_is_sorted_and_every_name_resolves() -> None:
    """`__all__` is sorted, each name loads (lazily or not), and `dir()` lists them all."""
    assert providers.__all__ == sorted(providers.__all__)
    for name in providers.__all__:
        assert getattr(providers, name) is not None, name
    assert set(providers.__all__) <= set(dir(providers))


@pytest.mark.parametrize("name", OPERATIONS)
def test_providers_operation_is_the_facades(name: str) -> None:
    """`mediaparts` re-exports each operation from `mediaparts.providers`, the same object."""
    assert getattr(mp, name) is getattr(providers, name)


def test_providers_unknown_name_is_an_attribute_error() -> None:
    """A name the package does not export raises AttributeError naming it."""
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        getattr(providers, "nonesuch")  # noqa: B009 - the lookup is the test


def test_providers_lookup_leaves_the_operations_unloaded() -> None:
    """Looking a provider up loads neither the operations' modules nor asyncio."""
    code = (
        "import sys, mediaparts as mp; mp.providers.get('openai'); "
        "print(sorted(m for m in ('asyncio', 'mediaparts.providers._fitting._normalize') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("name", ["openai", "openai-responses", "anthropic", "gemini", "bedrock"])
def test_each_built_in_provider_names_itself_in_its_tables(name: str) -> None:
    """Each package's `_tables` holds `PROVIDER`, its RULES' name and its record's."""
    tables = importlib.import_module(f"mediaparts.providers.{name.replace('-', '_')}._tables")
    assert tables.PROVIDER == tables.RULES.provider == mp.providers.get(name).name == name


@pytest.mark.parametrize(
    "wire", ["chat_completions", "responses", "messages", "generate_content", "converse"]
)
def test_each_wire_names_its_stop_reasons(wire: str) -> None:
    """Each wire's `STOP_REASONS` maps its API's values to one of `StopReason`: one vocabulary,
    defined once, on the wire (every provider on it stops the same way)."""
    reasons = importlib.import_module(f"mediaparts.providers.wires.{wire}").STOP_REASONS
    assert reasons
    assert set(reasons.values()) <= set(get_args(mp.StopReason))
