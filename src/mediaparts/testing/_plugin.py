"""The plugin's fixtures and marker, registered by `mediaparts.testing.pytest_configure`.

Kept apart from `mediaparts.testing` so that importing that package needs no pytest (its
`summarize` and `describe` serve code outside tests too), and loaded only by pytest. The
fixtures import what they make on first use, so a session that asks for neither pays for
neither. So does the assertion hook: a failed `==` between messages (or lists of them) is
explained with `mp.show` of both sides and a diff of the two texts.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from mediaparts._errors import excerpt

if TYPE_CHECKING:
    from mediaparts.testing._media import MediaFactory
    from mediaparts.testing._urls import MediaURLs

__all__ = ["MARKER_HELP", "media", "media_urls", "pytest_assertrepr_compare"]

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
                f"@pytest.mark.{_MARKER} takes keyword options only, got {excerpt(marker.args)}; "
                "write @pytest.mark.mediaparts(assert_all_requested=False)",
                pytrace=False,
            )
        chosen = {**marker.kwargs, **chosen}
    unknown = sorted(set(chosen) - set(_OPTIONS))
    if unknown:
        pytest.fail(
            f"@pytest.mark.{_MARKER} has no option {', '.join(map(excerpt, unknown[:5]))}; "
            f"its options are: {', '.join(_OPTIONS)}",
            pytrace=False,
        )
    options = dict(_OPTIONS)
    for name, value in chosen.items():
        if not isinstance(value, bool):
            pytest.fail(
                f"@pytest.mark.{_MARKER}({name}=...) takes True or False, got {excerpt(value)}",
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
    marked `@pytest.mark.mediaparts(assert_all_requested=False)`. A fetch policy the test
    configured is put back as it was before the test.
    """
    from mediaparts import fetching
    from mediaparts.testing._urls import MediaURLs

    options = _options(request.node)
    urls = MediaURLs(assert_all_requested=options["assert_all_requested"])
    configured = fetching.default_policy()
    try:
        with urls.active():
            yield urls
        failure = urls._teardown_failure()  # judged under the policy the test ended with
    finally:
        # A test that configured another fetch policy (allow_private=True, say) does not
        # leave it to the tests after it.
        if fetching.default_policy() is not configured:
            fetching.configure(fetch=configured)
    if failure is not None:
        pytest.fail(failure, pytrace=False)


# What a failed comparison shows of each side at most; pytest truncates long explanations
# itself unless run with -vv.
_SHOWN_TEXT = 500
# Longer conversations are compared only around their first differing message, this many
# messages either side (numbered from the window's start).
_AROUND = 5


def pytest_assertrepr_compare(op: str, left: Any, right: Any) -> list[str] | None:
    """Explain a failed `==` between messages, or lists of them, with `mp.show` and a diff."""
    if op != "==" or not (_conversation(left) and _conversation(right)) or not (left or right):
        return None
    import difflib

    from mediaparts import show

    heading = f"{_summary(left)} == {_summary(right)}"
    window = ""
    both = isinstance(left, list | tuple) and isinstance(right, list | tuple)
    if both and max(len(left), len(right)) > 2 * _AROUND:
        # A diff of two long conversations costs quadratic time: show only the messages
        # around the first one that differs.
        first = next(
            (i for i, (a, b) in enumerate(zip(left, right, strict=False)) if a != b),
            min(len(left), len(right)),
        )
        start = max(0, first - _AROUND)
        left, right = left[start : first + _AROUND], right[start : first + _AROUND]
        window = f" of messages {start} to {first + _AROUND - 1}, around message {first},"
    before, after = (show(side, max_text=_SHOWN_TEXT).splitlines() for side in (left, right))
    if before == after:  # they differ in what show leaves out (native hints, signatures, ...)
        return None  # pytest's own explanation shows those fields
    diff = difflib.unified_diff(before, after, "left", "right", n=2, lineterm="")
    return [
        heading,
        f"mp.show(){window} of both sides, diff (- left, + right):",
        *list(diff)[2:],  # the ---/+++ header says what the line above says
    ]


def _conversation(value: Any) -> bool:
    # No message was ever made (its module is not loaded): import nothing.
    if "mediaparts._conversation._messages" not in sys.modules:
        return False
    from mediaparts import Assistant, System, Tool, User

    messages = (System, User, Assistant, Tool)
    if isinstance(value, messages):
        return True
    return isinstance(value, list | tuple) and all(isinstance(m, messages) for m in value)


def _summary(value: Any) -> str:
    if isinstance(value, list | tuple):
        return f"[{len(value)} messages]"
    return f"{type(value).__name__}(...)"
