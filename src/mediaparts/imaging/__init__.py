"""Make an image acceptable to a provider: pure functions over bytes.

    from mediaparts.imaging import FitSpec, fit_image

    spec = FitSpec(accepted=("image/jpeg", "image/png"), max_bytes=5_000_000, measure="base64")
    fitted = fit_image(data, "image/heic", spec)   # FittedImage(media_type="image/jpeg", ...)

The original bytes pass through untouched when nothing needs to change (decided from the
header); otherwise the image is decoded once (JPEG at a reduced draft scale), turned upright,
converted, downscaled and re-encoded down a quality ladder. Pillow is imported only when an
image is actually looked at. See docs/imaging.md.
"""

from mediaparts.imaging._fit import fit_image
from mediaparts.imaging._probe import image_orientation
from mediaparts.imaging._spec import DecodeBudget, FitSpec, FittedImage

__all__ = ["DecodeBudget", "FitSpec", "FittedImage", "fit_image", "image_orientation"]
