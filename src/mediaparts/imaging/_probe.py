"""Read what fitting needs from an image's header: type, size, orientation, animation.

Nothing here decodes pixels. Pillow's `Image.open` parses only the header; its pixel data is
read later, by `load()`, once `_decode` has set a draft size.
"""

from __future__ import annotations

import importlib
import io
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mediaparts._errors import CodecUnavailable, InvalidMedia, MediaTooLarge, UnsupportedMediaType
from mediaparts.detection import canonical_media_type, detect
from mediaparts.formats import Format, jpeg_scans, readable
from mediaparts.formats import get as format_of
from mediaparts.imaging._pil import PIL_ERRORS, image_size, quiet
from mediaparts.imaging._spec import DecodeBudget

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "ImageHeader",
    "check_all_frames",
    "check_decode",
    "codec_unavailable",
    "decode_failure",
    "image_orientation",
    "probe",
]

_ORIENTATION_TAG = 0x0112
# Bytes per pixel as Pillow stores each mode (Imaging.h: one byte for 8-bit single-band modes,
# two for I;16*, four for everything else, RGB and LA included).
_ONE_BYTE = frozenset({"1", "L", "P"})
# Modes `decode` must convert at full size before it can shrink them (Image.reduce refuses
# them, or would average palette indices); the copy is RGBA, 4 bytes per pixel.
_CONVERTED_FIRST = frozenset({"1", "P", "PA"})
# Bytes of 16-bit DCT coefficients per pixel of a 3-component JPEG, by Pillow's get_sampling()
# code: 4:4:4 has 3 samples per pixel, 4:2:2 has 2, 4:2:0 has 1.5 (T.81, A.1.1).
_JPEG_COEFFICIENT_BYTES = {0: 6, 1: 4, 2: 3}
# The plugins (`Plugin.module`) whose opener is registered in this process, and their lock.
_plugins_lock = threading.Lock()
_plugins_registered: set[str] = set()


@dataclass(frozen=True, slots=True)
class ImageHeader:
    """The header facts about one image, and the lazily opened Pillow image (if openable)."""

    media_type: str
    width: int  # as stored, before EXIF orientation
    height: int
    orientation: int
    animated: bool
    lossless: bool
    complete: bool  # the format's end marker is present (JPEG EOI, PNG IEND)
    cmyk: bool  # a CMYK/YCCK JPEG: valid, but providers' decoders expect RGB, so it is converted
    image: Image.Image | None  # None: its format's plugin is missing (see `missing_plugin`)
    missing_plugin: str | None = None

    @property
    def upright(self) -> tuple[int, int]:
        """Return the displayed (width, height): orientations 5-8 swap the axes."""
        swapped = self.orientation >= 5
        return (self.height, self.width) if swapped else (self.width, self.height)


def probe(data: bytes, media_type: str, pixel_cap: int) -> ImageHeader:
    """Open `data` lazily and read its header.

    What decoding would cost beyond the pixel cap is judged by `check_decode` (and
    `check_all_frames` for every frame of an animation), called once it is known that the
    image will be decoded: bytes passed through untouched cost nothing to decode.

    Raises:
        MediaTooLarge: The header claims more than `pixel_cap` pixels.
        InvalidMedia: The header cannot be parsed.
        UnsupportedMediaType: The bytes are not a raster image type fitting handles.
    """
    found = detect(data).media_type
    kind = found if _opened(found) else canonical_media_type(media_type)
    record = _opened(kind)
    if record is None:
        raise UnsupportedMediaType(
            f"cannot fit {found if found.startswith('image/') else media_type} as an image; "
            f"fitting handles {', '.join(readable())}",
            media_type=media_type,
            accepted=readable(),
        )
    # Our own header parser first, so that this check (not Pillow's bomb guard) speaks.
    stored = image_size(data, kind)
    if stored is not None:
        _check_cap(stored, pixel_cap, kind)
    missing = _plugin(record)
    if missing is not None:
        if stored is None:  # nothing to pass through either: say what to install
            raise codec_unavailable(missing, kind)
        return ImageHeader(kind, *stored, 1, False, False, True, False, None, missing)
    image = _open(data, record, pixel_cap)
    _check_cap(image.size, pixel_cap, kind)
    damaged = False
    try:
        with quiet():
            animated = record.animatable and bool(getattr(image, "is_animated", False))
    except PIL_ERRORS:
        # Pillow's GIF reader looks for a second frame by parsing past the first, and raises
        # (IndexError, on a cut extension block) where the file is damaged after it. Treat it as
        # still and incomplete: the first frame is decoded and re-encoded, or InvalidMedia says
        # why not, rather than passing the damaged file on. The failed seek leaves the image
        # mid-file, so it is opened again.
        animated, damaged = False, True
        image = _open(data, record, pixel_cap)
    return ImageHeader(
        media_type=kind,
        width=image.size[0],
        height=image.size[1],
        orientation=_orientation(image),
        animated=animated,
        lossless=record.is_lossless(data),
        complete=not damaged and (record.complete is None or record.complete(data)),
        cmyk=kind == "image/jpeg" and image.mode == "CMYK",  # codec: see ImageHeader.cmyk
        image=image,
    )


