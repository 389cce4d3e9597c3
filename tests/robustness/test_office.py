"""Hostile Office packages and RTF fail with our errors, unexpanded and unparsed.

ZIP bombs (1 GiB of zeros in 1 MB, with honest and with lying headers), too many entries,
entity expansion and external entities (a canary file and a local server that must see
nothing), malformed packages, deep nesting, docx tables whose spans and merges would make
python-docx's cells endless, and RTF built to make striprtf slow or raise; then a bounded
hypothesis fuzz over mutated testdata documents.
"""

from __future__ import annotations

import io
import os
import struct
import sys
import tracemalloc
import zipfile
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mediaparts as mp
from mediaparts.converting import TransformPolicy, _docx, office_to_text
from mediaparts.converting._extras import Deadline
from mediaparts.converting._markdown import TextBudget
from mediaparts.converting._xlsx import MAX_COLUMNS, MAX_ROWS
from mediaparts.converting._zipguard import MAX_ENTRIES, expansion_budget
from tests._builders import TESTDATA
from tests.conftest import LocalServer

pytestmark = pytest.mark.slow  # ZIP and XML bombs under the caps

pytest.importorskip("docx", reason="python-docx is in the [office] extra")
pytest.importorskip("openpyxl", reason="openpyxl is in the [office] extra")
pytest.importorskip("pptx", reason="python-pptx is in the [office] extra")
pytest.importorskip("striprtf", reason="striprtf is in the [office] extra")

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
RTF = "application/rtf"
POLICY = TransformPolicy()
GIB = 1 << 30
MIB = 1 << 20
# Each format's file, its type, and the part its text comes from.
PACKAGES = [
    ("report.docx", DOCX, "word/document.xml"),
    ("sheet.xlsx", XLSX, "xl/worksheets/sheet1.xml"),
    ("slides.pptx", PPTX, "ppt/slides/slide1.xml"),
]


# ---------------------------------------------------------------------------- building ZIPs


def _entry(name: str, data: bytes, *, method: int, crc: int, size: int, flags: int = 0) -> Any:
    return (name.encode(), data, method, crc, size, flags)


def _zip(entries: list[Any]) -> bytes:
    """Return a ZIP of already-compressed entries, with the sizes and CRCs given (may lie)."""
    out = io.BytesIO()
    central = []
    for name, data, method, crc, size, flags in entries:
        offset = out.tell()
        head = (0x04034B50, 20, flags, method, 0, 0x21, crc, len(data), size, len(name), 0)
        out.write(struct.pack("<IHHHHHIIIHH", *head) + name + data)
        row = (0x02014B50, 20, 20, flags, method, 0, 0x21, crc, len(data), size, len(name))
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", *row, 0, 0, 0, 0, 0, offset) + name)
    start = out.tell()
    out.write(b"".join(central))
    size = out.tell() - start
    out.write(
        struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), size, start, 0)
    )
    return out.getvalue()


def _members(name: str) -> list[Any]:
    """The entries of a testdata package, deflated again, with honest headers."""
    with zipfile.ZipFile(TESTDATA / name) as archive:
        return [_deflated(info.filename, archive.read(info)) for info in archive.infolist()]


def _deflated(name: str, member: bytes) -> Any:
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    data = packer.compress(member) + packer.flush()
    return _entry(name, data, method=8, crc=zlib.crc32(member), size=len(member))


def _replaced(name: str, part: str, member: bytes) -> bytes:
    return _zip([_deflated(part, member) if e[0] == part.encode() else e for e in _members(name)])


