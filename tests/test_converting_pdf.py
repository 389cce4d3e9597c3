"""PDF transforms with PDFium: exact page counts, splitting by pages and bytes, page images."""

from __future__ import annotations

import importlib.machinery
import io
import json
import math
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import mediaparts as mp
from mediaparts.converting import TransformPolicy, _pdf, _pdf_render
from mediaparts.converting._pdf import pdf_pages, render_pages, split_pdf
from mediaparts.converting._pdf_render import _read_frames
from mediaparts.formats._pdf import pdf_page_count
from tests._orphans import orphan_survives
from tests._pdfs import encrypted, many_pages, one_page

pdfium: Any = pytest.importorskip("pypdfium2")

POLICY = TransformPolicy()


def _text(data: bytes, index: int) -> str:
    """The text layer of page `index` (from 0), as PDFium extracts it."""
    document = pdfium.PdfDocument(data)
    try:
        page = document[index]
        textpage = page.get_textpage()
        text = str(textpage.get_text_range())
        textpage.close()
        page.close()
    finally:
        document.close()
    return text


# ---------------------------------------------------------------------------- counting


@pytest.mark.parametrize(
    ("name", "pages"), [("text.pdf", 1), ("300-pages.pdf", 300), ("document.pdf", 2)]
)
def test_pdf_pages_counts_testdata_exactly(testdata: Path, name: str, pages: int) -> None:
    """The testdata PDFs have the pages make.py wrote, and the regular expression agrees."""
    data = (testdata / name).read_bytes()
    assert pdf_pages(data, POLICY) == pages
    assert pdf_page_count(data) == pages


# Corpus files where the regular expression (formats._pdf) and PDFium disagree, with both counts.
# small/pdf.pdf's page tree has /Count 1 but no /Type entries: PDFium reads it, the regex not.
REGEX_DIFFERS = {"small/pdf.pdf": (1, None)}


@pytest.mark.slow  # every PDF of the shared corpus
def test_pdf_pages_counts_the_corpus(corpus: Path) -> None:
    """Every corpus PDF opens and counts; the regex count agrees except where listed."""
    found = sorted(corpus.rglob("*.pdf"))
    assert found
    for path in found:
        data = path.read_bytes()
        name = path.relative_to(corpus).as_posix()
        exact, regex = pdf_pages(data, POLICY), pdf_page_count(data)
        assert (exact, regex) == REGEX_DIFFERS.get(name, (exact, exact)), name


@pytest.mark.parametrize(("cap", "fits"), [(299, False), (300, True)])
def test_pdf_pages_max_pages_boundary(testdata: Path, cap: int, fits: bool) -> None:
    """300 pages pass max_pages=300 and are MediaTooLarge at 299, naming both numbers."""
    data = (testdata / "300-pages.pdf").read_bytes()
    policy = POLICY.replace(max_pages=cap)
    if fits:
        assert pdf_pages(data, policy) == 300
        return
    with pytest.raises(mp.MediaTooLarge, match=r"300 pages.*max_pages=299") as caught:
        pdf_pages(data, policy)
    assert (caught.value.size, caught.value.limit) == (300, 299)


@pytest.mark.parametrize("password", [b"secret", b""], ids=["password", "no-password"])
def test_pdf_pages_refuses_encrypted(password: bytes) -> None:
    """An encrypted PDF, with or without a user password, is UnsupportedMediaType saying so."""
    with pytest.raises(mp.UnsupportedMediaType, match="encrypted") as caught:
        pdf_pages(encrypted(password), POLICY)
    assert type(caught.value) is mp.UnsupportedMediaType


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "could not be read: not a PDF"),
        (b"%PDF-1.7\nnothing else", "could not be read"),
        (one_page()[:70], "could not be read"),
        (b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>", "read"),
        (many_pages(1, claimed=5), "counts 5 pages, but page 2 is missing"),
    ],
    ids=["empty", "no-objects", "truncated", "no-page-tree", "count-lies"],
)
def test_pdf_pages_unreadable_is_invalid(data: bytes, words: str) -> None:
    """What PDFium cannot open, or a page tree claiming absent pages, is InvalidMedia."""
    with pytest.raises(mp.InvalidMedia, match=words):
        pdf_pages(data, POLICY)


