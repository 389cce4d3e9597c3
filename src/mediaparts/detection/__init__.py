"""Media type detection: from bytes, a path or a file object to a canonical media type.

Magic bytes first (our signature table, then the `filetype` package for the long tail), then
text sniffing, then the file name's extension, then a declared type. See `docs/detection.md`.

Internal export, for the other packages of mediaparts (not in `__all__`, no compatibility
promise): `text_to_the_end` (whether a whole upload reads as text, for `from_upload`) and
`utf16_order` (the byte order of UTF-16 text without a mark, for reading text files).
"""

from mediaparts._lazy import publish as _publish
from mediaparts.detection._detect import Detection, detect, detect_media_type
from mediaparts.detection._sniff import utf16_order as utf16_order  # internal
from mediaparts.detection._types import (
    canonical_media_type,
    extension_for,
    kind_of,
    media_type_from_filename,
)
from mediaparts.detection._wholetext import text_to_the_end as text_to_the_end  # internal
from mediaparts.formats import PREFIX_SIZE

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