@pytest.fixture(scope="module")
def zeros() -> tuple[bytes, int]:
    """1 GiB of zeros, deflated a MiB at a time (never held whole), and its CRC-32."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = bytes(MIB)
    pieces, crc = [], 0
    for _ in range(GIB // MIB):
        pieces.append(packer.compress(block))
        crc = zlib.crc32(block, crc)
    pieces.append(packer.flush())
    return b"".join(pieces), crc


# ---------------------------------------------------------------------------- bombs


@pytest.mark.parametrize(
    ("changes", "budget"),
    [({}, "inflation_ratio=40"), ({"inflation_ratio": 10_000.0}, "max_expanded_bytes")],
)
def test_zip_bomb_over_package_budget_refused_unread(
    zeros: tuple[bytes, int], changes: dict[str, float], budget: str
) -> None:
    """A docx with an entry of 1 GiB of zeros is over its package budget (inflation_ratio
    times its size, at most max_expanded_bytes), refused unread."""
    data, crc = zeros
    bomb = _zip(
        [*_members("report.docx"), _entry("word/media/z.bin", data, method=8, crc=crc, size=GIB)]
    )
    policy = POLICY.replace(**changes)
    with pytest.raises(mp.MediaTooLarge, match=budget) as caught:
        office_to_text(bomb, DOCX, policy)
    assert caught.value.limit == expansion_budget(len(bomb), policy)


def test_zip_bomb_ratio_refused_even_under_raised_budgets(zeros: tuple[bytes, int]) -> None:
    """With both package budgets raised over 1 GiB, the entry's 1,000:1 ratio still refuses
    it unread."""
    data, crc = zeros
    bomb = _zip(
        [*_members("report.docx"), _entry("word/media/z.bin", data, method=8, crc=crc, size=GIB)]
    )
    policy = POLICY.replace(max_expanded_bytes=2 * GIB, inflation_ratio=10_000.0)
    with pytest.raises(mp.MediaTooLarge, match="ZIP bomb"):
        office_to_text(bomb, DOCX, policy)


@pytest.mark.parametrize("count", [20, 199])
def test_zip_bomb_of_many_medium_entries_refused_unread(count: int) -> None:
    """Header parts of 1,000,000 bytes each (1,000:1, each under the old 1 MiB floor) are
    refused from the central directory, read or not."""
    header = _deflated("word/header1.xml", b"<w:p/>" * 166_666)
    headers = [(f"word/header{i}.xml".encode(), *header[1:]) for i in range(count)]
    with pytest.raises(mp.MediaTooLarge, match=r"ZIP bomb|inflation_ratio"):
        office_to_text(_zip([*_members("report.docx"), *headers]), DOCX, POLICY)


@pytest.mark.parametrize("declared", [1000, 1 << 19])
def test_zip_bomb_lying_header_reads_only_declared(zeros: tuple[bytes, int], declared: int) -> None:
    """An entry whose header claims a small size holds 1 GiB: reading stops at the claimed size
    and fails its CRC (InvalidMedia), and memory never grows anywhere near the real size."""
    data, crc = zeros
    tracemalloc.start()
    try:
        for part in ("word/styles.xml", "word/document.xml"):
            entries = [e for e in _members("report.docx") if e[0] != part.encode()]
            bomb = _zip([*entries, _entry(part, data, method=8, crc=crc, size=declared)])
            with pytest.raises(mp.InvalidMedia, match="corrupt"):
                office_to_text(bomb, DOCX, POLICY)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * MIB  # the 1 MB input and a few copies, never the 1 GiB


def test_zip_too_many_entries_refused_before_listing() -> None:
    """A package of more than MAX_ENTRIES entries is refused before zipfile lists them."""
    entries = [_entry(f"e{i}", b"", method=0, crc=0, size=0) for i in range(MAX_ENTRIES + 1)]
    with pytest.raises(mp.MediaTooLarge, match="more than 10,000 entries"):
        office_to_text(_zip(entries), XLSX, POLICY)


# ---------------------------------------------------------------------------- XML


LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>
<w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>"""


def _external(canary: Path, url: str, root: str) -> bytes:
    return (
        f'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY file SYSTEM "file://{canary}">'
        f'<!ENTITY web SYSTEM "{url}">]>\n'
        f"<{root}>&file;&web;</{root}>"
    ).encode()


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The libraries' entry points, recording any call (none may happen for a refused file)."""
    calls: list[str] = []
    for module, name in (
        ("docx", "Document"),
        ("openpyxl", "load_workbook"),
        ("pptx", "Presentation"),
    ):
        library = sys.modules.get(module) or __import__(module)

        def record(*args: object, _name: str = name, **kwargs: object) -> None:
            calls.append(_name)
            raise AssertionError(f"{_name} was called")

        monkeypatch.setattr(library, name, record)
    return calls


