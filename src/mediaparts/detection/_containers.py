"""Media containers whose type depends on what they hold: Matroska/WebM, Ogg, ASF, MPEG-TS.

Each parser reads just the headers that name the streams, so an audio-only WebM, Ogg or ASF
file is reported as audio, and one with a video stream as video (filetype says video for every
WebM and Matroska file).
"""

from __future__ import annotations

from mediaparts.detection._verdict import Hit
from mediaparts.formats import (
    AUDIO_TRACK,
    EBML_HEADER,
    EBML_UNKNOWN_SIZE,
    SEGMENT,
    VIDEO_TRACK,
    ByteWindow,
    element,
    elements,
    track_types,
)

__all__ = ["asf", "ebml", "mpeg_ts", "ogg"]

# --- EBML (RFC 8794) and Matroska (RFC 9559), walked by formats.elements ------------------------

_DOC_TYPE = 0x4282
_UNBOUNDED = 1 << 62  # a Segment of unknown size runs to the end of the file


def ebml(probe: ByteWindow) -> Hit | None:
    """Identify a WebM or Matroska file, as audio when its tracks are all audio."""
    head = probe.head
    header = element(head, 0)
    if header is None or header[0] != EBML_HEADER or header[2] < 0:
        return None
    _, start, size = header
    doc_type = b"matroska"  # the DocType default (RFC 8794 §11.2.5)
    in_head = ByteWindow(head, len(head))  # the EBML header is read from the prefix alone
    for ident, value_start, value_size, _ in elements(in_head, start, start + size):
        if value_size == EBML_UNKNOWN_SIZE:
            break
        if ident == _DOC_TYPE:
            doc_type = head[value_start : value_start + value_size].rstrip(b"\x00")
    segment = element(probe.at(start + size, 16), 0)
    types: set[int] | None = None
    if segment is not None and segment[0] == SEGMENT:
        body = start + size + segment[1]
        types = track_types(probe, body, _UNBOUNDED if segment[2] < 0 else body + segment[2])
    types = types or set()
    audio_only = AUDIO_TRACK in types and VIDEO_TRACK not in types
    if doc_type == b"webm":
        return Hit("audio/webm" if audio_only else "video/webm")
    if doc_type == b"matroska":
        return Hit("audio/x-matroska" if audio_only else "video/x-matroska")
    return Hit("video/x-matroska", generic=True)


# --- Ogg (RFC 3533) ---------------------------------------------------------------------------

# The first packet of a video stream names its codec (each codec's mapping spec); an Ogg file
# with none of these is audio, whatever its codec.
_OGG_VIDEO = (b"\x80theora", b"\x80daala", b"BBCD\x00", b"\x01video\x00\x00\x00")


def ogg(probe: ByteWindow) -> Hit | None:
    """Identify an Ogg file: video when a stream is Theora (or other video), else audio.

    Audio is Vorbis, Opus, FLAC, Speex; most Ogg files are audio, so that is the default.
    """
    pos = 0
    for _ in range(8):
        page = probe.at(pos, 27 + 255)
        if len(page) < 28 or not page.startswith(b"OggS") or page[4] != 0:
            break
        if not page[5] & 0x02:  # past the beginning-of-stream pages every codec is known
            break
        segments = page[26]
        lacing = page[27 : 27 + segments]
        packet = probe.at(pos + 27 + segments, 9)
        if packet.startswith(_OGG_VIDEO):
            return Hit("video/ogg")
        pos += 27 + segments + sum(lacing)
    # "OggS" plus a zero version byte is the capture pattern; a stream cut mid-way (no
    # beginning-of-stream page) is still Ogg, and most Ogg is audio.
    return Hit("audio/ogg") if probe.head[4:5] == b"\x00" else None


# --- ASF (Advanced Systems Format specification 1.20, §3 and §10) -----------------------------

_ASF_STREAM_PROPERTIES = bytes.fromhex("9107dcb7b7a9cf118ee600c00c205365")
_ASF_AUDIO_MEDIA = bytes.fromhex("409e69f84d5bcf11a8fd00805f5c442b")
_ASF_VIDEO_MEDIA = bytes.fromhex("c0ef19bc4d5bcf11a8fd00805f5c442b")


def asf(probe: ByteWindow) -> Hit | None:
    """Identify an ASF file as WMA when its streams are all audio, otherwise as WMV."""
    count = int.from_bytes(probe.head[24:28], "little")
    pos = 30  # GUID, 64-bit size, object count, two reserved bytes
    media = set()
    for _ in range(min(count, 64)):
        header = probe.at(pos, 40)
        if len(header) < 24:
            break
        if header[:16] == _ASF_STREAM_PROPERTIES:
            media.add(header[24:40])
        size = int.from_bytes(header[16:24], "little")
        if size < 24:
            break
        pos += size
    if _ASF_AUDIO_MEDIA in media and _ASF_VIDEO_MEDIA not in media:
        return Hit("audio/x-ms-wma")
    return Hit("video/x-ms-wmv")


# --- MPEG transport stream (ISO/IEC 13818-1 §2.4.3) -------------------------------------------


def mpeg_ts(probe: ByteWindow) -> Hit | None:
    """Identify an MPEG transport stream by its sync byte every 188 bytes (192 for M2TS).

    The sync byte is a `G`, so the first packet must also look binary: tables are padded with
    0xFF and PES packets open with a 00 00 01 start code, while text has neither.
    """
    head = probe.head
    for first, stride in ((0, 188), (4, 192)):
        syncs = range(first, min(len(head), first + 8 * stride), stride)
        enough = len(syncs) >= 2 or len(head) == first + stride
        packet = head[first : first + stride]
        binary = b"\x00" in packet or b"\xff" in packet
        if enough and binary and all(head[i] == 0x47 for i in syncs):
            return Hit("video/mp2t")
    return None
