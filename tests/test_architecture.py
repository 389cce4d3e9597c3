"""The import rules of `src/mediaparts`, checked by reading the source (nothing is imported).

Every module under `src/mediaparts` is parsed with `ast`, and every `import` and `from ...
import` in it is collected: at module level, inside functions (lazy imports) and inside
`if TYPE_CHECKING:` blocks. A package's lazy facade (the `_LAZY` table its `__getattr__` reads,
as in `mediaparts/__init__.py`) counts as imports of the modules it names. Which imports count
for which rule:

- (a) No import cycle between modules. Module-level and lazy (in-function) imports count: a
  lazy import that dodges a cycle at load time is still a cycle in the design. `TYPE_CHECKING`
  imports do not (they never run), nor does the lazy facade of `mediaparts/__init__.py`, the
  one documented exception (it names every public name's module, by design).
- (b) No import of another package's private module: `a.b._c` may be imported only by a module
  inside package `a.b`. Every import counts.
- (c) No import of a higher layer (`LAYERS`, lowest first; a layer imports only itself and the
  layers below it). Every import counts.
- (d) No module over `MAX_LINES` lines.

A module `from pkg import name` imports `pkg.name` when that is a module, else `pkg`; the
implicit import of parent packages (`a.b` runs `a/__init__.py`) is not counted.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
ROOT = "mediaparts"
MAX_LINES = 500

# The layers, lowest first. A module belongs to the first entry that names it or one of its
# packages; a layer imports only its own layer and those below it.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    (
        "base",
        frozenset({"mediaparts._errors", "mediaparts._fields", "mediaparts._inline"})
        | frozenset({"mediaparts._lazy"})
        | frozenset({"mediaparts._paths"}),
    ),
    ("formats", frozenset({"mediaparts.formats"})),
    ("detection", frozenset({"mediaparts.detection"})),
    ("imaging", frozenset({"mediaparts.imaging"})),
    ("fetching", frozenset({"mediaparts.fetching"})),
    (
        "parts",
        frozenset(
            {
                "mediaparts._sources",
                "mediaparts._mediapart",
                "mediaparts._parts",
                "mediaparts._build",
                "mediaparts._messages",
                "mediaparts._upload",
                "mediaparts._clienthints",
                "mediaparts._summary",
            }
        ),
    ),
    ("providers", frozenset({"mediaparts.providers"})),
    (
        "tools",
        frozenset({"mediaparts", "mediaparts.testing", "mediaparts.cli", "mediaparts.__main__"}),
    ),
)

# The documented lazy facade: its `_LAZY` names every public name's module (rule (a) skips it).
FACADE = "mediaparts"

# Violations being fixed, each by its key (see `Violation.key`); empty when all rules hold.
KNOWN: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Import:
    """One import statement's target, as found in a module."""

    source: str  # the importing module
    target: str  # the imported module
    line: int
    lazy: bool  # inside a function
    type_only: bool  # inside `if TYPE_CHECKING:`
    facade: bool  # named in a package's `_LAZY` table


@dataclass(frozen=True)
class Violation:
    """One broken rule: where, and how to fix it."""

    rule: str
    source: str
    target: str
    where: str
    fix: str

    @property
    def key(self) -> str:
        return f"{self.rule}: {self.source} -> {self.target}" if self.target else self.source

    def __str__(self) -> str:
        return f"{self.where}: {self.key}\n    fix: {self.fix}"


def _module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def _modules_under(src: Path) -> dict[str, Path]:
    return {_module_name(path, src): path for path in sorted((src / ROOT).rglob("*.py"))}


def _modules() -> dict[str, Path]:
    return _modules_under(SRC)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> Iterator[str]:
    known = _modules()
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = _resolve(module, is_package, node)
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        yield sub if sub in known else base


def _lazy_table(tree: ast.Module) -> Iterator[tuple[str, int]]:
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Dict):
            names = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(n, ast.Name) and n.id == "_LAZY" for n in names):
                for value in node.value.values:
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        yield value.value, value.lineno


