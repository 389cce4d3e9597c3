"""converting._office: Word, Excel and PowerPoint files to Markdown, RTF to text.

The Markdown of each testdata file is pinned whole; a sheet is cut to its first 1,000 rows
and says so; without a library the error names the `[office]` extra; legacy and encrypted
Office files are refused. Hostile packages and RTF are in tests/robustness/test_office.py.
"""

from __future__ import annotations

import datetime
import io
import sys
import zipfile
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.converting import OFFICE_TYPES, TransformPolicy, _xlsx, office_to_text
from mediaparts.converting._extras import Deadline
from mediaparts.converting._markdown import cell_text, emphasis, table, value_text
from mediaparts.converting._rtf import clean_rtf
from tests._builders import TESTDATA

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
RTF = "application/rtf"
POLICY = TransformPolicy()

REPORT = """\
# Quarterly report

Sales grew in every region. **Revenue** rose by *12 %* over the quarter.

## Highlights

- New office in Zürich
- Two products launched

1. Hire a team
1. Open a second office

## Figures

| Region | Q1 | Q2 |
| --- | --- | --- |
| North | 120 | 135 |
| South | 98 | 110 |

Prepared by the finance team.
"""

SHEET = """\
## Sales

| Date | Region | Units | Price |
| --- | --- | --- | --- |
| 2024-01-15 | North | 120 | 9.5 |
| 2024-02-15 | South | 98 | 10.25 |
| 2024-03-15 09:30:00 | East \\| West | 75 | 11 |

## People

| Name | Joined | Active |
| --- | --- | --- |
| Ada Lovelace | 2023-12-01 | TRUE |
| Alan Turing |  | FALSE |
"""

SLIDES = """\
## Slide 1: Project kickoff

Spring 2024

### Notes

Welcome everyone; introduce the team.

## Slide 2: Plan

Goals for the quarter:

- Ship the beta
  - Fix the top ten bugs
- Hire

| Milestone | Date |
| --- | --- |
| Beta | May |
| GA | July |
"""

MEMO = "Memo: the meeting moves to Zürich.\nBring the café order and the slides.\n"
DOCUMENT = "**mediaparts test document**\n\nHello, Word. Some non-ASCII text: café, Zürich.\n"


def _needs(module: str) -> None:
    pytest.importorskip(module, reason=f"{module} is in the [office] extra")


@pytest.mark.parametrize(
    ("name", "module", "media_type", "out_type", "text", "step"),
    [
        ("report.docx", "docx", DOCX, "text/markdown", REPORT, "docx→markdown"),
        ("document.docx", "docx", DOCX, "text/markdown", DOCUMENT, "docx→markdown"),
        ("sheet.xlsx", "openpyxl", XLSX, "text/markdown", SHEET, "xlsx→markdown"),
        ("slides.pptx", "pptx", PPTX, "text/markdown", SLIDES, "pptx→markdown"),
        ("memo.rtf", "striprtf", RTF, "text/plain", MEMO, "rtf→text"),
    ],
)
def test_office_to_text_testdata_golden(
    name: str, module: str, media_type: str, out_type: str, text: str, step: str
) -> None:
    """Each testdata document, as detection types it, becomes exactly this text."""
    _needs(module)
    data = (TESTDATA / name).read_bytes()
    assert mp.detect(data).media_type == media_type
    converted = office_to_text(data, media_type, POLICY)
    assert (converted.media_type, converted.steps) == (out_type, (step,))
    assert converted.text == text
    assert converted.data is None


def test_office_types_are_what_detection_names() -> None:
    """OFFICE_TYPES holds the canonical types detection gives docx, xlsx, pptx and RTF."""
    assert {DOCX, XLSX, PPTX, RTF} <= OFFICE_TYPES
    for name in ("report.docx", "sheet.xlsx", "slides.pptx", "memo.rtf"):
        assert mp.detect((TESTDATA / name).read_bytes()).media_type in OFFICE_TYPES


