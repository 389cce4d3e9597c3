"""Hostile PDFs fail with our errors within the caps, and PDFium reaches nothing outside them.

PDFium inflates streams and parses a page's content without limits, so every call into it
(count, split, render) runs in a child process with a memory and CPU cap and the policy's
deadline; these tests prove the caps stop files built to exhaust them while this process stays
small, that the child cannot be made to import code or outlive its call, that page-tree tricks
are read or refused, and that no file or URL a PDF names is ever opened.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mediaparts as mp
from mediaparts.converting import TransformPolicy, _pdf_render
from mediaparts.converting._pdf import pdf_pages, render_pages, split_pdf
from tests._pdfs import (
    CATALOG,
    form_fanout,
    many_pages,
    object_stream_bomb,
    one_page,
    pdf,
    stream,
    xref_stream_bomb,
)
from tests.robustness._entry_points import TESTDATA, within

pytestmark = pytest.mark.slow  # PDF bombs, each in a capped child process

pytest.importorskip("pypdfium2")

POLICY = TransformPolicy()
LINUX = sys.platform.startswith("linux")

ALL_THREE: list[Callable[[bytes, TransformPolicy], object]] = [
    pdf_pages,
    lambda data, policy: split_pdf(data, policy, max_pages=1),
    lambda data, policy: render_pages(data, policy, max_side=300),
]
ALL_THREE_IDS = ["pdf_pages", "split_pdf", "render_pages"]


# ---------------------------------------------------------------------------- costly pages


@pytest.mark.skipif(not LINUX, reason="the child's memory cap (RLIMIT_AS) is enforced on Linux")
def test_form_fanout_render_stops_at_the_memory_cap() -> None:
    """A 3 KB page of forms drawing forms 30 times over, 5 deep (24 million forms), would take
    gigabytes: rendering it is MediaTooLarge at the child's memory cap, and this process lives."""
    data = form_fanout()
    assert len(data) < 4000
    with (
        within(60),
        pytest.raises(mp.MediaTooLarge, match=r"more memory than it may use .* to render"),
    ):
        render_pages(data, POLICY)


def test_form_fanout_render_stops_at_the_deadline() -> None:
    """The same page under a 1 s timeout is MediaTooLarge naming the timeout (every OS)."""
    policy = POLICY.replace(timeout=1.0)
    with within(30), pytest.raises(mp.MediaTooLarge, match=r"timeout=1 s|more memory"):
        render_pages(form_fanout(), policy)


def test_form_fanout_counts_and_splits_without_parsing() -> None:
    """Counting and splitting never parse page content: the fanout PDF counts 1 page, and its
    page is copied into a new PDF (PDFium compresses the repeated operators, so it is smaller)."""
    data = form_fanout()
    with within(10):
        assert pdf_pages(data, POLICY) == 1
        [piece] = split_pdf(data, POLICY, max_bytes=len(data) - 1)
    assert piece.steps == ("split 1 pages into 1 PDFs", "page 1") and piece.data is not None
    assert pdf_pages(piece.data, POLICY) == 1


def test_heavy_page_render_stops_at_the_deadline() -> None:
    """A page of 200,000 full-page strokes (seconds of drawing) stops at a 1 s timeout."""
    data = one_page(b"0 0 m 600 800 l S\n" * 200_000)
    with within(30), pytest.raises(mp.MediaTooLarge, match=r"timeout=1 s"):
        render_pages(data, POLICY.replace(timeout=1.0))


def test_huge_image_is_drawn_at_max_side() -> None:
    """A page image claiming 60,000 x 60,000 pixels (10.8 GB decoded) draws at max_side."""
    image = stream(
        b"\0" * 64,
        b"/Type /XObject /Subtype /Image /Width 60000 /Height 60000 /ColorSpace /DeviceRGB "
        b"/BitsPerComponent 8",
    )
    data = one_page(
        b"q 600 0 0 800 0 0 cm /Im Do Q",
        resources=b"<< /XObject << /Im 5 0 R >> >>",
        extra=[image],
    )
    with within(30):
        [page] = render_pages(data, POLICY)
    assert (page.width, page.height) == (1176, 1568)


