"""Detection per file on the shared corpus, against filetype, puremagic and libmagic.

Every detector gets the same bytes already in memory (no file name), so the timing is detection
alone; the peers run in the peer environment (`peers/detect.py`). Accuracy uses the corpus
README's scoring: strict = the canonical answer equals `expected_mime`; lenient also takes
`also_accept`. Answers are canonicalised with `mediaparts.detection.canonical_media_type`.
"""

from __future__ import annotations

import csv
import gc
import os
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from harness import ROOT, PeerUnavailable, Row, run_peer

import mediaparts as mp


@dataclass(frozen=True)
class Item:
    path: Path
    expected: str
    also: tuple[str, ...]


@dataclass(frozen=True)
class Score:
    detector: str
    version: str
    per_file: float | None
    strict: int
    lenient: int
    total: int
    note: str = ""


def corpus_dir() -> Path | None:
    """`$MEDIAPARTS_CORPUS`, else `../shared/corpus` beside the repository; None if absent."""
    env = os.environ.get("MEDIAPARTS_CORPUS")
    path = Path(env) if env else ROOT.parent / "shared" / "corpus"
    return path if (path / "manifest.tsv").is_file() else None


def load_corpus(root: Path) -> list[Item]:
    with (root / "manifest.tsv").open(newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [
        Item(
            root / row["path"],
            row["expected_mime"],
            tuple(a.strip() for a in row["also_accept"].split(",") if a.strip()),
        )
        for row in rows
    ]


def _canonical(answer: str | None) -> str:
    if not answer or answer.startswith("error:"):
        return ""
    return mp.canonical_media_type(answer.split(";", 1)[0].strip().lower())


def _score(items: list[Item], answers: list[str | None]) -> tuple[int, int]:
    strict = lenient = 0
    for item, answer in zip(items, answers, strict=True):
        got = _canonical(answer)
        expected = _canonical(item.expected)
        if got == expected:
            strict += 1
            lenient += 1
        elif got and (got in {_canonical(a) for a in item.also} or _wildcard(got, item.also)):
            lenient += 1
    return strict, lenient


def _wildcard(got: str, also: tuple[str, ...]) -> bool:
    return any(a.endswith("/*") and got.startswith(a[:-1]) for a in also)


def _ours(items: list[Item], repeat: int) -> Score:
    blobs = [item.path.read_bytes() for item in items]
    answers = [mp.detect(data).media_type for data in blobs]
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        for data in blobs:
            mp.detect(data)
        times.append((time.perf_counter() - start) / len(blobs))
    strict, lenient = _score(items, answers)
    return Score(
        "mediaparts", mp.__version__, statistics.median(times), strict, lenient, len(items)
    )


def scores(items: list[Item], repeat: int) -> list[Score]:
    """Score mediaparts here and each peer in the peer environment."""
    found = [_ours(items, repeat)]
    try:
        peers = run_peer("detect.py", {"files": [str(i.path) for i in items], "repeat": repeat})
    except PeerUnavailable as exc:
        peers = {}
        reason = str(exc)
    else:
        reason = "not installed in the peer environment"
    for name in ("filetype", "puremagic", "libmagic"):
        result = peers.get(name)
        if result is None:
            found.append(Score(name, "—", None, 0, 0, len(items), reason))
            continue
        strict, lenient = _score(items, result["answers"])
        found.append(
            Score(name, result["version"], result["per_file"], strict, lenient, len(items))
        )
    return found


def run(repeat: int = 15) -> tuple[list[Row], str]:
    """Return the rows (ours against each peer) and an accuracy table in Markdown."""
    root = corpus_dir()
    if root is None:
        return [], "_Detection skipped: no corpus (set `MEDIAPARTS_CORPUS`)._\n"
    items = load_corpus(root)
    found = scores(items, repeat)
    ours = found[0]
    assert ours.per_file is not None
    rows = []
    for peer in found[1:]:
        if peer.per_file is None:
            rows.append(
                Row(
                    f"detect() per file, {len(items)} corpus files, vs {peer.detector}",
                    ours.per_file,
                    0.0,
                    "",
                    note=f"{peer.detector}: {peer.note}",
                )
            )
            continue
        rows.append(
            Row(
                f"detect() per file, {len(items)} corpus files, vs {peer.detector}",
                ours.per_file,
                peer.per_file,
                f"{peer.detector} {peer.version}",
                target="≤ 1.3× filetype" if peer.detector == "filetype" else "for reference",
                goal=("≤", 1.3) if peer.detector == "filetype" else None,
                note=(f"strict accuracy {ours.strict}/{ours.total} vs {peer.strict}/{peer.total}"),
            )
        )
    lines = [
        f"Accuracy on the {len(items)} files of the shared corpus (bytes only, no file name); "
        "scoring as in the corpus README.\n",
        "| detector | version | time per file | strict | lenient |",
        "|---|---|---|---|---|",
    ]
    for s in found:
        if s.per_file is None:
            lines.append(f"| {s.detector} | — | {s.note} | — | — |")
            continue
        lines.append(
            f"| {s.detector} | {s.version} | {s.per_file * 1e6:.1f} µs "
            f"| {s.strict}/{s.total} ({s.strict / s.total:.1%}) "
            f"| {s.lenient}/{s.total} ({s.lenient / s.total:.1%}) |"
        )
    return rows, "\n".join(lines) + "\n"
