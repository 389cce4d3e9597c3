"""`NormalizedPart`: a part as one provider will receive it."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from mediaparts._conversation._parts import MediaPart, TextPart
from mediaparts._conversation._reprs import bounded
from mediaparts._inline import data_uri
from mediaparts._sources import b64encode
from mediaparts.formats import Kind

__all__ = ["PASSED_URL", "NormalizedPart"]

# The one key of a provider's `native` hints that generic code reads (`normalize`): a reader
# sets it on a URL part that its API was given as a URL (so the API fetched it itself); the
# URL then passes through to that provider whatever its URL rules, unless urls="inline".
PASSED_URL = "passed_url"


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class NormalizedPart:
    """A part made ready for one provider by `mp.normalize`.

    Exactly one of `data` (bytes to send inline), `url` (passed through for the provider to
    fetch), `text` (a text file the provider reads as text), `file_id` (a file in the
    provider's file store) or `pieces` is set.

    `pieces` holds what one part became when the provider takes it only as several: a video
    sent as sampled frames (each an image, after a text part saying where in the video it
    is), a PDF split to fit a page or byte limit, or its pages as images. `render` sends the
    pieces in order where the part stood; `tokens` is the sum of the media pieces' (the text
    parts are counted by `count_tokens`), `byte_size` the sum of all.

    Attributes:
        kind: `"image"`, `"audio"`, `"video"` or `"file"`.
        media_type: The type as sent (after any conversion).
        data: The bytes to send inline, or None.
        url: The URL passed through, or None.
        text: The decoded text of a text file sent as text, or None.
        file_id: The id of a file in the provider's file store, or None.
        filename: The part's file name, if any.
        width: Image width as sent, when known.
        height: Image height as sent, when known.
        detail: The image detail level asked for, if any.
        tokens: The provider's documented token cost, when there is a rule for it.
        steps: What was done, in order (`"exif-transpose"`, `"resize 6000x4000→1568x1045"`).
        part: The part this was made from.
        pieces: The parts sent in its place, in order, when it is sent as several (frames,
            split PDFs, page images, with text parts between them); empty otherwise.
    """

    kind: Kind
    media_type: str
    data: bytes | None = None
    url: str | None = None
    text: str | None = None
    file_id: str | None = None
    filename: str | None = None
    width: int | None = None
    height: int | None = None
    detail: str | None = None
    tokens: int | None = None
    steps: tuple[str, ...] = ()
    part: MediaPart | None = field(default=None, repr=False)
    pieces: tuple[NormalizedPart | TextPart, ...] = ()

    def __repr__(self) -> str:
        # Never the bytes (a 32 KB JPEG made a 95,411-character repr): their size and digest,
        # with the fields that are set, text and lists bounded.
        shown = (
            f"{f.name}={bounded(getattr(self, f.name))!r}"
            for f in fields(self)
            if f.repr and getattr(self, f.name) not in (None, ())
        )
        return f"NormalizedPart({', '.join(shown)})"

    @property
    def byte_size(self) -> int | None:
        """Bytes sent inline (the UTF-8 size for text; the sum for pieces), or None for a URL."""
        if self.pieces:
            return sum(_size(piece) for piece in self.pieces)
        if self.data is not None:
            return len(self.data)
        if self.text is not None:
            return len(self.text.encode("utf-8"))
        return None

    @property
    def base64(self) -> str | None:
        """The inline bytes as base64 text, or None when nothing is inline."""
        return b64encode(self.data) if self.data is not None else None

    @property
    def data_uri(self) -> str | None:
        """A `data:` URI of the inline bytes, or None."""
        if self.data is None:
            return None
        return data_uri(self.media_type, self.data)

    @property
    def unchanged(self) -> bool:
        """True when the original bytes (or URL) are sent as they were."""
        return not self.pieces and (
            not self.steps or self.steps in (("url pass-through",), ("file reference",))
        )

    @property
    def sent(self) -> tuple[NormalizedPart | TextPart, ...]:
        """What is sent in the part's place: its `pieces`, or the part itself."""
        return self.pieces or (self,)


def _size(piece: NormalizedPart | TextPart) -> int:
    if isinstance(piece, TextPart):
        return len(piece.text.encode("utf-8"))
    return piece.byte_size or 0
