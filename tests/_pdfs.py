"""PDFs written object by object for the PDF transform tests: well-formed and hostile ones."""

from __future__ import annotations

import functools
import hashlib
import zlib
from collections.abc import Sequence

CATALOG = b"<< /Type /Catalog /Pages 2 0 R >>"


def pdf(*objects: bytes, trailer: bytes = b"") -> bytes:
    """A PDF of `objects` (object 1 the catalog) with a correct cross-reference table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        trailer,
        xref,
    )
    return bytes(out)


def stream(content: bytes, entries: bytes = b"") -> bytes:
    """A stream object's text: its dictionary `entries` and `content`."""
    return b"<< %s /Length %d >>\nstream\n%s\nendstream" % (entries, len(content), content)


def one_page(
    content: bytes = b"",
    *,
    page: bytes = b"/MediaBox [0 0 600 800]",
    resources: bytes = b"<< >>",
    extra: Sequence[bytes] = (),
    trailer: bytes = b"",
) -> bytes:
    """A 1-page PDF: objects 1-4 are the catalog, the page tree, the page and its content;
    `extra` objects are numbered from 5."""
    return pdf(
        CATALOG,
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R %s /Resources %s /Contents 4 0 R >>" % (page, resources),
        stream(content),
        *extra,
        trailer=trailer,
    )


def many_pages(count: int, *, claimed: int | None = None) -> bytes:
    """A PDF of `count` blank pages in one flat page tree whose /Count says `claimed`."""
    kids = b" ".join(b"%d 0 R" % (3 + i) for i in range(count))
    pages = [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"] * count
    total = count if claimed is None else claimed
    return pdf(CATALOG, b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, total), *pages)


def form_fanout(levels: int = 5, fanout: int = 30) -> bytes:
    """A page whose form XObjects each draw the next one `fanout` times, `levels` deep: a few
    KB that make a reader parse fanout**levels forms (a "billion laughs" of PDF)."""
    forms = []
    for level in range(levels):
        number = 5 + level
        if level + 1 < levels:
            body = b"/F Do " * fanout
            resources = b"/Resources << /XObject << /F %d 0 R >> >>" % (number + 1)
        else:
            body, resources = b"0 0 m 600 800 l S " * fanout, b""
        forms.append(
            stream(body, b"/Type /XObject /Subtype /Form /BBox [0 0 600 800] " + resources)
        )
    return one_page(b"/F Do", resources=b"<< /XObject << /F 5 0 R >> >>", extra=forms)


# The standard security handler, revision 2 (40-bit RC4), ISO 32000-1 §7.6.3: enough to make
# an encrypted PDF without an encryption library.
_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")
_FILE_ID = bytes(range(16))
_PERMISSIONS = -44  # print and copy refused, the rest allowed


def _rc4(key: bytes, data: bytes) -> bytes:
    state = list(range(256))
    j = 0
    for i in range(256):
        j = (j + state[i] + key[i % len(key)]) % 256
        state[i], state[j] = state[j], state[i]
    out = bytearray()
    i = j = 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + state[i]) % 256
        state[i], state[j] = state[j], state[i]
        out.append(byte ^ state[(state[i] + state[j]) % 256])
    return bytes(out)


def encrypted(user_password: bytes, owner_password: bytes = b"owner") -> bytes:
    """A 1-page PDF encrypted with RC4 40-bit; it opens without a password when
    `user_password` is empty (only its permissions are restricted)."""
    owner_key = hashlib.md5((owner_password + _PAD)[:32]).digest()[:5]
    owner_entry = _rc4(owner_key, (user_password + _PAD)[:32])
    digest = hashlib.md5(
        (user_password + _PAD)[:32]
        + owner_entry
        + _PERMISSIONS.to_bytes(4, "little", signed=True)
        + _FILE_ID
    )
    key = digest.digest()[:5]
    user_entry = _rc4(key, _PAD)
    content = b"BT /F1 24 Tf 72 700 Td (secret text) Tj ET"
    object_key = hashlib.md5(key + (4).to_bytes(3, "little") + b"\0\0").digest()[:10]
    encrypt = b"<< /Filter /Standard /V 1 /R 2 /O <%s> /U <%s> /P %d >>" % (
        owner_entry.hex().encode(),
        user_entry.hex().encode(),
        _PERMISSIONS,
    )
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    return pdf(
        CATALOG,
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        stream(_rc4(object_key, content)),
        font,
        encrypt,
        trailer=b"/Encrypt 6 0 R /ID [<%s> <%s>] "
        % (_FILE_ID.hex().encode(), _FILE_ID.hex().encode()),
    )


