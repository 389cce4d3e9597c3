"""Fuzz detection and loading: bytes through detect, part, width, normalize, estimate, uploads.

Only `mediaparts.MediaError` may escape; any other exception (or a warning, which is turned into
one, as pytest does with `filterwarnings = error`) is a finding. See fuzz/README.md.

    python fuzz/fuzz_detect_load.py /tmp/mp-corpus testdata -max_total_time=60 -timeout=10
    python fuzz/fuzz_detect_load.py --plain 3000      # without atheris: seeded random mutations
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import io
import random
import sys
import traceback
import warnings
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTDATA = ROOT / "testdata"
# A declared type is a hint that detection weighs against the bytes; try a few, and none.
DECLARED = (None, None, None, "image/png", "image/jpeg", "audio/wav", "application/pdf")

# What mediaparts imports only when it first needs it (mutagen readers, Pillow's HEIF opener).
_LAZY_IMPORTS = (
    "mutagen.aac", "mutagen.aiff", "mutagen.asf", "mutagen.flac", "mutagen.mp3", "mutagen.mp4",
    "mutagen.oggflac", "mutagen.oggopus", "mutagen.oggspeex", "mutagen.oggtheora",
    "mutagen.oggvorbis", "mutagen.wave",
)  # fmt: skip

try:
    import atheris
except ImportError:  # the plain runner below needs nothing but the library
    atheris = None

if atheris is not None and "--plain" not in sys.argv:
    # Coverage feedback from our code and from the pure-Python parsers it drives. mediaparts
    # imports Pillow and mutagen lazily, so their modules are imported here, inside the block,
    # to be instrumented too (Image.init() imports every Pillow plugin).
    with atheris.instrument_imports(include=["mediaparts", "PIL", "mutagen", "filetype"]):
        for module in _LAZY_IMPORTS:
            importlib.import_module(module)
        from PIL import Image

        import mediaparts as mp

        Image.init()
else:
    import mediaparts as mp

PROVIDERS = mp.providers.names()


def test_one_input(data: bytes) -> None:
    """Run one input through every entry point; re-raise anything but a MediaError."""
    # The provider and hint come from a checksum, not from leading bytes, so the files in
    # testdata/ are seeds as they are and every provider gets its share of inputs.
    choice = zlib.crc32(data)
    provider = PROVIDERS[choice % len(PROVIDERS)]
    declared = DECLARED[(choice >> 8) % len(DECLARED)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # An upload of any type, stripped (decoded and re-encoded) or kept as it is.
        with contextlib.suppress(mp.MediaError):
            mp.from_upload(io.BytesIO(data), accept="*/*", strip_metadata=bool(choice & 1 << 16))
        try:
            mp.detect(data, declared=declared)
            made = mp.part(data, **({"media_type": declared} if declared else {}))
        except mp.MediaError:
            return
        if isinstance(made, mp.ImagePart):
            with contextlib.suppress(mp.MediaError):
                made.width  # noqa: B018  # reading the property is the test
        for call in (mp.normalize, mp.estimate_tokens):
            with contextlib.suppress(mp.MediaError):
                call(made, provider)


def mutate(data: bytes, rng: random.Random) -> bytes:
    """Return `data` with a few bit flips, overwrites, cuts, duplications or deletions."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not out:
            out += rng.randbytes(rng.randint(1, 64))
        at = rng.randrange(len(out))
        how = rng.randrange(5)
        if how == 0:
            out[at] ^= 1 << rng.randrange(8)
        elif how == 1:
            value = rng.choice([b"\xff\xff\xff\xff", b"\x00\x00\x00\x00", b"\x7f\xff\xff\xff"])
            out[at : at + 4] = value[: rng.randint(1, 4)]
        elif how == 2:
            del out[at:]
        elif how == 3:
            out[at:at] = out[at : at + rng.randint(1, 2048)] * rng.randint(1, 3)
        else:
            del out[at : at + rng.randint(1, 512)]
    return bytes(out)


def run_plain(count: int, seed: int = 0) -> int:
    """Feed `count` seeded mutations of testdata/ to the target; return how many failed."""
    seeds = [p.read_bytes() for p in sorted(TESTDATA.iterdir()) if p.is_file()]
    rng = random.Random(seed)
    failures = 0
    for n in range(count):
        data = mutate(rng.choice(seeds), rng)
        try:
            test_one_input(data)
        except Exception:
            failures += 1
            name = f"crash-{hashlib.sha1(data).hexdigest()[:12]}"
            Path(name).write_bytes(data)
            print(f"input {n}: saved {name}", file=sys.stderr)
            traceback.print_exc()
    print(f"{count} inputs, {failures} failures", file=sys.stderr)
    return failures


def main() -> None:
    """Run under atheris (libFuzzer flags pass through), or the plain runner with --plain N."""
    if "--plain" in sys.argv or atheris is None:
        args = [a for a in sys.argv[1:] if a != "--plain" and a.isdigit()]
        sys.exit(1 if run_plain(int(args[0]) if args else 2000) else 0)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