@pytest.mark.parametrize(
    "call",
    [
        lambda data: pdf_pages(data, POLICY),
        lambda data: split_pdf(data, POLICY, max_pages=1),
        lambda data: render_pages(data, POLICY),
    ],
    ids=["pdf_pages", "split_pdf", "render_pages"],
)
def test_pdf_without_pypdfium2_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, testdata: Path, call: Callable[[bytes], object]
) -> None:
    """Without pypdfium2 every PDF transform raises CodecUnavailable naming the [pdf] extra."""
    monkeypatch.setitem(sys.modules, "pypdfium2", None)
    with pytest.raises(mp.CodecUnavailable, match=r"\[pdf\]") as caught:
        call((testdata / "text.pdf").read_bytes())
    assert (caught.value.extra, caught.value.package) == ("pdf", "pypdfium2")


def test_pdf_module_found_is_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a module not imported is found (as pypdfium2 is looked for before a PDF is read)
    is remembered for the same sys.path; a module not found is looked for again each time (an
    install is seen at once), and so is one on another sys.path."""
    assert "this" not in sys.modules  # the standard library's Zen: nobody imports it
    found = _pdf_render._origin("this")
    assert found is not None and found.endswith("this.py")
    searched: list[str] = []

    def find_spec(module: str, path: list[str]) -> None:
        searched.append(module)

    monkeypatch.setattr(importlib.machinery.PathFinder, "find_spec", find_spec)
    assert _pdf_render._origin("this") == found
    assert _pdf_render._origin("mediaparts_no_such_module") is None
    assert _pdf_render._origin("mediaparts_no_such_module") is None
    assert searched == ["mediaparts_no_such_module"] * 2
    monkeypatch.syspath_prepend("/mediaparts-elsewhere")
    assert _pdf_render._origin("this") is None
    assert searched[-1] == "this"


# ---------------------------------------------------------------------------- splitting


@pytest.mark.parametrize(
    ("max_pages", "labels"),
    [
        (100, ["pages 1-100", "pages 101-200", "pages 201-300"]),
        (101, ["pages 1-101", "pages 102-202", "pages 203-300"]),
        (299, ["pages 1-299", "page 300"]),
        (150, ["pages 1-150", "pages 151-300"]),
    ],
)
def test_split_pdf_at_max_pages(testdata: Path, max_pages: int, labels: list[str]) -> None:
    """Runs of max_pages pages, in order; each piece reopens with its pages and their text."""
    pieces = split_pdf((testdata / "300-pages.pdf").read_bytes(), POLICY, max_pages=max_pages)
    assert [piece.label for piece in pieces] == labels
    first = 1
    for piece in pieces:
        assert piece.media_type == "application/pdf" and piece.data is not None
        assert piece.steps == (f"split 300 pages into {len(labels)} PDFs", piece.label)
        assert pdf_pages(piece.data, POLICY) == piece.pages
        assert piece.pages is not None
        last = first + piece.pages - 1
        assert _text(piece.data, 0).startswith(f"Page {first} of 300")
        assert _text(piece.data, piece.pages - 1).startswith(f"Page {last} of 300")
        first = last + 1
    assert first == 301


@pytest.mark.parametrize(
    ("name", "limits"),
    [("300-pages.pdf", {"max_pages": 300}), ("text.pdf", {"max_pages": 1, "max_bytes": 877})],
)
def test_split_pdf_that_fits_is_returned_as_is(
    testdata: Path, name: str, limits: dict[str, int]
) -> None:
    """A PDF within both limits comes back untouched, one piece, no steps."""
    data = (testdata / name).read_bytes()
    [piece] = split_pdf(data, POLICY, **limits)  # type: ignore[arg-type]
    assert piece.data is data and piece.steps == () and piece.pages == pdf_pages(data, POLICY)


@pytest.mark.parametrize("measure", ["raw", "base64"])
def test_split_pdf_by_bytes_halves_until_each_fits(testdata: Path, measure: str) -> None:
    """Over max_bytes, runs are halved: every piece fits, pages stay contiguous and in order."""
    data = (testdata / "300-pages.pdf").read_bytes()
    max_bytes = 30_000
    pieces = split_pdf(data, POLICY, max_bytes=max_bytes, measure=measure)  # type: ignore[arg-type]
    sizes = [len(piece.data or b"") for piece in pieces]
    counted = [4 * math.ceil(size / 3) if measure == "base64" else size for size in sizes]
    assert all(size <= max_bytes for size in counted)
    assert len(pieces) > 1 and sum(piece.pages or 0 for piece in pieces) == 300
    # Halving 300 gives runs of 75 or 37-38 pages, never a run that would have fitted whole.
    assert {piece.pages for piece in pieces} <= {150, 75, 38, 37, 19, 18}


def test_split_pdf_base64_makes_smaller_pieces_than_raw(testdata: Path) -> None:
    """Measured as base64 (a third larger), 75 pages (about 26 KB) no longer fit 30,000 bytes."""
    data = (testdata / "300-pages.pdf").read_bytes()
    raw = split_pdf(data, POLICY, max_bytes=30_000)
    encoded = split_pdf(data, POLICY, max_bytes=30_000, measure="base64")
    assert [piece.pages for piece in raw] == [75] * 4
    assert [piece.pages for piece in encoded] == [37, 38] * 4


def test_split_pdf_page_over_max_bytes_is_too_large(testdata: Path) -> None:
    """A single page over max_bytes cannot be split smaller: MediaTooLarge naming the page."""
    with pytest.raises(mp.MediaTooLarge, match="page 1 of this PDF alone") as caught:
        split_pdf((testdata / "300-pages.pdf").read_bytes(), POLICY, max_bytes=500)
    assert caught.value.limit == 500


@pytest.mark.parametrize("limits", [{"max_pages": 0}, {"max_bytes": -1}, {"max_pages": True}])
def test_split_pdf_bad_limits_are_invalid_config(testdata: Path, limits: dict[str, Any]) -> None:
    """A limit that is not a positive whole number is InvalidConfig."""
    with pytest.raises(mp.InvalidConfig):
        split_pdf((testdata / "text.pdf").read_bytes(), POLICY, **limits)


def test_split_pdf_refuses_encrypted() -> None:
    """An encrypted PDF is not split (its pieces would come out decrypted)."""
    with pytest.raises(mp.UnsupportedMediaType, match="encrypted"):
        split_pdf(encrypted(b""), POLICY, max_pages=1)


# ---------------------------------------------------------------------------- rendering


def _image(data: bytes | None) -> Image.Image:
    assert data is not None
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_render_pages_text_page_is_a_png_at_max_side(testdata: Path) -> None:
    """An A4 text page becomes a PNG 1568 px high, 1108 wide, with its text drawn (dark ink)."""
    [page] = render_pages((testdata / "text.pdf").read_bytes(), POLICY)
    assert (page.media_type, page.width, page.height) == ("image/png", 1108, 1568)
    assert page.label == "page 1" and page.steps == ("page 1→png 1108x1568",)
    image = _image(page.data)
    assert image.size == (1108, 1568)
    extrema: Any = image.convert("L").getextrema()
    assert extrema[0] < 60 and extrema[1] == 255


def test_render_pages_picture_pages_become_jpeg(testdata: Path) -> None:
    """Pages that are pictures (document.pdf's JPEGs) come out as JPEG, the smaller."""
    pages = render_pages((testdata / "document.pdf").read_bytes(), POLICY, max_side=800)
    assert [(p.media_type, p.width, p.height, p.label) for p in pages] == [
        ("image/jpeg", 568, 800, "page 1"),
        ("image/jpeg", 568, 800, "page 2"),
    ]
    assert _image(pages[1].data).size == (568, 800)


@pytest.mark.parametrize(
    ("first", "last", "labels"),
    [(299, None, ["page 299", "page 300"]), (7, 8, ["page 7", "page 8"]), (300, 999, ["page 300"])],
)
def test_render_pages_range(
    testdata: Path, first: int, last: int | None, labels: list[str]
) -> None:
    """first and last pick pages (from 1, inclusive); a last past the end stops at the end."""
    data = (testdata / "300-pages.pdf").read_bytes()
    pages = render_pages(data, POLICY, max_side=200, first=first, last=last)
    assert [page.label for page in pages] == labels


@pytest.mark.parametrize(("first", "last"), [(301, None), (5, 4), (0, None)])
def test_render_pages_bad_range_is_invalid_config(
    testdata: Path, first: int, last: int | None
) -> None:
    """A range outside the document, or backwards, is InvalidConfig."""
    data = (testdata / "300-pages.pdf").read_bytes()
    with pytest.raises(mp.InvalidConfig):
        render_pages(data, POLICY, first=first, last=last)


@pytest.mark.parametrize(
    ("page", "size"),
    [
        (b"/MediaBox [0 0 600 800] /Rotate 90", (1568, 1176)),
        (b"/MediaBox [0 0 14400 14400]", (1568, 1568)),
        (b"/MediaBox [0 0 14400 14400] /UserUnit 75000", (1568, 1568)),
        (b"/MediaBox [0 0 0.01 0.02]", (784, 1568)),
        (b"/MediaBox [0 0 14400 3]", (1568, 1)),
        (b"/MediaBox [0 0 0 0]", (1212, 1568)),  # PDFium reads an empty box as Letter
    ],
    ids=["rotated", "huge", "user-unit", "tiny", "sliver", "empty"],
)
def test_render_pages_size_ignores_the_claimed_box(page: bytes, size: tuple[int, int]) -> None:
    """Whatever the page box claims, the long side is max_side and the ratio is kept."""
    [image] = render_pages(one_page(b"0 0 m 10 10 l S", page=page), POLICY)
    assert (image.width, image.height) == size
    assert _image(image.data).size == size


def test_render_pages_never_over_max_pixels(testdata: Path) -> None:
    """max_pixels below max_side squared shrinks the page to fit it."""
    policy = POLICY.replace(max_pixels=10_000)
    [page] = render_pages((testdata / "text.pdf").read_bytes(), policy)
    assert page.width is not None and page.height is not None
    assert page.width * page.height <= 10_000
    assert (page.width, page.height) == (84, 119)


def test_render_pages_refuses_encrypted() -> None:
    """An encrypted PDF is not rendered."""
    with pytest.raises(mp.UnsupportedMediaType, match="encrypted"):
        render_pages(encrypted(b""), POLICY)


def test_render_pages_bad_max_side_is_invalid_config(testdata: Path) -> None:
    """max_side must be a positive whole number."""
    with pytest.raises(mp.InvalidConfig):
        render_pages((testdata / "text.pdf").read_bytes(), POLICY, max_side=0)


# ---------------------------------------------------------------------------- the child process


def test_render_child_without_pypdfium2_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, testdata: Path, tmp_path: Path
) -> None:
    """The child imports pypdfium2 from the directories named here: when it cannot import it
    there, the error is CodecUnavailable naming [pdf]."""
    monkeypatch.setattr(_pdf_render, "_import_roots", lambda doing, modules: [str(tmp_path)])
    with pytest.raises(mp.CodecUnavailable, match="child process needs pypdfium2") as caught:
        render_pages((testdata / "text.pdf").read_bytes(), POLICY)
    assert caught.value.extra == "pdf"


