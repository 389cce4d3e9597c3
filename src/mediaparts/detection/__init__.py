"""Media type detection: from bytes, a path or a file object to a canonical media type.

Magic bytes first (our signature table, then the `filetype` package for the long tail), then
text sniffing, then the file name's extension, then a declared type. See `docs/detection.md`.

Internal export, for the other packages of mediaparts (not in `__all__`, no compatibility
promise): `text_to_the_end` (whether a whole upload reads as text, for `from_upload`) and
`utf16_order` (the byte order of UTF-16 text without a mark, for reading text files).
"""

import typing as _typing

from mediaparts._lazy import lazy_exports as _lazy_exports
from mediaparts._lazy import publish as _publish
from mediaparts.detection._detect import Detection, detect, detect_media_type
from mediaparts.detection._types import (
    canonical_media_type,
    extension_for,
    kind_of,
    media_type_from_filename,
)
from mediaparts.formats import PREFIX_SIZE

if _typing.TYPE_CHECKING:  # internal; loaded on first use, with the text sniffers they read
    from mediaparts.detection._sniff import utf16_order as utf16_order
    from mediaparts.detection._wholetext import text_to_the_end as text_to_the_end

_LAZY = {
    "text_to_the_end": "mediaparts.detection._wholetext",
    "utf16_order": "mediaparts.detection._sniff",
}
__getattr__, __dir__ = _lazy_exports(__name__, _LAZY, globals())

# Plain `sorted()` order, which tests/test_public_api.py pins for every public `__all__`;
# ruff's RUF022 would put the constant first instead.
__all__ = [  # noqa: RUF022
    "Detection",
    "PREFIX_SIZE",
    "canonical_media_type",
    "detect",
    "detect_media_type",
    "extension_for",
    "kind_of",
    "media_type_from_filename",
]

_publish(__name__, globals(), __all__)
