"""Dispatch on part kinds is exhaustive: a new kind or part class is a mypy error where unhandled.

Each test type-checks a copy of the package with one more media kind in `Kind` and one more
class in `Part`, and finds mypy's complaint in every place that dispatches on them (a `match`
ending in `assert_never`). A place missing from the complaints falls through silently for a new
kind: rewrite it as such a `match`, or, if it is new, add it to the tables below.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import mediaparts

pytestmark = pytest.mark.slow  # mypy --strict over a copy of the package, about 10 s

pytest.importorskip("mypy")

# (module, function) of each place that dispatches on a media kind (`Kind`) ...
KIND_SITES = [
    ("providers/_rules.py", "Rules.for_kind"),
    ("providers/_budgets/_rates.py", "media_tokens"),
    ("providers/_fitting/_normalize.py", "_prepare"),
    ("providers/_budgets/_estimate.py", "media_part_tokens"),
    ("providers/wires/chat_completions/_render.py", "_block"),
    ("providers/wires/responses/_render.py", "_media"),
    ("providers/wires/messages/_render.py", "_media"),
    ("providers/wires/converse/_shapes.py", "formats"),
    ("providers/wires/converse/_render_blocks.py", "_media"),
]
# ... and on the class of a message part (`Part`).
PART_SITES = [
    ("providers/_wire/_rendering.py", "parts"),
    ("providers/_budgets/_count_parts.py", "Counter.part"),
    ("_conversation/_show.py", "_part_lines"),
]

_ERROR = re.compile(r"^(?P<path>[^:\n]+\.py):(?P<line>\d+): error: (?P<message>.*)$", re.M)


def _patch(path: Path, pattern: str, replacement: str) -> None:
    """Rewrite one definition in the copy; fail loudly if it is no longer written that way."""
    text, count = re.subn(pattern, replacement, path.read_text(encoding="utf-8"), flags=re.M)
    assert count == 1, f"{path.name}: {pattern!r} no longer matches; update this test"
    path.write_text(text, encoding="utf-8")


def _function_at(tree: ast.Module, line: int) -> str:
    """Return the qualified name of the innermost function around `line`, or ``""``."""
    found = ""

    def visit(node: ast.AST, prefix: str) -> None:
        nonlocal found
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                end = child.end_lineno or child.lineno
                if child.lineno <= line <= end:
                    if not isinstance(child, ast.ClassDef):
                        found = name
                    visit(child, f"{name}.")

    visit(tree, "")
    return found


@pytest.fixture(scope="module")
def flagged(tmp_path_factory: pytest.TempPathFactory) -> set[tuple[str, str]]:
    """Return the (module, function) pairs where mypy finds a new kind or part unhandled."""
    root = tmp_path_factory.mktemp("widened")
    package = root / "mediaparts"
    shutil.copytree(
        Path(mediaparts.__file__).parent,
        package,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    _patch(
        package / "formats" / "_registry.py",
        r"^(Kind = Literal\[.*)\]$",
        r'\1, "hologram"]',
    )
    _patch(
        package / "_conversation" / "_parts.py",
        r"^Part: TypeAlias = \($",
        'class HologramPart(PartFields):\n    kind: Literal["hologram"] = "hologram"\n\n\n'
        "Part: TypeAlias = (\n    HologramPart |",
    )
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--python-version=3.10",
            "--ignore-missing-imports",
            f"--cache-dir={root / '.mypy_cache'}",
            "--no-error-summary",
            "mediaparts",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    trees: dict[str, ast.Module] = {}
    out: set[tuple[str, str]] = set()
    for error in _ERROR.finditer(run.stdout):
        if "Never" not in error["message"]:  # only what assert_never (or a Never) reports
            continue
        module = Path(error["path"]).relative_to("mediaparts").as_posix()
        if module not in trees:
            trees[module] = ast.parse((package / module).read_text(encoding="utf-8"))
        out.add((module, _function_at(trees[module], int(error["line"]))))
    assert out, f"mypy reported no unhandled kind at all:\n{run.stdout}{run.stderr}"
    return out


@pytest.mark.parametrize("site", KIND_SITES, ids=":".join)
def test_exhaustive_new_kind_is_type_error(
    site: tuple[str, str], flagged: set[tuple[str, str]]
) -> None:
    """A kind added to `Kind` is a mypy error in each place that dispatches on kinds."""
    assert site in flagged


@pytest.mark.parametrize("site", PART_SITES, ids=":".join)
def test_exhaustive_new_part_class_is_type_error(
    site: tuple[str, str], flagged: set[tuple[str, str]]
) -> None:
    """A class added to `Part` is a mypy error in each place that dispatches on part classes."""
    assert site in flagged
