"""Mutated real files reach the public API and only MediaError escapes; the fuzz target runs.

1,500 deterministic mutations of the files in testdata/ (bit flips, overwrites, truncations,
chunk duplication and deletion, header fields set to extremes) go through `detect`, `part`,
`width`, `normalize` and `estimate_tokens`. Each case is named `<file>-<seed>`, so a failure
is reproduced by `pytest tests/robustness/test_fuzz.py -k 'photo.jpg-123'`. Property tests over
arbitrary input are in test_properties.py.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.robustness._entry_points import TESTDATA, run_public_api, slowest

pytestmark = pytest.mark.slow  # 1,500 mutated files through every entry point

# Every encoder-made file in testdata/ (the generator script and its README are not inputs).
SOURCES = sorted(
    p.name
    for p in TESTDATA.iterdir()
    if p.is_file() and p.name not in {"make.py", "README.md"} and not p.name.startswith(".")
)
MUTATIONS = 1500


# ---------------------------------------------------------------------------- mutations


def _extreme(rng: random.Random, size: int) -> bytes:
    """Return an integer field of `size` bytes set to an extreme value, in either byte order."""
    value = rng.choice([0, 1, 0xFF, 0x7F, 0x80, (1 << (8 * size)) - 1, (1 << (8 * size - 1)) - 1])
    value %= 1 << (8 * size)
    return value.to_bytes(size, rng.choice(["big", "little"]))


def _header_fields(data: bytes) -> list[tuple[int, int]]:
    """Return (offset, size) of known width, height and length fields in `data`'s header."""
    fields: list[tuple[int, int]] = []
    if data.startswith(b"\x89PNG") and len(data) >= 24:
        fields += [(8, 4), (16, 4), (20, 4)]  # IHDR length, width, height
    elif data.startswith(b"GIF8"):
        fields += [(6, 2), (8, 2)]  # logical screen width and height
    elif data.startswith(b"BM"):
        fields += [(2, 4), (10, 4), (14, 4), (18, 4), (22, 4), (28, 2), (34, 4)]
    elif data.startswith(b"RIFF"):
        fields += [(4, 4), (16, 4), (24, 3), (27, 3), (26, 2), (28, 2)]  # RIFF/chunk sizes, canvas
        for tag in (b"data", b"avih", b"strh", b"strf", b"LIST", b"fmt "):
            at = data.find(tag)
            if at >= 0:
                fields += [(at + 4, 4), (at + 8, 4), (at + 12, 4)]
    elif data.startswith(b"\xff\xd8"):
        for marker in (b"\xff\xc0", b"\xff\xc2", b"\xff\xe1", b"\xff\xc4", b"\xff\xdb"):
            at = data.find(marker)
            if at >= 0:
                fields += [(at + 2, 2), (at + 5, 2), (at + 7, 2)]  # length, height, width
    elif data.startswith((b"II*\x00", b"MM\x00*")):
        fields += [(4, 4), (8, 2), (18, 4), (30, 4)]  # first IFD offset, entry count, values
    elif data.startswith(b"\x00\x00\x01\x00"):  # ICO: entry sizes and offsets
        fields += [(4, 2), (6, 1), (7, 1), (14, 4), (18, 4)]
    elif data.startswith((b"fLaC", b"OggS")):
        fields += [(4, 4), (18, 4), (22, 4), (26, 1)]
    elif data.startswith(b"%PDF"):
        for tag in (b"/Count ", b"/Length ", b"/First ", b"/N "):
            at = data.find(tag)
            if at >= 0:
                fields.append((at + len(tag), 4))
    elif data.startswith(b"PK"):
        fields += [(18, 4), (22, 4), (26, 2), (28, 2)]  # sizes and name lengths
        at = data.rfind(b"PK\x05\x06")
        if at >= 0:
            fields += [(at + 8, 2), (at + 10, 2), (at + 12, 4), (at + 16, 4)]
    # ISO BMFF and Matroska boxes anywhere: sizes, and the ispe/mvhd/tkhd fields after them.
    for tag in (b"ftyp", b"moov", b"mvhd", b"ispe", b"mdat", b"trak", b"stsz", b"stco", b"meta"):
        at = data.find(tag)
        if at >= 4:
            fields += [(at - 4, 4), (at + 8, 4), (at + 12, 4), (at + 16, 4)]
    if data.startswith(b"\x1a\x45\xdf\xa3"):
        fields += [(4, 8), (40, 8)]  # EBML header and segment sizes
    return [(at, size) for at, size in fields if at + size <= len(data)]