@pytest.mark.parametrize(
    "member",
    [
        LAUGHS,
        LAUGHS.decode().replace('"1.0"', '"1.0" encoding="UTF-16"').encode("utf-16"),
        b"\xef\xbb\xbf" + LAUGHS,
        LAUGHS.replace(b"<!DOCTYPE", b"<!doctype"),
        LAUGHS.split(b"?>", 1)[1].strip().decode().encode("utf-16-le"),  # no BOM, as expat reads
        b" \x00" + LAUGHS.split(b"?>", 1)[1].strip().decode().encode("utf-16-le") + b"\x00\xd8",
    ],
    ids=["utf-8", "utf-16", "utf-8-bom", "lower-case", "utf-16-no-bom", "utf-16-space-broken"],
)
def test_xml_entity_expansion_refused_before_parsing(member: bytes, parsed: list[str]) -> None:
    """Billion laughs in word/document.xml, in any encoding Office allows, is InvalidMedia
    before python-docx is called."""
    with pytest.raises(mp.InvalidMedia, match="DOCTYPE"):
        office_to_text(_replaced("report.docx", "word/document.xml", member), DOCX, POLICY)
    assert parsed == []


@pytest.mark.parametrize(("name", "media_type", "part"), PACKAGES)
def test_xml_external_entities_read_no_file_and_fetch_nothing(
    name: str,
    media_type: str,
    part: str,
    tmp_path: Path,
    local_server: LocalServer,
    parsed: list[str],
) -> None:
    """External entities naming a local file and a URL: refused unparsed; the canary file is
    not read (its access time stays) and the server gets no request."""
    canary = tmp_path / "canary.txt"
    canary.write_text("secret")
    probe = tmp_path / "probe.txt"
    probe.write_text("probe")
    for path in (canary, probe):
        os.utime(path, (1_000_000_000, 1_700_000_000))  # read before written: any read shows
    probe.read_text()
    if os.stat(probe).st_atime == 1_000_000_000:
        pytest.skip("this file system does not record reads (noatime)")
    url = local_server.add("/entity", b"fetched")
    member = _external(canary, url, "root")
    with pytest.raises(mp.InvalidMedia, match="DOCTYPE"):
        office_to_text(_replaced(name, part, member), media_type, POLICY)
    assert os.stat(canary).st_atime == 1_000_000_000
    assert local_server.hits == {}
    assert parsed == []


RELS = [
    ("report.docx", DOCX, "word/_rels/document.xml.rels"),
    ("sheet.xlsx", XLSX, "xl/_rels/workbook.xml.rels"),
    ("slides.pptx", PPTX, "ppt/slides/_rels/slide1.xml.rels"),
]
KINDS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"


@pytest.mark.parametrize(("name", "media_type", "rels"), RELS)
def test_external_relationships_are_never_followed(
    name: str, media_type: str, rels: str, tmp_path: Path, local_server: LocalServer
) -> None:
    """Relationships to a URL and to a local file (a linked picture, template, external
    workbook, hyperlink) are not followed: the text is as without them, the server gets no
    request and the canary file is not read."""
    canary = tmp_path / "canary.png"
    canary.write_bytes(b"secret")
    os.utime(canary, (1_000_000_000, 1_700_000_000))
    url = local_server.add("/linked.png", b"fetched")
    links = "".join(
        f'<Relationship Id="rX{n}" Type="{KINDS}{kind}" Target="{target}" TargetMode="External"/>'
        for n, (kind, target) in enumerate(
            [(kind, target) for kind in ("image", "attachedTemplate", "externalLink", "hyperlink")
             for target in (url, canary.as_uri())]
        )
    )  # fmt: skip
    with zipfile.ZipFile(TESTDATA / name) as archive:
        member = archive.read(rels).replace(
            b"</Relationships>", links.encode() + b"</Relationships>"
        )
    plain = office_to_text((TESTDATA / name).read_bytes(), media_type, POLICY)
    assert office_to_text(_replaced(name, rels, member), media_type, POLICY) == plain
    assert local_server.hits == {}
    assert os.stat(canary).st_atime == 1_000_000_000


def test_binary_parts_that_look_like_utf16_are_kept() -> None:
    """Pictures whose first bytes hold a 0 (EMF starts 01 00 00 00) are no XML: a docx with
    one converts as without it."""
    emf = b"\x01\x00\x00\x00" + bytes(range(256)) * 40 + b"\x00\xd8"
    package = _zip([*_members("report.docx"), _deflated("word/media/image1.emf", emf)])
    plain = office_to_text((TESTDATA / "report.docx").read_bytes(), DOCX, POLICY)
    assert office_to_text(package, DOCX, POLICY) == plain


