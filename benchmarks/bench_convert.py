"""Audio conversion in process (PyAV) against the `ffmpeg` command doing the same job.

    python benchmarks/bench_convert.py

The input is 10 minutes of stereo 44.1 kHz pink noise (a different noise per channel, so the
encoder cannot lean on joint stereo) as AAC-LC at 128 kb/s in an M4A, made once with the
`ffmpeg` command and kept in the bench cache. `convert_audio` turns it into MP3 (libmp3lame,
128 kb/s, stereo, 44.1 kHz) from bytes in memory to bytes in memory; the baseline runs
`ffmpeg` on the cached file with the same codec, bit rate, channels and rate, writing the MP3 to
a pipe the caller reads. Target (issue 15): no slower than the command. A second row, for
reference, copies the AAC into ADTS (a remux) against `ffmpeg -c:a copy`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

from harness import Row, cache_dir, cached, median_time, table

MINUTES = 10
_NAME = f"noise-{MINUTES}min-stereo-aac128k.m4a"
_NOISE = f"anoisesrc=color=pink:sample_rate=44100:duration={MINUTES * 60}:amplitude=0.3:seed={{}}"
_SAME_JOB = ("-c:a", "libmp3lame", "-b:a", "128k", "-ac", "2", "-ar", "44100", "-f", "mp3")


def _ffmpeg(*args: str) -> bytes:
    done = subprocess.run(
        ["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", *args],
        capture_output=True,
        check=True,
    )
    return done.stdout


def run(repeat: int = 3) -> list[Row]:
    """The rows of the `convert` section; none when `ffmpeg` or PyAV is missing."""
    if shutil.which("ffmpeg") is None:
        print("[convert] skipped: the ffmpeg command is not on PATH", file=sys.stderr)
        return []
    try:
        import av  # noqa: F401  (the [av] extra)
    except ImportError:
        print("[convert] skipped: PyAV (the [av] extra) is not installed", file=sys.stderr)
        return []
    from mediaparts.converting._audio import convert_audio
    from mediaparts.converting._policy import TransformPolicy

    data = cached(_NAME, _make_input)
    path = str(cache_dir() / _NAME)
    policy = TransformPolicy()
    made = convert_audio(data, "audio/mp4", "audio/mpeg", policy)
    assert made.steps == ("m4a→mp3 128k",), made.steps
    ours = median_time(
        lambda: convert_audio(data, "audio/mp4", "audio/mpeg", policy), repeat=repeat
    )
    command = median_time(lambda: _ffmpeg("-i", path, "-vn", *_SAME_JOB, "pipe:1"), repeat=repeat)
    remux = median_time(
        lambda: convert_audio(data, "audio/mp4", "audio/aac", policy), repeat=repeat
    )
    copy = median_time(
        lambda: _ffmpeg("-i", path, "-vn", "-c:a", "copy", "-f", "adts", "pipe:1"), repeat=repeat
    )
    mb = len(data) / 1e6
    return [
        Row(
            f"{MINUTES}-minute M4A ({mb:.1f} MB, stereo AAC) to MP3 128k, in process",
            ours,
            command,
            "the ffmpeg command, same codec, bit rate and channels",
            target="≤ 1×",
            goal=("≤", 1.0),
            note=f"PyAV {av_version()}",
        ),
        Row(
            f"{MINUTES}-minute M4A to ADTS (remux), in process",
            remux,
            copy,
            "ffmpeg -c:a copy -f adts",
        ),
    ]


def _make_input() -> bytes:
    """Write the input with ffmpeg to a file (the M4A muxer seeks back), return its bytes."""
    target = cache_dir() / (_NAME + ".tmp.m4a")
    graph = (
        f"{_NOISE.format(1)}[a];{_NOISE.format(2)}[b];"
        "[a][b]join=inputs=2:channel_layout=stereo[out]"
    )
    _ffmpeg(
        "-y", "-filter_complex", graph, "-map", "[out]", "-c:a", "aac", "-b:a", "128k",
        str(target),
    )  # fmt: skip
    data = target.read_bytes()
    target.unlink()
    return data


def av_version() -> str:
    import av

    return str(av.__version__)


def main() -> None:
    print(table(run()))


if __name__ == "__main__":
    main()
