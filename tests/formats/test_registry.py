"""The format registry: one record per format, read by detection, imaging and the fixtures."""

from __future__ import annotations

import dataclasses
import io
import sys
import types
from collections.abc import Iterator
from typing import IO, Any

import pytest
from PIL import Image

import mediaparts as mp
from mediaparts import formats
from mediaparts.detection import (
    canonical_media_type,
    detect,
    extension_for,
    kind_of,
    media_type_from_filename,
)
from mediaparts.formats import PREFIX_SIZE, Encoding, Format, Sample
from mediaparts.imaging import FitSpec, fit_image
from mediaparts.testing import MediaFactory

TEST_TYPE = "image/x-mediaparts-test"
# What Pillow's PCX writer puts first: manufacturer 10, version 5, RLE encoding 1 (ZSoft PCX
# Technical Reference, header bytes 0-2).
PCX_MAGIC = ((0, b"\x0a\x05\x01"),)
# Save options the record gives its modes; Pillow's PCX writer ignores them, the spy sees them.
ENCODING = Encoding(
    lossless=(("mpxt_mode", "lossless"),), quality="mpxt_quality", options=(("mpxt_v", 1),)
)


def _pcx_size(data: bytes | memoryview) -> tuple[int, int] | None:
    """PCX header: xmin, ymin, xmax, ymax as little-endian 16-bit words at offset 4."""
    if len(data) < 12 or data[0] != 0x0A:
        return None
    xmin, ymin, xmax, ymax = (int.from_bytes(data[i : i + 2], "little") for i in (4, 6, 8, 10))
    return xmax - xmin + 1, ymax - ymin + 1


@pytest.fixture
def throwaway() -> Iterator[Format]:
    """A made-up image type, written and read by Pillow's PCX plugin, registered for one test."""
    record = formats.register(
        Format(
            TEST_TYPE,
            "image",
            (".mpxt",),
            ("image/x-mp-test",),
            short="mpxt",
            pillow=("PCX",),
            lossless=True,
            write_rank=4,
            size=_pcx_size,
            sample=Sample("mpxt"),
            encoding=ENCODING,
            magic=PCX_MAGIC,
        )
    )
    yield record
    formats.unregister(TEST_TYPE)


