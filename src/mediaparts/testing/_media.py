"""The `media` fixture's factory: small, deterministic media made by real encoders.

Images, animations and PDFs come from Pillow, WAV from the standard library's `wave`, other
audio formats from `ffmpeg` when it is on `PATH`. Nothing is random and nothing carries a
timestamp, so the same arguments give the same bytes on every call (with the same library
versions). Pillow is imported on first use, not when pytest loads the plugin.
"""

from __future__ import annotations

import functools
import io
import math
import shutil
import struct
import subprocess
import tempfile
import time
import wave
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from mediaparts._conversation._parts import AudioPart, FilePart, ImagePart
from mediaparts._errors import InvalidConfig, excerpt
from mediaparts.formats import Format, by_extension, registered

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["MediaFactory"]

RED = (255, 0, 0)
BLUE = (0, 0, 255)
# PDF metadata dates are fixed, so the bytes do not depend on when a test runs.
_PDF_TIME = time.gmtime(1704067200)  # 2024-01-01T00:00:00Z
_SAMPLE_RATE = 16_000
_TONE_HZ = 440.0


# ffmpeg arguments per audio format: (encoder choices, arguments after the encoder, muxer).
_FFMPEG_AUDIO: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    "mp3": (("libmp3lame", "libshine"), ("-b:a", "32k", "-id3v2_version", "0"), "mp3"),
    "flac": (("flac",), ("-sample_fmt", "s16"), "flac"),
    "ogg": (("libvorbis", "libopus"), (), "ogg"),
    "opus": (("libopus",), ("-b:a", "24k"), "opus"),
    "m4a": (("aac",), ("-b:a", "32k"), "ipod"),
    "aac": (("aac",), ("-b:a", "32k"), "adts"),
    "aiff": (("pcm_s16be",), (), "aiff"),
    "webm": (("libopus", "libvorbis"), (), "webm"),
}
_BITEXACT = ("-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1")

# The text formats the fixture makes, by extension; each is typed by its format record.
_TEXT_FORMATS = ("csv", "tsv", "json", "md", "txt", "html", "xml")
_TEXT_ALIASES = {"markdown": "md", "text": "txt", "htm": "html"}

# How the stored pixels are turned so that applying the EXIF orientation gives the upright
# picture: the inverse of the transpose Pillow's `ImageOps.exif_transpose` applies for each tag.
_STORE_TRANSPOSE = {2: "FLIP_LEFT_RIGHT", 3: "ROTATE_180", 4: "FLIP_TOP_BOTTOM", 5: "TRANSPOSE"}
_STORE_TRANSPOSE |= {6: "ROTATE_90", 7: "TRANSVERSE", 8: "ROTATE_270"}


