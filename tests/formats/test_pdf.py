"""PDF page counts without a PDF library, and the caps that bound the work."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mediaparts as mp
from mediaparts.formats import _pdf as pdf_module
from mediaparts.formats._pdf import pdf_page_count


def _pdf(*objects: bytes, update: bytes = b"") -> bytes:
    body = b"".join(b"%d 0 obj\n%s\nendobj\n" % (i, obj) for i, obj in enumerate(objects, 1))
    return b"%PDF-1.7\n" + body + b"trailer\n<< /Root 1 0 R >>\n%%EOF\n" + update


def test_pdf_page_count_of_testdata(testdata: Path) -> None:
    """testdata/document.pdf has two pages."""
    assert pdf_page_count((testdata / "document.pdf").read_bytes()) == 2


def test_pdf_page_count_prefers_the_root_pages_node() -> None:
    """Nested page-tree nodes: the root's /Count (no /Parent) is the total."""
    data = _pdf(
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Kids [3 0 R 4 0 R] /Count 5 /Type /Pages >>",
        b"<< /Type /Pages /Parent 2 0 R /Kids [5 0 R] /Count 4 >>",
        b"<< /Type/Page /Parent 2 0 R >>",
        b"<< /Type /Page /Parent 3 0 R >>",
    )
    assert pdf_page_count(data) == 5


