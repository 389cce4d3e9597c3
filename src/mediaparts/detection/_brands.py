"""ISO base media files (ISO/IEC 14496-12): MP4, M4A, MOV, 3GP/3G2, HEIC/HEIF and AVIF.

They all open with the same `ftyp` box, so the type is decided by its brands, and, for a plain
MP4 or 3GP, by the handlers of its tracks: an MP4 with sound tracks and no video track is
audio (`moov/trak/mdia/hdlr`). The boxes are read by the one box walker, `formats.boxes`;
the tables of what each brand means are here. Old QuickTime files have no `ftyp` at all and
start straight with a `moov`, `mdat`, `wide` or `free` atom.
"""

from __future__ import annotations

from mediaparts.detection._verdict import Hit
from mediaparts.formats import ByteWindow, boxes, brands, track_handlers

__all__ = ["ftyp", "quicktime_atoms"]


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


def _audio_only(probe: ByteWindow) -> bool:
    """Tell whether the movie's tracks include sound and no video."""
    handlers = track_handlers(probe)
    return b"soun" in handlers and b"vide" not in handlers


def ftyp(probe: ByteWindow) -> Hit | None:
    """Identify an ISO base media file from its `ftyp` brands (and tracks, for MP4 and 3GP)."""
    found = brands(probe.head)
    if found is None:
        return None
    major, compatible = found
    every = compatible | {major}

    # The HEIF structural brands only ever appear in HEIF-family files, so they decide even
    # behind a generic major brand such as `iso8`.
    if major in _HEIF_BRANDS | _HEIC_BRANDS | _AVIF_BRANDS or every & _HEIF_BRANDS:
        if every & _AVIF_BRANDS:
            return Hit("image/avif")
        if every & _HEIC_BRANDS:
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


def quicktime_atoms(probe: ByteWindow) -> Hit | None:
    """Identify a QuickTime movie that starts with atoms instead of an `ftyp` box."""
    end = probe.size if probe.size is not None else len(probe.head)
    for kind, payload, box_end in boxes(probe, 0, 1 << 62):
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
