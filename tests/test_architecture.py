"""The import rules of `src/mediaparts`, checked by reading the source (nothing is imported).

Every module under `src/mediaparts` is parsed with `ast`, and everything in it that imports a
module of the package is collected, at module level, inside functions (lazy imports) and inside
`if TYPE_CHECKING:` blocks:

- `import a.b`, `import a.b as x`, `from a import b`, `from . import b` (relative);
- an attribute reached through an imported module: after `import a.b`, `a.b._c.f` imports
  `a.b._c`, and `a.b._f` takes the private name `_f` of `a.b`;
- a constant string that names a module of src (`"a.b"`, or `"a.b:name"`), wherever it stands
  outside a docstring: a lazy table (`_LAZY` or any other name), the provider registry's
  `_BUILT_IN`, an `importlib.import_module(...)` or `__import__(...)` argument. A string that
  only looks like a module path (a PDF's author field) ends its line with `# not an import`.
  A path built at run time (an f-string) cannot be read here: write module paths out whole.

Which imports count for which rule:

- (a) No import cycle between modules. Module-level and lazy (in-function) imports count: a
  lazy import that dodges a cycle at load time is still a cycle in the design. `TYPE_CHECKING`
  imports do not (they never run), nor do the string paths of `mediaparts/__init__.py`, the
  one documented exception (its lazy facade names every public name's module, by design).
- (b) No import of another package's private module or private name: `a.b._c` (a module, or a
  name defined in `a/b/__init__.py` or in a module of `a.b`) may be imported only by a module
  inside package `a.b`. A private folder groups its package's modules: `a.b._f._c` belongs to
  `a.b` too. Every import counts.
- (c) No import of a higher layer (`LAYERS`, lowest first; a layer imports only itself and the
  layers below it). Every import counts.
- (d) No module over `MAX_LINES` lines.
- (e) No two modules define a top-level class of the same name (one name per concept).
- (g) No wire names a provider (`providers/wires/<wire>/`): it imports no provider's package
  (`mediaparts.providers.openai`, ...), and no string in it outside docstrings names a
  provider, a provider's company or its models (`PROVIDER_WORDS`). A wire takes the provider
  it serves as an argument (`Served`) and writes `served.name` where a name goes.
- (f) A package's `__init__` lists in `__all__` what users may rely on; a name it imports only
  for the other packages of mediaparts (an internal export) is imported as `name as name` and
  named in its docstring, so each export is either a promise or visibly not one.

A module `from pkg import name` imports `pkg.name` when that is a module, else `pkg`; the
implicit import of parent packages (`a.b` runs `a/__init__.py`) is not counted.
"""

from __future__ import annotations

import ast
import functools
import re
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
        frozenset({"mediaparts._errors", "mediaparts._inline", "mediaparts._surrogates"})
        | frozenset({"mediaparts._models"})
        | frozenset(
            {
                "mediaparts._conversation._reprs",
                "mediaparts._conversation._json_data",
                "mediaparts._conversation._construct",
            }
        )
        | frozenset({"mediaparts._lazy"})
        | frozenset({"mediaparts._paths"})
        | frozenset({"mediaparts._boundary"})
        | frozenset({"mediaparts.errors"}),
    ),
    ("formats", frozenset({"mediaparts.formats"})),
    ("detection", frozenset({"mediaparts.detection"})),
    ("imaging", frozenset({"mediaparts.imaging"})),
    ("converting", frozenset({"mediaparts.converting"})),
    ("fetching", frozenset({"mediaparts.fetching"})),
    (
        "parts",
        frozenset(
            {
                "mediaparts._sources",
                "mediaparts._conversation._dialogue",
                "mediaparts._conversation._constructors",
                "mediaparts._conversation._mediapart",
                "mediaparts._conversation._parts",
                "mediaparts._conversation._make_part",
                "mediaparts._conversation._message_content",
                "mediaparts._conversation._made",
                "mediaparts._conversation._messages",
                "mediaparts._conversation._merge",
                "mediaparts._upload",
                "mediaparts._clienthints",
                "mediaparts._conversation._summary",
                "mediaparts._conversation._descriptors",
                "mediaparts._conversation._stamps",
                "mediaparts._conversation._show",
                "mediaparts._conversation._filter",
                "mediaparts._conversation._tool_pairs",
                "mediaparts._configure",
                "mediaparts._conversation",  # the folder of the parts and messages modules
            }
        ),
    ),
    (
        "providers",
        frozenset({"mediaparts.providers", "mediaparts.batch", "mediaparts.tokens"})
        | frozenset({"mediaparts.pricing"}),
    ),
    ("uploading", frozenset({"mediaparts.uploading"})),
    (
        "tools",
        frozenset(
            {
                "mediaparts",
                "mediaparts.testing",
                "mediaparts.cli",
                "mediaparts.cli._conversations",
                "mediaparts.cli._files",
                "mediaparts.cli._urls",
                "mediaparts.__main__",
                "mediaparts.cli._batch",
                "mediaparts.distributed",
            }
        ),
    ),
)

