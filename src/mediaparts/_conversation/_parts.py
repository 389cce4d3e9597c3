"""Typed, immutable media parts: image, audio, video and file, plus text.

Each class is a `MediaPart` (see `_mediapart`) of one kind; defining it registers it there, so
`part_class(kind)` and the base class's own checks find it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias, get_args

from typing_extensions import Never

from mediaparts import fetching
from mediaparts._conversation._construct import construct, keyword_only
from mediaparts._conversation._dialogue import (
    Citation,
    PartFields,
    ProviderPart,
    ReasoningPart,
    RefusalPart,
    ToolCall,
)
from mediaparts._conversation._mediapart import MediaPart, part_class

__all__ = [
    "AudioPart",
    "Citation",
    "FilePart",
    "ImagePart",
    "MediaPart",
    "Part",
    "ProviderPart",
    "ReasoningPart",
    "RefusalPart",
    "TextPart",
    "ToolCall",
    "VideoPart",
    "part_class",
]

Detail = Literal["auto", "low", "high", "original"]


class ImagePart(MediaPart):
    """An image. `width`/`height` come from the header without decoding pixels."""

    kind: Literal["image"] = "image"

    if TYPE_CHECKING:  # for type checkers, not pydantic's field-based __init__

        def __init__(self, /, *given: Never, **values: Any) -> None: ...

    detail: Detail | None = None
    _kinds: ClassVar[frozenset[str]] = frozenset({"image"})

    @property
    def width(self) -> int | None:
        """Width in pixels as stored (before any EXIF rotation); loads a URL part."""
        size = self._pixels()
        return size[0] if size else None

    @property
    def height(self) -> int | None:
        """Height in pixels as stored (before any EXIF rotation); loads a URL part."""
        size = self._pixels()
        return size[1] if size else None

    def _pixels(self) -> tuple[int, int] | None:
        data = self.data
        state: fetching.LoadState = self._private()["_state"]
        known = state.size
        if known is None or known[0] is not data:
            # Imported here so `import mediaparts` does not load the imaging package.
            from mediaparts.imaging import image_size

            known = state.size = (data, image_size(data, self.effective_media_type or ""))
        return known[1]

    def _orientation(self) -> int:
        """The EXIF orientation (1-8) read from the header, once (`image_orientation`)."""
        data = self.data
        state: fetching.LoadState = self._private()["_state"]
        known = state.orientation
        if known is None or known[0] is not data:
            # Imported here so `import mediaparts` does not load the imaging package.
            from mediaparts.imaging import image_orientation

            known = state.orientation = (data, image_orientation(data))
        return known[1]


class AudioPart(MediaPart):
    """An audio clip."""

    kind: Literal["audio"] = "audio"

    if TYPE_CHECKING:  # for type checkers, not pydantic's field-based __init__

        def __init__(self, /, *given: Never, **values: Any) -> None: ...

    _kinds: ClassVar[frozenset[str]] = frozenset({"audio"})


class VideoPart(MediaPart):
    """A video clip."""

    kind: Literal["video"] = "video"

    if TYPE_CHECKING:  # for type checkers, not pydantic's field-based __init__

        def __init__(self, /, *given: Never, **values: Any) -> None: ...

    _kinds: ClassVar[frozenset[str]] = frozenset({"video"})


class FilePart(MediaPart):
    """A document or text file (PDF, DOCX, CSV, JSON, plain text, ...)."""

    kind: Literal["file"] = "file"

    if TYPE_CHECKING:  # for type checkers, not pydantic's field-based __init__

        def __init__(self, /, *given: Never, **values: Any) -> None: ...

    _kinds: ClassVar[frozenset[str]] = frozenset({"file"})


class TextPart(PartFields):
    """A piece of text in a message, with the citations the provider attached to it."""

    kind: Literal["text"] = "text"
    text: str
    citations: tuple[Citation, ...] = ()

    def __init__(self, text: str | None = None, /, *given: Never, **values: Any) -> None:
        if given:
            raise keyword_only(type(self), (text, *given), takes="one text")
        if text is not None:
            values["text"] = text
        construct(self, super().__init__, values)


Part: TypeAlias = (
    ImagePart
    | AudioPart
    | VideoPart
    | FilePart
    | TextPart
    | ReasoningPart
    | ToolCall
    | RefusalPart
    | ProviderPart
)
"""Every class a message part can be. A new part class is added here; code that dispatches on
a part matches its class and ends in `assert_never`, so mypy lists what does not handle it yet."""

PART_CLASSES: dict[str, type[Any]] = {
    kind: cls for cls in get_args(Part) for kind in get_args(cls.model_fields["kind"].annotation)
}
"""Every part class by its `kind`, in the order of `Part`: read from the union, so every list
of kinds (filters, dict readers) follows a new part class without another edit."""
