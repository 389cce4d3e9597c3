"""Error messages repeat at most ~80 characters of what the caller passed.

Every public entry point below is fed a long, unique, hostile string where it takes text (a
path, a URL, a name, a media type, a key, base64) and must fail with our own error whose
message holds no 81-character run of that string: a message ends up in logs, HTTP responses
and terminals, where a 40 KB base64 upload or a crafted name would flood them.
"""

from __future__ import annotations

import io
import random
import string
from collections.abc import Callable
from typing import Any

import pytest

import mediaparts as mp
from mediaparts import providers
from tests._builders import TESTDATA

WINDOW = 81
PNG = (TESTDATA / "alpha.png").read_bytes()


def hostile(size: int = 12_000, *, alphabet: str = string.ascii_letters + string.digits) -> str:
    """Return a long string no 81-character run of which appears twice (or anywhere else)."""
    rng = random.Random(size)
    return "".join(rng.choice(alphabet) for _ in range(size))


def repeated(message: str, given: str) -> str | None:
    """Return the first 81-character run of `given` that `message` holds, or None."""
    runs = {message[i : i + WINDOW] for i in range(len(message) - WINDOW + 1)}
    return next(
        (given[i : i + WINDOW] for i in range(len(given)) if given[i : i + WINDOW] in runs), None
    )


def _message() -> mp.Message:
    return mp.User("hi")