@pytest.fixture
def pcx_saves(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The options of every PCX that Pillow writes during the test, in order."""
    Image.init()
    original, seen = Image.SAVE["PCX"], list[dict[str, Any]]()

    def spy(image: Image.Image, fp: IO[bytes], filename: str | bytes) -> None:
        seen.append({str(key): value for key, value in image.encoderinfo.items()})
        original(image, fp, filename)

    monkeypatch.setitem(Image.SAVE, "PCX", spy)
    return seen


def _encoded(format: str, width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, format)
    return buffer.getvalue()


def _pcx(width: int, height: int) -> bytes:
    return _encoded("PCX", width, height)


def test_registry_throwaway_format_is_named_by_detection(throwaway: Format) -> None:
    """Detection reads the new record's alias, extension and kind."""
    assert canonical_media_type("IMAGE/X-MP-TEST; v=1") == TEST_TYPE
    assert kind_of("image/x-mp-test") == "image"
    assert extension_for(TEST_TYPE) == ".mpxt"
    assert media_type_from_filename("scan.MPXT") == TEST_TYPE


def test_registry_throwaway_format_is_detected_from_bare_bytes(throwaway: Format) -> None:
    """The record's `magic` identifies its bytes with no file name or declared type."""
    found = detect(_pcx(8, 4))
    assert (found.media_type, found.kind, found.extension) == (TEST_TYPE, "image", ".mpxt")
    assert (found.source, found.mismatch) == ("magic", False)


def test_registry_magic_is_gone_after_unregister() -> None:
    """Without the record, the same bytes are unknown again: detection keeps no copy."""
    assert detect(_pcx(8, 4)).media_type == "application/octet-stream"


def test_registry_magic_never_shadows_a_builtin_signature() -> None:
    """A registered signature is tried after detection's own table, which keeps precedence."""
    formats.register(Format(TEST_TYPE, "image", magic=((0, b"\x89PNG"),)))
    try:
        assert detect(_encoded("PNG", 2, 2)).media_type == "image/png"
    finally:
        formats.unregister(TEST_TYPE)


def test_registry_throwaway_format_is_probed_and_fitted(throwaway: Format) -> None:
    """Fitting opens the new type with the record's Pillow plugin and converts it."""
    fitted = fit_image(_pcx(40, 20), TEST_TYPE, FitSpec(accepted=("image/png",), max_width=20))
    assert (fitted.media_type, fitted.width, fitted.height) == ("image/png", 20, 10)
    assert fitted.steps[0] == "mpxt→png"


@pytest.mark.parametrize(
    ("source", "written", "step"),
    [
        ("PNG", {"mpxt_v": 1, "mpxt_mode": "lossless"}, "mpxt lossless"),
        ("JPEG", {"mpxt_v": 1, "mpxt_quality": 85}, "mpxt q=85"),
    ],
)
def test_registry_throwaway_format_is_written_by_fitting(
    throwaway: Format,
    pcx_saves: list[dict[str, Any]],
    source: str,
    written: dict[str, Any],
    step: str,
) -> None:
    """Fitting writes the new type with the record's save options and names it in the steps.

    A lossless source gets the record's lossless mode, a lossy one its quality ladder.
    """
    record = formats.by_pillow(source)
    assert record is not None
    spec = FitSpec(accepted=(TEST_TYPE,), max_width=20)
    fitted = fit_image(_encoded(source, 40, 20), record.media_type, spec)
    assert (fitted.media_type, fitted.width, fitted.height) == (TEST_TYPE, 20, 10)
    assert fitted.steps == (f"{record.name}→mpxt", "resize 40x20→20x10", step)
    assert pcx_saves == [written]
    assert detect(fitted.data).media_type == TEST_TYPE


def test_registry_throwaway_format_is_normalized(throwaway: Format) -> None:
    """A part of the new type, from bare bytes, gets its kind and size from the record."""
    part = mp.part(_pcx(30, 12))
    assert isinstance(part, mp.ImagePart)
    assert (part.media_type, part.width, part.height) == (TEST_TYPE, 30, 12)
    normalized = mp.normalize(part, "anthropic")
    assert normalized.media_type == "image/png"


def test_registry_throwaway_format_is_made_by_the_media_fixture(throwaway: Format) -> None:
    """The testing fixture writes the new type with the record's writer and sample settings."""
    made = MediaFactory().image(16, 8, format="mpxt")
    assert made.filename == "image.mpxt"
    assert (made.media_type, made.width, made.height) == (TEST_TYPE, 16, 8)
    with Image.open(io.BytesIO(made.data)) as image:
        assert image.format == "PCX"


def test_registry_throwaway_format_is_gone_after_unregister() -> None:
    """Unregistering drops every index entry and derived view of the record."""
    formats.register(Format(TEST_TYPE, "image", (".mpxt",), ("image/x-mp-test",), pillow=("PCX",)))
    assert TEST_TYPE in formats.readable()
    formats.unregister(TEST_TYPE)
    assert TEST_TYPE not in formats.readable()
    assert canonical_media_type("image/x-mp-test") == "image/x-mp-test"
    assert media_type_from_filename("a.mpxt") is None
    assert formats.get(TEST_TYPE) is None


@pytest.mark.parametrize(
    "record",
    [
        Format("image/png", "image"),
        Format("image/x-new", "image", aliases=("image/jpg",)),
        Format("image/X-Upper", "image"),
        Format("image/x-new", "image", magic=((PREFIX_SIZE - 1, b"ab"),)),
        Format("image/x-new", "image", magic=((0, b""),)),
    ],
)
def test_registry_register_refuses_a_clash(record: Format) -> None:
    """A type or alias already registered, an upper-case name or an unusable magic is refused."""
    with pytest.raises(mp.InvalidConfig):
        formats.register(record)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        # A kind outside `Kind` on purpose, hence the ignore.
        (Format("image/x-mp-bad", "picture"), "kind 'picture'"),  # type: ignore[arg-type]
        (Format("image/x-mp-bad", "image", extensions=(".jpg",)), r"extension \.jpg .*image/jpeg"),
        (Format("image/x-mp-bad", "image", extensions=("mpb",)), "start with a dot"),
        (Format("image-x-mp-bad", "image"), "type/subtype"),
    ],
)
def test_registry_register_refuses_a_bad_record(record: Format, message: str) -> None:
    """A malformed record or a taken extension is InvalidConfig naming it; nothing is indexed."""
    with pytest.raises(mp.InvalidConfig, match=message):
        formats.register(record)
    assert formats.get(record.media_type) is None
    assert media_type_from_filename("a.jpg") == "image/jpeg"


BUILTIN = list(formats.registered())


def _pillow_names() -> set[str]:
    Image.init()
    return set(Image.registered_extensions().values()) | set(Image.OPEN)


