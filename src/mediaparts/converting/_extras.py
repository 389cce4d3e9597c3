"""Optional packages: import one, or raise `CodecUnavailable` naming the extra to install."""

from __future__ import annotations

import importlib
import time
from types import ModuleType

from mediaparts._errors import CodecUnavailable, MediaTooLarge

__all__ = ["Deadline", "require"]


def require(module: str, *, package: str, extra: str, media_type: str, doing: str) -> ModuleType:
    """Import `module`, or raise `CodecUnavailable` saying what to install.

    Args:
        module: The module to import (`"av"`).
        package: Its distribution name on PyPI (`"av"`).
        extra: The mediaparts extra that installs it (`"av"`).
        media_type: The type being converted, for the error.
        doing: What needed it, as a phrase ("transcode audio/mp4 to audio/mpeg").
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise CodecUnavailable(
            f"to {doing}, this machine needs {package}: pip install {package} "
            f"(mediaparts' [{extra}] extra)",
            media_type=media_type,
            package=package,
            extra=extra,
        ) from exc


class Deadline:
    """The wall-clock budget of one transform, checked between units of work."""

    __slots__ = ("_end", "_media_type", "_seconds", "_what")

    def __init__(self, seconds: float, what: str, media_type: str | None = None) -> None:
        self._seconds = seconds
        self._what = what
        self._media_type = media_type
        self._end = time.monotonic() + seconds

    def check(self) -> None:
        """Raise `MediaTooLarge` once the budget is spent."""
        if time.monotonic() > self._end:
            raise MediaTooLarge(
                f"{self._what} took longer than TransformPolicy.timeout={self._seconds:g} s; "
                "refused",
                media_type=self._media_type,
            )
