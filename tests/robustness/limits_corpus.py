"""A generated hostile corpus for the limits harness: one case per finding of issue 10, and families.

Everything is built here, deterministically, with real encoders or byte builders; every input
is at most 1 MB. `small_set()` is what CI runs (tests/robustness/test_limits.py); `large_set()` adds the
full-size versions and the families (every bomb, every regex consumer, cut and mutated
testdata/ files) for a run by hand (`python fuzz/limits.py --large`).

Inputs that are Python objects (message dicts nested 100,000 deep) or that must exist on the
child's side (a FIFO) are built in the child by `CHILD_BUILDERS`, before anything is measured.
"""

from __future__ import annotations

import base64
import functools
import io
import os
import random
import struct
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests._builders import TESTDATA, png_chunk, read
from tests.robustness import limits_misc, limits_streams
from tests.robustness.limits_audio import audio_cases
from tests.robustness.limits_harness import MAX_INPUT, Case
from tests.robustness.limits_office import office_cases
from tests.robustness.limits_svg import svg_cases
from tests.robustness.limits_video import video_cases
from tests.robustness.test_fuzz import mutate as fuzz_mutate

MEDIA = ("detect", "part", "from_upload", "normalize", "estimate_tokens", "render", "cli")

# ---------------------------------------------------------------------------- byte builders


def png_zeros(width: int, height: int, color_type: int = 6, bit_depth: int = 8) -> bytes:
    """Return a PNG of black (transparent) pixels, compressed a row at a time."""
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[color_type]
    compressor = zlib.compressobj(9)
    row = bytes(1 + (width * channels * bit_depth + 7) // 8)
    idat = [compressor.compress(row) for _ in range(height)]
    idat.append(compressor.flush())
    header = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", header)
        + png_chunk(b"IDAT", b"".join(idat))
        + png_chunk(b"IEND", b"")
    )


@functools.cache
def png_169mpx() -> bytes:
    """A 13000 x 13000 RGBA PNG: 169 megapixels, under the 178,956,970-pixel cap, ~660 KB."""
    return png_zeros(13_000, 13_000)


@functools.cache
def progressive_jpeg(scans: int, side: int = 7000) -> bytes:
    """A progressive JPEG of side x side whose last refinement scan is repeated `scans` times.

    Every scan makes libjpeg walk the whole image's coefficients again, so decode work grows
    with the scan count, not with the pixels: 31 ms a scan at 7000 x 7000 (issue 10).
    """
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (side, side), (120, 30, 200)).save(buffer, "JPEG", progressive=True)
    data = buffer.getvalue()
    last = data.rindex(b"\xff\xda")  # a luma AC refinement scan, 75 bytes of a flat image
    return data[:-2] + data[last:-2] * scans + b"\xff\xd9"


def gif_frames(
    width: int, height: int, frames: int, delay: int = 10, *, identical: bool = True
) -> bytes:
    """An animated GIF whose logical screen is width x height, of 1 x 1 frames.

    Pillow composites every frame onto the whole screen, so the work is frames x screen.
    """
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0))
    out += b"\x00\x00\x00\xff\xff\xff"  # a two-colour global table
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"  # loop forever
    for i in range(frames):
        disposal = 1 if identical else 2
        out += b"\x21\xf9\x04" + struct.pack("<BHB", disposal << 2, delay, 0) + b"\x00"
        left = 0 if identical else (i * 7) % width
        out += b"\x2c" + struct.pack("<HHHHB", left, 0, 1, 1, 0)
        out += b"\x02\x02\x44\x01\x00"  # LZW minimum code size 2: clear, index 0, end
    return bytes(out + b";")


@functools.cache
def _vp8l_1x1() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGBA", (1, 1), (255, 0, 0, 255)).save(buffer, "WEBP", lossless=True)
    data = buffer.getvalue()
    at = data.index(b"VP8L")
    (size,) = struct.unpack("<I", data[at + 4 : at + 8])
    return data[at : at + 8 + size + (size & 1)]


def webp_canvas(width: int, height: int, frames: int) -> bytes:
    """An animated WebP with a width x height canvas and 1 x 1 lossless frames (~140 bytes)."""

    def chunk(tag: bytes, body: bytes) -> bytes:
        return tag + struct.pack("<I", len(body)) + body + b"\x00" * (len(body) & 1)

    def u24(value: int) -> bytes:
        return struct.pack("<I", value)[:3]

    body = chunk(b"VP8X", bytes([0x12, 0, 0, 0]) + u24(width - 1) + u24(height - 1))
    body += chunk(b"ANIM", b"\x00\x00\x00\x00\x00\x00")
    for i in range(frames):
        frame = u24(i % 2) + u24(0) + u24(0) + u24(0) + u24(100) + b"\x00"
        body += chunk(b"ANMF", frame + _vp8l_1x1())
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body