def _workbook(rows: int, *, trailing_rows: int = 0, trailing_columns: int = 0) -> bytes:
    openpyxl = pytest.importorskip("openpyxl")
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Data"
    sheet.append(["n", "square"])
    for n in range(1, rows):
        sheet.append([n, n * n])
    # Formatting alone makes cells exist in the XML without values.
    for row in range(rows + 1, rows + 1 + trailing_rows):
        sheet.cell(row=row, column=1).number_format = "0.00"
    for column in range(3, 3 + trailing_columns):
        sheet.cell(row=1, column=column).value = ""
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def test_xlsx_rows_cut_at_1000_and_said() -> None:
    """A sheet of 5,000 rows keeps its first 1,000 and says so in the steps."""
    converted = office_to_text(_workbook(5000), XLSX, POLICY)
    assert converted.steps == ("xlsx→markdown", "Data: first 1,000 of 5,000 rows")
    lines = (converted.text or "").splitlines()
    assert lines[:4] == ["## Data", "", "| n | square |", "| --- | --- |"]
    assert lines[-1] == "| 999 | 998001 |"
    assert len(lines) == 4 + 999


def test_xlsx_trailing_empty_rows_and_columns_dropped() -> None:
    """Formatted but empty rows and columns after the data are not in the table."""
    converted = office_to_text(_workbook(3, trailing_rows=50, trailing_columns=5), XLSX, POLICY)
    assert converted.text == "## Data\n\n| n | square |\n| --- | --- |\n| 1 | 1 |\n| 2 | 4 |\n"
    assert converted.steps == ("xlsx→markdown",)


def test_xlsx_at_the_cap_is_not_cut() -> None:
    """A sheet of exactly 1,000 rows is whole, with no step about cutting."""
    converted = office_to_text(_workbook(1000), XLSX, POLICY)
    assert converted.steps == ("xlsx→markdown",)
    assert (converted.text or "").splitlines()[-1] == "| 999 | 998001 |"


