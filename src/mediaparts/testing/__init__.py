"""Test vision prompts offline: a pytest plugin, loaded by pytest's `pytest11` entry point.

Fixtures:

- `media`: a `MediaFactory` making deterministic images, audio, PDFs and text files.
- `media_urls`: a `MediaURLs` serving registered URLs to every mediaparts fetch and refusing
  all others with `mp.OfflineError`; unused registrations fail the test at teardown.

Marker: `@pytest.mark.mediaparts(assert_all_requested=False)` lets registrations go unused.

Assertions: a failed `==` between messages (or lists of them) is explained with `mp.show` of
both sides and a diff of the two texts.

Functions: `assert_fits(payload, provider)` and `summarize(payload)` (for golden files).

Importing this module imports neither pytest, httpx nor Pillow and creates no client: pytest
imports it in every session of a project that has mediaparts installed, so it only registers
the marker and the fixtures (`_plugin`), and what they use loads when a test asks for them.
The names below load on first use, like those of `mediaparts` itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mediaparts._lazy import lazy_exports as _lazy_exports
from mediaparts._lazy import publish as _publish

if TYPE_CHECKING:  # loaded on first use (below); type checkers see them as plain imports
    import pytest

    from mediaparts._conversation._descriptors import describe
    from mediaparts._conversation._summary import summarize
    from mediaparts.testing._media import MediaFactory
    from mediaparts.testing._payload import assert_fits
    from mediaparts.testing._urls import MediaURLs

__all__ = ["MediaFactory", "MediaURLs", "assert_fits", "describe", "summarize"]

_LAZY = {
    "MediaFactory": "mediaparts.testing._media",
    "MediaURLs": "mediaparts.testing._urls",
    "assert_fits": "mediaparts.testing._payload",
    "describe": "mediaparts._conversation._descriptors",
    "summarize": "mediaparts._conversation._summary",
}


# No `__dir__` listing the lazy names: pytest reads every name `dir()` gives a plugin module,
# which would load them all in every session.
__getattr__ = _lazy_exports(__name__, _LAZY, globals())[0]


def pytest_configure(config: pytest.Config) -> None:
    """Register the `mediaparts` marker (so `--strict-markers` accepts it) and the fixtures."""
    from mediaparts.testing import _plugin

    config.addinivalue_line("markers", _plugin.MARKER_HELP)
    if not config.pluginmanager.is_registered(_plugin):
        config.pluginmanager.register(_plugin, "mediaparts.testing.fixtures")


_publish(__name__, globals(), __all__)
