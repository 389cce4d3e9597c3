"""Lazy exports (PEP 562): a package's names whose modules load on first use.

`mediaparts`, `mediaparts.fetching`, `mediaparts.providers` and `mediaparts.testing` each keep
a `_LAZY` table (name -> the module that defines it) and take their module `__getattr__` and
`__dir__` from `lazy_exports`, so what is heavy (httpx, asyncio, Pillow glue, pytest) loads
only when a name that needs it is used. tests/test_architecture.py reads the `_LAZY` tables as
imports.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


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
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *namespace.get("__all__", ())})

    return __getattr__, __dir__