def _flip_bits(rng: random.Random, data: bytearray) -> None:
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(data))
        data[at] ^= 1 << rng.randrange(8)


def _overwrite(rng: random.Random, data: bytearray) -> None:
    # Headers are where parsers decide most; aim there half the time.
    end = min(len(data), 512) if rng.random() < 0.5 else len(data)
    at = rng.randrange(end)
    data[at : at + rng.randint(1, 16)] = rng.randbytes(rng.randint(1, 16))


def _truncate(rng: random.Random, data: bytearray) -> None:
    del data[rng.randrange(len(data)) :]


def _duplicate(rng: random.Random, data: bytearray) -> None:
    start = rng.randrange(len(data))
    chunk = data[start : start + rng.randint(1, 4096)]
    at = rng.randrange(len(data))
    data[at:at] = chunk * rng.randint(1, 4)


def _delete(rng: random.Random, data: bytearray) -> None:
    start = rng.randrange(len(data))
    del data[start : start + rng.randint(1, 1024)]


def _extremes(rng: random.Random, data: bytearray) -> None:
    fields = _header_fields(bytes(data))
    if not fields:  # no known layout: an aligned 2- or 4-byte field in the first 64 bytes
        size = rng.choice([2, 4])
        fields = [(at, size) for at in range(0, min(len(data), 64) - size + 1, size)]
    for at, size in rng.sample(fields, min(len(fields), rng.randint(1, 3))):
        data[at : at + size] = _extreme(rng, size)


_OPERATORS: tuple[Callable[[random.Random, bytearray], None], ...] = (
    _flip_bits,
    _overwrite,
    _truncate,
    _duplicate,
    _delete,
    _extremes,
    _extremes,  # the header fields are where the interesting escapes live: weigh them twice
)


def mutate(data: bytes, seed: int) -> bytes:
    """Return `data` changed by one to three operators chosen by `seed`, deterministically."""
    rng = random.Random(seed)
    out = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if not out:
            break
        rng.choice(_OPERATORS)(rng, out)
    return bytes(out)


def _cases() -> Iterator[Any]:
    for seed in range(MUTATIONS):
        name = SOURCES[seed % len(SOURCES)]
        yield pytest.param(name, seed, id=f"{name}-{seed}")


# ---------------------------------------------------------------------------- the checks


@pytest.mark.parametrize(("name", "seed"), list(_cases()))
def test_mutated_file_raises_only_media_error(name: str, seed: int) -> None:
    """A mutated real file gives results or a MediaError at every entry point, in bounded time."""
    data = mutate((TESTDATA / name).read_bytes(), seed)
    run_public_api(data, f"{name}-{seed}")


def test_mutation_is_deterministic() -> None:
    """The same seed makes the same bytes, so a failing case can be reproduced by its id."""
    data = (TESTDATA / "photo.jpg").read_bytes()
    assert mutate(data, 7) == mutate(data, 7)
    assert len({mutate(data, seed) for seed in range(50)}) > 45


def test_header_fields_find_each_format() -> None:
    """The extreme-field mutator knows a header layout for every image and container file."""
    for name in SOURCES:
        if name.rpartition(".")[2] in {"png", "gif", "bmp", "jpg", "webp", "tiff", "ico", "mp4"}:
            assert _header_fields((TESTDATA / name).read_bytes()), name


def test_unmutated_sources_pass() -> None:
    """Every source file itself goes through every provider raising only MediaError."""
    for name in SOURCES:
        run_public_api((TESTDATA / name).read_bytes(), name)


def test_fuzz_target_runs_without_atheris(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """fuzz/fuzz_detect_load.py loads and passes its plain runner's first 40 inputs."""
    monkeypatch.setattr(sys, "argv", ["fuzz_detect_load.py", "--plain"])  # never instrument
    monkeypatch.chdir(tmp_path)  # where a failing input would be saved
    target = TESTDATA.parent / "fuzz" / "fuzz_detect_load.py"
    spec = importlib.util.spec_from_file_location("fuzz_detect_load", target)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.run_plain(40) == 0
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module", autouse=True)
def report_slowest() -> Iterator[None]:
    """Print the slowest calls of this module (run with -s to see them)."""
    yield
    for took, what in sorted(slowest, reverse=True)[:5]:
        print(f"slowest: {took:.3f} s  {what}")
