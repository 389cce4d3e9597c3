"""Make an image acceptable to a provider: pure functions over bytes.

    from mediaparts.imaging import FitSpec, fit_image

    spec = FitSpec(accepted=("image/jpeg", "image/png"), max_bytes=5_000_000, measure="base64")
    fitted = fit_image(data, "image/heic", spec)   # FittedImage(media_type="image/jpeg", ...)

The original bytes pass through untouched when nothing needs to change (decided from the
header); otherwise the image is decoded once (JPEG at a reduced draft scale), turned upright,
converted, downscaled and re-encoded down a quality ladder. Pillow is imported only when an
image is actually looked at. See docs/imaging.md.

For the layers above (parts, uploads, providers): `image_size` (the header, else Pillow's
reading of it), `is_animated` (for `check`), `strip_metadata` (what `from_upload` re-encodes),
`encode_pil` (`from_pil`), `measured` (a size as raw bytes or base64 text), and Pillow's
handling: `PIL_ERRORS` (what it raises on hostile input) and `quiet()` (what it warns,
silenced).
"""

from mediaparts.imaging._fit import fit_image
from mediaparts.imaging._pil import PIL_ERRORS, encode_pil, image_size, is_animated, quiet
from mediaparts.imaging._probe import image_orientation
from mediaparts.imaging._spec import DecodeBudget, FitSpec, FittedImage, measured
from mediaparts.imaging._strip import strip_metadata

# Plain `sorted()` order, which tests pin for every public `__all__` (ruff's RUF022 would put
# the constant first instead).
__all__ = [  # noqa: RUF022
    "DecodeBudget",
    "FitSpec",
    "FittedImage",
    "PIL_ERRORS",
    "encode_pil",
    "fit_image",
    "image_orientation",
    "image_size",
    "is_animated",
    "measured",
    "quiet",
    "strip_metadata",
]
