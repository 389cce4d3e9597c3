"""Media duration, read from headers, for token pricing.

Durations come from container headers, never from decoding: mutagen (imported lazily) reads
WAV, MP3, Ogg (Vorbis, Opus, FLAC, Speex, Theora), FLAC, AIFF, ADTS AAC (an estimate from the
bitrate) and ASF/WMA/WMV; a few lines here read MP4/M4A/MOV/3GP (the movie's `mvhd` box, which
counts the edit list, so an AAC encoder's priming samples are not counted as mutagen's track
duration counts them), Matroska/WebM (the segment `Info` `Duration`) and AVI (`avih`), and the
encoder delay and padding an ffmpeg-made MP3 declares (mutagen applies only LAME's). Every
reader returns None, never raises, on bytes it cannot read. PDF pages are counted in `_pdf`.
"""

from __future__ import annotations

import importlib
import io
import math
import struct
from collections.abc import Callable

from mediaparts.formats._ebml import AUDIO_TRACK, CLUSTER, INFO, SEGMENT, elements, track_types
from mediaparts.formats._isobmff import find_box, track_handlers
from mediaparts.formats._reader import ByteWindow

__all__ = ["audio_duration", "video_duration", "video_has_audio"]

# Canonical media type -> mutagen classes to try in turn ("module:Class").
_MP4 = ("mutagen.mp4:MP4",)
_ASF = ("mutagen.asf:ASF",)
_MUTAGEN: dict[str, tuple[str, ...]] = {
    "audio/wav": ("mutagen.wave:WAVE",),
    "audio/mpeg": ("mutagen.mp3:MP3",),
    "audio/mp4": _MP4,
    "audio/3gpp": _MP4,
    "video/mp4": _MP4,
    "video/quicktime": _MP4,
    "video/3gpp": _MP4,
    "video/3gpp2": _MP4,
    "audio/ogg": (
        "mutagen.oggvorbis:OggVorbis",
        "mutagen.oggopus:OggOpus",
        "mutagen.oggflac:OggFLAC",
        "mutagen.oggspeex:OggSpeex",
    ),
    "video/ogg": ("mutagen.oggtheora:OggTheora", "mutagen.oggvorbis:OggVorbis"),
    "audio/flac": ("mutagen.flac:FLAC",),
    "audio/aiff": ("mutagen.aiff:AIFF",),
    "audio/aac": ("mutagen.aac:AAC",),
    "audio/x-ms-wma": _ASF,
    "video/x-ms-wmv": _ASF,
    "video/x-ms-asf": _ASF,
}


def _positive(value: object) -> float | None:
    if isinstance(value, (int, float)) and math.isfinite(value) and value > 0:
        return float(value)
    return None


def _with_mutagen(data: bytes, classes: tuple[str, ...]) -> float | None:
    for spec in classes:
        module, name = spec.split(":")
        reader = getattr(importlib.import_module(module), name)
        try:
            length = reader(io.BytesIO(data)).info.length
        # mutagen raises its own errors on foreign bytes, and struct, index, value or
        # arithmetic errors on truncated ones; a duration is best effort, so any means "unknown".
        except Exception:
            continue
        found = _positive(length)
        if found is not None:
            return found
    return None


# Matroska / WebM (RFC 9559), walked by formats._ebml: the segment `Info`'s two values.
_TIMESTAMP_SCALE, _DURATION = 0x2AD7B1, 0x4489


def _segment(probe: ByteWindow) -> tuple[int, int] | None:
    """Return (body start, body end) of the first top-level Segment."""
    for eid, start, _, end in elements(probe, 0, len(probe.head)):
        if eid == SEGMENT:
            return start, end
    return None


def _matroska(data: bytes) -> float | None:
    probe = ByteWindow(data, len(data))
    segment = _segment(probe)
    if segment is None:
        return None
    for cid, c_start, _, c_end in elements(probe, *segment):
        if cid == CLUSTER:  # the Info always comes before the first cluster
            return None
        if cid != INFO:
            continue
        scale, duration = 1_000_000, None  # the default scale is 1 ms, in ns
        for iid, i_start, _, i_end in elements(probe, c_start, c_end):
            raw = data[i_start:i_end]
            if iid == _TIMESTAMP_SCALE and raw:
                scale = int.from_bytes(raw, "big")
            elif iid == _DURATION and len(raw) in (4, 8):
                (duration,) = struct.unpack(">f" if len(raw) == 4 else ">d", raw)
        return None if duration is None else _positive(duration * scale / 1e9)
    return None


def _avi(data: bytes) -> float | None:
    # RIFF "AVI " with the main header `avih` first in the `hdrl` list: microseconds per frame
    # and total frames (the first RIFF of an OpenDML file counts only its own frames).
    if data[:4] != b"RIFF" or data[8:12] != b"AVI ":
        return None
    at = data.find(b"avih", 12, 4096)
    if at < 0 or len(data) < at + 28:
        return None
    usec, _, _, _, frames = struct.unpack_from("<5I", data, at + 8)
    return _positive(usec * frames / 1e6)


def _mp4(data: bytes) -> float | None:
    # The movie header's duration is the presentation's (ISO 14496-12 8.2.2), after edit lists:
    # ffmpeg's 1 s AAC has 1.064 s of samples in its track, 1,024 of them priming that the
    # `elst` skips, and `mvhd` says 1.000. A fragmented file has 0 there: then None.
    probe = ByteWindow(data, len(data))
    moov = find_box(probe, 0, len(data), b"moov")
    mvhd = moov and find_box(probe, *moov, b"mvhd")
    if not mvhd:
        return None
    body = mvhd[0]
    if data[body] == 1:  # version 1: 64-bit times
        timescale, duration = struct.unpack_from(">IQ", data, body + 20)
    else:
        timescale, duration = struct.unpack_from(">II", data, body + 12)
    return _positive(duration / timescale) if timescale else None