class MediaFactory:
    """Make deterministic media parts for tests; this is what the `media` fixture returns.

    Every picture is a test card: a smooth gradient, a grid, a yellow disc and a green
    triangle, with a red square at the top-left corner and a blue square at the top-right
    corner of the upright picture, so a test can tell how it was turned.
    """

    def image(
        self,
        width: int,
        height: int,
        format: str = "png",
        orientation: int | None = None,
        animated: bool = False,
    ) -> ImagePart:
        """Make an image of `width` x `height` pixels as seen upright.

        Args:
            width: Upright width in pixels.
            height: Upright height in pixels.
            format: `png`, `jpeg` (`jpg`), `gif`, `webp`, `bmp`, `tiff` (`tif`) or `avif`.
            orientation: An EXIF orientation, 1-8, to write. The pixels are stored turned so
                that applying the tag gives the upright picture; for 5-8 the stored size is
                therefore `height` x `width`. Needs a format with EXIF (not gif or bmp).
            animated: Three frames instead of one (`gif`, `webp` or `png` as APNG).

        Returns:
            An `ImagePart` named `image.<ext>`.

        Raises:
            InvalidConfig: An argument is out of range or the format cannot hold what is asked.
        """
        names, aliases = _image_names()
        spec = names.get(format.lower()) or aliases.get(format.lower())
        if spec is None or spec.sample is None:
            known = ", ".join([*names, *aliases])
            raise InvalidConfig(
                f"media.image() cannot make {excerpt(format)} images; use one of {known}"
            )
        name = spec.name
        _check_size(width, height)
        if orientation is not None:
            if isinstance(orientation, bool) or orientation not in range(1, 9):
                raise InvalidConfig(
                    f"orientation must be an EXIF tag value 1-8, got {excerpt(orientation)}"
                )
            if not spec.exif:
                raise InvalidConfig(f"{name} has no EXIF block for an orientation; use jpeg or png")
        if animated and not spec.animatable:
            raise InvalidConfig(f"{name} cannot be animated here; use gif, webp or png (APNG)")
        writer = spec.writer or ""
        _check_encoder(writer, f"media.image(format={excerpt(format)})")
        data = _image_bytes(width, height, spec, orientation, animated)
        return ImagePart(data=data, filename=f"image.{spec.sample.extension}")

    def audio(self, seconds: float = 1.0, format: str = "wav") -> AudioPart:
        """Make a 440 Hz tone, 16 kHz mono.

        WAV is written with the standard library. `mp3`, `flac`, `ogg`, `opus`, `m4a`, `aac`,
        `aiff` and `webm` are encoded by `ffmpeg` from that WAV; when `ffmpeg` (or its encoder
        for the format) is missing, the calling test is skipped, saying so.

        Args:
            seconds: The length, over 0 and at most one hour.
            format: `wav`, or one of the formats above.

        Returns:
            An `AudioPart` named `audio.<format>`.

        Raises:
            InvalidConfig: The length or the format is not one this factory makes.
        """
        if isinstance(seconds, bool) or not 0 < seconds <= 3600:
            raise InvalidConfig(f"seconds must be over 0 and at most 3600, got {excerpt(seconds)}")
        name = format.lower()
        if name != "wav" and name not in _FFMPEG_AUDIO:
            known = ", ".join(["wav", *_FFMPEG_AUDIO])
            raise InvalidConfig(
                f"media.audio() cannot make {excerpt(format)} audio; use one of {known}"
            )
        frames = round(seconds * _SAMPLE_RATE)
        data = _wav_bytes(frames) if name == "wav" else _ffmpeg_audio(frames, name)
        return AudioPart(data=data, filename=f"audio.{name}")

    def pdf(self, pages: int = 1) -> FilePart:
        """Make a PDF of `pages` pages (A6 at 72 dpi), written by Pillow.

        Each page is an image with no text layer: a red square at its top-left corner and one
        small black bar per page number (three bars on page three).

        Args:
            pages: The number of pages, 1-1000.

        Returns:
            A `FilePart` (`application/pdf`) named `document.pdf`.

        Raises:
            InvalidConfig: `pages` is out of range.
        """
        if isinstance(pages, bool) or not isinstance(pages, int) or not 1 <= pages <= 1000:
            raise InvalidConfig(f"pages must be an int from 1 to 1000, got {excerpt(pages)}")
        return FilePart(data=_pdf_bytes(pages), filename="document.pdf")

    def text(self, text: str, format: str = "csv") -> FilePart:
        """Make a UTF-8 text file part.

        Args:
            text: The file's content.
            format: `csv`, `tsv`, `json`, `md` (`markdown`), `txt` (`text`), `html` or `xml`.

        Returns:
            A `FilePart` named `text.<format>`, typed by that name (`text/csv`, ...).

        Raises:
            InvalidConfig: The format is not one of those, or `text` is not a str.
        """
        name = _TEXT_ALIASES.get(format.lower(), format.lower())
        media_type = by_extension(f".{name}") if name in _TEXT_FORMATS else None
        if media_type is None:
            known = ", ".join([*_TEXT_FORMATS, *_TEXT_ALIASES])
            raise InvalidConfig(
                f"media.text() cannot make {excerpt(format)} files; use one of {known}"
            )
        if not isinstance(text, str):
            raise InvalidConfig(f"media.text() takes str, got {type(text).__name__}")
        data = text.encode("utf-8")
        return FilePart(data=data, filename=f"text.{name}", media_type=media_type)


