"""The signature table's index: the rows it tries decide exactly what a scan of them all does."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from mediaparts.detection import _signatures
from mediaparts.detection._signatures import SIGNATURES, Signature, match_signatures
from mediaparts.formats import PREFIX_SIZE, ByteWindow
from tests._builders import ROOT, TESTDATA

CORPUS = Path(os.environ.get("MEDIAPARTS_CORPUS") or ROOT.parent / "shared" / "corpus")


def _linear(probe: ByteWindow) -> object:
    """The reference: every row of the table in order (the table's own rows, no registry)."""
    for signature in SIGNATURES:
        hit = signature.match(probe)
        if hit is not None:
            return hit
    return None


def _answers(data: bytes) -> tuple[object, object]:
    """What the indexed lookup and the linear scan say about the same bytes."""

    def read_at(offset: int, length: int) -> bytes:
        return data[offset : offset + length]

    def window() -> ByteWindow:
        return ByteWindow(data[:PREFIX_SIZE], len(data), read_at)

    return match_signatures(window()), _linear(window())


def _row_samples(row: Signature, seed: int) -> Iterator[bytes]:
    """The row's pieces at their offsets over zeros and over noise, and each cut of them."""
    end = max((at + len(piece) for at, piece in row.pattern), default=0) + 64
    noise = random.Random(seed)
    for filler in (bytes(end), noise.randbytes(end)):
        sample = bytearray(filler)
        for at, piece in row.pattern:
            sample[at : at + len(piece)] = piece
        for cut in range(len(sample) + 1):
            yield bytes(sample[:cut])


@pytest.mark.parametrize("row", SIGNATURES, ids=lambda row: f"{row.media_type}-{row.pattern}")
def test_index_agrees_with_linear_scan_on_row_samples(row: Signature) -> None:
    """Each row's own bytes, whole and cut short, get the linear scan's answer."""
    seed = SIGNATURES.index(row)
    wrong = [s[:16] for s in _row_samples(row, seed) if len(set(map(repr, _answers(s)))) > 1]
    assert wrong == []


@pytest.mark.parametrize("row", SIGNATURES, ids=lambda row: f"{row.media_type}-{row.pattern}")
def test_index_offers_every_row_whose_pieces_are_present(row: Signature) -> None:
    """Bytes holding a row's pieces are offered that row, among rows kept in table order."""
    for sample in _row_samples(row, SIGNATURES.index(row)):
        if not all(sample.startswith(piece, at) for at, piece in row.pattern):
            continue
        offered = _signatures._candidates(_signatures._key(sample))
        assert row in offered
        assert list(offered) == [r for r in SIGNATURES if r in offered]


# Bytes that only a row with a check or parser tells apart, beside the files below.
EXTRA = [
    b"junk before it\n%PDF-1.4\n1 0 obj\n<<>>\nendobj\n",
    b"%PDF-1.4 is the header of a PDF file",
    b"GIF89a is a format name",
    b"BMW rules",
]


@pytest.mark.parametrize("data", EXTRA)
def test_index_agrees_with_linear_scan_on_lookalikes(data: bytes) -> None:
    """Prose that starts like a signature, and a PDF after junk, get the linear answer."""
    indexed, linear = _answers(data)
    assert repr(indexed) == repr(linear)


def test_index_agrees_with_linear_scan_on_files() -> None:
    """Every test file, and every corpus file where the corpus is present, gets its answer."""
    folders = [TESTDATA, *([CORPUS] if (CORPUS / "manifest.tsv").is_file() else [])]
    files = [p for folder in folders for p in sorted(folder.rglob("*")) if p.is_file()]
    wrong = [p.name for p in files if len(set(map(repr, _answers(p.read_bytes())))) > 1]
    assert (len(files) > 50, wrong) == (True, [])


def test_index_agrees_with_linear_scan_on_leading_byte_pairs() -> None:
    """Every value of the bytes the index reads (offsets 0 and 4), over zeros, agrees."""
    wrong = []
    for first in range(256):
        for fifth in range(256):
            data = bytes([first, 0, 0, 0, fifth]) + bytes(27)
            if len(set(map(repr, _answers(data)))) > 1:
                wrong.append((first, fifth))
    assert wrong == []


def test_index_stays_bounded() -> None:
    """However many different heads are seen, the index keeps one entry per key it can form."""
    noise = random.Random(7)
    for _ in range(5000):
        _answers(noise.randbytes(noise.randrange(0, 40)))
    bound = 1
    for known in _signatures._FIRST_BYTES:
        bound *= len(known) + 1
    assert len(_signatures._CANDIDATES) <= bound
