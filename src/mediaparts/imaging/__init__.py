"""Make an image acceptable to a provider: pure functions over bytes.

    from mediaparts.imaging import FitSpec, fit_image

    spec = FitSpec(accepted=("image/jpeg", "image/png"), max_bytes=5_000_000, measure="base64")
    fitted = fit_image(data, "image/heic", spec)   # FittedImage(media_type="image/jpeg", ...)

The original bytes pass through untouched when nothing needs to change (decided from the
header); otherwise the image is decoded once (JPEG at a reduced draft scale), turned upright,
converted, downscaled and re-encoded down a quality ladder. Pillow is imported only when an
image is actually looked at. See docs/imaging.md.

Public, beside fitting: `image_size` (the header, else Pillow's reading of it),
`image_orientation`, `is_animated` and `strip_metadata` (metadata removed: losslessly where
the format allows, else by re-encoding).

Internal exports, for the other packages of mediaparts (not in `__all__`, no compatibility
promise): `encode_pil` (`from_pil`), `measured` (a size as raw bytes or base64 text, for the
rules), and Pillow's handling: `PIL_ERRORS` (what it raises on hostile input) and `quiet` (a
context manager: what it warns, silenced).
"""

from mediaparts._lazy import publish as _publish

# `import name as name` marks an internal export: re-exported, but not in `__all__`.
from mediaparts.imaging._fit import fit_image
from mediaparts.imaging._pil import PIL_ERRORS as PIL_ERRORS
from mediaparts.imaging._pil import encode_pil as encode_pil
from mediaparts.imaging._pil import image_size, is_animated
from mediaparts.imaging._pil import quiet as quiet
from mediaparts.imaging._probe import image_orientation
from mediaparts.imaging._spec import DecodeBudget, FitSpec, FittedImage
from mediaparts.imaging._spec import measured as measured
from mediaparts.imaging._strip import strip_metadata

__all__ = [
    "DecodeBudget",
    "FitSpec",
    "FittedImage",
    "fit_image",
    "image_orientation",
    "image_size",
    "is_animated",
    "strip_metadata",
]

_publish(__name__, globals(), __all__)
