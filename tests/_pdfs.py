"""PDFs written object by object for the PDF transform tests: well-formed and hostile ones."""

from __future__ import annotations

import hashlib
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
