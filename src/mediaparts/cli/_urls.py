"""The command line and URLs: `--allow-private`, and refusals worded for the command line.

The fetch policy refuses loopback and private-network hosts by default (docs/fetching.md);
`--allow-private` lifts that for one run of a command, as `FetchPolicy(allow_private=True)`
does for a program. Cloud-metadata addresses stay refused either way.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
from collections.abc import Iterator

from mediaparts import fetching
from mediaparts._errors import MediaError

__all__ = ["add_allow_private", "allowing_private", "said"]

_POLICY_OPTION = "FetchPolicy(allow_private=True)"
_FLAG = "--allow-private"


def add_allow_private(command: argparse.ArgumentParser) -> None:
    """Add `--allow-private` to a command that may fetch URLs."""
    command.add_argument(
        _FLAG,
        action="store_true",
        help="let URLs reach loopback and private-network hosts (a local dev server)",
    )


@contextlib.contextmanager
def allowing_private(allowed: bool) -> Iterator[None]:
    """Let fetches reach private hosts while the block runs, when `allowed` (the command line
    may run inside a program, or a test: nothing outside the block sees it)."""
    if not allowed:
        yield
        return
    # Scoped to this run (this thread or task), not set for the process: other threads of a
    # program that runs the command line keep their policy.
    with fetching.using_policy(dataclasses.replace(fetching.default_policy(), allow_private=True)):
        yield


def said(error: MediaError) -> str:
    """Return an error's message for the command line: the policy's hint names the flag."""
    return str(error).replace(_POLICY_OPTION, _FLAG)
