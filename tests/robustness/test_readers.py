"""Provider payloads and responses are hostile input: readers fail only with our own errors.

Every corpus payload and response is mutated at every node, one node at a time (replaced by
a value of each other JSON type, or removed from its object), and read again: the reader may
accept the result or refuse it with an `mp.MediaError`, never with a bare `KeyError`,
`TypeError`, `AttributeError` or a Pillow error. Random JSON values are read too.
"""

from __future__ import annotations

import contextlib
import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mediaparts as mp
from tests.conversations._corpus import PROVIDERS, cases, load, path_of
from tests.robustness._mutations import mutated, paths

pytestmark = pytest.mark.slow  # every payload mutated at every node

# What each node is replaced by: one value of each JSON type, and an empty one of each.
_REPLACEMENTS: tuple[Any, ...] = (
    None,
    True,
    -1,
    1.5,
    10**30,
    "",
    "x",
    "a\ud800b",
    "a\n[9] system",
    [],
    {},
    [{}],
    {"type": 1},
)


def _read(kind: str, value: Any, provider: str) -> None:
    if kind == "requests":
        read = mp.messages_from(value, provider)
    else:
        read = [mp.message_from_response(value, provider)]
    try:  # whatever a reader makes, show prints it
        shown = mp.show(read)
    except mp.MediaError as exc:
        pytest.fail(f"mp.show refused what the {provider} reader made: {exc}")
    # and only its message headers start at column 0: no value read can fake one
    headers = [line for line in shown.split("\n") if line and not line.startswith(" ")]
    assert [h.split("  ")[0] for h in headers] == [f"[{n}] {m.role}" for n, m in enumerate(read, 1)]


@pytest.mark.parametrize(
    ("kind", "case"), [(k, c) for k in ("requests", "responses") for c in cases(k)]
)
def test_reader_refuses_every_mutation_with_our_errors(kind: str, case: tuple[str, str]) -> None:
    """Each node of a payload replaced or removed: read, or refused with a MediaError."""
    provider, name = case
    original = load(path_of(provider, kind, name))
    before = copy.deepcopy(original)
    for path in paths(original):
        for replacement in (*_REPLACEMENTS, ...):
            changed = mutated(original, path, replacement)
            try:
                _read(kind, changed, provider)
            except mp.MediaError:
                pass
            except Exception as exc:
                pytest.fail(f"{name} with {path} = {replacement!r}: {type(exc).__name__}: {exc}")
    _read(kind, original, provider)
    assert original == before  # nothing the caller passed is changed


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "role",
                    "content",
                    "type",
                    "text",
                    "parts",
                    "messages",
                    "input",
                    "contents",
                    "source",
                    "data",
                    "id",
                    "name",
                    "input",
                    "args",
                    "output",
                    "system",
                ]
            ),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(value=_JSON, provider=st.sampled_from(PROVIDERS))
def test_reader_refuses_random_json_with_our_errors(value: Any, provider: str) -> None:
    """Random JSON read as a payload or a response is read or refused with a MediaError."""
    for kind in ("requests", "responses"):
        with contextlib.suppress(mp.MediaError):
            _read(kind, value, provider)