# Flate streams that inflate to 900 MiB of zeros, built once: a raw deflate block of the zeros
# is shared by every bomb, between the pieces around it (each piece its own deflate block, so
# they join without back-references), inside a zlib header and the Adler-32 of the whole.
_BOMB_ZEROS = 900 * 2**20
_MIB = bytes(2**20)


@functools.cache
def _zeros_deflated() -> bytes:
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    return b"".join(squeeze.compress(_MIB) for _ in range(_BOMB_ZEROS // len(_MIB))) + (
        squeeze.flush(zlib.Z_SYNC_FLUSH)
    )


def _flate_around_zeros(before: bytes, after: bytes) -> bytes:
    """The zlib stream of `before`, 900 MiB of zeros, then `after`."""
    first = zlib.compressobj(9, zlib.DEFLATED, -15)
    last = zlib.compressobj(9, zlib.DEFLATED, -15)
    checksum = zlib.adler32(before)
    for _ in range(_BOMB_ZEROS // len(_MIB)):
        checksum = zlib.adler32(_MIB, checksum)
    checksum = zlib.adler32(after, checksum)
    return (
        b"\x78\xda"
        + first.compress(before)
        + first.flush(zlib.Z_SYNC_FLUSH)
        + _zeros_deflated()
        + last.compress(after)
        + last.flush()
        + checksum.to_bytes(4, "big")
    )


def _xref_stream_pdf(objects: Sequence[bytes], packed: dict[int, tuple[int, int]]) -> bytes:
    """A PDF of `objects` (numbered from 1) and an uncompressed XRef stream after them;
    `packed` maps the numbers of objects kept in an object stream to (stream, index)."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets: dict[int, int] = {}
    for number, body in enumerate(objects, start=1):
        if body:
            offsets[number] = len(out)
            out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(objects) + 1
    offsets[xref] = len(out)
    rows = bytearray(b"\0\0\0\0\0\xff\xff")
    for number in range(1, xref + 1):
        kind, first, second = (2, *packed[number]) if number in packed else (1, offsets[number], 0)
        rows += bytes([kind]) + first.to_bytes(4, "big") + second.to_bytes(2, "big")
    out += b"%d 0 obj\n%s\nendobj\n" % (
        xref,
        stream(bytes(rows), b"/Type /XRef /Size %d /W [1 4 2] /Root 1 0 R" % (xref + 1)),
    )
    out += b"startxref\n%d\n%%%%EOF\n" % offsets[xref]
    return bytes(out)


def object_stream_bomb(
    *, type_name: bytes = b"/ObjStm", filter_name: bytes = b"/FlateDecode"
) -> bytes:
    """About 900 KB: three pages kept in an object stream that inflates to 900 MiB of zeros
    before them (PDFium holds 1.85 GB). `type_name` or `filter_name` spelled with `#`
    escapes (`/Obj#53tm`, `/Fl#61teDecode`) hide the stream from a reader matching the names."""
    pages = [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"] * 3
    index = b"".join(b"%d %d " % (4 + i, i * (len(pages[0]) + 1)) for i in range(3)) + b"\n"
    body = b" ".join(pages) + b" "
    packed = _flate_around_zeros(index, body)
    entries = b"/Type %s /N 3 /First %d /Filter %s" % (
        type_name,
        len(index) + _BOMB_ZEROS,
        filter_name,
    )
    return _xref_stream_pdf(
        [
            CATALOG,
            b"<< /Type /Pages /Kids [4 0 R 5 0 R 6 0 R] /Count 3 >>",
            stream(packed, entries),
            b"",
            b"",
            b"",
        ],
        {4: (3, 0), 5: (3, 1), 6: (3, 2)},
    )


def xref_stream_bomb() -> bytes:
    """About 900 KB: a 1-page PDF whose Flate cross-reference stream is its 5 rows and then
    900 MiB of zeros."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = [0]
    for number, body in enumerate(
        [
            CATALOG,
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
        ],
        start=1,
    ):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    offsets.append(len(out))
    rows = b"\0\0\0\0\0\xff\xff" + b"".join(
        b"\1" + offset.to_bytes(4, "big") + b"\0\0" for offset in offsets[1:]
    )
    entries = b"/Type /XRef /Size 5 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode"
    out += b"4 0 obj\n%s\nendobj\n" % stream(_flate_around_zeros(rows, b""), entries)
    out += b"startxref\n%d\n%%%%EOF\n" % offsets[4]
    return bytes(out)