def _sheets(count: int, rows: int) -> bytes:
    openpyxl = pytest.importorskip("openpyxl")
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for index in range(count):
        sheet = workbook.create_sheet(f"S{index + 1}")
        for n in range(1, rows + 1):
            sheet.append([n, n * 10])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("floor", "steps", "last_rows"),
    [
        (80, ("xlsx→markdown",), {"S1": 10, "S2": 10, "S3": 10, "S4": 10}),
        (
            30,
            (
                "xlsx→markdown",
                "S2: first 5 rows, where the workbook's budget of 30 cells ran out",
                "2 more sheets left out: the workbook's budget of 30 cells ran out",
            ),
            {"S1": 10, "S2": 5},
        ),
        (
            20,
            ("xlsx→markdown", "3 more sheets left out: the workbook's budget of 20 cells ran out"),
            {"S1": 10},
        ),
    ],
)
def test_xlsx_cells_cut_at_the_workbook_budget_and_said(
    floor: int, steps: tuple[str, ...], last_rows: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workbook's cells are read up to its budget: the sheet where it runs out is cut and
    the sheets after it left out, each in the steps (4 sheets of 10 rows x 2 cells here)."""
    monkeypatch.setattr(_xlsx, "CELL_FLOOR", floor)
    monkeypatch.setattr(_xlsx, "CELLS_PER_BYTE", 0)
    converted = office_to_text(_sheets(4, 10), XLSX, POLICY)
    assert converted.steps == steps
    text = converted.text or ""
    sections = {part.split("\n", 1)[0]: part for part in text.split("## ")[1:]}
    assert set(sections) == set(last_rows)
    for title, rows in last_rows.items():
        assert sections[title].rstrip().splitlines()[-1] == f"| {rows} | {rows * 10} |"


def test_xlsx_cell_budget_grows_with_the_file() -> None:
    """The budget is the floor plus a share of the file's bytes."""
    assert _xlsx.cell_budget(0) == _xlsx.CELL_FLOOR
    assert _xlsx.cell_budget(1_000_000) == _xlsx.CELL_FLOOR + int(_xlsx.CELLS_PER_BYTE * 1_000_000)


def test_docx_style_names_read_from_the_xml() -> None:
    """Style ids map to their names as written, read without a python-docx object each; a
    style without a name or id maps to an empty string."""
    from mediaparts.converting._docx import _style_names

    etree: Any = pytest.importorskip("lxml.etree")  # no type information

    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    styles = etree.fromstring(
        f'<w:styles xmlns:w="{w}"><w:style w:styleId="H1"><w:name w:val="heading 1"/></w:style>'
        '<w:style w:styleId="X"/><w:style><w:name w:val="Y"/></w:style><w:docDefaults/>'
        "</w:styles>"
    )
    assert _style_names(styles) == {"H1": "heading 1", "X": "", "": "Y"}


def _rewritten(data: bytes, part: str, edit: Any) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            member = source.read(info)
            target.writestr(info, edit(member) if info.filename == part else member)
    return out.getvalue()


def test_xlsx_workbook_part_reads_only_its_sheets_and_dates() -> None:
    """Defined names and the rest of the workbook part are left out before openpyxl builds
    them (20 µs an element); a sheet naming no relationship is dropped, not an error; the
    1904 date system is kept."""
    openpyxl = pytest.importorskip("openpyxl")
    workbook = openpyxl.Workbook()
    workbook.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904
    workbook.active.title = "Data"
    workbook.active.append([datetime.date(2024, 5, 6)])
    buffer = io.BytesIO()
    workbook.save(buffer)
    names = "".join(f'<definedName name="n{i}">Data!$A$1</definedName>' for i in range(50))
    rels = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    ghost = f'<sheet xmlns:r="{rels}" name="Ghost" sheetId="9" r:id="rId999"/>'
    extra = f"{ghost}</sheets><definedNames>{names}</definedNames>"

    def edit(member: bytes) -> bytes:
        return member.replace(b"</sheets>", extra.encode(), 1)

    data = _rewritten(buffer.getvalue(), "xl/workbook.xml", edit)
    converted = office_to_text(data, XLSX, POLICY)
    assert converted.text == "## Data\n\n| 2024-05-06 |\n| --- |\n"


def test_xlsx_workbook_part_deeper_than_libxml2_is_invalid_media() -> None:
    """A workbook part nesting over 256 deep is refused, as libxml2 refuses it."""
    from mediaparts.converting._xlsx import _workbook_part

    deep = b"<workbook>" + b"<g>" * 300 + b"</g>" * 300 + b"</workbook>"
    with pytest.raises(mp.InvalidMedia, match="depth"):
        _workbook_part(deep, set())
    assert _workbook_part(b"<workbook><a><b/></a><sheets/></workbook>", set()) == (
        b"<workbook><sheets /></workbook>"
    )


@pytest.mark.parametrize(
    ("module", "name", "media_type", "package"),
    [
        ("docx", "report.docx", DOCX, "python-docx"),
        ("openpyxl", "sheet.xlsx", XLSX, "openpyxl"),
        ("pptx", "slides.pptx", PPTX, "python-pptx"),
        ("striprtf.striprtf", "memo.rtf", RTF, "striprtf"),
    ],
)
def test_office_without_library_names_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, name: str, media_type: str, package: str
) -> None:
    """Without its library, a format raises CodecUnavailable naming the package and [office]."""
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(mp.CodecUnavailable, match=r"\[office\]") as caught:
        office_to_text((TESTDATA / name).read_bytes(), media_type, POLICY)
    assert (caught.value.extra, caught.value.package) == ("office", package)
    assert package in str(caught.value)


OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)