@functools.cache
def pdf_object_stream(inflated: int = 60 << 20) -> bytes:
    """A PDF whose one object stream inflates to `inflated` bytes of "10 10 10 ...".

    A page counter that splits the stream's header into numbers holds 20 million of them
    (two-digit ones: Python shares one-byte `bytes` objects, not these). Over the counter's
    16 MiB cap per stream, it must be refused after inflating no more than that.
    """
    compressor = zlib.compressobj(9)
    piece = b"10 " * (1 << 19)
    stream = b"".join(compressor.compress(piece) for _ in range(inflated // len(piece)))
    stream += compressor.flush()
    head = (
        f"<< /Type /ObjStm /N 1 /First {inflated} /Filter /FlateDecode /Length {len(stream)} >>"
    ).encode()
    return (
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n" + head + b"\nstream\n" + stream
        + b"\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"
    )  # fmt: skip


@functools.cache
def pdf_many_streams(count: int = 60, *, corrupt: bool = True) -> bytes:
    """`count` object streams each inflating to just under the 16 MiB cap per stream.

    About 16 KB each, so 60 of them fit in 1 MB and would inflate 960 MB if only each stream
    were capped; with a wrong checksum, zlib fails only after inflating all of a stream.
    """
    body = zlib.compress(b"0" * ((16 << 20) - 100), 9)
    if corrupt:
        body = body[:-1] + bytes([body[-1] ^ 1])
    objects = b"".join(
        b"%d 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>\nstream\n%s"
        b"\nendstream\nendobj\n" % (i + 1, body)
        for i in range(count)
    )
    return b"%PDF-1.7\n" + objects + b"trailer\n<< /Root 1 0 R >>\n%%EOF\n"


def pdf_digits(digits: int = 65_000) -> bytes:
    """`%PDF-1.7 x` then a line of digits: the backtracking object search of issue 10."""
    return b"%PDF-1.7 x\n" + b"7" * digits


def random_bytes(size: int, seed: int) -> bytes:
    """Seeded random bytes: no format's signature, nothing to identify."""
    return random.Random(seed).randbytes(size)


def fill(pattern: bytes, prefix: bytes = b"", size: int = MAX_INPUT) -> bytes:
    """`prefix` then `pattern` repeated up to `size` bytes."""
    count = (size - len(prefix)) // len(pattern)
    return prefix + pattern * count


def mutate(data: bytes, seed: int) -> bytes:
    """The mutation suite's own operators (tests/robustness/test_fuzz.py), kept within the 1 MB bound."""
    return fuzz_mutate(data, seed)[:MAX_INPUT]


# ---------------------------------------------------------------------------- child builders


def _tiny_png_b64() -> str:
    return base64.b64encode(png_zeros(1, 1)).decode()


def _user(*content: Any) -> dict[str, Any]:
    return {"role": "user", "content": list(content)}


def _image_url(url: str) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": url}}


def _fifo(workdir: Path) -> str:
    path = workdir / "pipe.png"
    os.mkfifo(path)
    return str(path)


def _nested_list(depth: int, leaf: Any) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def _nested_dict(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


CHILD_BUILDERS: dict[str, Callable[[Path], Any]] = {
    # Local files named by untrusted dicts: each must be refused, fast (issue 10, high).
    "passwd-image-url": lambda _: _user(_image_url("/etc/passwd")),
    "environ-image-url": lambda _: _user(_image_url("/proc/self/environ")),
    "passwd-file-url": lambda _: _user(_image_url("file:///etc/passwd")),
    "passwd-path-shorthand": lambda _: _user({"path": "/etc/passwd"}),
    "passwd-own-dict": lambda _: {
        "role": "user",
        "parts": [{"kind": "file", "path": "/etc/passwd"}],
    },
    "zero-image-url": lambda _: _user(_image_url("/dev/zero")),
    "zero-path-shorthand": lambda _: _user({"path": "/dev/zero"}),
    "fifo-image-url": lambda workdir: _user(_image_url(_fifo(workdir))),
    "fifo-path-shorthand": lambda workdir: _user({"path": _fifo(workdir)}),
    "fifo-path": _fifo,
    "zero-path": lambda _: "/dev/zero",
    # Structure: depth and breadth.
    "nested-content-lists": lambda _: {"role": "user", "content": _nested_list(100_000, "x")},
    "nested-metadata": lambda _: _user(
        {"data": _tiny_png_b64(), "metadata": _nested_dict(100_000)}
    ),
    "nested-payload": lambda _: {
        "messages": [{"role": "user", "content": _nested_list(100_000, {"type": "text"})}],
        "contents": [{"role": "user", "parts": _nested_list(100_000, {"text": "x"})}],
        "input": _nested_list(100_000, {}),
    },
    # 500,000 levels is 1 MB as JSON text ("[" and "]" each): the deepest a 1 MB body nests.
    "nested-payload-500k": lambda _: {
        "messages": [{"role": "user", "content": _nested_list(500_000, {"type": "text"})}]
    },
    "nested-content-lists-500k": lambda _: {
        "role": "user",
        "content": _nested_list(500_000, "x"),
    },
    "many-text-parts": lambda _: _user(*(["x"] * 100_000)),
    "many-image-parts": lambda _: _user(
        *[_image_url("data:image/png;base64," + _tiny_png_b64())] * 8_000
    ),
    "long-filename": lambda _: _user(
        {"data": base64.b64encode(read("document.pdf")).decode(), "filename": "a  " * 300_000}
    ),
}


# ---------------------------------------------------------------------------- the sets


def _media(
    name: str,
    data: bytes | Callable[[], bytes],
    entries: tuple[str, ...],
    ci: tuple[str, ...] = (),
    **kw: Any,
) -> Iterator[Case]:
    for entry in entries:
        yield Case(f"{name}/{entry}", entry, data=data, ci=entry in ci, **kw)


def _built(name: str, entries: tuple[str, ...], ci: bool = False, **kw: Any) -> Iterator[Case]:
    for entry in entries:
        yield Case(f"{name}/{entry}", entry, build=name, ci=ci, **kw)


def findings(large: bool) -> Iterator[Case]:
    """One case (or a few entry points) per finding of issue 10."""
    yield from _media(
        "pdf-digits", pdf_digits, MEDIA, ci=("detect", "part", "from_upload", "cli"),
        options={"filename": "notes.txt"},
    )  # fmt: skip
    if large:
        yield from _media("pdf-digits-1mb", pdf_digits(MAX_INPUT - 16), MEDIA)
    side = 7000
    scans = 9_000 if large else 400  # 9,000: just under 1 MB; 400 already costs ~12 s
    yield from _media(
        f"jpeg-{scans}-scans", functools.partial(progressive_jpeg, scans, side),
        ("from_upload", "normalize", "part", "estimate_tokens"), ci=("from_upload", "normalize"),
        pixels=side * side, options={"providers": ["anthropic"]} if not large else {},
    )  # fmt: skip
    canvas = 12_000
    yield from _media(
        "webp-anim-canvas", webp_canvas(canvas, canvas, 3),
        ("normalize", "from_upload", "estimate_tokens", "cli"), ci=("normalize",),
        pixels=canvas * canvas, options={"providers": ["openai"]} if not large else {},
    )  # fmt: skip
    screen = 8000
    yield from _media(
        "gif-anim-screen", gif_frames(screen, screen, 60, identical=False),
        ("fit_image", "normalize", "from_upload"), ci=("fit_image",), pixels=screen * screen,
    )  # fmt: skip
    yield from _media(
        "gif-delay-overflow", gif_frames(1, 1, 3, delay=65_535),
        ("from_upload", "normalize", "render"), ci=("from_upload",),
    )  # fmt: skip
    yield from _media(
        "pdf-object-stream", pdf_object_stream,
        ("estimate_tokens", "normalize", "render", "cli"), ci=("estimate_tokens", "normalize"),
        options={"providers": ["gemini"]},
    )  # fmt: skip
    yield from _media(
        "pdf-many-streams", pdf_many_streams,
        ("estimate_tokens", "normalize", "cli"), ci=("estimate_tokens",),
        options={"providers": ["gemini"]},
    )  # fmt: skip
    side = 13_000
    yield from _media(
        "png-169mpx-rgba", png_169mpx, ("normalize", "from_upload"),
        ci=("normalize", "from_upload"), pixels=side * side,
        options={"providers": ["anthropic"]} if not large else {},
    )  # fmt: skip
    dicts = [
        ("passwd-image-url", True), ("environ-image-url", True), ("passwd-file-url", True),
        ("passwd-path-shorthand", True), ("passwd-own-dict", large), ("zero-image-url", True),
        ("zero-path-shorthand", large), ("fifo-image-url", True), ("fifo-path-shorthand", large),
    ]  # fmt: skip
    for name, ci in dicts:
        yield from _built(name, ("message_from_dict",), ci=ci, refused=True)
    yield from _built("fifo-path", ("cli",), ci=True, refused=True)
    yield from _built("zero-path", ("cli",), ci=True, refused=True)
    noise = random_bytes(256 << 10, seed=10)
    uploads = [
        ("random-named-pdf", {"filename": "report.pdf"}, True),
        ("random-typed-pdf", {"content_type": "application/pdf"}, True),
        ("random-named-mp3", {"filename": "song.mp3", "accept": "audio/*"}, True),
        ("random-named-mp4", {"filename": "clip.mp4", "accept": "video/*"}, large),
        ("random-named-wav", {"filename": "tone.wav", "accept": "audio/*"}, large),
    ]
    for name, options, ci in uploads:
        yield Case(
            f"{name}/from_upload", "from_upload", data=noise, options=options, refused=True, ci=ci
        )


# The bombs of tests/robustness/test_bombs.py by name (a test checks the list is theirs), and two more.
BOMBS = (
    "avif-65000", "bmp-60000", "gif-65535", "heic-65000", "ico-png-40000",
    "jpeg-65000", "jpeg-progressive-65000", "png-40000", "tiff-65000", "webp-canvas",
    "webp-lossless", "gif-screen-frames", "webp-anim-canvas-max",
)  # fmt: skip


@functools.cache
def _bombs() -> dict[str, bytes]:
    from tests.robustness.test_bombs import make_bombs

    made = make_bombs()
    made["gif-screen-frames"] = gif_frames(65_535, 65_535, 2)
    made["webp-anim-canvas-max"] = webp_canvas(1 << 24, 1 << 24, 2)
    return made


def bomb(name: str) -> bytes:
    """The bomb called `name`, every one built once, on first use."""
    return _bombs()[name]


def bombs(large: bool) -> Iterator[Case]:
    """Decompression bombs in every image format read: refused before a pixel is decoded."""
    for name in BOMBS:
        ci = ("normalize", "from_upload") if name in {"png-40000", "gif-65535"} else ()
        entries = ("normalize", "from_upload", "estimate_tokens", "part") if large else ci
        yield from _media(f"bomb-{name}", functools.partial(bomb, name), entries, ci=ci)


def structures(large: bool) -> Iterator[Case]:
    """Deep nesting and many parts, for message_from_dict, render and check."""
    yield from _built("nested-content-lists", ("message_from_dict",), ci=True)
    yield from _built("nested-metadata", ("message_from_dict",), ci=large)
    yield from _built("nested-payload", ("check",), ci=True)
    yield from _built("nested-payload-500k", ("check",), ci=True, options={"providers": ["openai"]})
    yield from _built("nested-content-lists-500k", ("message_from_dict",), ci=large)
    yield from _built("many-image-parts", ("message_from_dict",), ci=True)
    if large:
        yield from _built("many-text-parts", ("message_from_dict",))
        yield from _built("long-filename", ("message_from_dict",))


# Long inputs for every regular expression that reads untrusted text: detection's PDF, text,
# markup, CSV/JSON/Markdown and shebang sniffers, data URIs and base64.
TEXTS: dict[str, tuple[bytes, bool]] = {
    "shebang-run": (fill(b"#!"), True),
    "markdown-brackets": (fill(b"["), True),
    "markdown-links": (fill(b"![a"), False),
    "markdown-emphasis": (fill(b"**a"), False),
    "markdown-setext": (fill(b"=", b"a\n"), False),
    "markdown-headings": (fill(b"# a\n"), False),
    "markdown-lists": (fill(b"1. "), False),
    "csv-quotes": (fill(b'"'), True),
    "csv-open-quotes": (fill(b'a,"'), False),
    "csv-commas": (fill(b","), False),
    "csv-doubled-quotes": (fill(b'"",'), False),
    "html-doctype-spaces": (fill(b" ", b"<!DOCTYPE html"), False),
    "html-angles": (fill(b"<"), False),
    "html-open-tags": (fill(b"<a"), False),
    "html-comments": (fill(b"<!--"), False),
    "xml-open-attributes": (fill(b'a="', b"<?xml "), False),
    "svg-attributes": (fill(b"x ", b"<svg "), False),
    "json-brackets": (fill(b"["), False),
    "json-objects": (fill(b'{"a":'), False),
    "utf16-angles": (b"\xff\xfe" + "<".encode("utf-16-le") * (MAX_INPUT // 2 - 1), False),
    "whitespace": (fill(b" \t\r\n"), False),
    "pdf-objects": (fill(b"1 0 obj ", b"%PDF-1.7 x\n"), False),
    "pdf-numbers": (fill(b"1 ", b"%PDF-1.7 x\n"), False),
}


def texts(large: bool) -> Iterator[Case]:
    """Every text sniffer and text parser, over 1 MB of the pattern that hurts it most."""
    for name, (data, ci) in TEXTS.items():
        entries = ("detect", "part", "from_upload") if large else ("detect",)
        yield from _media(f"text-{name}", data, entries, ci=("detect",) if ci else ())
    png = base64.b64encode(png_zeros(1, 1))
    strings = {
        "data-uri-parameters": (
            fill(b";a=b", b"data:image/png", MAX_INPUT - 256) + b";base64," + png,
            True,
        ),
        "data-uri-semicolons": (
            fill(b";", b"data:image/png", MAX_INPUT - 256) + b";base64," + png,
            False,
        ),
        "base64-whitespace": (png[:8] + fill(b" \n", size=MAX_INPUT - 256) + png[8:], True),
        "base64-stray": (fill(b"A=", size=MAX_INPUT), False),
    }
    for name, (data, ci) in strings.items():
        entry = "part" if data.startswith(b"data:") else "part-base64"
        yield Case(f"string-{name}/{entry}", entry, data=data, options={"as_text": True}, ci=ci)
    yield Case(
        "declared-type-long/detect", "detect", data=b"x",
        options={"declared": "a" * (MAX_INPUT - 8)}, ci=True,
    )  # fmt: skip


def damaged(large: bool) -> Iterator[Case]:
    """testdata/ files cut short and mutated, through the media entry points."""
    names = sorted(
        p.name
        for p in TESTDATA.iterdir()
        if p.is_file() and p.name not in {"make.py", "README.md"} and not p.name.startswith(".")
    )
    ci = {("photo.jpg", "half"), ("animated.gif", "mutated-3"), ("document.pdf", "mutated-1")}
    for name in names:
        data = read(name)
        variants = {"half": data[: len(data) // 2], "quarter": data[: len(data) // 4]}
        variants |= {f"mutated-{seed}": mutate(data, seed) for seed in range(1, 4)}
        for how, variant in variants.items():
            chosen = (name, how) in ci
            if not (large or chosen):
                continue
            entries = ("part", "normalize", "from_upload") if large else ("normalize",)
            yield from _media(
                f"{how}-{name}",
                variant,
                entries,
                ci=("normalize",) if chosen else (),
                options={"filename": name},
            )


CHILD_BUILDERS.update(limits_misc.CHILD_BUILDERS)


def large_set() -> list[Case]:
    """Every case, full size: hundreds of runs, for `python fuzz/limits.py --large`."""
    cases = [*findings(True), *bombs(True), *structures(True), *texts(True), *damaged(True)]
    cases += limits_misc.misc(True)
    cases += office_cases(True)
    cases += svg_cases(True)
    cases += video_cases(True)
    cases += audio_cases(True)
    cases += limits_streams.stream_cases(True)
    return _unique(cases)


def small_set() -> list[Case]:
    """The few dozen cases CI runs: each finding once, and a sample of every family."""
    cases = [*findings(False), *bombs(False), *structures(False), *texts(False), *damaged(False)]
    cases += limits_misc.misc(False)
    cases += office_cases(False)
    cases += svg_cases(False)
    cases += video_cases(False)
    cases += audio_cases(False)
    cases += limits_streams.stream_cases(False)
    return _unique([case for case in cases if case.ci])


def _unique(cases: list[Case]) -> list[Case]:
    names = [case.name for case in cases]
    duplicates = {name for name in names if names.count(name) > 1}
    if duplicates:
        raise ValueError(f"case names must be unique: {sorted(duplicates)}")
    return cases