def test_render_child_that_cannot_start_is_codec_unavailable(
    monkeypatch: pytest.MonkeyPatch, testdata: Path, tmp_path: Path
) -> None:
    """An interpreter whose sys.executable cannot be run is CodecUnavailable, not OSError."""
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python"))
    with pytest.raises(mp.CodecUnavailable, match="could not start"):
        render_pages((testdata / "text.pdf").read_bytes(), POLICY)


def _frame(head: dict[str, Any], body: bytes = b"") -> bytes:
    encoded = json.dumps({**head, "length": len(body)}).encode()
    return len(encoded).to_bytes(4, "big") + encoded + body


COUNT = _frame({"count": 2})
PAGE = COUNT + _frame({"page": 0, "type": "image/png", "width": 9, "height": 9}, b"png")
DOING = "render a PDF's pages"


@pytest.mark.parametrize(
    ("out", "err", "returncode", "error", "words"),
    [
        (PAGE, b"", -signal.SIGABRT, mp.MediaTooLarge, "more memory .* pages at page 2"),
        (COUNT, b"", -signal.SIGABRT, mp.MediaTooLarge, "more memory .* to render"),
        (PAGE, b"MemoryError\n", 1, mp.MediaTooLarge, "more memory"),
        (PAGE, b"", -signal.SIGXCPU, mp.MediaTooLarge, "timeout=120 s"),
        (PAGE[:-1], b"", -signal.SIGSEGV, mp.InvalidMedia, "stopped on this PDF"),
        (PAGE + b"\0\0\0\x09{not json", b"", 1, mp.InvalidMedia, "at page 2"),
        (_frame({"done": True}), b"", 0, mp.InvalidMedia, "stopped"),
        (_frame({"error": "timeout"}), b"", 0, mp.MediaTooLarge, "timeout=120 s"),
        (_frame({"error": "invalid", "message": "bad"}), b"", 0, mp.InvalidMedia, "bad"),
        (_frame({"error": "memory", "message": "big"}), b"", 0, mp.MediaTooLarge, "big"),
        (_frame({"error": "config", "message": "pages 5-4"}), b"", 0, mp.InvalidConfig, "5-4"),
        (_frame({"error": "open", "code": 3}), b"", 0, mp.InvalidMedia, "damaged"),
        (_frame({"error": "open", "code": 4}), b"", 0, mp.UnsupportedMediaType, "password"),
        (_frame({"error": "open", "code": 0}), b"", 0, mp.InvalidMedia, "no pages"),
        (_frame({"error": "pages", "count": 9}), b"", 0, mp.MediaTooLarge, "9 pages"),
        (_frame({"error": "missing", "count": 3, "page": 2}), b"", 0, mp.InvalidMedia, "page 2"),
    ],
    ids=[
        "abort",
        "abort-before-pages",
        "memory-error",
        "cpu-limit",
        "cut-frame",
        "bad-json",
        "done-without-count",
        "timeout",
        "invalid",
        "memory",
        "config",
        "damaged",
        "password",
        "no-pages",
        "too-many-pages",
        "missing-page",
    ],
)
def test_child_failures_become_our_errors(
    out: bytes, err: bytes, returncode: int, error: type[Exception], words: str
) -> None:
    """A child that aborts, dies, writes a cut or broken frame, stops early or reports an
    error gives our error naming what it was doing, never a foreign exception."""
    with pytest.raises(error, match=words):
        _read_frames(out, err, returncode, 1 << 30, POLICY, DOING)