# The documented lazy facade: its `_LAZY` names every public name's module (rule (a) skips it).
FACADE = "mediaparts"

# Violations being fixed, each by its key (see `Violation.key`); empty when all rules hold.
KNOWN: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Import:
    """One import's target, as found in a module."""

    source: str  # the importing module
    target: str  # the imported module
    line: int
    lazy: bool  # inside a function
    type_only: bool  # inside `if TYPE_CHECKING:`
    facade: bool  # a constant string naming the module (a lazy table, `import_module`, ...)
    name: str = ""  # the name taken from the module, when it is not a module itself


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


def _targets(
    node: ast.Import | ast.ImportFrom, module: str, is_package: bool
) -> Iterator[tuple[str, str]]:
    """Each (module, name taken from it) the statement imports; name is "" for a module."""
    known = _modules()
    if isinstance(node, ast.Import):
        yield from ((alias.name, "") for alias in node.names)
        return
    base = _resolve(module, is_package, node)
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        yield (sub, "") if sub in known else (base, alias.name)


def _bindings(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> dict[str, str]:
    """The local names a statement binds to modules of src: local name -> module."""
    known = _modules()
    if isinstance(node, ast.Import):
        return {
            (alias.asname or alias.name.split(".")[0]): (
                alias.name if alias.asname else alias.name.split(".")[0]
            )
            for alias in node.names
        }
    base = _resolve(module, is_package, node)
    return {
        (alias.asname or alias.name): f"{base}.{alias.name}"
        for alias in node.names
        if f"{base}.{alias.name}" in known
    }


def _dotted(node: ast.Attribute) -> list[str] | None:
    """`a.b.c` as ["a", "b", "c"], or None when the chain does not start at a name."""
    parts: list[str] = []
    current: ast.expr = node
    while isinstance(current, ast.Attribute):
        parts.append(current.attr)
        current = current.value
    if not isinstance(current, ast.Name):
        return None
    return [current.id, *reversed(parts)]


def _through_attributes(chain: list[str], bound: str) -> tuple[str, str]:
    """The deepest module of src an attribute chain reaches, and the name it takes from it."""
    known = _modules()
    module, rest = bound, chain[1:]
    while rest and f"{module}.{rest[0]}" in known:
        module, rest = f"{module}.{rest[0]}", rest[1:]
    return module, rest[0] if rest else ""


def _string_path(value: str) -> str | None:
    """The module of src a constant string names (`"a.b"` or `"a.b:name"`), if any."""
    path = value.split(":", 1)[0]
    return path if path in _modules() else None


def _docstring_ids(tree: ast.Module) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


NOT_AN_IMPORT = "# not an import"


def _imports_of(module: str, path: Path) -> list[Import]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text, filename=str(path))
    is_package = path.name == "__init__.py"
    docstrings = _docstrings(tree)
    bound: dict[str, str] = {}  # local name -> module of src, from every import statement
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            bound.update(
                (name, target)
                for name, target in _bindings(node, module, is_package).items()
                if target == ROOT or target.startswith(ROOT + ".")
            )
    found: list[Import] = []

    def visit(node: ast.AST, lazy: bool, type_only: bool) -> None:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for target, name in _targets(node, module, is_package):
                if target == ROOT or target.startswith(ROOT + "."):
                    found.append(Import(module, target, node.lineno, lazy, type_only, False, name))
            return
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for statement in node.body:
                visit(statement, lazy, True)
            for statement in node.orelse:
                visit(statement, lazy, type_only)
            return
        if isinstance(node, ast.Attribute):
            chain = _dotted(node)
            if chain and chain[0] in bound:
                target, name = _through_attributes(chain, bound[chain[0]])
                found.append(Import(module, target, node.lineno, lazy, type_only, False, name))
                return  # the chain's inner attributes are the same reach, shorter
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and not lines[node.lineno - 1].rstrip().endswith(NOT_AN_IMPORT)
        ):
            path_target = _string_path(node.value)
            if path_target is not None:
                found.append(Import(module, path_target, node.lineno, lazy, type_only, True))
        inner = lazy or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for child in ast.iter_child_nodes(node):
            visit(child, inner, type_only)

    visit(tree, False, False)
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
    """The package whose private module `target` is, or None if public.

    The owner is the nearest public package above it: a private folder groups its package's
    modules (`a.b._f._c` belongs to `a.b`, like `a.b._c`).
    """
    parts = target.split(".")
    owner = None
    for index, part in enumerate(parts):
        private = part.startswith("_") and not part.startswith("__")
        previous = parts[index - 1] if index else ""
        if private and not (previous.startswith("_") and not previous.startswith("__")):
            owner = ".".join(parts[:index])
    return owner