# ---------------------------------------------------------------------------- PDFium out of process

_UNDER_A_LIMIT = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))
from mediaparts.converting import TransformPolicy
from mediaparts.converting._pdf import page_count, pdf_pages, render_pages, split_pdf
calls = {
    "pdf_pages": pdf_pages,
    "page_count": page_count,
    "split_pdf": lambda data, policy: split_pdf(data, policy, max_pages=1),
    "render_pages": lambda data, policy: render_pages(data, policy, max_side=100),
}
said = {}
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    for name, call in calls.items():
        try:
            said[path + " " + name] = repr(call(data, TransformPolicy()))[:80]
        except Exception as exc:
            said[path + " " + name] = type(exc).__name__ + ": " + str(exc)[:80]
print(json.dumps({"said": said, "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


@pytest.mark.skipif(not LINUX, reason="RLIMIT_AS is enforced on Linux")
def test_inflating_streams_are_refused_and_this_process_stays_small(tmp_path: Path) -> None:
    """900 KB PDFs whose object stream (its name or filter written with # escapes, unseen by
    the page-tree reader) or cross-reference stream inflate to 900 MiB: every PDF call in a
    process limited to 1.5 GB of address space is MediaTooLarge or InvalidMedia, and the
    process exits normally (PDFium in it would abort)."""
    bombs = {
        "type.pdf": object_stream_bomb(type_name=b"/Obj#53tm"),
        "filter.pdf": object_stream_bomb(filter_name=b"/Fl#61teDecode"),
        "xref.pdf": xref_stream_bomb(),
    }
    for name, data in bombs.items():
        assert len(data) < 1_000_000
        (tmp_path / name).write_bytes(data)
    source = str(Path(mp.__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-c", _UNDER_A_LIMIT, *(str(tmp_path / name) for name in bombs)],
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": source},
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-500:]
    report = json.loads(done.stdout)
    assert len(report["said"]) == 12
    for call, said in report["said"].items():
        assert said.startswith(("MediaTooLarge: ", "InvalidMedia: ")), (call, said)
    # The bound is the address-space limit itself: PDFium inflating 900 MiB in this process
    # would abort it. (Its peak RSS, read back, once showed the child's under a loaded
    # machine, so it is not asserted.)


@pytest.fixture
def fake_pdfium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory holding pypdfium2 and PIL packages that leave a marker when
    imported, with '' first on sys.path; returns the marker's path."""
    marker = tmp_path / "imported"
    folder = tmp_path / "cwd"
    for package in ("pypdfium2", "pypdfium2_raw", "PIL"):
        (folder / package).mkdir(parents=True)
        (folder / package / "__init__.py").write_text(
            f"open({str(marker)!r}, 'a').write({package!r})\nraise ImportError('fake')\n"
        )
    monkeypatch.chdir(folder)
    monkeypatch.setattr(sys, "path", ["", *sys.path])
    return marker


@pytest.mark.parametrize("call", ALL_THREE, ids=ALL_THREE_IDS)
@pytest.mark.parametrize("loaded", [True, False], ids=["loaded", "not-loaded"])
def test_child_never_imports_from_the_working_directory(
    fake_pdfium: Path,
    monkeypatch: pytest.MonkeyPatch,
    call: Callable[[bytes, TransformPolicy], object],
    loaded: bool,
) -> None:
    """Fake pypdfium2 and PIL packages in the working directory, with '' on sys.path, are
    never imported, whether or not this process has loaded the real ones: the child runs in
    an empty directory and imports them from the absolute directories found here."""
    if not loaded:
        for name in [n for n in sys.modules if n.split(".")[0] in ("pypdfium2", "PIL")]:
            monkeypatch.delitem(sys.modules, name)
    data = one_page(b"0 0 m 100 100 l S % " + str(loaded).encode())  # no count kept for it
    call(data, POLICY)
    assert not fake_pdfium.exists()


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs POSIX signals")
def test_interrupted_call_leaves_no_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """A KeyboardInterrupt while the child draws a costly page kills and reaps the child."""
    started: list[subprocess.Popen[bytes]] = []
    popen = subprocess.Popen

    def recording(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        child = popen(*args, **kwargs)
        started.append(child)
        return child

    monkeypatch.setattr(subprocess, "Popen", recording)
    main = threading.main_thread().ident
    assert main is not None
    timer = threading.Timer(0.5, signal.pthread_kill, (main, signal.SIGINT))  # Ctrl-C
    timer.start()
    try:
        with within(10), pytest.raises(KeyboardInterrupt):
            render_pages(one_page(b"0 0 m 600 800 l S\n" * 200_000), POLICY)
    finally:
        timer.cancel()
    [child] = started
    assert child.returncode is not None  # reaped
    with pytest.raises(ProcessLookupError):
        os.kill(child.pid, 0)


@pytest.mark.skipif(not LINUX, reason="RLIMIT_CPU ends the child on Linux")
def test_child_left_alone_ends_at_its_cpu_limit() -> None:
    """The child caps its own CPU time (ceil(timeout) + 1 s), so one whose parent is gone
    ends by itself: run directly with a 1 s cap on a page of seconds of drawing, the OS ends
    it (SIGXCPU) though its own deadline is far away."""
    job = {
        "job": "render",
        "path": _pdf_render._import_roots("render", ["pypdfium2", "pypdfium2_raw", "PIL"]),
        "seconds": 600,
        "memory": 2**31,
        "cpu": 1,
        "max_pages": 10,
        "max_side": 1568,
        "max_pixels": 2**22,
        "first": None,
        "last": None,
    }
    data = one_page(b"0 0 m 600 800 l S\n" * 2_000_000)
    with within(30):
        done = subprocess.run(
            [sys.executable, "-I", "-S", str(_pdf_render._CHILD)],
            input=json.dumps(job).encode() + b"\n" + data,
            capture_output=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == -signal.SIGXCPU


def test_timeout_past_what_subprocess_takes_is_clamped() -> None:
    """A timeout of 10**12 s (over subprocess's ~24.8 day bound) runs, no OverflowError."""
    count, _ = _pdf_render.run_in_child(
        "count", one_page(), POLICY, seconds=1e12, doing="count a PDF's pages"
    )
    assert count == 1


# ---------------------------------------------------------------------------- page trees


@pytest.mark.parametrize("call", ALL_THREE, ids=ALL_THREE_IDS)
def test_count_bomb_is_refused_before_reading_pages(
    call: Callable[[bytes, TransformPolicy], object],
) -> None:
    """A page tree claiming 1,000,000 pages (it holds one) is over max_pages: MediaTooLarge."""
    with within(10), pytest.raises(mp.MediaTooLarge, match="1,000,000 pages"):
        call(many_pages(1, claimed=1_000_000), POLICY)


@pytest.mark.parametrize(
    "tree",
    [
        b"<< /Type /Pages /Kids [3 0 R 2 0 R] >>",
        b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
        b"<< /Type /Pages /Kids [3 0 R 3 0 R 3 0 R] >>",
    ],
    ids=["kid-is-root", "node-loops-to-root", "same-page-thrice"],
)
def test_page_tree_cycles_end(tree: bytes) -> None:
    """Page trees that loop back on themselves are counted (or refused) quickly, never hang."""
    data = pdf(
        CATALOG,
        tree,
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>",
        b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 3 0 R] /Count 1 >>",
    )
    for call in ALL_THREE:
        with within(30), contextlib.suppress(mp.InvalidMedia):
            call(data, POLICY)


def test_thousands_of_pages_over_max_pages_then_within() -> None:
    """5,000 pages are over the default max_pages; with max_pages=5000 they count and split."""
    data = many_pages(5000)
    with pytest.raises(mp.MediaTooLarge, match="5,000 pages"):
        pdf_pages(data, POLICY)
    policy = POLICY.replace(max_pages=5000)
    with within(30):
        assert pdf_pages(data, policy) == 5000
        pieces = split_pdf(data, policy, max_pages=1000)
    assert [piece.label for piece in pieces][-1] == "pages 4001-5000"


@pytest.mark.parametrize("name", ["text.pdf", "document.pdf", "300-pages.pdf"])
def test_truncated_pdfs_fail_with_our_errors(name: str) -> None:
    """A testdata PDF cut anywhere is read, or refused with a MediaError: no other exception."""
    data = (TESTDATA / name).read_bytes()
    for cut in sorted({1, 8, 64, len(data) // 3, len(data) // 2, len(data) - 40, len(data) - 1}):
        for call in ALL_THREE[:2]:
            with within(10), contextlib.suppress(mp.MediaError):
                call(data[:cut], POLICY)
    with within(30), contextlib.suppress(mp.MediaError):
        render_pages(data[: len(data) // 2], POLICY, max_side=200, last=3)


# ---------------------------------------------------------------------------- outside access


def _reaching_pdf(target: bytes) -> bytes:
    """A PDF that names `target` (a URL or a path) in every way a PDF can: an open action in
    JavaScript, a URI, a launch and a remote go-to; a link; a content stream, an image and an
    embedded font whose data is an external file."""
    js = b'app.launchURL\\("%s"\\); this.submitForm\\("%s"\\);' % (target, target)
    external = b"/F << /FS /URL /F (%s) >> /FFilter /FlateDecode" % target
    return pdf(
        CATALOG[:-2] + b"/OpenAction << /S /JavaScript /JS (%s) /Next [<< /S /URI /URI (%s) >> "
        b"<< /S /Launch /F (%s) >> << /S /GoToR /F (%s) /D [0 /Fit] >>] >> >>"
        % (js, target, target, target),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Annots [7 0 R] "
        b"/AA << /O << /S /URI /URI (%s) >> >> "
        b"/Resources << /XObject << /Im 5 0 R >> /Font << /F1 6 0 R >> >> /Contents 4 0 R >>"
        % target,
        stream(b"", b"/F (%s)" % target),
        stream(
            b"",
            b"/Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray "
            b"/BitsPerComponent 8 " + external,
        ),
        b"<< /Type /Font /Subtype /TrueType /BaseFont /Hostile /FirstChar 32 /LastChar 32 "
        b"/Widths [500] /FontDescriptor 8 0 R >>",
        b"<< /Type /Annot /Subtype /Link /Rect [0 0 600 800] /A << /S /URI /URI (%s) >> >>"
        % target,
        b"<< /Type /FontDescriptor /FontName /Hostile /Flags 32 /FontBBox [0 0 1000 1000] "
        b"/ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 9 0 R >>",
        stream(b"", external),
    )


@contextlib.contextmanager
def _listening() -> Iterator[tuple[bytes, list[str]]]:
    """A local TCP server that records every connection; yields its URL and the record."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.05)
    hits: list[str] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, address = server.accept()
            except (TimeoutError, OSError):
                continue
            hits.append(f"{address}")
            connection.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield b"http://127.0.0.1:%d/pdf" % server.getsockname()[1], hits
    finally:
        stop.set()
        thread.join()
        server.close()


def test_pdf_opens_no_url_it_names() -> None:
    """Counting, splitting and rendering a PDF that names a local server everywhere it can
    makes no connection to it; the server does record a connection when one is made."""
    with _listening() as (url, hits):
        data = _reaching_pdf(url)
        assert pdf_pages(data, POLICY) == 1
        split_pdf(data, POLICY, max_pages=1)
        render_pages(data, POLICY, max_side=400)
        assert hits == []
        port = int(url.rsplit(b":", 1)[1].split(b"/")[0])
        socket.create_connection(("127.0.0.1", port)).close()  # the recorder works
        with within(5):
            while not hits:
                threading.Event().wait(0.01)


@contextlib.contextmanager
def _watched_fifo(folder: Path) -> Iterator[tuple[Path, list[str]]]:
    """A named pipe, and a record of every time something opened it for reading (a writer
    can open a FIFO without blocking only while a reader has it open)."""
    fifo = folder / "must-not-be-read"
    os.mkfifo(fifo)
    opened: list[str] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            try:
                descriptor = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                if exc.errno != errno.ENXIO:  # ENXIO: no reader
                    raise
                stop.wait(0.002)
                continue
            opened.append("opened")
            os.close(descriptor)
            stop.wait(0.05)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield fifo, opened
    finally:
        stop.set()
        thread.join()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_pdf_opens_no_file_it_names(tmp_path: Path) -> None:
    """A PDF naming a local file as an external stream, image, font, launch and remote go-to
    opens it in no transform; the watch does see a reader when one opens the file."""
    with _watched_fifo(tmp_path) as (fifo, opened):
        data = _reaching_pdf(str(fifo).encode())
        assert pdf_pages(data, POLICY) == 1
        split_pdf(data, POLICY, max_pages=1)
        render_pages(data, POLICY, max_side=400)
        threading.Event().wait(0.05)
        assert opened == []
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # the watch works
        with within(5):
            while not opened:
                threading.Event().wait(0.01)
        os.close(reader)


# ---------------------------------------------------------------------------- fuzzing


def _mutate(data: bytes, seed: int) -> bytes:
    """A deterministic mutation of `data`: flips, overwrites with extremes, a cut, a
    duplicated or deleted run, or a number in the page tree set to an extreme."""
    rng = random.Random(seed)
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(5)
        at = rng.randrange(len(out))
        if kind == 0:
            out[at] ^= 1 << rng.randrange(8)
        elif kind == 1:
            out[at : at + 4] = rng.choice([b"\xff\xff\xff\xff", b"\0\0\0\0", b"9999", b"-1 0"])
        elif kind == 2:
            del out[at:]
            out += b"\n" if not out else b""
        elif kind == 3:
            run = out[at : at + rng.randint(1, 200)]
            out[at:at] = run * rng.randint(1, 50)
        else:
            for tag in (b"/Count ", b"/Length ", b"/MediaBox [", b"/Kids [", b"startxref\n"):
                found = out.find(tag)
                if found >= 0 and rng.random() < 0.5:
                    value = rng.choice([b"0", b"-1", b"2147483647", b"99999999999", b"1e38"])
                    out[found + len(tag) : found + len(tag)] = value + b" "
    return bytes(out)


SOURCES = {
    "text.pdf": (TESTDATA / "text.pdf").read_bytes(),
    "document.pdf": (TESTDATA / "document.pdf").read_bytes(),
    "3-pages": many_pages(3),
    "fanout": form_fanout(levels=2),
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SOURCES)), st.integers(0, 2**32 - 1))
def test_fuzzed_pdfs_count_and_split_with_our_errors(source: str, seed: int) -> None:
    """Mutated real PDFs are counted and split, or refused with a MediaError, quickly."""
    data = _mutate(SOURCES[source], seed)
    with within(10):
        for call in ALL_THREE[:2]:
            with contextlib.suppress(mp.MediaError):
                call(data, POLICY)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SOURCES)), st.integers(0, 2**32 - 1))
def test_fuzzed_pdfs_render_with_our_errors(source: str, seed: int) -> None:
    """Mutated real PDFs render, or are refused with a MediaError; this process survives."""
    data = _mutate(SOURCES[source], seed)
    with within(30), contextlib.suppress(mp.MediaError):
        pages: Any = render_pages(data, POLICY.replace(timeout=10.0), max_side=300, last=2)
        assert all(page.width and page.height for page in pages)