def test_xml_doctype_found_by_content_not_name(parsed: list[str]) -> None:
    """A DOCTYPE in a part whose name does not say XML is refused all the same."""
    package = _replaced("report.docx", "word/styles.xml", LAUGHS)
    with pytest.raises(mp.InvalidMedia, match="DOCTYPE"):
        office_to_text(package, DOCX, POLICY)
    assert parsed == []


@pytest.mark.parametrize(
    ("member", "said"),
    [
        (b'<?xml version="1.0" encoding="UTF-7"?><a>+ADw-</a>', "UTF-7"),
        (b"\x00\x00\xfe\xff" + "<a/>".encode("utf-32-be"), "UTF-32"),
        (b'<?xml version="1.0"' + b" " * 600 + b'encoding="UTF-7"?><a>+ADw-</a>', "UTF-7"),
        (b'<?xml version="1.0"' + b" " * 2000 + b"?><a/>", "longer than"),
        (b'<?xml version="1.0" encoding="UTF-16"?><a/>', "UTF-16"),  # 8-bit bytes
        ('<?xml version="1.0" encoding="UTF-8"?><a/>'.encode("utf-16"), "UTF-8"),
    ],
)
def test_xml_other_encodings_refused(member: bytes, said: str) -> None:
    """Office XML is UTF-8 or UTF-16; a part declaring or using another encoding (where a
    DOCTYPE could hide) is InvalidMedia."""
    with pytest.raises(mp.InvalidMedia, match=said):
        office_to_text(_replaced("report.docx", "word/document.xml", member), DOCX, POLICY)


# ---------------------------------------------------------------------------- malformed


def _stored(name: str, member: bytes, **changes: int) -> Any:
    fields = {"method": 0, "crc": zlib.crc32(member), "size": len(member), **changes}
    return _entry(name, member, **fields)


def _replaced_stored(part: str, member: bytes, **changes: int) -> bytes:
    kept = [e for e in _members("report.docx") if e[0] != part.encode()]
    return _zip([*kept, _stored(part, member, **changes)])


@pytest.mark.parametrize(
    ("data", "error", "said"),
    [
        ((TESTDATA / "report.docx").read_bytes()[:20_000], mp.InvalidMedia, "not a readable ZIP"),
        (b"PK\x03\x04" + bytes(40), mp.InvalidMedia, "not a readable ZIP"),
        (_zip([_stored("[Content_Types].xml", b"<Types/>")]), mp.InvalidMedia, "could not be read"),
        (_zip([*_members("report.docx"), _stored("WORD/document.XML", b"<a/>")]), mp.InvalidMedia, "two entries"),
        (_replaced_stored("word/styles.xml", b"<a/>", crc=1), mp.InvalidMedia, "corrupt"),
        (_zip([*_members("report.docx"), _stored("x", b"abc", flags=1)]), mp.UnsupportedMediaType, "encrypted"),
        (_zip([*_members("report.docx"), _stored("x", b"abc", method=12)]), mp.UnsupportedMediaType, "method 12"),
        (_replaced("report.docx", "word/document.xml", b"<w:document><w:body>"), mp.InvalidMedia, "could not be read"),
    ],
    ids=["truncated", "no-directory", "no-main-part", "duplicate", "bad-crc", "encrypted", "bzip2", "broken-xml"],
)  # fmt: skip
def test_malformed_package_is_our_error(data: bytes, error: type[Exception], said: str) -> None:
    """A package that is broken, incomplete, ambiguous or encrypted raises one of our errors."""
    with pytest.raises(error, match=said):
        office_to_text(data, DOCX, POLICY)


def _deep(root: str, ns: str, depth: int) -> bytes:
    return f'<{root} xmlns:x="{ns}">{"<x:g>" * depth}{"</x:g>" * depth}</{root}>'.encode()


@pytest.mark.parametrize(
    ("name", "media_type", "part"),
    [*PACKAGES[::2], ("sheet.xlsx", XLSX, "xl/workbook.xml")],
)
def test_deep_nesting_is_invalid_media(name: str, media_type: str, part: str) -> None:
    """100,000 nested elements in a part lxml parses stop at its depth limit: InvalidMedia."""
    member = _deep("x:r", "urn:x", 100_000)
    entries = [_stored(part, member) if e[0] == part.encode() else e for e in _members(name)]
    with pytest.raises(mp.InvalidMedia, match="depth"):
        office_to_text(_zip(entries), media_type, POLICY)


