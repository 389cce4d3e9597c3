"""Generated parts of docs/ match the code: the providers' rules table and the CLI's help.

Run with MEDIAPARTS_UPDATE_GOLDEN=1 to rewrite them after a deliberate change.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
from pathlib import Path

import pytest

from mediaparts.cli import main

DOCS = Path(__file__).resolve().parent.parent / "docs"
# The docs generator is a script of the repository, not part of the wheel.
_SPEC = importlib.util.spec_from_file_location(
    "provider_table", DOCS.parent / "scripts" / "provider_table.py"
)
assert _SPEC is not None and _SPEC.loader is not None
provider_table = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(provider_table)


def _block(path: Path, name: str, generated: str) -> None:
    """Compare (or, when updating, rewrite) the text between a doc's start and end markers."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    text = path.read_text()
    pattern = re.compile(re.escape(start) + r"\n.*?" + re.escape(end), re.S)
    assert pattern.search(text), f"{path.name} has no {start} ... {end} block"
    wanted = f"{start}\n{generated}{end}"
    if os.environ.get("MEDIAPARTS_UPDATE_GOLDEN") == "1":
        path.write_text(pattern.sub(lambda _: wanted, text))
        return
    assert pattern.search(text).group(0) == wanted, (  # type: ignore[union-attr]
        f"{path.name} is out of date; rerun with MEDIAPARTS_UPDATE_GOLDEN=1"
    )


def test_docs_providers_table_is_generated() -> None:
    """docs/providers.md holds the table generated from the rule objects."""
    _block(DOCS / "providers.md", "rules", provider_table.rules_markdown() + "\n")


@pytest.mark.parametrize("command", [[], ["inspect"], ["normalize"], ["render"]])
def test_docs_cli_help_is_current(command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cli.md shows each command's --help as the code prints it."""
    monkeypatch.setenv("COLUMNS", "80")  # argparse wraps help to the terminal's width
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main([*command, "--help"])
    name = "help-" + ("-".join(command) or "main")
    _block(DOCS / "cli.md", name, "```text\n" + out.getvalue() + "```\n")
