"""Mutated real files and arbitrary input reach the public API and only MediaError escapes.

1,500 deterministic mutations of the files in testdata/ (bit flips, overwrites, truncations,
chunk duplication and deletion, header fields set to extremes) go through `detect`, `part`,
`width`, `normalize` and `estimate_tokens`. Each case is named `<file>-<seed>`, so a failure
is reproduced by `pytest tests/test_fuzz.py -k 'photo.jpg-123'`.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mediaparts as mp

TESTDATA = Path(__file__).resolve().parents[2] / "testdata"
# Every encoder-made file in testdata/ (the generator script and its README are not inputs).
SOURCES = sorted(
    p.name
    for p in TESTDATA.iterdir()
    if p.is_file() and p.name not in {"make.py", "README.md"} and not p.name.startswith(".")
)
MUTATIONS = 1500
PROVIDERS = ("anthropic", "bedrock", "gemini", "openai", "openai-responses")
# Generous: a real hang, not a slow machine, is what this catches. No test asserts speed.
CALL_LIMIT = 10.0
slowest: list[tuple[float, str]] = []


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


class Hang(BaseException):
    """A call ran longer than CALL_LIMIT (a BaseException, so no `except Exception` hides it)."""


@contextlib.contextmanager
def deadline(what: str) -> Iterator[None]:
    """Interrupt a call running past CALL_LIMIT (SIGALRM), and record how long it took."""
    start = time.perf_counter()
    if not hasattr(signal, "setitimer"):  # Windows: no alarm; a hang shows as a stuck run
        yield
        slowest.append((time.perf_counter() - start, what))
        return

    def expire(signum: int, frame: object) -> None:
        raise Hang(f"{what} ran longer than {CALL_LIMIT} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, CALL_LIMIT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        slowest.append((time.perf_counter() - start, what))


def run_public_api(data: bytes, label: str, providers: tuple[str, ...] = PROVIDERS) -> None:
    """Run `data` through detect, part, width, normalize and estimate_tokens; allow MediaError."""
    with deadline(f"{label}: detect"), contextlib.suppress(mp.MediaError):
        mp.detect(data)
    try:
        with deadline(f"{label}: part"):
            made = mp.part(data)
    except mp.MediaError:
        return
    if isinstance(made, mp.ImagePart):
        with deadline(f"{label}: width"), contextlib.suppress(mp.MediaError):
            made.width  # noqa: B018  # reading the property is the test
    for provider in providers:
        with deadline(f"{label}: normalize {provider}"), contextlib.suppress(mp.MediaError):
            mp.normalize(made, provider)
        with deadline(f"{label}: estimate {provider}"), contextlib.suppress(mp.MediaError):
            mp.estimate_tokens(made, provider)


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


# ---------------------------------------------------------------------------- properties

names = st.one_of(
    st.none(),
    st.text(max_size=20),
    st.sampled_from(["a.png", "b.JPG", "c.tar.gz", ".mp3", "x.", "noext", "d.mp4", "e.txt"]),
)
declared = st.one_of(
    st.none(),
    st.text(max_size=30),
    st.sampled_from(
        ["image/png", "IMAGE/JPEG; charset=x", "audio/x-wav", "text/plain", "*/*", "image/", ""]
    ),
)
heads = st.one_of(
    st.binary(max_size=256),
    st.sampled_from(
        [
            b"\x89PNG\r\n\x1a\n",
            b"GIF89a",
            b"RIFF\x00\x00\x00\x00WEBP",
            b"\xff\xd8\xff",
            b"PK\x03\x04",
        ]
    ).flatmap(lambda head: st.binary(max_size=64).map(lambda tail: head + tail)),
)


@settings(max_examples=300)
@given(heads, names, declared)
def test_detect_any_input_raises_nothing_else(
    data: bytes, filename: str | None, hint: str | None
) -> None:
    """detect() on any bytes, file name and declared type answers or raises MediaError only."""
    with contextlib.suppress(mp.MediaError):
        found = mp.detect(data, filename=filename, declared=hint)
        assert found.media_type == mp.canonical_media_type(found.media_type)
        # Declaring its own answer changes nothing: the answer is a fixed point of detection.
        again = mp.detect(data, filename=filename, declared=found.media_type)
        assert again.media_type == found.media_type


@given(st.text(max_size=40))
def test_canonical_media_type_is_idempotent(text: str) -> None:
    """canonical_media_type maps its own answer to itself, and raises only MediaError."""
    with contextlib.suppress(mp.MediaError):
        once = mp.canonical_media_type(text)
        assert mp.canonical_media_type(once) == once


payload_keys = st.sampled_from(
    [
        "image", "source", "inlineData", "inline_data", "type", "image_url", "url", "data",
        "media_type", "mimeType", "mime_type", "bytes", "format", "document", "file",
        "input_audio", "role", "content", "parts", "messages", "contents", "text", "fileData",
        "fileUri", "base64", "file_data", "filename", "video", "audio", "system",
    ]
)  # fmt: skip
payload_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.text(max_size=16),
    st.binary(max_size=16),
    st.sampled_from(
        [
            "image",
            "image_url",
            "input_image",
            "document",
            "base64",
            "url",
            "user",
            "image/png",
            "data:image/png;base64,iVBORw0KGgo=",
            "https://example.com/a.png",
            "iVBORw0KGgo=",
        ]
    ),
)
payloads = st.recursive(
    payload_leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(payload_keys, children, max_size=4)
    ),
    max_leaves=16,
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(payloads, st.sampled_from(PROVIDERS))
def test_check_any_payload_returns_list(payload: Any, provider: str) -> None:
    """mp.check on arbitrary JSON-like payloads returns a list or raises MediaError only."""
    with mp.offline(), contextlib.suppress(mp.MediaError):
        assert isinstance(mp.check(payload, provider), list)


_PNG = (TESTDATA / "palette.png").read_bytes()
_WAV = (TESTDATA / "tone.wav").read_bytes()
_PDF = (TESTDATA / "document.pdf").read_bytes()
media_items = st.one_of(
    st.text(max_size=20),
    st.sampled_from([_PNG, _WAV, _PDF, b"", b"\x89PNG\r\n\x1a\n", b"%PDF-1.4"]),
    st.binary(max_size=64),
    st.builds(lambda d: {"data": d}, st.binary(max_size=32)),
    st.just({"url": "https://example.com/a.png"}),
)
message_makers = st.sampled_from([mp.User, mp.Assistant, mp.System])


@st.composite
def conversations(draw: st.DrawFn) -> list[Any]:
    """Draw a short list of messages with random text and media parts."""
    messages: list[Any] = []
    for _ in range(draw(st.integers(0, 4))):
        maker = draw(message_makers)
        items = draw(st.lists(media_items, max_size=3))
        with contextlib.suppress(mp.MediaError):
            if draw(st.booleans()):
                messages.append(maker(items))
            else:
                messages.append(maker(draw(st.text(max_size=10)), files=items))
    return messages


@settings(max_examples=150, deadline=None)
@given(conversations(), st.sampled_from(PROVIDERS))
def test_render_any_messages_raises_only_media_error(messages: list[Any], provider: str) -> None:
    """mp.render of random messages answers with a dict or raises MediaError only."""
    with mp.offline(), contextlib.suppress(mp.MediaError):
        rendered = mp.render(messages, provider)
        assert isinstance(rendered, dict)
        json.dumps(rendered, default=str)


@pytest.fixture(scope="module", autouse=True)
def report_slowest() -> Iterator[None]:
    """Print the slowest calls of this module (run with -s to see them)."""
    yield
    for took, what in sorted(slowest, reverse=True)[:5]:
        print(f"slowest: {took:.3f} s  {what}")