@pytest.mark.parametrize(
    ("media_type", "data", "said"),
    [
        ("application/msword", OLE2, "legacy binary Word"),
        ("application/vnd.ms-excel", OLE2, "legacy binary Excel"),
        ("application/vnd.ms-powerpoint", OLE2, "legacy binary PowerPoint"),
        ("application/x-ole-storage", OLE2, "OLE2 compound file"),
        (DOCX, OLE2, "encrypted Office package"),  # a .docx with a password is OLE2
        (XLSX, OLE2, "encrypted Office package"),
    ],
)
def test_office_legacy_and_encrypted_refused(media_type: str, data: bytes, said: str) -> None:
    """Binary and encrypted Office files are UnsupportedMediaType saying they cannot be read."""
    with pytest.raises(mp.UnsupportedMediaType, match="cannot read") as caught:
        office_to_text(data, media_type, POLICY)
    assert said in str(caught.value)
    assert not isinstance(caught.value, mp.CodecUnavailable)


def test_office_other_type_refused() -> None:
    """A type that is no Office document is UnsupportedMediaType listing the types read."""
    with pytest.raises(mp.UnsupportedMediaType) as caught:
        office_to_text(b"%PDF-1.7", "application/pdf", POLICY)
    assert DOCX in caught.value.accepted


def test_office_deadline_spent_is_media_too_large() -> None:
    """A transform over TransformPolicy.timeout raises MediaTooLarge naming the cap."""
    policy = TransformPolicy(timeout=1e-9)
    for name, media_type in (("report.docx", DOCX), ("memo.rtf", RTF)):
        _needs("docx" if name.endswith("docx") else "striprtf")
        with pytest.raises(mp.MediaTooLarge, match="timeout"):
            office_to_text((TESTDATA / name).read_bytes(), media_type, policy)


def _docx_with(document_xml: bytes) -> bytes:
    source = zipfile.ZipFile(io.BytesIO((TESTDATA / "report.docx").read_bytes()))
    out = io.BytesIO()
    with source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in source.infolist():
            member = source.read(entry)
            target.writestr(
                entry.filename, document_xml if entry.filename == "word/document.xml" else member
            )
    return out.getvalue()


W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def test_docx_direct_numbering_and_hyperlink_text() -> None:
    """A paragraph numbered directly (w:numPr) is an item at its level; link text is kept."""
    _needs("docx")
    body = (
        f'<w:document {W} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships"><w:body>'
        '<w:p><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr></w:pPr>'
        "<w:r><w:t>nested item</w:t></w:r></w:p>"
        '<w:p><w:r><w:t xml:space="preserve">see </w:t></w:r><w:hyperlink r:id="rIdX">'
        "<w:r><w:t>the site</w:t></w:r></w:hyperlink></w:p>"
        "</w:body></w:document>"
    ).encode()
    converted = office_to_text(_docx_with(body), DOCX, POLICY)
    assert converted.text == "  - nested item\n\nsee the site\n"


def _cell(props: str, text: str) -> str:
    return f"<w:tc><w:tcPr>{props}</w:tcPr><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc>"


def test_docx_merged_cells_are_one_cell_each() -> None:
    """A cell spanning columns is its text then empty cells; a vertical merge's continuation
    is an empty cell (python-docx repeats the text in both)."""
    _needs("docx")
    span, restart, more = '<w:gridSpan w:val="2"/>', '<w:vMerge w:val="restart"/>', "<w:vMerge/>"
    rows = [
        _cell(span, "A") + _cell("", "B"),
        _cell(restart, "C") + _cell("", "D") + _cell("", "E"),
        _cell(more, "C again") + _cell("", "F") + _cell("", "G"),
    ]
    body = "".join(f"<w:tr>{row}</w:tr>" for row in rows)
    document = f"<w:document {W}><w:body><w:tbl>{body}</w:tbl></w:body></w:document>"
    converted = office_to_text(_docx_with(document.encode()), DOCX, POLICY)
    assert converted.text == "| A |  | B |\n| --- | --- | --- |\n| C | D | E |\n|  | F | G |\n"
    assert converted.steps == ("docx→markdown",)


