"""Formats: what each media format is, and how to read its container and header bytes.

The lowest layer above `_errors`: plain bytes in, facts out. It imports no other package of
mediaparts and no Pillow; detection, imaging, uploads, providers and the testing fixtures read
it.
"""

from mediaparts.formats._imageinfo import EOI, SOS, image_size, jpeg_scans, jpeg_segments

__all__ = ["EOI", "SOS", "image_size", "jpeg_scans", "jpeg_segments"]
