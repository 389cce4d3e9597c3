"""Conformance of detection on the shared real-world corpus (shared/corpus/README.md).

The corpus is found through `MEDIAPARTS_CORPUS`, else at `../shared/corpus` beside the
repository; without it these tests are skipped.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

from mediaparts.detection import canonical_media_type, detect

CORPUS = Path(
    os.environ.get("MEDIAPARTS_CORPUS")
    or Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
)
MANIFEST = CORPUS / "manifest.tsv"

pytestmark = pytest.mark.skipif(not MANIFEST.is_file(), reason=f"no corpus at {CORPUS}")


def _rows() -> list[dict[str, str]]:
    if not MANIFEST.is_file():
        return []
    with MANIFEST.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file, delimiter="\t"))


ROWS = _rows()


def _accepted(row: dict[str, str]) -> tuple[str, set[str]]:
    """The expected type and every answer that also counts (README: strict and lenient)."""
    expected = canonical_media_type(row["expected_mime"])
    also = {canonical_media_type(t) for t in row["also_accept"].split(",") if t.strip()}
    return expected, {expected} | also


def _score(*, with_name: bool) -> tuple[float, float, list[str]]:
    strict = lenient = 0
    misses = []
    for row in ROWS:
        path = CORPUS / row["path"]
        # A path source lends its own name, so "bytes alone" passes the bytes.
        found = detect(path if with_name else path.read_bytes()).media_type
        expected, accepted = _accepted(row)
        strict += found == expected
        lenient += found in accepted
        if found != expected:
            misses.append(f"{row['path']}: expected {expected}, got {found}")
    return strict / len(ROWS), lenient / len(ROWS), misses


def test_corpus_accuracy_from_bytes_alone() -> None:
    """From bytes alone, at least 95 % of the corpus is detected strictly right."""
    strict, lenient, misses = _score(with_name=False)
    print(f"bytes only: strict {strict:.1%}, lenient {lenient:.1%}", *misses, sep="\n  ")
    assert strict >= 0.95, misses


def test_corpus_accuracy_with_file_name() -> None:
    """With the file name too, at least 99 % of the corpus is detected right (lenient)."""
    strict, lenient, misses = _score(with_name=True)
    print(f"with name: strict {strict:.1%}, lenient {lenient:.1%}", *misses, sep="\n  ")
    assert lenient >= 0.99, misses


@pytest.mark.parametrize("row", ROWS, ids=[row["path"] for row in ROWS])
def test_corpus_file_with_name(row: dict[str, str]) -> None:
    """Each corpus file, with its name given, is detected as one of its accepted types."""
    expected, accepted = _accepted(row)
    found = detect(CORPUS / row["path"])
    assert found.media_type in accepted, f"expected {expected}, got {found}"
