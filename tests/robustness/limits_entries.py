"""The entry points the limits harness drives, each a list of named calls on one input.

Each entry takes the case's input (bytes, a string, a path or a built object) and its options
(`filename`, `declared`, `content_type`, `accept`, `providers`) and yields `(name, call)` pairs;
the harness measures every call on its own. A provider loop is one call per provider.
"""

from __future__ import annotations

import base64
import io
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

__all__ = ["ENTRIES", "Upload"]

Calls = Iterator[tuple[str, Callable[[], Any]]]


class Upload(io.BytesIO):
    """A web framework's upload as `from_upload` reads it: bytes plus the client's claims."""

    def __init__(self, data: bytes, filename: str | None, content_type: str | None) -> None:
        super().__init__(data)
        self.filename = filename
        self.content_type = content_type


def _providers(options: Mapping[str, Any]) -> list[str]:
    import mediaparts as mp

    return list(options.get("providers") or mp.providers.names())


def _as_part(value: Any, options: Mapping[str, Any]) -> Any:
    import mediaparts as mp

    declared = options.get("declared")
    return mp.part(value, **({"media_type": declared} if declared else {}))


def _detect(value: Any, options: Mapping[str, Any]) -> Calls:
    import mediaparts as mp

    yield (
        "detect",
        lambda: mp.detect(
            value, filename=options.get("filename"), declared=options.get("declared")
        ),
    )


def _part(value: Any, options: Mapping[str, Any]) -> Calls:
    import mediaparts as mp

    def make() -> Any:
        made = _as_part(value, options)
        if isinstance(made, mp.ImagePart):
            return made.width, made.height
        return made

    yield "part", make


def _text(value: Any) -> str:
    return value if isinstance(value, str) else base64.b64encode(value).decode()


def _part_base64(value: Any, options: Mapping[str, Any]) -> Calls:
    import mediaparts as mp

    text = _text(value)
    declared = options.get("declared") or "application/octet-stream"
    uri = text if text.startswith("data:") else f"data:{declared};base64,{text}"
    yield "part({'data': base64})", lambda: mp.part({"data": text})
    yield "part(data URI)", lambda: mp.part(uri)
    yield "ImagePart.from_base64", lambda: mp.ImagePart.from_base64(text)


def _upload(value: Any, options: Mapping[str, Any]) -> Calls:
    import mediaparts as mp

    def call() -> Any:
        upload = Upload(value, options.get("filename"), options.get("content_type"))
        kwargs = {"accept": options["accept"]} if "accept" in options else {}
        return mp.from_upload(upload, **kwargs)

    yield "from_upload", call


def _per_provider(
    name: str, verb: Callable[[Any, str], Any]
) -> Callable[[Any, Mapping[str, Any]], Calls]:
    def calls(value: Any, options: Mapping[str, Any]) -> Calls:
        for provider in _providers(options):
            yield f"{name}[{provider}]", lambda p=provider: verb(value, p)  # type: ignore[misc]

    return calls


def _normalize(value: Any, provider: str) -> Any:
    import mediaparts as mp

    return mp.normalize(mp.part(value), provider)


def _estimate(value: Any, provider: str) -> Any:
    import mediaparts as mp

    return mp.estimate_tokens(mp.part(value), provider)


def _count(value: Any, provider: str) -> Any:
    import mediaparts as mp

    return mp.count_tokens(mp.part(value), provider)


def _render(value: Any, provider: str) -> Any:
    import mediaparts as mp

    return mp.render([mp.User(["Describe this.", mp.part(value)])], provider)


def _check(value: Any, provider: str) -> Any:
    import mediaparts as mp

    return mp.check(value, provider)


def _messages(value: Any, options: Mapping[str, Any]) -> Calls:
    """`message_from_dict`, then `render` of what it made for every provider, offline."""
    import mediaparts as mp

    made: list[Any] = []

    def read() -> Any:
        made.append(mp.message_from_dict(value))

    yield "message_from_dict", read
    if not made:  # it raised: nothing to render
        return
    for provider in _providers(options):

        def render(p: str = provider) -> Any:
            with mp.offline():
                return mp.render([made[0]], p)

        yield f"render[{provider}]", render
    yield from _budgets([made[0]], options)


def _budgets(conversation: list[Any], options: Mapping[str, Any]) -> Calls:
    """The conversation operations on what a dict made: count, trim, cost, show, filter."""
    import mediaparts as mp

    for provider in _providers(options):

        def count(p: str = provider) -> Any:
            with mp.offline():
                return mp.count_tokens(conversation, p)

        def trim(p: str = provider) -> Any:
            with mp.offline():
                return mp.trim(conversation, p, max_tokens=10**9, unknown="ignore")

        yield f"count_tokens[{provider}]", count
        yield f"trim[{provider}]", trim

    def cost() -> Any:
        with mp.offline():
            return mp.cost(conversation, "openai", model="m", prices=mp.Price(1, 1))

    yield "cost", cost
    yield "show", lambda: mp.show(conversation, max_text=200)
    yield "filter_messages", lambda: mp.filter_messages(conversation, kinds=("text",))