@pytest.mark.parametrize(
    ("rows", "markdown"),
    [
        ([["a", "b"], ["1"]], "| a | b |\n| --- | --- |\n| 1 |  |"),
        ([["x|y", "two\nlines"]], "| x\\|y | two<br>lines |\n| --- | --- |"),
        ([], ""),
    ],
)
def test_table_pads_and_escapes(rows: list[list[str]], markdown: str) -> None:
    """Tables are padded to their widest row; pipes are escaped, line breaks become <br>."""
    assert table(rows) == markdown


@pytest.mark.parametrize(
    ("text", "bold", "italic", "marked"),
    [
        ("word", True, False, "**word**"),
        (" word ", False, True, " *word* "),
        ("word", True, True, "***word***"),
        ("   ", True, True, "   "),
        ("word", False, False, "word"),
    ],
)
def test_emphasis_keeps_spaces_outside(text: str, bold: bool, italic: bool, marked: str) -> None:
    """Emphasis wraps the words, never the spaces around them (`** a**` is no emphasis)."""
    assert emphasis(text, bold=bold, italic=italic) == marked


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, ""),
        (True, "TRUE"),
        (3.0, "3"),
        (2.5, "2.5"),
        (datetime.datetime(2024, 1, 2), "2024-01-02"),
        (datetime.datetime(2024, 1, 2, 3, 4, 5), "2024-01-02 03:04:05"),
        (datetime.time(3, 4), "03:04:00"),
        ("text", "text"),
    ],
)
def test_value_text_reads_like_a_sheet(value: Any, text: str) -> None:
    """Cell values read as a spreadsheet shows them; midnight date-times are dates."""
    assert value_text(value) == text


def test_cell_text_flattens_lines() -> None:
    """A cell's CR, LF and CRLF all become one <br>."""
    assert cell_text("a\r\nb\rc\nd") == "a<br>b<br>c<br>d"


def test_clean_rtf_keeps_lines_short_and_one_field_a_line() -> None:
    """The cleaned RTF has no line much over 256 characters and at most one field a line,
    which keeps striprtf's two line-scanning expressions linear."""
    source = "{\\rtf1 " + "{\\field{\\*\\fldinst{HYPERLINK x}}" * 2000 + "x" * 5000 + "}"
    cleaned = clean_rtf(source, Deadline(60, "test"))
    lines = cleaned.split("\n")
    assert max(len(line) for line in lines) <= 256 + 45
    assert max(line.count("{\\field") for line in lines) == 1


@pytest.mark.parametrize(
    ("source", "text"),
    [
        ("{\\rtf1 a{\\bin5 }}}{{b}c}", "abc\n"),  # \bin data holds braces
        ("{\\rtf1 a{\\*\\shppict{\\pict\\pngblip 89504e47}}b}", "ab\n"),
        ("{\\rtf1 \\u99999 x}", "\ufffd\n"),  # out of 16 bits: U+FFFD, its fallback skipped
        ("{\\rtf1 {\\pict\\bin99999999999 abc}} lost}", "\n"),
        ("{\\rtf1 see {\\field{\\*\\fldinst{HYPERLINK \"https://a.example/\"}}"
         "{\\fldrslt{the site}}} now}", 'see the site("https://a.example/") now\n'),
    ],
)  # fmt: skip
def test_rtf_binary_and_odd_values(source: str, text: str) -> None:
    """Binary data is skipped by its length, odd \\u values are U+FFFD, links keep their URL."""
    _needs("striprtf")
    assert office_to_text(source.encode("latin-1"), RTF, POLICY).text == text


def _relabelled(name: str, main: str, other: str) -> bytes:
    """The testdata package with its main part's content type changed (xlsx to xlsm, ...)."""
    out = io.BytesIO()
    with zipfile.ZipFile(TESTDATA / name) as source, zipfile.ZipFile(out, "w") as target:
        for entry in source.infolist():
            member = source.read(entry)
            if entry.filename == "[Content_Types].xml":
                assert main.encode() in member
                member = member.replace(main.encode(), other.encode())
            target.writestr(entry, member)
    return out.getvalue()


