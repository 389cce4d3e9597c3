"""Fuzz the message reader: dicts built from fuzzer bytes through message_from_dict and render.

Each input becomes one message dict — our own `to_dict()` shape or an OpenAI-style one, with
text, `image_url`, `input_audio` and `file` content parts, part shorthands (`path`, `url`,
`data`, `file_id`), odd roles, odd types and nesting — and goes through `mp.message_from_dict`,
`to_dict()` and back (which must give an equal message), and `mp.render` for every provider,
under `mp.offline()`. Only `mediaparts.MediaError` may escape; any other exception, a warning
(turned into one), a round trip that changes the message, or a read of a file outside the
fuzzer's own temporary folder is a finding. See fuzz/README.md.

Paths in the generated dicts point only into that folder (a PNG, a text file, a folder, a
missing name); an audit hook turns any other file opened while an input runs into a finding,
so the fuzzer never reads the machine's files. Message dicts are untrusted input: with
`MP_FUZZ_PATHS=allow` a part read from one of those paths is tolerated (the code before
issue 10's fix reads them); by default it is a finding too. `MP_FUZZ_ROUNDTRIP=0` skips the
round-trip equality check (to fuzz past a known round-trip finding).

    python fuzz/fuzz_messages.py mp-msg-corpus -max_total_time=60 -timeout=10
    python fuzz/fuzz_messages.py --plain 3000      # without atheris: seeded random bytes
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import os
import random
import sys
import tempfile
import traceback
import warnings
from pathlib import Path
from typing import Any

try:
    import atheris
except ImportError:  # the plain runner below needs nothing but the library
    atheris = None

if atheris is not None and "--plain" not in sys.argv:
    with atheris.instrument_imports(include=["mediaparts", "pydantic"]):
        import mediaparts as mp
else:
    import mediaparts as mp

from PIL import Image

PROVIDERS = mp.providers.names()
ALLOW_PATHS = os.environ.get("MP_FUZZ_PATHS") == "allow"
# MP_FUZZ_ROUNDTRIP=0 skips the equality check, to fuzz past a known round-trip finding.
CHECK_ROUNDTRIP = os.environ.get("MP_FUZZ_ROUNDTRIP") != "0"
SANDBOX = Path(tempfile.mkdtemp(prefix="mp-fuzz-messages-")).resolve()
STARTED_IN = Path.cwd()  # findings are saved here, not in the sandbox


def _png(size: tuple[int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 40, 40)).save(buffer, "PNG")
    return buffer.getvalue()


PNG = _png((3, 2))
(SANDBOX / "a.png").write_bytes(PNG)
(SANDBOX / "notes.txt").write_text("some notes\n")
(SANDBOX / "folder").mkdir()
PATHS = (
    str(SANDBOX / "a.png"), str(SANDBOX / "notes.txt"), str(SANDBOX / "folder"),
    str(SANDBOX / "missing.jpg"), "a.png", "notes.txt", "./a.png", "folder/",
)  # fmt: skip
URLS = (
    "https://example.com/a.png", "http://127.0.0.1/x.png", "https://[::1]/a.pdf",
    "ftp://example.com/a.png", "https://user:p%40ss@example.com/a.png?x=1#f",
    "data:image/png;base64," + base64.b64encode(PNG).decode(), "data:,hello",
    "data:image/png;base64,!!!", "data:text/plain;charset=utf-8,%E2%82%AC",
    *(f"file://{path}" for path in PATHS[:2]),
)  # fmt: skip
MEDIA_TYPES = ("image/png", "image/jpeg", "application/pdf", "audio/wav", "text/plain", "x/y", "")
ROLES = ("user", "assistant", "system", "tool", "human", "ai", "developer", "", "User", None)
KINDS = ("text", "image", "audio", "video", "file", "tool_call", "x")
TYPES = ("text", "image_url", "input_audio", "file", "input_text", "refusal", "x")


class Bytes:
    """Choices read from the fuzzer's bytes, so each input is one deterministic dict."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            return 0
        self.at += 1
        return self.data[self.at - 1]

    def below(self, n: int) -> int:
        return self.byte() % n

    def pick(self, options: tuple[Any, ...]) -> Any:
        return options[self.below(len(options))]

    def text(self, most: int = 24) -> str:
        size = self.below(most + 1)
        chunk = self.data[self.at : self.at + size]
        self.at += size
        # surrogateescape: invalid UTF-8 becomes lone surrogates, which JSON encoders trip on.
        return chunk.decode("utf-8", "surrogateescape")

    def scalar(self) -> Any:
        return self.pick((None, True, 0, -1, 2**64, 1.5, float("inf"), "", self.text(), b"\x00"))