def _svg_payloads(value: Any, options: Mapping[str, Any]) -> Calls:
    """The SVG inside each provider's payload: read back, rendered and counted for another."""
    import mediaparts as mp
    from tests.robustness.limits_svg import payloads

    for reader, payload in payloads(value).items():
        for provider in _providers(options):

            def call(p: str = provider, r: str = reader, body: Any = payload) -> Any:
                with mp.offline():
                    return mp.render(mp.messages_from(body, r), p)

            def count(p: str = provider, r: str = reader, body: Any = payload) -> Any:
                with mp.offline():
                    return mp.count_tokens(mp.messages_from(body, r), p)

            yield f"messages_from[{reader}]+render[{provider}]", call
            yield f"messages_from[{reader}]+count_tokens[{provider}]", count


def _fit_animated(value: Any, options: Mapping[str, Any]) -> Calls:
    """`imaging.fit_image` with animations allowed, bound for a 1568-pixel target."""
    import mediaparts as mp
    from mediaparts.imaging import FitSpec, fit_image

    spec = FitSpec(
        accepted=("image/gif", "image/png", "image/webp"),
        animated_ok=True,
        max_width=1568,
        max_height=1568,
    )
    yield "fit_image(animated_ok)", lambda: fit_image(value, mp.detect(value).media_type, spec)


def _cli(value: Any, options: Mapping[str, Any]) -> Calls:
    """`mediaparts inspect FILE --provider ...`, in this process, as `python -m` runs it."""
    from mediaparts.cli import main

    argv = ["inspect", str(value)]
    for provider in _providers(options):
        argv += ["--provider", provider]
    yield "cli inspect", lambda: main(argv)


def _misbehave(value: Any, options: Mapping[str, Any]) -> Calls:
    """Break the bound on purpose, as `options["how"]` says: the harness's own self-check."""
    how = options["how"]

    def spin() -> None:
        end = time.process_time() + 3.0
        while time.process_time() < end:
            pass

    def hog() -> bytearray:
        block = bytearray(400 * 2**20)
        block[::4096] = b"x" * len(block[::4096])  # touch every page so it is resident
        return block

    def hang() -> None:
        time.sleep(60)

    def foreign() -> None:
        raise KeyError(value)

    def accept() -> bytes:
        return bytes(value)

    calls = {"spin": spin, "hog": hog, "hang": hang, "foreign": foreign, "accept": accept}
    yield f"misbehave {how}", calls[how]


def _read_batch_results(value: Any, options: Mapping[str, Any]) -> Calls:
    import mediaparts as mp

    yield "read_batch_results", lambda: sum(1 for _ in mp.read_batch_results(value, "openai"))


def _write_batch(value: Any, options: Mapping[str, Any]) -> Calls:
    import tempfile

    import mediaparts as mp

    def write() -> Any:
        with tempfile.TemporaryDirectory() as out:
            return mp.write_batch(value, "gemini", out, workers=1)

    yield "write_batch", write


def _stream(value: Any, options: Mapping[str, Any]) -> Calls:
    """`message_from_stream` over raw server-sent event bytes, in chunks of `options["chunk"]`."""
    import mediaparts as mp

    size = int(options.get("chunk") or 4096)
    for provider in _providers(options):

        def read(p: str = provider) -> Any:
            pieces = (value[at : at + size] for at in range(0, len(value), size))
            return mp.message_from_stream(pieces, p)

        yield f"message_from_stream[{provider}]", read


ENTRIES: dict[str, Callable[[Any, Mapping[str, Any]], Calls]]
ENTRIES = {
    "detect": _detect,
    "part": _part,
    "part-base64": _part_base64,
    "from_upload": _upload,
    "normalize": _per_provider("normalize", _normalize),
    "estimate_tokens": _per_provider("estimate_tokens", _estimate),
    "count_tokens": _per_provider("count_tokens", _count),
    "render": _per_provider("render", _render),
    "check": _per_provider("check", _check),
    "message_from_dict": _messages,
    "fit_image": _fit_animated,
    "svg_payloads": _svg_payloads,
    "cli": _cli,
    "misbehave": _misbehave,
    "read_batch_results": _read_batch_results,
    "write_batch": _write_batch,
    "stream": _stream,
}