def test_deep_nesting_in_a_worksheet_is_read() -> None:
    """openpyxl reads worksheets with expat, which has no depth limit: 100,000 nested cells
    in one row are read without a crash, and the row has no values."""
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    member = (
        f'<worksheet xmlns="{ns}"><sheetData><row r="1">'
        + "<c>" * 100_000
        + "</c>" * 100_000
        + "</row></sheetData></worksheet>"
    ).encode()
    part = "xl/worksheets/sheet1.xml"
    entries = [
        _stored(part, member) if e[0] == part.encode() else e for e in _members("sheet.xlsx")
    ]
    converted = office_to_text(_zip(entries), XLSX, POLICY)
    assert (converted.text or "").startswith("## Sales\n\n_(empty)_\n\n## People")


# ---------------------------------------------------------------------------- RTF


@pytest.mark.parametrize(
    ("source", "text"),
    [
        ("{\\rtf1 " + "{" * 200_000 + "deep" + "}" * 200_000 + "}", "deep\n"),
        ("{\\rtf1 " + "{" * 200_000 + "unclosed", "unclosed\n"),
        ("{\\rtf1 a{\\pict\\bin3000000 " + "{}\\" * 1_000_000 + "}b}", "ab\n"),
        ("{\\rtf1 a\\bin-5 b}", "ab\n"),
        ("{\\rtf1 {\\pict\\bin" + "9" * 5000 + " x}after}", "\n"),
        ("{\\rtf1 " + "{\\field{\\*\\fldinst{" * 20_000 + "}", "\n"),
        ("{\\rtf1{\\fonttbl" + "\\f1 x" * 20_000 + "}}", "\n"),
        ("{\\rtf1\\ansicpg99999 caf\\'e9}", "caf\ufffd\n"),  # unknown: UTF-8, which \'e9 is not
    ],
    ids=["nesting", "unclosed", "bin-blob", "bin-negative", "bin-digits", "fields", "fonts", "codepage"],
)  # fmt: skip
def test_hostile_rtf_reads_or_fails_ours(source: str, text: str) -> None:
    """RTF with huge nesting, \\bin blobs of braces, odd \\bin lengths, and the lines that made
    striprtf quadratic reads to its text."""
    assert office_to_text(source.encode("latin-1"), RTF, POLICY).text == text


# ---------------------------------------------------------------------------- fuzz

# ---------------------------------------------------------------------------- docx tables

WORD = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
WIDEST = 2**31 - 1  # python-docx 1.2 made a cell per spanned column: minutes, then memory


def _tc(props: str = "", text: str = "x") -> str:
    return f"<w:tc><w:tcPr>{props}</w:tcPr><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc>"


def _docx_tables(*tables: list[str]) -> bytes:
    """Return report.docx with a body of these tables, each given as its rows' cells."""
    body = "".join(
        "<w:tbl>" + "".join(f"<w:tr>{row}</w:tr>" for row in rows) + "</w:tbl>" for rows in tables
    )
    document = f"<w:document {WORD}><w:body>{body}</w:body></w:document>"
    return _replaced("report.docx", "word/document.xml", document.encode())


class _Counted(Deadline):
    """A deadline that counts its checks (every few hundred cells a table visits)."""

    def __init__(self) -> None:
        super().__init__(600.0, "reading a docx", DOCX)
        self.checks = 0

    def check(self) -> None:
        self.checks += 1
        super().check()


def _markdown(package: bytes) -> tuple[list[list[str]], list[str], int]:
    """Return a one-table docx's rows (cells split), its cuts, and the deadline checks made."""
    import docx

    deadline = _Counted()
    text, cuts = _docx.docx_markdown(docx, package, deadline, TextBudget(1 << 20, 16.0, DOCX))
    rows = [line.split(" | ") for line in text.splitlines()]
    return rows, cuts, deadline.checks


def test_docx_huge_grid_spans_make_at_most_max_columns() -> None:
    """A row of 1,000 cells each spanning 2**31-1 columns becomes 256 cells, visiting about
    as many (a deadline check per 256), and says it was cut."""
    package = _docx_tables([_tc(f'<w:gridSpan w:val="{WIDEST}"/>') * 1000])
    rows, cuts, checks = _markdown(package)
    assert len(rows[0]) == MAX_COLUMNS
    assert rows[0][0] == "| x" and set(rows[0][1:-1]) == {""}
    assert cuts == [f"table 1: first 256 of {1000 * WIDEST:,} columns"]
    assert checks <= 2 + (256 + 999) // 256


