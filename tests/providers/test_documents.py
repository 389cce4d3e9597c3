"""Office documents against each API's file types (`providers/_fitting/_documents.py`): sent as
files where the API reads them, as their Markdown or text where it does not, refused where
nothing here reads them; never sent as a file the API refuses.

Chat Completions takes PDF only as a file; the Responses API takes Word, PowerPoint, Excel,
RTF and OpenDocument text too (OpenAI's file-inputs guide, read 2026-12).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from tests._builders import TESTDATA, odf_package, ole2_file
from tests.providers._sdk import validate_request

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
RTF = "application/rtf"
ODT = "application/vnd.oasis.opendocument.text"
DOC = "application/msword"
XLS = "application/vnd.ms-excel"
PPT = "application/vnd.ms-powerpoint"

# The Office documents the Responses API takes, each as bytes detection names that type.
OFFICE_FILES: dict[str, tuple[str, bytes]] = {
    DOCX: ("document.docx", (TESTDATA / "document.docx").read_bytes()),
    XLSX: ("sheet.xlsx", (TESTDATA / "sheet.xlsx").read_bytes()),
    PPTX: ("slides.pptx", (TESTDATA / "slides.pptx").read_bytes()),
    RTF: ("memo.rtf", (TESTDATA / "memo.rtf").read_bytes()),
    ODT: ("letter.odt", odf_package(ODT)),
    DOC: ("old.doc", ole2_file(("Root Entry", "1Table", "WordDocument"))),
    XLS: ("old.xls", ole2_file(("Root Entry", "Workbook"))),
    PPT: ("old.ppt", ole2_file(("Root Entry", "a", "b", "c"), ("PowerPoint Document",))),
}


def _part(media_type: str) -> mp.FilePart:
    name, data = OFFICE_FILES[media_type]
    part = mp.FilePart.from_bytes(data, filename=name)
    assert part.media_type == media_type  # the bytes are what the row says
    return part


def _content(payload: dict[str, Any]) -> list[Any]:
    content = payload["messages"][0]["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


@pytest.mark.parametrize(
    ("media_type", "step", "sent_as", "excerpt"),
    [
        (DOCX, "docx→markdown", "text/markdown", "**mediaparts test document**"),
        (XLSX, "xlsx→markdown", "text/markdown", "| Date | Region | Units | Price |"),
        (PPTX, "pptx→markdown", "text/markdown", "## Slide 1: Project kickoff"),
        (RTF, "rtf→text", "text/plain", "Memo: the meeting moves to Zürich."),
    ],
    ids=["docx", "xlsx", "pptx", "rtf"],
)
def test_chat_completions_sends_an_office_file_as_its_text(
    media_type: str, step: str, sent_as: str, excerpt: str
) -> None:
    """Chat Completions takes only PDFs as files: a docx, xlsx, pptx or RTF goes as a text part
    holding its Markdown (or text), a step saying so, in a request the SDK types accept."""
    for module in ("docx", "openpyxl", "pptx", "striprtf"):
        pytest.importorskip(module)
    pytest.importorskip("openai")
    part = _part(media_type)
    normalized = mp.normalize(part, "openai")
    assert (normalized.media_type, normalized.steps) == (sent_as, (step,))
    assert normalized.text is not None and excerpt in normalized.text
    payload = mp.render([mp.User(["Summarise this.", part])], "openai")
    content = _content(payload)
    assert [block["type"] for block in content] == ["text"] * len(content)
    assert excerpt in "".join(block["text"] for block in content)
    validate_request("openai", payload)
    assert mp.check(payload, "openai") == []


@pytest.mark.parametrize("media_type", [ODT, DOC, XLS, PPT], ids=["odt", "doc", "xls", "ppt"])
def test_chat_completions_refuses_an_office_file_nothing_reads(media_type: str) -> None:
    """An OpenDocument or legacy Office file, which no converter here reads, is refused for
    Chat Completions naming what it takes (PDF documents), never sent as a file."""
    part = _part(media_type)
    with pytest.raises(mp.UnsupportedMediaType, match=r"openai does not accept.*\(PDF\)") as info:
        mp.render([mp.User(["Summarise this.", part])], "openai")
    assert (info.value.provider, info.value.media_type) == ("openai", media_type)
    assert "application/pdf" in info.value.accepted
    assert media_type not in info.value.accepted


@pytest.mark.parametrize(
    "media_type", list(OFFICE_FILES), ids=[n for n, _ in OFFICE_FILES.values()]
)
def test_responses_sends_an_office_file_as_it_is(media_type: str) -> None:
    """The Responses API reads these documents itself: each goes unchanged as an `input_file`."""
    pytest.importorskip("openai")
    part = _part(media_type)
    assert mp.normalize(part, "openai-responses").unchanged
    payload = mp.render([mp.User(["Summarise this.", part])], "openai-responses")
    sent = payload["input"][0]["content"][1]
    assert sent["type"] == "input_file"
    assert sent["file_data"].startswith(f"data:{media_type};base64,")
    validate_request("openai-responses", payload)


@pytest.mark.parametrize(
    ("provider", "takes"),
    [
        ("openai", ("application/pdf",)),
        ("openai-responses", ("application/pdf", DOC, DOCX, RTF, ODT, PPT, PPTX, XLS, XLSX)),
    ],
)
def test_openai_file_types_are_the_guides(provider: str, takes: tuple[str, ...]) -> None:
    """Each OpenAI wire takes as files the binary types the file-inputs guide lists for it."""
    rules = mp.providers.get(provider).rules.file
    assert sorted(rules.media_types) == sorted(takes)


def test_openai_office_types_former_name_warns_and_names_the_responses_types() -> None:
    """`openai.OFFICE_TYPES` still resolves, deprecated: the Office types of the Responses API,
    none of which Chat Completions takes."""
    from mediaparts.providers import openai

    with pytest.warns(DeprecationWarning, match="OFFICE_TYPES is deprecated"):
        former = openai.OFFICE_TYPES
    assert set(former) == set(OFFICE_FILES)
    assert set(former) <= set(mp.providers.get("openai-responses").rules.file.media_types)
    assert not set(former) & set(mp.providers.get("openai").rules.file.media_types)


def test_chat_completions_request_carries_no_office_bytes(testdata: Path) -> None:
    """A conversation of every readable Office file renders for Chat Completions with no
    data URI at all: what reaches the API is text."""
    for module in ("docx", "openpyxl", "pptx", "striprtf"):
        pytest.importorskip(module)
    files = [{"path": str(testdata / n)} for n in ("report.docx", "sheet.xlsx", "slides.pptx")]
    payload = mp.render([mp.User("Compare these.", files=files)], "openai")
    assert "data:" not in json.dumps(payload)