def _private_reach(imp: Import) -> tuple[str, str] | None:
    """(the private thing imported, the package it belongs to), or None if it is public.

    A private module `a.b._c` belongs to `a.b`; so does a private name `_f` defined in
    `a/b/__init__.py`, or in a module `a/b/m.py` of that package.
    """
    owner = _private_owner(imp.target)
    if owner is not None:
        return imp.target, owner
    if imp.name.startswith("_") and not imp.name.startswith("__"):
        path = _modules().get(imp.target)
        is_module = path is not None and path.name != "__init__.py"
        holder = imp.target.rpartition(".")[0] if is_module else imp.target
        return f"{imp.target}.{imp.name}", holder
    return None


def _private_violations(imports: list[Import]) -> Iterator[Violation]:
    for imp in imports:
        reach = _private_reach(imp)
        if reach is None:
            continue
        thing, owner = reach
        if imp.source == owner or imp.source.startswith(owner + "."):
            continue
        yield Violation(
            "private",
            imp.source,
            thing,
            _where(imp),
            f"import the name from the public package `{owner}` (export it there if it is "
            f"not yet), not the private `{thing}`",
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
        *_duplicate_violations(modules),
        *_export_violations(modules),
    ]
    return list(dict.fromkeys(found))  # one report per place, however many names it imports


def _report(violations: list[Violation]) -> str:
    return "\n".join(map(str, violations))


def _class_names(modules: dict[str, Path]) -> dict[str, list[str]]:
    """Each top-level class name -> the modules that define one."""
    found: dict[str, list[str]] = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(module)
    return found


def _duplicate_violations(modules: dict[str, Path]) -> Iterator[Violation]:
    for name, where in sorted(_class_names(modules).items()):
        if len(where) > 1:
            yield Violation(
                "duplicate",
                f"class {name}",
                ", ".join(where),
                ", ".join(str(modules[m].relative_to(SRC.parent)) for m in where),
                "one name per concept: rename all but one of them after what each is",
            )


