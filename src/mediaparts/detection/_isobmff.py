"""ISO base media files (ISO/IEC 14496-12): MP4, M4A, MOV, 3GP/3G2, HEIC/HEIF and AVIF.

They all open with the same `ftyp` box, so the type is decided by its brands, and, for a plain
MP4 or 3GP, by the handlers of its tracks: an MP4 with sound tracks and no video track is
audio (`moov/trak/mdia/hdlr`). Old QuickTime files have no `ftyp` at all and start straight with
a `moov`, `mdat`, `wide` or `free` atom.
"""

from __future__ import annotations

from collections.abc import Iterator

from mediaparts.formats._reader import Hit, Probe

__all__ = ["find_box", "ftyp", "quicktime_atoms", "track_handlers"]


# HEIF structural brands and codec brands (ISO/IEC 23008-12 Annex B, the AV1 image format spec
# §7 for `avif`/`avis`). A HEIC or AVIF *sequence* (`msf1`, `hevc`, `avis`) is still an image
# format: nothing in an LLM pipeline plays it as video.
_AVIF_BRANDS = frozenset({b"avif", b"avis", b"avio"})
_HEIC_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs"})
_HEIF_BRANDS = frozenset({b"mif1", b"mif2", b"msf1", b"miaf"})
_AUDIO_BRANDS = frozenset({b"M4A", b"M4B", b"M4P", b"F4A", b"F4B"})
_MP4_BRANDS = frozenset(
    {b"isom", b"iso2", b"iso3", b"iso4", b"iso5", b"iso6", b"iso7", b"iso8", b"iso9"}
    | {b"mp41", b"mp42", b"mp71", b"avc1", b"dash", b"msdh", b"msix", b"cmfc", b"cmf2"}
    | {b"M4V", b"M4VH", b"M4VP", b"f4v", b"f4p", b"mmp4", b"MSNV", b"XAVC", b"NDAS"}
    | {b"NDSC", b"NDSH", b"NDSM", b"NDSP", b"NDSS", b"NDXC", b"NDXH", b"NDXM", b"NDXP"}
)

# Top-level atoms of a QuickTime movie (QuickTime File Format, "Movie atoms"), and what a
# `moov` atom starts with.
_QT_TOP = frozenset({b"moov", b"mdat", b"wide", b"free", b"skip", b"pnot", b"junk", b"uuid"})
_MOOV_FIRST = frozenset({b"mvhd", b"trak", b"udta", b"cmov", b"rmra", b"iods", b"meta", b"prfl"})

_MAX_BOXES = 64


def _brand(raw: bytes) -> bytes:
    """Normalise a four-character brand: `"M4A "` and `"M4A\\0"` are both written."""
    return raw.rstrip(b" \x00")


def _boxes(probe: Probe, start: int, end: int) -> Iterator[tuple[bytes, int, int]]:
    """Yield (type, payload start, box end) for the boxes between `start` and `end`."""
    pos = start
    for _ in range(_MAX_BOXES):
        if pos + 8 > end:
            return
        header = probe.at(pos, 16)
        if len(header) < 8:
            return
        size = int.from_bytes(header[:4], "big")
        kind = header[4:8]
        payload = pos + 8
        if size == 1:  # a 64-bit "largesize" follows the type
            if len(header) < 16:
                return
            size = int.from_bytes(header[8:16], "big")
            payload = pos + 16
        elif size == 0:  # the box runs to the end of its parent
            size = end - pos
        if size < payload - pos:
            return
        yield kind, payload, pos + size
        pos += size


def find_box(probe: Probe, start: int, end: int, kind: bytes) -> tuple[int, int] | None:
    """Return (payload start, end) of the first child box of a type."""
    for found, payload, box_end in _boxes(probe, start, end):
        if found == kind:
            return payload, min(box_end, end)
    return None


def track_handlers(probe: Probe) -> set[bytes]:
    """Return the handler types (`vide`, `soun`, `hint`, ...) of the tracks in `moov`."""
    end = probe.size if probe.size is not None else len(probe.head)
    moov = find_box(probe, 0, end, b"moov")
    if moov is None:
        return set()
    handlers = set()
    for kind, payload, box_end in _boxes(probe, *moov):
        if kind != b"trak":
            continue
        mdia = find_box(probe, payload, box_end, b"mdia")
        hdlr = mdia and find_box(probe, *mdia, b"hdlr")
        if hdlr:
            # FullBox version/flags (4 bytes), pre_defined (4), then handler_type.
            handlers.add(probe.at(hdlr[0] + 8, 4))
    return handlers


def _audio_only(probe: Probe) -> bool:
    """Tell whether the movie's tracks include sound and no video."""
    handlers = track_handlers(probe)
    return b"soun" in handlers and b"vide" not in handlers


def ftyp(probe: Probe) -> Hit | None:
    """Identify an ISO base media file from its `ftyp` brands (and tracks, for MP4 and 3GP)."""
    head = probe.head
    size = int.from_bytes(head[:4], "big")
    if size < 12 or head[4:8] != b"ftyp":
        return None
    end = min(size, len(head), 4096)
    major = _brand(head[8:12])
    compatible = {_brand(head[i : i + 4]) for i in range(16, end - 3, 4)}
    brands = compatible | {major}

    # The HEIF structural brands only ever appear in HEIF-family files, so they decide even
    # behind a generic major brand such as `iso8`.
    if major in _HEIF_BRANDS | _HEIC_BRANDS | _AVIF_BRANDS or brands & _HEIF_BRANDS:
        if brands & _AVIF_BRANDS:
            return Hit("image/avif")
        if brands & _HEIC_BRANDS:
            return Hit("image/heic")
        return Hit("image/heif")
    if major == b"qt":
        return Hit("video/quicktime")
    if major in _AUDIO_BRANDS:
        return Hit("audio/mp4")
    for family, prefixes in (("3gpp2", (b"3g2", b"kddi")), ("3gpp", (b"3gp", b"3gg", b"3gr"))):
        if major.startswith(prefixes):
            return Hit(f"audio/{family}" if _audio_only(probe) else f"video/{family}")
    if major in _MP4_BRANDS or compatible & _MP4_BRANDS:
        return Hit("audio/mp4" if _audio_only(probe) else "video/mp4")
    # An ISO file with brands we do not know (a camera's raw format, a new codec brand).
    return Hit("video/mp4", generic=True)


def quicktime_atoms(probe: Probe) -> Hit | None:
    """Identify a QuickTime movie that starts with atoms instead of an `ftyp` box."""
    end = probe.size if probe.size is not None else len(probe.head)
    for kind, payload, box_end in _boxes(probe, 0, 1 << 62):
        if kind not in _QT_TOP or (probe.size is not None and kind != b"moov" and box_end > end):
            return None
        if kind == b"moov":
            # A `moov` may be cut short (a header-only file), so its first child decides.
            first = probe.at(payload + 4, 4)
            return Hit("video/quicktime") if first in _MOOV_FIRST else None
        if kind == b"mdat":
            if probe.size is None and box_end > len(probe.head):
                return Hit("video/quicktime")  # a stream: what follows cannot be seen
            following = probe.at(box_end + 4, 4)
            if box_end == end or following in _QT_TOP:
                return Hit("video/quicktime")
            return None
    return None