@pytest.mark.parametrize(
    ("name", "main", "other", "media_type", "short"),
    [
        ("sheet.xlsx", f"{XLSX}.main+xml", "application/vnd.ms-excel.sheet.macroEnabled.main+xml", "application/vnd.ms-excel.sheet.macroenabled.12", "xlsm"),
        ("sheet.xlsx", f"{XLSX}.main+xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.template", "xltx"),
        ("slides.pptx", f"{PPTX}.main+xml", "application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml", "application/vnd.ms-powerpoint.presentation.macroenabled.12", "pptm"),
    ],
)  # fmt: skip
def test_office_macro_enabled_and_template_read_like_their_kin(
    name: str, main: str, other: str, media_type: str, short: str
) -> None:
    """A macro-enabled workbook or deck, or a workbook template, as detection types it,
    reads to the same Markdown as the plain package (its macros are never run)."""
    _needs("openpyxl" if short.startswith("x") else "pptx")
    data = _relabelled(name, main, other)
    assert mp.detect(data).media_type == media_type
    converted = office_to_text(data, media_type, POLICY)
    assert converted.steps == (f"{short}→markdown",)
    assert converted.text == (SHEET if short.startswith("x") else SLIDES)
    assert media_type in OFFICE_TYPES


def test_docx_template_and_macro_document_refused() -> None:
    """python-docx opens only documents: a .dotx or .docm is UnsupportedMediaType."""
    for media_type in (
        "application/vnd.openxmlformats-officedocument.wordprocessingml.template",
        "application/vnd.ms-word.document.macroenabled.12",
    ):
        with pytest.raises(mp.UnsupportedMediaType, match="cannot be turned into text"):
            office_to_text((TESTDATA / "report.docx").read_bytes(), media_type, POLICY)


def test_xlsx_library_warnings_do_not_fail_the_file() -> None:
    """A sheet with the data validation extension Excel writes (openpyxl warns that it drops
    it) reads to its Markdown, under pytest's warnings-as-errors too."""
    _needs("openpyxl")
    extension = (
        b'<extLst><ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}" xmlns:x14="http://schemas.'
        b'microsoft.com/office/spreadsheetml/2009/9/main"><x14:dataValidations count="0"/></ext>'
        b"</extLst></worksheet>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(TESTDATA / "sheet.xlsx") as source, zipfile.ZipFile(out, "w") as target:
        for entry in source.infolist():
            member = source.read(entry)
            if entry.filename == "xl/worksheets/sheet1.xml":
                member = member.replace(b"</worksheet>", extension)
            target.writestr(entry, member)
    assert office_to_text(out.getvalue(), XLSX, POLICY).text == SHEET


def test_rtf_over_expanded_cap_refused_unread() -> None:
    """An RTF larger than max_expanded_bytes is MediaTooLarge naming the cap, unread."""
    data = (TESTDATA / "memo.rtf").read_bytes()
    policy = TransformPolicy(max_expanded_bytes=len(data) - 1)
    with pytest.raises(mp.MediaTooLarge, match="max_expanded_bytes") as caught:
        office_to_text(data, RTF, policy)
    assert (caught.value.size, caught.value.limit) == (len(data), len(data) - 1)
    _needs("striprtf")
    assert office_to_text(data, RTF, TransformPolicy(max_expanded_bytes=len(data))).text == MEMO


def test_pptx_line_breaks_fields_and_emphasis() -> None:
    """A slide paragraph keeps its line breaks (indented under a bullet), its fields' text
    and its bold and italic runs."""
    pptx = pytest.importorskip("pptx")
    from pptx.util import Inches

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])  # title and content
    slide.shapes.title.text = "Breaks"
    frame = slide.placeholders[1].text_frame
    frame.text = "first line\vsecond line"  # \v is a:br to python-pptx
    run = frame.paragraphs[0].add_run()
    run.text = " bold"
    run.font.bold = True
    box = slide.shapes.add_textbox(Inches(1), Inches(5), Inches(4), Inches(1)).text_frame
    box.text = "plain\vtext"
    italic = box.paragraphs[0].runs[-1]
    italic.font.italic = True
    buffer = io.BytesIO()
    deck.save(buffer)
    converted = office_to_text(buffer.getvalue(), PPTX, POLICY)
    assert converted.text == (
        "## Slide 1: Breaks\n\n- first line\n  second line **bold**\n\nplain\n*text*\n"
    )