@pytest.mark.parametrize("value", ["-3", "0", "abc", "1e9", "9" * 40, "\u0661\u0662"])
def test_docx_odd_grid_spans_are_one_column(value: str) -> None:
    """A gridSpan that is no whole number of at least 1 spans one column."""
    rows, cuts, _ = _markdown(_docx_tables([_tc(f'<w:gridSpan w:val="{value}"/>') + _tc()]))
    assert (len(rows[0]), cuts) == (2, [])


def test_docx_long_vertical_merge_is_empty_cells_and_cut_rows() -> None:
    """3,000 rows continuing one vertical merge are empty cells (no walk up the rows: it
    recursed past 1,000 rows), kept to the first 1,000 rows, with a deadline check per 256."""
    merged = [_tc('<w:vMerge w:val="restart"/>', "top")] + [_tc("<w:vMerge/>", "")] * 3000
    rows, cuts, checks = _markdown(_docx_tables(merged))
    assert len(rows) == MAX_ROWS + 1  # and the header's rule
    assert rows[0] == ["| top |"] and set(map(tuple, rows[2:])) == {("|  |",)}
    assert cuts == ["table 1: first 1,000 of 3,001 rows"]
    assert 3001 // 256 <= checks <= 2 + 3001 // 256


def test_docx_tables_over_max_cells_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables that together make more than MAX_CELLS cells are MediaTooLarge."""
    monkeypatch.setattr(_docx, "MAX_CELLS", 1000)
    wide = [_tc('<w:gridSpan w:val="40"/>')] + [_tc()] * 19  # 20 rows of 40: 800 cells
    office_to_text(_docx_tables(wide), DOCX, POLICY)
    with pytest.raises(mp.MediaTooLarge, match="over 1,000 cells"):
        office_to_text(_docx_tables(wide, wide), DOCX, POLICY)


@pytest.mark.parametrize(
    ("rows", "step"),
    [
        ([_tc('<w:gridSpan w:val="30000000"/>')], "table 1: first 256 of 30,000,000 columns"),
        ([_tc('<w:vMerge w:val="restart"/>')] + [_tc("<w:vMerge/>")] * 5000, "of 5,001 rows"),
    ],
)
def test_docx_hostile_tables_normalize_to_capped_text(rows: list[str], step: str) -> None:
    """The review's hostile docx files (a 30-million column span, a 5,000-row merge) become
    capped Markdown for a provider that reads no docx."""
    part = mp.part(_docx_tables(rows), filename="hostile.docx")
    normalized = mp.normalize(part, "anthropic")
    assert normalized.text is not None and len(normalized.text) < 20_000
    assert any(step in done for done in normalized.steps)


SOURCES = ["report.docx", "document.docx", "sheet.xlsx", "slides.pptx", "memo.rtf"]
TYPES = {".docx": DOCX, ".xlsx": XLSX, ".pptx": PPTX, ".rtf": RTF}


def _mutated_member(data: bytes, index: int, cut: int, insert: bytes) -> bytes:
    """Change one member of a package (the libraries see it; a raw mutation mostly hits CRCs)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
        chosen = infos[index % len(infos)]
        entries = []
        for info in infos:
            member = archive.read(info)
            if info is chosen:
                at = cut % (len(member) + 1)
                member = member[:at] + insert + member[at + len(insert) :]
            entries.append(_deflated(info.filename, member))
    return _zip(entries)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(SOURCES),
    index=st.integers(0, 50),
    cut=st.integers(0, 1 << 20),
    insert=st.binary(max_size=24)
    | st.sampled_from([b"<", b"</w:p>", b"<!DOCTYPE x>", b"\\bin9", b"{", b"<w:vMerge/>"]),
    raw=st.booleans(),
)
def test_fuzz_mutated_documents_raise_only_media_error(
    name: str, index: int, cut: int, insert: bytes, raw: bool
) -> None:
    """A testdata document with bytes replaced (in the file, or in one of its package's
    members) converts or raises a MediaError, never another exception."""
    data = (TESTDATA / name).read_bytes()
    if raw or name.endswith(".rtf"):
        at = cut % (len(data) + 1)
        data = data[:at] + insert + data[at + len(insert) :]
    else:
        data = _mutated_member(data, index, cut, insert)
    try:
        converted = office_to_text(data, TYPES[Path(name).suffix], POLICY)
    except mp.MediaError:
        return
    assert isinstance(converted.text, str)