def _image_names() -> tuple[dict[str, Format], dict[str, Format]]:
    """Return the formats the fixture makes by short name, and by their other extensions."""
    sampled = [record for record in registered("image") if record.sample is not None]
    names = {record.name: record for record in sampled}
    aliases = {
        extension[1:]: record
        for record in sampled
        for extension in record.extensions
        if extension[1:] not in names
    }
    return names, aliases


def _check_size(width: int, height: int) -> None:
    for label, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 20_000:
            raise InvalidConfig(f"{label} must be an int from 1 to 20000, got {excerpt(value)}")


def _check_encoder(pillow_format: str, call: str) -> None:
    """Skip the calling test when this Pillow build cannot write the format (AVIF, mostly)."""
    from PIL import Image

    Image.init()
    if pillow_format not in Image.SAVE:
        pytest.skip(f"{call} needs a Pillow built with {pillow_format} support")


# -- images ------------------------------------------------------------------------------------


def _card(width: int, height: int, phase: int = 0) -> Image.Image:
    """Draw the upright test card; `phase` moves the disc, for animation frames."""
    from PIL import Image, ImageDraw

    size = (width, height)
    ramp = Image.linear_gradient("L")
    red = Image.radial_gradient("L").resize(size, Image.Resampling.BILINEAR)
    # A dim red channel keeps the red corner marker unmistakable.
    red = red.point(lambda value: 40 + value // 4)
    green = ramp.rotate(90).resize(size, Image.Resampling.BILINEAR)
    blue = ramp.resize(size, Image.Resampling.BILINEAR)
    card = Image.merge("RGB", (red, green, blue))
    draw = ImageDraw.Draw(card)
    short = min(width, height)
    step = max(8, short // 4)
    for x in range(0, width, step):
        draw.line([(x, 0), (x, height)], fill=(255, 255, 255))
    for y in range(0, height, step):
        draw.line([(0, y), (width, y)], fill=(255, 255, 255))
    radius = short // 5
    cx, cy = width // 3 + phase * width // 6, height // 2
    draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=(250, 200, 40))
    triangle = [(width * 3 // 4, height // 4), (width * 9 // 10, height * 3 // 4)]
    draw.polygon([*triangle, (width * 3 // 5, height * 3 // 4)], fill=(30, 160, 90))
    _markers(card, RED, BLUE)
    return card


def _markers(image: Image.Image, left: Any, right: Any) -> None:
    from PIL import ImageDraw

    width, height = image.size
    side = max(1, min(width, height) // 8)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, side - 1, side - 1], fill=left)
    draw.rectangle([width - side, 0, width - 1, side - 1], fill=right)


def _paletted(card: Image.Image) -> Image.Image:
    """Quantize for GIF, keeping the corner markers exactly red and blue."""
    from PIL import Image

    quantized = card.quantize(colors=254, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    palette = (quantized.getpalette() or [])[: 254 * 3]
    palette += [0, 0, 0] * (254 - len(palette) // 3) + [*RED, *BLUE]
    quantized.putpalette(palette)
    _markers(quantized, 254, 255)
    return quantized


@functools.lru_cache(maxsize=32)
def _image_bytes(
    width: int, height: int, spec: Format, orientation: int | None, animated: bool
) -> bytes:
    from PIL import Image

    frames = [_card(width, height, phase) for phase in range(3 if animated else 1)]
    if orientation is not None and orientation in _STORE_TRANSPOSE:
        method = Image.Transpose[_STORE_TRANSPOSE[orientation]]
        frames = [frame.transpose(method) for frame in frames]
    if spec.modes and "RGB" not in spec.modes:  # GIF: a palette that keeps the markers exact
        frames = [_paletted(frame) for frame in frames]
    params: dict[str, Any] = dict(spec.sample.options if spec.sample else ())
    if orientation is not None:
        exif = Image.Exif()
        exif[0x0112] = orientation  # Orientation (EXIF 2.32, tag 274)
        params["exif"] = exif.tobytes()
    if animated:
        params |= {"save_all": True, "append_images": frames[1:], "duration": 200, "loop": 0}
    buffer = io.BytesIO()
    frames[0].save(buffer, spec.writer or "", **params)
    return buffer.getvalue()


# -- audio -------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def _wav_bytes(frames: int) -> bytes:
    step = 2 * math.pi * _TONE_HZ / _SAMPLE_RATE
    samples = [round(16_000 * math.sin(step * i)) for i in range(frames)]
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(_SAMPLE_RATE)
        out.writeframes(struct.pack(f"<{frames}h", *samples))
    return buffer.getvalue()


@functools.lru_cache(maxsize=1)
def _ffmpeg_encoders(ffmpeg: str) -> frozenset[str]:
    listed = subprocess.run(
        [ffmpeg, "-hide_banner", "-encoders"], capture_output=True, text=True, timeout=60
    )
    # Lines look like " A....D libmp3lame   libmp3lame MP3 (MPEG audio layer 3)".
    return frozenset(line.split()[1] for line in listed.stdout.splitlines() if line[:2] == " A")


def _ffmpeg_audio(frames: int, name: str) -> bytes:
    """Encode the tone with ffmpeg; skip the calling test when ffmpeg or its encoder is missing."""
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        pytest.skip(
            f"media.audio(format={excerpt(name)}) needs ffmpeg on PATH to encode {name}; "
            "install ffmpeg, or use format='wav'"
        )
    choices = _FFMPEG_AUDIO[name][0]
    encoder = next((e for e in choices if e in _ffmpeg_encoders(ffmpeg)), None)
    if encoder is None:
        pytest.skip(
            f"media.audio(format={excerpt(name)}): this ffmpeg has none of {', '.join(choices)}"
        )
    return _ffmpeg_encode(ffmpeg, encoder, frames, name)


@functools.lru_cache(maxsize=16)
def _ffmpeg_encode(ffmpeg: str, encoder: str, frames: int, name: str) -> bytes:
    args, muxer = _FFMPEG_AUDIO[name][1:]
    with tempfile.TemporaryDirectory(prefix="mediaparts-") as folder:
        source, target = Path(folder, "in.wav"), Path(folder, f"out.{name}")
        source.write_bytes(_wav_bytes(frames))
        command = [ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-i", str(source)]
        command += ["-c:a", encoder, *args, *_BITEXACT, "-threads", "1", "-f", muxer, str(target)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"ffmpeg could not encode {name}: {done.stderr.strip()[-500:]}")
        return target.read_bytes()


# -- documents ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _pdf_bytes(pages: int) -> bytes:
    from PIL import Image, ImageDraw

    sheets = []
    for number in range(1, pages + 1):
        sheet = Image.new("RGB", (298, 420), "white")  # A6 at 72 dpi
        draw = ImageDraw.Draw(sheet)
        draw.rectangle([0, 0, 23, 23], fill=RED)
        for bar in range(min(number, 40)):
            x = 36 + bar * 6
            draw.rectangle([x, 60, x + 3, 100], fill="black")
        sheets.append(sheet)
    buffer = io.BytesIO()
    sheets[0].save(
        buffer,
        "PDF",
        save_all=True,
        append_images=sheets[1:],
        resolution=72.0,
        title="mediaparts test document",
        author="mediaparts.testing",  # not an import
        creator="mediaparts.testing",  # not an import
        producer="Pillow",
        creationDate=_PDF_TIME,
        modDate=_PDF_TIME,
    )
    return buffer.getvalue()