def test_pptx_table_is_cut_to_the_sheet_caps(monkeypatch: pytest.MonkeyPatch) -> None:
    """A slide's table keeps at most MAX_ROWS rows of MAX_COLUMNS cells, and says it was cut
    (a 30 KB deck of 3,000 x 3,000 cells made 27 MB of text)."""
    pptx = pytest.importorskip("pptx")
    from pptx.util import Inches

    from mediaparts.converting import _pptx

    monkeypatch.setattr(_pptx, "MAX_ROWS", 2)
    monkeypatch.setattr(_pptx, "MAX_COLUMNS", 3)
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])  # blank
    grid = slide.shapes.add_table(4, 5, Inches(1), Inches(1), Inches(6), Inches(2)).table
    for r in range(4):
        for c in range(5):
            grid.cell(r, c).text = f"{r}{c}"
    buffer = io.BytesIO()
    deck.save(buffer)
    text = office_to_text(buffer.getvalue(), PPTX, POLICY).text or ""
    assert "| 00 | 01 | 02 |" in text and "03" not in text and "20" not in text
    assert "cut to its first 2 rows and 3 columns" in text


def _sheet_package(sheet_xml: bytes) -> bytes:
    """The testdata workbook with its first sheet's XML replaced."""
    source = zipfile.ZipFile(io.BytesIO((TESTDATA / "sheet.xlsx").read_bytes()))
    out = io.BytesIO()
    with source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in source.infolist():
            member = source.read(entry)
            if entry.filename == "xl/worksheets/sheet1.xml":
                member = sheet_xml
            target.writestr(entry.filename, member)
    return out.getvalue()


def _sheet_xml(rows: str, dimension: str = "") -> bytes:
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    return (
        f'<worksheet xmlns="{main}">{dimension}<sheetData>{rows}</sheetData></worksheet>'.encode()
    )


@pytest.mark.parametrize(
    ("rows", "dimension", "table_lines", "cuts"),
    [
        # A cell in column XFD: never padded to 16,384 cells, said in the steps.
        ('<row r="1"><c r="A1"><v>1</v></c><c r="XFD1"><v>2</v></c></row>', "",
         ["| 1 |", "| --- |"], ("Sales: first 256 of 16,384 columns",)),
        # Rows past the cap are not walked: without a dimension, "more" rows follow.
        ("".join(f'<row r="{n}"><c r="A{n}"><v>{n}</v></c></row>' for n in range(1, 1201)), "",
         None, ("Sales: first 1,000 of more rows",)),
        ("".join(f'<row r="{n}"><c r="A{n}"><v>{n}</v></c></row>' for n in range(1, 1201)),
         '<dimension ref="A1:A1200"/>', None, ("Sales: first 1,000 of 1,200 rows",)),
        # Rows and cells without coordinates count on from the previous ones; a gap of
        # missing rows is empty rows, not a walk of a million.
        ('<row><c><v>1</v></c><c><v>2</v></c></row><row r="3"><c r="B3"><v>3</v></c></row>'
         '<row r="1048576"><c r="A1048576"><v>4</v></c></row>', "",
         ["| 1 | 2 |", "| --- | --- |", "|  |  |", "|  | 3 |"], ("Sales: first 1,000 of more rows",)),
    ],
)  # fmt: skip
def test_xlsx_cells_read_without_padding_or_walking(
    rows: str, dimension: str, table_lines: list[str] | None, cuts: tuple[str, ...]
) -> None:
    """A sheet is read cell by cell: wide rows are not padded, rows past the cap not read."""
    _needs("openpyxl")
    converted = office_to_text(_sheet_package(_sheet_xml(rows, dimension)), XLSX, POLICY)
    assert converted.steps == ("xlsx→markdown", *cuts)
    lines = (converted.text or "").split("\n\n## ")[0].splitlines()  # the first sheet
    if table_lines is not None:
        assert lines[2:] == table_lines
    else:
        assert len(lines) == 2 + 1 + 1000 and lines[-1] == "| 1000 |"


