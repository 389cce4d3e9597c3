"""Office packages that cost more than their size: the harness cases for docx, xlsx and pptx.

Each generator builds a package of at most 1 MB with `zipfile` around a real document made by
python-docx, openpyxl or python-pptx (so the library reaches the hostile part), in every
shape a package bomb takes: many medium entries, entries no reader opens, one big entry,
relationships fanning out to one part, header parts, a shared string in thousands of cells,
rows reaching column XFD, many sheets, many slides, and huge or deeply nested tables.
"""

from __future__ import annotations

import functools
import importlib
import io
import random
import zipfile
from collections.abc import Callable, Iterator
from typing import Any

from tests.robustness.limits_harness import Case

__all__ = ["office_cases"]

_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_HEADER_TYPE = f"{_R}/header"
_ENTRIES = ("normalize", "estimate_tokens")
_OPTIONS = {"providers": ["anthropic"]}  # takes no Office file: each becomes Markdown


def _base(kind: str) -> bytes:
    """A small real document of that kind, as its library writes it."""
    out = io.BytesIO()
    if kind == "docx":
        import docx

        document = docx.Document()
        document.add_paragraph("A report.")
        document.save(out)
    elif kind == "xlsx":
        openpyxl: Any = importlib.import_module("openpyxl")  # no type information

        workbook = openpyxl.Workbook()
        workbook.active.append(["a", "b"])
        workbook.save(out)
    else:
        import pptx

        deck = pptx.Presentation()
        deck.slides.add_slide(deck.slide_layouts[1]).shapes.title.text = "A deck"
        deck.save(out)
    return out.getvalue()


