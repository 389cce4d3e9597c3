"""What a signature row or a container parser decides about the bytes."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Hit"]


@dataclass(frozen=True, slots=True)
class Hit:
    """What a signature or container parser decided.

    Attributes:
        media_type: The canonical media type the bytes are.
        generic: True when that is only the family's generic name because the parser could not
            look far enough (a ZIP whose directory was out of reach, an ISO file with unknown
            brands); a file name may then say which member of the family it is.
    """

    media_type: str
    generic: bool = False