def test_docx_run_flags_read_like_python_docx() -> None:
    """`w:b w:val="0"` and `false` are not bold; tabs and breaks are kept in a run's text."""
    _needs("docx")
    body = (
        f"<w:document {W}><w:body><w:p>"
        '<w:r><w:rPr><w:b w:val="0"/><w:i w:val="false"/></w:rPr><w:t>plain</w:t></w:r>'
        '<w:r><w:rPr><w:b w:val="on"/></w:rPr><w:t xml:space="preserve"> bold</w:t><w:tab/>'
        "<w:t>x</w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:br/><w:t>it</w:t></w:r>"
        "</w:p></w:body></w:document>"
    ).encode()
    converted = office_to_text(_docx_with(body), DOCX, POLICY)
    assert converted.text == "plain **bold\tx**\n*it*\n"


@pytest.mark.parametrize("ratio", [16.0, 100_000.0])
def test_office_text_budget_counted_while_made(ratio: float) -> None:
    """One shared string of 50,000 characters in 400 cells makes more Markdown than
    text_ratio allows: MediaTooLarge naming the budget, before the text is made; a raised
    ratio converts it."""
    _needs("openpyxl")
    from tests.robustness.limits_office import xlsx_shared

    policy = POLICY.replace(text_ratio=ratio)
    if ratio < 1000:
        with pytest.raises(mp.MediaTooLarge, match=r"TransformPolicy\.text_ratio=16"):
            office_to_text(xlsx_shared(50_000, 400), XLSX, policy)
    else:
        assert len(office_to_text(xlsx_shared(50_000, 400), XLSX, policy).text or "") > 20e6


def test_office_memory_error_is_media_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory running out inside a reader is MediaTooLarge, with the MemoryError as cause."""
    _needs("docx")
    from mediaparts.converting import _office

    def exhausted(*args: Any) -> tuple[str, list[str]]:
        raise MemoryError

    name, package, short, _, reading = _office._LIBRARIES[DOCX]
    monkeypatch.setitem(_office._LIBRARIES, DOCX, (name, package, short, exhausted, reading))
    with pytest.raises(mp.MediaTooLarge, match="more memory") as caught:
        office_to_text((TESTDATA / "report.docx").read_bytes(), DOCX, POLICY)
    assert isinstance(caught.value.__cause__, MemoryError)


def test_xlsx_shared_strings_read_like_openpyxl() -> None:
    """Shared strings are their text then their runs' text, phonetic runs left out and
    `_x005F_` escapes dropped, as openpyxl's own table reader makes them."""
    _needs("openpyxl")
    from tests.robustness.limits_office import xlsx_shared_table

    items = (
        b"<si><r><t>a</t></r><r><rPr/><t>b</t></r><rPh sb='0' eb='1'><t>x</t></rPh></si>"
        b"<si><t>c_x005F_d</t></si><si><t/></si>"
    )
    row = b'<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>'
    converted = office_to_text(xlsx_shared_table(items, row), XLSX, POLICY)
    assert (converted.text or "").splitlines()[2] == "| ab | c_d |"