@pytest.mark.parametrize("record", BUILTIN, ids=lambda record: record.media_type)
def test_registry_builtin_names_are_consistent(record: Format) -> None:
    """Every alias canonicalises to its record, every extension maps back, the kind agrees."""
    assert canonical_media_type(record.media_type) == record.media_type
    assert all(canonical_media_type(alias) == record.media_type for alias in record.aliases)
    assert all(
        media_type_from_filename(f"a{ext}") == record.media_type for ext in record.extensions
    )
    assert extension_for(record.media_type) == (record.extensions or (None,))[0]
    assert kind_of(record.media_type) == record.kind


@pytest.mark.parametrize(
    "record",
    [record for record in BUILTIN if record.pillow and record.plugin is None],
    ids=lambda record: record.media_type,
)
def test_registry_builtin_pillow_names_exist(record: Format) -> None:
    """Pillow knows the first plugin name of every format it reads without an extra package."""
    if record.writer == "AVIF" and "AVIF" not in _pillow_names():
        pytest.skip("this Pillow reads no AVIF")
    assert record.writer in _pillow_names()


@pytest.mark.parametrize("media_type", formats.writable())
def test_registry_writable_formats_have_a_writer(media_type: str) -> None:
    """Every type fitting writes is one Pillow can save."""
    record = formats.get(media_type)
    assert record is not None and record.writer is not None
    assert record.writer in Image.SAVE


def test_registry_writable_order_is_the_fallback_order() -> None:
    """Fitting converts to JPEG first, then PNG, WebP and GIF."""
    assert formats.writable() == ("image/jpeg", "image/png", "image/webp", "image/gif")


def test_registry_one_kind_vocabulary() -> None:
    """Parts and detection use the one Kind of the formats layer."""
    import typing

    from mediaparts._conversation import _mediapart
    from mediaparts.detection import Detection

    assert _mediapart.Kind is formats.Kind
    assert typing.get_type_hints(Detection)["kind"] == formats.Kind


@pytest.mark.parametrize(
    "changes",
    [{"magic": ((0, "PK"),)}, {"magic": (b"PK",)}, {"encoding": "png"}],
    ids=["magic-text", "magic-no-offset", "encoding-not-a-record"],
)
def test_registry_register_refuses_ill_typed_fields(changes: dict[str, object]) -> None:
    """A malformed signature or encoding is InvalidConfig naming the field, before registering."""
    record = formats.Format("image/x-mediaparts-bad", "image", extensions=(".mpbad",))
    bad = dataclasses.replace(record, **changes)  # type: ignore[arg-type]  # wrong on purpose
    with pytest.raises(mp.InvalidConfig, match=r"magic|encoding"):
        formats.register(bad)
    assert formats.get("image/x-mediaparts-bad") is None


@pytest.mark.parametrize("extra", [None, "jxl"])
def test_registry_plugin_is_registered_once_at_first_use(
    monkeypatch: pytest.MonkeyPatch, extra: str | None
) -> None:
    """A format's `Plugin` is one record: its module imported and its registration called
    once, at the first image of that format; missing, it is CodecUnavailable naming it."""
    name = f"mediaparts_test_plugin_{extra}"
    calls: list[str] = []
    module = types.ModuleType(name)
    module.register_opener = lambda: calls.append("registered")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, name, module)
    plugin = formats.Plugin(name, "register_opener", package="mp-test-plugin", extra=extra)
    formats.register(
        Format(
            TEST_TYPE,
            "image",
            (".mpxt",),
            pillow=("PCX",),
            lossless=True,
            size=_pcx_size,
            magic=PCX_MAGIC,
            plugin=plugin,
        )
    )
    try:
        for _ in range(2):
            assert fit_image(_pcx(40, 30), TEST_TYPE, FitSpec(accepted=("image/png",))).width == 40
        assert calls == ["registered"]
        monkeypatch.setitem(sys.modules, name, None)  # the package is gone
        with pytest.raises(mp.CodecUnavailable, match="pip install mp-test-plugin") as caught:
            fit_image(_pcx(40, 30), TEST_TYPE, FitSpec(accepted=("image/png",)))
        assert (caught.value.package, caught.value.extra) == ("mp-test-plugin", extra)
    finally:
        formats.unregister(TEST_TYPE)


@pytest.mark.parametrize("plugin", ["pillow_heif", formats.Plugin("")], ids=["string", "empty"])
def test_registry_register_refuses_a_bad_plugin(plugin: object) -> None:
    """A plugin is a `formats.Plugin` naming a module; anything else is InvalidConfig."""
    record = formats.Format("image/x-mediaparts-bad", "image", extensions=(".mpbad",))
    bad = dataclasses.replace(record, plugin=plugin)  # type: ignore[arg-type]  # wrong on purpose
    with pytest.raises(mp.InvalidConfig, match="plugin"):
        formats.register(bad)
    assert formats.get("image/x-mediaparts-bad") is None