# ---------------------------------------------------------------------------- parts read


def _with_rels(name: str, rels: str, links: str, extra: list[Any]) -> bytes:
    """A testdata package with relationships added to one part and entries added."""
    with zipfile.ZipFile(TESTDATA / name) as archive:
        member = archive.read(rels).replace(
            b"</Relationships>", links.encode() + b"</Relationships>"
        )
    kept = [e for e in _members(name) if e[0] != rels.encode()]
    return _zip([*kept, _deflated(rels, member), *extra])


_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


@pytest.mark.parametrize(
    "part",
    [_stored("word/header9.xml", LAUGHS), _stored("word/header9.xml", b"<w:hdr/>", crc=1)],
    ids=["doctype", "bad-crc"],
)
def test_parts_no_reader_opens_are_not_inflated(part: Any) -> None:
    """A header part (related, but never read for the text) is not inflated or checked: a
    DOCTYPE or a bad CRC in it changes nothing, and the library never asks for it."""
    link = f'<Relationship Id="rIdH9" Type="{_RT}/header" Target="header9.xml"/>'
    package = _with_rels("report.docx", "word/_rels/document.xml.rels", link, [part])
    plain = office_to_text((TESTDATA / "report.docx").read_bytes(), DOCX, POLICY)
    assert office_to_text(package, DOCX, POLICY) == plain


def test_part_related_twice_by_one_source_is_refused() -> None:
    """Thousands of relationships to one slide (each read again) are refused, unparsed."""
    links = "".join(
        f'<Relationship Id="rIdF{i}" Type="{_RT}/slide" Target="slides/slide1.xml"/>'
        for i in range(3)
    )
    package = _with_rels("slides.pptx", "ppt/_rels/presentation.xml.rels", links, [])
    with pytest.raises(mp.InvalidMedia, match="more than once"):
        office_to_text(package, PPTX, POLICY)


def test_elements_over_budget_refused_before_parsing(parsed: list[str]) -> None:
    """A document part of more XML tags than ELEMENTS_PER_BYTE allows (varied, so no entry
    ratio catches it) is refused before python-docx parses it."""
    paragraphs = b"".join(b"<w:p><w:r><w:t>%d</w:t></w:r></w:p>" % n for n in range(80_000))
    document = b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
    package = _replaced(
        "report.docx", "word/document.xml", document + paragraphs + b"</w:body></w:document>"
    )
    with pytest.raises(mp.MediaTooLarge, match="XML tags"):
        office_to_text(package, DOCX, POLICY)
    assert parsed == []


def test_relationships_part_that_is_no_xml_is_invalid() -> None:
    """A relationships part that is not XML is InvalidMedia naming it."""
    package = _replaced("report.docx", "_rels/.rels", b"<Relationships")
    with pytest.raises(mp.InvalidMedia, match=r"'_rels/\.rels'.*not XML"):
        office_to_text(package, DOCX, POLICY)


def test_relationships_read_as_a_library_reads_them() -> None:
    """Elements other than Relationship in a relationships part are passed over, a package
    without content types is our error, and a sheet whose part is missing is left out (as
    openpyxl leaves it out)."""
    other = '<Other Id="x" Type="t" Target="word/document.xml"/>'
    package = _with_rels("report.docx", "_rels/.rels", other, [])
    plain = office_to_text((TESTDATA / "report.docx").read_bytes(), DOCX, POLICY)
    assert office_to_text(package, DOCX, POLICY) == plain
    untyped = _zip([e for e in _members("report.docx") if e[0] != b"[Content_Types].xml"])
    with pytest.raises(mp.InvalidMedia, match="could not be read"):
        office_to_text(untyped, DOCX, POLICY)
    one_sheet = _zip([e for e in _members("sheet.xlsx") if e[0] != b"xl/worksheets/sheet2.xml"])
    text = office_to_text(one_sheet, XLSX, POLICY).text or ""
    assert text.count("\n## ") == 0 and text.startswith("## Sales")
