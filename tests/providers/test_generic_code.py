"""Generic provider code never names a provider: it reads what provider modules declare."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import mediaparts.providers

PACKAGE = Path(mediaparts.providers.__file__).parent
ROOT = PACKAGE.parent
# The modules that serve every provider (_registry.py holds the table of built-ins, the one
# place that lists them).
# Its shared modules, at its top and in its private folders (_fitting, _budgets, ...).
GENERIC = sorted(
    p.relative_to(PACKAGE).as_posix()
    for p in [*PACKAGE.glob("_*.py"), *PACKAGE.glob("_*/_*.py")]
    if p.name not in ("__init__.py", "_registry.py")
    and p.stem.lstrip("_") not in ("vision", "tokenizer")
)
# Outside providers/, the modules that serve every provider too: messages, summaries, the CLI
# and the testing toolkit read what provider modules declare, as generic code does.
SERVING = [
    "_conversation/_messages.py",
    "_conversation/_summary.py",
    "cli/_main.py",
    *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "testing").glob("*.py")),
]
# _vision.py holds the geometry classes, named after the formula's author (OpenAITiles, ...),
# which any provider may use: its code must still not branch on a provider's name. So does
# _tokenizer.py, which loads the [tokens] extra (bpe-openai, named after the encodings' author)
# for whichever provider's text rule names an encoding.
WORDS = ("openai", "anthropic", "gemini", "bedrock", "claude", "gpt")


def _named(path: Path) -> list[str]:
    """Return the string constants and identifiers of a module, docstrings left out."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                found.append(node.value)
        elif isinstance(node, ast.Name):
            found.append(node.id)
        elif isinstance(node, ast.Attribute):
            found.append(node.attr)
        elif isinstance(node, ast.alias):
            found.append(node.name)
    return found


@pytest.mark.parametrize("name", [*GENERIC, "_budgets/_vision.py", "_budgets/_tokenizer.py"])
def test_generic_code_names_no_provider(name: str) -> None:
    """No code (docstrings aside) of a generic module names a provider or its models."""
    words = [
        w
        for w in _named(PACKAGE / name)
        for word in WORDS
        if word in w.lower()
        and not (name == "_budgets/_vision.py" and w[:1].isupper())
        and not (name == "_budgets/_tokenizer.py" and "bpe" in w.lower())
    ]
    assert words == [], f"{name} names {words}"


@pytest.mark.parametrize("name", SERVING)
def test_generic_code_outside_providers_names_no_provider(name: str) -> None:
    """Messages, summaries, the CLI and the testing toolkit name no provider outside docstrings."""
    words = [w for w in _named(ROOT / name) for word in WORDS if word in w.lower()]
    assert words == [], f"{name} names {words}"