def _imports_of(module: str, path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: list[Import] = []

    def visit(node: ast.AST, lazy: bool, type_only: bool) -> None:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for target in _targets(node, module, is_package):
                if target == ROOT or target.startswith(ROOT + "."):
                    found.append(Import(module, target, node.lineno, lazy, type_only, False))
            return
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for statement in node.body:
                visit(statement, lazy, True)
            for statement in node.orelse:
                visit(statement, lazy, type_only)
            return
        inner = lazy or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for child in ast.iter_child_nodes(node):
            visit(child, inner, type_only)

    visit(tree, False, False)
    found += [Import(module, t, line, True, False, True) for t, line in _lazy_table(tree)]
    return found


def _all_imports() -> list[Import]:
    return [imp for module, path in _modules().items() for imp in _imports_of(module, path)]


def _layer(module: str) -> int | None:
    for index, (_, members) in enumerate(LAYERS):
        # The root package is listed for its facade (`__init__`) alone, not for its modules.
        if any(module == m or (m != ROOT and module.startswith(m + ".")) for m in members):
            return index
    return None


def _where(imp: Import) -> str:
    return f"{_modules()[imp.source].relative_to(SRC.parent)}:{imp.line}"


def _private_owner(target: str) -> str | None:
    """The package whose private module `target` is (the deepest one), or None if public."""
    parts = target.split(".")
    owner = None
    for index, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            owner = ".".join(parts[:index])
    return owner


def _private_violations(imports: list[Import]) -> Iterator[Violation]:
    for imp in imports:
        owner = _private_owner(imp.target)
        if owner is None or imp.source == owner or imp.source.startswith(owner + "."):
            continue
        yield Violation(
            "private",
            imp.source,
            imp.target,
            _where(imp),
            f"import the name from the public package `{owner}` (export it there in "
            f"`__all__` if it is not yet), not from its private module `{imp.target}`",
        )


def _layer_violations(imports: list[Import]) -> Iterator[Violation]:
    for imp in imports:
        source, target = _layer(imp.source), _layer(imp.target)
        if source is None or target is None or target <= source:
            continue
        yield Violation(
            "layer",
            imp.source,
            imp.target,
            _where(imp),
            f"layer {LAYERS[source][0]!r} may not import layer {LAYERS[target][0]!r}: move "
            "what is needed down to the lower layer, or pass it in (a parameter, a registry)",
        )


def _unlayered(modules: dict[str, Path]) -> Iterator[Violation]:
    for module in modules:
        if _layer(module) is None:
            yield Violation(
                "layer",
                module,
                "",
                str(modules[module].relative_to(SRC.parent)),
                "the module belongs to no layer: add it (or its package) to LAYERS in "
                "tests/test_architecture.py",
            )


def _cycles(imports: list[Import]) -> list[list[Import]]:
    """Each cycle once, as the imports that make it, found by a depth-first search."""
    graph: dict[str, list[Import]] = {}
    for imp in imports:
        if imp.type_only or (imp.facade and imp.source == FACADE) or imp.source == imp.target:
            continue
        graph.setdefault(imp.source, []).append(imp)
    cycles: list[list[Import]] = []
    seen: set[frozenset[str]] = set()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[Import] = []

    def walk(module: str) -> None:
        state[module] = 1
        for imp in graph.get(module, []):
            if state.get(imp.target) == 1:
                start = next(i for i, step in enumerate(path) if step.source == imp.target)
                cycle = [*path[start:], imp] if path else [imp]
                members = frozenset(step.source for step in cycle)
                if members not in seen:
                    seen.add(members)
                    cycles.append(cycle)
            elif imp.target not in state:
                path.append(imp)
                walk(imp.target)
                path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            walk(module)
    return cycles


def _cycle_violations(imports: list[Import]) -> Iterator[Violation]:
    for cycle in _cycles(imports):
        chain = " -> ".join(step.target for step in cycle)  # the key adds the first module
        lines = ", ".join(f"{_where(step)}" for step in cycle)
        yield Violation(
            "cycle",
            cycle[0].source,
            chain,
            lines,
            "one of these imports must go: move the shared code into a module both can import, "
            "or let the lower module take what it needs as a parameter or through a registry "
            "(a lazy import inside a function is still a cycle)",
        )


def _size_violations(modules: dict[str, Path]) -> Iterator[Violation]:
    for module, path in modules.items():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            yield Violation(
                "size",
                module,
                "",
                str(path.relative_to(SRC.parent)),
                f"{lines} lines, over {MAX_LINES}: split it by concern into modules of its package",
            )


def _violations() -> list[Violation]:
    modules, imports = _modules(), _all_imports()
    found = [
        *_cycle_violations(imports),
        *_private_violations(imports),
        *_layer_violations(imports),
        *_unlayered(modules),
        *_size_violations(modules),
    ]
    return list(dict.fromkeys(found))  # one report per place, however many names it imports


def _report(violations: list[Violation]) -> str:
    return "\n".join(map(str, violations))


@pytest.mark.parametrize("rule", ["cycle", "private", "layer", "size"])
def test_architecture_rule_holds(rule: str) -> None:
    """No module of src/mediaparts breaks the rule, apart from the KNOWN ones."""
    found = [v for v in _violations() if v.rule == rule and v.key not in KNOWN]
    assert not found, f"{len(found)} {rule} violation(s):\n{_report(found)}"


def test_architecture_known_list_is_current() -> None:
    """Every KNOWN violation still exists (a fixed one is taken off the list)."""
    keys = {v.key for v in _violations()}
    stale = sorted(KNOWN - keys)
    assert not stale, f"fixed, so remove from KNOWN in tests/test_architecture.py: {stale}"


SAMPLE_PACKAGE = {
    "mediaparts/__init__.py": '_LAZY = {"x": "mediaparts.b"}\n',
    "mediaparts/_errors.py": "import mediaparts.detection\n",
    "mediaparts/detection/__init__.py": "",
    "mediaparts/a.py": "from mediaparts import b\n",
    "mediaparts/b.py": "def f() -> None:\n    from mediaparts import a\n",
    "mediaparts/c.py": (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from mediaparts.d import _e\n"
    ),
    "mediaparts/d/__init__.py": "",
    "mediaparts/d/_e.py": "from mediaparts.d import _f\nfrom . import _f as again\n",
    "mediaparts/d/_f.py": "",
}


@pytest.fixture
def sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small package whose imports break rules (a) and (b) in known ways."""
    for name, text in SAMPLE_PACKAGE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.setattr(f"{__name__}.SRC", tmp_path)
    return tmp_path


def test_architecture_finds_a_lazy_cycle(sample: Path) -> None:
    """A cycle closed by an import inside a function is reported, naming both modules."""
    cycles = list(_cycle_violations(_all_imports()))
    assert [v.key for v in cycles] == ["cycle: mediaparts.a -> mediaparts.b -> mediaparts.a"]
    assert "mediaparts/b.py:2" in str(cycles[0])


def test_architecture_finds_a_private_import_in_type_checking(sample: Path) -> None:
    """A TYPE_CHECKING import of another package's private module is reported; a sibling's
    private module (absolute or relative import) is not."""
    keys = [v.key for v in _private_violations(_all_imports())]
    assert keys == ["private: mediaparts.c -> mediaparts.d._e"]


def test_architecture_finds_an_upward_import_and_a_module_with_no_layer(sample: Path) -> None:
    """A lower layer importing a higher one is reported, and so is a module in no layer."""
    found = [v.key for v in _layer_violations(_all_imports())] + [
        v.key for v in _unlayered(_modules())
    ]
    assert "layer: mediaparts._errors -> mediaparts.detection" in found
    assert "mediaparts.a" in found


def test_architecture_facade_table_counts_as_imports(sample: Path) -> None:
    """The `_LAZY` table of a package's `__init__` counts as imports of the modules it names."""
    facade = [imp for imp in _all_imports() if imp.facade]
    assert [(imp.source, imp.target) for imp in facade] == [("mediaparts", "mediaparts.b")]
