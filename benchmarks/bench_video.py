"""Frame sampling from a 10-minute 1080p video, against decoding the whole video.

The target (issue 15): sampling 8 frames costs at most 0.1× decoding the video fully, because
`sample_frames` seeks to each frame it takes. The video is made once and kept in the bench
cache (`harness.cached`): FFmpeg's `testsrc2` pattern (moving, colourful, with a clock) at
1920x1080 and 30 fps for 600 s, encoded by PyAV with libx264 (preset ultrafast, 1.5 Mb/s,
a key frame every 60 frames: a 2 s group of pictures, as screen and phone recordings have);
about 130 MB, four to five minutes to make. Needs the [av] extra.

The baseline decodes every frame with PyAV's default decoder settings (those `sample_frames`
uses too); it runs once, after a warm-up of the sampler, since it takes tens of seconds.
"""

from __future__ import annotations

import io
from fractions import Fraction
from typing import Any

from harness import Row, cached, median_time

from mediaparts.converting import TransformPolicy
from mediaparts.converting._frames import sample_frames

SECONDS = 600
FPS = 30
SIZE = (1920, 1080)
GOP = 2 * FPS
NAME = "video-10min-1080p-gop2s-v2.mp4"


def make_video() -> bytes:
    """Encode the 10-minute test video (testsrc2 through PyAV's filter graph, libx264)."""
    import av
    import av.filter

    graph = av.filter.Graph()
    source = graph.add("testsrc2", f"size={SIZE[0]}x{SIZE[1]}:rate={FPS}:duration={SECONDS}")
    sink = graph.add("buffersink")
    source.link_to(sink)
    graph.configure()
    buffer = io.BytesIO()
    with av.open(buffer, "w", format="mp4") as out:
        stream = out.add_stream("libx264", rate=Fraction(FPS))
        stream.width, stream.height, stream.pix_fmt = *SIZE, "yuv420p"
        stream.bit_rate = 1_500_000
        stream.options = {"preset": "ultrafast", "g": str(GOP)}
        index = 0
        while True:
            try:
                frame: Any = sink.pull()
            except (av.BlockingIOError, EOFError, av.FFmpegError):
                break
            frame = frame.reformat(format="yuv420p")
            # lavfi's sources mark every frame a key frame, which libx264 would obey.
            frame.pict_type = av.video.frame.PictureType.NONE
            frame.pts = index
            index += 1
            out.mux(stream.encode(frame))
        out.mux(stream.encode(None))
    return buffer.getvalue()


def decode_all(data: bytes) -> int:
    """Decode every frame of the video track; return how many there were."""
    import av

    with av.open(io.BytesIO(data)) as container:
        return sum(1 for _ in container.decode(video=0))


def run() -> list[Row]:
    try:
        import av  # noqa: F401  # only to tell whether the [av] extra is installed
    except ImportError:
        return [Row("sample 8 frames of a 10-min 1080p video", 0, 0, "[av] not installed")]
    data = cached(NAME, make_video)
    rows = []
    baseline = median_time(lambda: decode_all(data), repeat=1, warmup=0)
    mib = len(data) / 2**20
    for sampling in ("uniform", "scenes"):
        policy = TransformPolicy(frames=8, sampling=sampling)  # type: ignore[arg-type]
        ours = median_time(lambda p=policy: sample_frames(data, "video/mp4", p), repeat=5)
        rows.append(
            Row(
                f"sample 8 frames ({sampling}) of a 10-min 1080p H.264 video ({mib:.0f} MiB)",
                ours,
                baseline,
                "decoding all 18,000 frames",
                target="≤ 0.1× (issue 15)" if sampling == "uniform" else "",
                goal=("≤", 0.1) if sampling == "uniform" else None,
                note="" if sampling == "uniform" else "decodes the 300 key frames, then seeks",
            )
        )
    return rows


if __name__ == "__main__":
    from harness import table

    print(table(run()))
