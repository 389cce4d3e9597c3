"""A package's exports: names whose modules load on first use (PEP 562), and public modules.

`mediaparts`, `mediaparts.fetching`, `mediaparts.providers` and `mediaparts.testing` each keep
a `_LAZY` table (name -> the module that defines it) and take their module `__getattr__` and
`__dir__` from `lazy_exports`, so what is heavy (httpx, asyncio, Pillow glue, pytest) loads
only when a name that needs it is used. tests/test_architecture.py reads the `_LAZY` tables as
imports.

`publish` makes each exported class and function report the public module users import it
from (`mp.User.__module__ == "mediaparts"`), as httpx does: tracebacks, reprs, pickles and
documentation then name the public path, not the private module that defines it.
"""

from __future__ import annotations

import importlib
import inspect
import typing
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["lazy_exports", "publish"]

_PACKAGE = __name__.partition(".")[0]


def lazy_exports(
    package: str,
    table: Mapping[str, str],
    namespace: dict[str, Any],
    renamed: Mapping[str, str] | None = None,
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Return a package's module-level `__getattr__` and `__dir__` for its lazy names.

    Args:
        package: The package's name, for the AttributeError's message.
        table: Each lazy name -> the module that defines it.
        namespace: The package's `globals()`: a loaded name is stored there, so it is looked
            up once, and `__dir__` lists it with the package's `__all__`.
        renamed: Each deprecated name -> the name that replaced it (in `namespace` or
            `table`). Reading the old name warns (DeprecationWarning) every time and returns
            the new one's value; it is in neither `__all__` nor `__dir__`.
    """

    def __getattr__(name: str) -> Any:
        if renamed and name in renamed:
            new = renamed[name]
            warnings.warn(
                f"{package}.{name} is deprecated; use {package}.{new}",
                DeprecationWarning,
                stacklevel=2,
            )
            return namespace[new] if new in namespace else __getattr__(new)
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        publish(package, {name: value}, [name])
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *namespace.get("__all__", ())})

    return __getattr__, __dir__


def publish(package: str, namespace: Mapping[str, Any], names: Iterable[str]) -> None:
    """Make the classes and functions among `names` report `package` as their module.

    Only what a private module of mediaparts defines is renamed (`User`, defined in a private
    module, reports `mediaparts`); what another public module already reports, or another
    package defines, is left as it is. Pickling finds each by the public path.
    """
    for name in names:
        value = namespace.get(name)
        if not (isinstance(value, type) or inspect.isfunction(value)):
            continue
        module = getattr(value, "__module__", "") or ""
        if module.partition(".")[0] != _PACKAGE or not _is_private(module):
            continue
        if isinstance(value, type) and not _resolve_annotations(value):
            continue  # its annotations cannot be read where it is: it keeps its module
        value.__module__ = package


def _resolve_annotations(cls: type) -> bool:
    """Replace a class's own annotations (text, under `from __future__ import annotations`)
    by the objects they name, read in its own module; return False if they cannot be read.

    `typing.get_type_hints` reads text annotations in the module a class reports, which for
    a published class is the public one, without the names its own module imported: resolved
    here first, they no longer need a module at all.
    """
    own = inspect.get_annotations(cls)
    if not any(isinstance(hint, str) for hint in own.values()):
        return True
    try:
        hints = typing.get_type_hints(cls, include_extras=True)
    except Exception:  # a name its module does not hold either: leave the class as it is
        return False
    cls.__annotations__ = {name: hints.get(name, hint) for name, hint in own.items()}
    return True


def _is_private(module: str) -> bool:
    """Tell whether a dotted module path has a private part (`a._b.c`)."""
    return any(part.startswith("_") for part in module.split("."))