def _source(b: Bytes) -> dict[str, Any]:
    """A part shorthand: exactly one source, usually, with optional fields."""
    how = b.below(6)
    shorthand: dict[str, Any]
    if how == 0:
        shorthand = {"path": b.pick(PATHS)}
    elif how == 1:
        shorthand = {"url": b.pick(URLS)}
    elif how == 2:
        shorthand = {"data": b.pick((base64.b64encode(PNG).decode(), PNG, b.text(), *URLS[5:9]))}
    elif how == 3:
        shorthand = {"file_id": b.text(), "provider": b.pick((*PROVIDERS, "x"))}
    elif how == 4:
        shorthand = {"path": b.pick(PATHS), "url": b.pick(URLS)}  # two sources: refused
    else:
        shorthand = {"kind": b.pick(KINDS), "data": base64.b64encode(PNG).decode()}
    for key in ("media_type", "filename", "detail", "metadata"):
        if b.below(3) == 0:
            shorthand[key] = {
                "media_type": b.pick(MEDIA_TYPES),
                "filename": b.text(),
                "detail": b.pick(("low", "high", "auto", "original", "x")),
                "metadata": {b.text(6): b.scalar()},
            }[key]
    if b.below(16) == 0:  # now and then a key or a value of the wrong kind
        shorthand[b.pick(("kind", "text", "cache", "x", "metadata"))] = b.scalar()
    return shorthand


def _content_part(b: Bytes, depth: int) -> Any:
    """One item of a content list: an OpenAI-style part, a shorthand, text, or nesting."""
    how = b.below(9)
    if how == 0:
        return {"type": "text", "text": b.text()}
    if how == 1:
        return {"type": "image_url", "image_url": {"url": b.pick(URLS + PATHS), "detail": "auto"}}
    if how == 2:
        audio = base64.b64encode(b.text(64).encode("utf-8", "surrogateescape")).decode()
        audio_format = b.pick(("wav", "mp3", "x"))
        return {"type": "input_audio", "input_audio": {"data": audio, "format": audio_format}}
    if how == 3:
        return {"type": "file", "file": {"file_data": b.pick(URLS[5:9]), "filename": b.text()}}
    if how == 4:
        return _source(b)
    if how == 5:
        return b.text()
    if how == 6 and depth < 4:
        return [_content_part(b, depth + 1) for _ in range(b.below(3))]
    if how == 7:
        return {"type": b.pick(TYPES), b.text(6): b.scalar()}
    return b.scalar()


def _tool_calls(b: Bytes) -> list[Any]:
    return [
        {"id": b.text(8), "name": b.text(8), "arguments": b.pick(('{"x": 1}', "{", b.text()))}
        for _ in range(b.below(3))
    ]


