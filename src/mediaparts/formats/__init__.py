"""Formats: what each media format is, and how to read its container and header bytes.

The lowest layer above `_errors`: plain bytes in, facts out. It imports no other package of
mediaparts, and never Pillow. Detection, imaging, uploads, providers and the testing fixtures
read it.

Each format is one `Format` record in one registry (`get`, `registered`, `register`); the
built-in records are in `_builtin` (images) and `_catalogue` (audio, video, documents, text).
One walker per container: `jpeg_segments` (JPEG markers), `riff_chunks` (RIFF: WebP, WAV,
AVI), `png_chunks` (PNG and APNG), `boxes` (ISO-BMFF: MP4, MOV, HEIF, AVIF), `elements`
(EBML: Matroska, WebM), with `find_box`, `brands` and `track_handlers` over ISO-BMFF. They
read through `ByteWindow`, the bounded view of the input (`PREFIX_SIZE` bytes, then a few
capped reads by `ReadAt`). Header facts beside them: `header_size` (header parsers only;
`mediaparts.imaging.image_size` adds Pillow's fallback), `audio_duration`, `video_duration`,
`video_has_audio` and `pdf_page_count`.

Internal exports, for the other packages of mediaparts (not in `__all__`, no compatibility
promise): the constants detection reads (`EOI`, `SOS`, `PDF_OBJECT`, the EBML ids
`EBML_HEADER` and `SEGMENT`, `EBML_UNKNOWN_SIZE`, `AUDIO_TRACK`, `VIDEO_TRACK`), the EBML
element reader `element` and `track_types`, and `jpeg_scans` (imaging's decode budget).
"""

import typing as _typing

from mediaparts._lazy import lazy_exports as _lazy_exports
from mediaparts._lazy import publish as _publish

# `import name as name` marks an internal export: re-exported, but not in `__all__`.
from mediaparts.formats import _builtin, _catalogue
from mediaparts.formats._imageinfo import EOI as EOI
from mediaparts.formats._imageinfo import SOS as SOS
from mediaparts.formats._imageinfo import header_size, jpeg_segments
from mediaparts.formats._imageinfo import jpeg_scans as jpeg_scans
from mediaparts.formats._isobmff import boxes, brands, find_box, track_handlers
from mediaparts.formats._png import png_chunks
from mediaparts.formats._reader import PREFIX_SIZE, ByteWindow, ReadAt
from mediaparts.formats._registry import (
    Encoding,
    Format,
    Kind,
    Plugin,
    Sample,
    Size,
    by_alias,
    by_extension,
    by_pillow,
    get,
    magic,
    readable,
    register,
    registered,
    unregister,
    writable,
)
from mediaparts.formats._riff import riff_chunks

del _builtin, _catalogue  # imported for their registrations

if _typing.TYPE_CHECKING:  # loaded on first use (below); type checkers see plain imports
    from mediaparts.formats._duration import audio_duration, video_duration, video_has_audio
    from mediaparts.formats._ebml import AUDIO_TRACK as AUDIO_TRACK
    from mediaparts.formats._ebml import EBML_HEADER as EBML_HEADER
    from mediaparts.formats._ebml import EBML_UNKNOWN_SIZE as EBML_UNKNOWN_SIZE
    from mediaparts.formats._ebml import SEGMENT as SEGMENT
    from mediaparts.formats._ebml import VIDEO_TRACK as VIDEO_TRACK
    from mediaparts.formats._ebml import element as element
    from mediaparts.formats._ebml import elements
    from mediaparts.formats._ebml import track_types as track_types
    from mediaparts.formats._pdf import PDF_OBJECT as PDF_OBJECT
    from mediaparts.formats._pdf import pdf_page_count

# The duration readers, EBML and PDF: no record needs them, and `import mediaparts` neither.
_LAZY = {
    "AUDIO_TRACK": "mediaparts.formats._ebml",
    "EBML_HEADER": "mediaparts.formats._ebml",
    "EBML_UNKNOWN_SIZE": "mediaparts.formats._ebml",
    "PDF_OBJECT": "mediaparts.formats._pdf",
    "SEGMENT": "mediaparts.formats._ebml",
    "VIDEO_TRACK": "mediaparts.formats._ebml",
    "audio_duration": "mediaparts.formats._duration",
    "element": "mediaparts.formats._ebml",
    "elements": "mediaparts.formats._ebml",
    "pdf_page_count": "mediaparts.formats._pdf",
    "track_types": "mediaparts.formats._ebml",
    "video_duration": "mediaparts.formats._duration",
    "video_has_audio": "mediaparts.formats._duration",
}
__getattr__, __dir__ = _lazy_exports(__name__, _LAZY, globals())

__all__ = [  # noqa: RUF022 (plain sorted() order, which the public-API test pins)
    "ByteWindow",
    "Encoding",
    "Format",
    "Kind",
    "PREFIX_SIZE",
    "Plugin",
    "ReadAt",
    "Sample",
    "Size",
    "audio_duration",
    "boxes",
    "brands",
    "by_alias",
    "by_extension",
    "by_pillow",
    "elements",
    "find_box",
    "get",
    "header_size",
    "jpeg_segments",
    "magic",
    "pdf_page_count",
    "png_chunks",
    "readable",
    "register",
    "registered",
    "riff_chunks",
    "track_handlers",
    "unregister",
    "video_duration",
    "video_has_audio",
    "writable",
]

_publish(__name__, globals(), __all__)