def test_pdf_page_count_follows_incremental_updates() -> None:
    """An incremental update that rewrites the root node wins, even with fewer pages."""
    update = b"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n%%EOF\n"
    data = _pdf(b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Count 3 >>", update=update)
    assert pdf_page_count(data) == 1


def test_pdf_page_count_falls_back_to_page_objects() -> None:
    """Without any /Count, the /Type /Page objects are counted (not /Pages)."""
    data = _pdf(
        b"<< /Type /Pages /Kids [2 0 R 3 0 R 4 0 R] >>",
        b"<< /Type /Page >>",
        b"<< /Type /Page /Contents 5 0 R >>",
        b"<</Type/Page/Parent 1 0 R>>",
        b"<< /Length 3 >>\nstream\nabc\nendstream",
    )
    assert pdf_page_count(data) == 3


def test_pdf_page_count_reads_object_streams() -> None:
    """A page tree inside a compressed object stream (PDF 1.5+) is found."""
    objects = [b"<< /Type /Pages /Kids [11 0 R] /Count 7 >>", b"<< /Type /Page /Parent 10 0 R >>"]
    header = b"10 0 11 %d " % len(objects[0])
    payload = header + objects[0] + objects[1]
    stream = zlib.compress(payload)
    objstm = b"<< /Type /ObjStm /N 2 /First %d /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream" % (
        len(header), len(stream), stream,
    )  # fmt: skip
    data = _pdf(b"<< /Type /Catalog /Pages 10 0 R >>", objstm)
    assert pdf_page_count(data) == 7


@pytest.mark.parametrize(
    "data", [b"", b"%PDF-1.4\n%%EOF", b"not a pdf at all", b"1 0 obj << /Count 3 >> endobj"]
)
def test_pdf_without_page_tree_is_none(data: bytes) -> None:
    """No page tree, no count."""
    assert pdf_page_count(data) is None


def test_pdf_with_broken_object_stream_still_counts() -> None:
    """A corrupt compressed stream is skipped, not fatal."""
    broken = b"<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>\nstream\nnot zlib\nendstream"
    data = _pdf(broken, b"<< /Type /Pages /Count 2 >>")
    assert pdf_page_count(data) == 2


@given(st.binary(max_size=4096))
def test_pdf_garbage_never_raises(data: bytes) -> None:
    """Random bytes give None or a count, never an exception."""
    result = pdf_page_count(data)
    assert result is None or result >= 0


def _object_stream(objects: list[bytes], order: list[int] | None = None) -> bytes:
    """An /ObjStm holding `objects` (numbered from 10), its header listing them in `order`."""
    offsets, at = [], 0
    for obj in objects:
        offsets.append(at)
        at += len(obj)
    pairs = [(10 + i, offsets[i]) for i in (order or range(len(objects)))]
    header = b"".join(b"%d %d " % pair for pair in pairs)
    stream = zlib.compress(header + b"".join(objects))
    return b"<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream" % (
        len(objects), len(header), len(stream), stream,
    )  # fmt: skip


def _stream_of_pairs(pairs: int) -> bytes:
    """A PDF whose one object stream inflates to `pairs` header pairs "0 0 " (a bomb)."""
    inflater = zlib.compressobj(9)
    chunk = b"0 0 " * 4096
    stream = b"".join(inflater.compress(chunk) for _ in range(pairs // 4096)) + inflater.flush()
    objstm = b"<< /Type /ObjStm /N 2 /First %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (
        pairs // 4096 * len(chunk), stream,
    )  # fmt: skip
    return _pdf(objstm, b"<< /Type /Pages /Count 3 >>")


def test_pdf_page_count_reads_object_stream_offsets_in_order() -> None:
    """A header listing its objects out of order still splits them at their offsets."""
    child = b"<< /Type /Pages /Parent 11 0 R /Kids [12 0 R] /Count 4 >>"
    root = b"<< /Type /Pages /Kids [10 0 R] /Count 7 >>"
    data = _pdf(b"<< /Type /Catalog /Pages 11 0 R >>", _object_stream([child, root], [1, 0]))
    assert pdf_page_count(data) == 7


def test_pdf_page_count_reads_repeated_offsets_once() -> None:
    """Offsets repeated in an object stream's header name one object, read once."""
    objects = [b"<< /Type /Page >>", b"<< /Type /Page >>"]
    data = _pdf(_object_stream(objects, [0, 0, 0, 1, 1]))
    assert pdf_page_count(data) == 2


def test_pdf_object_stream_bomb_is_too_large() -> None:
    """60 KB that inflate past the per-stream cap raise MediaTooLarge, not a partial count."""
    data = _stream_of_pairs((pdf_module.MAX_STREAM_INFLATED >> 2) + 4096)
    assert len(data) < 64_000
    with pytest.raises(mp.MediaTooLarge, match="inflates to more bytes than 16,777,216") as caught:
        pdf_page_count(data)
    assert caught.value.limit == pdf_module.MAX_STREAM_INFLATED


def test_pdf_object_streams_share_one_inflation_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Object streams each under their cap still stop at the cap on all of them together."""
    monkeypatch.setattr(pdf_module, "MAX_INFLATED", 100)
    stream = _object_stream([b"<< /Type /Page /Contents 12 0 R >>"])
    assert pdf_page_count(_pdf(stream, stream)) == 2
    with pytest.raises(mp.MediaTooLarge):
        pdf_page_count(_pdf(stream, stream, stream))


def _streams_just_under_the_cap(count: int, *, corrupt: bool = False, first: bool = True) -> bytes:
    """`count` object streams, each inflating to just under MAX_STREAM_INFLATED (a few KB)."""
    body = zlib.compress(b"0" * (pdf_module.MAX_STREAM_INFLATED - 100), 9)
    if corrupt:  # a wrong adler32: zlib fails only after inflating everything
        body = body[:-1] + bytes([body[-1] ^ 1])
    head = b"<< /Type /ObjStm /N 1 " + (b"/First 4 " if first else b"") + b"/Filter /FlateDecode >>"
    stream = head + b"\nstream\n" + body + b"\nendstream"
    return _pdf(*[stream] * count, b"<< /Type /Pages /Count 3 >>")


@pytest.mark.parametrize(
    ("corrupt", "first"),
    [(False, True), (True, True), (False, False)],
    ids=["whole", "corrupt-checksum", "no-first"],
)
def test_pdf_object_streams_are_charged_whatever_becomes_of_them(
    corrupt: bool, first: bool
) -> None:
    """Streams that fail their checksum or have no /First count towards the 64 MiB in all."""
    data = _streams_just_under_the_cap(5, corrupt=corrupt, first=first)
    if not first:  # nothing in it could be read, so it is never inflated at all
        assert pdf_page_count(data) == 3
        return
    with pytest.raises(mp.MediaTooLarge, match="inflates to more bytes than"):
        pdf_page_count(data)


@pytest.mark.parametrize("compressed", [False, True], ids=["top-level", "in-object-stream"])
def test_pdf_with_too_many_objects_is_too_large(
    monkeypatch: pytest.MonkeyPatch, compressed: bool
) -> None:
    """Past MAX_OBJECTS objects, top-level or compressed, the count is refused, not guessed."""
    monkeypatch.setattr(pdf_module, "MAX_OBJECTS", 10)
    page = b"<< /Type /Page >>"
    if compressed:
        data = _pdf(_object_stream([page] * 9)), _pdf(_object_stream([page] * 10))
    else:
        data = _pdf(*[page] * 10), _pdf(*[page] * 11)
    assert pdf_page_count(data[0]) == 10 - compressed
    with pytest.raises(mp.MediaTooLarge, match="more objects than 10"):
        pdf_page_count(data[1])


def test_estimate_tokens_of_a_pdf_bomb_is_too_large() -> None:
    """estimate_tokens needs the count: a PDF past the caps raises MediaTooLarge."""
    made = mp.part(_stream_of_pairs((pdf_module.MAX_STREAM_INFLATED >> 2) + 4096))
    with pytest.raises(mp.MediaTooLarge):
        mp.estimate_tokens(made, "gemini")


def test_corrupt_stream_after_the_total_budget_stops_inflating() -> None:
    """A corrupt stream charging past the total budget never leaves a next one unlimited."""

    def objstm(number: int, payload: bytes) -> bytes:
        head = b"%d 0 obj\n<< /Type /ObjStm /N 1 /First 0 /Filter /FlateDecode /Length %d >>"
        return head % (number, len(payload)) + b"\nstream\n" + payload + b"\nendstream\nendobj\n"

    full = zlib.compress(b"\0" * pdf_module.MAX_STREAM_INFLATED, 9)
    streams = [objstm(n, full) for n in range(1, 5)]  # the whole 64 MiB budget, spent
    after = zlib.compress(b"\0" * (8 << 20), 9)  # would be inflated with no limit at all
    data = b"%PDF-1.7\n" + b"".join(streams) + objstm(5, b"\xff" * 4) + objstm(6, after)
    with pytest.raises(mp.MediaTooLarge, match="whose total inflates") as info:
        pdf_page_count(data)
    assert info.value.limit == pdf_module.MAX_INFLATED
