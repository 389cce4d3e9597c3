"""Formats: what each media format is, and how to read its container and header bytes.

The lowest layer above `_errors`: plain bytes in, facts out. It imports no other package of
mediaparts, and never Pillow. Detection, imaging, uploads, providers and the testing fixtures
read it.

Each format is one `Format` record in one registry (`get`, `registered`, `register`); the
built-in records are in `_builtin` (images) and `_catalogue` (audio, video, documents, text).
One walker per container: `jpeg_segments` (JPEG markers), `riff_chunks` (RIFF: WebP, WAV,
AVI), `png_chunks` (PNG and APNG), `boxes` (ISO-BMFF: MP4, MOV, HEIF, AVIF), `elements`
(EBML: Matroska, WebM). They read through `ByteWindow`, the bounded view of the input (`PREFIX_SIZE`
bytes, then a few capped reads by `ReadAt`). Header facts beside them: `header_size` (header
parsers only; `mediaparts.imaging.image_size` adds Pillow's fallback), `audio_duration`,
`video_duration`, `video_has_audio` and `pdf_page_count`.
"""

from mediaparts.formats import _builtin, _catalogue
from mediaparts.formats._duration import audio_duration, video_duration, video_has_audio
from mediaparts.formats._ebml import (
    AUDIO_TRACK,
    EBML_HEADER,
    EBML_UNKNOWN_SIZE,
    SEGMENT,
    VIDEO_TRACK,
    element,
    elements,
    track_types,
)
from mediaparts.formats._imageinfo import EOI, SOS, header_size, jpeg_scans, jpeg_segments
from mediaparts.formats._isobmff import boxes, brands, track_handlers
from mediaparts.formats._pdf import PDF_OBJECT, pdf_page_count
from mediaparts.formats._png import png_chunks
from mediaparts.formats._reader import PREFIX_SIZE, ByteWindow, ReadAt
from mediaparts.formats._registry import (
    Format,
    Kind,
    Sample,
    Size,
    by_alias,
    by_extension,
    by_pillow,
    get,
    readable,
    register,
    registered,
    unregister,
    writable,
)
from mediaparts.formats._riff import riff_chunks

del _builtin, _catalogue  # imported for their registrations

__all__ = [  # noqa: RUF022 (plain sorted() order, which the public-API test pins)
    "AUDIO_TRACK",
    "ByteWindow",
    "EBML_HEADER",
    "EOI",
    "Format",
    "Kind",
    "PDF_OBJECT",
    "PREFIX_SIZE",
    "ReadAt",
    "SEGMENT",
    "SOS",
    "Sample",
    "Size",
    "EBML_UNKNOWN_SIZE",
    "VIDEO_TRACK",
    "audio_duration",
    "boxes",
    "brands",
    "by_alias",
    "by_extension",
    "by_pillow",
    "element",
    "elements",
    "get",
    "header_size",
    "jpeg_scans",
    "jpeg_segments",
    "pdf_page_count",
    "png_chunks",
    "readable",
    "register",
    "registered",
    "riff_chunks",
    "track_handlers",
    "track_types",
    "unregister",
    "video_duration",
    "video_has_audio",
    "writable",
]