def _declared_all(tree: ast.Module) -> set[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            return set(value) if isinstance(value, list) else None
    return None


def _export_violations(modules: dict[str, Path]) -> Iterator[Violation]:
    """A package's `__init__` name outside `__all__` must be marked an internal export."""
    for module, path in modules.items():
        if path.name != "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        public, doc = _declared_all(tree), ast.get_docstring(tree) or ""
        if public is None:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.module == "__future__":
                continue
            base = _resolve(module, True, node)
            if not (base == ROOT or base.startswith(ROOT + ".")):
                continue  # `typing`'s names and the like are not exports
            for alias in node.names:
                name = alias.asname or alias.name
                if name.startswith("_") or name in public or f"{base}.{alias.name}" in modules:
                    continue
                if alias.asname == alias.name and f"`{name}`" in doc:
                    continue
                yield Violation(
                    "exports",
                    module,
                    name,
                    f"{path.relative_to(SRC.parent)}:{node.lineno}",
                    f"list `{name}` in `__all__` if users may rely on it; if only the other "
                    f"packages of mediaparts use it, import it as `{name} as {name}` and name it "
                    "in the package docstring's internal exports",
                )


@pytest.mark.slow  # each case parses and walks every module of src
@pytest.mark.parametrize("rule", ["cycle", "private", "layer", "size", "duplicate", "exports"])
def test_architecture_rule_holds(rule: str) -> None:
    """No module of src/mediaparts breaks the rule, apart from the KNOWN ones."""
    found = [v for v in _violations() if v.rule == rule and v.key not in KNOWN]
    assert not found, f"{len(found)} {rule} violation(s):\n{_report(found)}"


@pytest.mark.slow  # parses and walks every module of src
def test_architecture_known_list_is_current() -> None:
    """Every KNOWN violation still exists (a fixed one is taken off the list)."""
    keys = {v.key for v in _violations()}
    stale = sorted(KNOWN - keys)
    assert not stale, f"fixed, so remove from KNOWN in tests/test_architecture.py: {stale}"


WIRES = SRC / ROOT / "providers" / "wires"
# Words that name a provider, its company or its models: none belongs in a wire's code.
PROVIDER_WORDS = re.compile(
    r"\b(openai|anthropic|gemini|google|bedrock|aws|amazon|azure|vertex|claude|gpt|nova)\b",
    re.IGNORECASE,
)


def _provider_packages() -> set[str]:
    """The built-in providers' packages, read from the registry's `_BUILT_IN` table."""
    tree = ast.parse((SRC / ROOT / "providers" / "_registry.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "_BUILT_IN" for t in node.targets
        ):
            assert isinstance(node.value, ast.Dict)
            return {
                v.value
                for v in node.value.values
                if isinstance(v, ast.Constant) and isinstance(v.value, str)
            }
    raise AssertionError("providers/_registry.py has no _BUILT_IN table")


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring constants of a module and its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _wire_violations(path: Path) -> Iterator[str]:
    """Where a wire module names a provider: an import of its package, or a word in a string."""
    providers = _provider_packages()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstring_ids(tree)
    where = path.relative_to(SRC.parent)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += (
                [f"{node.module}.{a.name}" for a in node.names]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                if any(name == p or name.startswith(f"{p}.") for p in providers):
                    yield f"{where}:{node.lineno}: imports the provider package {name}"
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
        ):
            found = PROVIDER_WORDS.search(node.value)
            if found:
                yield f"{where}:{node.lineno}: the string {node.value[:60]!r} names {found[0]!r}"


@pytest.mark.parametrize(
    "wire", sorted(p.name for p in WIRES.iterdir() if p.is_dir() and (p / "__init__.py").exists())
)
def test_architecture_no_wire_names_a_provider(wire: str) -> None:
    """A wire imports no provider's package and names no provider outside its docstrings."""
    found = [v for path in sorted((WIRES / wire).rglob("*.py")) for v in _wire_violations(path)]
    assert not found, (
        f"{len(found)} place(s) where the wire names a provider (take the provider served as "
        "an argument and write served.name; put provider facts in its rules or quirks):\n"
        + "\n".join(found)
    )


SAMPLE_PACKAGE = {
    "mediaparts/__init__.py": '_LAZY = {"x": "mediaparts.b"}\n',
    "mediaparts/_errors.py": "import mediaparts.detection\n",
    "mediaparts/detection/__init__.py": "",
    "mediaparts/a.py": "from mediaparts import b\n",
    "mediaparts/b.py": "def f() -> None:\n    from mediaparts import a\n",
    "mediaparts/c.py": (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from mediaparts.d import _e\n"
    ),
    "mediaparts/d/__init__.py": "_HIDDEN = 1\n",
    "mediaparts/d/_e.py": (
        "from mediaparts.d import _f, _HIDDEN\nfrom . import _f as again\nimport mediaparts.d\n"
        "Y = mediaparts.d._HIDDEN\n"
    ),
    "mediaparts/d/_f.py": "",
    # A private folder of `d`: its modules belong to `d`, so `d.x` may import them, `t` not.
    "mediaparts/d/_g/__init__.py": "",
    "mediaparts/d/_g/_h.py": "",
    "mediaparts/d/x.py": "from mediaparts.d._g import _h\n",
    "mediaparts/t.py": "import mediaparts.d._g._h\n",
    # Each form of import that is not an import statement (rule (b) names each one).
    "mediaparts/g.py": 'import importlib\nM = importlib.import_module("mediaparts.d._e")\n',
    "mediaparts/h.py": 'def f() -> object:\n    return __import__("mediaparts.d._f")\n',
    "mediaparts/i.py": "import mediaparts.d\nX = mediaparts.d._e.X\n",
    "mediaparts/j.py": "from mediaparts.d import _HIDDEN\nfrom mediaparts import d\nZ = d._HIDDEN\n",
    "mediaparts/k.py": (
        '"""mediaparts.d._e"""\n_TABLE = {"x": "mediaparts.d._f:X"}\n'
        'AUTHOR = "mediaparts.d._e"  # not an import\nLABEL = "mediaparts.d._nothing"\n'
    ),
    # A registry of module paths closes a cycle like an import statement.
    "mediaparts/m.py": '_BUILT_IN = {"n": "mediaparts.n"}\n',
    "mediaparts/n.py": "import mediaparts.m\n",
    # An export outside `__all__`, unmarked (rule (f)); the marked one is fine.
    "mediaparts/s/__init__.py": (
        '"""Internal export: `kept`."""\n__all__ = ["f"]\n'
        "from mediaparts.s._t import f, stray\nfrom mediaparts.s._t import kept as kept\n"
    ),
    "mediaparts/s/_t.py": "def f() -> None: ...\ndef stray() -> None: ...\nkept = 1\n",
    # Two classes of one name in two modules (rule (e)).
    "mediaparts/p.py": "class Probe:\n    pass\n",
    "mediaparts/q.py": "def f() -> None:\n    class Local: ...\nclass Probe: ...\n",
    "mediaparts/r.py": "class Local: ...\n",
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
    """A cycle closed by an import inside a function, or by a table of module paths, is
    reported, naming the modules."""
    cycles = list(_cycle_violations(_all_imports()))
    assert [v.key for v in cycles] == [
        "cycle: mediaparts.a -> mediaparts.b -> mediaparts.a",
        "cycle: mediaparts.m -> mediaparts.n -> mediaparts.m",
    ]
    assert "mediaparts/b.py:2" in str(cycles[0])
    assert "mediaparts/m.py:1" in str(cycles[1])


def test_architecture_finds_every_form_of_private_import(sample: Path) -> None:
    """Another package's private module or name is reported whatever the form of the import
    (TYPE_CHECKING, `import_module`, `__import__`, an attribute, a string in a table); a
    sibling's (absolute or relative), a docstring and a `# not an import` string are not."""
    found = sorted((v.key, v.where.split("/", 1)[1]) for v in _private_violations(_all_imports()))
    assert found == [
        ("private: mediaparts.c -> mediaparts.d._e", "mediaparts/c.py:3"),
        ("private: mediaparts.g -> mediaparts.d._e", "mediaparts/g.py:2"),
        ("private: mediaparts.h -> mediaparts.d._f", "mediaparts/h.py:2"),
        ("private: mediaparts.i -> mediaparts.d._e", "mediaparts/i.py:2"),
        ("private: mediaparts.j -> mediaparts.d._HIDDEN", "mediaparts/j.py:1"),
        ("private: mediaparts.j -> mediaparts.d._HIDDEN", "mediaparts/j.py:3"),
        ("private: mediaparts.k -> mediaparts.d._f", "mediaparts/k.py:2"),
        ("private: mediaparts.t -> mediaparts.d._g._h", "mediaparts/t.py:1"),
    ]


def test_architecture_finds_an_upward_import_and_a_module_with_no_layer(sample: Path) -> None:
    """A lower layer importing a higher one is reported, and so is a module in no layer."""
    found = [v.key for v in _layer_violations(_all_imports())] + [
        v.key for v in _unlayered(_modules())
    ]
    assert "layer: mediaparts._errors -> mediaparts.detection" in found
    assert "mediaparts.a" in found


def test_architecture_facade_table_counts_as_imports(sample: Path) -> None:
    """A string naming a module of src counts as an import of it, whatever table holds it."""
    strings = [(imp.source, imp.target) for imp in _all_imports() if imp.facade]
    assert strings == [
        ("mediaparts", "mediaparts.b"),
        ("mediaparts.g", "mediaparts.d._e"),
        ("mediaparts.h", "mediaparts.d._f"),
        ("mediaparts.k", "mediaparts.d._f"),
        ("mediaparts.m", "mediaparts.n"),
    ]


def test_architecture_finds_two_classes_of_one_name(sample: Path) -> None:
    """Two modules defining a top-level class of the same name are reported (a class local
    to a function is not)."""
    assert [v.key for v in _duplicate_violations(_modules())] == [
        "duplicate: class Probe -> mediaparts.p, mediaparts.q"
    ]


def test_architecture_finds_an_unmarked_export(sample: Path) -> None:
    """A package's name outside `__all__` is reported unless marked an internal export."""
    assert [v.key for v in _export_violations(_modules())] == ["exports: mediaparts.s -> stray"]