# Each entry: a name, and a call taking the hostile text. Every call must raise MediaError.
ENTRY_POINTS: list[tuple[str, Callable[[str], Any]]] = [
    ("part of a path", lambda s: mp.part(s)),
    ("part of a path with a suffix", lambda s: mp.part(s + ".png")),
    ("part of base64", lambda s: mp.part(s.replace("_", "A"))),
    ("part of a data URI", lambda s: mp.part("data:" + s)),
    ("part of a base64 data URI", lambda s: mp.part("data:image/png;base64," + s + "!")),
    ("part dict path", lambda s: mp.part({"path": s})),
    ("part dict data", lambda s: mp.part({"data": s + "!"})),
    ("part dict key", lambda s: mp.part({s: 1, "data": PNG})),
    ("part dict kind", lambda s: mp.part({"kind": s, "data": PNG})),
    ("part field", lambda s: mp.part(PNG, **{s: 1})),
    ("part media_type", lambda s: mp.part(PNG, media_type=s + "\ud800")),
    ("part detail", lambda s: mp.part(PNG, detail=s)),
    ("part cache", lambda s: mp.part(PNG, cache=s)),
    ("ImagePart positional", lambda s: mp.ImagePart(s)),  # type: ignore[arg-type]
    ("ImagePart field", lambda s: mp.ImagePart(data=PNG, **{s: 1})),
    ("ImagePart detail", lambda s: mp.ImagePart(data=PNG, detail=s)),
    ("ImagePart from_path", lambda s: mp.ImagePart.from_path(s)),
    ("ImagePart from_base64", lambda s: mp.ImagePart.from_base64(s + "!")),
    ("FilePart url", lambda s: mp.FilePart(url=s + "\ud800")),
    ("TextPart field", lambda s: mp.TextPart("x", **{s: 1})),
    ("ToolCall arguments", lambda s: mp.ToolCall(name="f", arguments=s).parsed_arguments()),
    ("User field", lambda s: mp.User("x", **{s: "y"})),
    ("User created_at", lambda s: mp.User("x", created_at=s)),
    ("User content path", lambda s: mp.User(["x", {"path": s}])),
    ("Assistant stop_reason", lambda s: mp.Assistant("x", stop_reason=s)),
    ("System role", lambda s: mp.System("x", role=s)),
    ("detect a path", lambda s: mp.detect(s)),
    ("message_from_dict role", lambda s: mp.message_from_dict({"role": s, "parts": []})),
    ("message_from_dict key", lambda s: mp.message_from_dict({"role": "user", s: 1})),
    ("message_from_dict version", lambda s: mp.message_from_dict({"v": s, "role": "user"})),
    (
        "message_from_dict part kind",
        lambda s: mp.message_from_dict({"role": "user", "parts": [{"kind": s}]}),
    ),
    (
        "message_from_dict path",
        lambda s: mp.message_from_dict({"role": "user", "parts": [{"path": s}]}),
    ),
    ("messages_from a provider", lambda s: mp.messages_from({"messages": []}, s)),
    (
        "messages_from a role",
        lambda s: mp.messages_from({"messages": [{"role": s, "content": "x"}]}, "openai"),
    ),
    (
        "messages_from a bedrock source",
        lambda s: mp.messages_from(
            {"messages": [{"role": "user", "content": [{"document": {"source": {s: 1}}}]}]},
            "bedrock",
        ),
    ),
    (
        "messages_from a gemini role",
        lambda s: mp.messages_from({"contents": [{"role": s, "parts": [{"text": "x"}]}]}, "gemini"),
    ),
    (
        "messages_from an anthropic source",
        lambda s: mp.messages_from(
            {"messages": [{"role": "user", "content": [{"type": "image", "source": {"type": s}}]}]},
            "anthropic",
        ),
    ),
    (
        "messages_from a responses item",
        lambda s: mp.messages_from({"input": [{"role": s, "content": "x"}]}, "openai-responses"),
    ),
    ("message_from_response a role", lambda s: mp.message_from_response({"role": s}, "anthropic")),
    ("render a provider", lambda s: mp.render([_message()], s)),
    ("render a model", lambda s: mp.render([mp.User(PNG)], "openai", model=s, urls=s)),  # type: ignore[arg-type]
    ("render on_loss", lambda s: mp.render([_message()], "openai", on_loss=s)),  # type: ignore[arg-type]
    ("render a message dict", lambda s: mp.render([{"role": s}], "openai")),
    ("check a provider", lambda s: mp.check({}, s)),
    ("normalize a provider", lambda s: mp.normalize(PNG, s)),
    ("normalize detail", lambda s: mp.normalize(PNG, "openai", detail=s)),
    ("normalize urls", lambda s: mp.normalize(PNG, "openai", urls=s)),  # type: ignore[arg-type]
    ("normalize a path", lambda s: mp.normalize(s, "openai")),
    ("count_tokens a model", lambda s: mp.count_tokens(PNG, "openai", model=s, detail=s)),
    ("count_tokens detail", lambda s: mp.count_tokens(PNG, "anthropic", detail=s)),
    ("estimate_tokens a provider", lambda s: mp.estimate_tokens(PNG, s)),
    ("cost a model", lambda s: mp.cost(mp.User("x"), "openai", model=s)),
    ("trim a model", lambda s: mp.trim([mp.User("hi " * 99)], "anthropic", max_tokens=1, model=s)),
    ("from_upload filename", lambda s: mp.from_upload(_Upload(b"%PDF-x", s, "x/y"))),
    ("from_upload content type", lambda s: mp.from_upload(_Upload(b"\0" * 9, "a", s))),
    ("from_upload accept", lambda s: mp.from_upload(_Upload(PNG, "a.png", "image/png"), accept=s)),
    ("providers.get", lambda s: providers.get(s)),
    ("with_rules key", lambda s: providers.get("openai").with_rules(**{s: 1})),
    ("with_rules value", lambda s: providers.get("gemini").with_rules(vision=s)),
    ("configure", lambda s: mp.configure(message_ids=s)),  # type: ignore[arg-type]
    ("FetchPolicy timeout", lambda s: mp.FetchPolicy(timeout=-1, schemes=(s,))),
    ("filter_messages roles", lambda s: mp.filter_messages([_message()], roles=s)),
    ("filter_messages kinds", lambda s: mp.filter_messages([_message()], kinds=s)),
    ("batch_line anthropic id", lambda s: mp.batch_line(s, "hi", "anthropic", model="m")),
    ("batch_line without model", lambda s: mp.batch_line(s, "hi", "openai")),
    ("BatchWriter prefix", lambda s: mp.BatchWriter("gemini", "unused", prefix="a/" + s)),
    ("BatchWriter max_requests", lambda s: mp.BatchWriter("gemini", "o", max_requests=s)),  # type: ignore[arg-type]
    (
        "BatchWriter long line",
        lambda s: mp.BatchWriter("gemini", "o", max_bytes=9).add(s, b"x" * 9 + b"\n"),
    ),
    ("write_batch id", lambda s: mp.write_batch([(s, "hi")], "openai", "unused", workers=1)),
]


class _Upload:
    """A Starlette-like upload."""

    def __init__(self, data: bytes, filename: str, content_type: str) -> None:
        self.file = io.BytesIO(data)
        self.filename = filename
        self.content_type = content_type


def _fetch(url: str) -> None:
    with mp.offline():
        mp.part(url).load()


