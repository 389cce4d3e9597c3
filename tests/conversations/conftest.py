"""The corpus suite runs through user-registered twins of the built-in providers too.

Each twin is one registration (`mp.providers.register`) on the built-in's wire with its rules,
quirks, file store and batch envelope: what a provider on an existing wire is. The suite's
tests then read, render and carry every corpus conversation through the twins as through the
built-ins, so a wire that still wrote its first provider's name (a `native` key, a
`ProviderPart.provider`, a check) would fail them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

import mediaparts as mp
from tests.conversations._corpus import PROVIDERS, TWINS


@pytest.fixture(autouse=True, scope="package")
def _twins() -> Iterator[None]:
    """Register a twin of each built-in provider while this package's tests run."""
    for provider in PROVIDERS:
        built_in = mp.providers.get(provider)
        mp.providers.register(
            TWINS[provider],
            wire=built_in.wire,
            # Its file store is the built-in's (as a deployment of the same API shares it).
            rules=dataclasses.replace(built_in.rules, file_store=built_in.rules.store),
            files=built_in.files,
            batch_request=built_in.batch_request,
            batch_result=built_in.batch_result,
            quirks=built_in.quirks,
            replace=True,
        )
    try:
        yield
    finally:
        for twin in TWINS.values():
            mp.providers.unregister(twin)