# MPEG audio sample rates by the header's version bits (3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5).
_MPEG_RATES = {3: (44100, 48000, 32000), 2: (22050, 24000, 16000), 0: (11025, 12000, 8000)}


def _ffmpeg_gapless(data: bytes) -> float:
    """Return the seconds of encoder delay and padding that an ffmpeg MP3 says it added.

    ffmpeg writes LAME's tag layout after the `Xing`/`Info` header, with `Lavc`/`Lavf` where
    LAME writes its name; mutagen trusts only tags that start with `LAME`, so it counts the
    delay and padding (about 30 ms) as audio. Returns 0 when there is no such tag.
    """
    pos = 0
    if data[:3] == b"ID3" and len(data) >= 10:  # skip an ID3v2 tag (syncsafe size, footer)
        size = 0
        for byte in data[6:10]:
            size = size << 7 | byte & 0x7F
        pos = 10 + size + (10 if data[5] & 0x10 else 0)
    head = data[pos : pos + 4]
    if len(head) < 4 or head[0] != 0xFF or head[1] & 0xE0 != 0xE0:
        return 0.0
    version, layer, rate = head[1] >> 3 & 3, head[1] >> 1 & 3, head[2] >> 2 & 3
    if version == 1 or layer != 1 or rate == 3:  # reserved version or rate; not layer III
        return 0.0
    mono = head[3] >> 6 == 3
    side = (17 if mono else 32) if version == 3 else (9 if mono else 17)
    tag = pos + 4 + side
    if data[tag : tag + 4] not in (b"Xing", b"Info") or len(data) < tag + 8:
        return 0.0
    (flags,) = struct.unpack_from(">I", data, tag + 4)
    lame = tag + 8 + 4 * (flags & 1) + 4 * (flags >> 1 & 1) + 100 * (flags >> 2 & 1)
    lame += 4 * (flags >> 3 & 1)
    if data[lame : lame + 4] not in (b"Lavc", b"Lavf") or len(data) < lame + 24:
        return 0.0
    packed = int.from_bytes(data[lame + 21 : lame + 24], "big")  # 12 bits delay, 12 padding
    return ((packed >> 12) + (packed & 0xFFF)) / _MPEG_RATES[version][rate]


_OWN: dict[str, Callable[[bytes], float | None]] = {
    "audio/webm": _matroska,
    "video/webm": _matroska,
    "audio/x-matroska": _matroska,
    "video/x-matroska": _matroska,
    "video/x-msvideo": _avi,
    # Read here first, and by mutagen (the track's own duration) when this finds none.
    "audio/mp4": _mp4,
    "audio/3gpp": _mp4,
    "video/mp4": _mp4,
    "video/quicktime": _mp4,
    "video/3gpp": _mp4,
    "video/3gpp2": _mp4,
}


def audio_duration(data: bytes, media_type: str) -> float | None:
    """Return the duration of audio in seconds, from its container header.

    Args:
        data: The file's bytes.
        media_type: Its canonical media type (`audio/wav`, not `audio/x-wav`): folding aliases
            is detection's job, a layer above this one.

    Returns:
        The duration in seconds, or None when the type is not one read here or the bytes
        cannot be read. Never raises on malformed bytes.
    """
    own = _OWN.get(media_type)
    classes = _MUTAGEN.get(media_type)
    if own is not None:
        try:
            found = own(data)
        except (struct.error, IndexError, ValueError, OverflowError):
            found = None
        if found is not None or classes is None:
            return found
    if classes is None:
        return None
    length = _with_mutagen(data, classes)
    if length is not None and media_type == "audio/mpeg":
        try:
            trimmed = length - _ffmpeg_gapless(data)
        except (struct.error, IndexError, KeyError):
            trimmed = length
        return _positive(trimmed) or length
    return length


def video_duration(data: bytes, media_type: str) -> float | None:
    """Return the duration of a video in seconds, from its container header.

    MP4, MOV and 3GP are read from the `mvhd` box, Matroska and WebM from the segment info,
    AVI from its main header, Ogg Theora and ASF/WMV through mutagen.

    Args:
        data: The file's bytes.
        media_type: Its canonical media type.

    Returns:
        The duration in seconds, or None when unknown. Never raises on malformed bytes.
    """
    return audio_duration(data, media_type)


def _mp4_has_audio(data: bytes) -> bool | None:
    handlers = track_handlers(ByteWindow(data, len(data)))  # the walk detection uses for audio-only
    return b"soun" in handlers if handlers else None


def _matroska_has_audio(data: bytes) -> bool | None:
    probe = ByteWindow(data, len(data))
    segment = _segment(probe)
    types = track_types(probe, *segment) if segment is not None else None
    return AUDIO_TRACK in types if types else None


_HAS_AUDIO: dict[str, Callable[[bytes], bool | None]] = {
    "video/mp4": _mp4_has_audio,
    "video/quicktime": _mp4_has_audio,
    "video/3gpp": _mp4_has_audio,
    "video/3gpp2": _mp4_has_audio,
    "video/webm": _matroska_has_audio,
    "video/x-matroska": _matroska_has_audio,
}


def video_has_audio(data: bytes, media_type: str) -> bool | None:
    """Tell whether a video has an audio track, from its headers (MP4, MOV, 3GP, WebM, MKV).

    `media_type` is the canonical media type.

    Returns:
        True or False, or None when the container is not read here or the bytes cannot be.
        Never raises on malformed bytes.
    """
    reader = _HAS_AUDIO.get(media_type)
    if reader is None:
        return None
    try:
        return reader(data)
    except (struct.error, IndexError, ValueError, OverflowError):
        return None