def build(data: bytes) -> dict[str, Any]:
    """Turn fuzzer bytes into one message dict, our own shape or OpenAI's."""
    b = Bytes(data)
    role = b.pick(ROLES) if b.below(8) == 0 else b.pick(ROLES[:4])
    message: dict[str, Any] = {"role": role}
    shape = b.below(3)
    if shape == 0:  # OpenAI Chat style
        message["content"] = (
            b.text() if b.below(3) == 0 else [_content_part(b, 0) for _ in range(b.below(5))]
        )
    elif shape == 1:  # our own to_dict() shape
        message["parts"] = [
            {"kind": "text", "text": b.text()} if b.below(2) else _source(b)
            for _ in range(b.below(5))
        ]
        if b.below(2):
            message["v"] = b.pick((1, 2, 3, "2"))
    else:  # content plus files=
        message["content"] = b.text()
        message["files"] = [_source(b) for _ in range(b.below(3))]
    if role == "assistant" and b.below(2):
        message["tool_calls"] = _tool_calls(b)
    if role == "tool":
        message["tool_call_id"] = b.text(8)
    if b.below(8) == 0:  # now and then a field of the wrong kind, or on the wrong role
        message[b.pick(("tool_calls", "tool_call_id", "name", "id", "usage", "error"))] = b.scalar()
    return message


class OutsideRead(BaseException):
    """A file outside the sandbox (and outside Python's own install) was opened.

    A BaseException, so no `except Exception` in the library can hide it.
    """


_ALLOWED = tuple(
    str(Path(p).resolve())
    for p in {sys.prefix, sys.base_prefix, sys.exec_prefix, Path(mp.__file__).parent}
)
_watching = False


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if not _watching or event != "open":
        return
    path = args[0]
    if isinstance(path, int):
        return  # an already open descriptor
    where = str(Path(os.fsdecode(path)).resolve()) if path else ""
    if where.startswith(_ALLOWED):
        return
    if where.startswith(str(SANDBOX)):
        if ALLOW_PATHS:
            return
        raise OutsideRead(f"a message dict made the library open {where}: a local path")
    raise OutsideRead(f"opened {where!r}, outside the fuzzer's sandbox")


def test_one_input(data: bytes) -> None:
    """Read, round-trip and render one message dict; re-raise anything but a MediaError."""
    global _watching
    value = build(data)
    _watching = True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            _check(value)
    finally:
        _watching = False


def _check(value: dict[str, Any]) -> None:
    try:
        message = mp.message_from_dict(value)
    except mp.MediaError:
        return
    again = mp.message_from_dict(message.to_dict())
    if CHECK_ROUNDTRIP and again != message:
        raise AssertionError(f"to_dict() round trip changed the message:\n{message!r}\n{again!r}")
    with mp.offline():
        for provider in PROVIDERS:
            with contextlib.suppress(mp.MediaError):
                mp.render([message], provider, on_loss="drop")  # losses: test_render_loss


def run_plain(count: int, seed: int = 0) -> int:
    """Feed `count` seeded random inputs to the target; return how many failed."""
    rng = random.Random(seed)
    failures = 0
    for n in range(count):
        data = rng.randbytes(rng.randint(0, 256))
        try:
            test_one_input(data)
        except (Exception, OutsideRead):
            failures += 1
            name = f"crash-{hashlib.sha1(data).hexdigest()[:12]}"
            (STARTED_IN / name).write_bytes(data)
            print(f"input {n}: saved {name}", file=sys.stderr)
            traceback.print_exc()
    print(f"{count} inputs, {failures} failures", file=sys.stderr)
    return failures


def main() -> None:
    """Run under atheris (libFuzzer flags pass through), or the plain runner with --plain N."""
    # libFuzzer's folders and files are named relative to where the fuzzer was started.
    sys.argv[1:] = [
        a if a.startswith("-") or a.isdigit() else os.path.abspath(a) for a in sys.argv[1:]
    ]
    os.chdir(SANDBOX)  # relative paths in the dicts ("a.png") resolve inside the sandbox
    sys.addaudithook(_audit)
    if "--plain" in sys.argv or atheris is None:
        args = [a for a in sys.argv[1:] if a != "--plain" and a.isdigit()]
        sys.exit(1 if run_plain(int(args[0]) if args else 2000) else 0)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