def test_child_frames_read_back() -> None:
    """The count frame, the job's frames in order and a done frame give the count and frames."""
    page_2 = _frame({"page": 1, "type": "image/jpeg", "width": 9, "height": 9}, b"jp")
    count, frames = _read_frames(PAGE + page_2 + _frame({"done": True}), b"", 0, 1, POLICY, DOING)
    assert count == 2
    assert [(head["type"], body) for head, body in frames] == [
        ("image/png", b"png"),
        ("image/jpeg", b"jp"),
    ]


# ---------------------------------------------------------------------------- counts kept


def test_count_of_the_same_bytes_starts_no_second_child(
    monkeypatch: pytest.MonkeyPatch, testdata: Path
) -> None:
    """Counting the same bytes under the same caps again (page_count after pdf_pages, as
    token counts and renders after inspect do) starts no child; other caps or bytes do."""
    runs: list[str] = []
    run = _pdf_render.run_in_child

    def counting(job: str, *args: Any, **kwargs: Any) -> Any:
        runs.append(job)
        return run(job, *args, **kwargs)

    monkeypatch.setattr(_pdf, "run_in_child", counting)
    data = (testdata / "300-pages.pdf").read_bytes() + b"% kept\n"
    assert pdf_pages(data, POLICY) == 300
    assert _pdf.page_count(data, POLICY) == 300
    assert runs == ["count"]
    assert pdf_pages(data, POLICY.replace(max_pages=500)) == 300
    assert pdf_pages(data + b" ", POLICY) == 300
    assert runs == ["count"] * 3


