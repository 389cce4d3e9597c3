"""Transforms beyond images: audio, video, vector images and documents, each optional.

`normalize` calls these only when a provider cannot take the original. Each needs an extra
(`[av]` for audio and video, `[svg]`, `[pdf]`, `[office]`); without it, the transform raises
`CodecUnavailable` naming the extra. Every transform runs under a `TransformPolicy`: caps on
seconds, pixels, pages, expanded bytes and time, so a hostile input fails with our errors.

Public: `TransformPolicy` (also `mp.TransformPolicy`), `using_transforms`.

Internal exports, for the other packages of mediaparts (not in `__all__`, no compatibility
promise): `Converted` (one output of a transform), `default_transforms` and
`set_default_transforms` (the policy in force; `mp.configure(transforms=...)`);
`rasterize_svg` and `svg_text` (SVG as PNG, or as its text).
"""

# `import name as name` marks an internal export: re-exported, but not in `__all__`.
from mediaparts.converting._policy import (
    PdfMode,
    Sampling,
    TransformPolicy,
    VideoMode,
    using_transforms,
)
from mediaparts.converting._policy import default_transforms as default_transforms
from mediaparts.converting._policy import set_default_transforms as set_default_transforms
from mediaparts.converting._result import Converted as Converted
from mediaparts.converting._svg import rasterize_svg as rasterize_svg
from mediaparts.converting._svg import svg_text as svg_text

__all__ = ["PdfMode", "Sampling", "TransformPolicy", "VideoMode", "using_transforms"]
