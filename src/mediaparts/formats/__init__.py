"""Formats: what each media format is, and how to read its container and header bytes.

The lowest layer above `_errors`: plain bytes in, facts out. It imports no other package of
mediaparts; Pillow only lazily, as `image_size`'s fallback for formats without a header parser
of their own. Detection, imaging, uploads, providers and the testing fixtures read it.

Each format is one `Format` record in one registry (`get`, `registered`, `register`); the
built-in records are in `_builtin` (images) and `_catalogue` (audio, video, documents, text).
One walker per container: `jpeg_segments` (JPEG markers), `riff_chunks` (RIFF: WebP, WAV,
AVI), `png_chunks` (PNG and APNG).
"""

from mediaparts.formats import _builtin, _catalogue
from mediaparts.formats._imageinfo import EOI, SOS, image_size, jpeg_scans, jpeg_segments
from mediaparts.formats._png import png_chunks
from mediaparts.formats._registry import (
    Format,
    Kind,
    Sample,
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

__all__ = [
    "EOI",
    "SOS",
    "Format",
    "Kind",
    "Sample",
    "by_alias",
    "by_extension",
    "by_pillow",
    "get",
    "image_size",
    "jpeg_scans",
    "jpeg_segments",
    "png_chunks",
    "readable",
    "register",
    "registered",
    "riff_chunks",
    "unregister",
    "writable",
]
