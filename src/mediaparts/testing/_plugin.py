"""The plugin's fixtures and marker, registered by `mediaparts.testing.pytest_configure`.

Kept apart from `mediaparts.testing` so that importing that package needs no pytest (its
`summarize` and `describe` serve code outside tests too), and loaded only by pytest. The
fixtures import what they make on first use, so a session that asks for neither pays for
neither.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from mediaparts.testing._media import MediaFactory
    from mediaparts.testing._urls import MediaURLs

__all__ = ["MARKER_HELP", "media", "media_urls"]

_MARKER = "mediaparts"
_OPTIONS = {"assert_all_requested": True}

MARKER_HELP = (
    f"{_MARKER}(*, assert_all_requested=True): options of the media_urls fixture; "
    "assert_all_requested=False lets registered URLs go unrequested."
)


def _options(node: pytest.Item) -> dict[str, bool]:
    """Read the marker options; the marker closest to the test wins, option by option."""
    chosen: dict[str, object] = {}
    for marker in node.iter_markers(_MARKER):  # closest first
        if marker.args:
            pytest.fail(
                f"@pytest.mark.{_MARKER} takes keyword options only, got {marker.args!r}; "
                "write @pytest.mark.mediaparts(assert_all_requested=False)",
                pytrace=False,
            )
        chosen = {**marker.kwargs, **chosen}
    unknown = sorted(set(chosen) - set(_OPTIONS))
    if unknown:
        pytest.fail(
            f"@pytest.mark.{_MARKER} has no option {', '.join(map(repr, unknown))}; "
            f"its options are: {', '.join(_OPTIONS)}",
            pytrace=False,
        )
    options = dict(_OPTIONS)
    for name, value in chosen.items():
        if not isinstance(value, bool):
            pytest.fail(
                f"@pytest.mark.{_MARKER}({name}=...) takes True or False, got {value!r}",
                pytrace=False,
            )
        options[name] = value
    return options


@pytest.fixture
def media() -> MediaFactory:
    """Make deterministic media parts with real encoders (a `MediaFactory`).

    `media.image(640, 480, format="jpeg", orientation=6)`, `media.audio(2.0)`,
    `media.pdf(pages=3)`, `media.text("a,b\\n1,2\\n", format="csv")`.
    """
    from mediaparts.testing._media import MediaFactory

    return MediaFactory()


@pytest.fixture
def media_urls(request: pytest.FixtureRequest) -> Iterator[MediaURLs]:
    """Serve `media_urls.add(url, content)` to mediaparts fetches; refuse all other URLs.

    Fails the test at teardown if a registered URL was never requested, unless the test is
    marked `@pytest.mark.mediaparts(assert_all_requested=False)`.
    """
    from mediaparts.testing._urls import MediaURLs

    options = _options(request.node)
    urls = MediaURLs(assert_all_requested=options["assert_all_requested"])
    with urls.active():
        yield urls
    failure = urls._teardown_failure()
    if failure is not None:
        pytest.fail(failure, pytrace=False)
