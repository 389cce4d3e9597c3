"""The public face of `mediaparts.fetching`: every exported name resolves, nothing else does."""

from __future__ import annotations

import subprocess
import sys

import pytest

import mediaparts.fetching as fetching


def test_fetching_all_is_sorted_and_every_name_resolves() -> None:
    """`__all__` is sorted, each name loads (lazily or not), and `dir()` lists them all."""
    assert fetching.__all__ == sorted(fetching.__all__)
    for name in fetching.__all__:
        assert getattr(fetching, name) is not None, name
    assert set(fetching.__all__) <= set(dir(fetching))


def test_fetching_unknown_name_is_an_attribute_error() -> None:
    """A name the package does not export raises AttributeError naming it."""
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        fetching.nonesuch  # noqa: B018 - the lookup is the test


def test_fetching_import_leaves_httpx_unloaded() -> None:
    """Importing the package (as `import mediaparts` does) does not import httpx."""
    code = "import sys, mediaparts.fetching; print('httpx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
