"""Elementary audio streams: MPEG audio frames (MP3), AAC ADTS, and what follows an ID3v2 tag.

These formats have no file header, only a 12-bit frame sync, so a match is only believed when
the frame header's fields are legal and, where the data reaches that far, the next frame starts
exactly where this one's length says it should.
"""

from __future__ import annotations

from mediaparts.formats import ByteWindow

__all__ = ["adts_at", "after_id3", "mpeg_audio_at"]

# Bit rates in kbit/s by [MPEG-1?][layer I, II, III][index] (ISO/IEC 11172-3 and 13818-3).
_V1_BITRATES = (
    (0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448),
    (0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384),
    (0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320),
)
_V2_BITRATES = (
    (0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256),
    (0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160),
    (0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160),
)
# Sample rates by version bits (0 = MPEG-2.5, 2 = MPEG-2, 3 = MPEG-1; 1 is reserved).
_SAMPLE_RATES = {0: (11025, 12000, 8000), 2: (22050, 24000, 16000), 3: (44100, 48000, 32000)}

# How far past an ID3v2 tag to look for the first frame: encoders pad tags with zeros, and
# some write a tag size that is off by a little (file-type's "bad-offset" fixture).
_SYNC_WINDOW = 4096


def _mpeg_frame(data: bytes, pos: int) -> tuple[int, int] | None:
    """Parse an MPEG audio frame header at `pos`: (frame length, version/layer/rate key)."""
    if pos + 4 > len(data) or data[pos] != 0xFF or data[pos + 1] & 0xE0 != 0xE0:
        return None
    b1, b2, b3 = data[pos + 1], data[pos + 2], data[pos + 3]
    version = (b1 >> 3) & 3
    layer = (b1 >> 1) & 3  # 3 = layer I, 2 = layer II, 1 = layer III, 0 = reserved
    bitrate_index = b2 >> 4
    rate_index = (b2 >> 2) & 3
    # Reserved values, "free format" bit rate (no length to check) and reserved emphasis.
    if version == 1 or layer == 0 or bitrate_index in (0, 15) or rate_index == 3 or b3 & 3 == 2:
        return None
    table = _V1_BITRATES if version == 3 else _V2_BITRATES
    bitrate = table[3 - layer][bitrate_index] * 1000
    rate = _SAMPLE_RATES[version][rate_index]
    padding = (b2 >> 1) & 1
    if layer == 3:
        length = (12 * bitrate // rate + padding) * 4
    elif layer == 1 and version != 3:
        length = 72 * bitrate // rate + padding
    else:
        length = 144 * bitrate // rate + padding
    return length, b1 & 0xFE | (b2 & 0x0C) << 8


def _adts_frame(data: bytes, pos: int) -> int | None:
    """Parse an AAC ADTS header at `pos` (ISO/IEC 13818-7 §6.2): the frame length."""
    if pos + 7 > len(data) or data[pos] != 0xFF or data[pos + 1] & 0xF6 != 0xF0:
        return None
    if (data[pos + 2] >> 2) & 0x0F > 12:  # sampling_frequency_index 13..15 are reserved
        return None
    length = (data[pos + 3] & 3) << 11 | data[pos + 4] << 3 | data[pos + 5] >> 5
    return length if length >= 7 else None


def mpeg_audio_at(data: bytes, pos: int = 0, *, lenient: bool = True) -> bool:
    """Tell whether a plausible MPEG-1/2/2.5 audio frame (MP3, MP2) starts at `pos`.

    The next frame must start where this one ends, with the same version, layer and sample
    rate; when it would lie past the data, `lenient` decides.
    """
    frame = _mpeg_frame(data, pos)
    if frame is None:
        return False
    length, key = frame
    if pos + length + 4 > len(data):
        return lenient
    following = _mpeg_frame(data, pos + length)
    return following is not None and following[1] == key


def adts_at(data: bytes, pos: int = 0, *, lenient: bool = True) -> bool:
    """Tell whether a plausible AAC ADTS frame starts at `pos` (checked like `mpeg_audio_at`)."""
    length = _adts_frame(data, pos)
    if length is None:
        return False
    if pos + length + 7 > len(data):
        return lenient
    return _adts_frame(data, pos + length) is not None


def _id3_end(header: bytes) -> int | None:
    """Return the total size of an ID3v2 tag from its 10-byte header (ID3v2.4 §3.1)."""
    if len(header) < 10 or header[:3] != b"ID3" or header[3] > 4:
        return None
    size_bytes = header[6:10]
    if any(b & 0x80 for b in size_bytes):  # a syncsafe integer has the top bits clear
        return None
    size = size_bytes[0] << 21 | size_bytes[1] << 14 | size_bytes[2] << 7 | size_bytes[3]
    footer = 10 if header[5] & 0x10 else 0
    return 10 + size + footer


def after_id3(probe: ByteWindow) -> str | None:
    """Identify the audio behind one or more ID3v2 tags.

    ID3v2 is mostly put in front of MP3, but taggers also prepend it to AAC (ADTS) and FLAC,
    which filetype reports as MP3. The tag can be far larger than the prefix (cover art), so
    the bytes right after it are fetched with a bounded read.

    Returns:
        `audio/flac`, `audio/aac` or `audio/mpeg`; None when the tag header is not valid.
    """
    pos = 0
    for _ in range(4):  # a few tags back to back do occur
        size = _id3_end(probe.at(pos, 10))
        if size is None:
            break
        pos += size
    if pos == 0:
        return None
    window = probe.at(pos, _SYNC_WINDOW)
    if window.startswith(b"fLaC"):
        return "audio/flac"
    # Past the first position, a frame is only believed unconfirmed when the window reaches
    # the end of the input; otherwise a stray 0xFF in padding could pass for a sync.
    complete = probe.size is not None and pos + len(window) >= probe.size
    start = 0
    while True:
        start = window.find(b"\xff", start)
        if start < 0 or start + 4 > len(window):
            return "audio/mpeg"
        lenient = start == 0 or complete
        if adts_at(window, start, lenient=lenient):
            return "audio/aac"
        if mpeg_audio_at(window, start, lenient=lenient):
            return "audio/mpeg"
        start += 1