def image_orientation(data: bytes) -> int:
    """Return the EXIF orientation (1-8) of an image, read from its header only.

    Args:
        data: The encoded image.

    Returns:
        The orientation tag's value; 1 when it is absent, invalid or unreadable.
    """
    # Icons (decoded on open) carry no EXIF, so their orientation is 1 without opening them.
    record = _opened(detect(data).media_type)
    if record is None or record.decoded_on_open or _plugin(record) is not None:
        return 1
    try:
        return _orientation(_open(data, record, pixel_cap=None))
    except (InvalidMedia, MediaTooLarge):
        return 1


def _check_cap(size: tuple[int, int], pixel_cap: int, media_type: str) -> None:
    pixels = size[0] * size[1]
    if pixels > pixel_cap:
        raise MediaTooLarge(
            f"{media_type} of {size[0]}x{size[1]} = {pixels:,} pixels exceeds the pixel cap of "
            f"{pixel_cap:,}; refused before decoding, as a decompression-bomb guard",
            size=pixels,
            limit=pixel_cap,
            media_type=media_type,
        )


def _too_much(media_type: str, what: str, size: int, limit: int, field: str) -> MediaTooLarge:
    return MediaTooLarge(
        f"{media_type}: {what} = {size:,}, over the decode budget's {field}={limit:,}; refused "
        "before decoding, as a guard against inputs that cost far more than their size",
        size=size,
        limit=limit,
        media_type=media_type,
    )


def _check_ratio(
    data: bytes, media_type: str, pixels: int, budget: DecodeBudget, what: str
) -> None:
    allowed = max(budget.ratio_floor, budget.max_pixels_per_byte * len(data))
    if pixels > allowed:
        raise _too_much(
            media_type,
            f"{what} from {len(data):,} bytes ({pixels // max(1, len(data)):,} per byte)",
            pixels,
            allowed,
            f"max_pixels_per_byte={budget.max_pixels_per_byte} above ratio_floor",
        )


def check_decode(data: bytes, head: ImageHeader, budget: DecodeBudget) -> None:
    """Refuse an image whose first frame would cost more than `budget` to decode.

    The decode-work model, from the header and before any pixel is decoded: the pixels per
    input byte, the JPEG's scans (libjpeg decodes every scan at full resolution, draft or
    not, so the work is pixels x scans) and the bytes the decoded picture and its full-size
    working copies take. Call it only for images about to be decoded: counting scans walks
    the whole file (a few ms for a 24 MP photo), and bytes passed on untouched cost nothing.

    Raises:
        MediaTooLarge: Naming the limit exceeded: `max_pixels_per_byte`, `max_scans`,
            `max_scan_pixels` or `max_decoded_bytes`.
    """
    pixels = head.width * head.height
    _check_ratio(data, head.media_type, pixels, budget, f"{head.width}x{head.height} pixels")
    # Codec behaviour: only a JPEG's decode cost grows with its scan count (progressive).
    scans = _check_scans(data, head, budget) if head.media_type == "image/jpeg" else 1
    if head.image is not None:
        _check_memory(head.image, head.media_type, head.animated, scans, budget)


