"""Transforms beyond images: audio, video, vector images and documents, each optional.

`normalize` calls these only when a provider cannot take the original. Each needs an extra
(`[av]` for audio and video, `[svg]`, `[pdf]`, `[office]`); without it, the transform raises
`CodecUnavailable` naming the extra. Every transform runs under a `TransformPolicy`: caps on
seconds, pixels, pages, expanded bytes and time, so a hostile input fails with our errors.

Public: `TransformPolicy` (also `mp.TransformPolicy`), `using_transforms`.

Internal exports, for the other packages of mediaparts (not in `__all__`, no compatibility
promise): `Converted` (one output of a transform), `default_transforms` and
`set_default_transforms` (the policy in force; `mp.configure(transforms=...)`); PDFs:
`pdf_pages`, `split_pdf` and `render_pages` (the `[pdf]` extra), and `page_count` (exact
with the extra, else read from the page tree); Office documents and RTF: `office_to_text`
and `OFFICE_TYPES` (the `[office]` extra); video: `video_info` and its `VideoInfo`,
`sample_frames`, `frame_stand_ins` (the sampled frames' number and size, from the headers,
for token counts), `fit_video` (the `[av]` extra); audio: `audio_info` and its `AudioInfo`,
`convert_audio` (the `[av]` extra); SVG: `rasterize_svg` (the `[svg]` extra) and `svg_text`
(its text, without it).
"""

import typing as _typing

from mediaparts._lazy import lazy_exports as _lazy_exports
from mediaparts._lazy import publish as _publish

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

if _typing.TYPE_CHECKING:  # loaded on first use (below); type checkers see plain imports
    from mediaparts.converting._audio import AudioInfo as AudioInfo
    from mediaparts.converting._audio import audio_info as audio_info
    from mediaparts.converting._audio import convert_audio as convert_audio
    from mediaparts.converting._fit_video import fit_video as fit_video
    from mediaparts.converting._frames import frame_stand_ins as frame_stand_ins
    from mediaparts.converting._frames import sample_frames as sample_frames
    from mediaparts.converting._office import OFFICE_TYPES as OFFICE_TYPES
    from mediaparts.converting._office import office_to_text as office_to_text
    from mediaparts.converting._pdf import page_count as page_count
    from mediaparts.converting._pdf import pdf_pages as pdf_pages
    from mediaparts.converting._pdf import render_pages as render_pages
    from mediaparts.converting._pdf import split_pdf as split_pdf
    from mediaparts.converting._svg import rasterize_svg as rasterize_svg
    from mediaparts.converting._svg import svg_text as svg_text
    from mediaparts.converting._video import VideoInfo as VideoInfo
    from mediaparts.converting._video import video_info as video_info

# The transforms load when first used (about 35 ms of imports that a program sending only
# images and text never needs), by the module that defines each.
_LAZY = {
    "AudioInfo": "mediaparts.converting._audio",
    "audio_info": "mediaparts.converting._audio",
    "convert_audio": "mediaparts.converting._audio",
    "fit_video": "mediaparts.converting._fit_video",
    "sample_frames": "mediaparts.converting._frames",
    "frame_stand_ins": "mediaparts.converting._frames",
    "OFFICE_TYPES": "mediaparts.converting._office",
    "office_to_text": "mediaparts.converting._office",
    "page_count": "mediaparts.converting._pdf",
    "pdf_pages": "mediaparts.converting._pdf",
    "render_pages": "mediaparts.converting._pdf",
    "split_pdf": "mediaparts.converting._pdf",
    "rasterize_svg": "mediaparts.converting._svg",
    "svg_text": "mediaparts.converting._svg",
    "VideoInfo": "mediaparts.converting._video",
    "video_info": "mediaparts.converting._video",
}

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY, globals())

__all__ = ["PdfMode", "Sampling", "TransformPolicy", "VideoMode", "using_transforms"]

_publish(__name__, globals(), __all__)