URL_ENTRY_POINTS: list[tuple[str, Callable[[str], Any]]] = [
    ("fetch a URL offline", lambda s: _fetch("https://example.com/" + s)),
    ("fetch a long host", lambda s: _fetch("https://" + s[:60] + "." + s[60:] + "/x.png")),
    ("fetch a private URL", lambda s: mp.part("http://127.0.0.1/" + s).load()),
    ("fetch a file URL", lambda s: mp.part("file:///" + s).load()),
    ("fetch a URL with credentials", lambda s: _fetch("https://u:" + s + "@example.com/")),
    ("from_url an odd scheme", lambda s: mp.ImagePart.from_url("s3x://" + s).load()),
]


@pytest.mark.parametrize(
    ("call"),
    [c for _, c in ENTRY_POINTS + URL_ENTRY_POINTS],
    ids=[n for n, _ in ENTRY_POINTS + URL_ENTRY_POINTS],
)
def test_messages_bound_the_input(call: Callable[[str], Any]) -> None:
    """A call given 12,000 characters raises a MediaError repeating at most 80 of them."""
    given = hostile()
    with pytest.raises(mp.MediaError) as caught:
        call(given)
    message = str(caught.value)
    assert repeated(message, given) is None, message[:400]
    assert len(message) < 2_000, message[:400]


LONG_PATH = "/home/alice/" + "/".join(["projects-archive-2024"] * 6) + "/board-photo-IMG_0042.HEIC"
LONG_URL = "https://example.com/" + "/".join(["gallery-archive-2024"] * 6) + "/IMG_0042.HEIC"
LONG_LOCAL_URL = LONG_URL.replace("example.com", "127.0.0.1")

# Each entry: a name, a call given the long path or URL, and the attribute holding it whole.
WHERE_ENTRY_POINTS: list[tuple[str, Callable[[str], Any], str, str]] = [
    ("part of a path", lambda s: mp.part(s), LONG_PATH, "path"),
    ("from_path", lambda s: mp.ImagePart.from_path(s), LONG_PATH, "path"),
    ("detect a path", lambda s: mp.detect(s), LONG_PATH, "path"),
    ("normalize a path", lambda s: mp.normalize(s, "openai"), LONG_PATH, "path"),
    (
        "message_from_dict path",
        lambda s: mp.message_from_dict({"role": "user", "parts": [{"path": s}]}),
        LONG_PATH,
        "path",
    ),
    ("fetch a URL offline", _fetch, LONG_URL, "url"),
    ("fetch a private URL", lambda s: mp.part(s).load(), LONG_LOCAL_URL, "url"),
]


@pytest.mark.parametrize(
    ("call", "given", "attribute"),
    [(c, g, a) for _, c, g, a in WHERE_ENTRY_POINTS],
    ids=[n for n, *_ in WHERE_ENTRY_POINTS],
)
def test_messages_keep_the_end_of_a_path_or_url(
    call: Callable[[str], Any], given: str, attribute: str
) -> None:
    """A long path or URL is shown by its start and its end (the file name stays), within 80
    characters, and the error carries it whole as an attribute."""
    with pytest.raises(mp.MediaError) as caught:
        call(given)
    message = str(caught.value)
    assert given[:20] in message and given[-20:] in message, message
    assert repeated(message, given) is None, message
    assert getattr(caught.value, attribute) == given


class _FailingRepr:
    def __repr__(self) -> str:
        raise RuntimeError("a caller's repr that fails")


@pytest.mark.parametrize(
    ("value", "starts"),
    [
        (b"\x00" * (8 * 2**20), "b'\\x00"),  # 8 MB of bytes: the repr of a prefix only
        (bytearray(b"ab" * 10_000), "b'abab"),
        ([["x" * 10_000] * 100] * 100, "[["),
        ({"k" * 5_000: "v"}, "{'kkk"),
        (_FailingRepr(), "<_FailingRepr instance"),
    ],
    ids=["bytes", "bytearray", "nested-list", "dict", "failing-repr"],
)
def test_excerpt_of_any_value_is_bounded(value: object, starts: str) -> None:
    """excerpt shows any value in at most about 80 characters, without building a whole
    repr of a large value, and never raises for a repr that fails."""
    from mediaparts._errors import excerpt

    shown = excerpt(value)
    assert shown.startswith(starts)
    assert len(shown) <= 110


def test_part_given_a_failing_repr_is_our_error() -> None:
    """A positional value whose repr raises still gives InvalidMedia, not the caller's error."""
    with pytest.raises(mp.InvalidMedia):
        mp.ImagePart(_FailingRepr())  # type: ignore[arg-type]
