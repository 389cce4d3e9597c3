"""The format registry: one record per format, read by detection, imaging and the fixtures."""

from __future__ import annotations

import io
from collections.abc import Iterator

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
from mediaparts.formats import Format, Sample
from mediaparts.imaging import FitSpec, fit_image
from mediaparts.testing import MediaFactory

TEST_TYPE = "image/x-mediaparts-test"


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
            size=_pcx_size,
            sample=Sample("mpxt"),
        )
    )
    yield record
    formats.unregister(TEST_TYPE)


def _pcx(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, "PCX")
    return buffer.getvalue()


def test_registry_throwaway_format_is_named_by_detection(throwaway: Format) -> None:
    """Detection reads the new record's alias, extension and kind."""
    assert canonical_media_type("IMAGE/X-MP-TEST; v=1") == TEST_TYPE
    assert kind_of("image/x-mp-test") == "image"
    assert extension_for(TEST_TYPE) == ".mpxt"
    assert media_type_from_filename("scan.MPXT") == TEST_TYPE
    found = detect(_pcx(8, 4), filename="scan.mpxt")
    assert (found.media_type, found.kind, found.extension) == (TEST_TYPE, "image", ".mpxt")


def test_registry_throwaway_format_is_probed_and_fitted(throwaway: Format) -> None:
    """Fitting opens the new type with the record's Pillow plugin and converts it."""
    fitted = fit_image(_pcx(40, 20), TEST_TYPE, FitSpec(accepted=("image/png",), max_width=20))
    assert (fitted.media_type, fitted.width, fitted.height) == ("image/png", 20, 10)
    assert fitted.steps[0] == "mpxt→png"


def test_registry_throwaway_format_is_normalized(throwaway: Format) -> None:
    """A part of the new type gets its kind and size from the record, and normalizes to PNG."""
    part = mp.part(_pcx(30, 12), filename="scan.mpxt")
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
    ],
)
def test_registry_register_refuses_a_clash(record: Format) -> None:
    """A media type or alias already registered, or a name not in lower case, is refused."""
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

    from mediaparts import _mediapart
    from mediaparts.detection import Detection

    assert _mediapart.Kind is formats.Kind
    assert typing.get_type_hints(Detection)["kind"] == formats.Kind
