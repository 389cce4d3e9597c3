"""Check what a built wheel holds: what users install, and nothing else.

Usage: python .ci/check_wheel.py DIST_DIR   (the folder holding exactly one mediaparts wheel)

- the version in the file name and in METADATA is `__version__` of src/mediaparts/__init__.py;
- `mediaparts/py.typed` is there (PEP 561), and the LICENSE under `.dist-info/licenses/`;
- the modules are exactly those of src/mediaparts: none missing, no tests, docs or build files;
- every module is reachable by imports from what users run (`import mediaparts`, the CLI, the
  `pytest11` entry point): a module nothing imports is dead or test-only code (issue 11: "nothing
  test-only in the wheel"), such as a docs generator that belongs beside the docs.
"""

from __future__ import annotations

import ast
import re
import sys
import zipfile
from email.parser import HeaderParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
# Where users come in: the package, `python -m mediaparts`, the console script, pytest11, and
# the public sub-module for Ray (imported by name, so that `import mediaparts` never loads Ray).
ENTRY_MODULES = (
    "mediaparts",
    "mediaparts.__main__",
    "mediaparts.cli",
    "mediaparts.testing",
    "mediaparts.distributed",
)
# Modules knowingly unreached for now, each with why (work in flight). The check fails once a
# listed module is reached or gone, so a stale line cannot linger.
IN_FLIGHT: dict[str, str] = {}
# Modules no import reaches because they run as a script in a child Python, each with the
# module that starts it by its file name (the child is reached when its launcher is, and the
# launcher must name the file).
RUN_AS_SCRIPTS: dict[str, str] = {
    "mediaparts.converting._pdf_child": "mediaparts.converting._pdf_render",
}


def source_version() -> str:
    """Return the literal `__version__` assigned in src/mediaparts/__init__.py."""
    tree = ast.parse((SRC / "mediaparts" / "__init__.py").read_text())
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and [getattr(t, "id", None) for t in node.targets] == ["__version__"]
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    raise SystemExit("src/mediaparts/__init__.py assigns no literal __version__")


def module_name(path: str) -> str:
    """Return the dotted module name of a wheel path such as mediaparts/a/__init__.py."""
    name = path.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


def imported_modules(name: str, package: str, source: str, known: set[str]) -> set[str]:
    """Return the known modules that module `name` imports anywhere (lazy imports included).

    A string constant in code that is a known module's full dotted path counts too: the lazy
    facades (`_LAZY` tables) and the provider registry import modules by that name. A bare
    word ("anthropic") or a docstring naming a module imports nothing, so neither counts.
    `package` is the package relative imports start from.
    """
    found: set[str] = set()
    tree = ast.parse(source)
    # A string standing alone as a statement is a docstring (of a module, class, function or
    # attribute): prose, never an import.
    prose = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                prefix = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{prefix}.{base}" if base else prefix
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in prose
            and "." in node.value
        ):
            targets = [node.value]
        for target in targets:
            # `import a.b.c` imports a and a.b too.
            while target:
                if target in known:
                    found.add(target)
                target = target.rpartition(".")[0]
    return found


def main(dist: Path) -> list[str]:
    """Return the problems found in the one wheel in `dist` (empty when it is right)."""
    wheels = sorted(dist.glob("mediaparts-*.whl"))
    if len(wheels) != 1:
        return [f"expected one mediaparts wheel in {dist}, found {len(wheels)}"]
    wheel = wheels[0]
    version = source_version()
    problems: list[str] = []
    if wheel.name.split("-")[1] != version:
        problems.append(f"{wheel.name}: file name version is not __version__ {version!r}")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        dist_info = f"mediaparts-{version}.dist-info"
        metadata = HeaderParser().parsestr(archive.read(f"{dist_info}/METADATA").decode())
        licence = f"{dist_info}/licenses/LICENSE"
        licence_text = archive.read(licence).decode() if licence in names else None
        sources = {n: archive.read(n).decode() for n in names if n.endswith(".py")}
    if metadata["Version"] != version:
        problems.append(f"METADATA Version {metadata['Version']!r} is not {version!r}")
    if licence_text is None:
        problems.append(f"{licence} is missing")
    elif licence_text != (ROOT / "LICENSE").read_text():
        problems.append(f"{licence} differs from LICENSE")
    if "mediaparts/py.typed" not in names:
        problems.append("mediaparts/py.typed is missing (PEP 561)")
    outside = sorted(n for n in names if not n.startswith(("mediaparts/", f"{dist_info}/")))
    problems += [f"{n}: not part of the package" for n in outside]
    in_src = {
        p.relative_to(SRC).as_posix()
        for p in (SRC / "mediaparts").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    problems += [f"{n}: in src but not in the wheel" for n in sorted(in_src - sources.keys())]
    problems += [f"{n}: in the wheel but not in src" for n in sorted(sources.keys() - in_src)]
    stray = [n for n in names if re.search(r"(^|/)((tests|docs)/|conftest\.py$)", n)]
    problems += [f"{n}: tests or docs in the wheel" for n in sorted(stray)]

    modules = {module_name(n): (n, text) for n, text in sources.items()}
    known = set(modules)
    reached: set[str] = set()
    todo = [m for m in ENTRY_MODULES if m in known]
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        path, text = modules[name]
        package = name if path.endswith("/__init__.py") else name.rpartition(".")[0]
        todo += imported_modules(name, package, text, known) - reached
    for script, launcher in RUN_AS_SCRIPTS.items():
        filename = modules[script][0].rpartition("/")[2] if script in modules else ""
        if launcher in reached and filename and filename in modules[launcher][1]:
            reached.add(script)
    for name in sorted(known - reached - IN_FLIGHT.keys()):
        problems.append(f"{name}: no import reaches it from what users run (dead or test-only)")
    for name in sorted(IN_FLIGHT.keys() - (known - reached)):
        problems.append(f"{name} is now reached or gone: delete its line from IN_FLIGHT")
    return problems


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    found = main(Path(sys.argv[1]))
    for problem in found:
        print(f"check_wheel: {problem}", file=sys.stderr)
    if found:
        raise SystemExit(1)
    print("check_wheel: the wheel holds exactly the package, typed and licensed")
