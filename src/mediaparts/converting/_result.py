"""`Converted`: what a transform made of its input, and how."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Converted"]


@dataclass(frozen=True, slots=True, repr=False)
class Converted:
    """One output of a transform: bytes of a type, or text, with what was done.

    A transform that makes several outputs (frames of a video, pieces of a split PDF, page
    images) returns them in order, each with its `label` ("frame at 0:01.500", "pages 1-100").

    Attributes:
        media_type: The type of `data` (`"audio/mpeg"`, `"image/png"`), or `"text/markdown"`
            / `"text/plain"` when `text` is set.
        data: The bytes made, or None when the output is text.
        text: The text made (a document's Markdown), or None.
        steps: What was done, in order, in normalize's words (`"m4a→mp3"`, `"downmix 2→1"`).
        seconds: The duration of audio or video, from the container, when known.
        width: A picture's width, when the output is one.
        height: A picture's height.
        pages: The pages of a PDF output.
        label: Where this output comes from in the input, for several outputs.
    """

    media_type: str
    data: bytes | None = None
    text: str | None = None
    steps: tuple[str, ...] = ()
    seconds: float | None = None
    width: int | None = None
    height: int | None = None
    pages: int | None = None
    label: str | None = None

    def __repr__(self) -> str:
        size = (
            f"{len(self.data):,} bytes"
            if self.data is not None
            else f"{len(self.text or '')} chars"
        )
        return f"Converted({self.media_type}, {size}, steps={self.steps!r}, label={self.label!r})"