def _check_scans(data: bytes, head: ImageHeader, budget: DecodeBudget) -> int:
    scans = jpeg_scans(data, budget.max_scans)
    if scans > budget.max_scans:
        raise _too_much(
            head.media_type,
            "scans (SOS segments), counted to one past the limit",
            scans,
            budget.max_scans,
            "max_scans",
        )
    pixels = head.width * head.height
    if pixels * scans > budget.max_scan_pixels:
        raise _too_much(
            head.media_type,
            f"{head.width}x{head.height} pixels x {scans} scans",
            pixels * scans,
            budget.max_scan_pixels,
            "max_scan_pixels",
        )
    return scans


def _decoded_bytes(image: Image.Image, media_type: str, animated: bool, scans: int) -> int:
    """Estimate the peak bytes of decoding the first frame and making it RGB(A) or L."""
    mode = image.mode
    pixels = image.size[0] * image.size[1]
    per_pixel = 1 if mode in _ONE_BYTE else 2 if mode.startswith("I;16") else 4
    if mode in _CONVERTED_FIRST or mode.startswith("I;16"):
        per_pixel += 4
    elif "transparency" in image.info:
        # A transparent colour is never reduced while decoding (it would blend into its
        # neighbours) and becomes RGBA at full size; from L or P through an RGB copy first.
        per_pixel += 4 + (3 if mode in _ONE_BYTE else 0)
    if animated and media_type == "image/webp":
        per_pixel += 2 * 4  # libwebp's WebPAnimDecoder keeps two RGBA canvases of its own
    if media_type == "image/jpeg" and scans > 1:
        # A progressive (or multi-scan) JPEG is buffered whole as 16-bit DCT coefficients at
        # the stored size, whatever the draft scale (libjpeg jdcoefct.c): 2 bytes per sample.
        # Measured: 452 MB for a 12000x12000 4:2:0 one, 1.5 samples per pixel.
        per_pixel += _JPEG_COEFFICIENT_BYTES.get(_jpeg_sampling(image), 2 * len(mode))
    return pixels * per_pixel


def _jpeg_sampling(image: Image.Image) -> int:
    from PIL.JpegImagePlugin import get_sampling

    if len(image.mode) != 3:
        return -1
    try:
        return get_sampling(image)
    except (AttributeError, IndexError, KeyError):  # no frame header layers read: assume 4:4:4
        return -1


def _check_memory(
    image: Image.Image, media_type: str, animated: bool, scans: int, budget: DecodeBudget
) -> None:
    needed = _decoded_bytes(image, media_type, animated, scans)
    if needed > budget.max_decoded_bytes:
        what = f"decoded bytes of {image.size[0]}x{image.size[1]} {image.mode}"
        if animated and media_type == "image/webp":
            what += " (three animation canvases)"
        elif media_type == "image/jpeg" and scans > 1:
            what += f" ({scans} scans: its DCT coefficients are held whole)"
        raise _too_much(media_type, what, needed, budget.max_decoded_bytes, "max_decoded_bytes")


def check_all_frames(
    head: ImageHeader, data: bytes, budget: DecodeBudget, limit: int | None = None
) -> int:
    """Refuse an animation whose frames x canvas exceed `budget` (or `limit`); return the count.

    Every frame is composited at the canvas size by Pillow, whatever the frame's own size, so
    the work of decoding them all is frames x canvas pixels, counted here from the header.

    Raises:
        MediaTooLarge: frames x canvas is over `budget.max_frame_pixels`, over `limit`, or
            over what `budget.max_pixels_per_byte` allows for `len(data)` bytes.
    """
    image = head.image
    count = int(getattr(image, "n_frames", 1)) if head.animated and image is not None else 1
    pixels = count * head.width * head.height
    what = f"{count} frames x {head.width}x{head.height} canvas"
    for cap, field in ((budget.max_frame_pixels, "max_frame_pixels"), (limit, "max_pixels")):
        if cap is not None and pixels > cap:
            raise _too_much(head.media_type, what, pixels, cap, field)
    _check_ratio(data, head.media_type, pixels, budget, what)
    return count


def _opened(media_type: str) -> Format | None:
    """Return the record of an image type Pillow opens, or None."""
    record = format_of(media_type)
    return record if record is not None and record.kind == "image" and record.pillow else None