def test_split_remembers_the_count(monkeypatch: pytest.MonkeyPatch, testdata: Path) -> None:
    """A split counts the pages in its own child, and a count afterwards starts none."""
    runs: list[str] = []
    run = _pdf_render.run_in_child

    def counting(job: str, *args: Any, **kwargs: Any) -> Any:
        runs.append(job)
        return run(job, *args, **kwargs)

    monkeypatch.setattr(_pdf, "run_in_child", counting)
    data = (testdata / "300-pages.pdf").read_bytes() + b"% split\n"
    assert len(split_pdf(data, POLICY, max_pages=100)) == 3
    assert pdf_pages(data, POLICY) == 300
    assert runs == ["split"]


@pytest.mark.slow  # a second Python process, killed, then waited for
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_pdf_child_dies_with_its_parent() -> None:
    """A process killed outright (SIGKILL) while PDFium draws leaves no PDFium child running."""
    code = (
        "from mediaparts.converting import TransformPolicy\n"
        "from mediaparts.converting._pdf import render_pages\n"
        "from tests._pdfs import one_page\n"
        "data = one_page(b'0 0 m 600 800 l S\\n' * 1_000_000)\n"
        "render_pages(data, TransformPolicy(timeout=600))\n"
    )
    assert not orphan_survives(code)