def _repack(
    kind: str,
    replace: dict[str, bytes] | None = None,
    add: dict[str, bytes] | None = None,
    edit: Callable[[str, bytes], bytes] | None = None,
) -> bytes:
    """Return the base document with parts replaced, added, or edited, deflated at level 9."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(_base(kind))) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as package,
    ):
        for name in source.namelist():
            member = (replace or {}).get(name, source.read(name))
            package.writestr(name, edit(name, member) if edit else member)
        for name, member in (add or {}).items():
            package.writestr(name, member)
    return out.getvalue()


def _document(body: bytes) -> bytes:
    return f"<w:document {_W}><w:body>".encode() + body + b"</w:body></w:document>"


def docx_headers(count: int, size: int = 1_000_000) -> bytes:
    """The issue's docx: `count` header parts of `size` bytes of `<w:p/>`, each related."""
    header = f"<w:hdr {_W}>".encode() + b"<w:p/>" * (size // 6) + b"</w:hdr>"
    links = "".join(
        f'<Relationship Id="rIdH{i}" Type="{_HEADER_TYPE}" Target="header{i}.xml"/>'
        for i in range(count)
    ).encode()

    def edit(name: str, member: bytes) -> bytes:
        if name == "word/_rels/document.xml.rels":
            return member.replace(b"</Relationships>", links + b"</Relationships>")
        return member

    add = {f"word/header{i}.xml": header for i in range(count)}
    return _repack("docx", add=add, edit=edit)


def docx_unread(count: int, size: int, ratio: int) -> bytes:
    """Entries no reader opens (named by no relationship), each `size` bytes compressing
    about `ratio`:1 (random bytes, then zeros)."""
    member = random.Random(count).randbytes(size // ratio) + bytes(size - size // ratio)
    return _repack("docx", add={f"customXml/pad{i}.bin": member for i in range(count)})


def docx_one_big(paragraphs: int) -> bytes:
    """One document part of empty paragraphs (`<w:p/>`, the most elements per byte)."""
    return _repack("docx", replace={"word/document.xml": _document(b"<w:p/>" * paragraphs)})


def docx_varied(paragraphs: int) -> bytes:
    """One document part of short numbered paragraphs (no entry ratio catches them)."""
    body = b"".join(b"<w:p><w:r><w:t>%d</w:t></w:r></w:p>" % n for n in range(paragraphs))
    return _repack("docx", replace={"word/document.xml": _document(body)})


def docx_fan_out(count: int) -> bytes:
    """Many relationships of the styles type, all to one big styles part."""
    styles = f"<w:styles {_W}>".encode() + b"<w:style/>" * 300_000 + b"</w:styles>"
    links = "".join(
        f'<Relationship Id="rIdS{i}" Type="{_R}/styles" Target="styles.xml"/>' for i in range(count)
    ).encode()

    def edit(name: str, member: bytes) -> bytes:
        if name == "word/_rels/document.xml.rels":
            return member.replace(b"</Relationships>", links + b"</Relationships>")
        return member

    return _repack("docx", replace={"word/styles.xml": styles}, edit=edit)


def docx_table(rows: int, columns: int, nested: int = 0) -> bytes:
    """A table of `rows` x `columns` cells holding one word, or tables nested `nested` deep."""
    cell = b"<w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc>"
    row = b"<w:tr>" + cell * columns + b"</w:tr>"
    table = b"<w:tbl>" + row * rows + b"</w:tbl>"
    for _ in range(nested):
        table = b"<w:tbl><w:tr><w:tc>" + table + b"<w:p/></w:tc></w:tr></w:tbl>"
    return _repack("docx", replace={"word/document.xml": _document(table + b"<w:p/>")})


def xlsx_shared(size: int, cells: int) -> bytes:
    """The issue's xlsx: one shared string of `size` characters in `cells` cells."""
    rows = b"".join(
        f'<row r="{r}">'.encode()
        + b"".join(f'<c r="{col}{r}" t="s"><v>0</v></c>'.encode() for col in "ABCDEFGHIJ")
        + b"</row>"
        for r in range(1, cells // 10 + 1)
    )
    return xlsx_shared_table(b"<si><t>" + b"A" * size + b"</t></si>", rows)


def xlsx_wide(rows: int) -> bytes:
    """The issue's xlsx: `rows` rows, each one cell in column XFD (16,384)."""
    body = b"".join(
        f'<row r="{r}"><c r="XFD{r}"><v>1</v></c></row>'.encode() for r in range(1, rows + 1)
    )
    return _repack("xlsx", replace={"xl/worksheets/sheet1.xml": _sheet(body)})


def xlsx_one_row(cells: int) -> bytes:
    """One row of `cells` empty cells (`<c/>`, no coordinates): a million in a few KB."""
    return _repack(
        "xlsx", replace={"xl/worksheets/sheet1.xml": _sheet(b"<row>" + b"<c/>" * cells + b"</row>")}
    )


def xlsx_sheets(count: int, rows: int) -> bytes:
    """A workbook of `count` sheets of `rows` rows of ten numbers, as openpyxl writes it."""
    openpyxl: Any = importlib.import_module("openpyxl")  # no type information

    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for number in range(count):
        sheet = workbook.create_sheet(f"S{number}")
        for row in range(rows):
            sheet.append([row * 10 + column for column in range(10)])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _sheet(rows: bytes) -> bytes:
    return (
        b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        b"<sheetData>" + rows + b"</sheetData></worksheet>"
    )


def pptx_slides(count: int, paragraphs: int) -> bytes:
    """A deck of `count` slides of `paragraphs` short paragraphs each, as python-pptx writes it."""
    import pptx

    deck = pptx.Presentation()
    for number in range(count):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = f"Slide {number}"
        slide.placeholders[1].text = "\n".join(["point"] * paragraphs)
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def pptx_fan_out(slides: int, size: int) -> bytes:
    """Every slide of a deck is one big slide part (the relationships all name it)."""
    body = b"<a:p><a:r><a:t>x</a:t></a:r></a:p>" * (size // 34)
    slide = (
        b'<p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
        b'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree>'
        b"<p:sp><p:txBody>" + body + b"</p:txBody></p:sp></p:spTree></p:cSld></p:sld>"
    )
    ids = "".join(f'<p:sldId id="{256 + i}" r:id="rIdF{i}"/>' for i in range(slides)).encode()
    links = "".join(
        f'<Relationship Id="rIdF{i}" Type="{_R}/slide" Target="slides/slide1.xml"/>'
        for i in range(slides)
    ).encode()

    def edit(name: str, member: bytes) -> bytes:
        if name == "ppt/_rels/presentation.xml.rels":
            return member.replace(b"</Relationships>", links + b"</Relationships>")
        if name == "ppt/presentation.xml":
            return member.replace(b"<p:sldIdLst>", b"<p:sldIdLst>" + ids)
        return member

    return _repack("pptx", replace={"ppt/slides/slide1.xml": slide}, edit=edit)


def _cases(
    name: str, build: Callable[[], bytes], *, ci: bool = False, refused: bool = False
) -> Iterator[Case]:
    for entry in _ENTRIES:
        yield Case(
            f"office-{name}/{entry}",
            entry,
            data=build,
            options=_OPTIONS,
            refused=refused,
            ci=ci and entry == "normalize",
        )


def office_cases(large: bool) -> Iterator[Case]:
    """The package bombs and fan-outs of every shape, small (CI) and large (by hand)."""
    yield from _cases(
        "docx-199-headers", functools.partial(docx_headers, 199), ci=True, refused=True
    )
    yield from _cases(
        "xlsx-shared-fan-out", functools.partial(xlsx_shared, 300_000, 2_560), ci=True, refused=True
    )
    yield from _cases("xlsx-xfd-rows", functools.partial(xlsx_wide, 200_000), ci=True)
    # The padding: 160 MB of entries no reader opens, each at 200:1 (+210-401 MB).
    yield from _cases("docx-unread-entries", functools.partial(docx_unread, 16, 10_000_000, 200))
    if not large:
        return
    yield from _cases("docx-20-headers", functools.partial(docx_headers, 20))
    # Within the package budget (35:1 in all): converts, the padding never inflated.
    yield from _cases("docx-unread-in-budget", functools.partial(docx_unread, 30, 1_000_000, 35))
    # Varied paragraphs within every byte ratio: the tag budget refuses them unparsed.
    yield from _cases("docx-varied-paragraphs", functools.partial(docx_varied, 300_000))
    yield from _cases("xlsx-shared-49k", functools.partial(xlsx_shared, 300_000, 500))
    yield from _cases("docx-one-big-part", functools.partial(docx_one_big, 3_000_000))
    yield from _cases("docx-styles-fan-out", functools.partial(docx_fan_out, 2_000))
    yield from _cases("docx-big-table", functools.partial(docx_table, 3_000, 300))
    yield from _cases("docx-nested-tables", functools.partial(docx_table, 1, 1, nested=80))
    yield from _cases("xlsx-one-row-million-cells", functools.partial(xlsx_one_row, 4_000_000))
    yield from _cases("xlsx-50-sheets", functools.partial(xlsx_sheets, 50, 500))
    yield from _cases("pptx-500-slides", functools.partial(pptx_slides, 500, 40))
    yield from _cases("pptx-slide-fan-out", functools.partial(pptx_fan_out, 2_000, 400_000))
    yield from _cases("xlsx-200k-shared-strings", functools.partial(xlsx_many_strings, 200_000))
    yield from _cases("xlsx-2000-sheets", functools.partial(xlsx_many_sheets, 2_000))
    yield from _cases("docx-long-list", functools.partial(docx_long_list, 37_000, 780_000))
    yield from _cases("docx-120k-styles", functools.partial(docx_styles, 120_000))
    yield from _cases("xlsx-defined-names", functools.partial(xlsx_workbook_list, "names", 170_000))
    yield from _cases("xlsx-ghost-sheets", functools.partial(xlsx_workbook_list, "sheets", 120_000))


def xlsx_many_strings(count: int) -> bytes:
    """A shared-string table of `count` short distinct strings, used by no cell."""
    items = b"".join(b"<si><t>%d</t></si>" % n for n in range(count))
    return xlsx_shared_table(items)


def xlsx_shared_table(items: bytes, rows: bytes | None = None) -> bytes:
    """The base workbook with a shared-string table of `items` (and its sheet's `rows`)."""
    strings = (
        b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        + items
        + b"</sst>"
    )
    override = (
        b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-'
        b'officedocument.spreadsheetml.sharedStrings+xml"/></Types>'
    )
    link = f'<Relationship Id="rIdSS" Type="{_R}/sharedStrings" Target="sharedStrings.xml"/>'

    def edit(name: str, member: bytes) -> bytes:
        if name == "[Content_Types].xml":
            return member.replace(b"</Types>", override)
        if name == "xl/_rels/workbook.xml.rels":
            return member.replace(b"</Relationships>", link.encode() + b"</Relationships>")
        return member

    replace = {"xl/worksheets/sheet1.xml": _sheet(rows)} if rows is not None else {}
    return _repack("xlsx", replace=replace, add={"xl/sharedStrings.xml": strings}, edit=edit)


def xlsx_many_sheets(count: int) -> bytes:
    """A workbook of `count` sheets of one cell each."""
    openpyxl: Any = importlib.import_module("openpyxl")  # no type information

    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for number in range(count):
        workbook.create_sheet(f"S{number}").append([number])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def docx_long_list(items: int, padding: int = 0) -> bytes:
    """One list of `items` numbered items (each joins the one before it), and `padding`
    random bytes in an entry no reader opens (a bigger file has bigger budgets)."""
    item = (
        b'<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/></w:numPr></w:pPr><w:r><w:t>%d</w:t></w:r></w:p>'
    )
    body = b"".join(item % n for n in range(items))
    add = {"customXml/pad.bin": random.Random(items).randbytes(padding)} if padding else {}
    return _repack("docx", replace={"word/document.xml": _document(body)}, add=add)


def xlsx_workbook_list(kind: str, count: int) -> bytes:
    """The workbook part holding `count` defined names, or `count` sheets that name no
    relationship: each an object of openpyxl's (20 µs) unless left out before it parses."""
    if kind == "names":
        items = "".join(f'<definedName name="n{i}">Sheet!$A$1</definedName>' for i in range(count))
        extra = f"</sheets><definedNames>{items}</definedNames>"
    else:
        items = "".join(
            f'<sheet xmlns:r="{_R}" name="g{i}" sheetId="{i + 9}" r:id="x{i}"/>'
            for i in range(count)
        )
        extra = f"{items}</sheets>"

    def edit(name: str, member: bytes) -> bytes:
        return (
            member.replace(b"</sheets>", extra.encode(), 1) if name == "xl/workbook.xml" else member
        )

    return _repack("xlsx", edit=edit)


def docx_styles(count: int) -> bytes:
    """`count` paragraph styles in the styles part, within the tag budget (660 KB)."""
    items = "".join(
        f'<w:style w:type="paragraph" w:styleId="s{i}"><w:name w:val="n{i}"/></w:style>'
        for i in range(count)
    )

    def edit(name: str, member: bytes) -> bytes:
        if name == "word/styles.xml":
            return member.replace(b"</w:styles>", items.encode() + b"</w:styles>")
        return member

    return _repack("docx", edit=edit)
