"""`PartUploader`: what `render(..., urls="upload")` asks before it inlines a media part.

The providers layer only states the question; `mediaparts.uploading.Uploader` answers it
(the upload itself, the content-hash cache, the SDK clients), so this layer imports nothing
of that one.
"""

from __future__ import annotations

from typing import Literal, Protocol, TypeAlias, runtime_checkable

from mediaparts._conversation._parts import MediaPart
from mediaparts.providers._registry import Provider

__all__ = ["PartUploader", "RenderUrls"]

RenderUrls: TypeAlias = Literal["auto", "inline", "pass", "upload"]
"""How `render` sends media: the `normalize` modes, plus `"upload"` (through an uploader)."""


@runtime_checkable
class PartUploader(Protocol):
    """Sends a media part to the provider's file store when it should go by reference."""

    def upload_part(
        self, part: MediaPart, provider: Provider, model: str | None, /
    ) -> MediaPart | None:
        """Return a reference to the stored part, or None to send the part as before."""
        ...

    async def aupload_part(
        self, part: MediaPart, provider: Provider, model: str | None, /
    ) -> MediaPart | None:
        """`upload_part` for async code."""
        ...