def _open(data: bytes, record: Format, pixel_cap: int | None) -> Image.Image:
    from PIL import Image
    from PIL import __version__ as pillow_version

    media_type, formats = record.media_type, record.pillow
    if any(name not in Image.OPEN for name in formats):
        Image.init()  # load every plugin, as Image.open would; a name still missing is absent
    formats = tuple(name for name in formats if name in Image.OPEN)
    if not formats:  # e.g. AVIF on Pillow < 11.2 without an old pillow-heif
        raise CodecUnavailable(
            f"this Pillow ({pillow_version}) cannot read {media_type}; "
            "Pillow 11.2 or later reads AVIF: pip install -U pillow",
            media_type=media_type,
            package="pillow",
        )
    try:
        with quiet():
            return Image.open(io.BytesIO(data), formats=formats)
    except Image.DecompressionBombError as exc:
        # Pillow's hard limit (2 x MAX_IMAGE_PIXELS) is below a raised pixel cap.
        limit = 2 * (Image.MAX_IMAGE_PIXELS or 0)
        raise MediaTooLarge(
            f"{media_type} exceeds Pillow's limit of {limit:,} pixels "
            f"(PIL.Image.MAX_IMAGE_PIXELS); refused before decoding: {exc}",
            limit=min(limit, pixel_cap or limit),
            media_type=media_type,
        ) from exc
    except PIL_ERRORS as exc:
        raise decode_failure(media_type, exc) from exc


def decode_failure(media_type: str, exc: BaseException) -> InvalidMedia:
    """The library's error for bytes Pillow (or a plugin) could not decode, saying why.

    Pillow's "cannot identify image file <_io.BytesIO object at 0x...>" names an object the
    caller never saw; it means the header is not one Pillow can read, so that is what we say.
    """
    from PIL import UnidentifiedImageError

    why = (
        "the header is corrupt, truncated or not this type"
        if isinstance(exc, UnidentifiedImageError)
        else str(exc) or type(exc).__name__
    )
    return InvalidMedia(f"cannot decode {media_type}: {why}", media_type=media_type)


def _orientation(image: Image.Image) -> int:
    from PIL import Image

    if image.format == "TIFF":
        # Pillow's TIFF reader applies the orientation itself: `size` is already upright and
        # the decoded pixels are too (the tag is dropped on load). Applying it again here
        # would turn the picture a second time.
        return 1
    try:
        with quiet():  # a damaged EXIF block is warned about, then read as far as it goes
            if image.format == "PNG":
                # PngImageFile.getexif() decodes the whole image when the eXIf chunk is absent
                # from the header; the PNG spec (1.5 extensions) puts eXIf before IDAT anyway.
                raw = image.info.get("exif")
                if not raw:
                    return 1
                exif = Image.Exif()
                exif.load(raw)
            else:
                exif = image.getexif()
            value = exif.get(_ORIENTATION_TAG, 1)
    except PIL_ERRORS:
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def codec_unavailable(message: str, media_type: str) -> CodecUnavailable:
    """The error for an image of a format this machine cannot decode: its plugin is missing.

    `message` is `_plugin`'s (or `ImageHeader.missing_plugin`), with any context added; the
    error carries the plugin's package and extra, from the format's record.
    """
    record = format_of(media_type)
    plugin = record.plugin if record is not None else None
    if plugin is None:
        return CodecUnavailable(message, media_type=media_type)
    package = plugin.package or plugin.module
    return CodecUnavailable(message, media_type=media_type, package=package, extra=plugin.extra)


def _plugin(record: Format) -> str | None:
    """Register a format's Pillow plugin once; return why it cannot be read, or None.

    The import is tried each time (a cached module costs a dictionary lookup), so a plugin
    taken away (in a test, `sys.modules[name] = None`) is missing again.
    """
    plugin = record.plugin
    if plugin is None:
        return None
    try:
        module = importlib.import_module(plugin.module)
    except ImportError:
        needs = plugin.package or plugin.module
        return (
            f"this machine cannot decode {record.media_type}: it needs {needs} ({plugin.install})"
        )
    if plugin.module not in _plugins_registered:
        with _plugins_lock:
            if plugin.module not in _plugins_registered:
                if plugin.register:
                    getattr(module, plugin.register)()
                _plugins_registered.add(plugin.module)
    return None
